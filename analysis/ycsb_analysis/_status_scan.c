/* The per-byte work of fast_status in one pass: find each line's numbers, read them, build the
 * line's skeleton, and — through the layout Python gives once per distinct skeleton — write
 * each status line's fields straight into output columns.
 *
 * Python (fast_status) keeps the grammar: for every skeleton seen for the first time this
 * module calls `program_of(skeleton)`, which returns None (not a status line this path reads:
 * it goes the readable way) or a *program* (int64 array as bytes) saying what each number of
 * the line must look like and which output column it goes to. Numbers are read exactly as
 * line_formats.to_number reads them (see read_number); whatever is doubtful refuses the line,
 * never guesses. Plain C and the buffer protocol: no numpy headers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "_growable.h"

/* What a number may stand for (bits of a number's flags and of a program's needs). */
#define F_COUNT 1   /* \d+, at most 15 digits */
#define F_LATENCY 2 /* the same, or 19 digits >= Long.MAX_VALUE (an empty histogram: missing) */
#define F_DECIMAL 4 /* \d+([.,]\d+)?, at most 15 digits in all */

#define MAX_DIGITS 15
#define MAX_PCT_COLUMNS 64
#define LONG_MAX_VALUE 9223372036854775807ULL

static const double POW10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/* ---- growable columns ------------------------------------------------------------------ */

/* A column grown in place inside the bytes object it is handed over as (no copy at the end,
 * no second buffer to free: fewer holes left in the C heap between the kept columns). */
typedef struct {
    PyObject *b;
    char *p;
    size_t n, cap; /* bytes */
} Vec;

static int vec_reserve(Vec *v, size_t more) {
    if (v->n + more <= v->cap) return 0;
    size_t cap = v->cap ? v->cap : 4096;
    while (cap < v->n + more) cap *= 2;
    if (!v->b) {
        v->b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cap);
        if (!v->b) return -1;
    } else if (_PyBytes_Resize(&v->b, (Py_ssize_t)cap) < 0) {
        v->b = NULL;
        return -1;
    }
    v->p = PyBytes_AS_STRING(v->b);
    v->cap = cap;
    return 0;
}

#define VEC_PUSH(v, type, x)                                      \
    do {                                                          \
        if (vec_reserve((v), sizeof(type)) < 0) goto fail;        \
        memcpy((v)->p + (v)->n, &(type){(x)}, sizeof(type));      \
        (v)->n += sizeof(type);                                   \
    } while (0)

/* The column as bytes of its exact length (the Vec gives it up). */
static PyObject *vec_bytes(Vec *v) {
    if (!v->b) return PyBytes_FromStringAndSize("", 0);
    PyObject *b = v->b;
    v->b = NULL;
    v->p = NULL;
    v->cap = 0;
    if (_PyBytes_Resize(&b, (Py_ssize_t)v->n) < 0) return NULL;
    return b;
}

static void vec_free(Vec *v) {
    Py_CLEAR(v->b);
    v->p = NULL;
}

/* ---- interned byte strings (skeletons, estimates): exact identity, no hash trusted ---------- */

/* Each distinct string gets an id, its rank of first appearance. Ids, not slots of the index,
 * are what leaves the table (an estimate's code in the output, a skeleton's successor): a
 * slot moves when the index grows, an id never does. */
typedef struct {
    uint64_t hash;
    size_t off, len; /* in the table's text */
} Key;

typedef struct {
    Buf keys;       /* a Key per id */
    Buf text;       /* the strings' bytes, one after another */
    int32_t *index; /* open addressing: id + 1 per slot, 0 when empty */
    size_t cap;     /* slots (a power of two) */
} Table;

static inline const Key *table_key(const Table *t, Py_ssize_t id) {
    return (const Key *)t->keys.p + id;
}

static inline size_t table_size(const Table *t) { return t->keys.n / sizeof(Key); }

static uint64_t hash_bytes(const unsigned char *s, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, s + i, n - i);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 29;
    return h;
}

static void table_free(Table *t) {
    buf_free(&t->keys);
    buf_free(&t->text);
    free(t->index);
}

/* The id of s in the table, added when new (*added = 1); -1 on memory error. */
static Py_ssize_t table_find(Table *t, const unsigned char *s, size_t n, int *added) {
    size_t used = table_size(t);
    if (2 * (used + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        int32_t *index = calloc(cap, sizeof(int32_t));
        if (!index) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t id = 0; id < used; id++) {
            size_t j = table_key(t, (Py_ssize_t)id)->hash & (cap - 1);
            while (index[j]) j = (j + 1) & (cap - 1);
            index[j] = (int32_t)id + 1;
        }
        free(t->index);
        t->index = index;
        t->cap = cap;
    }
    uint64_t h = hash_bytes(s, n);
    size_t j = h & (t->cap - 1);
    for (; t->index[j]; j = (j + 1) & (t->cap - 1)) {
        Py_ssize_t id = t->index[j] - 1;
        const Key *e = table_key(t, id);
        if (e->hash == h && e->len == n && memcmp(t->text.p + e->off, s, n) == 0) {
            *added = 0;
            return id;
        }
    }
    Key key = {h, t->text.n, n};
    if (buf_push(&t->text, s, n) < 0 || buf_push(&t->keys, &key, sizeof key) < 0) return -1;
    t->index[j] = (int32_t)used + 1;
    *added = 1;
    return (Py_ssize_t)used;
}

/* A line break other than '\n' at s[j] (what str.splitlines also splits at: \r, \v, \f,
 * \x1c-\x1e, and in UTF-8 U+0085, U+2028, U+2029). */
static inline int other_break(const unsigned char *s, size_t j, size_t end) {
    unsigned char c = s[j];
    if (c == '\r' || c == 0x0b || c == 0x0c || (c >= 0x1c && c <= 0x1e)) return 1;
    if (c == 0xc2) return j + 1 < end && s[j + 1] == 0x85;
    if (c == 0xe2)
        return j + 2 < end && s[j + 1] == 0x80 && (s[j + 2] == 0xa8 || s[j + 2] == 0xa9);
    return 0;
}

/* ---- one number ---------------------------------------------------------------------------- */

typedef struct {
    double value;
    int64_t start, end; /* byte offsets in the block */
    int int_len;        /* digits before the decimal mark (all digits when there is none) */
    int flags;
} Number;

static inline int is_digit(unsigned char c) { return (unsigned)(c - '0') < 10; }

#define ONES 0x0101010101010101ULL
/* High bit set in (at least) the lowest byte of w below n (n <= 128); bytes above a flagged
 * one may be flagged wrongly, so only the lowest flag is used. */
static inline uint64_t has_less(uint64_t w, uint64_t n) {
    return (w - ONES * n) & ~w & (ONES * 0x80);
}

/* The flags and value of a number from its digits: integer part (its first 19 digits as an
 * integer, int_len digits in all), fraction (first 19 digits, frac_len in all) and how many
 * decimal marks it has. */
static inline void number_value(Number *num, uint64_t int_value, int int_len,
                                uint64_t frac_value, int frac_len, int n_sep) {
    num->int_len = int_len;
    int flags = 0;
    double value = 0.0;
    if (n_sep == 0) {
        if (int_len <= MAX_DIGITS) {
            flags = F_COUNT | F_LATENCY | F_DECIMAL;
            value = (double)int_value;
        } else if (int_len == 19 && int_value >= LONG_MAX_VALUE) {
            flags = F_LATENCY;
            value = NAN;
        }
    } else if (n_sep == 1 && int_len + frac_len <= MAX_DIGITS) {
        flags = F_DECIMAL;
        uint64_t digits = int_value;
        for (int k = 0; k < frac_len; k++) digits *= 10;
        value = (double)(digits + frac_value) / POW10[frac_len];
    }
    num->flags = flags;
    num->value = value;
}

/* How many of the 8 bytes of w (the first in its lowest byte) are digits before the first one
 * that is not: 0 to 8. Exact for every byte, unlike has_less (no carry crosses bytes: each
 * byte's sum stays below 0x100). */
static inline int digit_run(uint64_t w) {
    uint64_t low7 = w & (ONES * 0x7f);
    uint64_t ge0 = low7 + ONES * (0x80 - '0');      /* high bit: low 7 bits >= '0' */
    uint64_t gt9 = low7 + ONES * (0x80 - '9' - 1);  /* high bit: low 7 bits > '9' */
    uint64_t digit = ge0 & ~gt9 & ~w & (ONES * 0x80);
    uint64_t other = ~digit & (ONES * 0x80);
    return other ? __builtin_ctzll(other) / 8 : 8;
}

/* The value of the first n (1 to 8) digits of w (the first in its lowest byte), in three
 * multiplications instead of a loop whose end the branch predictor cannot guess: the digits
 * are moved to the top of the word (zeros, i.e. leading '0's, below), then adjacent pairs,
 * fours and eights are joined. */
static inline uint64_t digits_value(uint64_t w, int n) {
    uint64_t v = (w - ONES * '0') << (8 * (8 - n)); /* a borrow only reaches bytes shifted out */
    v = (v * 10) + (v >> 8);                        /* pairs in the even bytes */
    v = (((v & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
         (((v >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
    return v;
}

/* A number: a run of digits with '.' or ',' (the JVM's decimal comma) between two digits,
 * starting at s[i]. Its value is what line_formats.to_number gives: integers of at most 15
 * digits exactly, a decimal of at most 15 digits as (all digits) / 10^k, one correctly rounded
 * division like float(); 19 digits >= Long.MAX_VALUE are NaN (missing). Other numbers get no
 * flags: a line that needs them as figures is refused. Returns the index after the number.
 * s[end] is '\n' when end < limit (the end of the readable bytes). */
static size_t read_number(const unsigned char *s, size_t i, size_t end, size_t limit,
                          Number *num) {
    num->start = (int64_t)i;
    /* the common shapes (up to 7 digits, a fraction of up to 7) a word at a time, when two
     * words are there to read; s[end] stops a run of digits as any non-digit does */
    if (i + 16 <= limit) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        int int_len = digit_run(w);
        size_t j = i + (size_t)int_len;
        if (int_len < 8) {
            uint64_t int_value = digits_value(w, int_len);
            if (!(j + 1 < end && (s[j] == '.' || s[j] == ',') && is_digit(s[j + 1]))) {
                num->end = (int64_t)j;
                number_value(num, int_value, int_len, 0, 0, 0);
                return j;
            }
            memcpy(&w, s + j + 1, 8);
            int frac_len = digit_run(w);
            size_t k = j + 1 + (size_t)frac_len;
            if (frac_len < 8 && !(k + 1 < end && (s[k] == '.' || s[k] == ',') &&
                                  is_digit(s[k + 1]))) { /* a second mark: the loop below */
                num->end = (int64_t)k;
                number_value(num, int_value, int_len, digits_value(w, frac_len), frac_len, 1);
                return k;
            }
        }
    }
    uint64_t int_value = 0, frac_value = 0;
    int int_len = 0, frac_len = 0, n_sep = 0;
    for (;;) {
        while (i < end && is_digit(s[i])) {
            if (n_sep == 0) {
                if (int_len < 19) int_value = int_value * 10 + (s[i] - '0');
                int_len++;
            } else if (n_sep == 1) {
                if (frac_len < 19) frac_value = frac_value * 10 + (s[i] - '0');
                frac_len++;
            }
            i++;
        }
        if (i + 1 < end && (s[i] == '.' || s[i] == ',') && is_digit(s[i + 1])) {
            n_sep++;
            i++;
            continue;
        }
        break;
    }
    num->end = (int64_t)i;
    number_value(num, int_value, int_len, frac_value, frac_len, n_sep);
    return i;
}

/* ---- dates ---------------------------------------------------------------------------------- */

static int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int days_in_month(int64_t y, int64_t m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) return 29;
    return days[m - 1];
}

/* SimpleDateFormat's "yyyy-MM-dd HH:mm:ss:SSS" fields (digits 4,2,2,2,2,2,3) → microseconds
 * since 1970; 0 when the date does not exist (the line then goes the readable way). */
static int date_of(const Number *t, int64_t *micros) {
    static const int lens[] = {4, 2, 2, 2, 2, 2, 3};
    for (int k = 0; k < 7; k++)
        if (t[k].int_len != lens[k] || !(t[k].flags & F_COUNT)) return 0;
    int64_t y = (int64_t)t[0].value, mo = (int64_t)t[1].value, d = (int64_t)t[2].value;
    int64_t h = (int64_t)t[3].value, mi = (int64_t)t[4].value, s = (int64_t)t[5].value;
    int64_t ms = (int64_t)t[6].value;
    if (y < 1900 || y > 2200 || mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return 0;
    if (d < 1 || d > days_in_month(y, mo)) return 0;
    *micros = (((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 + s) * 1000000 + ms * 1000;
    return 1;
}

/* ---- entry fingerprints ---------------------------------------------------------------------
 * YCSB prints its last status entry twice; multi_output drops an entry whose text equals an
 * earlier one's, across blocks, by two 64-bit hashes of the text. Polynomial hashes (mod 2^64,
 * two odd bases) of the UTF-8 bytes, because they join: an entry's text is its lines joined by
 * single spaces, and hash(a + " " + c) = (hash(a) * B + ' ') * B^len(c) + hash(c), so each
 * line is hashed once, here, and entries are folded from their lines without their text.
 * (Not a cryptographic guarantee: a file built to collide could; a log's entries are not.) */
static const uint64_t BASE[2] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL};

static void poly_hash(const unsigned char *s, size_t n, uint64_t h[2]) {
    for (int k = 0; k < 2; k++) {
        uint64_t b = BASE[k], b2 = b * b, b3 = b2 * b, b4 = b2 * b2, x = 0;
        size_t i = 0;
        for (; i + 4 <= n; i += 4)
            x = x * b4 + s[i] * b3 + s[i + 1] * b2 + s[i + 2] * b + s[i + 3];
        for (; i < n; i++) x = x * b + s[i];
        h[k] = x;
    }
}

static uint64_t pow_u64(uint64_t b, uint64_t e) {
    uint64_t r = 1;
    for (; e; e >>= 1, b *= b)
        if (e & 1) r *= b;
    return r;
}

/* text_hashes(texts) -> bytes of (h1, h2) uint64 pairs: the hashes of each str's UTF-8 text. */
static PyObject *text_hashes(PyObject *self, PyObject *arg) {
    (void)self;
    PyObject *seq = PySequence_Fast(arg, "text_hashes takes a sequence of str");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * 16);
    if (!out) {
        Py_DECREF(seq);
        return NULL;
    }
    uint64_t *h = (uint64_t *)PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t len;
        const char *u = PyUnicode_AsUTF8AndSize(PySequence_Fast_GET_ITEM(seq, i), &len);
        if (!u) {
            Py_DECREF(out);
            Py_DECREF(seq);
            return NULL;
        }
        poly_hash((const unsigned char *)u, (size_t)len, h + 2 * i);
    }
    Py_DECREF(seq);
    return out;
}

/* entry_hashes(hashes, nbytes, first) -> bytes of (h1, h2) per entry: the lines' hashes
 * (uint64 pairs) and byte lengths (int64), in line order, folded per entry (a line with
 * first[i] != 0 starts the next entry) as the hash of the lines joined by single spaces. */
static PyObject *entry_hashes(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer hb, lb, fb;
    if (!PyArg_ParseTuple(args, "y*y*y*", &hb, &lb, &fb)) return NULL;
    PyObject *out = NULL;
    size_t n = (size_t)fb.len;
    if ((size_t)hb.len != 16 * n || (size_t)lb.len != 8 * n) {
        PyErr_SetString(PyExc_ValueError, "entry_hashes: arrays of different lengths");
        goto done;
    }
    const uint64_t *h = hb.buf;
    const int64_t *len = lb.buf;
    const uint8_t *first = fb.buf;
    size_t entries = 0;
    for (size_t i = 0; i < n; i++) entries += first[i] != 0;
    if (n && !first[0]) {
        PyErr_SetString(PyExc_ValueError, "entry_hashes: the first line starts no entry");
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(16 * entries));
    if (!out) goto done;
    uint64_t *e = (uint64_t *)PyBytes_AS_STRING(out) - 2;
    for (size_t i = 0; i < n; i++) {
        if (first[i]) {
            e += 2;
            e[0] = h[2 * i];
            e[1] = h[2 * i + 1];
            continue;
        }
        for (int k = 0; k < 2; k++)
            e[k] = (e[k] * BASE[k] + ' ') * pow_u64(BASE[k], (uint64_t)len[i]) + h[2 * i + k];
    }
done:
    PyBuffer_Release(&hb);
    PyBuffer_Release(&lb);
    PyBuffer_Release(&fb);
    return out;
}

/* ---- programs -------------------------------------------------------------------------------
 * int64 words: kind (1 head, 2 continuation), n_tokens, label code, token of current ops/sec
 * (-1: '∞'), estimate's first token, last token and bytes after it (-1: none), n_measurements,
 * then n_tokens needs (F_* bits), then per measurement: metric code, format code, tokens of
 * count, max, min, avg (-1: none), n_percentiles, then (column, token) per percentile. */
enum { P_KIND, P_NTOK, P_LABEL, P_CURRENT, P_EST0, P_EST1, P_ESTTAIL, P_NMEAS, P_HEADER };

typedef struct {
    Vec pos, time, elapsed, operations, current, label, est; /* heads */
    Vec row_pos, metric, format, count, max, min, avg;       /* measurement rows */
    Vec pct[MAX_PCT_COLUMNS];
    int n_pct;
    Vec kind; /* per line: 0 not read here, 1 head, 2 continuation (uint8) */
    Vec hash, nbytes; /* per line read here: its text's hashes (2 uint64) and length (int64) */
    Vec span;         /* per line: its first byte and one past its last (int64) */
    size_t pct_room;  /* bytes reserved for a new percentile column (as for count) */
} Out;

static void out_free(Out *o) {
    Vec *all[] = {&o->pos,     &o->time,   &o->elapsed, &o->operations, &o->current,
                  &o->label,   &o->est,    &o->row_pos, &o->metric,     &o->format,
                  &o->count,   &o->max,    &o->min,     &o->avg,        &o->kind,
                  &o->hash,    &o->nbytes, &o->span};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) vec_free(all[i]);
    for (int i = 0; i < MAX_PCT_COLUMNS; i++) vec_free(&o->pct[i]);
}

static inline double tok_value(const Number *t, int64_t j) { return j < 0 ? NAN : t[j].value; }

/* Check a line's numbers against its program; 1 when every number fits (and the head's date
 * exists). */
static int line_fits(const int64_t *prog, const Number *t, size_t n_tokens, int64_t *micros) {
    if ((size_t)prog[P_NTOK] != n_tokens) return 0;
    const int64_t *need = prog + P_HEADER;
    for (size_t j = 0; j < n_tokens; j++)
        if ((t[j].flags & need[j]) != need[j]) return 0;
    if (prog[P_KIND] == 1 && !date_of(t, micros)) return 0;
    return 1;
}

static int emit_line(Out *o, Table *ests, const unsigned char *s, const int64_t *prog,
                     const Number *t, int64_t line, int64_t micros) {
    const int64_t *p = prog + P_HEADER + prog[P_NTOK];
    if (prog[P_KIND] == 1) {
        VEC_PUSH(&o->pos, int64_t, line);
        VEC_PUSH(&o->time, int64_t, micros);
        VEC_PUSH(&o->elapsed, double, t[7].value);
        VEC_PUSH(&o->operations, double, t[8].value);
        VEC_PUSH(&o->current, double, prog[P_CURRENT] < 0 ? INFINITY : t[prog[P_CURRENT]].value);
        VEC_PUSH(&o->label, int32_t, (int32_t)prog[P_LABEL]);
        int32_t est = -1;
        if (prog[P_EST0] >= 0) {
            int64_t a = t[prog[P_EST0]].start, b = t[prog[P_EST1]].end + prog[P_ESTTAIL];
            int added;
            Py_ssize_t id = table_find(ests, s + a, (size_t)(b - a), &added);
            if (id < 0) goto fail;
            est = (int32_t)id;
        }
        VEC_PUSH(&o->est, int32_t, est);
    }
    for (int64_t m = 0; m < prog[P_NMEAS]; m++) {
        VEC_PUSH(&o->row_pos, int64_t, line);
        VEC_PUSH(&o->metric, int32_t, (int32_t)p[0]);
        VEC_PUSH(&o->format, int8_t, (int8_t)p[1]);
        VEC_PUSH(&o->count, double, tok_value(t, p[2]));
        VEC_PUSH(&o->max, double, tok_value(t, p[3]));
        VEC_PUSH(&o->min, double, tok_value(t, p[4]));
        VEC_PUSH(&o->avg, double, tok_value(t, p[5]));
        double pct[MAX_PCT_COLUMNS];
        for (int c = 0; c < o->n_pct; c++) pct[c] = NAN;
        int64_t n_pct = p[6];
        for (int64_t k = 0; k < n_pct; k++) {
            int64_t col = p[7 + 2 * k];
            while (o->n_pct <= col) { /* a new column: missing in the rows before */
                Vec *v = &o->pct[o->n_pct];
                size_t rows = o->count.n / sizeof(double) - 1;
                size_t room = rows * sizeof(double);
                if (vec_reserve(v, room > o->pct_room ? room : o->pct_room) < 0) goto fail;
                for (size_t r = 0; r < rows; r++) ((double *)v->p)[r] = NAN;
                v->n = rows * sizeof(double);
                pct[o->n_pct++] = NAN;
            }
            pct[col] = t[p[8 + 2 * k]].value;
        }
        for (int c = 0; c < o->n_pct; c++) VEC_PUSH(&o->pct[c], double, pct[c]);
        p += 7 + 2 * n_pct;
    }
    return 0;
fail:
    return -1;
}

/* Check that a program from Python is well formed for a skeleton of n_tokens numbers: every
 * token index in range, percentile columns below MAX_PCT_COLUMNS. */
static int program_ok(PyObject *prog, size_t n_tokens) {
    if (!PyBytes_Check(prog)) return 0;
    Py_ssize_t len = PyBytes_GET_SIZE(prog);
    if (len % 8 || len < P_HEADER * 8) return 0;
    const int64_t *p = (const int64_t *)PyBytes_AS_STRING(prog);
    size_t words = (size_t)len / 8;
    int64_t n = (int64_t)n_tokens;
    if (p[P_NTOK] != n || (p[P_KIND] != 1 && p[P_KIND] != 2)) return 0;
    if (p[P_KIND] == 1 && n < 9) return 0;
    if (p[P_CURRENT] >= n || (p[P_EST0] >= 0 && (p[P_EST1] >= n || p[P_EST1] < p[P_EST0])))
        return 0;
    size_t at = P_HEADER + (size_t)n;
    if (at > words) return 0;
    for (int64_t m = 0; m < p[P_NMEAS]; m++) {
        if (at + 7 > words) return 0;
        for (int k = 2; k < 6; k++)
            if (p[at + k] >= n || p[at + k] < -1) return 0;
        int64_t n_pct = p[at + 6];
        if (n_pct < 0 || at + 7 + 2 * (size_t)n_pct > words) return 0;
        for (int64_t k = 0; k < n_pct; k++) {
            int64_t col = p[at + 7 + 2 * k], tok = p[at + 8 + 2 * k];
            if (col < 0 || col >= MAX_PCT_COLUMNS || tok < 0 || tok >= n) return 0;
        }
        at += 7 + 2 * (size_t)n_pct;
    }
    return at == words;
}

/* ---- skeletons ------------------------------------------------------------------------------
 * A line's skeleton is its text with each number replaced by '#', except a number right before
 * '=' (a percentile's name, 99.9 of 99.9=2175), which stays as it is written. Building one
 * stops at every digit and is then hashed and compared; yet a log's lines come in a few fixed
 * orders (one skeleton over and over in a real run, a cycle of them in repeated entries). So
 * each skeleton remembers the last few that followed it, and the next line is first read *as*
 * each of those (match_line): its literal runs compared whole, a number read where it has one,
 * the line's hash folded from the runs' hashes (computed once). A line that is none of them is
 * built and looked up as before: the guess saves work, it never decides a result.
 * (parse_speed's 300 MB status log: 18 skeletons, at most 2 successors each; one successor
 * alone was right for 64% of the lines, the last two, most recent first, for all but 0.06%.) */
#define SUCCESSORS 4

typedef struct {
    size_t off, len;          /* in the skeleton table's text */
    uint64_t hash[2], pow[2]; /* poly_hash of its bytes, BASE^len */
} Run;

typedef struct {
    PyObject *program; /* bytes, or Py_None: not a status line this scanner reads */
    Py_ssize_t next[SUCCESSORS]; /* ids of the skeletons of the lines after this one, most
                                  * recent first; -1: none */
    size_t n_tok;
    Run *runs; /* n_tok + 1: the literal bytes before, between and after the numbers */
} Skeleton;

/* The runs of skeleton `id` of table t, whose numbers are at tok_at[0, n_tok) in its text (not
 * every '#' is one: a '#' of the line itself is a literal). */
static int skeleton_init(Skeleton *sk, const Table *t, Py_ssize_t id, const size_t *tok_at,
                         size_t n_tok) {
    const Key *key = table_key(t, id);
    sk->program = NULL;
    for (int k = 0; k < SUCCESSORS; k++) sk->next[k] = -1;
    sk->n_tok = n_tok;
    sk->runs = malloc((n_tok + 1) * sizeof(Run));
    if (!sk->runs) {
        PyErr_NoMemory();
        return -1;
    }
    size_t a = 0;
    for (size_t r = 0; r <= n_tok; r++) {
        size_t b = r < n_tok ? tok_at[r] : key->len;
        Run *run = &sk->runs[r];
        run->off = key->off + a;
        run->len = b - a;
        poly_hash((const unsigned char *)t->text.p + run->off, run->len, run->hash);
        for (int k = 0; k < 2; k++) run->pow[k] = pow_u64(BASE[k], run->len);
        a = b + 1; /* past the '#' */
    }
    return 0;
}

/* id as the most recent successor of sk (the others moved down, the oldest dropped). */
static inline void remember_successor(Skeleton *sk, Py_ssize_t id) {
    if (sk->next[0] == id) return;
    int k = 1;
    while (k < SUCCESSORS - 1 && sk->next[k] != id) k++;
    for (; k > 0; k--) sk->next[k] = sk->next[k - 1];
    sk->next[0] = id;
}

static void skeletons_free(Buf *skels) {
    Skeleton *sk = (Skeleton *)skels->p;
    for (size_t k = 0; k < skels->n / sizeof(Skeleton); k++) {
        Py_XDECREF(sk[k].program);
        free(sk[k].runs);
    }
    buf_free(skels);
}

/* a[0, n) == b[0, n). With room (both readable for 8 bytes past n) in whole words, masking
 * off the bytes past n (little-endian, as the SWAR code above): the runs are short, a call to
 * memcmp per run would cost more than the compare. */
static inline int same_bytes(const unsigned char *a, const unsigned char *b, size_t n,
                             int room) {
    if (!room) return memcmp(a, b, n) == 0;
    for (;; a += 8, b += 8, n -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (n <= 8) return n == 0 || ((x ^ y) << (64 - 8 * n)) == 0;
        if (x != y) return 0;
    }
}

/* Read s[i, end) as skeleton sk (whose text is in `text`, readable 8 bytes past its end) when
 * the line is one: 1 when building the line's skeleton would give exactly sk's text, with the
 * line's numbers in t and its poly_hash in h; 0 otherwise. That holds because sk was built by
 * build_skeleton: its literal runs hold digits only as names before '=', and a number read
 * here is read whole, as the build reads it. `limit`: the end of the readable bytes. */
static int match_line(const unsigned char *s, size_t i, size_t end, size_t limit,
                      const Skeleton *sk, const unsigned char *text, Number *t, uint64_t h[2]) {
    uint64_t h0 = 0, h1 = 0;
    size_t j = i;
    for (size_t r = 0;; r++) {
        const Run *run = &sk->runs[r];
        if (end - j < run->len ||
            !same_bytes(s + j, text + run->off, run->len, j + run->len + 8 <= limit))
            return 0;
        j += run->len;
        h0 = h0 * run->pow[0] + run->hash[0];
        h1 = h1 * run->pow[1] + run->hash[1];
        if (r == sk->n_tok) break;
        if (j >= end || !is_digit(s[j])) return 0;
        size_t after = read_number(s, j, end, limit, &t[r]);
        if (after < end && s[after] == '=') return 0; /* a name: the build keeps it literal */
        for (; j < after; j++) {
            h0 = h0 * BASE[0] + s[j];
            h1 = h1 * BASE[1] + s[j];
        }
    }
    if (j != end) return 0;
    h[0] = h0;
    h[1] = h1;
    return 1;
}

/* Growable scratch of the skeleton build: the line's skeleton, its numbers, and where each
 * number's '#' is in the skeleton. */
typedef struct {
    unsigned char *skel;
    size_t skel_cap;
    Number *tok;
    size_t *tok_at;
    size_t tok_cap;
} Scratch;

static void scratch_free(Scratch *w) {
    free(w->skel);
    free(w->tok);
    free(w->tok_at);
}

/* Build the skeleton of s[i, end) into w->skel (its length in *len) and read its numbers into
 * w->tok (their count in *n_tok). 1 done, 0 the line holds a line break other than '\n', -1
 * memory error. */
static int build_skeleton(const unsigned char *s, size_t i, size_t end, size_t limit, Scratch *w,
                          size_t *len, size_t *n_tok_out) {
    if (end - i + 8 > w->skel_cap) { /* the line and 8 bytes: SWAR copies whole words */
        size_t cap = 2 * (end - i + 8);
        unsigned char *p = realloc(w->skel, cap);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        w->skel = p;
        w->skel_cap = cap;
    }
    unsigned char *skel = w->skel;
    size_t n_tok = 0, k = 0, j = i;
    while (j < end) {
        /* eight bytes at a time up to the next digit or unusual byte (SWAR): status lines
         * are mostly plain ASCII between their numbers */
        while (j + 8 <= end) {
            uint64_t v;
            memcpy(&v, s + j, 8);
            uint64_t special =
                has_less(v ^ (ONES * '0'), 10) | has_less(v, 0x20) | (v & (ONES * 0x80));
            if (!special) {
                memcpy(skel + k, s + j, 8);
                k += 8;
                j += 8;
                continue;
            }
            size_t plain = (size_t)__builtin_ctzll(special) / 8; /* exact for the first */
            memcpy(skel + k, s + j, 8);                            /* (room: see skel_cap) */
            k += plain;
            j += plain;
            break;
        }
        if (j >= end) break;
        unsigned char c = s[j];
        if (!is_digit(c)) {
            if ((c < 0x20 || c >= 0xc2) && other_break(s, j, end)) return 0;
            skel[k++] = c;
            j++;
            continue;
        }
        if (n_tok == w->tok_cap) {
            size_t cap = w->tok_cap ? 2 * w->tok_cap : 64;
            Number *p = realloc(w->tok, cap * sizeof(Number));
            if (p) w->tok = p;
            size_t *q = p ? realloc(w->tok_at, cap * sizeof(size_t)) : NULL;
            if (!q) {
                PyErr_NoMemory();
                return -1;
            }
            w->tok_at = q;
            w->tok_cap = cap;
        }
        size_t after = read_number(s, j, end, limit, &w->tok[n_tok]);
        if (after < end && s[after] == '=') { /* a name, not a figure: no token */
            memcpy(skel + k, s + j, after - j);
            k += after - j;
        } else {
            w->tok_at[n_tok++] = k;
            skel[k++] = '#';
        }
        j = after;
    }
    *len = k;
    *n_tok_out = n_tok;
    return 1;
}

/* scan(data, program_of) -> (kinds, line hashes, line lengths, line spans, heads tuple, rows
 * tuple, percentile columns, estimates), or None when the data holds a line break other than
 * '\n' — see fast_status._compiled_status_lines. */
static PyObject *scan(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    PyObject *program_of;
    if (!PyArg_ParseTuple(args, "y*O", &buf, &program_of)) return NULL;
    const unsigned char *s = buf.buf;
    size_t n = (size_t)buf.len;
    Out o;
    memset(&o, 0, sizeof o);
    Table skeletons, ests;
    memset(&skeletons, 0, sizeof skeletons);
    memset(&ests, 0, sizeof ests);
    Buf skels = {0}; /* a Skeleton per id of the skeletons table */
    Scratch w = {0};
    PyObject *result = NULL;

    int64_t line = 0;
    int breaks = 0;
    size_t i = 0;
    Py_ssize_t prev = -1; /* the previous line's skeleton */
    /* Room for a dense log's columns up front, every column (a guess: a line per 128 bytes, a
     * head per 256, a row per 64): no copy while growing, usually. Room not written costs
     * address space only, and the columns are cut to their length at the end. */
    struct {
        Vec *v;
        size_t per_byte; /* a byte of room per this many bytes of data */
    } room[] = {{&o.kind, 128},      {&o.hash, 8},     {&o.nbytes, 16},   {&o.span, 8},
                {&o.pos, 32},        {&o.time, 32},    {&o.elapsed, 32},  {&o.operations, 32},
                {&o.current, 32},    {&o.label, 64},   {&o.est, 64},      {&o.row_pos, 8},
                {&o.metric, 16},     {&o.format, 64},  {&o.count, 8},     {&o.max, 8},
                {&o.min, 8},         {&o.avg, 8}};
    for (size_t k = 0; k < sizeof room / sizeof *room; k++)
        if (vec_reserve(room[k].v, n / room[k].per_byte + 64) < 0) goto fail;
    o.pct_room = n / 8 + 64;
    while (i < n) {
        const unsigned char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n;
        Skeleton *sk = (Skeleton *)skels.p;
        Py_ssize_t id = -1;
        const Number *tok = w.tok;
        size_t n_tok = 0;
        uint64_t h[2];
        int hashed = 0;
        for (int k = 0; prev >= 0 && k < SUCCESSORS && sk[prev].next[k] >= 0; k++) {
            Py_ssize_t guess = sk[prev].next[k];
            if (match_line(s, i, end, n, &sk[guess], (const unsigned char *)skeletons.text.p,
                           w.tok, h)) {
                id = guess;
                n_tok = sk[id].n_tok;
                hashed = 1;
                break;
            }
        }
        if (id < 0) {
            size_t k;
            int built = build_skeleton(s, i, end, n, &w, &k, &n_tok);
            if (built < 0) goto fail;
            if (!built) { /* str.splitlines would cut the line: the caller reads it as text */
                breaks = 1;
                goto done;
            }
            tok = w.tok;
            int added;
            id = table_find(&skeletons, w.skel, k, &added);
            if (id < 0) goto fail;
            if (added) {
                /* 8 bytes of room past the text: match_line compares whole words */
                if (buf_reserve(&skeletons.text, 8) < 0 || buf_reserve(&skels, sizeof(Skeleton)) < 0)
                    goto fail;
                sk = (Skeleton *)skels.p;
                if (skeleton_init(&sk[id], &skeletons, id, w.tok_at, n_tok) < 0) goto fail;
                skels.n += sizeof(Skeleton);
                PyObject *prog = PyObject_CallFunction(program_of, "y#", (const char *)w.skel,
                                                       (Py_ssize_t)k);
                if (!prog) goto fail;
                sk[id].program = prog;
                if (prog != Py_None && !program_ok(prog, n_tok)) {
                    PyObject *text = PyBytes_FromStringAndSize((const char *)w.skel, (Py_ssize_t)k);
                    if (text) {
                        PyErr_Format(PyExc_ValueError, "malformed program for skeleton %R", text);
                        Py_DECREF(text);
                    }
                    goto fail;
                }
            }
        }
        if (prev >= 0) remember_successor(&sk[prev], id);
        prev = id;
        uint8_t kind = 0;
        if (sk[id].program != Py_None) {
            const int64_t *prog = (const int64_t *)PyBytes_AS_STRING(sk[id].program);
            int64_t micros = 0;
            if (line_fits(prog, tok, n_tok, &micros)) {
                if (emit_line(&o, &ests, s, prog, tok, line, micros) < 0) goto fail;
                kind = (uint8_t)prog[P_KIND];
                if (!hashed) poly_hash(s + i, end - i, h);
                VEC_PUSH(&o.hash, uint64_t, h[0]);
                VEC_PUSH(&o.hash, uint64_t, h[1]);
                VEC_PUSH(&o.nbytes, int64_t, (int64_t)(end - i));
            }
        }
        VEC_PUSH(&o.kind, uint8_t, kind);
        VEC_PUSH(&o.span, int64_t, (int64_t)i);
        VEC_PUSH(&o.span, int64_t, (int64_t)end);
        line++;
        i = end + 1;
    }

done:
    if (breaks) {
        result = Py_None;
        Py_INCREF(result);
        goto fail;
    }
    {
        PyObject *pct = PyList_New(o.n_pct);
        if (!pct) goto fail;
        for (int c = 0; c < o.n_pct; c++) {
            PyObject *b = vec_bytes(&o.pct[c]);
            if (!b) {
                Py_DECREF(pct);
                goto fail;
            }
            PyList_SET_ITEM(pct, c, b);
        }
        /* the estimates by id: a dict id → text */
        PyObject *est = PyDict_New();
        if (!est) {
            Py_DECREF(pct);
            goto fail;
        }
        for (size_t k = 0; k < table_size(&ests); k++) {
            const Key *e = table_key(&ests, (Py_ssize_t)k);
            PyObject *key = PyLong_FromSize_t(k);
            PyObject *val = PyUnicode_DecodeUTF8(ests.text.p + e->off, (Py_ssize_t)e->len,
                                                 "strict");
            if (!key || !val || PyDict_SetItem(est, key, val) < 0) {
                Py_XDECREF(key);
                Py_XDECREF(val);
                Py_DECREF(est);
                Py_DECREF(pct);
                goto fail;
            }
            Py_DECREF(key);
            Py_DECREF(val);
        }
        result = Py_BuildValue(
            "(NNNN(NNNNNNN)(NNNNNNN)NN)", vec_bytes(&o.kind), vec_bytes(&o.hash),
            vec_bytes(&o.nbytes), vec_bytes(&o.span), vec_bytes(&o.pos),
            vec_bytes(&o.time), vec_bytes(&o.elapsed), vec_bytes(&o.operations),
            vec_bytes(&o.current), vec_bytes(&o.label), vec_bytes(&o.est), vec_bytes(&o.row_pos),
            vec_bytes(&o.metric), vec_bytes(&o.format), vec_bytes(&o.count), vec_bytes(&o.max),
            vec_bytes(&o.min), vec_bytes(&o.avg), pct, est);
    }
fail:
    out_free(&o);
    table_free(&skeletons);
    table_free(&ests);
    skeletons_free(&skels);
    scratch_free(&w);
    PyBuffer_Release(&buf);
    return result;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(data, program_of): the status lines of a block of whole lines (see fast_status)."},
    {"text_hashes", text_hashes, METH_O, "text_hashes(texts): two 64-bit hashes of each text."},
    {"entry_hashes", entry_hashes, METH_VARARGS,
     "entry_hashes(hashes, nbytes, first): the lines' hashes folded per entry."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_status_scan",
                                    "Compiled scanner of YCSB status lines (see fast_status).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__status_scan(void) { return PyModule_Create(&module); }
