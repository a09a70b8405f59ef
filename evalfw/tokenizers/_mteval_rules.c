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

/* line [a, b) of the input, tokenized, appended to ``res`` (``*maxchar``: the largest code
 * point appended so far). ``pad``: the line as 13a pads it, a space on either side; ``check``:
 * give up (return 1, ``res`` unchanged) at a "\n", "&" or "<". -1: out of memory.
 *
 * One pass instead of the four substitutions, from what they amount to (the analysis in
 * evalfw/tokenizers/_mteval.py): only where whitespace ends up matters, and
 *   - A isolates its characters;
 *   - a maximal run p1..pk of "." / "," with x the character before it and y the one after
 *     (a line boundary counting as a digit, a padding space as a non-digit): B isolates p1,
 *     p3, ... when x is a non-digit and p2, p4, ... otherwise, then C isolates every other
 *     one followed by a non-digit, so all are isolated except pk when B skipped it (k even
 *     after a non-digit x, k odd after a digit x) and y is a digit;
 *   - D isolates a "-" right after a digit (B and C only add spaces next to "." and ",").
 * The literal substitutions are the test oracle (tests/tokenizers/test_mteval_rules.py). */
static int line(int kind, const void *data, Py_ssize_t a, Py_ssize_t b, int pad, int check,
                Buf *res, Py_UCS4 *maxchar) {
    if (reserve(res, res->n + 2 * (b - a) + 2) < 0) return -1;
    Py_UCS4 *r = res->p, top = *maxchar;
    Py_ssize_t o = res->n, run_end = a;
    int written = 0, gap = 0, keep_last = 0;   /* gap: a boundary since the last character */
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        int isolated;
        if (is_space(c)) {
            if (check && c == '\n') return 1;
            gap = 1;
            continue;
        }
        if (rule_a(c)) {
            if (check && (c == '&' || c == '<')) return 1;
            isolated = 1;
        } else if (is_stop(c)) {
            if (i >= run_end) {   /* the first of a run: find its end and its neighbours */
                Py_ssize_t e = i + 1;
                while (e < b && is_stop(PyUnicode_READ(kind, data, e))) e++;
                run_end = e;
                int x_digit = i > a ? is_digit(PyUnicode_READ(kind, data, i - 1)) : !pad;
                int y_digit = e < b ? is_digit(PyUnicode_READ(kind, data, e)) : !pad;
                int b_skips_last = ((e - i) % 2 == 1) == x_digit;
                keep_last = y_digit && b_skips_last;
            }
            isolated = !(keep_last && i == run_end - 1);
        } else {
            isolated = c == '-' && i > a && is_digit(PyUnicode_READ(kind, data, i - 1));
        }
        if ((gap || isolated) && written) r[o++] = ' ';
        r[o++] = c;
        if (c > top) top = c;
        written = 1;
        gap = isolated;
    }
    res->n = o;
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

/* The result's buffer, kept between calls (the GIL serializes calls; no Python code runs
 * inside): callers that tokenize one line per call would otherwise allocate it each time.
 * Grown past KEEP characters by a big batch, it is released after it. */
#define KEEP (1 << 16)
static Buf bres;

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
        if (line(kind, data, start, i, 0, 0, &bres, &maxchar) < 0) goto done;
        if (i < n) {
            if (reserve(&bres, bres.n + 1) < 0) goto done;
            bres.p[bres.n++] = '\n';
            if (maxchar < '\n') maxchar = '\n';
        }
        start = i + 1;
    }
    out = to_str(&bres, maxchar);
done:
    release_big(&bres);
    return out;
}

/* rules_line(line) -> "\n" + the line as 13a tokenizes it + "\n" (13a's joined text of one
 * line: rules("\n " + line + " \n")), or None for a line with "\n", "&" or "<", which has
 * more to do first (removing "<skipped>", unescaping, joining lines): the caller's batch. One
 * call and one pass instead of three searches, the padding and rules: the per-call drop-ins
 * tokenize one line per call. */
static PyObject *rules_line(PyObject *self, PyObject *text) {
    (void)self;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "rules_line() takes a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Py_UCS4 maxchar = '\n';
    PyObject *out = NULL;
    int rc;
    if (reserve(&bres, 1) < 0) goto done;
    bres.p[0] = '\n';
    bres.n = 1;
    rc = line(kind, data, 0, n, 1, 1, &bres, &maxchar);
    if (rc < 0) goto done;
    if (rc > 0) {
        out = Py_None;
        Py_INCREF(out);
        goto done;
    }
    bres.p[bres.n++] = '\n';   /* line() leaves room for it */
    out = to_str(&bres, maxchar);
done:
    release_big(&bres);
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
