"""The border between evalfw and a metric plugin's code: every call into a metric, and every
value it returns, passes here.

A metric evalfw builds (:func:`build`: a run, ``evalfw score``, ``compare``, ``verify``, a
cluster worker) is *guarded* (:mod:`evalfw.plugin.boundary`, with the metric contract
:data:`CONTRACT`): each method of the contract is shadowed on the instance by a call that

- hands the plugin read-only views of evalfw's data: hypotheses and references as tuples,
  statistics as arrays it cannot write, a context whose source and scores are read-only;
- turns anything the plugin raises (MemoryError and RecursionError included; evalfw's own
  errors pass as they are) into one :class:`~evalfw.errors.PluginError` line naming the
  plugin, the class, the method and, for statistics and scores, the first segment that fails
  alone (callers add the test set and system);
- checks what it returns (:mod:`evalfw.metrics._returns`): statistics are 2-d int64 or
  float64 rows, one per segment, finite, with at most MAX_STATISTICS_COLUMNS columns (kept as
  a read-only copy); scores are finite real numbers within the metric's declared
  ``score_range``; signatures are printable strings; keys are hashable; definitions and what
  a record keeps are plain JSON; lengths are one finite number per segment.

So a value is refused where it enters, before anything is stored, and a stored version
always verifies where it was stored. The class attributes a metric is judged by (its
direction, scale, range, version) are checked when the plugin registers
(:func:`class_problem`) and again on the instance, whose properties may compute them.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from evalfw.errors import EvalfwError, PluginError
from evalfw.metrics import _returns as returns
from evalfw.metrics.base import Metric, SegmentLengths
from evalfw.plugin.boundary import (
    BoundaryError,
    Checked,
    Contract,
    Origin,
    call,
    checked,
    place,
    provider,
    raised,
    refused,
    who,
)
from evalfw.plugin.boundary import advice as _advice
from evalfw.plugin.boundary import guard as _guard

if TYPE_CHECKING:
    from evalfw.plugin.protocols import Components

#: how long an error spends finding the first segment that fails alone
LOCATE_SECONDS = 2.0


def _first_failing(metric: Metric, function: Callable[..., Any], args: tuple[Any, ...]
                   ) -> int | None:
    """The first segment whose statistics raise when computed alone (references given as
    streams only; the search stops after LOCATE_SECONDS)."""
    hypotheses, references, *rest = args
    if rest or not isinstance(references, (list, tuple)) or \
            not all(isinstance(r, (list, tuple)) for r in references):
        return None
    stop = time.monotonic() + LOCATE_SECONDS
    for i in range(len(hypotheses)):
        if time.monotonic() > stop:
            return None
        try:
            function(hypotheses[i:i + 1], [r[i:i + 1] for r in references], *rest)
        except (KeyboardInterrupt, MemoryError):
            raise
        except BoundaryError:  # a component inside refused this segment alone too
            return i
        except EvalfwError:
            continue  # a segment alone may lack what the whole test set has
        except BaseException:
            return i
    return None


def statistics_problem(value: Any, segments: int | None) -> str | None:
    """Why ``value`` is not rows a metric may return for ``segments`` segments (any number
    when None), or None: what a statistics cache entry is checked by."""
    rows = getattr(value, "shape", (0,))[:1] or (0,)
    try:
        returns.statistics(value, rows[0] if segments is None else segments)
    except returns.Refused as found:
        return found.reason
    return None


def _lengths(metric: Metric, value: Any, statistics: Any) -> SegmentLengths | None:
    if value is None:
        return None
    if not isinstance(value, SegmentLengths):
        raise returns.Refused(f"{type(value).__name__}, not SegmentLengths or None")
    n = len(statistics)
    hyp = None if value.hypothesis is None else returns.values(value.hypothesis, n, "lengths")
    return SegmentLengths(hyp, returns.values(value.reference, n, "lengths"))


def _range(metric: Metric) -> tuple[float | None, float | None] | None:
    return returns.score_range(getattr(metric, "score_range", None))
def _worst(metric: Metric, value: Any, statistics: Any) -> Any:
    """Worst rows: one per given row, of the same columns and dtype, rows the metric
    accepts."""
    value = returns.statistics(value, len(statistics))
    if value.shape != statistics.shape or value.dtype != statistics.dtype:
        raise returns.Refused(f"rows of shape {value.shape} and dtype {value.dtype} for rows "
                              f"of shape {statistics.shape} and dtype {statistics.dtype}")
    problem = metric.check_statistics(value)
    if problem is not None:
        raise returns.Refused(f"worst rows it refuses itself ({problem})")
    return value


def _result(metric: Metric, value: Any, *_: Any) -> Any:
    returns.within(returns.real(getattr(value, "score", None)), _range(metric))
    return value


def _first_failing_row(metric: Metric, function: Callable[..., Any], args: tuple[Any, ...]
                       ) -> int | None:
    """The first segment whose row of statistics alone makes ``function`` (a score) raise
    or return a value out of range (the search stops after LOCATE_SECONDS)."""
    statistics, *rest = args
    if getattr(statistics, "ndim", 0) != 2:
        return None
    bounds = _range(metric)
    stop = time.monotonic() + LOCATE_SECONDS
    for i in range(len(statistics)):
        if time.monotonic() > stop:
            return None
        try:
            value = function(statistics[i:i + 1], *rest)
            score = getattr(value, "score", value)
            returns.within(returns.real(score), bounds)
        except (KeyboardInterrupt, MemoryError):
            raise
        except BoundaryError:  # a component inside refused this row alone too
            return i
        except EvalfwError:
            continue
        except BaseException:
            return i
    return None


#: method -> check(metric, value, *the call's arguments) of what it returns
CHECKS: dict[str, Callable[..., Any]] = {
    "segment_statistics": lambda m, v, hyps, *_: returns.statistics(v, len(hyps)),
    "score": lambda m, v, *_: returns.within(returns.real(v), _range(m)),
    "sentence_score": lambda m, v, *_: returns.within(returns.real(v), _range(m)),
    "sentence_scores": lambda m, v, stats, *_: returns.all_within(
        returns.values(v, len(stats)), _range(m)),
    "score_rows": lambda m, v, sums, *_, **__: returns.all_within(
        returns.values(v, len(sums), "scores of summed rows", per_segment=False), _range(m),
        "scores of summed rows", per_segment=False),
    "prepare_references": lambda m, v, *_: v,
    "signature": lambda m, v, *_: returns.text(v, "a signature"),
    "foreign_signature": lambda m, v, *_: returns.text(v, "a signature", optional=True),
    "statistics_key": lambda m, v: returns.hashable(v),
    "references_key": lambda m, v: returns.hashable(v),
    "definition": lambda m, v: returns.definition(v, m.name),
    "lengths": _lengths,
    "result": _result,
    "record_fields": lambda m, v, *_: returns.plain_json(v, "what a record keeps"),
    "resolve_scale": lambda m, v, *_: returns.scale(v, optional=False),
    "check_statistics": lambda m, v, *_: returns.text(v, "a reason", optional=True),
    "worst_statistics": lambda m, v, stats, *_: _worst(m, v, stats),
}

#: attributes (and properties) a metric is judged by: name -> check
ATTRIBUTES: dict[str, Callable[[Any], Any]] = {
    "version": lambda v: returns.text(v, "a version string"),
    "higher_is_better": returns.flag,
    "score_scale": returns.scale,
    "score_range": returns.score_range,
    "display_name": lambda v: returns.text(v, "a name"),
    "length_unit": lambda v: returns.text(v, "a unit"),
    "wants_context": returns.flag,
    "reads_last_row": returns.flag,
    "penalisable": returns.flag,
}

#: the metric contract as the boundary applies it
CONTRACT = Contract(CHECKS, ATTRIBUTES, {
    "segment_statistics": _first_failing,
    **dict.fromkeys(("score", "sentence_score", "sentence_scores", "result"),
                    _first_failing_row),
})


def class_problem(cls: type[Metric]) -> str | None:
    """Why a metric class's attributes are not what evalfw judges numbers by, or None (a
    property is read on each instance, by :func:`guard`)."""
    for attribute, check in ATTRIBUTES.items():
        value = getattr(cls, attribute, None)
        if isinstance(value, property):
            continue
        try:
            check(value)
        except returns.Refused as found:
            return f"{attribute} is {found.reason}"
    return None


def guard(metric: Metric) -> Metric:
    """``metric`` with every contract method checked (idempotent)."""
    return _guard(metric, CONTRACT)  # type: ignore[no-any-return]


def build(entry: Any, options: Mapping[str, Any] | None, host: Components,
          definition: Mapping[str, Any] | None = None) -> Metric:
    """The metric of registry ``entry`` (its class and plugin) with ``options``, or rebuilt
    from a recorded ``definition``; guarded."""
    cls, origin = entry.cls, Origin(entry.cls, entry.plugin)
    if definition is not None:
        metric = call(origin, "from_definition", cls.from_definition, definition, host)
    else:
        metric = call(origin, "create", cls.create, copy.deepcopy(options), host=host)
    if not isinstance(metric, Metric):
        raise PluginError(f"{who(origin, 'create')} returned {type(metric).__name__}, not a "
                          "metric" + _advice(origin))
    object.__setattr__(metric, "_evalfw_plugin", entry.plugin)
    return guard(metric)


__all__ = ["build", "call", "Checked", "checked", "class_problem", "CONTRACT", "guard",
           "Origin", "place", "provider", "raised", "refused", "BoundaryError",
           "statistics_problem", "who"]
