"""One sentence per call, fast: the path of ``BLEU().sentence_score`` loops (RL rewards, data
filtering), where the batch machinery of the engine costs more than the work.

A segment is tokenized with the tokenizer's joined lane (each distinct line once: a bounded
cache, as sacreBLEU's tokenizer caches its calls, so a reference shared by many systems is
tokenized once), counted by the compiled kernel's ``sentence`` (no index is built), and scored
by the components directly. The references of a segment are indexed once (the kernel's
``Index`` of that one segment) and every later hypothesis against the same references is
counted on that index, as a loop over several systems' outputs asks; a segment seen before
(the same hypothesis and references: systems often agree on a line) is not counted again.
When the score is sacreBLEU's ``compute_bleu`` with "exp" or no smoothing and the closest
reference length (the drop-in's defaults), the index's ``bleu_one`` counts and scores in one
compiled call, bit-identical to the Python formula. It applies to the built-ins the drop-in
uses; whenever a piece is missing (no kernel, a tokenizer without the joined lane, a very long
segment, no reference) it declines and the caller takes the general path, which computes the
same numbers.

The caches are plain dictionaries emptied when full: cheaper to consult than an LRU order, and
what is cached never changes a number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from evalfw.metrics.bleu.counting import kernel
from evalfw.tokenizers.base import supports_joined

TYPE_CHECKING = False  # not from typing: a sentence loop starts without it
if TYPE_CHECKING:
    from typing import Any

    from evalfw.metrics.bleu.components import Counts
    from evalfw.metrics.bleu.spec import BleuSpec
    from evalfw.tokenizers.base import Tokenizer

#: distinct lines whose tokens are kept (sacreBLEU's tokenizer cache has the same size), and
#: distinct segments whose results are kept
CACHE_LINES = 1 << 16
#: distinct reference sets whose index is kept (a few KB each)
CACHE_INDEXES = 1 << 12


def _closest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    best = ref_lens[0]
    gap = abs(best - hyp_len)
    for r in ref_lens[1:]:  # a loop: min() with a key costs more for one or two references
        d = abs(r - hyp_len)
        if d < gap or (d == gap and r < best):
            best, gap = r, d
    return best


def _closest_first(hyp_len: int, ref_lens: Sequence[int]) -> int:
    return min(ref_lens, key=lambda r: abs(r - hyp_len))


def _counts(raw: tuple[Any, ...]) -> Counts:
    # the components' value object, imported when first needed: the path of a formula
    # (sacreBLEU's compute_bleu) never builds one
    from evalfw.metrics.bleu.components import Counts

    return Counts(*raw)


#: the reference-length rules the kernel knows, for one segment
_RULES = {"closest": _closest, "closest-first": _closest_first, "shortest": min}


class OneSentence:
    """Counts and scores of single segments under ``spec`` (see the module docstring)."""

    def __init__(self, spec: BleuSpec, formula: Callable[..., tuple[Any, ...]] | None = None,
                 compiled: tuple[bool, bool] | None = None) -> None:
        rule = spec.brevity_penalty.kernel_rule()
        usable = (supports_joined(spec.counter) and spec.counter.options["total_floor"] == 0
                  and spec.smoothing.needs_orders == 0)
        self.spec: BleuSpec | None = spec
        self._setup(spec.tokenizer, spec.lowercase, spec.max_order, rule if usable else None,
                    formula, compiled)

    @classmethod
    def sacrebleu(cls, tokenizer: Tokenizer, lowercase: bool, max_order: int,
                  formula: Callable[..., tuple[Any, ...]],
                  compiled: tuple[bool, bool] | None = None) -> OneSentence:
        """The per-call path of sacreBLEU's own components (clipped counts without a floor,
        the closest reference length, ``formula`` for the score) without resolving a spec:
        a script that only scores sentences starts without the plugin host."""
        one = cls.__new__(cls)
        one.spec = None
        one._setup(tokenizer, lowercase, max_order, "closest", formula, compiled)
        return one

    def _setup(self, tokenizer: Tokenizer, lowercase: bool, max_order: int, rule: str | None,
               formula: Callable[..., tuple[Any, ...]] | None,
               compiled: tuple[bool, bool] | None) -> None:
        #: the components' formula in one function of (matches, totals, hyp_len, ref_len)
        #: lists, giving ``_fields``' tuple, when the caller has one (sacreBLEU's compute_bleu)
        self._formula = formula
        self.nrefs = 0
        k = kernel.kernel()
        usable = k is not None and supports_joined(tokenizer) and rule in _RULES
        self._count = k.sentence if usable else None  # type: ignore[union-attr]
        self._index = k.Index if usable else None  # type: ignore[union-attr]
        self._indexes: dict[tuple[str, ...], tuple[Any, tuple[int, ...]] | None] = {}
        self._choose = _RULES.get(rule or "")
        self._chars = int(tokenizer.joined_unit == "char")
        self._joiner = tokenizer.line_joiner() if usable else None
        self._lowercase = lowercase
        self._max_order = max_order
        self._tokens: dict[str, str | None] = {}
        self._seen: dict[tuple[str, ...], tuple[Any, ...]] = {}
        self._totals: dict[int, tuple[int, ...]] = {}
        #: (effective_order, exp smoothing) for the kernel's ``Index.bleu_one``, which counts
        #: and applies sacreBLEU's formula in one call: when ``formula`` is sacreBLEU's
        #: compute_bleu with "exp" or "none" smoothing (the caller says so), the rule is the
        #: closest reference and the kernel has it (not built for Python 3.12 and later,
        #: whose ``sum`` differs: see _sacrebleu_formula.h)
        self._compiled = compiled if (
            compiled is not None and formula is not None and rule == "closest"
            and usable and hasattr(self._index, "bleu_one")) else None
        # its two settings apart: a call with *args costs a tuple and the slower call path
        self._effective, self._exp = self._compiled or (False, False)

    def _tokenize(self, line: str) -> str | None:
        found = self._tokens.get(line, self)
        if found is not self:
            return found  # type: ignore[return-value]
        try:
            joined = self._joiner(line.lower() if self._lowercase else line)  # type: ignore[misc]
        except Exception:  # the general path reports the tokenizer's failure
            joined = None
        if len(self._tokens) >= CACHE_LINES:
            self._tokens.clear()
        self._tokens[line] = joined
        return joined

    def result(self, hypothesis: str, references: Sequence[str | None], result: Any) -> Any:
        """``result(...)`` of the segment (see :meth:`score`), or None to decline."""
        key = (hypothesis, *references)
        fields = self._seen.get(key)
        if fields is None:
            fields = self._fresh(hypothesis, references, key)
            if fields is None:
                return None
        score, matches, totals, precisions, bp, hyp_len, ref_len, self.nrefs = fields
        return result(score, list(matches), list(totals), list(precisions), bp, hyp_len, ref_len)

    def _fresh(self, hypothesis: str, references: Sequence[str | None],
               key: tuple[str | None, ...]) -> tuple[Any, ...] | None:
        """The fields of a segment not seen before, plus its reference count (kept for the
        next call with the same segment), or None to decline."""
        fields = None
        if self._compiled is not None and references and None not in references:
            # the kernel's bleu_one: the caches are read inline, this runs once per new segment
            refs = key[1:]
            entry = self._indexes.get(refs, self)
            if entry is self:
                entry = self._new_index(refs)  # type: ignore[arg-type]
            hyp = self._tokens.get(hypothesis, self)
            if hyp is self:
                hyp = self._tokenize(hypothesis)
            if entry is not None and hyp is not None:
                fields = entry[0].bleu_one(  # type: ignore[index]
                    hyp, self._effective, self._exp)
        if fields is None:
            raw = self._raw(hypothesis, references)
            if raw is None:
                return None
            matches, totals, hyp_len, ref_len = raw
            fields = (*(self._fields(_counts(raw)) if self._formula is None else
                        self._formula(list(matches), list(totals), hyp_len, ref_len)),
                      self.nrefs)
        if len(self._seen) >= CACHE_LINES:
            self._seen.clear()
        self._seen[key] = fields
        return fields

    def counts(self, hypothesis: str, references: Sequence[str | None]) -> Counts | None:
        """The segment's counts, or None to decline."""
        raw = self._raw(hypothesis, references)
        return None if raw is None else _counts(raw)

    def _raw(self, hypothesis: str, references: Sequence[str | None]
             ) -> tuple[tuple[int, ...], tuple[int, ...], int, int] | None:
        """(matches, totals, hyp_len, ref_len) of the segment, or None to decline."""
        if self._count is None:
            return None
        refs = tuple(references) if None not in references else \
            tuple(r for r in references if r is not None)
        hyp = self._tokenize(hypothesis)
        if not refs or hyp is None:
            return None
        found = self._indexed(hyp, refs)
        if found is None:
            tokens = [self._tokenize(r) for r in refs]
            if None in tokens:
                return None
            found = self._count(hyp, tokens, self._max_order, self._chars)
            if found is None:
                return None
        hyp_len, ref_lens, matches = found
        self.nrefs = len(refs)
        totals = self._totals.get(hyp_len)
        if totals is None:
            totals = tuple(max(hyp_len - n, 0) for n in range(self._max_order))
            self._totals[hyp_len] = totals
        return matches, totals, hyp_len, self._choose(hyp_len, ref_lens)  # type: ignore[misc]

    def _indexed(self, hyp: str, refs: tuple[str, ...]
                 ) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
        """``sentence``'s answer from an index of the references (built on first use), or
        None when the kernel cannot index them (or cannot tokenize one)."""
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
                index = self._index(tokens, 1, self._max_order,  # type: ignore[misc]
                                    bool(self._chars))
                entry = index, tuple(memoryview(index.ref_lens).cast("q"))
            except ValueError:
                pass
        if len(self._indexes) >= CACHE_INDEXES:
            self._indexes.clear()
        self._indexes[refs] = entry
        return entry

    def score(self, counts: Counts, result: Any) -> Any:
        """``result(score, counts, totals, precisions, bp, sys_len, ref_len)`` of the segment,
        computed by the components as the engine does."""
        score, matches, totals, precisions, bp, hyp_len, ref_len = self._fields(counts)
        return result(score, list(matches), list(totals), list(precisions), bp, hyp_len,
                      ref_len)

    def _fields(self, counts: Counts) -> tuple[Any, ...]:
        spec = self.spec
        assert spec is not None  # a path without a spec has its formula
        bp = spec.brevity_penalty.penalty(counts.hyp_len, counts.ref_len)
        smoothed = spec.smoothing.smooth(counts)
        score = spec.mean.combine(smoothed, counts, bp, spec.weights)[0]
        return (score, smoothed.matches, smoothed.totals,
                tuple(map(float, smoothed.precisions)), bp, counts.hyp_len,
                counts.ref_len)
