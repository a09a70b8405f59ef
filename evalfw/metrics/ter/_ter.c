/* Compiled TER edit counting (optional; evalfw/metrics/ter/_shifts.py is the pure-Python
 * twin and computes the same numbers, the tests compare both with sacreBLEU 2.6.0).
 *
 * Input: token ids (int32; equal words have equal ids, a hypothesis word absent from every
 * reference is -1, which matches nothing). For every (hypothesis, reference) pair the number
 * of edits of sacreBLEU's TER: the banded ("beam") edit distance with its exact band and
 * tie-breaking (the trace drives the shift search), then greedy shifts ranked by
 * (gain, length, -start, -target) with sacreBLEU's filters and its cap of 1000 candidates
 * per pair.
 *
 * Why it is fast: besides being compiled, a shifted candidate shares its first words with
 * the hypothesis of the round, and the banded rows of those words do not depend on what
 * follows them, so each candidate's distance starts from the round's matrix at the first
 * differing word and keeps two rolling cost rows (a candidate needs its distance, not its
 * trace).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define INF 10000000000000000LL /* sacreBLEU's int(1e16): large, never overflows */
#define BEAM 25
#define MAX_SHIFT_SIZE 10
#define MAX_SHIFT_DIST 50
#define MAX_CANDIDATES 1000

enum { OP_UNDEF = 0, OP_NOP, OP_SUB, OP_DEL, OP_INS };

typedef struct {
    int n, m;
    const int32_t *r;
    int *lo, *hi;       /* band of row i (0..n): columns [lo[i], hi[i]) */
    size_t *off;        /* row i's cells start at cost + off[i] (and op + off[i]) */
    int64_t *cost;      /* the round's banded rows: only cells inside a band are stored; a */
    uint8_t *op;        /* cell outside is INF (op undefined), as in a full matrix */
    int64_t *ra, *rb;   /* rolling rows for candidates (banded too) */
    int32_t *h, *h2;    /* the round's hypothesis, a candidate */
    int *align, *herr, *rerr;  /* herr/rerr: prefix sums of error flags */
    uint8_t *trace;
} Pair;

/* The band sacreBLEU computes, with its double arithmetic (ratio, floor, ceil). */
/* Row 0 is whole; returns the cells of all rows (the size of cost and op). */
static size_t bands(Pair *p) {
    int n = p->n, m = p->m;
    double ratio = n ? (double)m / (double)n : 1.0;
    int beam = BEAM < ratio / 2 ? (int)ceil(ratio / 2 + BEAM) : BEAM;
    p->lo[0] = 0; p->hi[0] = m + 1; p->off[0] = 0;
    for (int i = 1; i <= n; i++) {
        long diag = (long)floor((double)i * ratio);
        long lo = diag - beam < 0 ? 0 : diag - beam;
        long hi = diag + beam < m + 1 ? diag + beam : m + 1;
        if (i == n) hi = m + 1;
        p->lo[i] = (int)lo;
        p->hi[i] = (int)(hi > lo ? hi : lo);
        p->off[i] = p->off[i - 1] + (size_t)(p->hi[i - 1] - p->lo[i - 1]);
    }
    return p->off[n] + (size_t)(p->hi[n] - p->lo[n]);
}

/* Cell j of a banded row (cells of columns [lo, hi) at `row`): INF outside the band. */
static inline int64_t at(const int64_t *row, int lo, int hi, int j) {
    return j >= lo && j < hi ? row[j - lo] : INF;
}

/* Row i (cells of its band into cur, ops into op when op != NULL) from row i - 1 (its band's
 * cells at prev). Strict '<' in the order diagonal, vertical, horizontal: sacreBLEU's
 * preference on ties. */
static void row(const Pair *p, int i, int32_t w, const int64_t *prev, int64_t *cur,
                uint8_t *op) {
    int lo = p->lo[i], hi = p->hi[i], plo = p->lo[i - 1], phi = p->hi[i - 1];
    int64_t left = INF;  /* cur[j - 1]; outside the band it is INF */
    for (int j = lo; j < hi; j++) {
        int64_t best;
        uint8_t bo = OP_UNDEF;
        if (j == 0) {
            best = at(prev, plo, phi, 0) + 1;
            bo = OP_DEL;
        } else {
            int64_t c;
            int same = w == p->r[j - 1];
            best = INF;
            c = at(prev, plo, phi, j - 1) + (same ? 0 : 1);
            if (c < best) { best = c; bo = same ? OP_NOP : OP_SUB; }
            c = at(prev, plo, phi, j) + 1;
            if (c < best) { best = c; bo = OP_DEL; }
            c = left + 1;
            if (c < best) { best = c; bo = OP_INS; }
        }
        cur[j - lo] = best;
        if (op) op[j - lo] = bo;
        left = best;
    }
}

/* The round's matrix, distance and alignment; -1 if the trace meets an undefined cell. */
static int64_t base(Pair *p) {
    int n = p->n, m = p->m;
    for (int j = 0; j <= m; j++) { p->cost[j] = j; p->op[j] = OP_INS; }
    for (int i = 1; i <= n; i++)
        row(p, i, p->h[i - 1], p->cost + p->off[i - 1], p->cost + p->off[i],
            p->op + p->off[i]);
    int i = n, j = m, k = 0;
    while (i > 0 || j > 0) {  /* backwards; read forwards below */
        uint8_t o = j >= p->lo[i] && j < p->hi[i] ? p->op[p->off[i] + (size_t)(j - p->lo[i])]
                                                   : OP_UNDEF;
        p->trace[k++] = o;
        if (o == OP_NOP || o == OP_SUB) { i--; j--; }
        else if (o == OP_INS) j--;
        else if (o == OP_DEL) i--;
        else return -1;
    }
    /* Rewriting the reference into the hypothesis (the flipped trace): a deletion consumes a
     * hypothesis word, an insertion a reference word. */
    int ph = -1, pr = -1;
    p->herr[0] = 0; p->rerr[0] = 0;
    while (k-- > 0) {
        uint8_t o = p->trace[k];
        if (o == OP_NOP || o == OP_SUB) {
            ph++; pr++;
            p->align[pr] = ph;
            p->herr[ph + 1] = p->herr[ph] + (o == OP_SUB);
            p->rerr[pr + 1] = p->rerr[pr] + (o == OP_SUB);
        } else if (o == OP_DEL) {
            ph++;
            p->herr[ph + 1] = p->herr[ph] + 1;
        } else {
            pr++;
            p->align[pr] = ph;
            p->rerr[pr + 1] = p->rerr[pr] + 1;
        }
    }
    return p->cost[p->off[n] + (size_t)(m - p->lo[n])];
}

/* sacreBLEU's shift of h[start:start+len] to before position target (with its quirk for
 * targets inside the span: Python slices, clamped). */
static void shift(const int32_t *h, int n, int start, int len, int target, int32_t *out) {
    int k = 0;
    if (target < start) {
        for (int x = 0; x < target; x++) out[k++] = h[x];
        for (int x = start; x < start + len; x++) out[k++] = h[x];
        for (int x = target; x < start; x++) out[k++] = h[x];
        for (int x = start + len; x < n; x++) out[k++] = h[x];
    } else if (target > start + len) {
        for (int x = 0; x < start; x++) out[k++] = h[x];
        for (int x = start + len; x < target; x++) out[k++] = h[x];
        for (int x = start; x < start + len; x++) out[k++] = h[x];
        for (int x = target; x < n; x++) out[k++] = h[x];
    } else {
        int mid = len + target < n ? len + target : n;
        for (int x = 0; x < start; x++) out[k++] = h[x];
        for (int x = start + len; x < mid; x++) out[k++] = h[x];
        for (int x = start; x < start + len; x++) out[k++] = h[x];
        for (int x = mid; x < n; x++) out[k++] = h[x];
    }
}

/* Distance of the candidate in h2, from the round's rows of the words it shares. */
static int64_t candidate(Pair *p) {
    int n = p->n, m = p->m, s = 0;
    while (s < n && p->h2[s] == p->h[s]) s++;
    if (s == n) return p->cost[p->off[n] + (size_t)(m - p->lo[n])];
    const int64_t *prev = p->cost + p->off[s];
    int64_t *cur = p->ra;
    for (int i = s + 1; i <= n; i++) {
        row(p, i, p->h2[i - 1], prev, cur, NULL);
        prev = cur;
        cur = cur == p->ra ? p->rb : p->ra;
    }
    return prev[m - p->lo[n]];
}

/* Edits of one pair, or -1 (undefined trace cell), -2 (no memory). */
static int64_t ter_pair(const int32_t *hyp, int n, const int32_t *ref, int m) {
    if (m == 0) return n;
    if (n == 0) return m;
    Pair p = {0};
    p.n = n; p.m = m; p.r = ref;
    p.lo = malloc(sizeof(int) * (n + 1)); p.hi = malloc(sizeof(int) * (n + 1));
    p.off = malloc(sizeof(size_t) * (n + 1));
    int64_t result = -2;
    size_t cells;
    if (!p.lo || !p.hi || !p.off) goto done;
    /* the bands hold about n * 2 * BEAM + 2 * m cells: memory grows with the lengths, not
     * with their product (a full matrix of two 50,000-word lines would take 22 GB) */
    cells = bands(&p);
    p.cost = malloc(sizeof(int64_t) * cells); p.op = malloc(cells);
    p.ra = malloc(sizeof(int64_t) * (m + 1)); p.rb = malloc(sizeof(int64_t) * (m + 1));
    p.h = malloc(sizeof(int32_t) * n); p.h2 = malloc(sizeof(int32_t) * n);
    p.align = malloc(sizeof(int) * (m + 1));
    p.herr = malloc(sizeof(int) * (n + 1)); p.rerr = malloc(sizeof(int) * (m + 1));
    p.trace = malloc((size_t)n + m + 1);
    if (!p.cost || !p.op || !p.ra || !p.rb || !p.h || !p.h2 || !p.align || !p.herr || !p.rerr
        || !p.trace)
        goto done;
    memcpy(p.h, hyp, sizeof(int32_t) * n);
    int64_t shifts = 0, checked = 0, pre;
    for (;;) {
        pre = base(&p);
        if (pre < 0) { result = -1; goto done; }
        int have = 0, bs = 0, bl = 0, bt = 0, stop = 0;
        int64_t bg = 0;
        for (int sh = 0; sh < n && !stop; sh++) {
            int r0 = sh - MAX_SHIFT_DIST < 0 ? 0 : sh - MAX_SHIFT_DIST;
            int r1 = sh + MAX_SHIFT_DIST < m - 1 ? sh + MAX_SHIFT_DIST : m - 1;
            for (int sr = r0; sr <= r1 && !stop; sr++) {
                int len = 0;
                while (p.h[sh + len] == ref[sr + len] && len < MAX_SHIFT_SIZE) {
                    len++;
                    /* filters: something to fix on both sides, target outside the span */
                    int skip = p.herr[sh + len] - p.herr[sh] == 0
                        || p.rerr[sr + len] - p.rerr[sr] == 0
                        || (sh <= p.align[sr] && p.align[sr] < sh + len);
                    if (!skip) {
                        int prev_t = -1;
                        for (int off = -1; off < len; off++) {
                            int k = sr + off, t;
                            if (k == -1) t = 0;
                            else if (k < m) t = p.align[k] + 1;
                            else break;
                            if (t == prev_t) continue;
                            prev_t = t;
                            shift(p.h, n, sh, len, t, p.h2);
                            int64_t gain = pre - candidate(&p);
                            checked++;
                            if (!have || gain > bg || (gain == bg && (len > bl
                                || (len == bl && (sh < bs || (sh == bs && t < bt)))))) {
                                have = 1; bg = gain; bl = len; bs = sh; bt = t;
                            }
                        }
                        if (checked >= MAX_CANDIDATES) { stop = 1; break; }
                    }
                    if (n == sh + len || m == sr + len) break;
                }
            }
        }
        if (checked >= MAX_CANDIDATES || !have || bg <= 0) break;
        shift(p.h, n, bs, bl, bt, p.h2);
        memcpy(p.h, p.h2, sizeof(int32_t) * n);
        shifts++;
    }
    result = shifts + pre;
done:
    free(p.lo); free(p.hi); free(p.off); free(p.cost); free(p.op); free(p.ra); free(p.rb);
    free(p.h); free(p.h2); free(p.align); free(p.herr); free(p.rerr); free(p.trace);
    return result;
}

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: expected items of %zd bytes", what, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* edits(hyp_ids, hyp_offsets, ref_ids, ref_offsets, ref_hyp) -> bytes of int64 edits, one per
 * reference; reference k is compared with hypothesis ref_hyp[k]. */
static PyObject *mod_edits(PyObject *self, PyObject *args) {
    PyObject *o[5];
    if (!PyArg_ParseTuple(args, "OOOOO", &o[0], &o[1], &o[2], &o[3], &o[4])) return NULL;
    Py_buffer b[5];
    Py_ssize_t sizes[5] = {4, 8, 4, 8, 8};
    const char *names[5] = {"hyp_ids", "hyp_offsets", "ref_ids", "ref_offsets", "ref_hyp"};
    int got = 0;
    PyObject *out = NULL;
    for (; got < 5; got++)
        if (get_buffer(o[got], &b[got], sizes[got], names[got]) < 0) goto fail;
    const int32_t *hid = b[0].buf, *rid = b[2].buf;
    const int64_t *hoff = b[1].buf, *roff = b[3].buf, *which = b[4].buf;
    Py_ssize_t nh = b[1].len / 8 - 1, nr = b[4].len / 8;
    if (nh < 0 || b[3].len / 8 != nr + 1) {
        PyErr_SetString(PyExc_ValueError, "edits: offsets do not match the pairs");
        goto fail;
    }
    for (Py_ssize_t k = 0; k < nr; k++)
        if (which[k] < 0 || which[k] >= nh || roff[k] < 0 || roff[k] > roff[k + 1]
            || roff[k + 1] > b[2].len / 4 || hoff[which[k]] < 0
            || hoff[which[k]] > hoff[which[k] + 1] || hoff[which[k] + 1] > b[0].len / 4) {
            PyErr_SetString(PyExc_ValueError, "edits: offsets out of range");
            goto fail;
        }
    out = PyBytes_FromStringAndSize(NULL, nr * 8);
    if (!out) goto fail;
    int64_t *res = (int64_t *)PyBytes_AS_STRING(out);
    int64_t bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < nr && !bad; k++) {
        int64_t h = which[k];
        res[k] = ter_pair(hid + hoff[h], (int)(hoff[h + 1] - hoff[h]), rid + roff[k],
                          (int)(roff[k + 1] - roff[k]));
        if (res[k] < 0) bad = res[k];
    }
    Py_END_ALLOW_THREADS
    if (bad == -2) { PyErr_NoMemory(); goto fail; }
    if (bad == -1) {
        PyErr_SetString(PyExc_RuntimeError, "TER: the edit trace met an undefined cell");
        goto fail;
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return out;
fail:
    Py_XDECREF(out);
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"edits", mod_edits, METH_VARARGS,
     "edits(hyp_ids, hyp_offsets, ref_ids, ref_offsets, ref_hyp) -> int64 bytes"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ter", "Compiled TER edit counting (sacreBLEU 2.6.0's).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ter(void) { return PyModule_Create(&module); }
