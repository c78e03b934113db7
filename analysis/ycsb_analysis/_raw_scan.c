/* fast_raw's per-byte work in one pass: split a block of a measurementtype=raw output into
 * lines, read each line that is certainly a raw datapoint (READ,1795385384846,2701) into
 * columns, and say which lines are not (fast_raw keeps those as text for the readable path).
 *
 * Certainly a raw datapoint, in bytes (fast_raw's definition, a subset of
 * line_formats.RAW_DATAPOINT): [A-Za-z0-9_-]{1,40} "," 10 to 15 digits "," optional "-" and
 * 1 to 15 digits, then "\n". At most 15 digits, so every number is exact as a double.
 * Whatever else is on a line makes it "other"; the scan gives up (returns None, and fast_raw
 * reads the block its other ways) when the block holds a line break str.splitlines knows
 * besides "\n", more than MAX_NAMES metric names, or mostly other lines (a status log).
 * Plain C and the buffer protocol: no numpy headers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_growable.h"

#define MAX_NAME 40
#define MAX_DIGITS 15
#define MAX_NAMES 256
/* Give up once this many lines are other lines and they outnumber the datapoints: a status
 * log's block is then left after a few dozen lines, not scanned whole. */
#define GIVE_UP_AFTER 32

static unsigned char NAME_BYTE[256];
static unsigned char OTHER_BREAK[256]; /* bytes str.splitlines also ends a line at */

static void init_tables(void) {
    for (int c = 'A'; c <= 'Z'; c++) NAME_BYTE[c] = 1;
    for (int c = 'a'; c <= 'z'; c++) NAME_BYTE[c] = 1;
    for (int c = '0'; c <= '9'; c++) NAME_BYTE[c] = 1;
    NAME_BYTE['_'] = NAME_BYTE['-'] = 1;
    const unsigned char breaks[] = {'\r', 0x0b, 0x0c, 0x1c, 0x1d, 0x1e};
    for (size_t i = 0; i < sizeof breaks; i++) OTHER_BREAK[breaks[i]] = 1;
}

/* Another line break of str.splitlines in [p, end): one of OTHER_BREAK, or U+0085, U+2028,
 * U+2029 in UTF-8 (C2 85, E2 80 A8, E2 80 A9). */
static int has_other_break(const unsigned char *p, const unsigned char *end) {
    for (; p < end; p++) {
        if (OTHER_BREAK[*p]) return 1;
        if (*p == 0xC2 && p + 1 < end && p[1] == 0x85) return 1;
        if (*p == 0xE2 && p + 2 < end && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9))
            return 1;
    }
    return 0;
}

/* A column of int64 or double, sized for every line of the block up front. */
static int alloc(void **p, Py_ssize_t n) {
    *p = malloc((size_t)(n ? n : 1) * 8);
    if (!*p) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* scan(data) -> None or (n_lines, names, code, timestamp_ms, latency_us, raw_pos, other)
 *
 * data: whole lines, ending with "\n". names: the metric names (bytes) in order of first
 * appearance; code (int64): each datapoint's index into them; timestamp_ms and latency_us
 * (float64); raw_pos (int64): each datapoint's line number; other (int64 triples): line
 * number, first byte and end byte (its "\n") of every other line. */
static PyObject *scan(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    const unsigned char *data = buf.buf, *end = data + buf.len;
    PyObject *result = NULL;
    int64_t *code = NULL, *raw_pos = NULL;
    double *ts = NULL, *lat = NULL;
    Buf other = {0}; /* the other lines' (line, first byte, end byte) */
    const unsigned char *name_at[MAX_NAMES];
    int name_len[MAX_NAMES];
    int n_names = 0, last = -1;
    int64_t line = 0, n_raw = 0, n_other = 0;
    int gave_up = 0;
    if (buf.len == 0 || end[-1] != '\n') {
        gave_up = 1;
        goto done;
    }
    Py_ssize_t max_lines = 0;
    for (const unsigned char *s = data; s < end; max_lines++)
        s = (const unsigned char *)memchr(s, '\n', (size_t)(end - s)) + 1;
    if (alloc((void **)&code, max_lines) < 0 || alloc((void **)&raw_pos, max_lines) < 0 ||
        alloc((void **)&ts, max_lines) < 0 || alloc((void **)&lat, max_lines) < 0)
        goto fail;
    for (const unsigned char *s = data; s < end; line++) {
        /* read as a datapoint until a byte says it is not one; end (the "\n") is always
         * there, so no byte past it is looked at */
        const unsigned char *p = s;
        int64_t t = 0, v = 0;
        int n, neg;
        while (NAME_BYTE[*p]) p++;
        int len = (int)(p - s);
        if (len < 1 || len > MAX_NAME || *p != ',') goto other_line;
        p++;
        for (n = 0; (unsigned)(p[n] - '0') < 10 && n <= MAX_DIGITS; n++) t = t * 10 + (p[n] - '0');
        if (n < 10 || n > MAX_DIGITS || p[n] != ',') goto other_line;
        p += n + 1;
        neg = *p == '-';
        p += neg;
        for (n = 0; (unsigned)(p[n] - '0') < 10 && n <= MAX_DIGITS; n++) v = v * 10 + (p[n] - '0');
        if (n < 1 || n > MAX_DIGITS || p[n] != '\n') goto other_line;
        /* the metric: the previous line's (names come in runs), else looked up */
        if (!(last >= 0 && name_len[last] == len && memcmp(name_at[last], s, len) == 0)) {
            int k = 0;
            while (k < n_names && !(name_len[k] == len && memcmp(name_at[k], s, len) == 0)) k++;
            if (k == n_names) {
                if (n_names == MAX_NAMES) {
                    gave_up = 1;
                    goto done;
                }
                name_at[k] = s;
                name_len[k] = len;
                n_names++;
            }
            last = k;
        }
        code[n_raw] = last;
        ts[n_raw] = (double)t;
        lat[n_raw] = neg && v ? -(double)v : (double)v; /* no -0.0 */
        raw_pos[n_raw++] = line;
        s = p + n + 1;
        continue;
    other_line:;
        const unsigned char *nl = memchr(s, '\n', (size_t)(end - s));
        if (has_other_break(s, nl)) {
            gave_up = 1;
            goto done;
        }
        {
            int64_t triple[3] = {line, (int64_t)(s - data), (int64_t)(nl - data)};
            if (buf_push(&other, triple, sizeof triple) < 0) goto fail;
        }
        n_other++;
        if (n_other >= GIVE_UP_AFTER && n_other > line + 1 - n_other) {
            gave_up = 1;
            goto done;
        }
        s = nl + 1;
    }
done:
    if (gave_up) {
        result = Py_None;
        Py_INCREF(result);
    } else {
        PyObject *names = PyList_New(n_names);
        if (!names) goto fail;
        for (int k = 0; k < n_names; k++) {
            PyObject *b = PyBytes_FromStringAndSize((const char *)name_at[k], name_len[k]);
            if (!b) {
                Py_DECREF(names);
                goto fail;
            }
            PyList_SET_ITEM(names, k, b);
        }
        Py_ssize_t size = (Py_ssize_t)n_raw * 8;
        result = Py_BuildValue("(LNy#y#y#y#N)", (long long)line, names, (char *)code, size,
                               (char *)ts, size, (char *)lat, size, (char *)raw_pos, size,
                               buf_bytes(&other));
    }
fail:
    free(code);
    free(ts);
    free(lat);
    free(raw_pos);
    buf_free(&other);
    PyBuffer_Release(&buf);
    return result;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(data) -> None or (n_lines, names, code, timestamp_ms, latency_us, raw_pos, other)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_raw_scan",
                                    "Raw datapoints read in one pass (see fast_raw).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__raw_scan(void) {
    init_tables();
    return PyModule_Create(&module);
}
