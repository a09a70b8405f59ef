/* Compiled sacreBLEU bootstrap (optional; evalfw/analysis/sacrebleu_mode.py computes the same
 * numbers with numpy when this module is not built). It lets the drop-in command line draw
 * sacreBLEU's resamples without importing numpy, whose import alone costs more than the work.
 *
 * sacreBLEU 2.6.0 draws its bootstrap indices as
 *     rng = numpy.random.default_rng(seed); idx = rng.choice(S, size=(n, S), replace=True)
 * and sums each resample's rows as float32, row after row. Reproduced here:
 *   - PCG64 (numpy's default bit generator): 128-bit LCG, XSL-RR output, seeded from the four
 *     64-bit words of SeedSequence(seed).generate_state(4, uint64) (computed in Python, see
 *     evalfw/analysis/_seedseq.py);
 *   - Generator.choice(S, size) with replacement = integers(0, S) = numpy's buffered Lemire
 *     method on 32-bit draws (a 64-bit output gives its low half, then its high half) for
 *     S <= 2**32;
 *   - the sums in float32, added in draw order: numpy's axis-0 sum of a table of two or more
 *     columns adds row after row (a single column it sums pairwise, so it is refused here).
 *
 * indices(S, n, w0, w1, w2, w3) -> int64 bytes [n][S]
 * skip(state_hi, state_lo, inc_hi, inc_lo, has32, half, S, count) -> the state after count
 *     draws of choice(S) from a numpy PCG64 state (see below)
 * float32_sums(rows, width, n, w0, w1, w2, w3) -> float32 bytes [n][width]
 *     rows: int64 buffer [S][width], width >= 2 (converted to float32 as numpy's astype does)
 * bleu_precisions(sums, width, max_order, method, smooth_value, effective)
 *     -> (float32 bytes [n][max_order], int8 bytes [n])
 *     sacreBLEU's compute_bleu on float32 sums [sys_len, ref_len, correct.., total..]: the
 *     precisions it computes in float32 (numpy >= 2 keeps ``100. * c / t`` in float32) and the
 *     order it averages over (0: no match at all, the score is 0). method: 0 none, 1 floor,
 *     2 add-k, 3 exp. The logarithms, their sum and the brevity penalty stay in Python, as
 *     sacreBLEU computes them there.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if !defined(__SIZEOF_INT128__)
#error "a compiler with 128-bit integers is needed (the install falls back to numpy)"
#endif

typedef unsigned __int128 u128;

typedef struct {
    u128 state, inc;
    int has32;
    uint32_t half;
} Pcg64;

static const u128 MULT = (((u128)2549297995355413924ULL) << 64) | 4865540595714422341ULL;

static inline void step(Pcg64 *g) { g->state = g->state * MULT + g->inc; }

static void seed(Pcg64 *g, uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3) {
    u128 initstate = (((u128)w0) << 64) | w1;
    u128 initseq = (((u128)w2) << 64) | w3;
    g->state = 0;
    g->inc = (initseq << 1) | 1;
    step(g);
    g->state += initstate;
    step(g);
    g->has32 = 0;
    g->half = 0;
}

static inline uint64_t next64(Pcg64 *g) {
    step(g);
    uint64_t x = ((uint64_t)(g->state >> 64)) ^ (uint64_t)g->state;
    unsigned rot = (unsigned)(g->state >> 122);
    return (x >> rot) | (x << ((-rot) & 63));
}

static inline uint32_t next32(Pcg64 *g) {
    if (g->has32) {
        g->has32 = 0;
        return g->half;
    }
    uint64_t v = next64(g);
    g->has32 = 1;
    g->half = (uint32_t)(v >> 32);
    return (uint32_t)v;
}

/* integers(0, rng + 1) for rng < 2**32 - 1: numpy's buffered_bounded_lemire_uint32 */
static inline uint32_t bounded(Pcg64 *g, uint32_t rng) {
    const uint32_t excl = rng + 1;
    uint64_t m = (uint64_t)next32(g) * excl;
    uint32_t left = (uint32_t)m;
    if (left < excl) {
        const uint32_t threshold = (UINT32_MAX - rng) % excl;
        while (left < threshold) {
            m = (uint64_t)next32(g) * excl;
            left = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* one draw of choice(S): S == 1 draws nothing (numpy's rng == 0), S == 2**32 a plain word */
static inline int64_t draw(Pcg64 *g, uint64_t segments) {
    if (segments == 1) return 0;
    if (segments == 4294967296ULL) return (int64_t)next32(g);
    return (int64_t)bounded(g, (uint32_t)(segments - 1));
}

static int parse_seed(PyObject *args, Py_ssize_t at, Pcg64 *g) {
    uint64_t w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, at + i));
        if (w[i] == (uint64_t)-1 && PyErr_Occurred()) return -1;
    }
    seed(g, w[0], w[1], w[2], w[3]);
    return 0;
}

static int check_args(PyObject *args, Py_ssize_t count) {
    if (PyTuple_GET_SIZE(args) != count) {
        PyErr_Format(PyExc_TypeError, "expected %zd arguments", count);
        return -1;
    }
    return 0;
}

static PyObject *indices(PyObject *self, PyObject *args) {
    if (check_args(args, 6) < 0) return NULL;
    Py_ssize_t segments = PyLong_AsSsize_t(PyTuple_GET_ITEM(args, 0));
    Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(args, 1));
    if (PyErr_Occurred()) return NULL;
    if (segments < 1 || (uint64_t)segments > 4294967296ULL || n < 0 ||
        (segments && n > PY_SSIZE_T_MAX / 8 / segments)) {
        PyErr_SetString(PyExc_ValueError, "need 1 <= segments <= 2**32 and n >= 0");
        return NULL;
    }
    Pcg64 g;
    if (parse_seed(args, 2, &g) < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * segments * 8);
    if (!out) return NULL;
    int64_t *o = (int64_t *)PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n * segments; i++) o[i] = draw(&g, (uint64_t)segments);
    return out;
}

/* skip(state_hi, state_lo, inc_hi, inc_lo, has32, half, S, count)
 *   -> (state_hi, state_lo, has32, half): the generator's state after `count` draws of
 *   choice(S), without storing them (a walk to the start of a later block of resamples) */
static PyObject *skip(PyObject *self, PyObject *args) {
    unsigned long long sh, sl, ih, il, segments, count;
    int has32;
    unsigned int half;
    if (!PyArg_ParseTuple(args, "KKKKiIKK", &sh, &sl, &ih, &il, &has32, &half, &segments,
                          &count))
        return NULL;
    if (segments < 1 || segments > 4294967296ULL) {
        PyErr_SetString(PyExc_ValueError, "need 1 <= segments <= 2**32");
        return NULL;
    }
    Pcg64 g = {(((u128)sh) << 64) | sl, (((u128)ih) << 64) | il, has32 != 0, half};
    if (segments > 1)
        for (unsigned long long i = 0; i < count; i++) (void)draw(&g, segments);
    return Py_BuildValue("KKiI", (unsigned long long)(g.state >> 64),
                         (unsigned long long)g.state, g.has32, (unsigned int)g.half);
}

static PyObject *float32_sums(PyObject *self, PyObject *args) {
    if (check_args(args, 7) < 0) return NULL;
    Py_buffer rows;
    if (PyObject_GetBuffer(PyTuple_GET_ITEM(args, 0), &rows, PyBUF_SIMPLE) < 0) return NULL;
    PyObject *out = NULL;
    float *table = NULL;
    Py_ssize_t width = PyLong_AsSsize_t(PyTuple_GET_ITEM(args, 1));
    Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(args, 2));
    if (PyErr_Occurred()) goto done;
    if (width < 2 || n < 0 || rows.len % (8 * width) != 0 || rows.len == 0 ||
        n > PY_SSIZE_T_MAX / 4 / width) {
        PyErr_SetString(PyExc_ValueError, "rows must be a non-empty int64 [segments][width] "
                                          "buffer, width >= 2 and n >= 0");
        goto done;
    }
    Py_ssize_t segments = rows.len / 8 / width;
    if ((uint64_t)segments > 4294967296ULL) {
        PyErr_SetString(PyExc_ValueError, "more than 2**32 segments");
        goto done;
    }
    Pcg64 g;
    if (parse_seed(args, 3, &g) < 0) goto done;
    table = PyMem_Malloc((size_t)(segments * width) * sizeof(float));
    if (!table) { PyErr_NoMemory(); goto done; }
    const int64_t *src = (const int64_t *)rows.buf;
    for (Py_ssize_t i = 0; i < segments * width; i++) table[i] = (float)src[i];
    out = PyBytes_FromStringAndSize(NULL, n * width * 4);
    if (!out) goto done;
    float *acc = (float *)PyBytes_AS_STRING(out);
    memset(acc, 0, (size_t)(n * width) * sizeof(float));
    for (Py_ssize_t r = 0; r < n; r++) {
        float *a = acc + r * width;
        for (Py_ssize_t s = 0; s < segments; s++) {
            const float *row = table + draw(&g, (uint64_t)segments) * width;
            for (Py_ssize_t j = 0; j < width; j++) a[j] += row[j];
        }
    }
done:
    PyMem_Free(table);
    PyBuffer_Release(&rows);
    return out;
}

static PyObject *bleu_precisions(PyObject *self, PyObject *args) {
    Py_buffer sums;
    Py_ssize_t width, max_order;
    int method, effective;
    double smooth;
    if (!PyArg_ParseTuple(args, "y*nnidp", &sums, &width, &max_order, &method, &smooth,
                          &effective))
        return NULL;
    PyObject *prec = NULL, *effs = NULL, *result = NULL;
    if (max_order < 1 || max_order > 100 || width != 2 + 2 * max_order ||
        sums.len % (4 * width) != 0 || method < 0 || method > 3) {
        PyErr_SetString(PyExc_ValueError, "sums must be float32 [n][2 + 2 * max_order]");
        goto done;
    }
    Py_ssize_t n = sums.len / 4 / width;
    prec = PyBytes_FromStringAndSize(NULL, n * max_order * 4);
    effs = PyBytes_FromStringAndSize(NULL, n);
    if (!prec || !effs) goto done;
    const float *s = (const float *)sums.buf;
    float *p = (float *)PyBytes_AS_STRING(prec);
    signed char *e = (signed char *)PyBytes_AS_STRING(effs);
    /* a Python float meeting a float32 is converted to float32 first (NEP 50) */
    const float value32 = (float)smooth, floor32 = (float)(100.0 * smooth);
    float c[100], t[100];
    for (Py_ssize_t r = 0; r < n; r++) {
        const float *row = s + r * width;
        float *pr = p + r * max_order;
        int any = 0;
        for (Py_ssize_t k = 0; k < max_order; k++) {
            c[k] = row[2 + k];
            t[k] = row[2 + max_order + k];
            pr[k] = 0.0f;
            any |= c[k] != 0.0f;
        }
        if (!any) { e[r] = 0; continue; }
        double halved = 1.0;
        Py_ssize_t eff = max_order;
        for (Py_ssize_t k = 0; k < max_order; k++) {
            if (method == 2 && k > 0) {
                c[k] = c[k] + value32;
                t[k] = t[k] + value32;
            }
            if (t[k] == 0.0f) break;
            if (effective) eff = k + 1;
            if (c[k] == 0.0f) {
                if (method == 3) {
                    halved *= 2;
                    pr[k] = 100.0f / ((float)halved * t[k]);
                } else if (method == 1) {
                    pr[k] = floor32 / t[k];
                }
            } else {
                pr[k] = 100.0f * c[k] / t[k];
            }
        }
        e[r] = (signed char)eff;
    }
    result = PyTuple_Pack(2, prec, effs);
done:
    Py_XDECREF(prec);
    Py_XDECREF(effs);
    PyBuffer_Release(&sums);
    return result;
}

static PyMethodDef methods[] = {
    {"indices", indices, METH_VARARGS,
     "indices(S, n, w0, w1, w2, w3) -> int64 bytes [n][S]: default_rng(...).choice(S, (n, S))"},
    {"skip", skip, METH_VARARGS,
     "skip(state_hi, state_lo, inc_hi, inc_lo, has32, half, S, count) -> "
     "(state_hi, state_lo, has32, half)"},
    {"float32_sums", float32_sums, METH_VARARGS,
     "float32_sums(rows, width, n, w0, w1, w2, w3) -> float32 bytes [n][width]"},
    {"bleu_precisions", bleu_precisions, METH_VARARGS,
     "bleu_precisions(sums, width, max_order, method, smooth_value, effective) -> "
     "(float32 bytes [n][max_order], int8 bytes [n])"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_sacreboot",
                                    "Compiled sacreBLEU bootstrap draws and sums.", -1, methods};

PyMODINIT_FUNC PyInit__sacreboot(void) { return PyModule_Create(&module); }
