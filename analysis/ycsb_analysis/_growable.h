/* A growable byte buffer owned by C, shared by the compiled scanners (_raw_scan.c,
 * _status_scan.c): one definition, so both grow the same way (doubling: amortised O(1) per
 * byte) and both report running out of memory as Python's MemoryError.
 * Include after Python.h. */
#ifndef YCSB_ANALYSIS_GROWABLE_H
#define YCSB_ANALYSIS_GROWABLE_H

#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    size_t n, cap; /* bytes used, bytes allocated */
} Buf;

/* Room for `more` bytes after the used ones; -1 (MemoryError set) when there is none. */
static inline int buf_reserve(Buf *v, size_t more) {
    if (v->n + more <= v->cap) return 0;
    size_t cap = v->cap ? v->cap : 4096;
    while (cap < v->n + more) cap *= 2;
    char *p = realloc(v->p, cap);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    v->p = p;
    v->cap = cap;
    return 0;
}

/* Append `size` bytes; -1 (MemoryError set) when there is no room. */
static inline int buf_push(Buf *v, const void *x, size_t size) {
    if (buf_reserve(v, size) < 0) return -1;
    memcpy(v->p + v->n, x, size);
    v->n += size;
    return 0;
}

/* The used bytes as a bytes object (a copy: the buffer stays the caller's to free). */
static inline PyObject *buf_bytes(const Buf *v) {
    return PyBytes_FromStringAndSize(v->p ? v->p : "", (Py_ssize_t)v->n);
}

static inline void buf_free(Buf *v) {
    free(v->p);
    v->p = NULL;
    v->n = v->cap = 0;
}

#endif
