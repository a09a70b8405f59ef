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
 * rules_line(line) -> str or None
 *   13a's joined text of one line (see rules_line below).
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

/* Rule A's characters (U+0020-0026, U+0028-002B, U+002F, U+003A-0040, U+005B-0060,
 * U+007B-007E) by code point below 128: one load instead of six range tests. */
static const unsigned char RULE_A[128] = {
    0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
    1,1,1,1,1,1,1,0,1,1,1,1,0,0,0,1,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,
    1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,
    1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,0,
};
static inline int rule_a(Py_UCS4 c) { return c < 128 && RULE_A[c]; }
static inline int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static inline int is_stop(Py_UCS4 c) { return (c | 2) == '.'; }   /* "," is "." - 2 */

/* str.isspace(): the printable ASCII characters other than space, most of a text, decided by
 * one comparison. */
static inline int is_space(Py_UCS4 c) {
    if (c - 0x21u < 0x5Eu) return 0;
    return c == ' ' || Py_UNICODE_ISSPACE(c);
}

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
        memcpy(q + o, p + i, (size_t)(c - i) * sizeof(Py_UCS4));
        o += c - i;
        i = c;
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
    memcpy(q + o, p + i, (size_t)(n - i) * sizeof(Py_UCS4));
    out->n = o + n - i;
    return 0;
}

/* Rule A on one character: the character, isolated by spaces if it is one of rule A's. */
static inline Py_ssize_t put_a(Py_UCS4 *q, Py_ssize_t o, Py_UCS4 c) {
    if (rule_a(c)) { q[o++] = ' '; q[o++] = c; q[o++] = ' '; }
    else q[o++] = c;
    return o;
}

/* line [a, b) of the input, tokenized, appended to `res` (``*maxchar``: the largest code point
 * appended so far). Rules B and C only act next to "." or ",", rule D only before "-", and no
 * rule creates one: a line without them skips those passes. ``pad``: the line as 13a pads it,
 * with a space on either side. */
static int line(int kind, const void *data, Py_ssize_t a, Py_ssize_t b, int pad, Buf *x, Buf *y,
                Buf *res, Py_UCS4 *maxchar) {
    if (reserve(x, 3 * (b - a) + 7) < 0) return -1;
    Py_ssize_t o = pad ? put_a(x->p, 0, ' ') : 0;
    int stops = 0, dashes = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        stops |= is_stop(c);
        dashes |= c == '-';
        o = put_a(x->p, o, c);
    }
    if (pad) o = put_a(x->p, o, ' ');
    x->n = o;
    Buf *cur = x, *other = y, *swap;
    if (stops) {
        if (pass(cur, other, 'B') < 0 || pass(other, cur, 'C') < 0) return -1;
    }
    if (dashes) {
        if (pass(cur, other, 'D') < 0) return -1;
        swap = cur; cur = other; other = swap;
    }
    if (reserve(res, res->n + cur->n + 2) < 0) return -1;
    int first = 1;
    Py_UCS4 top = *maxchar, *r = res->p;
    Py_ssize_t rn = res->n;
    const Py_UCS4 *p = cur->p;
    for (Py_ssize_t i = 0, n = cur->n; i < n;) {
        if (is_space(p[i])) { i++; continue; }
        if (!first) r[rn++] = ' ';
        first = 0;
        for (; i < n && !is_space(p[i]); i++) {
            Py_UCS4 c = p[i];
            if (c > top) top = c;
            r[rn++] = c;
        }
    }
    res->n = rn;
    *maxchar = top;
    return 0;
}

/* A str of the code points ``b->p[0..n)``, whose largest is ``maxchar``, in the narrowest
 * storage (as PyUnicode_FromKindAndData, without searching for the largest again). */
static PyObject *to_str(const Buf *b, Py_UCS4 maxchar) {
    PyObject *out = PyUnicode_New(b->n, maxchar);
    if (!out) return NULL;
    int kind = PyUnicode_KIND(out);
    void *data = PyUnicode_DATA(out);
    const Py_UCS4 *p = b->p;
    if (kind == PyUnicode_1BYTE_KIND) {
        for (Py_ssize_t i = 0; i < b->n; i++) ((Py_UCS1 *)data)[i] = (Py_UCS1)p[i];
    } else if (kind == PyUnicode_2BYTE_KIND) {
        for (Py_ssize_t i = 0; i < b->n; i++) ((Py_UCS2 *)data)[i] = (Py_UCS2)p[i];
    } else {
        memcpy(data, p, (size_t)b->n * sizeof(Py_UCS4));
    }
    return out;
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
    Py_UCS4 maxchar = 0;
    bres.n = 0;
    PyObject *out = NULL;
    if (reserve(&bres, n + 1) < 0) goto done;
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i < n && PyUnicode_READ(kind, data, i) != '\n') continue;
        if (line(kind, data, start, i, 0, &bx, &by, &bres, &maxchar) < 0) goto done;
        if (i < n) {
            if (reserve(&bres, bres.n + 1) < 0) goto done;
            bres.p[bres.n++] = '\n';
            if (maxchar < '\n') maxchar = '\n';
        }
        start = i + 1;
    }
    out = to_str(&bres, maxchar);
done:
    release_big(&bx); release_big(&by); release_big(&bres);
    return out;
}

/* rules_line(line) -> "\n" + the line as 13a tokenizes it + "\n" (13a's joined text of one
 * line: rules("\n " + line + " \n")), or None for a line with "\n", "&" or "<", which has
 * more to do first (removing "<skipped>", unescaping, joining lines): the caller's batch. One
 * call instead of three searches, the padding and rules: the per-call drop-ins tokenize one
 * line per call. */
static PyObject *rules_line(PyObject *self, PyObject *text) {
    (void)self;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "rules_line() takes a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == '\n' || c == '&' || c == '<') Py_RETURN_NONE;
    }
    Py_UCS4 maxchar = '\n';
    PyObject *out = NULL;
    if (reserve(&bres, n + 3) < 0) goto done;
    bres.p[0] = '\n';
    bres.n = 1;
    if (line(kind, data, 0, n, 1, &bx, &by, &bres, &maxchar) < 0) goto done;
    bres.p[bres.n++] = '\n';   /* line() leaves room for it */
    out = to_str(&bres, maxchar);
done:
    release_big(&bx); release_big(&by); release_big(&bres);
    return out;
}

static PyMethodDef methods[] = {
    {"rules", rules, METH_O, "rules(text) -> each line of text tokenized by mteval's rules"},
    {"rules_line", rules_line, METH_O,
     "rules_line(line) -> '\\n' + the line padded and tokenized + '\\n', or None if it has \\n & <"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_mteval_rules",
                                    "Compiled mteval-v13a punctuation rules.", -1, methods};

PyMODINIT_FUNC PyInit__mteval_rules(void) { return PyModule_Create(&module); }
