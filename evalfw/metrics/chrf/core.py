"""chrF and chrF++ arithmetic, equal to sacreBLEU 2.6.0's bit for bit.

Statistics of one segment against one reference are, per order (character orders 1..nc, then
word orders 1..nw), the triple ``[hyp_count, ref_count, match]``; ``hyp_count`` is 0 when the
reference has no n-gram of that order (sacreBLEU drops such hypothesis n-grams, which changes
corpus precision). With several references a segment keeps the triples of the first
reference with the highest sentence F-score, computed in the same smoothing mode as the corpus
score. The corpus score is the F-score of the column sums.

Counting is done by the compiled module ``_chrf`` when it is built (and ``EVALFW_NATIVE`` is
not ``0``), else in Python (:func:`ngram_counts`); both return the same integers. References
scored against many hypothesis sets can be interned by the kernel once
(:func:`kernel_references`). The F-score is :func:`f_score`, which also runs on numpy float32
scalars, as sacreBLEU's resampling does; the kernel has it in C for many rows at once
(:func:`f_scores`).
"""

from __future__ import annotations

from collections import Counter, namedtuple
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from evalfw.plugin.native import CompiledKernel

if TYPE_CHECKING:
    import numpy as np


#: the smoothing constant of sacreBLEU's chrF (also chrF++.py's, NLTK's and Moses')
EPS = 1e-16
#: the characters split off a word's end (else its start) for word n-grams: ASCII punctuation
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


class ChrfConfig(namedtuple("ChrfConfig", "char_order word_order beta lowercase whitespace "
                              "eps_smoothing", defaults=(6, 0, 2, False, False, False))):
    """The options that change chrF's numbers (sacreBLEU's defaults). Immutable, compared and
    hashed by value."""

    __slots__ = ()
    # the fields' types, for type checkers (annotations only: the tuple's fields stay)
    char_order: int
    word_order: int
    beta: int
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool

    @property
    def orders(self) -> int:
        return self.char_order + self.word_order

    @property
    def width(self) -> int:
        """Statistics columns: one [hyp, ref, match] triple per order."""
        return 3 * self.orders

    @property
    def name(self) -> str:
        """The printed name: ``chrF2``, ``chrF2++`` (one ``+`` per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order


# ---------------------------------------------------------------------------- counting


#: the optional C extension (built by ``pip install``)
COMPILED = CompiledKernel("evalfw.metrics.chrf._chrf", "Python")


def kernel() -> ModuleType | None:
    """The compiled module, or None (not built, or switched off with ``EVALFW_NATIVE=0``)."""
    return COMPILED.module()


def describe() -> str:
    """One line for ``evalfw plugins`` and run records: which code computes."""
    return COMPILED.describe()


def split_words(text: str) -> list[str]:
    """Whitespace tokens, one punctuation character split off each as chrF++ does: the last
    character if it is punctuation, else the first; one-character tokens stay whole."""
    out: list[str] = []
    for w in text.split():
        if len(w) > 1 and w[-1] in PUNCTUATION:
            out += (w[:-1], w[-1])
        elif len(w) > 1 and w[0] in PUNCTUATION:
            out += (w[0], w[1:])
        else:
            out.append(w)
    return out


def ngram_counts(text: str, config: ChrfConfig) -> list[Counter[Any]]:
    """One multiset per order: character n-grams 1..nc, then word n-grams 1..nw."""
    chars = text if config.whitespace else "".join(text.split())
    out: list[Counter[Any]] = [Counter(chars[i:i + n] for i in range(len(chars) - n + 1))
                               for n in range(1, config.char_order + 1)]
    if config.word_order:
        words = split_words(text)
        out += [Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))
                for n in range(1, config.word_order + 1)]
    return out


def _triples(hyp: list[Counter[Any]], ref: list[Counter[Any]]) -> list[int]:
    row: list[int] = []
    for h, r in zip(hyp, ref):
        match = sum(min(c, r[g]) for g, c in h.items() if g in r)
        row += (sum(h.values()) if r else 0, sum(r.values()), match)
    return row


def _python_pairs(hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
                  config: ChrfConfig) -> list[int]:
    """:func:`pair_values` in Python."""
    width = config.width
    out: list[int] = []
    for i, hyp in enumerate(hyps):
        if not isinstance(hyp, str):  # the kernel's errors, word for word
            raise TypeError("hypotheses must be str")
        h = ngram_counts(hyp, config)
        for stream in refs:
            ref = stream[i]
            if ref is not None and not isinstance(ref, str):
                raise TypeError("references must be str or None")
            out += [0] * width if ref is None else _triples(h, ngram_counts(ref, config))
    return out


def kernel_references(refs: Sequence[Sequence[str | None]], config: ChrfConfig) -> Any:
    """The compiled kernel's preparation of these reference streams for ``config``'s orders
    and whitespace (``_chrf.References``: every segment's reference n-grams, interned once),
    or None without the kernel. :func:`pair_values` takes it for the same streams."""
    native = kernel()
    if native is None:
        return None
    return native.prepare([list(s) for s in refs], config.char_order, config.word_order,
                          config.whitespace)


def pair_values(hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
                config: ChrfConfig, prepared: Any = None) -> Sequence[int]:
    """Every segment against each of its K references, flat ([n][K][width] ints, zeros where a
    reference is None), by the compiled kernel when there is one. Texts are taken as given
    (lowercase them first if asked). ``prepared``: :func:`kernel_references` of ``refs`` under
    ``config``, which saves interning the references again (the same integers)."""
    native = kernel()
    if native is None:
        return _python_pairs(hyps, refs, config)
    if prepared is not None:
        raw = native.stats_prepared(list(hyps), prepared)
    else:
        raw = native.stats(list(hyps), [list(s) for s in refs], config.char_order,
                           config.word_order, config.whitespace)
    return memoryview(raw).cast("q")


def pair_stats(hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
               config: ChrfConfig, prepared: Any = None) -> np.ndarray:
    """(n, K, width) int64 of :func:`pair_values`."""
    import numpy as np
    flat = pair_values(hyps, refs, config, prepared)
    array = np.frombuffer(flat, dtype=np.int64) if isinstance(flat, memoryview) else \
        np.array(flat, dtype=np.int64)
    return array.reshape(len(hyps), len(refs), config.width)


# ---------------------------------------------------------------------------- F-scores


def f_score(stats: Sequence[Any], config: ChrfConfig) -> Any:
    """One F-score from one statistics row, with sacreBLEU's operations in its order.

    Generic on purpose: on Python ints it is the normal score; on numpy float32 scalars (a
    bootstrap resample's float32 sums) numpy's promotion keeps float32 wherever sacreBLEU
    gets float32, so the result is sacreBLEU's resampled score."""
    factor = config.beta ** 2
    total = 0.0
    avg_prec, avg_rec = 0.0, 0.0
    effective = 0
    for o in range(config.orders):
        n_hyp, n_ref, n_match = stats[3 * o], stats[3 * o + 1], stats[3 * o + 2]
        prec = n_match / n_hyp if n_hyp > 0 else EPS
        rec = n_match / n_ref if n_ref > 0 else EPS
        denom = factor * prec + rec
        total += ((1 + factor) * prec * rec / denom) if denom > 0 else EPS
        if n_hyp > 0 and n_ref > 0:  # the orders both sides have ("effective order")
            avg_prec += prec
            avg_rec += rec
            effective += 1
    if config.eps_smoothing:
        return 100 * total / config.orders
    if effective:
        avg_prec /= effective
        avg_rec /= effective
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0


def f_scores(stats: np.ndarray, config: ChrfConfig) -> np.ndarray:
    """:func:`f_score` of every row of ``stats`` (..., width) int64, as float64: by the
    compiled kernel's F-score when it is built (the same IEEE operations in the same order),
    else by :func:`f_score` row by row."""
    import numpy as np

    rows = np.ascontiguousarray(stats, dtype=np.int64)
    shape = rows.shape[:-1]
    native = kernel()
    if native is None:
        flat = [f_score(row, config) for row in rows.reshape(-1, config.width).tolist()]
        return np.array(flat, dtype=np.float64).reshape(shape)
    raw = native.f_scores(rows, config.orders, float(config.beta ** 2), config.eps_smoothing)
    return np.frombuffer(raw, dtype=np.float64).reshape(shape)


def best_rows(pairs: np.ndarray, present: np.ndarray, config: ChrfConfig) -> np.ndarray:
    """(n, width): per segment the triples of the first present reference with the highest
    F-score (``pairs`` (n, K, width), ``present`` (n, K) bool)."""
    import numpy as np
    if pairs.shape[1] == 1:
        return np.ascontiguousarray(pairs[:, 0])
    scores = np.where(present, f_scores(pairs, config), -np.inf)
    best = np.argmax(scores, axis=1)  # the first maximum: ties go to the earliest reference
    return np.ascontiguousarray(pairs[np.arange(len(pairs)), best])


__all__ = ["EPS", "PUNCTUATION", "ChrfConfig", "best_rows", "describe", "f_score", "f_scores",
           "kernel", "kernel_references", "ngram_counts", "pair_stats", "pair_values",
           "split_words"]
