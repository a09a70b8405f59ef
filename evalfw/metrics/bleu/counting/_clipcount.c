/* Compiled kernel for clipped n-gram counting (optional; see evalfw/bleu/native.py).
 *
 * It computes exactly what evalfw/bleu/ngrams.py computes with numpy, from the same input: a
 * "joined" token text per stream ("\n" + lines joined by "\n" + "\n"; tokens separated by
 * str.split() whitespace, or with chars=1 every non-whitespace character is a token).
 *
 * Why it is fast: a hypothesis segment can only match n-grams of its own references, so the
 * index is built per segment, as one small contiguous block:
 *
 *   [Head][token slots][n-gram slots][characters of the tokens longer than one character]
 *
 * Token slots hold a 32-bit hash, the token's length and either the character itself (length
 * 1) or where its characters are, so a lookup compares code points (exactly what str == does)
 * without leaving the block. N-gram slots are keyed (slot of the (n-1)-gram prefix, last
 * token) and hold the n-gram's largest count in a single reference. Every block is visited
 * once per hypothesis file, long after its last visit, so it is swept into the cache first.
 * N-gram slots have 16-bit fields (6 bytes) wherever a block allows it, else 32-bit ones (12
 * bytes): less memory to fault in while building and to sweep while counting.
 *
 * Clipping without a second pass: the k-th occurrence of an n-gram in a hypothesis matches iff
 * k <= its maximum count in a single reference, so sum(min(count, max)) is a running total.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>

#include "_sacrebleu_formula.h"

/* wide: the block's n-gram slots are ESlot32 (else ESlot16) */
typedef struct { uint32_t tsize, esize, nchars, wide; } Head;
/* id: local token id + 1 (0: empty slot); c: the character (len 1) or its offset in chars */
typedef struct { uint32_t hash; int32_t id; uint32_t len; uint32_t c; } TSlot;
/* parent: slot of the prefix n-gram, -1 for unigrams, EMPTY for an empty slot. The narrow
 * form serves a block whose slot numbers, token ids and counts all fit 16 bits (fits16). */
typedef struct { int16_t parent; int16_t tok; uint16_t refmax; } ESlot16;
typedef struct { int32_t parent; int32_t tok; int32_t refmax; } ESlot32;
#define EMPTY (-2)

/* count_ngrams must be inlined at both call sites, each with its slot layout fixed */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define ALWAYS_INLINE __forceinline
#else
#define ALWAYS_INLINE inline
#endif

typedef struct { const Py_UCS4 *p; Py_ssize_t len; uint64_t hash; } Span;   /* a token */

/* A growable array of fixed-size items. */
typedef struct { char *p; size_t n, cap, size; } Vec;

static int vec_reserve(Vec *v, size_t extra) {
    if (v->n + extra <= v->cap) return 0;
    size_t cap = v->cap ? v->cap : 64;
    while (cap < v->n + extra) cap *= 2;
    char *p = PyMem_Realloc(v->p, cap * v->size);
    if (!p) { PyErr_NoMemory(); return -1; }
    v->p = p; v->cap = cap;
    return 0;
}
#define VEC(v, T) ((T *)(v).p)
#define VEC_INIT(T) {NULL, 0, 0, sizeof(T)}

/* A str as UCS4 code points: its own buffer when it is stored that way, else a copy. */
typedef struct { const Py_UCS4 *s; Py_ssize_t len; Py_UCS4 *owned; } Text;

/* ``o``'s code points: its own buffer when it is stored as UCS4, else widened into ``*buf``
 * (grown as needed). The index keeps one such buffer for hypothesis texts and reuses it from
 * call to call: a fresh buffer of several MB per file would be fresh pages, and the page
 * faults cost more than the copy. */
static int text_into(PyObject *o, Text *t, Py_UCS4 **buf, Py_ssize_t *cap) {
    t->owned = NULL;
    if (!PyUnicode_Check(o)) { PyErr_SetString(PyExc_TypeError, "expected str"); return -1; }
    t->len = PyUnicode_GET_LENGTH(o);
    if (PyUnicode_KIND(o) == PyUnicode_4BYTE_KIND) {
        t->s = (const Py_UCS4 *)PyUnicode_DATA(o);
        return 0;
    }
    if (t->len + 1 > *cap) {
        Py_UCS4 *p = PyMem_Realloc(*buf, (size_t)(t->len + 1) * sizeof(Py_UCS4));
        if (!p) { PyErr_NoMemory(); return -1; }
        *buf = p; *cap = t->len + 1;
    }
    if (!PyUnicode_AsUCS4(o, *buf, *cap, 0)) return -1;
    t->s = *buf;
    return 0;
}

/* text_into a buffer of the Text's own (freed by text_free). */
static int text_of(PyObject *o, Text *t) {
    Py_UCS4 *buf = NULL;
    Py_ssize_t cap = 0;
    int rc = text_into(o, t, &buf, &cap);
    t->owned = buf;
    return rc;
}

static void text_free(Text *t) { PyMem_Free(t->owned); t->owned = NULL; }

/* The position of the "\n" ending the line that starts at ``pos``, or -1. */
static Py_ssize_t line_end(const Text *t, Py_ssize_t pos) {
    for (Py_ssize_t i = pos; i < t->len; i++)
        if (t->s[i] == '\n') return i;
    return -1;
}

/* str.isspace() of one character; none above U+3000 is whitespace. Printable ASCII, most of
 * many texts, is decided by one comparison instead of a table lookup. */
static inline int is_space(Py_UCS4 c) {
    if (c - 0x21u < 0x5Eu) return 0;
    return c <= 0x3000 && Py_UNICODE_ISSPACE(c);
}

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33; h *= 0xff51afd7ed558ccdULL; h ^= h >> 33;
    return h;
}

/* Split characters [a, b) of ``t`` into tokens (appended to ``spans``). -> 1 if a "\n" was
 * among them (one-line callers check that while splitting, instead of a pass of their own),
 * 0, or -1 when out of memory. */
static int split_line(const Text *t, Py_ssize_t a, Py_ssize_t b, int chars, Vec *spans) {
    const Py_UCS4 *s = t->s;
    Py_ssize_t i = a;
    int newline = 0;
    while (i < b) {
        Py_UCS4 c = s[i];
        if (is_space(c)) { newline |= c == '\n'; i++; continue; }
        Py_ssize_t start = i;
        uint64_t h = 0xcbf29ce484222325ULL;
        if (chars) {
            h = (h ^ c) * 0x100000001b3ULL;
            i++;
        } else {
            while (i < b && !is_space(s[i])) { h = (h ^ s[i]) * 0x100000001b3ULL; i++; }
        }
        if (spans->n == spans->cap && vec_reserve(spans, 1) < 0) return -1;
        Span *sp = &VEC(*spans, Span)[spans->n++];
        sp->p = s + start; sp->len = i - start; sp->hash = mix(h);
    }
    return newline;
}

/* A power of two with room for ``items`` at a load of at most 1/2. Most lookups while counting
 * miss (a hypothesis n-gram not in the references), and a miss probes until an empty slot:
 * about 8 slots at a load of 3/4 against 2.5 at 1/2 (measured: counting 15-25 % faster, in
 * spite of the larger blocks; 1/3 was slower again). */
static size_t table_size(size_t items) {
    size_t n = 2;
    while (n < items * 2) n *= 2;
    return n;
}

typedef struct {
    PyObject_HEAD
    Py_ssize_t lines, nrefs;
    int max_order, chars, lists;
    PyObject *ref_lens;               /* bytes: int64 [lines][nrefs] */
    char *blocks;                     /* the segments' blocks, one after the other */
    int64_t *block_at;                /* lines + 1 offsets into blocks */
    int32_t *scratch;                 /* one counter per n-gram slot of the largest block */
    int32_t *seq;                     /* token lists only: every reference token's local id */
    Py_UCS4 *tbuf;                    /* a hypothesis text widened to UCS4 (see text_into) */
    Py_ssize_t tcap;
} Index;

static inline const Head *block(const Index *ix, Py_ssize_t s) {
    return (const Head *)(ix->blocks + ix->block_at[s]);
}
#define TSLOTS(h) ((TSlot *)((Head *)(h) + 1))
#define ESLOTS(h) ((void *)(TSLOTS(h) + (h)->tsize))
#define ESLOT_SIZE(wide) ((wide) ? sizeof(ESlot32) : sizeof(ESlot16))
#define CHARS(h) ((Py_UCS4 *)((char *)ESLOTS(h) + (h)->esize * ESLOT_SIZE((h)->wide)))

/* Whether a block's n-gram slots fit ESlot16: slot numbers (parents) in int16 and counts in
 * uint16. Token ids fit too: every token is a unigram, so there are at most esize / 2 of them.
 * Real segments fit by far; a long document scored as one segment may not. */
static inline int fits16(size_t esize, int32_t refmax) {
    return esize <= 32768 && refmax <= 65535;
}

/* Field access for either layout; ``wide`` is a constant at every call site that matters
 * (count_ngrams is inlined once per layout), so the choice costs nothing per lookup. */
static inline int32_t ent_parent(const void *es, size_t i, int wide) {
    return wide ? ((const ESlot32 *)es)[i].parent : ((const ESlot16 *)es)[i].parent;
}
static inline int32_t ent_tok(const void *es, size_t i, int wide) {
    return wide ? ((const ESlot32 *)es)[i].tok : ((const ESlot16 *)es)[i].tok;
}
static inline int32_t ent_refmax(const void *es, size_t i, int wide) {
    return wide ? ((const ESlot32 *)es)[i].refmax : ((const ESlot16 *)es)[i].refmax;
}
static inline void ent_set(void *es, size_t i, int wide, int32_t parent, int32_t tok,
                           int32_t refmax) {
    if (wide) {
        ESlot32 *e = &((ESlot32 *)es)[i];
        e->parent = parent; e->tok = tok; e->refmax = refmax;
    } else {   /* fits16 checked these */
        ESlot16 *e = &((ESlot16 *)es)[i];
        e->parent = (int16_t)parent; e->tok = (int16_t)tok; e->refmax = (uint16_t)refmax;
    }
}

static inline size_t ent_home(int32_t parent, int32_t tok, size_t mask) {
    return (size_t)mix(((uint64_t)(uint32_t)parent << 32) | (uint32_t)tok) & mask;
}

/* Local id of the token ``sp`` in block ``h``, or -1. */
static inline int32_t find_tok(const Head *h, const Span *sp) {
    const TSlot *slots = TSLOTS(h);
    size_t mask = h->tsize - 1;
    uint32_t key = (uint32_t)(sp->hash >> 32), len = (uint32_t)sp->len;
    for (size_t i = sp->hash & mask;; i = (i + 1) & mask) {
        const TSlot *k = &slots[i];
        if (!k->id) return -1;
        if (k->hash != key || k->len != len) continue;
        if (len == 1 ? k->c == sp->p[0]
                     : !memcmp(CHARS(h) + k->c, sp->p, len * sizeof(Py_UCS4)))
            return k->id - 1;
    }
}

/* Slot of the n-gram (parent, tok) among n-gram slots ``es`` (``mask`` + 1 of them), or -1. */
static inline int32_t find_ent(const void *es, size_t mask, int wide, int32_t parent,
                               int32_t tok) {
    for (size_t i = ent_home(parent, tok, mask);; i = (i + 1) & mask) {
        int32_t p = ent_parent(es, i, wide);
        if (p == EMPTY) return -1;
        if (p == parent && ent_tok(es, i, wide) == tok) return (int32_t)i;
    }
}

/* Read one word of every cache line of segment ``s``'s block, in order, before using it. The
 * block was last used a whole hypothesis file ago and has left the caches; a sequential sweep
 * brings it back at streaming speed, where the lookups would each wait for a line (measured:
 * about a fifth less time than without, and clearly better than prefetch instructions). */
static inline void touch_block(const Index *ix, Py_ssize_t s) {
    const char *p = ix->blocks + ix->block_at[s], *end = ix->blocks + ix->block_at[s + 1];
    uint32_t sum = 0;
    for (; p < end; p += 64) sum += *(const volatile uint32_t *)p;
    (void)sum;
}

static void Index_dealloc(Index *ix) {
    PyMem_Free(ix->blocks); PyMem_Free(ix->block_at); PyMem_Free(ix->scratch);
    PyMem_Free(ix->seq); PyMem_Free(ix->tbuf);
    Py_XDECREF(ix->ref_lens);
    Py_TYPE(ix)->tp_free((PyObject *)ix);
}

/* Tokens given as a sequence of str (the list path). A token stored as UCS4 is used in place;
 * others are widened into ``buf``, whose final address is only known once the segment is
 * complete, so their spans get ``fix`` entries (span index, offset) resolved by fix_spans. */
typedef struct { size_t span, off; } Fix;
static const Py_UCS4 NO_CHARS[1] = {0};

static int list_tokens(PyObject *tokens, Vec *spans, Vec *buf, Vec *fix, Vec *keep) {
    PyObject *fast = PySequence_Fast(tokens, "a token list must be a sequence of str");
    if (!fast) return -1;
    if (vec_reserve(keep, 1) < 0) { Py_DECREF(fast); return -1; }
    VEC(*keep, PyObject *)[keep->n++] = fast;   /* its items must outlive the spans */
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    if (vec_reserve(spans, (size_t)n) < 0 || vec_reserve(fix, (size_t)n) < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *tok = items[i];
        if (!PyUnicode_CheckExact(tok)) {   /* other types compare by their own __eq__ */
            PyErr_SetString(PyExc_TypeError, "tokens must be str");
            return -1;
        }
        Py_ssize_t len = PyUnicode_GET_LENGTH(tok);
        int kind = PyUnicode_KIND(tok);
        const void *data = PyUnicode_DATA(tok);
        Span *sp = &VEC(*spans, Span)[spans->n];
        uint64_t h = 0xcbf29ce484222325ULL;
        if (len == 0) {
            sp->p = NO_CHARS;   /* an empty token: a valid address for a 0-byte compare */
        } else if (kind == PyUnicode_4BYTE_KIND) {
            sp->p = (const Py_UCS4 *)data;
            for (Py_ssize_t q = 0; q < len; q++) h = (h ^ sp->p[q]) * 0x100000001b3ULL;
        } else {
            if (vec_reserve(buf, (size_t)len) < 0) return -1;
            Py_UCS4 *dst = VEC(*buf, Py_UCS4) + buf->n;
            for (Py_ssize_t q = 0; q < len; q++) {
                dst[q] = PyUnicode_READ(kind, data, q);
                h = (h ^ dst[q]) * 0x100000001b3ULL;
            }
            Fix *f = &VEC(*fix, Fix)[fix->n++];
            f->span = spans->n; f->off = buf->n;
            buf->n += (size_t)len;
            sp->p = NULL;
        }
        sp->len = len; sp->hash = mix(h);
        spans->n++;
    }
    return 0;
}

static void fix_spans(Vec *spans, const Vec *buf, Vec *fix) {
    for (size_t i = 0; i < fix->n; i++) {
        const Fix *f = &VEC(*fix, Fix)[i];
        VEC(*spans, Span)[f->span].p = VEC(*buf, Py_UCS4) + f->off;
    }
    fix->n = 0;
}

static void release(Vec *keep) {
    for (size_t i = 0; i < keep->n; i++) Py_DECREF(VEC(*keep, PyObject *)[i]);
    keep->n = 0;
}

/* Scratch space for building blocks, reused from segment to segment. */
typedef struct { Vec spans, ids, toks, tslot, ents, eslot, cur, slot_of; } Build;

typedef struct { int32_t parent, tok, refmax; } Ent;     /* parent: local entry id or -1 */

static void build_free(Build *b) {
    PyMem_Free(b->spans.p); PyMem_Free(b->ids.p); PyMem_Free(b->toks.p);
    PyMem_Free(b->tslot.p); PyMem_Free(b->ents.p); PyMem_Free(b->eslot.p);
    PyMem_Free(b->cur.p); PyMem_Free(b->slot_of.p);
}

/* Append the block of one segment, whose reference tokens are ``b->spans`` (``ref_n[r]`` of
 * them from reference r). First the distinct tokens and n-grams get local ids (temporary
 * tables sized for the worst case), then the block's tables are sized for what was found. */
static int build_segment(Index *ix, Vec *blocks, size_t *max_esize, const Py_ssize_t *ref_n,
                         Build *b) {
    size_t total = b->spans.n, bound = 0;
    int N = ix->max_order;
    for (Py_ssize_t r = 0; r < ix->nrefs; r++)
        for (int n = 1; n <= N && n <= ref_n[r]; n++) bound += (size_t)(ref_n[r] - n + 1);
    size_t tmp_t = table_size(total), tmp_e = table_size(bound);
    b->tslot.n = b->eslot.n = b->ids.n = b->toks.n = b->ents.n = b->cur.n = b->slot_of.n = 0;
    if (vec_reserve(&b->tslot, tmp_t) < 0 || vec_reserve(&b->eslot, tmp_e) < 0 ||
        vec_reserve(&b->ids, total) < 0 || vec_reserve(&b->toks, total) < 0 ||
        vec_reserve(&b->ents, bound) < 0 || vec_reserve(&b->cur, bound) < 0 ||
        vec_reserve(&b->slot_of, bound) < 0) return -1;
    int32_t *ts = VEC(b->tslot, int32_t), *es = VEC(b->eslot, int32_t);
    memset(ts, 0, tmp_t * sizeof(int32_t));
    memset(es, 0, tmp_e * sizeof(int32_t));
    const Span *sp = VEC(b->spans, Span);
    const Span **toks = VEC(b->toks, const Span *);   /* first occurrence of each token */
    int32_t *id = VEC(b->ids, int32_t), *cnt = VEC(b->cur, int32_t);
    Ent *en = VEC(b->ents, Ent);
    size_t ntok = 0, nent = 0, nchars = 0;
    int32_t maxref = 0;
    for (size_t k = 0; k < total; k++) {                      /* distinct tokens */
        size_t i = sp[k].hash & (tmp_t - 1);
        for (;; i = (i + 1) & (tmp_t - 1)) {
            int32_t j = ts[i];
            if (!j) {
                ts[i] = (int32_t)++ntok;
                toks[ntok - 1] = &sp[k];
                if (sp[k].len > 1) nchars += (size_t)sp[k].len;
                id[k] = (int32_t)ntok - 1;
                break;
            }
            const Span *o = toks[j - 1];
            if (o->hash == sp[k].hash && o->len == sp[k].len &&
                !memcmp(o->p, sp[k].p, (size_t)o->len * sizeof(Py_UCS4))) {
                id[k] = j - 1;
                break;
            }
        }
    }
    size_t base = 0;
    for (Py_ssize_t r = 0; r < ix->nrefs; r++) {              /* n-grams: max count per ref */
        Py_ssize_t len = ref_n[r] < 0 ? 0 : ref_n[r];   /* -1: no such reference */
        for (Py_ssize_t i = 0; i < len; i++) {
            int32_t parent = -1;
            for (int n = 1; n <= N && i + n <= len; n++) {
                int32_t tok = id[base + (size_t)(i + n - 1)];
                size_t h = ent_home(parent, tok, tmp_e - 1);
                int32_t e = -1;
                for (;; h = (h + 1) & (tmp_e - 1)) {
                    int32_t j = es[h];
                    if (!j) break;
                    if (en[j - 1].parent == parent && en[j - 1].tok == tok) { e = j - 1; break; }
                }
                if (e < 0) {
                    e = (int32_t)nent++;
                    en[e].parent = parent; en[e].tok = tok; en[e].refmax = 0;
                    cnt[e] = 0;
                    es[h] = e + 1;
                }
                if (++cnt[e] > en[e].refmax) {
                    en[e].refmax = cnt[e];
                    if (cnt[e] > maxref) maxref = cnt[e];
                }
                parent = e;
            }
        }
        if (nent) memset(cnt, 0, nent * sizeof(int32_t));   /* cnt is NULL while bound is 0 */
        base += (size_t)len;
    }
    /* the block, sized for what was found */
    size_t tsize = table_size(ntok), esize = table_size(nent);
    int wide = !fits16(esize, maxref);
    size_t bytes = sizeof(Head) + tsize * sizeof(TSlot) + esize * ESLOT_SIZE(wide) +
                   nchars * sizeof(Py_UCS4);
    bytes = (bytes + 15) & ~(size_t)15;
    if (tsize > UINT32_MAX / 2 || esize > INT32_MAX / 2 || nchars > UINT32_MAX / 2) {
        PyErr_SetString(PyExc_OverflowError, "one segment has too many reference n-grams");
        return -1;
    }
    if (vec_reserve(blocks, bytes) < 0) return -1;
    Head *h = (Head *)(blocks->p + blocks->n);
    memset(h, 0, bytes);
    blocks->n += bytes;
    h->tsize = (uint32_t)tsize; h->esize = (uint32_t)esize; h->nchars = (uint32_t)nchars;
    h->wide = (uint32_t)wide;
    TSlot *tslots = TSLOTS(h);
    void *eslots = ESLOTS(h);
    Py_UCS4 *chars = CHARS(h);
    size_t at = 0;
    for (size_t j = 0; j < ntok; j++) {
        const Span *t = toks[j];
        size_t i = t->hash & (tsize - 1);
        while (tslots[i].id) i = (i + 1) & (tsize - 1);
        tslots[i].hash = (uint32_t)(t->hash >> 32);
        tslots[i].id = (int32_t)j + 1;
        tslots[i].len = (uint32_t)t->len;
        if (t->len == 1) {
            tslots[i].c = t->p[0];
        } else {
            tslots[i].c = (uint32_t)at;
            memcpy(chars + at, t->p, (size_t)t->len * sizeof(Py_UCS4));
            at += (size_t)t->len;
        }
    }
    for (size_t i = 0; i < esize; i++) ent_set(eslots, i, wide, EMPTY, 0, 0);
    int32_t *slot_of = VEC(b->slot_of, int32_t);
    for (size_t e = 0; e < nent; e++) {    /* a prefix always got its local id before */
        int32_t parent = en[e].parent < 0 ? -1 : slot_of[en[e].parent];
        size_t i = ent_home(parent, en[e].tok, esize - 1);
        while (ent_parent(eslots, i, wide) != EMPTY) i = (i + 1) & (esize - 1);
        ent_set(eslots, i, wide, parent, en[e].tok, en[e].refmax);
        slot_of[e] = (int32_t)i;
    }
    if (esize > *max_esize) *max_esize = esize;
    return 0;
}

static int check_start(const Text *t) { return t->len >= 1 && t->s[0] == '\n'; }

static PyObject *malformed(void) {
    PyErr_SetString(PyExc_ValueError, "not a joined text of the given number of lines");
    return NULL;
}

/* The index of reference streams: joined texts (lists=0) or sequences of token lists, an item
 * None standing for a missing reference (lists=1). */
static PyObject *index_build(PyTypeObject *type, PyObject *seq, Py_ssize_t lines, int max_order,
                             int chars, int lists) {
    if (lines < 0 || max_order < 1 || max_order > 1000) {
        PyErr_SetString(PyExc_ValueError, "lines must be >= 0 and max_order in 1..1000");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of reference streams");
    if (!fast) return NULL;
    Py_ssize_t nrefs = PySequence_Fast_GET_SIZE(fast);
    Index *ix = (Index *)type->tp_alloc(type, 0);
    Text *texts = PyMem_Calloc((size_t)nrefs + 1, sizeof(Text));
    PyObject **streams = PyMem_Calloc((size_t)nrefs + 1, sizeof(PyObject *));
    Py_ssize_t *pos = PyMem_Calloc((size_t)nrefs + 1, sizeof(Py_ssize_t));
    Py_ssize_t *ref_n = PyMem_Calloc((size_t)nrefs + 1, sizeof(Py_ssize_t));
    Build b = {VEC_INIT(Span), VEC_INIT(int32_t), VEC_INIT(Span *), VEC_INIT(int32_t),
               VEC_INIT(Ent), VEC_INIT(int32_t), VEC_INIT(int32_t), VEC_INIT(int32_t)};
    Vec blocks = VEC_INIT(char), buf = VEC_INIT(Py_UCS4), fix = VEC_INIT(Fix);
    Vec keep = VEC_INIT(PyObject *), sequence = VEC_INIT(int32_t);
    size_t max_esize = 0;
    if (!ix || !texts || !streams || !pos || !ref_n) { if (ix) PyErr_NoMemory(); goto fail; }
    ix->lines = lines; ix->nrefs = nrefs; ix->max_order = max_order; ix->chars = chars;
    ix->lists = lists;
    ix->ref_lens = PyBytes_FromStringAndSize(NULL, lines * nrefs * (Py_ssize_t)sizeof(int64_t));
    if (!ix->ref_lens) goto fail;
    int64_t *ref_lens = (int64_t *)PyBytes_AS_STRING(ix->ref_lens);
    ix->block_at = PyMem_Calloc((size_t)lines + 1, sizeof(int64_t));
    if (!ix->block_at) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t r = 0; r < nrefs; r++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, r);
        if (lists) {
            streams[r] = PySequence_Fast(item, "a reference stream must be a sequence");
            if (!streams[r]) goto fail;
            if (PySequence_Fast_GET_SIZE(streams[r]) != lines) { malformed(); goto fail; }
        } else {
            if (text_of(item, &texts[r]) < 0) goto fail;
            if (!check_start(&texts[r])) { malformed(); goto fail; }
        }
    }
    for (Py_ssize_t s = 0; s < lines; s++) {
        b.spans.n = 0; buf.n = 0;
        for (Py_ssize_t r = 0; r < nrefs; r++) {
            size_t before = b.spans.n;
            if (lists) {
                PyObject *tokens = PySequence_Fast_GET_ITEM(streams[r], s);
                if (tokens == Py_None) {
                    ref_n[r] = ref_lens[s * nrefs + r] = -1;
                    continue;
                }
                if (list_tokens(tokens, &b.spans, &buf, &fix, &keep) < 0) goto fail;
            } else {
                Py_ssize_t end = line_end(&texts[r], pos[r] + 1);
                if (end < 0) { malformed(); goto fail; }
                if (split_line(&texts[r], pos[r] + 1, end, chars, &b.spans) < 0) goto fail;
                pos[r] = end;
            }
            ref_n[r] = ref_lens[s * nrefs + r] = (Py_ssize_t)(b.spans.n - before);
        }
        fix_spans(&b.spans, &buf, &fix);
        ix->block_at[s] = (int64_t)blocks.n;
        if (build_segment(ix, &blocks, &max_esize, ref_n, &b) < 0) goto fail;
        release(&keep);
        if (lists) {   /* the token sequences, for tokens() */
            if (vec_reserve(&sequence, b.spans.n) < 0) goto fail;
            if (b.spans.n)   /* both buffers may still be NULL */
                memcpy(VEC(sequence, int32_t) + sequence.n, b.ids.p, b.spans.n * sizeof(int32_t));
            sequence.n += b.spans.n;
        }
    }
    for (Py_ssize_t r = 0; !lists && r < nrefs; r++)
        if (pos[r] != texts[r].len - 1) { malformed(); goto fail; }
    ix->block_at[lines] = (int64_t)blocks.n;
    ix->blocks = blocks.p;
    blocks.p = NULL;
    if (lists) { ix->seq = VEC(sequence, int32_t); sequence.p = NULL; }
    ix->scratch = PyMem_Calloc(max_esize + 1, sizeof(int32_t));
    if (!ix->scratch) { PyErr_NoMemory(); goto fail; }
    goto done;
fail:
    Py_XDECREF((PyObject *)ix);
    ix = NULL;
done:
    release(&keep);
    for (Py_ssize_t r = 0; texts && streams && r < nrefs; r++) {
        text_free(&texts[r]);
        Py_XDECREF(streams[r]);
    }
    build_free(&b);
    PyMem_Free(blocks.p); PyMem_Free(buf.p); PyMem_Free(fix.p); PyMem_Free(keep.p);
    PyMem_Free(sequence.p);
    PyMem_Free(texts); PyMem_Free(streams); PyMem_Free(pos); PyMem_Free(ref_n);
    Py_DECREF(fast);
    return (PyObject *)ix;
}

/* Index(texts, lines, max_order, chars): joined token texts */
static PyObject *Index_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *seq; Py_ssize_t lines; int max_order, chars;
    static char *names[] = {"texts", "lines", "max_order", "chars", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Onip", names, &seq, &lines, &max_order, &chars))
        return NULL;
    return index_build(type, seq, lines, max_order, chars, 0);
}

/* Index.from_lists(streams, lines, max_order): token lists of str, None = no reference */
static PyObject *Index_from_lists(PyObject *cls, PyObject *args) {
    PyObject *seq; Py_ssize_t lines; int max_order;
    if (!PyArg_ParseTuple(args, "Oni", &seq, &lines, &max_order)) return NULL;
    return index_build((PyTypeObject *)cls, seq, lines, max_order, 0, 1);
}

/* The clipped matches of hypothesis token ids ``id[0..len)`` (-1: not in the references)
 * against block ``h``, added to ``row``; ``cnt`` holds one zeroed counter per n-gram slot. */
static ALWAYS_INLINE void count_ngrams(
        const Head *h, const int32_t *id, Py_ssize_t len, int N, int wide, int32_t *cnt,
        int64_t *row) {
    const void *es = ESLOTS(h);
    size_t mask = h->esize - 1;
    for (Py_ssize_t i = 0; i < len; i++) {
        int32_t parent = -1;
        for (int n = 1; n <= N && i + n <= len; n++) {
            int32_t tok = id[i + n - 1];
            if (tok < 0) break;
            int32_t e = find_ent(es, mask, wide, parent, tok);
            if (e < 0) break;
            if (++cnt[e] <= ent_refmax(es, (size_t)e, wide)) row[n - 1]++;
            parent = e;
        }
    }
}

/* Clipped matches of segment ``s``'s hypothesis tokens ``sp[0..len)`` into ``row``; ``cnt``:
 * zeroed counters for at least the block's n-gram slots, left zeroed. */
static int count_segment(const Index *ix, Py_ssize_t s, const Span *sp, Py_ssize_t len,
                         Vec *ids, int32_t *cnt, int64_t *row) {
    const Head *h = block(ix, s);
    if (!len || !h->esize) return 0;
    touch_block(ix, s);
    if (vec_reserve(ids, (size_t)len) < 0) return -1;
    int32_t *id = VEC(*ids, int32_t);
    int N = ix->max_order;
    for (Py_ssize_t i = 0; i < len; i++) id[i] = find_tok(h, &sp[i]);
    if (h->wide)   /* two copies of the loop, each with its layout fixed */
        count_ngrams(h, id, len, N, 1, cnt, row);
    else
        count_ngrams(h, id, len, N, 0, cnt, row);
    memset(cnt, 0, h->esize * sizeof(int32_t));
    return 0;
}

/* count(hypotheses, lines) -> (hyp_len bytes int64 [lines], matches bytes int64
 * [lines][max_order]); hypotheses: a joined text, or with lists=True a sequence of token
 * lists of str */
static PyObject *Index_count(Index *ix, PyObject *args, PyObject *kw) {
    PyObject *obj; Py_ssize_t lines; int lists = 0;
    static char *names[] = {"hypotheses", "lines", "lists", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "On|p", names, &obj, &lines, &lists))
        return NULL;
    if (lines != ix->lines) return malformed();
    Text t = {NULL, 0, NULL};
    PyObject *hyps = NULL;
    if (lists) {
        hyps = PySequence_Fast(obj, "hypotheses must be a sequence of token lists");
        if (!hyps) return NULL;
        if (PySequence_Fast_GET_SIZE(hyps) != lines) { Py_DECREF(hyps); return malformed(); }
    } else if (text_into(obj, &t, &ix->tbuf, &ix->tcap) < 0) {
        return NULL;
    }
    int N = ix->max_order;
    PyObject *hyp_len = PyBytes_FromStringAndSize(NULL, lines * (Py_ssize_t)sizeof(int64_t));
    PyObject *matches = PyBytes_FromStringAndSize(NULL, lines * N * (Py_ssize_t)sizeof(int64_t));
    PyObject *out = NULL;
    Vec spans = VEC_INIT(Span), ids = VEC_INIT(int32_t), buf = VEC_INIT(Py_UCS4);
    Vec fix = VEC_INIT(Fix), keep = VEC_INIT(PyObject *);
    if (!hyp_len || !matches) goto done;
    if (!lists && !check_start(&t)) { malformed(); goto done; }
    int64_t *hl = (int64_t *)PyBytes_AS_STRING(hyp_len);
    int64_t *m = (int64_t *)PyBytes_AS_STRING(matches);
    memset(m, 0, (size_t)(lines * N) * sizeof(int64_t));
    Py_ssize_t pos = 0;
    for (Py_ssize_t s = 0; s < lines; s++) {
        spans.n = 0;
        if (lists) {
            buf.n = 0;
            if (list_tokens(PySequence_Fast_GET_ITEM(hyps, s), &spans, &buf, &fix, &keep) < 0)
                goto done;
            fix_spans(&spans, &buf, &fix);
        } else {
            Py_ssize_t end = line_end(&t, pos + 1);
            if (end < 0) { malformed(); goto done; }
            if (split_line(&t, pos + 1, end, ix->chars, &spans) < 0) goto done;
            pos = end;
        }
        hl[s] = (int64_t)spans.n;
        if (count_segment(ix, s, VEC(spans, Span), (Py_ssize_t)spans.n, &ids, ix->scratch,
                          m + s * N) < 0)
            goto done;
        release(&keep);
    }
    if (!lists && pos != t.len - 1) { malformed(); goto done; }
    out = PyTuple_Pack(2, hyp_len, matches);
done:
    release(&keep);
    text_free(&t);
    Py_XDECREF(hyps);
    PyMem_Free(spans.p); PyMem_Free(ids.p); PyMem_Free(buf.p); PyMem_Free(fix.p);
    PyMem_Free(keep.p);
    Py_XDECREF(hyp_len); Py_XDECREF(matches);
    return out;
}

/* The hypothesis length and clipped matches (``m[0..max_order)``, zeroed by the caller) of one
 * line against an index of one segment: what count_one and bleu_one share. */
/* count_one's work buffers, kept between calls (the GIL serializes them and no Python code
 * runs inside): callers count one sentence per call, each against another index. Shared
 * buffers stay in the cache, where each index's own (its text buffer and counters) would be
 * cold memory at every call, and allocating per call costs about a tenth of it. Buffers grown
 * by a long line are released after it. */
static Vec one_spans = VEC_INIT(Span), one_ids = VEC_INIT(int32_t),
           one_cnt = VEC_INIT(int32_t);   /* one_cnt: zeroed counters, n == cap */
static Py_UCS4 *one_text;
static Py_ssize_t one_text_cap;
#define ONE_KEEP 4096

static void release_if_big(Vec *v) {
    if (v->cap > ONE_KEEP) { PyMem_Free(v->p); v->p = NULL; v->cap = v->n = 0; }
}

/* ``one_cnt`` with at least ``n`` zeroed counters. */
static int32_t *one_counters(size_t n) {
    if (n > one_cnt.cap) {
        size_t had = one_cnt.cap;
        one_cnt.n = had;
        if (vec_reserve(&one_cnt, n - had) < 0) return NULL;
        memset(VEC(one_cnt, int32_t) + had, 0, (one_cnt.cap - had) * sizeof(int32_t));
        one_cnt.n = one_cnt.cap;
    }
    return VEC(one_cnt, int32_t);
}

static int count_one_into(Index *ix, PyObject *obj, Py_ssize_t *hyp_len, int64_t *m) {
    if (ix->lines != 1) { malformed(); return -1; }
    int32_t *cnt = one_counters((size_t)block(ix, 0)->esize + 1);
    if (!cnt) return -1;
    Text t = {NULL, 0, NULL};
    if (text_into(obj, &t, &one_text, &one_text_cap) < 0) return -1;
    Vec *spans = &one_spans, *ids = &one_ids;
    spans->n = 0;
    int rc = -1, inner;
    if (!check_start(&t) || t.len < 2 || t.s[t.len - 1] != '\n') { malformed(); goto done; }
    inner = split_line(&t, 1, t.len - 1, ix->chars, spans);   /* 1: a "\n" inside */
    if (inner < 0) goto done;
    if (inner) { malformed(); goto done; }
    if (count_segment(ix, 0, VEC(*spans, Span), (Py_ssize_t)spans->n, ids, cnt, m) < 0)
        goto done;
    *hyp_len = (Py_ssize_t)spans->n;
    rc = 0;
done:
    text_free(&t);
    release_if_big(spans); release_if_big(ids); release_if_big(&one_cnt);
    if (one_text_cap > ONE_KEEP) { PyMem_Free(one_text); one_text = NULL; one_text_cap = 0; }
    return rc;
}

/* A tuple of ``n`` Python ints. */
static PyObject *int_tuple(const int64_t *v, int n) {
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

/* count_one(hypothesis) -> (hyp_len, matches): count(hypothesis, 1) of an index of one
 * segment as Python ints, for callers that count one sentence per call (no buffers to read) */
static PyObject *Index_count_one(Index *ix, PyObject *obj) {
    int N = ix->max_order;
    PyObject *out = NULL, *matches;
    Py_ssize_t hyp_len;
    int64_t *m = PyMem_Calloc((size_t)N, sizeof(int64_t));
    if (!m) return PyErr_NoMemory();
    if (count_one_into(ix, obj, &hyp_len, m) == 0 && (matches = int_tuple(m, N))) {
        out = Py_BuildValue("nN", hyp_len, matches);
    }
    PyMem_Free(m);
    return out;
}

#if SACREBLEU_FORMULA
/* The reference length sacreBLEU takes for a segment: the closest to the hypothesis length,
 * the shorter one on a tie. */
static int64_t closest_ref_len(const int64_t *ref_lens, Py_ssize_t nrefs, int64_t hyp_len) {
    int64_t best = ref_lens[0], gap = llabs(best - hyp_len);
    for (Py_ssize_t r = 1; r < nrefs; r++) {
        int64_t d = llabs(ref_lens[r] - hyp_len);
        if (d < gap || (d == gap && ref_lens[r] < best)) { best = ref_lens[r]; gap = d; }
    }
    return best;
}

/* bleu_one(hypothesis, effective_order, smoothing, value, k) -> (score, matches, totals,
 * precisions, bp, hyp_len, ref_len, references): count_one and sacreBLEU's compute_bleu of the
 * segment in one call (smoothing numbered as in _sacrebleu_formula.h; value: floor's, k:
 * add-k's, below 2**53), the tuples holding Python ints and floats as sacreBLEU's lists do. One call instead of a count, a Python formula and the
 * tuples between them: the per-call drop-in spends most of a call on that glue. */
static PyObject *Index_bleu_one(Index *ix, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "bleu_one(hypothesis, effective_order, smoothing, value, k)");
        return NULL;
    }
    int effective = PyObject_IsTrue(args[1]);
    long smoothing = PyLong_AsLong(args[2]);
    double value = PyFloat_AsDouble(args[3]);
    long long k = PyLong_AsLongLong(args[4]);
    if (effective < 0 || PyErr_Occurred()) return NULL;
    if (smoothing < SMOOTH_NONE || smoothing > SMOOTH_EXP || k < 0 || k >= FORMULA_LIMIT) {
        PyErr_SetString(PyExc_ValueError, "bleu_one: unknown smoothing or k out of range");
        return NULL;
    }
    if (ix->nrefs < 1) { PyErr_SetString(PyExc_ValueError, "no reference"); return NULL; }
    int N = ix->max_order;
    enum { SMALL = 8 };   /* BLEU's orders fit on the stack */
    int64_t small[2 * SMALL];
    double small_prec[SMALL];
    int64_t *m = small;
    double *prec = small_prec;
    if (N > SMALL) {
        m = PyMem_Malloc((size_t)N * 2 * sizeof(int64_t));
        prec = PyMem_Malloc((size_t)N * sizeof(double));
        if (!m || !prec) {
            PyMem_Free(m); PyMem_Free(prec);
            return PyErr_NoMemory();
        }
    }
    int64_t *total = m + N;
    memset(m, 0, (size_t)N * sizeof(int64_t));
    PyObject *out = NULL;
    Py_ssize_t hyp_len;
    if (count_one_into(ix, args[0], &hyp_len, m) < 0) goto done;
    const int64_t *ref_lens = (const int64_t *)PyBytes_AS_STRING(ix->ref_lens);
    for (Py_ssize_t r = 0; r < ix->nrefs; r++)
        if (ref_lens[r] < 0) { PyErr_SetString(PyExc_ValueError, "no reference"); goto done; }
    int64_t ref_len = closest_ref_len(ref_lens, ix->nrefs, hyp_len);
    for (int n = 0; n < N; n++) total[n] = hyp_len - n > 0 ? hyp_len - n : 0;
    double bp;
    double score = sacrebleu_score(m, total, N, hyp_len, ref_len, effective, (int)smoothing,
                                   value, k, prec, &bp);
    /* (score, matches, totals, precisions, bp, hyp_len, ref_len, references) */
    PyObject *items[8] = {
        PyFloat_FromDouble(score), int_tuple(m, N), int_tuple(total, N), PyTuple_New(N),
        PyFloat_FromDouble(bp), PyLong_FromSsize_t(hyp_len), PyLong_FromLongLong(ref_len),
        PyLong_FromSsize_t(ix->nrefs)};
    int ok = 1;
    for (int i = 0; i < 8; i++) ok &= items[i] != NULL;
    for (int n = 0; ok && n < N; n++) {
        PyObject *p = PyFloat_FromDouble(prec[n]);
        if (!p) { ok = 0; break; }
        PyTuple_SET_ITEM(items[3], n, p);
    }
    if (ok && (out = PyTuple_New(8))) {
        for (int i = 0; i < 8; i++) PyTuple_SET_ITEM(out, i, items[i]);
        /* Tuples of numbers cannot be part of a reference cycle: untracked now, as the
         * collector would untrack them at its next pass after visiting them. The caller keeps
         * them in its cache of seen segments, which the collector then does not walk. */
        for (int i = 1; i < 4; i++) PyObject_GC_UnTrack(items[i]);
        PyObject_GC_UnTrack(out);
    } else {
        for (int i = 0; i < 8; i++) Py_XDECREF(items[i]);
    }
done:
    if (m != small) { PyMem_Free(m); PyMem_Free(prec); }
    return out;
}
#endif

/* tokens() -> the reference token lists an index of token lists was built from, as new str
 * objects (a snapshot taken at build time; None for a missing reference). */
static PyObject *Index_tokens(Index *ix, PyObject *unused) {
    (void)unused;
    if (!ix->lists) {
        PyErr_SetString(PyExc_ValueError, "only an index of token lists keeps its tokens");
        return NULL;
    }
    const int64_t *ref_lens = (const int64_t *)PyBytes_AS_STRING(ix->ref_lens);
    PyObject *out = PyList_New(ix->nrefs);
    int32_t *slot_of = NULL;
    size_t cap = 0, at = 0;
    if (!out) return NULL;
    for (Py_ssize_t r = 0; r < ix->nrefs; r++) {
        PyObject *stream = PyList_New(ix->lines);
        if (!stream) goto fail;
        PyList_SET_ITEM(out, r, stream);
    }
    for (Py_ssize_t s = 0; s < ix->lines; s++) {
        const Head *h = block(ix, s);
        const TSlot *ts = TSLOTS(h);
        if (h->tsize > cap) {
            int32_t *p = PyMem_Realloc(slot_of, h->tsize * sizeof(int32_t));
            if (!p) { PyErr_NoMemory(); goto fail; }
            slot_of = p; cap = h->tsize;
        }
        for (uint32_t i = 0; i < h->tsize; i++)
            if (ts[i].id) slot_of[ts[i].id - 1] = (int32_t)i;
        for (Py_ssize_t r = 0; r < ix->nrefs; r++) {
            int64_t n = ref_lens[s * ix->nrefs + r];
            PyObject *item;
            if (n < 0) {
                item = Py_None; Py_INCREF(item);
            } else {
                item = PyList_New((Py_ssize_t)n);
                if (!item) goto fail;
                for (int64_t q = 0; q < n; q++) {
                    const TSlot *k = &ts[slot_of[ix->seq[at++]]];
                    PyObject *tok = PyUnicode_FromKindAndData(
                        PyUnicode_4BYTE_KIND, k->len == 1 ? &k->c : CHARS(h) + k->c,
                        (Py_ssize_t)k->len);
                    if (!tok) { Py_DECREF(item); goto fail; }
                    PyList_SET_ITEM(item, (Py_ssize_t)q, tok);
                }
            }
            PyList_SET_ITEM(PyList_GET_ITEM(out, r), s, item);
        }
    }
    PyMem_Free(slot_of);
    return out;
fail:
    PyMem_Free(slot_of);
    Py_DECREF(out);
    return NULL;
}

static PyObject *Index_ref_lens(Index *ix, void *closure) {
    (void)closure;
    Py_INCREF(ix->ref_lens);
    return ix->ref_lens;
}

/* How many blocks have 32-bit n-gram slots (for tests: both layouts must be exercised). */
static PyObject *Index_wide_blocks(Index *ix, void *closure) {
    (void)closure;
    Py_ssize_t n = 0;
    for (Py_ssize_t s = 0; s < ix->lines; s++) n += block(ix, s)->wide != 0;
    return PyLong_FromSsize_t(n);
}

#if SACREBLEU_FORMULA
/* bleu_rows(hyp_len, ref_len, matches, totals, rows, max_order, effective_order, smoothing,
 * value, k): sacreBLEU's compute_bleu of every row (_sacrebleu_formula.h). Buffers are int64:
 * hyp_len and ref_len [rows], matches and totals [rows][max_order].
 * -> (scores float64 [rows], precisions float64 [rows][max_order], bp float64 [rows], matches
 *     and totals int64 [rows][max_order] as sacreBLEU reports them) as bytearrays (writable
 *     arrays for the caller), or None when a count is negative or a count or length is not
 *     below 2**53 in magnitude (where the C arithmetic is no longer Python's: the caller
 *     scores those rows in Python). */
static PyObject *mod_bleu_rows(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer bh, br, bm, bt;
    Py_ssize_t rows, N;
    int effective, smoothing;
    double value;
    long long k;
    if (!PyArg_ParseTuple(args, "y*y*y*y*nnpidL", &bh, &br, &bm, &bt, &rows, &N, &effective,
                          &smoothing, &value, &k))
        return NULL;
    PyObject *out = NULL, *sc = NULL, *pr = NULL, *bp = NULL, *cm = NULL, *ct = NULL;
    Py_ssize_t cells = rows * N, w = (Py_ssize_t)sizeof(int64_t);
    if (rows < 0 || N < 1 || N > INT_MAX / 2 || bh.len != rows * w || br.len != rows * w
        || bm.len != cells * w || bt.len != cells * w) {
        PyErr_SetString(PyExc_ValueError, "bleu_rows: buffer sizes do not match the shape");
        goto done;
    }
    if (smoothing < SMOOTH_NONE || smoothing > SMOOTH_EXP || k < 0 || k >= FORMULA_LIMIT) {
        PyErr_SetString(PyExc_ValueError, "bleu_rows: unknown smoothing or k out of range");
        goto done;
    }
    const int64_t *h = bh.buf, *r = br.buf, *m = bm.buf, *t = bt.buf;
    for (Py_ssize_t i = 0; i < rows; i++)
        if (h[i] <= -FORMULA_LIMIT || h[i] >= FORMULA_LIMIT || r[i] <= -FORMULA_LIMIT
            || r[i] >= FORMULA_LIMIT) { out = Py_NewRef(Py_None); goto done; }
    for (Py_ssize_t i = 0; i < cells; i++)
        if (m[i] < 0 || m[i] >= FORMULA_LIMIT || t[i] < 0 || t[i] >= FORMULA_LIMIT) {
            out = Py_NewRef(Py_None);
            goto done;
        }
    sc = PyByteArray_FromStringAndSize(NULL, rows * w);
    pr = PyByteArray_FromStringAndSize(NULL, cells * w);
    bp = PyByteArray_FromStringAndSize(NULL, rows * w);
    cm = PyByteArray_FromStringAndSize((const char *)m, cells * w);
    ct = PyByteArray_FromStringAndSize((const char *)t, cells * w);
    if (!sc || !pr || !bp || !cm || !ct) goto done;
    double *score = (double *)PyByteArray_AS_STRING(sc), *prec = (double *)PyByteArray_AS_STRING(pr);
    double *penalty = (double *)PyByteArray_AS_STRING(bp);
    int64_t *correct = (int64_t *)PyByteArray_AS_STRING(cm), *total = (int64_t *)PyByteArray_AS_STRING(ct);
    for (Py_ssize_t i = 0; i < rows; i++)
        score[i] = sacrebleu_score(correct + i * N, total + i * N, (int)N, h[i], r[i], effective,
                                   smoothing, value, k, prec + i * N, penalty + i);
    out = PyTuple_Pack(5, sc, pr, bp, cm, ct);
done:
    Py_XDECREF(sc); Py_XDECREF(pr); Py_XDECREF(bp); Py_XDECREF(cm); Py_XDECREF(ct);
    PyBuffer_Release(&bh); PyBuffer_Release(&br); PyBuffer_Release(&bm); PyBuffer_Release(&bt);
    return out;
}
#endif

/* summarize(hyp_len, matches, ref_lens, lines, max_order, nrefs, floor): what a corpus score
 * needs from per-segment statistics, without building arrays. Buffers are int64: hyp_len
 * [lines], matches [lines][max_order], ref_lens [lines][nrefs] (-1: no such reference).
 * Totals are max(hyp_len - n, floor) per segment and order (the counter's definition). The
 * reference length chosen per segment is summed under each built-in rule: closest (tie ->
 * shorter), closest (tie -> first listed), shortest; -1 where a segment has no reference.
 * -> (hyp_len sum, match sums, total sums, (closest, closest-first, shortest) ref_len sums,
 *     references per segment or -1 when it varies, first row with a negative count or more
 *     matches than n-grams or -1) */
static PyObject *mod_summarize(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer bh, bm, br;
    Py_ssize_t lines, N, R;
    long long floor_;
    if (!PyArg_ParseTuple(args, "y*y*y*nnnL", &bh, &bm, &br, &lines, &N, &R, &floor_))
        return NULL;
    PyObject *out = NULL, *ms = NULL, *ts = NULL;
    int64_t *msum = NULL, *tsum = NULL;
    if (lines < 0 || N < 1 || R < 0
        || bh.len != lines * (Py_ssize_t)sizeof(int64_t)
        || bm.len != lines * N * (Py_ssize_t)sizeof(int64_t)
        || br.len != lines * R * (Py_ssize_t)sizeof(int64_t)) {
        PyErr_SetString(PyExc_ValueError, "summarize: buffer sizes do not match the shape");
        goto done;
    }
    const int64_t *hl = (const int64_t *)bh.buf, *m = (const int64_t *)bm.buf;
    const int64_t *rl = (const int64_t *)br.buf;
    msum = PyMem_Calloc((size_t)N, sizeof(int64_t));
    tsum = PyMem_Calloc((size_t)N, sizeof(int64_t));
    if (!msum || !tsum) { PyErr_NoMemory(); goto done; }
    int64_t hsum = 0, rsum[3] = {0, 0, 0};
    Py_ssize_t per = -2, bad = -1;
    for (Py_ssize_t s = 0; s < lines; s++) {
        int64_t h = hl[s];
        hsum += h;
        if (h < 0 && bad < 0) bad = s;
        for (Py_ssize_t n = 0; n < N; n++) {
            int64_t t = h - n > floor_ ? h - n : floor_;
            int64_t x = m[s * N + n];
            msum[n] += x;
            tsum[n] += t;
            if ((x < 0 || x > t) && bad < 0) bad = s;
        }
        const int64_t *row = rl + s * R;
        Py_ssize_t present = 0;
        int64_t near = -1, first = -1, shortest = -1;  /* -1 until a reference is seen */
        for (Py_ssize_t k = 0; k < R; k++) {
            int64_t r = row[k];
            if (r < 0) continue;
            present++;
            int64_t d = r > h ? r - h : h - r;
            if (near < 0) { near = first = shortest = r; continue; }
            int64_t dn = near > h ? near - h : h - near, df = first > h ? first - h : h - first;
            if (d < dn || (d == dn && r < near)) near = r;
            if (d < df) first = r;
            if (r < shortest) shortest = r;
        }
        rsum[0] += near; rsum[1] += first; rsum[2] += shortest;
        if (per == -2) per = present;
        else if (per != present) per = -1;
    }
    ms = PyTuple_New(N); ts = PyTuple_New(N);
    if (!ms || !ts) goto done;
    for (Py_ssize_t n = 0; n < N; n++) {
        PyObject *a = PyLong_FromLongLong(msum[n]), *b = PyLong_FromLongLong(tsum[n]);
        if (!a || !b) { Py_XDECREF(a); Py_XDECREF(b); goto done; }
        PyTuple_SET_ITEM(ms, n, a); PyTuple_SET_ITEM(ts, n, b);
    }
    out = Py_BuildValue("LOO(LLL)nn", (long long)hsum, ms, ts, (long long)rsum[0],
                        (long long)rsum[1], (long long)rsum[2],
                        per == -2 ? (Py_ssize_t)0 : per, bad);
done:
    Py_XDECREF(ms); Py_XDECREF(ts);
    PyMem_Free(msum); PyMem_Free(tsum);
    PyBuffer_Release(&bh); PyBuffer_Release(&bm); PyBuffer_Release(&br);
    return out;
}


/* ---------------------------------------------------------------- one sentence at a time
 *
 * sentence(hyp, refs, max_order, chars) counts one segment without building an Index: the
 * per-call path of sentence_score loops (reward and filtering code scores one segment per
 * call, where building and sweeping an index costs more than the counting). Per order, the
 * references' n-grams go into a small open-addressing table holding each n-gram's largest
 * count in one reference; the hypothesis then walks its n-grams with the running clip of the
 * Index (the k-th occurrence matches iff k <= that maximum). N-grams are compared token by
 * token (code points), so a hash collision costs a probe, never a wrong count. Segments
 * longer than SENTENCE_MAX tokens return None: the caller takes the index path.
 */
#define SENTENCE_MAX 4096

typedef struct { uint64_t hash; const Span *first; int32_t refmax, cur, cur_ref, hyp; } SEnt;

static inline int same_ngram(const Span *a, const Span *b, int n) {
    for (int t = 0; t < n; t++)
        if (a[t].len != b[t].len || a[t].hash != b[t].hash ||
            memcmp(a[t].p, b[t].p, (size_t)a[t].len * sizeof(Py_UCS4)) != 0) return 0;
    return 1;
}

/* The slot of n-gram ``sp`` (with hash ``h``): its entry, or the empty slot it would take. */
static inline SEnt *sent_slot(SEnt *table, size_t mask, uint64_t h, const Span *sp, int n) {
    size_t i = (size_t)h & mask;
    while (table[i].first && !(table[i].hash == h && same_ngram(table[i].first, sp, n)))
        i = (i + 1) & mask;
    return &table[i];
}

static PyObject *mod_sentence(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *hyp_o, *refs_o;
    int max_order, chars;
    if (!PyArg_ParseTuple(args, "UOii", &hyp_o, &refs_o, &max_order, &chars)) return NULL;
    PyObject *refs = PySequence_Fast(refs_o, "refs must be a sequence of str");
    if (!refs) return NULL;
    Py_ssize_t nrefs = PySequence_Fast_GET_SIZE(refs);
    PyObject *out = NULL, *ref_lens = NULL, *matches = NULL;
    Text *texts = PyMem_Calloc((size_t)nrefs + 1, sizeof(Text));
    Vec *spans = PyMem_Calloc((size_t)nrefs + 1, sizeof(Vec));
    uint64_t *hash = NULL;
    SEnt *table = NULL;
    if (!texts || !spans) { PyErr_NoMemory(); goto done; }
    Py_ssize_t longest = 0, total = 0;
    for (Py_ssize_t k = 0; k <= nrefs; k++) {      /* spans[0]: the hypothesis */
        PyObject *o = k ? PySequence_Fast_GET_ITEM(refs, k - 1) : hyp_o;
        spans[k] = (Vec)VEC_INIT(Span);
        if (text_of(o, &texts[k]) < 0) goto done;
        if (split_line(&texts[k], 0, texts[k].len, chars, &spans[k]) < 0) goto done;
        if ((Py_ssize_t)spans[k].n > longest) longest = (Py_ssize_t)spans[k].n;
        if (k) total += (Py_ssize_t)spans[k].n;
    }
    if (longest > SENTENCE_MAX || max_order < 1) { out = Py_None; Py_INCREF(out); goto done; }
    ref_lens = PyTuple_New(nrefs);
    matches = PyTuple_New(max_order);
    if (!ref_lens || !matches) goto done;
    for (Py_ssize_t k = 1; k <= nrefs; k++)
        PyTuple_SET_ITEM(ref_lens, k - 1, PyLong_FromSsize_t((Py_ssize_t)spans[k].n));
    size_t tsize = table_size((size_t)(total > 0 ? total : 1));
    hash = PyMem_Malloc(((size_t)total + (size_t)spans[0].n + 1) * sizeof(uint64_t));
    table = PyMem_Malloc(tsize * sizeof(SEnt));
    if (!hash || !table) { PyErr_NoMemory(); goto done; }
    /* hash[] holds, per token position of every text (hypothesis last), the hash of the
     * n-gram starting there, updated in place from order n-1 to n */
    for (int n = 1; n <= max_order; n++) {
        memset(table, 0, tsize * sizeof(SEnt));
        size_t at = 0;
        for (Py_ssize_t k = 1; k <= nrefs + 1; k++) {
            Py_ssize_t kk = k <= nrefs ? k : 0;    /* references first, then the hypothesis */
            const Span *sp = VEC(spans[kk], Span);
            Py_ssize_t len = (Py_ssize_t)spans[kk].n;
            for (Py_ssize_t j = 0; j + n <= len; j++) {
                uint64_t h = n == 1 ? sp[j].hash
                                    : mix(hash[at + j] * 0x9E3779B97F4A7C15ULL ^ sp[j + n - 1].hash);
                hash[at + j] = h;
                SEnt *e = sent_slot(table, tsize - 1, h, &sp[j], n);
                if (kk) {
                    if (!e->first) { e->first = &sp[j]; e->hash = h; e->cur_ref = 0; }
                    if (e->cur_ref != kk) { e->cur_ref = (int32_t)kk; e->cur = 0; }
                    if (++e->cur > e->refmax) e->refmax = e->cur;
                } else if (e->first) {
                    e->hyp++;   /* a reference n-gram: clipped below */
                }
            }
            at += (size_t)len;
        }
        /* the clipped matches of this order: min(hypothesis count, reference maximum) */
        long long sum = 0;
        for (size_t i = 0; i < tsize; i++)
            if (table[i].first) sum += table[i].hyp < table[i].refmax ? table[i].hyp : table[i].refmax;
        PyObject *v = PyLong_FromLongLong(sum);
        if (!v) goto done;
        PyTuple_SET_ITEM(matches, n - 1, v);
    }
    out = Py_BuildValue("nOO", (Py_ssize_t)spans[0].n, ref_lens, matches);
done:
    Py_XDECREF(ref_lens); Py_XDECREF(matches);
    if (texts && spans)
        for (Py_ssize_t k = 0; k <= nrefs; k++) { text_free(&texts[k]); PyMem_Free(spans[k].p); }
    PyMem_Free(texts); PyMem_Free(spans); PyMem_Free(hash); PyMem_Free(table);
    Py_DECREF(refs);
    return out;
}

static PyMethodDef module_methods[] = {
    {"sentence", mod_sentence, METH_VARARGS,
     "sentence(hyp, refs, max_order, chars) -> (hyp_len, ref_lens, matches) or None"},
#if SACREBLEU_FORMULA
    {"bleu_rows", mod_bleu_rows, METH_VARARGS,
     "bleu_rows(hyp_len, ref_len, matches, totals, rows, max_order, effective_order, smoothing, "
     "value, k) -> (scores, precisions, bp, matches, totals) as bytearrays, or None"},
#endif
    {"summarize", mod_summarize, METH_VARARGS,
     "summarize(hyp_len, matches, ref_lens, lines, max_order, nrefs, floor) -> sums"},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef Index_methods[] = {
    {"count", (PyCFunction)(void (*)(void))Index_count, METH_VARARGS | METH_KEYWORDS,
     "count(hypotheses, lines, lists=False) -> (hyp_len, matches) as int64 bytes"},
    {"count_one", (PyCFunction)Index_count_one, METH_O,
     "count_one(hypothesis) -> (hyp_len, matches tuple) of an index of one segment"},
#if SACREBLEU_FORMULA
    {"bleu_one", (PyCFunction)(void (*)(void))Index_bleu_one, METH_FASTCALL,
     "bleu_one(hypothesis, effective_order, smoothing, value, k) -> sacreBLEU's compute_bleu "
     "fields (score, matches, totals, precisions, bp, hyp_len, ref_len) and the reference count "
     "of an index of one segment"},
#endif
    {"tokens", (PyCFunction)Index_tokens, METH_NOARGS,
     "tokens() -> the reference token lists (str) of an index built from_lists"},
    {"from_lists", (PyCFunction)Index_from_lists, METH_VARARGS | METH_CLASS,
     "from_lists(streams, lines, max_order): index token lists of str (None: no reference)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Index_getset[] = {
    {"ref_lens", (getter)Index_ref_lens, NULL, "int64 bytes, [lines][references]", NULL},
    {"wide_blocks", (getter)Index_wide_blocks, NULL,
     "segments whose n-gram slots need 32-bit fields", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject IndexType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "evalfw.metrics.bleu.counting._clipcount.Index",
    .tp_basicsize = sizeof(Index),
    .tp_dealloc = (destructor)Index_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Reference n-gram index of joined token texts: Index(texts, lines, max_order, chars)",
    .tp_methods = Index_methods,
    .tp_getset = Index_getset,
    .tp_new = Index_new,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_clipcount",
    "Compiled clipped n-gram counting for joined token texts.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__clipcount(void) {
    if (PyType_Ready(&IndexType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&IndexType);
    if (PyModule_AddObject(m, "Index", (PyObject *)&IndexType) < 0) {
        Py_DECREF(&IndexType); Py_DECREF(m); return NULL;
    }
    return m;
}
