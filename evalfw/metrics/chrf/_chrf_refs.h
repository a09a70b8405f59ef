/* References prepared once for many hypothesis sets (included by _chrf.c).
 *
 * stats() reads every reference text again for each hypothesis set (characters, word splits)
 * and interns each of its n-gram occurrences; a test set's references are the same for every
 * system, so prepare() does that once. Per segment it keeps the references' distinct keys in
 * id order and each reference's count of each of them. stats_prepared() puts the keys back
 * into the workspace table under their ids (one insertion per distinct key, read in order),
 * interns the hypothesis there as stats() does, copies a reference's counts in and takes from
 * them as count_pair does, so the rows are the same integers.
 *
 * Why not keep a table per segment and only look the hypothesis up in it: those tables are
 * cold in memory when the next system comes, and the lookups' cache misses cost more than
 * interning the references did; the workspace table stays in cache, the kept arrays are read
 * sequentially.
 *
 * Memory: per segment 8 bytes per distinct reference key plus 4 per key and reference (its
 * count there); ``nbytes`` says how much an object holds.
 */
#ifndef EVALFW_CHRF_REFS_H
#define EVALFW_CHRF_REFS_H

#include <structmember.h>

/* a reference's length in characters and word tokens (present: not None); its ids are
 * ids[off:off + nids] of prepare()'s scratch buffer */
typedef struct { size_t chars, toks, off, nids; int present; } RefLen;
/* keys[u]: the key of id FIRST_ID + u; counts[j * nkeys + u]: how often reference j has that
 * n-gram (one array serves every order: an id is one n-gram, of one order) */
typedef struct { uint64_t *keys; uint32_t *counts; uint32_t nkeys; RefLen *refs; } Seg;

typedef struct {
    PyObject_HEAD
    Py_ssize_t segments, k, nbytes;
    int nc, nw, whitespace;
    Seg *segs;
} References;

static void references_dealloc(References *self) {
    for (Py_ssize_t i = 0; self->segs && i < self->segments; i++) {
        Seg *sg = &self->segs[i];
        PyMem_Free(sg->keys); PyMem_Free(sg->counts); PyMem_Free(sg->refs);
    }
    PyMem_Free(self->segs);
    PyObject_Free(self);
}

static PyMemberDef references_members[] = {
    {"segments", T_PYSSIZET, offsetof(References, segments), READONLY, "segments"},
    {"nbytes", T_PYSSIZET, offsetof(References, nbytes), READONLY,
     "bytes held by the kept keys and counts (not counting the allocator's own)"},
    {"char_order", T_INT, offsetof(References, nc), READONLY, NULL},
    {"word_order", T_INT, offsetof(References, nw), READONLY, NULL},
    {"whitespace", T_INT, offsetof(References, whitespace), READONLY, NULL},
    {NULL}};

static PyTypeObject ReferencesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "evalfw.metrics.chrf._chrf.References",
    .tp_basicsize = sizeof(References),
    .tp_dealloc = (destructor)references_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "References' n-gram keys and counts kept by prepare() for stats_prepared().",
    .tp_members = references_members,
};

/* The keys `t` logged in id order (into by_id) into sg. */
static int keep_keys(const Table *t, const uint64_t *by_id, Seg *sg) {
    size_t live = t->next - FIRST_ID;
    if (!(sg->keys = PyMem_Malloc((live ? live : 1) * sizeof(uint64_t)))) {
        PyErr_NoMemory(); return -1;
    }
    sg->nkeys = (uint32_t)live;
    memcpy(sg->keys, by_id, live * sizeof(uint64_t));
    return 0;
}

/* The kept keys of sg back into an emptied table under their ids (all distinct: no compare). */
static void replay_keys(Table *t, const Seg *sg) {
    size_t mask = t->cap - 1;
    for (uint32_t u = 0; u < sg->nkeys; u++) {
        size_t i = slot_of(sg->keys[u], mask);
        while (t->stamp[i] == t->gen) i = (i + 1) & mask;
        t->stamp[i] = t->gen; t->keys[i] = sg->keys[u]; t->vals[i] = FIRST_ID + u;
    }
    t->next = FIRST_ID + sg->nkeys;
}

typedef struct { uint64_t *p; size_t cap; } Buf64;

static int buf64_reserve(Buf64 *b, size_t need) {
    if (need <= b->cap) return 0;
    uint64_t *p = PyMem_Realloc(b->p, need * sizeof(uint64_t));
    if (!p) { PyErr_NoMemory(); return -1; }
    b->p = p; b->cap = need;
    return 0;
}

/* counts[id] += 1 for every n-gram of an ids_of block (orders 1..max_order of n symbols;
 * order o has n - o + 1 ids, the rest of its row is unused) */
static void add_counts(uint32_t *counts, const uint32_t *block, size_t n, int max_order) {
    for (int o = 1; o <= max_order && (size_t)o <= n; o++)
        for (size_t p = 0; p + o <= n; p++) counts[block[(size_t)(o - 1) * n + p]]++;
}

/* Segment i of the streams into sg: its references' ids and distinct keys. */
static int prepare_segment(References *R, Work *w, Buf64 *log, Buf *ids, PyObject *refs,
                           Py_ssize_t i, Seg *sg) {
    int nc = R->nc, nw = R->nw;
    size_t total = 0;
    for (Py_ssize_t j = 0; j < R->k; j++) {
        PyObject *r = PyList_GET_ITEM(PyList_GET_ITEM(refs, j), i);
        if (r != Py_None && !PyUnicode_Check(r)) {
            PyErr_SetString(PyExc_TypeError, "references must be str or None"); return -1;
        }
        if (r != Py_None) total += (size_t)PyUnicode_GET_LENGTH(r);
    }
    size_t entries = total * (size_t)(nc + nw + 2);  /* as count_segment bounds the keys */
    if (entries > UINT32_MAX / 2) {
        PyErr_SetString(PyExc_OverflowError, "segment too long"); return -1;
    }
    if (buf64_reserve(log, entries) < 0) return -1;
    w->t.by_id = log->p;
    if (table_reset(&w->t, entries) < 0) return -1;
    w->t.next = FIRST_ID;
    if (!(sg->refs = PyMem_Calloc((size_t)R->k, sizeof(RefLen)))) { PyErr_NoMemory(); return -1; }
    ids->n = 0;
    for (Py_ssize_t j = 0; j < R->k; j++) {
        PyObject *r = PyList_GET_ITEM(PyList_GET_ITEM(refs, j), i);
        if (r == Py_None) continue;
        if (prepare(&w->t, r, R->whitespace, nw, &w->ref) < 0) return -1;
        if (ids_of(&w->t, &w->ref, nc, nw, &w->rchar, &w->rword) < 0) return -1;
        RefLen *rl = &sg->refs[j];
        rl->chars = w->ref.chars.n; rl->toks = w->ref.toks.n; rl->present = 1; rl->off = ids->n;
        size_t nchar = rl->chars * (size_t)nc, m = nchar + rl->toks * (size_t)nw;
        if (buf_reserve(ids, ids->n + m + 1) < 0) return -1;
        if (nchar) memcpy(ids->p + ids->n, w->rchar.p, nchar * sizeof(uint32_t));
        if (m > nchar) memcpy(ids->p + ids->n + nchar, w->rword.p, (m - nchar) * sizeof(uint32_t));
        ids->n += m; rl->nids = m;
    }
    w->t.by_id = NULL;
    if (keep_keys(&w->t, log->p, sg) < 0) return -1;
    size_t u = sg->nkeys;
    if (!(sg->counts = PyMem_Calloc((size_t)R->k * u + 1, sizeof(uint32_t)))) {
        PyErr_NoMemory(); return -1;
    }
    for (Py_ssize_t j = 0; j < R->k; j++) {
        RefLen *rl = &sg->refs[j];
        if (!rl->present) continue;
        uint32_t *c = sg->counts + (size_t)j * u - FIRST_ID;
        add_counts(c, ids->p + rl->off, rl->chars, nc);
        add_counts(c, ids->p + rl->off + rl->chars * (size_t)nc, rl->toks, nw);
    }
    R->nbytes += (Py_ssize_t)(u * (sizeof(uint64_t) + (size_t)R->k * sizeof(uint32_t))
                              + (size_t)R->k * sizeof(RefLen));
    return 0;
}

static PyObject *prepare_refs(PyObject *self, PyObject *args) {
    PyObject *refs;
    int nc, nw, whitespace;
    if (!PyArg_ParseTuple(args, "O!iip", &PyList_Type, &refs, &nc, &nw, &whitespace)) return NULL;
    Py_ssize_t k = PyList_GET_SIZE(refs);
    if (nc < 0 || nw < 0 || nc + nw == 0 || k < 1) {
        PyErr_SetString(PyExc_ValueError, "orders must be >= 0 and not both 0, and a stream given");
        return NULL;
    }
    Py_ssize_t n = -1;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *stream = PyList_GET_ITEM(refs, j);
        if (!PyList_Check(stream) || (n >= 0 && PyList_GET_SIZE(stream) != n)) {
            PyErr_SetString(PyExc_ValueError, "reference streams must be lists of one length");
            return NULL;
        }
        n = PyList_GET_SIZE(stream);
    }
    References *R = PyObject_New(References, &ReferencesType);
    if (!R) return NULL;
    R->segments = n; R->k = k; R->nc = nc; R->nw = nw; R->whitespace = whitespace;
    R->nbytes = 0;
    R->segs = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Seg));
    Work w;
    memset(&w, 0, sizeof w);
    int ok = R->segs != NULL;
    if (!ok) PyErr_NoMemory();
    Buf64 log = {NULL, 0};
    Buf ids = {NULL, 0, 0};
    for (Py_ssize_t i = 0; ok && i < n; i++)
        ok = prepare_segment(R, &w, &log, &ids, refs, i, &R->segs[i]) == 0;
    w.t.by_id = NULL;
    PyMem_Free(log.p);
    PyMem_Free(ids.p);
    work_free(&w);
    if (!ok) { Py_DECREF(R); return NULL; }
    R->nbytes += (Py_ssize_t)(n * sizeof(Seg));
    return (PyObject *)R;
}

/* count_pair against a reference whose counts per id are already in `counts` (every order
 * at once: each id is of one order), taken from as the hypothesis matches them. */
static void count_kept(const uint32_t *hid, size_t hn, size_t rn, int max_order,
                       uint32_t *counts, int64_t *row) {
    for (int o = 1; o <= max_order; o++) {
        int64_t hc = hn >= (size_t)o ? (int64_t)(hn - o + 1) : 0;
        int64_t rc = rn >= (size_t)o ? (int64_t)(rn - o + 1) : 0;
        int64_t match = 0;
        const uint32_t *h = hid + (size_t)(o - 1) * hn;
        for (int64_t i = 0; i < hc; i++) {
            if (counts[h[i]]) { counts[h[i]]--; match++; }
        }
        row[3 * (o - 1)] = rc > 0 ? hc : 0;  /* as count_pair */
        row[3 * (o - 1) + 1] = rc;
        row[3 * (o - 1) + 2] = match;
    }
}

static PyObject *stats_prepared(PyObject *self, PyObject *args) {
    PyObject *hyps;
    References *R;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &hyps, &ReferencesType, &R)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(hyps), k = R->k;
    int nc = R->nc, nw = R->nw;
    Py_ssize_t width = 3 * (nc + nw);
    if (n != R->segments) {
        PyErr_SetString(PyExc_ValueError, "hyps and the prepared references differ in length");
        return NULL;
    }
    int64_t *rows;
    PyObject *out = zero_rows((size_t)(n * k * width), &rows);
    if (!out) return NULL;
    Work w;
    memset(&w, 0, sizeof w);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *h = PyList_GET_ITEM(hyps, i);
        Seg *sg = &R->segs[i];
        if (!PyUnicode_Check(h)) { PyErr_SetString(PyExc_TypeError, "hypotheses must be str"); goto fail; }
        size_t entries = sg->nkeys + (size_t)PyUnicode_GET_LENGTH(h) * (size_t)(nc + nw + 2);
        if (entries > UINT32_MAX / 2) {
            PyErr_SetString(PyExc_OverflowError, "segment too long"); goto fail;
        }
        if (table_reset(&w.t, entries) < 0) goto fail;
        replay_keys(&w.t, sg);
        if (prepare(&w.t, h, R->whitespace, nw, &w.hyp) < 0) goto fail;
        if (ids_of(&w.t, &w.hyp, nc, nw, &w.hchar, &w.hword) < 0) goto fail;
        /* counts[FIRST_ID + u]: reference j's count of kept key u; the hypothesis's own keys
         * (ids from FIRST_ID + nkeys on) stay 0, as the kept range is zeroed after use */
        if (buf_reserve(&w.counts, w.t.next + 1) < 0) goto fail;
        memset(w.counts.p + w.counts.n, 0, (w.counts.cap - w.counts.n) * sizeof(uint32_t));
        w.counts.n = w.counts.cap;
        uint32_t *counts = w.counts.p + FIRST_ID;
        for (Py_ssize_t j = 0; j < k; j++) {
            RefLen *rl = &sg->refs[j];
            if (!rl->present) continue;
            memcpy(counts, sg->counts + (size_t)j * sg->nkeys, sg->nkeys * sizeof(uint32_t));
            int64_t *row = rows + (i * k + j) * width;
            count_kept(w.hchar.p, w.hyp.chars.n, rl->chars, nc, w.counts.p, row);
            if (nw) count_kept(w.hword.p, w.hyp.toks.n, rl->toks, nw, w.counts.p, row + 3 * nc);
        }
        memset(counts, 0, sg->nkeys * sizeof(uint32_t));
    }
    work_free(&w);
    return out;
fail:
    work_free(&w);
    Py_DECREF(out);
    return NULL;
}

#endif
