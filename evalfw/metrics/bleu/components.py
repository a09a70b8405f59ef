"""The contracts of BLEU's components: counter, brevity penalty, smoothing, mean and preset.

BLEU is assembled from a tokenizer (shared with other metrics, :mod:`evalfw.tokenizers`) and
the components below; ``evalfw.metrics.bleu.spec`` resolves a preset plus overrides into one
instance of each. Components work on whole batches so the built-ins can vectorize.

Optional fast paths are declared here, each behind a capability flag that counts only on the
class that sets it (:func:`evalfw.plugin.component.declares`), so a plugin component can opt
in and a subclass that changes the plain method never inherits a stale fast path:

- counter ``joined``: ``index_joined`` / ``count_joined`` read a tokenizer's joined text;
- brevity penalty ``kernel_rule()``: the compiled counting kernel applies the reference-length
  rule itself;
- smoothing and mean ``sacrebleu_resampling``: their arithmetic on numpy float32 values is
  sacreBLEU's own, so significance tests in ``sacrebleu`` mode reproduce sacreBLEU.

Sentence scores and resampled scores call ``penalty``, ``smooth`` and ``combine`` once per row.
Only the built-in sacreBLEU penalty, smoothing and mean themselves (not subclasses) are scored
many rows at a time, by a compiled copy of their formula (:mod:`evalfw.metrics.bleu._rows`).
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.errors import ConfigError
from evalfw.plugin.component import Component

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.bleu.stats import ReferenceIndex, SegmentStats

#: A precision value as a smoother returns it: a float, or an exact Fraction (NLTK keeps
#: rationals so that later arithmetic is exact).
Precision = float | Fraction | int


# --------------------------------------------------------------------------- counter


class NgramCounter(Component):
    """Computes per-segment n-gram statistics (matches and totals per order).

    References are indexed once per test set (``index_references``) and shared by every
    system scored against them, which is where most of the time goes otherwise.
    """

    kind = "counter"
    plural = "counters"
    #: capability flag: ``index_joined`` / ``count_joined`` read joined token texts
    joined: ClassVar[bool] = False

    @abstractmethod
    def index_references(
        self, references: Sequence[Sequence[Sequence[str] | None]], max_order: int
    ) -> ReferenceIndex:
        """Index reference streams: ``references[k][i]`` is reference k of segment i
        (``None`` when segment i has no k-th reference)."""

    @abstractmethod
    def count(self, hypotheses: Sequence[Sequence[str]], index: ReferenceIndex) -> SegmentStats:
        """Per-segment statistics of tokenized ``hypotheses`` against ``index``."""

    def index_joined(self, texts: Sequence[str], lines: int, max_order: int,
                     unit: str = "word") -> ReferenceIndex | None:
        """``index_references`` of complete reference streams given as joined token texts
        (``Tokenizer.tokenize_joined``, tokens of kind ``unit``); None declines."""
        return None

    def count_joined(self, text: str, lines: int, index: ReferenceIndex,
                     unit: str = "word") -> SegmentStats | None:
        """``count`` of hypotheses given as one joined token text; None declines."""
        return None


# --------------------------------------------------------------------------- brevity penalty


class BrevityPenalty(Component):
    """Chooses the reference length of each segment and turns corpus lengths into a penalty."""

    kind = "brevity_penalty"
    plural = "brevity_penalties"
    @abstractmethod
    def choose_ref_len(self, hyp_len: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
        """Vectorized: ``ref_lens`` has shape (segments, references), -1 where absent."""

    @abstractmethod
    def penalty(self, hyp_len: int, ref_len: int) -> float | int:
        """The penalty factor for (corpus or segment) lengths ``hyp_len`` and ``ref_len``: a
        number from 0 to 1 (anything else is refused, naming the plugin)."""

    def kernel_rule(self) -> str | None:
        """The name of a reference-length rule the compiled counting kernel applies itself
        (``evalfw.metrics.bleu.counting.kernel_stats.RULES``), or None: ask ``choose_ref_len``."""
        return None


# --------------------------------------------------------------------------- smoothing


@dataclass(frozen=True, slots=True)
class Counts:
    """Statistics a smoother and a mean see: summed over a corpus (or one segment).

    ``last_matches``/``last_totals``/``last_hyp_len`` describe the last segment only, up to
    ``Smoother.needs_orders`` orders; NLTK's corpus smoothing reads them (its loop-variable
    leak), nothing else should.
    """

    matches: tuple[int, ...]
    totals: tuple[int, ...]
    hyp_len: int
    ref_len: int
    segments: int = 1
    last_matches: tuple[int, ...] = ()
    last_totals: tuple[int, ...] = ()
    last_hyp_len: int = 0

    @property
    def max_order(self) -> int:
        return len(self.matches)


@dataclass(frozen=True, slots=True)
class Smoothed:
    """A smoother's output: precisions on the smoother's ``scale`` and the counts it reports
    (add-k reports the counts it added k to)."""

    precisions: tuple[Precision, ...]
    matches: tuple[int | float, ...]
    totals: tuple[int | float, ...]


class Smoother(Component):
    """Maps counts to per-order precisions without mutating anything.

    ``smooth`` is called once per corpus score (with the corpus sums) and once per segment for
    sentence scores (with that segment's counts); resampling calls it once per resample.
    ``scale`` is 100 for the sacreBLEU family (percent precisions, as sacreBLEU computes them:
    rounding differs otherwise) and 1 for NLTK and the paper methods. A smoother only combines
    with a mean of the same scale.
    """

    kind = "smoothing"
    plural = "smoothers"
    scale: ClassVar[int] = 1
    #: orders the last segment's statistics must cover (NLTK method5 reads order 5).
    needs_orders: ClassVar[int] = 0
    #: capability flag: ``smooth`` on numpy float32 values computes what sacreBLEU's bootstrap does
    sacrebleu_resampling: ClassVar[bool] = False

    @property
    def max_precision(self) -> float | None:
        """The largest precision this smoothing gives, as a fraction of ``scale``, or None
        when it has no bound. The precision of counts is at most 1; a smoothing that adds
        mass (a count for zero-match orders larger than the n-grams, averaging seeded above
        1, a prior) declares how far it may go. A larger precision is refused, naming the
        plugin, so a bug cannot turn into a BLEU of 250."""
        return 1.0

    @abstractmethod
    def smooth(self, counts: Counts) -> Smoothed:
        """Precisions for orders 1..counts.max_order."""


# --------------------------------------------------------------------------- mean


class Mean(Component):
    """Combines smoothed precisions, the brevity penalty and weights into scores."""

    kind = "mean"
    plural = "means"
    scale: ClassVar[int] = 1
    #: capability flag: ``combine`` on numpy float32 values computes what sacreBLEU's bootstrap does
    sacrebleu_resampling: ClassVar[bool] = False

    @property
    def score_scale(self) -> int:
        """What a perfect score is: 100 (0-100 scores) or 1. Defaults to the precision scale;
        a mean that rescales its result (Moses' 100x, ``geometric`` with ``percent``) says so."""
        return self.scale

    def max_score(self, max_precision: float | None,
                  weights: Sequence[Sequence[float]] | None) -> float | None:
        """The largest score this mean gives for precisions of at most ``max_precision`` (a
        fraction of ``scale``; None: unbounded), a brevity penalty of at most 1 and
        ``weights``; None when there is no bound. Default: a weighted geometric mean whose
        weights are >= 0 and sum to 1 (:meth:`check_weights`) stays below the largest
        precision, on the score scale. A larger score is refused, naming the plugin."""
        if max_precision is None:
            return None
        return float(self.score_scale) * max(1.0, max_precision)

    @abstractmethod
    def combine(
        self,
        smoothed: Smoothed,
        counts: Counts,
        bp: float | int,
        weights: Sequence[Sequence[float]] | None,
    ) -> tuple[float | int, ...]:
        """One score per weight tuple (``weights=None``: uniform over the orders)."""

    def check_weights(self, weights: Sequence[Sequence[float]]) -> str | None:
        """Why these weight tuples have no meaning for this mean, or None. Default: a weighted
        geometric mean of precisions on a fixed scale, so each tuple is finite, non-negative
        and sums to 1 (``[1, 2]`` would turn a 0-100 score into thousands; all zeros would
        ignore every precision)."""
        for ws in weights:
            if not all(math.isfinite(w) and w >= 0 for w in ws):
                return f"{list(ws)}: every weight must be a finite number >= 0"
            if abs(math.fsum(ws) - 1) > 1e-9:
                return (f"{list(ws)} sum to {math.fsum(ws)!r}; the '{self.name}' mean needs "
                        "weights that sum to 1 (e.g. [0.25, 0.25, 0.25, 0.25])")
        return None


# --------------------------------------------------------------------------- presets


class Preset(Component):
    """A named bundle of component choices and BLEU options.

    ``settings`` maps ``tokenizer``, ``counter``, ``brevity_penalty``, ``smoothing`` and
    ``mean`` to a name or ``{"name": ..., **options}``, and may set ``max_order``,
    ``lowercase``, ``weights``.
    """

    kind = "preset"
    plural = "presets"
    settings: ClassVar[Mapping[str, Any]]

    def foreign_signature(self, spec: Any, nrefs: int | str) -> str | None:
        """The signature string of the tool this preset reproduces, if ``spec`` is one the
        tool can express; ``None`` otherwise."""
        return None


def check_scale(smoother: Smoother, mean: Mean) -> None:
    if smoother.scale != mean.scale:
        raise ConfigError(
            f"smoothing '{smoother.name}' gives precisions on a 0-{smoother.scale} scale but mean "
            f"'{mean.name}' expects 0-{mean.scale}; choose a smoothing and mean of one family "
            "(see `evalfw plugins --all`)"
        )


__all__ = ["BrevityPenalty", "Counts", "Mean", "NgramCounter", "Precision", "Preset",
           "Smoothed", "Smoother", "check_scale"]
