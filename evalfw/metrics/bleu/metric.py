"""BLEU behind the :class:`~evalfw.metrics.base.Metric` contract.

BLEU is composed of components (tokenizer, counter, brevity penalty, smoothing, mean) chosen
by a preset plus overrides (:mod:`evalfw.metrics.bleu.spec`). Its statistics row per segment is
sacreBLEU's layout::

    [hyp_len, ref_len, matches_1 .. matches_N, totals_1 .. totals_N]

with ``ref_len`` the reference length the brevity penalty chose for the segment and N the
orders counted (the BLEU order, or more when a smoothing reads more of the last segment).
A corpus score is the components' score of the column sums; NLTK's corpus smoothing also
reads the last row (``reads_last_row``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.metrics.base import Metric, SegmentLengths
from evalfw.metrics.bleu import _rows, engine
from evalfw.metrics.bleu._options import (
    OPTIONS_SCHEMA,
    check_components,
    config_schema,
    parse_weights,
)
from evalfw.metrics.bleu.components import Counts
from evalfw.metrics.bleu.spec import BleuSpec, resolve_spec
from evalfw.metrics.bleu.stats import ReferenceIndex, SegmentStats
from evalfw.metrics.flags import MetricFlag
from evalfw.plugin.component import declares

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.bleu.result import BleuScore
    from evalfw.plugin.options import OptionChecker
    from evalfw.plugin.protocols import Components


class Bleu(Metric):
    """BLEU from pluggable components; the ``sacrebleu`` preset (default) is sacreBLEU 2.6.0's
    BLEU and the ``nltk`` preset NLTK 3.10.4's ``corpus_bleu``, bit for bit."""

    name = "bleu"
    version = "1"
    description = "BLEU from pluggable components: presets sacrebleu (default), nltk, ..."
    options_schema: ClassVar[Mapping[str, Any]] = OPTIONS_SCHEMA
    # sacreBLEU's unprefixed BLEU flags (plus evalfw's --preset, --max-order, --weights)
    cli_flags: ClassVar[tuple[MetricFlag, ...]] = (
        MetricFlag("preset", flag="preset", help="component bundle (default: sacrebleu)"),
        MetricFlag("tokenizer", flag="tokenize", short="-tok",
                   help="tokenizer (names listed below)"),
        MetricFlag("smoothing", flag="smooth", short="-s", help="smoothing (names listed below)"),
        MetricFlag("smooth_value", flag="smooth-value", short="-sv",
                   help="value for smoothing methods that take one (floor, add-k)"),
        MetricFlag("lowercase", flag="lowercase", short="-lc", help="case-insensitive BLEU"),
        MetricFlag("max_order", flag="max-order", help="maximum n-gram order (default 4)"),
        MetricFlag("weights", flag="weights", type=parse_weights,
                   help="n-gram weights, comma-separated; several tuples separated by ';'"),
        MetricFlag("effective_order", flag="effective-order", short="-e",
                   help="average only over n-gram orders the hypothesis has"),
    )

    def __init__(self, spec: BleuSpec) -> None:
        # Built by create(): the options were checked while resolving the spec.
        self.spec = spec
        self.options = MappingProxyType(spec.to_json())

    @classmethod
    def create(cls, options: Mapping[str, Any] | None = None, *,
               host: Components | None = None) -> Bleu:
        if host is None:
            raise TypeError("BLEU is made of components: pass the plugin host (host=...)")
        return cls(resolve_spec(host, dict(options or {})))

    @classmethod
    def from_definition(cls, definition: Mapping[str, Any], host: Components) -> Bleu:
        """Rebuild from :meth:`definition` (component versions are compared by the caller)."""
        options = {k: ({n: v for n, v in value.items() if n != "version"}
                       if isinstance(value, Mapping) else value)
                   for k, value in definition["options"].items()}
        if options.get("weights") is None:
            options.pop("weights", None)
        return cls.create(options, host=host)

    @classmethod
    def check_options(cls, options: Mapping[str, Any], host: Components,
                      checker: OptionChecker) -> None:
        check_components(options, host, checker)

    @classmethod
    def config_schema(cls, host: Components) -> Mapping[str, Any]:
        return config_schema(host)

    # ------------------------------------------------------------------ the contract

    @property
    def display_name(self) -> str:
        return "BLEU"

    @property
    def score_scale(self) -> float:  # type: ignore[override]
        return self.spec.mean.score_scale

    @property
    def score_range(self) -> tuple[float, float | None]:  # type: ignore[override]
        """From 0 to what the components allow (:func:`evalfw.metrics.bleu._checks.limits`)."""
        from evalfw.metrics.bleu._checks import limits

        return 0.0, limits(self.spec)[1]

    @property
    def length_unit(self) -> str:
        """Tokens of its tokenizer (``13a tokens``), what the brevity penalty counts."""
        return self.spec.tokenizer.token_unit

    @property
    def reads_last_row(self) -> bool:  # type: ignore[override]
        return self.spec.smoothing.needs_orders > 0

    def prepare_references(self, references: Sequence[Sequence[str | None]]) -> ReferenceIndex:
        return engine.index_references(self.spec, references)

    def load_files(self) -> None:
        """Its components' files (a SentencePiece tokenizer's model)."""
        for component in self.spec.components().values():
            component.load_files()

    def references_key(self) -> tuple[Hashable, ...]:
        return (self.spec.tokenizer.describe(), self.spec.lowercase,
                self.spec.counter.describe(), self.spec.count_orders)

    def statistics_key(self) -> Hashable:
        return (*self.references_key(), self.spec.brevity_penalty.describe())

    def segment_statistics(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        index = references if isinstance(references, ReferenceIndex) else \
            self.prepare_references(references)
        return self.rows(engine.segment_stats(self.spec, hypotheses, index))

    def rows(self, stats: SegmentStats) -> np.ndarray:
        """The statistics rows of counted segments (reference lengths chosen here)."""
        import numpy as np

        n = self.spec.count_orders
        ref_len = engine.chosen_ref_len(self.spec, stats)
        return np.ascontiguousarray(np.concatenate(
            [stats.hyp_len[:, None], np.asarray(ref_len, dtype=np.int64)[:, None],
             stats.matches[:, :n], stats.totals[:, :n]], axis=1), dtype=np.int64)

    def score(self, statistics: np.ndarray) -> float:
        return engine.score_counts(self.spec, self._counts(statistics)).score

    def signature(self, nrefs: int | str) -> str:
        return self.spec.signature(nrefs)

    def foreign_signature(self, nrefs: int | str) -> str | None:
        return self.spec.foreign_signature(nrefs)

    # ------------------------------------------------------------------ faster and richer

    def result(self, statistics: np.ndarray, nrefs: int | str) -> BleuScore:
        return engine.score_counts(self.spec, self._counts(statistics), nrefs)

    def record_fields(self, result: Any) -> dict[str, Any]:
        return {**super().record_fields(result), "precision_scale": result.precision_scale}

    def sentence_scores(self, statistics: np.ndarray) -> np.ndarray:
        import numpy as np

        rows = self._compiled_rows(statistics)
        if rows is not None:
            return rows.scores
        return np.array([float(self.sentence_score(row)) for row in statistics],
                        dtype=np.float64)

    def sentence_results(self, statistics: np.ndarray, nrefs: int | str) -> list[BleuScore]:
        rows = self._compiled_rows(statistics)
        if rows is not None:
            return _rows.results(self.spec, rows, statistics[:, 0], statistics[:, 1], nrefs)
        return [engine.score_counts(self.spec, self._counts(statistics[i:i + 1]), nrefs,
                                    segment=i) for i in range(len(statistics))]

    def score_rows(self, sums: np.ndarray, last: np.ndarray | None = None,
                   segments: int = 1) -> np.ndarray:
        from evalfw.metrics.bleu._batch import BatchScorer

        return BatchScorer(self.spec).scores(sums, last, segments)

    @property
    def sacrebleu_resampling(self) -> bool:
        return (declares(self.spec.smoothing, "sacrebleu_resampling")
                and declares(self.spec.mean, "sacrebleu_resampling")
                and self.spec.weights is None)

    def sacrebleu_float32_score(self, sums: np.ndarray) -> float:
        from evalfw.metrics.bleu._batch import sacrebleu_float32_score

        return sacrebleu_float32_score(self.spec, sums)

    def lengths(self, statistics: np.ndarray) -> SegmentLengths:
        return SegmentLengths(statistics[:, 0], statistics[:, 1])

    def worst_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """The same lengths and n-gram totals, no match of any order (sentence BLEU 0)."""
        n = self.spec.count_orders
        out = statistics.copy()
        out[:, 2:2 + n] = 0
        return out

    def check_statistics(self, statistics: Any) -> str | None:
        problem = super().check_statistics(statistics)
        if problem is not None:
            return problem
        n = self.spec.count_orders
        if statistics.dtype.kind != "i":
            return "BLEU statistics are integer counts"
        if statistics.shape[1] != 2 + 2 * n:
            return f"BLEU statistics have {2 + 2 * n} columns, not {statistics.shape[1]}"
        if (statistics < 0).any():
            return "BLEU statistics contain negative counts"
        if (statistics[:, 2:2 + n] > statistics[:, 2 + n:]).any():
            return "BLEU statistics have more matches than n-grams"
        return None

    def definition(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "options": self.spec.to_json()}

    @classmethod
    def implementation(cls) -> str:
        from evalfw.metrics.bleu.counting import kernel

        return kernel.describe()

    # ------------------------------------------------------------------ helpers

    def _counts(self, statistics: np.ndarray) -> Counts:
        """The components' view of rows: column sums, plus the last row for NLTK."""
        n, width = self.spec.max_order, self.spec.count_orders
        k = self.spec.smoothing.needs_orders
        sums = statistics.sum(axis=0).tolist() if len(statistics) > 1 else \
            statistics[0].tolist()
        last = statistics[-1].tolist()
        return Counts(
            matches=tuple(sums[2:2 + n]), totals=tuple(sums[2 + width:2 + width + n]),
            hyp_len=sums[0], ref_len=sums[1], segments=len(statistics),
            last_matches=tuple(last[2:2 + k]), last_totals=tuple(last[2 + width:2 + width + k]),
            last_hyp_len=last[0],
        )

    def _compiled_rows(self, statistics: np.ndarray) -> _rows.Rows | None:
        n, width = self.spec.max_order, self.spec.count_orders
        return _rows.row_scores(self.spec, statistics[:, 0], statistics[:, 1],
                                statistics[:, 2:2 + n], statistics[:, 2 + width:2 + width + n])


__all__ = ["Bleu"]
