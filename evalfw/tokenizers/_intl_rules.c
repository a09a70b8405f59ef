/* Compiled mteval-v14 international tokenization, sacreBLEU's "intl" (optional:
 * evalfw/tokenizers/intl.py applies the same rules with ``regex`` when this module is not
 * built).
 *
 * rules(text, classes, one_line) -> str
 *   classes: (P starts, P ends, S starts, S ends, N starts, N ends), each a str: the runs of
 *   code points that the installed ``regex`` matches with \p{P}, \p{S} and \p{N}, first and
 *   last character of each run, ascending (evalfw/tokenizers/intl.py:runs reads them out of
 *   ``regex``, so the categories are regex's Unicode version, not Python's).
 *   text: lines separated by "\n" (or, with one_line, a single line that may hold "\n"). Each
 *   line is right-stripped (str.rstrip()) and gets sacreBLEU's three substitutions literally,
 *   in order, each leftmost-first and non-overlapping over the line, as regex.sub applies them:
 *     A. (\P{N})(\p{P})  -> "\1 \2 "
 *     B. (\p{P})(\P{N})  -> " \1 \2"
 *     C. (\p{S})         -> " \1 "
 *   then its whitespace-separated tokens (str.split()) are joined with single spaces. The "\n"
 *   separators are kept, so line i of the result is line i of the input tokenized.
 *
 * The rules only ever insert spaces, which are none of P, S and N, so every character keeps
 * the category looked up once when the line is read. The substitutions with ``regex``
 * (intl.exact, and sacreBLEU's own tokenizer) are the test oracle
 * (tests/tokenizers/test_intl_rules.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

enum { OTHER = 0, PUNCT = 1, SYMBOL = 2, NUMBER = 3 };

/* One category's runs: two strings of equal length (first and last code point of each run). */
typedef struct { int kind_a, kind_b; const void *a, *b; Py_ssize_t n; } Runs;

typedef struct {
    Runs runs[3];               /* P, S, N */
    unsigned char latin[256];   /* the category of each code point below 256 */
} Classes;

/* Characters and their categories. */
typedef struct { Py_UCS4 *c; unsigned char *k; Py_ssize_t n, cap; } Buf;

static int reserve(Buf *b, Py_ssize_t need) {
    if (need <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 256;
    while (cap < need) cap *= 2;
    Py_UCS4 *c = PyMem_Realloc(b->c, (size_t)cap * sizeof(Py_UCS4));
    if (!c) { PyErr_NoMemory(); return -1; }
    b->c = c;
    unsigned char *k = PyMem_Realloc(b->k, (size_t)cap);
    if (!k) { PyErr_NoMemory(); return -1; }
    b->k = k;
    b->cap = cap;
    return 0;
}

static inline void push(Buf *b, Py_UCS4 c, unsigned char k) {
    b->c[b->n] = c;
    b->k[b->n++] = k;
}

static int in_runs(const Runs *r, Py_UCS4 c) {
    Py_ssize_t lo = 0, hi = r->n;   /* the first run starting after c */
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (PyUnicode_READ(r->kind_a, r->a, mid) <= c) lo = mid + 1;
        else hi = mid;
    }
    return lo > 0 && c <= PyUnicode_READ(r->kind_b, r->b, lo - 1);
}

static unsigned char category(const Classes *cl, Py_UCS4 c) {
    if (c < 256) return cl->latin[c];
    for (int i = 0; i < 3; i++)
        if (in_runs(&cl->runs[i], c)) return (unsigned char)(i + 1);
    return OTHER;
}

static int read_classes(PyObject *tuple, Classes *cl) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != 6) {
        PyErr_SetString(PyExc_TypeError, "classes must be a tuple of 6 str");
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        PyObject *a = PyTuple_GET_ITEM(tuple, 2 * i), *b = PyTuple_GET_ITEM(tuple, 2 * i + 1);
        if (!PyUnicode_Check(a) || !PyUnicode_Check(b) ||
                PyUnicode_GET_LENGTH(a) != PyUnicode_GET_LENGTH(b)) {
            PyErr_SetString(PyExc_ValueError, "each category needs as many run ends as starts");
            return -1;
        }
        Runs *r = &cl->runs[i];
        r->kind_a = PyUnicode_KIND(a); r->a = PyUnicode_DATA(a);
        r->kind_b = PyUnicode_KIND(b); r->b = PyUnicode_DATA(b);
        r->n = PyUnicode_GET_LENGTH(a);
    }
    for (Py_UCS4 c = 0; c < 256; c++) {
        cl->latin[c] = OTHER;
        for (int i = 0; i < 3; i++)
            if (in_runs(&cl->runs[i], c)) { cl->latin[c] = (unsigned char)(i + 1); break; }
    }
    return 0;
}

/* Line [s, e) of the input tokenized, appended to out (out->k unused). */
static int line(const Classes *cl, int kind, const void *data, Py_ssize_t s, Py_ssize_t e,
                Buf *a, Buf *b, Buf *out) {
    while (e > s && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, e - 1))) e--;   /* rstrip */
    Py_ssize_t n = e - s;
    if (reserve(a, 4 * n + 4) < 0 || reserve(b, 2 * n + 2) < 0 || reserve(out, out->n + 4 * n + 4) < 0)
        return -1;
    a->n = 0;
    for (Py_ssize_t i = s; i < e; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        push(a, c, category(cl, c));
    }
    /* A: (\P{N})(\p{P}) -> "\1 \2 " */
    b->n = 0;
    for (Py_ssize_t i = 0; i < a->n;) {
        if (i + 1 < a->n && a->k[i] != NUMBER && a->k[i + 1] == PUNCT) {
            push(b, a->c[i], a->k[i]); push(b, ' ', OTHER);
            push(b, a->c[i + 1], PUNCT); push(b, ' ', OTHER);
            i += 2;
        } else {
            push(b, a->c[i], a->k[i]);
            i++;
        }
    }
    /* B: (\p{P})(\P{N}) -> " \1 \2" */
    a->n = 0;
    for (Py_ssize_t i = 0; i < b->n;) {
        if (i + 1 < b->n && b->k[i] == PUNCT && b->k[i + 1] != NUMBER) {
            push(a, ' ', OTHER); push(a, b->c[i], PUNCT);
            push(a, ' ', OTHER); push(a, b->c[i + 1], b->k[i + 1]);
            i += 2;
        } else {
            push(a, b->c[i], b->k[i]);
            i++;
        }
    }
    /* C: (\p{S}) -> " \1 ", then ' '.join(line.split()) */
    int in_token = 0, any = 0;
    for (Py_ssize_t i = 0; i < a->n; i++) {
        Py_UCS4 c = a->c[i];
        if (Py_UNICODE_ISSPACE(c)) { in_token = 0; continue; }
        int symbol = a->k[i] == SYMBOL;
        if (!in_token || symbol) {
            if (any) out->c[out->n++] = ' ';
            any = 1;
        }
        out->c[out->n++] = c;
        in_token = !symbol;
    }
    return 0;
}

static PyObject *rules(PyObject *self, PyObject *args) {
    PyObject *text, *classes;
    int one_line;
    if (!PyArg_ParseTuple(args, "UO!p", &text, &PyTuple_Type, &classes, &one_line)) return NULL;
    Classes cl;
    if (read_classes(classes, &cl) < 0) return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    Buf a = {0}, b = {0}, out = {0};
    PyObject *result = NULL;
    Py_ssize_t s = 0;
    for (;;) {
        Py_ssize_t e = s;
        if (!one_line)
            while (e < len && PyUnicode_READ(kind, data, e) != '\n') e++;
        else
            e = len;
        if (line(&cl, kind, data, s, e, &a, &b, &out) < 0) goto done;
        if (e >= len) break;
        if (reserve(&out, out.n + 1) < 0) goto done;
        out.c[out.n++] = '\n';
        s = e + 1;
    }
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out.c, out.n);
done:
    PyMem_Free(a.c); PyMem_Free(a.k); PyMem_Free(b.c); PyMem_Free(b.k);
    PyMem_Free(out.c); PyMem_Free(out.k);
    return result;
}

static PyMethodDef methods[] = {
    {"rules", rules, METH_VARARGS,
     "rules(text, classes, one_line) -> str: sacreBLEU's intl tokenization of every line"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_intl_rules",
                                    "Compiled mteval-v14 international tokenization.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__intl_rules(void) { return PyModule_Create(&module); }
