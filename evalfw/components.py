"""The component contracts: what a tokenizer, counter, penalty, smoother, mean, preset,
reporter or bucketer must provide.

A component is a class with a unique ``name`` (written once, here on the class: the registry,
CLI choices, schema enums and signatures all derive from it), a ``version`` bumped whenever its
output could change, and a JSON Schema for its options. Components work on whole batches of
segments so that built-ins can vectorize.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.bleu.stats import ReferenceIndex, SegmentStats

EMPTY_OPTIONS: Mapping[str, Any] = MappingProxyType(
    {"type": "object", "properties": {}, "additionalProperties": False}
)

#: A precision value as a smoother returns it: a float, or an exact Fraction (NLTK keeps
#: rationals so that later arithmetic is exact).
Precision = float | Fraction | int


class Component(ABC):
    """Base of every pluggable component.

    Subclasses set ``name`` and may set ``version``, ``description`` and ``options_schema``
    (a JSON Schema for the keyword options ``__init__`` accepts; ``default`` values in it are
    filled in, so the recorded options are always complete).
    """

    kind: ClassVar[str] = "component"
    name: ClassVar[str]
    version: ClassVar[str] = "1"
    description: ClassVar[str] = ""
    options_schema: ClassVar[Mapping[str, Any]] = EMPTY_OPTIONS

    def __init__(self, **options: Any) -> None:
        from evalfw.plugin.options import resolve_options  # local: keeps jsonschema off import

        self.options: Mapping[str, Any] = MappingProxyType(
            resolve_options(type(self), dict(options))
        )

    def option(self, key: str) -> Any:
        return self.options[key]

    def describe(self) -> str:
        """``name@version`` plus options, as it appears in signatures."""
        text = f"{self.name}@{self.version}"
        if self.options:
            inner = ",".join(f"{k}={_fmt(v)}" for k, v in sorted(self.options.items()))
            text += f"[{inner}]"
        return text

    def __repr__(self) -> str:
        return f"<{self.kind} {self.describe()}>"


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "(" + ",".join(_fmt(v) for v in value) + ")"
    return str(value)


# --------------------------------------------------------------------------- tokenizers


class Tokenizer(Component):
    """Turns a batch of raw lines into token lists (one list per line)."""

    kind = "tokenizer"

    @abstractmethod
    def tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        """Tokenize every line of ``lines``; must return exactly ``len(lines)`` lists."""


# --------------------------------------------------------------------------- counting


class NgramCounter(Component):
    """Computes per-segment n-gram statistics (matches and totals per order).

    References are indexed once per test set (``index_references``) and shared by every
    system scored against them, which is where most of the time goes otherwise.
    """

    kind = "precision"

    @abstractmethod
    def index_references(
        self, references: Sequence[Sequence[Sequence[str] | None]], max_order: int
    ) -> ReferenceIndex:
        """Index reference streams: ``references[k][i]`` is reference k of segment i
        (``None`` when segment i has no k-th reference)."""

    @abstractmethod
    def count(self, hypotheses: Sequence[Sequence[str]], index: ReferenceIndex) -> SegmentStats:
        """Per-segment statistics of tokenized ``hypotheses`` against ``index``."""


# --------------------------------------------------------------------------- brevity penalty


class BrevityPenalty(Component):
    """Chooses the reference length of each segment and turns corpus lengths into a penalty."""

    kind = "brevity_penalty"

    @abstractmethod
    def choose_ref_len(self, hyp_len: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
        """Vectorized: ``ref_lens`` has shape (segments, references), -1 where absent."""

    @abstractmethod
    def penalty(self, hyp_len: int, ref_len: int) -> float | int:
        """The penalty factor for (corpus or segment) lengths ``hyp_len`` and ``ref_len``."""


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

    ``scale`` is 100 for the sacreBLEU family (percent precisions, as sacreBLEU computes
    them: rounding differs otherwise) and 1 for NLTK and the paper methods. A smoother only
    combines with a mean of the same scale.
    """

    kind = "smoothing"
    scale: ClassVar[int] = 1
    #: orders the last segment's statistics must cover (NLTK method5 reads order 5).
    needs_orders: ClassVar[int] = 0

    @abstractmethod
    def smooth(self, counts: Counts) -> Smoothed:
        """Precisions for orders 1..counts.max_order."""


# --------------------------------------------------------------------------- mean


class Mean(Component):
    """Combines smoothed precisions, the brevity penalty and weights into scores."""

    kind = "mean"
    scale: ClassVar[int] = 1

    @property
    def score_scale(self) -> int:
        """What a perfect score is: 100 (0-100 scores) or 1. Defaults to the precision scale;
        a mean that rescales its result (Moses' 100x, ``geometric`` with ``percent``) says so."""
        return self.scale

    @abstractmethod
    def combine(
        self,
        smoothed: Smoothed,
        counts: Counts,
        bp: float | int,
        weights: Sequence[Sequence[float]] | None,
    ) -> tuple[float | int, ...]:
        """One score per weight tuple (``weights=None``: uniform over the orders)."""


# --------------------------------------------------------------------------- presets


@dataclass(frozen=True, slots=True)
class ComponentChoice:
    """A component kind chosen by name with options, as in a config."""

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)


class Preset(Component):
    """A named bundle of component choices and BLEU options.

    ``settings`` maps ``tokenizer``, ``precision``, ``brevity_penalty``, ``smoothing``,
    ``mean`` to a name or ``{"name": ..., **options}``, and may set ``max_order``,
    ``lowercase``, ``weights``.
    """

    kind = "preset"
    settings: ClassVar[Mapping[str, Any]]

    def foreign_signature(self, spec: Any, nrefs: int) -> str | None:
        """The signature string of the tool this preset reproduces, if ``spec`` is one the
        tool can express; ``None`` otherwise."""
        return None


# --------------------------------------------------------------------------- reporters


class Reporter(Component):
    """Renders a run record (the JSON-shaped ``record.json`` mapping) as text."""

    kind = "reporter"
    extension: ClassVar[str] = "txt"

    @abstractmethod
    def render(self, record: Mapping[str, Any]) -> str:
        """The report text."""


# --------------------------------------------------------------------------- bucketers


class Bucketer(Component):
    """Assigns every segment to a bucket (for example by reference length)."""

    kind = "bucketer"

    @abstractmethod
    def assign(self, stats: SegmentStats, ref_len: np.ndarray) -> tuple[np.ndarray, list[str]]:
        """Bucket index per segment (-1: no bucket) and the bucket labels."""


COMPONENT_KINDS: tuple[type[Component], ...] = (
    Tokenizer,
    NgramCounter,
    BrevityPenalty,
    Smoother,
    Mean,
    Preset,
    Reporter,
    Bucketer,
)


def check_scale(smoother: Smoother, mean: Mean) -> None:
    if smoother.scale != mean.scale:
        raise ConfigError(
            f"smoothing '{smoother.name}' gives precisions on a 0-{smoother.scale} scale but mean "
            f"'{mean.name}' expects 0-{mean.scale}; choose a smoothing and mean of one family "
            "(see `evalfw plugins --all`)"
        )
