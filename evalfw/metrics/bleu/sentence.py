"""One segment per call: the path of sentence-score loops (RL rewards, data filtering), where
the batch machinery of the engine costs more than the work.

A segment is tokenized with the tokenizer's joined lane (each distinct line once: a bounded
cache, as sacreBLEU's tokenizer caches its calls, so a reference shared by many systems is
tokenized once) and counted by the compiled kernel: the references of a segment are indexed
once (the kernel's ``Index`` of that one segment) and every later hypothesis against the same
references is counted on that index, as a loop over several systems' outputs asks; a segment
seen before (the same hypothesis and references: systems often agree on a line) is not
counted again. The score comes from the spec's components, as :func:`engine.score_counts`
computes it; when they are exactly sacreBLEU's built-in ones with the closest reference
(:func:`evalfw.metrics.bleu._rows.compiled_formula`), the index's ``bleu_one`` counts and
scores in one compiled call (the formula of ``_sacrebleu_formula.h``, bit-identical to the
components).

Whenever a piece is missing (no kernel, a tokenizer without the joined lane, a very long
segment, no reference) :class:`SentenceScorer` declines (None) and the caller takes the general
path, which computes the same numbers. The caches are plain dictionaries emptied when full:
what is cached never changes a number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from evalfw.metrics.bleu._rows import compiled_formula
from evalfw.metrics.bleu.components import Counts
from evalfw.metrics.bleu.counting import kernel
from evalfw.metrics.bleu.spec import BleuSpec
from evalfw.tokenizers.base import supports_joined

__all__ = ["CACHE_INDEXES", "CACHE_LINES", "Fields", "SentenceScorer"]

#: distinct lines whose tokens are kept (sacreBLEU's tokenizer cache has the same size), and
#: distinct segments whose results are kept
CACHE_LINES = 1 << 16
#: distinct reference sets whose index is kept (a few KB each)
CACHE_INDEXES = 1 << 12

#: (score, matches, totals, precisions, bp, hyp_len, ref_len, references counted)
Fields = tuple[Any, tuple[Any, ...], tuple[Any, ...], tuple[float, ...], Any, int, int, int]


def _closest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


def _closest_first(hyp_len: int, ref_lens: Sequence[int]) -> int:
    return min(ref_lens, key=lambda r: abs(r - hyp_len))


def _shortest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    return min(ref_lens)


#: the reference-length rules the kernel knows, for one segment
_RULES: dict[str, Callable[[int, Sequence[int]], int]] = {
    "closest": _closest, "closest-first": _closest_first, "shortest": _shortest}


class SentenceScorer:
    """Counts and scores of single segments under ``spec`` (see the module docstring)."""

    def __init__(self, spec: BleuSpec) -> None:
        self.spec = spec
        rule = spec.brevity_penalty.kernel_rule()
        k = kernel.kernel()
        usable = (k is not None and supports_joined(spec.tokenizer)
                  and supports_joined(spec.counter)
                  and spec.counter.options["total_floor"] == 0
                  and spec.smoothing.needs_orders == 0 and rule in _RULES)
        self._count = k.sentence if usable else None  # type: ignore[union-attr]
        self._index = k.Index if usable else None  # type: ignore[union-attr]
        self._choose = _RULES.get(rule or "", _closest)  # used only when usable
        self._chars = spec.tokenizer.joined_unit == "char"
        self._joiner = spec.tokenizer.line_joiner() if usable else None
        self._indexes: dict[tuple[str, ...], tuple[Any, tuple[int, ...]] | None] = {}
        self._tokens: dict[str, str | None] = {}
        self._seen: dict[tuple[str | None, ...], Fields] = {}
        # bleu_one chooses the closest reference itself
        self._compiled = compiled_formula(spec) if usable and rule == "closest" else None

    def fields(self, hypothesis: str, references: Sequence[str | None]) -> Fields | None:
        """The segment's score fields, or None to decline."""
        key = (hypothesis, *references)
        found = self._seen.get(key)
        if found is None:
            found = self._fresh(hypothesis, references, key)
            if found is None:
                return None
            if len(self._seen) >= CACHE_LINES:
                self._seen.clear()
            self._seen[key] = found
        return found

    def _fresh(self, hypothesis: str, references: Sequence[str | None],
               key: tuple[str | None, ...]) -> Fields | None:
        if self._compiled is not None and references and None not in references:
            entry = self._indexes.get(key[1:], self)  # type: ignore[arg-type]
            if entry is self:
                entry = self._new_index(key[1:])  # type: ignore[arg-type]
            hyp = self._tokenize(hypothesis)
            if entry is not None and hyp is not None:
                return entry[0].bleu_one(hyp, *self._compiled)  # type: ignore[index,no-any-return]
        counts = self.counts(hypothesis, references)
        if counts is None:
            return None
        spec = self.spec
        bp = spec.brevity_penalty.penalty(counts.hyp_len, counts.ref_len)
        smoothed = spec.smoothing.smooth(counts)
        score = spec.mean.combine(smoothed, counts, bp, spec.weights)[0]
        nrefs = sum(r is not None for r in references)
        return (score, smoothed.matches, smoothed.totals, tuple(map(float, smoothed.precisions)),
                bp, counts.hyp_len, counts.ref_len, nrefs)

    def _tokenize(self, line: str) -> str | None:
        found = self._tokens.get(line, self)
        if found is not self:
            return found  # type: ignore[return-value]
        try:
            joined = self._joiner(line.lower() if self.spec.lowercase else line)  # type: ignore[misc]
        except Exception:  # the general path reports the tokenizer's failure
            joined = None
        if len(self._tokens) >= CACHE_LINES:
            self._tokens.clear()
        self._tokens[line] = joined
        return joined

    def counts(self, hypothesis: str, references: Sequence[str | None]) -> Counts | None:
        """The segment's counts, or None to decline."""
        if self._count is None:
            return None
        refs = tuple(r for r in references if r is not None)
        hyp = self._tokenize(hypothesis)
        if not refs or hyp is None:
            return None
        found = self._indexed(hyp, refs)
        if found is None:
            tokens = [self._tokenize(r) for r in refs]
            if None in tokens:
                return None
            found = self._count(hyp, tokens, self.spec.max_order, int(self._chars))
            if found is None:
                return None
        hyp_len, ref_lens, matches = found
        totals = tuple(max(hyp_len - n, 0) for n in range(self.spec.max_order))
        return Counts(matches, totals, hyp_len, self._choose(hyp_len, ref_lens))

    def _indexed(self, hyp: str, refs: tuple[str, ...]
                 ) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
        """The kernel's ``sentence`` answer from an index of the references (built on first
        use), or None when the kernel cannot index them (or cannot tokenize one)."""
        if self._index is None:
            return None
        entry = self._indexes.get(refs, self)
        entry = self._new_index(refs) if entry is self else entry
        if entry is None:
            return None
        index, ref_lens = entry  # type: ignore[misc]
        hyp_len, matches = index.count_one(hyp)
        return hyp_len, ref_lens, matches

    def _new_index(self, refs: tuple[str, ...]) -> tuple[Any, tuple[int, ...]] | None:
        """The kernel's index of one segment's references and their lengths (kept for the
        next hypothesis against them), or None when one cannot be tokenized or indexed."""
        entry: tuple[Any, tuple[int, ...]] | None = None
        tokens = [self._tokenize(r) for r in refs]
        if None not in tokens:
            try:
                index = self._index(tokens, 1, self.spec.max_order,  # type: ignore[misc]
                                    self._chars)
                entry = index, tuple(memoryview(index.ref_lens).cast("q"))
            except ValueError:
                pass
        if len(self._indexes) >= CACHE_INDEXES:
            self._indexes.clear()
        self._indexes[refs] = entry
        return entry
