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

/* One pass of rule B, C or D from `in` to `out` (rule A is simpler, see line()). Each rule
 * needs a "." or "," (B, C) or a "-" (D) at a fixed place of its pair, so the pass jumps from
 * one such character to the next and copies the text between them as it is; which pairs
 * match, and in which order, is what a scan of every position finds. `rule` is a constant
 * at every call, so the compiler makes one loop per rule. */
static inline int pass(const Buf *in, Buf *out, const char rule) {
    if (reserve(out, 2 * in->n + 1) < 0) return -1;
    const Py_UCS4 *p = in->p;
    Py_UCS4 *q = out->p;
    Py_ssize_t o = 0, i = 0, n = in->n;
    const Py_ssize_t at = rule == 'C' ? 0 : 1;   /* where the needle sits in the pair */
    while (i + 1 < n) {
        Py_ssize_t j = i + at;                   /* the next needle at or after i + at */
        if (rule == 'D') while (j < n && p[j] != '-') j++;
        else while (j < n && !is_stop(p[j])) j++;
        Py_ssize_t c = j - at;                   /* the pair (c, c + 1) */
        if (c + 1 >= n) break;
        while (i < c) q[o++] = p[i++];
        Py_UCS4 x = p[c], y = p[c + 1];
        int hit = rule == 'B' ? !is_digit(x) : rule == 'C' ? !is_digit(y) : is_digit(x);
        if (!hit) { q[o++] = x; i = c + 1; continue; }
        if (rule == 'C') q[o++] = ' ';
        q[o++] = x;
        q[o++] = ' ';
        q[o++] = y;
        if (rule != 'C') q[o++] = ' ';
        i = c + 2;
    }
    while (i < n) q[o++] = p[i++];
    out->n = o;
    return 0;
}

/* line [a, b) of the input, tokenized, appended to `res`. Rules B and C only act next to "."
 * or ",", rule D only before "-", and no rule creates one: a line without them skips those
 * passes. */
static int line(int kind, const void *data, Py_ssize_t a, Py_ssize_t b, Buf *x, Buf *y,
                Buf *res) {
    if (reserve(x, 3 * (b - a) + 1) < 0) return -1;
    Py_ssize_t o = 0;
    int stops = 0, dashes = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (rule_a(c)) { x->p[o++] = ' '; x->p[o++] = c; x->p[o++] = ' '; }
        else {
            stops |= is_stop(c);
            dashes |= c == '-';
            x->p[o++] = c;
        }
    }
    x->n = o;
    Buf *cur = x, *other = y, *swap;
    if (stops) {
        if (pass(cur, other, 'B') < 0 || pass(other, cur, 'C') < 0) return -1;
    }
    if (dashes) {
        if (pass(cur, other, 'D') < 0) return -1;
        swap = cur; cur = other; other = swap;
    }
    if (reserve(res, res->n + cur->n + 1) < 0) return -1;
    int first = 1;
    const Py_UCS4 *p = cur->p;
    for (Py_ssize_t i = 0, n = cur->n; i < n;) {
        if (Py_UNICODE_ISSPACE(p[i])) { i++; continue; }
        if (!first) res->p[res->n++] = ' ';
        first = 0;
        while (i < n && !Py_UNICODE_ISSPACE(p[i])) res->p[res->n++] = p[i++];
    }
    return 0;
}

/* Work buffers kept between calls (the GIL serializes calls; no Python code runs inside):
 * callers that tokenize one line per call would otherwise allocate three buffers each time.
 * Buffers grown past KEEP characters by a big batch are released after it. */
#define KEEP (1 << 16)
static Buf bx, by, bres;

static void release_big(Buf *b) {
    if (b->cap > KEEP) { PyMem_Free(b->p); b->p = NULL; b->cap = 0; }
    b->n = 0;
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
    bres.n = 0;
    PyObject *out = NULL;
    if (reserve(&bres, n + 1) < 0) goto done;
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i < n && PyUnicode_READ(kind, data, i) != '\n') continue;
        if (line(kind, data, start, i, &bx, &by, &bres) < 0) goto done;
        if (i < n) {
            if (reserve(&bres, bres.n + 1) < 0) goto done;
            bres.p[bres.n++] = '\n';
        }
        start = i + 1;
    }
    out = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, bres.p, bres.n);
done:
    release_big(&bx); release_big(&by); release_big(&bres);
    return out;
}

static PyMethodDef methods[] = {
    {"rules", rules, METH_O, "rules(text) -> each line of text tokenized by mteval's rules"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_mteval_rules",
                                    "Compiled mteval-v13a punctuation rules.", -1, methods};

PyMODINIT_FUNC PyInit__mteval_rules(void) { return PyModule_Create(&module); }
