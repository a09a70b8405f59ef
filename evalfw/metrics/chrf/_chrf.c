/* Compiled chrF statistics (optional; evalfw/metrics/chrf/core.py computes the same numbers in
 * Python when this module is not built).
 *
 * stats(hyps, refs, char_order, word_order, whitespace) -> bytes
 *   hyps: list of str (already lowercased when asked); refs: list of K lists of str or None,
 *   each as long as hyps. Returns int64 [n][K][3 * (char_order + word_order)] holding, per
 *   order (character orders first, then word orders), [hyp_count, ref_count, match]; a None
 *   reference gives a row of zeros (the caller masks it).
 * sentence(hyp, refs, char_order, word_order, whitespace, factor, eps_smoothing) -> float
 *   One segment's chrF sentence score as sacreBLEU computes it: the highest F-score of the
 *   hypothesis against each reference of refs (a tuple or list of str, already lowercased when
 *   asked), ``factor`` being beta ** 2. The per-call drop-in (evalfw/compat/_chrf.py) calls
 *   it once per new segment, so its workspace is kept between calls.
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
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define ROOT_CHAR 0u
#define ROOT_WORD 1u
#define FIRST_ID 2u

/* next: the id the next new key gets (ids restart at FIRST_ID for every segment) */
typedef struct {
    uint64_t *keys; uint32_t *vals; uint32_t *stamp; size_t cap; uint32_t gen, next;
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

static inline uint32_t intern(Table *t, uint32_t prefix, uint32_t sym) {
    uint64_t key = ((uint64_t)prefix << 32) | sym;
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    size_t mask = t->cap - 1, i = (size_t)(h >> 29) & mask;
    for (;;) {
        if (t->stamp[i] != t->gen) {
            t->stamp[i] = t->gen; t->keys[i] = key; t->vals[i] = t->next;
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
    ngram_ids(t, x->chars.p, x->chars.n, nc, ROOT_CHAR, cb->p);
    if (nw) ngram_ids(t, x->toks.p, x->toks.n, nw, ROOT_WORD, wb->p);
    return 0;
}

/* Rows of one segment against each of its k references (None references skipped, their rows
 * left as they are) into rows[k][3 * (nc + nw)]; -1 with an exception set on failure. */
static int count_segment(Work *w, PyObject *h, PyObject *const *refs, Py_ssize_t k, int nc,
                         int nw, int whitespace, int64_t *rows) {
    if (!PyUnicode_Check(h)) { PyErr_SetString(PyExc_TypeError, "hypotheses must be str"); return -1; }
    Py_ssize_t width = 3 * (nc + nw);
    size_t total = (size_t)PyUnicode_GET_LENGTH(h);
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *r = refs[j];
        if (r != Py_None && !PyUnicode_Check(r)) {
            PyErr_SetString(PyExc_TypeError, "references must be str or None"); return -1;
        }
        if (r != Py_None) total += (size_t)PyUnicode_GET_LENGTH(r);
    }
    /* keys: n-grams of every order plus one per character of every token */
    if (total * (size_t)(nc + nw + 2) > UINT32_MAX / 2) {
        PyErr_SetString(PyExc_OverflowError, "segment too long"); return -1;
    }
    if (table_reset(&w->t, total * (size_t)(nc + nw + 2)) < 0) return -1;
    if (buf_reserve(&w->counts, total * (size_t)(nc + nw + 2) + FIRST_ID + 1) < 0) return -1;
    w->t.next = FIRST_ID;
    if (prepare(&w->t, h, whitespace, nw, &w->hyp) < 0) return -1;
    if (ids_of(&w->t, &w->hyp, nc, nw, &w->hchar, &w->hword) < 0) return -1;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *r = refs[j];
        if (r == Py_None) continue;
        if (prepare(&w->t, r, whitespace, nw, &w->ref) < 0) return -1;
        if (ids_of(&w->t, &w->ref, nc, nw, &w->rchar, &w->rword) < 0) return -1;
        /* counts[] is all zeros between pairs: count_pair restores what it touched */
        if (buf_reserve(&w->counts, w->t.next + 1) < 0) return -1;
        memset(w->counts.p + w->counts.n, 0, (w->counts.cap - w->counts.n) * sizeof(uint32_t));
        w->counts.n = w->counts.cap;
        int64_t *row = rows + j * width;
        count_pair(w->hchar.p, w->hyp.chars.n, w->rchar.p, w->ref.chars.n, nc, w->counts.p, row);
        if (nw)
            count_pair(w->hword.p, w->hyp.toks.n, w->rword.p, w->ref.toks.n, nw, w->counts.p,
                       row + 3 * nc);
    }
    return 0;
}

static PyObject *stats(PyObject *self, PyObject *args) {
    PyObject *hyps, *refs;
    int nc, nw, whitespace;
    if (!PyArg_ParseTuple(args, "O!O!iip", &PyList_Type, &hyps, &PyList_Type, &refs, &nc, &nw,
                          &whitespace))
        return NULL;
    if (nc < 0 || nw < 0 || nc + nw == 0) {
        PyErr_SetString(PyExc_ValueError, "orders must be >= 0 and not both 0");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(hyps), k = PyList_GET_SIZE(refs), width = 3 * (nc + nw);
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *stream = PyList_GET_ITEM(refs, j);
        if (!PyList_Check(stream) || PyList_GET_SIZE(stream) != n) {
            PyErr_SetString(PyExc_ValueError, "each reference stream must be a list as long as hyps");
            return NULL;
        }
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * k * width * sizeof(int64_t)));
    if (!out) return NULL;
    int64_t *rows = (int64_t *)PyBytes_AS_STRING(out);
    memset(rows, 0, (size_t)(n * k * width) * sizeof(int64_t));
    PyObject **seg = PyMem_Malloc((size_t)(k ? k : 1) * sizeof(PyObject *));
    Work w;
    memset(&w, 0, sizeof w);
    if (!seg) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t i = 0; i < n; i++) {
        for (Py_ssize_t j = 0; j < k; j++) seg[j] = PyList_GET_ITEM(PyList_GET_ITEM(refs, j), i);
        if (count_segment(&w, PyList_GET_ITEM(hyps, i), seg, k, nc, nw, whitespace,
                          rows + i * k * width) < 0)
            goto fail;
    }
    PyMem_Free(seg);
    work_free(&w);
    return out;
fail:
    PyMem_Free(seg);
    work_free(&w);
    Py_DECREF(out);
    return NULL;
}

/* sacreBLEU's chrF F-score of one statistics row (core.f_score on Python ints): the same IEEE
 * double operations in the same order. Counts are far below 2**53, so Python's int / int and
 * float * int convert them exactly first, as the casts here do; ``factor`` is beta ** 2 as
 * Python computed it and ``one_plus`` 1 + factor. The build turns off floating-point
 * contraction (-ffp-contract=off): ``factor * prec + rec`` must not become a fused
 * multiply-add, which rounds once where Python rounds twice. */
static double f_score(const int64_t *st, int orders, double factor, double one_plus, int eps) {
    double total = 0.0, avg_prec = 0.0, avg_rec = 0.0;
    int64_t effective = 0;
    for (int o = 0; o < orders; o++) {
        int64_t n_hyp = st[3 * o], n_ref = st[3 * o + 1], n_match = st[3 * o + 2];
        double prec = n_hyp > 0 ? (double)n_match / (double)n_hyp : 1e-16;
        double rec = n_ref > 0 ? (double)n_match / (double)n_ref : 1e-16;
        double denom = factor * prec + rec;
        total += denom > 0 ? one_plus * prec * rec / denom : 1e-16;
        if (n_hyp > 0 && n_ref > 0) {
            avg_prec += prec;
            avg_rec += rec;
            effective++;
        }
    }
    if (eps) return 100 * total / (double)orders;
    if (effective) {
        avg_prec /= (double)effective;
        avg_rec /= (double)effective;
    }
    if (avg_prec + avg_rec != 0) {
        double score = one_plus * avg_prec * avg_rec;
        score /= (factor * avg_prec) + avg_rec;
        return 100 * score;
    }
    return 0.0;
}

/* The per-call workspace of sentence(), kept between calls (the GIL serialises them and
 * nothing in a call runs Python code); released after a call that grew it past this many
 * table slots, so a long segment does not pin its memory. */
#define KEEP_SLOTS (1u << 16)
#define MAX_WIDTH 600   /* 3 * (char_order + word_order) with both at their limit of 100 */
static Work keep;

static PyObject *sentence(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "sentence takes 7 arguments");
        return NULL;
    }
    PyObject *h = args[0], *refs = args[1];
    long nc_l = PyLong_AsLong(args[2]), nw_l = PyLong_AsLong(args[3]);
    int whitespace = PyObject_IsTrue(args[4]), eps = PyObject_IsTrue(args[6]);
    double factor = PyFloat_AsDouble(args[5]);
    if (PyErr_Occurred()) return NULL;
    if (nc_l < 0 || nw_l < 0 || nc_l > 100 || nw_l > 100) {
        PyErr_SetString(PyExc_ValueError, "orders must be 0..100");
        return NULL;
    }
    int nc = (int)nc_l, nw = (int)nw_l;
    if (!PyTuple_Check(refs) && !PyList_Check(refs)) {
        PyErr_SetString(PyExc_TypeError, "references must be a tuple or list");
        return NULL;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(refs);
    if (nc < 0 || nw < 0 || nc + nw == 0 || 3 * (nc + nw) > MAX_WIDTH || k < 1) {
        PyErr_SetString(PyExc_ValueError, "orders must be 0..100, not both 0, and a reference given");
        return NULL;
    }
    PyObject *const *items = PySequence_Fast_ITEMS(refs);
    for (Py_ssize_t j = 0; j < k; j++) {
        if (!PyUnicode_Check(items[j])) {
            PyErr_SetString(PyExc_TypeError, "references must be str");
            return NULL;
        }
    }
    int width = 3 * (nc + nw);
    int64_t local[2 * MAX_WIDTH], *rows = local;
    if (k > 2 && !(rows = PyMem_Malloc((size_t)k * width * sizeof(int64_t))))
        return PyErr_NoMemory();
    memset(rows, 0, (size_t)k * width * sizeof(int64_t));
    double best = -1.0;
    int ok = count_segment(&keep, h, items, k, nc, nw, whitespace, rows) == 0;
    /* the first reference with the highest F-score gives the segment its row and score */
    for (Py_ssize_t j = 0; ok && j < k; j++) {
        double f = f_score(rows + j * width, nc + nw, factor, 1 + factor, eps);
        if (f > best) best = f;
    }
    if (rows != local) PyMem_Free(rows);
    if (!ok || keep.t.cap > KEEP_SLOTS) {
        work_free(&keep);
        memset(&keep, 0, sizeof keep);
    }
    return ok ? PyFloat_FromDouble(best) : NULL;
}

static PyMethodDef methods[] = {
    {"stats", stats, METH_VARARGS,
     "stats(hyps, refs, char_order, word_order, whitespace) -> int64 bytes [n][K][3*(nc+nw)]"},
    {"sentence", (PyCFunction)(void (*)(void))sentence, METH_FASTCALL,
     "sentence(hyp, refs, char_order, word_order, whitespace, beta ** 2, eps_smoothing) -> "
     "float: sacreBLEU's chrF sentence score against the best of refs (a tuple or list of str)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chrf",
                                    "Compiled chrF statistics.", -1, methods};

PyMODINIT_FUNC PyInit__chrf(void) { return PyModule_Create(&module); }
