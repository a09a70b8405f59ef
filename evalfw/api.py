"""Public scoring functions: any metric through :func:`metric` and :func:`corpus_score`,
and BLEU's ``corpus_bleu``, ``sentence_bleu``, ``sentence_scores``.

They follow sacreBLEU's call convention (a list of hypothesis strings and a list of reference
*streams*, ``references[k][i]`` = reference k of segment i) but check what sacreBLEU does not:
a length mismatch is an error, never a silent truncation. Options are those of
:func:`evalfw.metrics.bleu.spec.resolve_spec` (``preset``, ``tokenizer``, ``smoothing``, ...).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from evalfw.errors import InputError
from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.result import BleuScore
from evalfw.metrics.bleu.spec import BleuSpec, resolve_spec

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric
    from evalfw.metrics.bleu.stats import SegmentStats


@functools.cache
def default_host() -> PluginHost:
    """The host used when a caller passes none: built-ins plus installed plugins, built on
    first use (never at import). Pass ``host=`` to control plugins explicitly."""
    from evalfw.host.host import PluginHost

    return PluginHost.create()


def metric(name: str = "bleu", *, host: PluginHost | None = None, **options: Any) -> Metric:
    """The registered metric ``name`` with ``options`` (a plugin's as well as a built-in's)::

        m = evalfw.metric("bleu", preset="nltk")
        stats = m.segment_statistics(hypotheses, [refs])   # one row per segment
        m.score(stats), m.sentence_scores(stats), m.signature(1)
    """
    host = host or default_host()
    return host.metric(name, options)


def corpus_score(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]],
                 name: str = "bleu", *, host: PluginHost | None = None, **options: Any) -> Any:
    """The corpus result of metric ``name`` (its ``.score``, ``.signature``, ``str()``)."""
    check_inputs(hypotheses, references)
    m = metric(name, host=host, **options)
    nrefs = _nrefs(references)
    return m.result(m.segment_statistics(hypotheses, references), nrefs)


def _nrefs(references: Sequence[Sequence[str | None]]) -> int | str:
    """References per segment, or ``"var"`` when it varies (sacreBLEU's rule)."""
    counts = {sum(stream[i] is not None for stream in references)
              for i in range(len(references[0]))}
    return counts.pop() if len(counts) == 1 else "var"


def check_inputs(hypotheses: Any, references: Any) -> None:
    """Reject the shapes sacreBLEU silently mis-scores."""
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise InputError("hypotheses must be a list of strings (one per segment), "
                         f"got {type(hypotheses).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence) or not references:
        raise InputError("references must be a non-empty list of reference streams "
                         "(references[k][i] is reference k of segment i)")
    n = len(hypotheses)
    for k, stream in enumerate(references):
        if isinstance(stream, str) or not isinstance(stream, Sequence):
            raise InputError(f"reference stream {k + 1} must be a list of strings, "
                             f"got {type(stream).__name__}; wrap a single stream as [stream]")
        if len(stream) != n:
            hint = (" (did you pass one list of references per segment? pass one list per "
                    "reference stream instead)" if len(references) == n else "")
            raise InputError(f"{n} hypotheses but reference stream {k + 1} has {len(stream)} "
                             f"segments{hint}")
    for i, h in enumerate(hypotheses):
        if not isinstance(h, str):
            raise InputError(f"hypothesis {i + 1} is {type(h).__name__}, not a string")
    for i in range(n):
        if all(stream[i] is None for stream in references):
            raise InputError(f"segment {i + 1} has no reference (every stream has None there)")


def _spec(host: PluginHost | None, options: dict[str, Any]) -> BleuSpec:
    return resolve_spec(host or default_host(), options)


def compute_stats(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]],
                  spec: BleuSpec) -> SegmentStats:
    check_inputs(hypotheses, references)
    index = engine.index_references(spec, references)
    return engine.segment_stats(spec, hypotheses, index)


def corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], *,
                host: PluginHost | None = None, **options: Any) -> BleuScore:
    """Corpus BLEU of ``hypotheses`` against reference streams.

    >>> corpus_bleu(["the cat sat"], [["the cat sat"]]).score
    100.00000000000004
    """
    spec = _spec(host, options)
    return engine.corpus_score(spec, compute_stats(hypotheses, references, spec))


def sentence_bleu(hypothesis: str, references: Sequence[str], *,
                  host: PluginHost | None = None, **options: Any) -> BleuScore:
    """BLEU of one segment; ``references`` is a list of strings (its references)."""
    if isinstance(references, str):
        raise InputError("sentence_bleu takes a list of reference strings, not one string")
    return corpus_bleu([hypothesis], [[r] for r in references], host=host, **options)


def sentence_scores(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], *,
                    host: PluginHost | None = None, **options: Any) -> list[BleuScore]:
    """Score every segment at once (the references are indexed a single time)."""
    spec = _spec(host, options)
    return engine.sentence_scores(spec, compute_stats(hypotheses, references, spec))


def sentence_score_values(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]],
                          *, host: PluginHost | None = None, **options: Any) -> Any:
    """Every segment's score as a float64 numpy array, without building result objects
    (for MBR decoding, RL rewards, filtering); equal to ``[s.score for s in sentence_scores(...)]``."""
    spec = _spec(host, options)
    return engine.sentence_score_values(spec, compute_stats(hypotheses, references, spec))


__all__ = [
    "check_inputs", "compute_stats", "corpus_bleu", "corpus_score", "default_host", "metric",
    "sentence_bleu", "sentence_score_values", "sentence_scores",
]
