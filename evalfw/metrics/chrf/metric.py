"""chrF and chrF++ behind the :class:`~evalfw.metrics.base.Metric` contract, equal to
sacreBLEU 2.6.0's ``CHRF`` bit for bit (the arithmetic is in :mod:`evalfw.metrics.chrf.core`).

Statistics row per segment (int64), sacreBLEU's layout: one ``[hyp, ref, match]`` triple per
order, character orders 1..char_order first, then word orders 1..word_order, taken from the
reference that gives the segment its best F-score.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import numpy as np


from evalfw.errors import ConfigError, InputError
from evalfw.limits import LIMITS, max_segment_chars
from evalfw.metrics.base import Metric, SegmentLengths
from evalfw.metrics.chrf import core
from evalfw.metrics.chrf.result import ChrfScore, sacrebleu_signature
from evalfw.metrics.flags import MetricFlag
from evalfw.version import __version__

if TYPE_CHECKING:
    from evalfw.plugin.options import OptionChecker
    from evalfw.plugin.protocols import Components

OPTIONS_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "char_order": LIMITS["char_order"].schema(
            default=6, description="character n-gram orders 1..char_order"),
        "word_order": LIMITS["word_order"].schema(
            default=0, description="word n-gram orders 1..word_order (2: chrF++)"),
        "beta": {**LIMITS["beta"].schema(default=2), "type": "number",
                 "description": "recall is beta times as important as precision"},
        "lowercase": {"type": "boolean", "default": False,
                      "description": "compare lowercased texts (Python str.lower)"},
        "whitespace": {"type": "boolean", "default": False,
                       "description": "keep whitespace inside character n-grams"},
        "eps_smoothing": {"type": "boolean", "default": False,
                          "description": "average per-order F-scores with epsilon smoothing "
                                         "instead of the effective-order F-score"},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class ChrfReferences:
    """Reference streams prepared once per test set: lowercased when asked, as lists (what
    the counting kernel reads); a missing reference is None.

    From the second set of hypotheses scored with the same orders and whitespace setting on,
    the compiled kernel's own preparation of the streams (:meth:`kernel_tables`) is kept too:
    one system needs none, many save interning the references again for each."""

    streams: list[list[str | None]]
    #: kernel preparations by (char_order, word_order, whitespace), and their uses so far
    _tables: dict[tuple[int, int, bool], Any] = field(default_factory=dict, compare=False,
                                                      repr=False)
    _uses: dict[tuple[int, int, bool], int] = field(default_factory=dict, compare=False,
                                                    repr=False)

    def kernel_tables(self, config: core.ChrfConfig) -> Any:
        """The kernel's preparation of the streams for ``config`` (None at its first use or
        without the kernel); the numbers are the same with or without it."""
        key = (config.char_order, config.word_order, config.whitespace)
        uses = self._uses[key] = self._uses.get(key, 0) + 1
        if uses >= 2 and key not in self._tables:  # threads of a run may race here: harmless
            self._tables[key] = core.kernel_references(self.streams, config)
        return self._tables.get(key)

    def __getstate__(self) -> dict[str, Any]:
        # the kernel's objects do not pickle; a worker prepares its own
        return {**self.__dict__, "_tables": {}, "_uses": {}}

    @property
    def segments(self) -> int:
        return len(self.streams[0]) if self.streams else 0

    @functools.cached_property
    def counts(self) -> list[int]:
        """References per segment."""
        return [sum(r is not None for r in refs) for refs in zip(*self.streams)]

    @functools.cached_property
    def present(self) -> np.ndarray:
        """(segments, K) bool: which references each segment has."""
        import numpy as np
        present = np.array([[r is not None for r in s] for s in self.streams], dtype=bool)
        return present.T.reshape(self.segments, len(self.streams))


class Chrf(Metric):
    """chrF (``word_order`` 0) and chrF++ (``word_order`` 2) as sacreBLEU 2.6.0 computes them."""

    name = "chrf"
    version = "1"
    description = "chrF / chrF++ (character and word n-gram F-score), sacreBLEU 2.6.0 exact"
    options_schema: ClassVar[Mapping[str, Any]] = OPTIONS_SCHEMA
    score_scale: float = 100
    #: an F-score in percent
    score_range = (0.0, 100.0)
    # sacreBLEU's flags: --chrf-char-order/-cc, --chrf-word-order/-cw, --chrf-beta (an
    # integer there, so the printed name stays chrF2), --chrf-whitespace, ...
    cli_flags: ClassVar[tuple[MetricFlag, ...]] = (
        MetricFlag("char_order", short="-cc"), MetricFlag("word_order", short="-cw"),
        MetricFlag("beta", type=int), MetricFlag("whitespace"), MetricFlag("lowercase"),
        MetricFlag("eps_smoothing"))

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.config = core.ChrfConfig(**self.options)
        if self.config.orders == 0:
            raise ConfigError("chrf: char_order and word_order cannot both be 0")

    @classmethod
    def check_options(cls, options: Mapping[str, Any], host: Components,
                      checker: OptionChecker) -> None:
        if options.get("char_order", 6) == 0 and options.get("word_order", 0) == 0:
            checker.fail(("char_order",), "char_order and word_order cannot both be 0")

    # ------------------------------------------------------------------ the contract

    @property
    def display_name(self) -> str:
        return self.config.name

    @property
    def max_segment_chars(self) -> int | None:
        """Memory grows with a line's length (hash tables of every n-gram): see
        :func:`evalfw.limits.max_segment_chars`."""
        return max_segment_chars()

    def prepare_references(self, references: Sequence[Sequence[str | None]]) -> ChrfReferences:
        lower = self.config.lowercase
        streams = [[r.lower() if lower and r is not None else r for r in s] for s in references]
        lengths = {len(s) for s in streams}
        if len(lengths) > 1:
            raise InputError(f"chrf: reference streams of different lengths {sorted(lengths)}")
        prepared = ChrfReferences(streams)
        if None in (r for s in streams for r in s):
            counts = prepared.counts
            if 0 in counts:
                raise InputError(f"chrf: segment {counts.index(0) + 1} has no reference")
        return prepared

    def references_key(self) -> Hashable:
        return (type(self).__module__, "references", self.config.lowercase)

    def statistics_key(self) -> Hashable:
        c = self.config
        # beta changes the reference choice, so it belongs to the statistics
        return (type(self).__module__, self.version, c.char_order, c.word_order, c.beta,
                c.lowercase, c.whitespace, c.eps_smoothing)

    def segment_statistics(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        refs, hyps = self._inputs(hypotheses, references)
        pairs = core.pair_stats(hyps, refs.streams, self.config, refs.kernel_tables(self.config))
        return core.best_rows(pairs, refs.present, self.config)

    def _inputs(self, hypotheses: Sequence[str], references: Any
                ) -> tuple[ChrfReferences, list[str]]:
        refs = references if isinstance(references, ChrfReferences) else \
            self.prepare_references(references)
        if len(hypotheses) != refs.segments:
            raise InputError(f"chrf: {len(hypotheses)} hypotheses but {refs.segments} "
                             "reference segments")
        hyps = [h.lower() for h in hypotheses] if self.config.lowercase else list(hypotheses)
        return refs, hyps

    def score(self, statistics: np.ndarray) -> float:
        # Python ints, as sacreBLEU sums them: the scalar formula is sacreBLEU's arithmetic.
        return float(core.f_score(statistics.sum(axis=0).tolist(), self.config))

    def signature(self, nrefs: int | str) -> str:
        c = self.config
        return (f"{c.name}|nc:{c.char_order}|nw:{c.word_order}|beta:{c.beta}"
                f"|case:{'lc' if c.lowercase else 'mixed'}"
                f"|space:{'yes' if c.whitespace else 'no'}"
                f"|smooth:{'eps' if c.eps_smoothing else 'eff'}|nrefs:{nrefs}"
                f"|{self.name}:{self.version}|evalfw:{__version__}")

    def foreign_signature(self, nrefs: int | str) -> str:
        return sacrebleu_signature(self.config, nrefs)

    # ------------------------------------------------------------------ faster and richer

    def result(self, statistics: np.ndarray, nrefs: int | str) -> ChrfScore:
        return self._result(self.score(statistics), nrefs)

    def sentence_scores(self, statistics: np.ndarray) -> np.ndarray:
        return core.f_scores(statistics, self.config)

    def sentence_results(self, statistics: np.ndarray, nrefs: int | str) -> list[ChrfScore]:
        return [self._result(s, nrefs) for s in self.sentence_scores(statistics).tolist()]

    def score_rows(self, sums: np.ndarray, last: np.ndarray | None = None,
                   segments: int = 1) -> np.ndarray:
        import numpy as np
        return core.f_scores(np.asarray(sums, dtype=np.int64), self.config)

    @property
    def sacrebleu_resampling(self) -> bool:
        return True

    def sacrebleu_float32_score(self, sums: np.ndarray) -> Any:
        # sacreBLEU scores a resample from its float32 column sums; numpy float32 scalars
        # through the scalar formula reproduce its float32 arithmetic step by step. The
        # result stays a float32 scalar (or Python 0.0), as sacreBLEU's, because its means
        # and p-values are computed in that dtype.
        import numpy as np
        row = np.asarray(sums, dtype=np.float32)
        return core.f_score([row[j] for j in range(len(row))], self.config)

    @property
    def length_unit(self) -> str:
        """What the first order counts: characters (spaces not counted unless
        ``whitespace``), or words for a word-only chrF."""
        if self.config.char_order == 0:
            return "words"
        return "characters" + (" with spaces" if self.config.whitespace else "")

    def lengths(self, statistics: np.ndarray) -> SegmentLengths:
        """Unigram counts: characters (without whitespace unless ``whitespace``), or words
        for a word-only chrF. The hypothesis count is 0 for an empty reference."""
        return SegmentLengths(statistics[:, 0], statistics[:, 1])

    def worst_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """The same n-gram counts, no match (sentence chrF 0)."""
        out = statistics.copy()
        out[:, 2::3] = 0
        return out

    def check_statistics(self, statistics: Any) -> str | None:
        problem = super().check_statistics(statistics)
        if problem is not None:
            return problem
        width = self.config.width
        if statistics.dtype.kind != "i":
            return "chrF statistics are integer counts"
        if statistics.shape[1] != width:
            return f"chrF statistics have {width} columns, not {statistics.shape[1]}"
        if (statistics < 0).any():
            return "chrF statistics contain negative counts"
        hyp, ref, match = statistics[:, 0::3], statistics[:, 1::3], statistics[:, 2::3]
        if (match > hyp).any() or (match > ref).any():
            return "chrF statistics have more matches than n-grams"
        return None

    @classmethod
    def implementation(cls) -> str:
        return core.describe()

    # ------------------------------------------------------------------ helpers

    def _result(self, score: float, nrefs: int | str) -> ChrfScore:
        c = self.config
        return ChrfScore(c.name, score, self.signature(nrefs), self.score_scale,
                         self.foreign_signature(nrefs), c.char_order, c.word_order, c.beta)


__all__ = ["Chrf", "ChrfReferences", "OPTIONS_SCHEMA"]
