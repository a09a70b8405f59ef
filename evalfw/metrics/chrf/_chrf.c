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
 *   asked), ``factor`` being beta ** 2. The per-call path (evalfw/metrics/chrf/sentence.py)
 *   calls it once per new segment, so its workspace is kept between calls.
 * f_scores(rows, orders, factor, eps_smoothing) -> bytes
 *   The F-score (core.f_score) of every row of a C-contiguous int64 buffer [n][3 * orders],
 *   as float64 [n]: choosing references, sentence scores, resampled scores.
 * prepare(refs, char_order, word_order, whitespace) -> References
 *   refs as for stats: each segment's reference n-gram keys and counts, interned once and kept
 *   for scoring many hypothesis sets (see _chrf_refs.h).
 * stats_prepared(hyps, references) -> bytes
 *   stats(hyps, refs, ...) with the settings and references given to prepare.
 *
 * The counting itself is in _chrf_count.h.
 */
#include "_chrf_count.h"
#include "_chrf_refs.h"

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
    int64_t *rows;
    PyObject *out = zero_rows((size_t)(n * k * width), &rows);
    if (!out) return NULL;
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

static PyObject *f_scores(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int orders, eps;
    double factor;
    if (!PyArg_ParseTuple(args, "y*idp", &buf, &orders, &factor, &eps)) return NULL;
    Py_ssize_t row_bytes = 3 * (Py_ssize_t)orders * (Py_ssize_t)sizeof(int64_t);
    if (orders < 1 || 3 * orders > MAX_WIDTH || buf.len % row_bytes != 0) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "f_scores: rows of 3 * orders int64, orders 1..200");
        return NULL;
    }
    Py_ssize_t n = buf.len / row_bytes;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(double));
    if (out) {
        const int64_t *rows = buf.buf;
        double *scores = (double *)PyBytes_AS_STRING(out);
        for (Py_ssize_t i = 0; i < n; i++)
            scores[i] = f_score(rows + i * 3 * orders, orders, factor, 1 + factor, eps);
    }
    PyBuffer_Release(&buf);
    return out;
}

static PyMethodDef methods[] = {
    {"stats", stats, METH_VARARGS,
     "stats(hyps, refs, char_order, word_order, whitespace) -> int64 bytes [n][K][3*(nc+nw)]"},
    {"sentence", (PyCFunction)(void (*)(void))sentence, METH_FASTCALL,
     "sentence(hyp, refs, char_order, word_order, whitespace, beta ** 2, eps_smoothing) -> "
     "float: sacreBLEU's chrF sentence score against the best of refs (a tuple or list of str)"},
    {"f_scores", f_scores, METH_VARARGS,
     "f_scores(rows, orders, beta ** 2, eps_smoothing) -> float64 bytes: the F-score of every "
     "row of an int64 buffer [n][3 * orders]"},
    {"prepare", prepare_refs, METH_VARARGS,
     "prepare(refs, char_order, word_order, whitespace) -> References kept for stats_prepared"},
    {"stats_prepared", stats_prepared, METH_VARARGS,
     "stats_prepared(hyps, references) -> stats(hyps, refs, ...) of the prepared references"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chrf",
                                    "Compiled chrF statistics.", -1, methods};

PyMODINIT_FUNC PyInit__chrf(void) {
    if (PyType_Ready(&ReferencesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddObjectRef(m, "References", (PyObject *)&ReferencesType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
