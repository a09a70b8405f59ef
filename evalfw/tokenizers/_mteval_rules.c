/* Compiled mteval-v13a punctuation rules (optional; evalfw/tokenizers/_mteval.py applies the
 * same rules with regular expressions when this module is not built).
 *
 * rules(text) -> str
 *   text: lines separated by "\n". Each line gets mteval's four substitutions literally, in
 *   order, each leftmost-first and non-overlapping over the line, as Python's re.sub does:
 *     A. ( [ -&(-+/:-@[-`{-~] )        -> " \1 "
 *     B. ( [^0-9] )( [.,] )            -> "\1 \2 "
 *     C. ( [.,] )( [^0-9] )            -> " \1 \2"
 *     D. ( [0-9] )( - )                -> "\1 \2 "
 *   then its whitespace-separated tokens (str.split()) are joined with single spaces. The
 *   "\n" separators are kept, so line i of the result is line i of the input tokenized.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef struct { Py_UCS4 *p; Py_ssize_t n, cap; } Buf;

static int reserve(Buf *b, Py_ssize_t need) {
    if (need <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 256;
    while (cap < need) cap *= 2;
    Py_UCS4 *p = PyMem_Realloc(b->p, (size_t)cap * sizeof(Py_UCS4));
    if (!p) { PyErr_NoMemory(); return -1; }
    b->p = p; b->cap = cap;
    return 0;
}

static inline int rule_a(Py_UCS4 c) {
    return (c >= 0x20 && c <= 0x26) || (c >= 0x28 && c <= 0x2B) || c == 0x2F ||
           (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
}
static inline int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static inline int is_stop(Py_UCS4 c) { return c == '.' || c == ','; }

/* one pass of rule B, C or D from `in` to `out` (rule A is simpler, see line()) */
static int pass(const Buf *in, Buf *out, char rule) {
    if (reserve(out, 2 * in->n + 1) < 0) return -1;
    Py_ssize_t o = 0;
    for (Py_ssize_t i = 0; i < in->n; i++) {
        Py_UCS4 c = in->p[i];
        Py_UCS4 d = i + 1 < in->n ? in->p[i + 1] : 0;
        int hit = i + 1 < in->n &&
                  (rule == 'B' ? !is_digit(c) && is_stop(d) :
                   rule == 'C' ? is_stop(c) && !is_digit(d) : is_digit(c) && d == '-');
        if (!hit) { out->p[o++] = c; continue; }
        if (rule == 'C') out->p[o++] = ' ';
        out->p[o++] = c;
        out->p[o++] = ' ';
        out->p[o++] = d;
        if (rule != 'C') out->p[o++] = ' ';
        i++;
    }
    out->n = o;
    return 0;
}

/* line [a, b) of the input, tokenized, appended to `res` */
static int line(int kind, const void *data, Py_ssize_t a, Py_ssize_t b, Buf *x, Buf *y,
                Buf *res) {
    if (reserve(x, 3 * (b - a) + 1) < 0) return -1;
    Py_ssize_t o = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (rule_a(c)) { x->p[o++] = ' '; x->p[o++] = c; x->p[o++] = ' '; }
        else x->p[o++] = c;
    }
    x->n = o;
    if (pass(x, y, 'B') < 0 || pass(y, x, 'C') < 0 || pass(x, y, 'D') < 0) return -1;
    if (reserve(res, res->n + y->n + 1) < 0) return -1;
    int first = 1;
    for (Py_ssize_t i = 0; i < y->n;) {
        if (Py_UNICODE_ISSPACE(y->p[i])) { i++; continue; }
        if (!first) res->p[res->n++] = ' ';
        first = 0;
        while (i < y->n && !Py_UNICODE_ISSPACE(y->p[i])) res->p[res->n++] = y->p[i++];
    }
    return 0;
}

static PyObject *rules(PyObject *self, PyObject *text) {
    (void)self;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "rules() takes a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Buf x = {0}, y = {0}, res = {0};
    PyObject *out = NULL;
    if (reserve(&res, n + 1) < 0) goto done;
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i < n && PyUnicode_READ(kind, data, i) != '\n') continue;
        if (line(kind, data, start, i, &x, &y, &res) < 0) goto done;
        if (i < n) {
            if (reserve(&res, res.n + 1) < 0) goto done;
            res.p[res.n++] = '\n';
        }
        start = i + 1;
    }
    out = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, res.p, res.n);
done:
    PyMem_Free(x.p); PyMem_Free(y.p); PyMem_Free(res.p);
    return out;
}

static PyMethodDef methods[] = {
    {"rules", rules, METH_O, "rules(text) -> each line of text tokenized by mteval's rules"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_mteval_rules",
                                    "Compiled mteval-v13a punctuation rules.", -1, methods};

PyMODINIT_FUNC PyInit__mteval_rules(void) { return PyModule_Create(&module); }
