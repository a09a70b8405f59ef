/* The counting core of the compiled chrF statistics, shared by _chrf.c (stats, sentence) and
 * _chrf_refs.h (references prepared once).
 *
 * Exactness without comparing strings: every n-gram gets an integer id by interning the pair
 * (id of its (n-1)-gram prefix, last symbol) in a hash table keyed by the exact pair, so equal
 * ids mean equal n-grams. Ids are unique across orders, so one table serves all of them. Word
 * tokens are interned the same way, character by character, before their n-grams are; the
 * sentinel prefixes ROOT_CHAR and ROOT_WORD keep character and word keys apart.
 *
 * sum over n-grams of min(hyp count, ref count) is counted by walking the hypothesis and taking
 * one from the reference's count of each n-gram while any is left.
 */
#ifndef EVALFW_CHRF_COUNT_H
#define EVALFW_CHRF_COUNT_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define ROOT_CHAR 0u
#define ROOT_WORD 1u
#define FIRST_ID 2u

/* next: the id the next new key gets (ids restart at FIRST_ID for every segment); by_id, when
 * set, gets each new key at [id - FIRST_ID] (prepare() keeps them: _chrf_refs.h) */
typedef struct {
    uint64_t *keys; uint32_t *vals; uint32_t *stamp; size_t cap; uint32_t gen, next;
    uint64_t *by_id;
} Table;
typedef struct { uint32_t *p; size_t n, cap; } Buf;

static int buf_reserve(Buf *b, size_t need) {
    if (need <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) cap *= 2;
    uint32_t *p = PyMem_Realloc(b->p, cap * sizeof(uint32_t));
    if (!p) { PyErr_NoMemory(); return -1; }
    b->p = p; b->cap = cap;
    return 0;
}

/* Start a new segment: a table for at least `entries` keys, emptied by bumping the stamp. */
static int table_reset(Table *t, size_t entries) {
    size_t cap = 1024;
    while (cap < 2 * entries + 16) cap *= 2;
    if (cap > t->cap) {
        PyMem_Free(t->keys); PyMem_Free(t->vals); PyMem_Free(t->stamp);
        t->keys = PyMem_Malloc(cap * sizeof(uint64_t));
        t->vals = PyMem_Malloc(cap * sizeof(uint32_t));
        t->stamp = PyMem_Calloc(cap, sizeof(uint32_t));
        if (!t->keys || !t->vals || !t->stamp) { PyErr_NoMemory(); return -1; }
        t->cap = cap; t->gen = 0;
    }
    if (++t->gen == 0) {  /* stamps wrapped: clear them once */
        memset(t->stamp, 0, t->cap * sizeof(uint32_t));
        t->gen = 1;
    }
    return 0;
}

static inline size_t slot_of(uint64_t key, size_t mask) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 29) & mask;
}

static inline uint32_t intern(Table *t, uint32_t prefix, uint32_t sym) {
    uint64_t key = ((uint64_t)prefix << 32) | sym;
    size_t mask = t->cap - 1, i = slot_of(key, mask);
    for (;;) {
        if (t->stamp[i] != t->gen) {
            t->stamp[i] = t->gen; t->keys[i] = key; t->vals[i] = t->next;
            if (t->by_id) t->by_id[t->next - FIRST_ID] = key;
            return t->next++;
        }
        if (t->keys[i] == key) return t->vals[i];
        i = (i + 1) & mask;
    }
}

/* One text prepared: its character symbols and its word-token ids. */
typedef struct { Buf chars, toks; } Text;

static int is_punct(Py_UCS4 c) {
    return c < 128 && c > 32 && c != 127 && !((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')
                                             || (c >= 'a' && c <= 'z'));
}

static uint32_t intern_span(Table *t, int kind, const void *data, Py_ssize_t a, Py_ssize_t b) {
    uint32_t id = ROOT_CHAR;
    for (Py_ssize_t i = a; i < b; i++) id = intern(t, id, (uint32_t)PyUnicode_READ(kind, data, i));
    return id;
}

/* Characters (without whitespace unless `whitespace`) and, when words > 0, the word tokens
 * with one leading or trailing ASCII punctuation character split off as chrF++ does. */
static int prepare(Table *t, PyObject *s, int whitespace, int words, Text *out) {
    Py_ssize_t len = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    out->chars.n = 0; out->toks.n = 0;
    if (buf_reserve(&out->chars, (size_t)len + 1) < 0) return -1;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (whitespace || !Py_UNICODE_ISSPACE(c)) out->chars.p[out->chars.n++] = (uint32_t)c;
    }
    if (!words) return 0;
    if (buf_reserve(&out->toks, (size_t)len + 1) < 0) return -1;
    Py_ssize_t i = 0;
    while (i < len) {
        while (i < len && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))) i++;
        if (i == len) break;
        Py_ssize_t a = i;
        while (i < len && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))) i++;
        Py_ssize_t b = i;
        uint32_t *tp = out->toks.p;
        if (b - a > 1 && is_punct(PyUnicode_READ(kind, data, b - 1))) {
            tp[out->toks.n++] = intern_span(t, kind, data, a, b - 1);
            tp[out->toks.n++] = intern_span(t, kind, data, b - 1, b);
        } else if (b - a > 1 && is_punct(PyUnicode_READ(kind, data, a))) {
            tp[out->toks.n++] = intern_span(t, kind, data, a, a + 1);
            tp[out->toks.n++] = intern_span(t, kind, data, a + 1, b);
        } else {
            tp[out->toks.n++] = intern_span(t, kind, data, a, b);
        }
    }
    return 0;
}

/* ids[order][pos] of every n-gram of `sym` (length n), orders 1..max_order, into `ids`
 * laid out as max_order blocks of n entries (entries past n - order + 1 unused). */
static void ngram_ids(Table *t, const uint32_t *sym, size_t n, int max_order, uint32_t root,
                      uint32_t *ids) {
    for (size_t i = 0; i < n; i++) ids[i] = intern(t, root, sym[i]);
    for (int o = 2; o <= max_order && (size_t)o <= n; o++) {
        uint32_t *prev = ids + (size_t)(o - 2) * n, *cur = ids + (size_t)(o - 1) * n;
        for (size_t i = 0; i + o <= n; i++) cur[i] = intern(t, prev[i], sym[i + o - 1]);
    }
}

/* [hyp, ref, match] for orders 1..max_order of one hypothesis/reference pair of id blocks. */
static void count_pair(const uint32_t *hid, size_t hn, const uint32_t *rid, size_t rn,
                       int max_order, uint32_t *counts, int64_t *row) {
    for (int o = 1; o <= max_order; o++) {
        int64_t hc = hn >= (size_t)o ? (int64_t)(hn - o + 1) : 0;
        int64_t rc = rn >= (size_t)o ? (int64_t)(rn - o + 1) : 0;
        int64_t match = 0;
        const uint32_t *h = hid + (size_t)(o - 1) * hn, *r = rid + (size_t)(o - 1) * rn;
        for (int64_t i = 0; i < rc; i++) counts[r[i]]++;
        for (int64_t i = 0; i < hc; i++) {
            if (counts[h[i]]) { counts[h[i]]--; match++; }
        }
        for (int64_t i = 0; i < rc; i++) counts[r[i]] = 0;
        row[3 * (o - 1)] = rc > 0 ? hc : 0;  /* no reference n-grams: the hypothesis's vanish */
        row[3 * (o - 1) + 1] = rc;
        row[3 * (o - 1) + 2] = match;
    }
}

typedef struct { Table t; Text hyp, ref; Buf hchar, hword, rchar, rword, counts; } Work;

static void work_free(Work *w) {
    PyMem_Free(w->t.keys); PyMem_Free(w->t.vals); PyMem_Free(w->t.stamp);
    Buf *bufs[] = {&w->hyp.chars, &w->hyp.toks, &w->ref.chars, &w->ref.toks, &w->hchar,
                   &w->hword, &w->rchar, &w->rword, &w->counts};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) PyMem_Free(bufs[i]->p);
}

static int ids_of(Table *t, Text *x, int nc, int nw, Buf *cb, Buf *wb) {
    if (buf_reserve(cb, x->chars.n * (size_t)nc + 1) < 0) return -1;
    if (buf_reserve(wb, x->toks.n * (size_t)nw + 1) < 0) return -1;
    /* ngram_ids writes the unigram ids whatever max_order is: none when cb holds none */
    if (nc) ngram_ids(t, x->chars.p, x->chars.n, nc, ROOT_CHAR, cb->p);
    if (nw) ngram_ids(t, x->toks.p, x->toks.n, nw, ROOT_WORD, wb->p);
    return 0;
}


/* A bytes object of `count` int64 zeros (stats' result rows), *rows pointing into it. */
static PyObject *zero_rows(size_t count, int64_t **rows) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * sizeof(int64_t)));
    if (!out) return NULL;
    *rows = (int64_t *)PyBytes_AS_STRING(out);
    memset(*rows, 0, count * sizeof(int64_t));
    return out;
}

#endif
