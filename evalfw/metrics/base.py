"""The metric contract: every metric evalfw computes (BLEU, chrF, TER, a model-based score, a
third party's) is a class deriving from :class:`Metric`, registered by the hook
``evalfw_register_metrics``.

A metric turns each segment into a row of *sufficient statistics* and a set of rows into a
score through their column sums, the shape sacreBLEU uses for BLEU, chrF and TER::

    stats = metric.segment_statistics(hypotheses, references)   # (n_segments, k) array
    metric.score(stats)                                         # corpus score
    metric.sentence_score(stats[i])                             # segment i alone

Because a score depends on column sums only, every resample of a bootstrap or permutation
test is scored exactly from summed rows, and a corpus can be counted in shards and summed:
the runner, the statistics cache, significance tests, buckets, sentence exports, ``compare``,
``verify`` and every report work on any metric through this class alone.

``references`` is a list of reference *streams* everywhere in evalfw: ``references[k][i]`` is
reference k of segment i (``None`` where segment i has fewer references).

A metric must implement ``segment_statistics``, ``score`` and ``signature``. Everything else
has a default and is there to be faster (``prepare_references``, ``score_rows``,
``sentence_scores``) or more informative (``result``, ``lengths``, ``check_statistics``).
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.plugin.component import Component

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.flags import MetricFlag
    from evalfw.plugin.options import OptionChecker
    from evalfw.plugin.protocols import Components

#: statistics columns: int64 for counts (sums are exact), float64 allowed
STATISTICS_DTYPES = ("int64", "float64")


@dataclass(frozen=True)
class Score:
    """A metric's result with the text form sacreBLEU prints (``chrF2|<signature> = 64.6``).

    Metrics may return richer result objects from :meth:`Metric.result` (BLEU's carries
    precisions and lengths); they have the same ``name``, ``score``, ``signature``,
    ``score_scale``, ``format`` and ``to_json``.
    """

    name: str
    score: float
    signature: str
    score_scale: float = 100
    sacrebleu_signature: str | None = None

    def format(self, width: int = 2, signature: str | None = None,
               score_only: bool = False) -> str:
        text = f"{self.score:.{width}f}"
        if score_only:
            return text
        head = self.name + (f"|{signature}" if signature else "")
        return f"{head} = {text}"

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "score": self.score,
                               "score_scale": self.score_scale, "signature": self.signature}
        if self.sacrebleu_signature:
            out["sacrebleu_signature"] = self.sacrebleu_signature
        return out


@dataclass(frozen=True)
class SegmentContext:
    """What a metric may know about the segments besides hypotheses and references, given to
    metrics that set ``wants_context`` (a model-based metric reads the source; the
    ``segment-scores`` metric reads the precomputed scores of the system)."""

    #: the test set and the system the hypotheses belong to
    test_set: str
    system: str
    #: the language pair, e.g. "en-de" (None when unknown, e.g. on the command line)
    langs: str | None = None
    #: the source segments, when the test set has a source file
    source: Sequence[str] | None = None
    #: precomputed per-segment scores of this system (float64, one per segment), by the name the
    #: test set gives them
    scores: Mapping[str, np.ndarray] = field(default_factory=dict)
    #: human judgements of this system's segments by name (None: segment not judged)
    judgements: Mapping[str, Sequence[float | None]] = field(default_factory=dict)

    def readonly_view(self) -> SegmentContext:
        """The context as plugin code gets it: source and scores it cannot change."""
        from evalfw.plugin.boundary import readonly

        return replace(self, source=readonly(self.source), scores=readonly(self.scores))


@dataclass(frozen=True)
class SegmentLengths:
    """Per-segment lengths, in the metric's own unit (:attr:`Metric.length_unit`: tokens for
    BLEU, characters for chrF), that bucketers group segments by: the hypothesis length (None
    when the metric's statistics do not hold it, as TER's) and the reference length the metric
    used."""

    hypothesis: np.ndarray | None
    reference: np.ndarray


class Metric(Component):
    """Base class of every metric (see the module docstring).

    Class attributes: ``name``, ``version`` (bump when a number could change),
    ``options_schema`` (JSON Schema of the options, merged into ``evalfw schema``),
    ``higher_is_better`` (False flips "better"/"worse", significance markers and regression
    checks), ``score_scale`` (what a perfect score is: 100 or 1; tables pick decimals and axes
    their range by it; None: not known, inferred from the scores, see
    :mod:`evalfw.metrics.scales`), ``score_range`` (the scores possible), ``length_unit``
    (what :meth:`lengths` counts) and
    ``cli_flags`` (options ``evalfw score`` offers as flags, see :mod:`evalfw.metrics.flags`).
    """

    kind = "metric"
    plural = "metrics"
    higher_is_better: ClassVar[bool] = True
    score_scale: float | None = 100
    #: CPU seconds the statistics of one segment take, when far above a count's (a model's
    #: prediction): the ``auto`` executor estimates a run's work with it. None: about what
    #: the built-in metrics take.
    cost_per_segment: ClassVar[float | None] = None
    #: the interval every score lies in, ``(low, high)`` with None for an unbounded end, or
    #: None when the metric declares none. A score outside it (a plugin's bug, a damaged
    #: cache) is refused where it enters, naming the plugin and the first segment.
    score_range: tuple[float | None, float | None] | None = None
    #: True when ``score`` reads the last row as well as the column sums (NLTK's corpus
    #: smoothing does); resampling then passes each resample's last segment along
    reads_last_row: bool = False
    #: True when ``segment_statistics`` takes a third argument, the :class:`SegmentContext`
    wants_context: ClassVar[bool] = False
    cli_flags: ClassVar[tuple[MetricFlag, ...]] = ()

    @property
    def resources(self) -> Mapping[str, float]:
        """What a worker must have to compute the statistics, as Dask worker resources (e.g.
        ``{"GPU": 1}``): on a cluster these tasks run only on workers started with them
        (``dask worker ADDRESS --resources GPU=1``), all systems of a test set in one task, so
        a model is loaded once for them; other metrics' tasks go anywhere. Empty: any worker.
        Recorded in the spec entries; local executors ignore it. A subclass sets it as a class
        attribute (``resources = {"GPU": 1}``) or computes it from its options."""
        return {}

    # ------------------------------------------------------------------ construction

    @classmethod
    def create(cls, options: Mapping[str, Any] | None = None, *,
               host: Components | None = None) -> Metric:
        """The metric with these options. Metrics made of other components (BLEU's tokenizer,
        smoothing, ...) look them up in ``host``; the default ignores it."""
        return cls(**dict(options or {}))

    @classmethod
    def from_definition(cls, definition: Mapping[str, Any], host: Components) -> Metric:
        """Rebuild a recorded metric from :meth:`definition` (the caller compares the rebuilt
        definition with the recorded one, versions included)."""
        return cls.create(definition.get("options", {}), host=host)

    @classmethod
    def check_options(cls, options: Mapping[str, Any], host: Components,
                      checker: OptionChecker) -> None:
        """Checks beyond ``options_schema`` (run by config validation, with positions);
        report problems through ``checker``. Default: none."""

    @classmethod
    def config_schema(cls, host: Components) -> Mapping[str, Any]:
        """The options schema as ``evalfw schema`` shows it (BLEU adds the names of the
        installed components). Default: ``options_schema``."""
        return cls.options_schema

    # ------------------------------------------------------------------ the contract

    @abstractmethod
    def segment_statistics(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        """One row of statistics per segment, shape (n_segments, k), int64 or float64.

        ``references`` is a list of reference streams, or what :meth:`prepare_references`
        returned for them."""

    @abstractmethod
    def score(self, statistics: np.ndarray) -> float:
        """The score of the segments whose rows are ``statistics``, from their column sums
        (and the last row when ``reads_last_row``)."""

    @abstractmethod
    def signature(self, nrefs: int | str) -> str:
        """Every choice that can change the number, with versions (``nrefs``: references per
        segment, or ``"var"``)."""

    # ------------------------------------------------------------------ optional, defaults

    @property
    def display_name(self) -> str:
        """The name a result is printed with (``BLEU``, ``chrF2++``, ``TER``)."""
        return self.name

    @property
    def max_segment_chars(self) -> int | None:
        """The most characters a segment (hypothesis or reference line) may have for this
        metric, or None (no limit). A longer line is refused, naming its file and line, before
        anything is computed. Default None."""
        return None

    @property
    def length_unit(self) -> str:
        """The plural noun of what :meth:`lengths` counts (``13a tokens``, ``characters``),
        which bucket labels and axes name. Default ``words``: the runner's whitespace count
        for a metric that reports no lengths."""
        return "words"

    def resolve_scale(self, statistics: Iterable[np.ndarray]) -> float:
        """The scale of this metric's scores over ``statistics`` (every system's rows): the
        declared ``score_scale``, else the one :meth:`settle_scale` fixed, else inferred from
        the segment scores."""
        if self.score_scale is not None:
            return float(self.score_scale)
        settled = getattr(self, "_settled_scale", None)
        if settled is not None:
            return float(settled)
        from evalfw.metrics.scales import infer_scale

        return infer_scale(v for rows in statistics for v in self.sentence_scores(rows).tolist())

    def settle_scale(self, scale: float) -> None:
        """For a metric that declares no scale: keep ``scale`` (resolved over every system
        scored), so each later result, one system's, carries the same one."""
        if self.score_scale is None:
            self._settled_scale = float(scale)

    def prepare_references(self, references: Sequence[Sequence[str | None]]) -> Any:
        """Prepare reference streams once for scoring many systems against them (an index);
        the result is passed to :meth:`segment_statistics` in place of the streams."""
        return references

    def references_key(self) -> Hashable:
        """What :meth:`prepare_references` depends on: metrics with equal keys share one
        preparation per test set. Default: :meth:`statistics_key`."""
        return self.statistics_key()

    def statistics_key(self) -> Hashable:
        """What :meth:`segment_statistics` depends on besides the texts: metrics with equal
        keys share one computation per system, and the statistics cache keys on it."""
        return (type(self).__module__, type(self).__qualname__, self.name, self.version,
                _frozen(self.options))

    def statistics_of(self, hypotheses: Sequence[str], references: Any,
                      context: SegmentContext) -> np.ndarray:
        """``segment_statistics``, with the context for a metric that wants it."""
        if self.wants_context:
            return self.segment_statistics(hypotheses, references, context)  # type: ignore[call-arg]
        return self.segment_statistics(hypotheses, references)

    def sentence_score(self, row: np.ndarray) -> float:
        """The score of one segment from its row of statistics."""
        return self.score(row[None, :])

    def sentence_scores(self, statistics: np.ndarray) -> np.ndarray:
        """Every segment's score as float64 (override to vectorize)."""
        import numpy as np

        return np.array([float(self.sentence_score(row)) for row in statistics], dtype=np.float64)

    def score_rows(self, sums: np.ndarray, last: np.ndarray | None = None,
                   segments: int = 1) -> np.ndarray:
        """The score of each row of ``sums`` (m, k): column sums of resampled segments.
        ``last`` (m, k) holds each resample's last row when ``reads_last_row``; ``segments``
        is how many segments were summed. Override to vectorize."""
        import numpy as np

        out = np.empty(len(sums), dtype=np.float64)
        for i, row in enumerate(sums):
            if last is None:
                rows = row[None, :]
            else:  # two rows with the same column sums whose last row is the resample's last
                rows = np.stack([row - last[i], last[i]])
            out[i] = self.score(rows)
        return out

    def result(self, statistics: np.ndarray, nrefs: int | str) -> Any:
        """The corpus result object printed by ``evalfw score`` (see :class:`Score`)."""
        return Score(self.display_name, float(self.score(statistics)), self.signature(nrefs),
                     self.resolve_scale([statistics]), self.foreign_signature(nrefs))

    def sentence_results(self, statistics: np.ndarray, nrefs: int | str) -> list[Any]:
        """One result object per segment (``evalfw score --sentence-level``)."""
        signature, foreign = self.signature(nrefs), self.foreign_signature(nrefs)
        scale = self.resolve_scale([statistics])
        return [Score(self.display_name, float(s), signature, scale, foreign)
                for s in self.sentence_scores(statistics).tolist()]

    def record_fields(self, result: Any) -> dict[str, Any]:
        """What a run record keeps of a corpus result besides the score (default: the
        result's JSON without its name and signatures, which the record keeps per metric)."""
        return {k: v for k, v in result.to_json().items()
                if k not in ("name", "signature", "sacrebleu_signature")}

    def foreign_signature(self, nrefs: int | str) -> str | None:
        """The signature string of the tool this metric reproduces (sacreBLEU's), if any."""
        return None

    @property
    def sacrebleu_resampling(self) -> bool:
        """Whether :meth:`sacrebleu_float32_score` reproduces sacreBLEU's bootstrap, so
        significance tests in ``sacrebleu`` mode give sacreBLEU's numbers."""
        return False

    def sacrebleu_float32_score(self, sums: np.ndarray) -> Any:
        """The score sacreBLEU computes for one bootstrap resample: its float32 column sums
        through the metric's formula, every operation in float32 (numpy >= 2). Return it in
        the type sacreBLEU's formula gives (a Python float, or a numpy float32 scalar):
        sacreBLEU's means and p-values are computed in that type."""
        raise NotImplementedError(f"metric '{self.name}' does not reproduce sacreBLEU's "
                                  "bootstrap arithmetic")

    def lengths(self, statistics: np.ndarray) -> SegmentLengths | None:
        """Hypothesis and reference length of every segment, for bucketed analysis (None:
        the runner counts whitespace-separated words of the texts instead)."""
        return None

    @property
    def penalisable(self) -> bool:
        """Whether :meth:`worst_statistics` can score a flagged segment as the metric's worst
        (``on_flag: penalise`` is refused for a metric that cannot)."""
        return type(self).worst_statistics is not Metric.worst_statistics

    def worst_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """The rows of these segments (``statistics``: their own rows) scored as badly as the
        metric scores a segment of their length: what ``on_flag: penalise`` puts in place of
        a flagged segment. Counting metrics keep the lengths and drop every match; a mean of
        segment scores uses its declared worst score. The rows may depend only on what
        :meth:`statistics_key` covers (metrics sharing statistics share them). Default: the
        metric cannot say (:attr:`penalisable` is False)."""
        raise NotImplementedError(f"metric '{self.name}' declares no worst statistics")

    def check_statistics(self, statistics: Any) -> str | None:
        """Why ``statistics`` are not rows this metric could have produced (a damaged cache
        entry or record), or None. The default checks the array type, shape and finiteness;
        metrics add value ranges."""
        import numpy as np

        if not isinstance(statistics, np.ndarray) or statistics.ndim != 2:
            return "statistics must be a 2-dimensional array"
        if statistics.dtype.name not in STATISTICS_DTYPES:
            return f"statistics have dtype {statistics.dtype}, not int64 or float64"
        if statistics.dtype.kind == "f" and not np.isfinite(statistics).all():
            return "statistics contain NaN or infinity"
        return None

    def definition(self) -> dict[str, Any]:
        """What a record keeps to rebuild this metric: name, version and options."""
        return {"name": self.name, "version": self.version, "options": dict(self.options)}

    @classmethod
    def implementation(cls) -> str | None:
        """Which code computes the statistics (e.g. a compiled kernel or numpy), for records
        and ``evalfw plugins``; None when there is nothing to say."""
        return None


def _frozen(value: Any) -> Hashable:
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value  # type: ignore[no-any-return]


__all__ = ["Metric", "Score", "SegmentContext", "SegmentLengths"]
