"""Vectorized clipped n-gram counting: token ids, n-gram ids and clip tables in numpy.

The idea (exact, no hashing of n-grams):

- Every token becomes an integer id through one dict per reference index (any hashable token
  works, with Python's own ``==``/``hash`` semantics, as in a ``Counter``).
- A *table entry* of order n is one distinct (segment, n-gram) pair present in some reference.
  Entries of order 1 are keyed ``segment * V + token``; entries of order n are keyed
  ``entry_{n-1} * V + next token`` (the (n-1)-gram prefix's entry, then the last token). Keys are
  sorted, so an entry number is its rank, and entries come out grouped by segment.
- An n-gram of a hypothesis can only occur in a reference of its segment if its (n-1)-prefix
  does, so a hypothesis position is looked up at order n only when its prefix was found.
- Clipping: hypothesis occurrences per entry (``bincount``), ``minimum`` with the reference
  maximum, summed per segment through a cumulative sum at segment boundaries.

Everything is integer arithmetic, so results equal the Counter-based definition exactly.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import chain

import numpy as np

from evalfw.metrics.bleu.counting._keytable import KeyTable

#: keys are ``entry * V + token``; refuse inputs whose keys could overflow int64.
_KEY_LIMIT = 1 << 62


def ngram_counts(tokens: Sequence[Hashable], max_order: int) -> Counter[tuple[Hashable, ...]]:
    """All n-grams of orders 1..max_order with their counts (the plain definition; used for
    tiny inputs and as documentation of what the vectorized code computes)."""
    counts: Counter[tuple[Hashable, ...]] = Counter()
    toks = tuple(tokens)
    for n in range(1, max_order + 1):
        counts.update(toks[i : i + n] for i in range(len(toks) - n + 1))
    return counts


class Vocab(dict[Hashable, int]):
    """token -> id; an unseen token gets the next id (``__missing__`` runs in Python only
    for first sightings, every other lookup stays in C through ``map``)."""

    def __missing__(self, token: Hashable) -> int:
        new = self[token] = len(self)
        return new


def flatten(segments: Sequence[Sequence[Hashable] | None], vocab: Vocab) -> tuple[np.ndarray, np.ndarray]:
    """Token ids of all present segments, concatenated, and each segment's length (-1: None)."""
    lens = np.fromiter((-1 if s is None else len(s) for s in segments), np.int64, len(segments))
    present = [s for s in segments if s is not None] if (lens < 0).any() else segments
    total = int(lens[lens > 0].sum())
    flat = chain.from_iterable(present)  # type: ignore[arg-type]
    ids = np.fromiter(map(vocab.__getitem__, flat), np.int64, total)
    return ids, lens


#: stands for a line break in ``flatten_joined`` (a text containing it takes the list path)
_MARK = "\x00"


def flatten_joined(text: str, lines: int, vocab: Vocab, unit: str = "word"
                   ) -> tuple[np.ndarray, np.ndarray] | None:
    """``flatten`` of a joined token text (``"\\n"`` + lines joined by ``"\\n"`` + ``"\\n"``,
    tokens by whitespace, or with ``unit="char"`` every non-whitespace character): one
    ``split`` of the whole text instead of a list per line. Line breaks become a marker
    token, so lengths fall out of the marker positions. None when the text holds the marker
    character itself or is not ``lines`` lines (use ``flatten``)."""
    if unit == "char":
        return _flatten_chars(text, lines, vocab)
    if _MARK in text:
        return None
    flat = text.replace("\n", f" {_MARK} ").split()
    ids = np.fromiter(map(vocab.__getitem__, flat), np.int64, len(flat))
    is_mark = ids == vocab[_MARK]
    marks = np.flatnonzero(is_mark)
    if len(marks) != lines + 1 or marks[0] != 0 or marks[-1] != len(ids) - 1:
        return None
    return ids[~is_mark], np.diff(marks) - 1


@functools.cache
def _whitespace() -> np.ndarray:
    """``table[c]``: is code point c whitespace for ``str.split()`` (none is above U+3000;
    the last entry, False, stands for every larger code point)."""
    return np.array([chr(c).isspace() for c in range(0x3002)], dtype=bool)


def _flatten_chars(text: str, lines: int, vocab: Vocab) -> tuple[np.ndarray, np.ndarray] | None:
    """Character tokens straight from the code points: one vocabulary lookup per distinct
    character instead of one per occurrence."""
    table = _whitespace()
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    keep = ~table[np.minimum(codes, len(table) - 1)]
    breaks = np.flatnonzero(codes == 10)
    if len(breaks) != lines + 1 or breaks[0] != 0 or breaks[-1] != len(codes) - 1:
        return None
    kept_before = np.cumsum(keep)[breaks]
    distinct, inverse = np.unique(codes[keep], return_inverse=True)
    ids = np.fromiter(map(vocab.__getitem__, map(chr, distinct.tolist())), np.int64,
                      len(distinct))
    return ids[inverse.reshape(-1)], np.diff(kept_before)


def positions(lens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each token of segments with lengths ``lens`` (-1 counts as 0): its segment and the
    number of tokens left in its segment from it (an order-n n-gram starts where that is >= n)."""
    lens0 = np.maximum(lens, 0)
    seg = np.repeat(np.arange(len(lens0), dtype=np.int64), lens0)
    ends = np.cumsum(lens0)
    remaining = ends[seg] - np.arange(len(seg), dtype=np.int64)
    return seg, remaining


def _group(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted distinct keys, the rank of each key among them, and one position holding each."""
    order = np.argsort(keys, kind="quicksort")  # grouping only; stability is not needed
    sk = keys[order]
    start = np.empty(len(sk), dtype=bool)
    start[:1] = True
    np.not_equal(sk[1:], sk[:-1], out=start[1:])
    rank_sorted = np.cumsum(start) - 1
    rank = np.empty_like(rank_sorted)
    rank[order] = rank_sorted
    return sk[start], rank, order[start]


class NgramTables:
    """The reference side of one test set (or chunk), ready for any number of hypothesis sets.

    Per order n: ``keys[n]`` (sorted entry keys), ``maxref[n]`` (max count over references),
    ``bounds[n]`` (entry range of each segment).
    """

    def __init__(self, streams: Sequence[Sequence[Sequence[Hashable] | None]], max_order: int,
                 vocab: Vocab | None = None,
                 parts: Sequence[tuple[np.ndarray, np.ndarray]] | None = None) -> None:
        """Index token streams, or (``parts``) already flattened ones made with ``vocab``."""
        self.vocab = Vocab() if vocab is None else vocab
        if parts is None:
            parts = [flatten(stream, self.vocab) for stream in streams]
        n_seg = len(parts[0][1])
        self.ref_lens = np.stack([lens for _, lens in parts], axis=1)
        #: ids >= this are tokens no reference contains
        self.v = max(len(self.vocab), 1)
        self.segments = n_seg
        self.max_order = max_order
        n_refs = len(parts)
        ids = np.concatenate([p[0] for p in parts])
        seg_parts, rem_parts, ref_parts = [], [], []
        for k, (_, lens) in enumerate(parts):
            s, r = positions(lens)
            seg_parts.append(s)
            rem_parts.append(r)
            ref_parts.append(np.full(len(s), k, dtype=np.int64))
        seg = np.concatenate(seg_parts)
        rem = np.concatenate(rem_parts)
        ref = np.concatenate(ref_parts)
        self.keys: list[np.ndarray] = []
        self.maxref: list[np.ndarray] = []
        self.bounds: list[np.ndarray] = []
        #: hash tables over ``keys`` for unsorted lookups (None: too large, binary search)
        self.lookups: list[KeyTable | None] = []
        entry = np.full(len(ids), -1, dtype=np.int64)  # entry of the n-gram starting here
        for n in range(1, max_order + 1):
            at = np.flatnonzero(rem >= n)
            if n == 1:
                keys = seg * self.v + ids
            else:
                _check_range(len(self.keys[-1]), self.v)
                keys = entry[at] * self.v + ids[at + (n - 1)]
            table, rank, first = _group(keys)
            entry = np.full(len(ids), -1, dtype=np.int64)
            entry[at] = rank
            entry_seg = seg[at][first]
            per_ref = np.bincount(rank * n_refs + ref[at], minlength=len(table) * n_refs)
            self.keys.append(table)
            self.lookups.append(KeyTable(table) if KeyTable.fits(len(table)) else None)
            # column-wise maximum (a max over a short axis 1 is several times slower)
            self.maxref.append(np.maximum.reduce([per_ref[k::n_refs] for k in range(n_refs)]))
            self.bounds.append(np.searchsorted(entry_seg, np.arange(n_seg + 1)))

    @classmethod
    def from_joined(cls, texts: Sequence[str], lines: int, max_order: int, unit: str = "word"
                    ) -> NgramTables | None:
        """Tables of reference streams given as joined token texts (see ``flatten_joined``),
        or None when one of them needs the list path."""
        vocab = Vocab()
        parts = []
        for text in texts:
            part = flatten_joined(text, lines, vocab, unit)
            if part is None:
                return None
            parts.append(part)
        return cls((), max_order, vocab, parts)

    def count(self, hypotheses: Sequence[Sequence[Hashable]]) -> tuple[np.ndarray, np.ndarray]:
        """(hypothesis lengths, clipped matches of shape (segments, max_order))."""
        return self.count_ids(*flatten(hypotheses, self.vocab))

    def count_joined(self, text: str, lines: int, unit: str = "word"
                     ) -> tuple[np.ndarray, np.ndarray] | None:
        """``count`` of hypotheses given as a joined token text; None: use ``count``."""
        part = flatten_joined(text, lines, self.vocab, unit)
        return None if part is None else self.count_ids(*part)

    def count_ids(self, ids: np.ndarray, lens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``count`` from token ids (made with ``self.vocab``) and segment lengths."""
        n_seg = len(lens)
        seg, rem = positions(lens)
        known = ids < self.v
        matches = np.zeros((n_seg, self.max_order), dtype=np.int64)
        at = np.flatnonzero(known)
        entry = np.zeros(0, np.int64)
        for n in range(1, self.max_order + 1):
            table = self.keys[n - 1]
            if n == 1:
                query = seg[at] * self.v + ids[at]
            else:
                # positions whose prefix was found and that have one more token, a known one
                keep = rem[at] >= n
                at, entry = at[keep], entry[keep]
                keep = known[at + (n - 1)]
                at, entry = at[keep], entry[keep]
                query = entry * self.v + ids[at + (n - 1)]
            hashed = self.lookups[n - 1]
            found, entry = _lookup(table, query) if hashed is None else hashed.lookup(query)
            at, entry = at[found], entry[found]
            if not len(table):
                continue
            hyp_count = np.bincount(entry, minlength=len(table))
            clipped = np.minimum(hyp_count, self.maxref[n - 1])
            cs = np.zeros(len(clipped) + 1, dtype=np.int64)
            np.cumsum(clipped, out=cs[1:])
            b = self.bounds[n - 1]
            matches[:, n - 1] = cs[b[1:]] - cs[b[:-1]]
        return lens, matches


def _lookup(table: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which queries are in the sorted ``table``, and their positions there (where found)."""
    if not len(table) or not len(query):
        return np.zeros(len(query), dtype=bool), np.zeros(len(query), np.int64)
    # Sorted queries make the binary search walk the table forwards: several times faster.
    order = np.argsort(query, kind="quicksort")
    pos_sorted = np.searchsorted(table, query[order])
    pos = np.empty_like(pos_sorted)
    pos[order] = pos_sorted
    np.minimum(pos, len(table) - 1, out=pos)
    return table[pos] == query, pos


def _check_range(entries: int, v: int) -> None:
    if entries * v >= _KEY_LIMIT:
        from evalfw.errors import InputError

        raise InputError(
            f"too many reference n-grams ({entries}) x tokens ({v}) to index at once; "
            "score the corpus in chunks (evalfw.metrics.bleu.stream) instead"
        )

