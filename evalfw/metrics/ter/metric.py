"""TER behind the :class:`~evalfw.metrics.base.Metric` contract, equal to sacreBLEU 2.6.0's
``TER`` bit for bit (the arithmetic is in :mod:`evalfw.metrics.ter.core`).

Statistics row per segment (float64, sacreBLEU's layout): ``[edits, ref_length]``, the fewest
edits over the segment's references (an exact integer) and the average length of all of them.
Lower is better: ``higher_is_better`` is False, so comparisons and markers flip.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.errors import InputError
from evalfw.limits import max_segment_chars
from evalfw.metrics.base import Metric, SegmentLengths
from evalfw.metrics.flags import MetricFlag
from evalfw.metrics.ter import core
from evalfw.metrics.ter.result import TerScore, sacrebleu_signature
from evalfw.version import __version__

if TYPE_CHECKING:
    import numpy as np

OPTIONS_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "normalized": {"type": "boolean", "default": False,
                       "description": "TERCOM normalisation: XML entities, punctuation split "
                                      "off words (with asian_support: CJK characters too)"},
        "no_punct": {"type": "boolean", "default": False,
                     "description": "remove punctuation (with asian_support: CJK and "
                                    "full-width punctuation too)"},
        "asian_support": {"type": "boolean", "default": False,
                          "description": "CJK handling for normalized and no_punct"},
        "case_sensitive": {"type": "boolean", "default": False,
                           "description": "compare texts as they are instead of lowercased"},
    },
    "additionalProperties": False,
}


class Ter(Metric):
    """Translation edit rate (shifts + edits per reference word) as sacreBLEU 2.6.0 computes
    it, TERCOM's beam and shift heuristics included."""

    name = "ter"
    version = "1"
    description = "TER (translation edit rate, TERCOM shifts), sacreBLEU 2.6.0 exact"
    options_schema: ClassVar[Mapping[str, Any]] = OPTIONS_SCHEMA
    higher_is_better: ClassVar[bool] = False
    score_scale: float = 100
    #: edits per reference word, in percent: more edits than words is possible
    score_range = (0.0, None)
    #: sacreBLEU's option names: --ter-case-sensitive, --ter-asian-support, ...
    cli_flags: ClassVar[tuple[MetricFlag, ...]] = (
        MetricFlag("case_sensitive"), MetricFlag("asian_support"), MetricFlag("no_punct"),
        MetricFlag("normalized"))

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.key = core.option_key(dict(self.options))

    # ------------------------------------------------------------------ the contract

    @property
    def display_name(self) -> str:
        return "TER"

    @property
    def max_segment_chars(self) -> int | None:
        """Memory is bounded by a line's length (a band of the edit distance), but time is
        not: the shift search of a line of a million characters takes tens of seconds, of
        ten million minutes. The limit keeps every segment's time bounded: see
        :func:`evalfw.limits.max_segment_chars`."""
        return max_segment_chars()

    def prepare_references(self, references: Sequence[Sequence[str | None]]
                           ) -> core.PreparedReferences:
        return core.prepare(references, self.key)

    def statistics_key(self) -> Hashable:
        return (type(self).__module__, self.version, self.key)

    def segment_statistics(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        refs = references if isinstance(references, core.PreparedReferences) else \
            self.prepare_references(references)
        if refs.options != self.key:
            raise InputError("ter: references were prepared with other options")
        return core.statistics(hypotheses, refs)

    def score(self, statistics: np.ndarray) -> float:
        return core.score_of(*core.totals(statistics))

    def signature(self, nrefs: int | str) -> str:
        o = self.options
        return (f"TER|case:{'mixed' if o['case_sensitive'] else 'lc'}|tok:tercom"
                f"|norm:{'yes' if o['normalized'] else 'no'}"
                f"|punct:{'no' if o['no_punct'] else 'yes'}"
                f"|asian:{'yes' if o['asian_support'] else 'no'}|nrefs:{nrefs}"
                f"|{self.name}:{self.version}|evalfw:{__version__}")

    def foreign_signature(self, nrefs: int | str) -> str:
        return sacrebleu_signature(self.options, nrefs)

    # ------------------------------------------------------------------ faster and richer

    def result(self, statistics: np.ndarray, nrefs: int | str) -> TerScore:
        edits, length = core.totals(statistics)
        return self._result(core.score_of(edits, length), edits, length, nrefs)

    def sentence_scores(self, statistics: np.ndarray) -> np.ndarray:
        return core.scores_of(statistics[:, 0], statistics[:, 1])

    def sentence_results(self, statistics: np.ndarray, nrefs: int | str) -> list[TerScore]:
        scores = self.sentence_scores(statistics).tolist()
        return [self._result(s, int(e), float(r), nrefs)
                for s, (e, r) in zip(scores, statistics.tolist())]

    def score_rows(self, sums: np.ndarray, last: np.ndarray | None = None,
                   segments: int = 1) -> np.ndarray:
        import numpy as np
        sums = np.asarray(sums, dtype=np.float64)
        return core.scores_of(sums[:, 0], sums[:, 1])

    @property
    def sacrebleu_resampling(self) -> bool:
        return True

    def sacrebleu_float32_score(self, sums: np.ndarray) -> Any:
        # of sacreBLEU's type (a float32 scalar): its means and p-values use that dtype
        return core.float32_value(sums)

    @property
    def length_unit(self) -> str:
        return "words"  # after TER's normalisation (lowercased, punctuation as configured)

    def lengths(self, statistics: np.ndarray) -> SegmentLengths:
        """The reference length TER divides by (the average word count of the segment's
        references after its normalisation); TER's rows do not hold the hypothesis length."""
        return SegmentLengths(None, statistics[:, 1])

    def worst_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """At least one edit per reference word (an empty output's TER, 100), or the
        segment's own edits when they are more: TER has no upper bound, and a penalty must
        never score a segment better than it did."""
        import numpy as np

        out = statistics.copy()
        out[:, 0] = np.maximum(out[:, 0], np.ceil(out[:, 1]))
        return out

    def check_statistics(self, statistics: Any) -> str | None:
        problem = super().check_statistics(statistics)
        if problem is not None:
            return problem
        if statistics.shape[1] != 2:
            return f"TER statistics have 2 columns, not {statistics.shape[1]}"
        edits, length = statistics[:, 0], statistics[:, 1]
        if (edits < 0).any() or (length < 0).any():
            return "TER statistics contain negative numbers"
        if (edits != edits.round()).any():
            return "TER edit counts are not whole numbers"
        return None

    @classmethod
    def implementation(cls) -> str:
        return core.describe()

    # ------------------------------------------------------------------ helpers

    def _result(self, score: float, edits: int, length: float, nrefs: int | str) -> TerScore:
        return TerScore(self.display_name, score, self.signature(nrefs), self.score_scale,
                        self.foreign_signature(nrefs), edits, length)


__all__ = ["OPTIONS_SCHEMA", "Ter"]
