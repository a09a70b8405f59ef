"""The border between evalfw and a metric plugin's code: every call into a metric, and every
value it returns, passes here.

A metric evalfw builds (:func:`build`: a run, ``evalfw score``, ``compare``, ``verify``, a
cluster worker) is *guarded*: each method of the metric contract is shadowed on the instance
by a :class:`Checked` call that

- turns anything the plugin raises (MemoryError and RecursionError included; evalfw's own
  errors pass as they are) into one :class:`~evalfw.errors.PluginError` line naming the
  plugin, the class, the method and, for statistics, the first segment that fails alone;
- checks what it returns (:mod:`evalfw.metrics._returns`): statistics are 2-d int64 or
  float64 rows, one per segment, finite, with at most MAX_STATISTICS_COLUMNS columns; scores
  are finite real numbers; signatures are printable strings; keys are hashable; definitions
  and what a record keeps are plain JSON; lengths are one finite number per segment.

So a value is refused where it enters, before anything is stored, and a stored version
always verifies where it was stored. The class attributes a metric is judged by (its
direction, scale, version) are checked when the plugin registers (:func:`class_problem`) and
again on the instance, whose properties may compute them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from evalfw.errors import EvalfwError, PluginError
from evalfw.metrics import _returns as returns
from evalfw.metrics.base import Metric, SegmentLengths

if TYPE_CHECKING:
    from evalfw.plugin.protocols import Components

#: how long an error spends finding the first segment that fails alone
LOCATE_SECONDS = 2.0


class Origin:
    """A metric class with the plugin it came from, for messages about a metric that is not
    built yet (its ``create`` raised)."""

    def __init__(self, cls: type[Metric], plugin: Any) -> None:
        self.cls = cls
        self._evalfw_plugin = plugin


def provider(metric: Any) -> str:
    """The plugin a metric (or metric class) comes from, as messages name it."""
    info = getattr(metric, "_evalfw_plugin", None)
    if info is not None:
        return str(info.provider)
    return f"the plugin of module {_class(metric).__module__}"


def _class(metric: Any) -> type[Any]:
    if isinstance(metric, Origin):
        return metric.cls
    return metric if isinstance(metric, type) else type(metric)


def who(metric: Any, method: str) -> str:
    """``<plugin>: metric '<name>' (<module>.<class>).<method>``."""
    cls = _class(metric)
    name = getattr(cls, "name", "?")
    # a plugin file's module has a made-up name: the provider names its file already
    where = cls.__qualname__ if cls.__module__.startswith("evalfw_local_plugin_") \
        else f"{cls.__module__}.{cls.__qualname__}"
    return f"{provider(metric)}: metric '{name}' ({where}).{method}"


def _one_line(exc: BaseException) -> str:
    try:
        text = " ".join(str(exc).split())
    except Exception:  # a hostile __str__
        text = ""
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _advice(metric: Any) -> str:
    info = getattr(metric, "_evalfw_plugin", None)
    name = info.name if info is not None else "NAME"
    return f"; nothing was stored: fix the plugin or disable it (--disable-plugin {name})"


class BoundaryError(PluginError):
    """Plugin code raised, or returned a value evalfw refuses: ``what`` happened, at the
    0-based ``segment`` when one segment is to blame (its number counted from ``offset``, so
    a caller computing a shard can say where in the test set it is)."""

    def __init__(self, what: str, advice: str = "", segment: int | None = None,
                 offset: int = 0) -> None:
        self.parts = (what, advice, segment, offset)
        at = "" if segment is None else f" (first at segment {segment + offset + 1})"
        super().__init__(f"{what}{at}{advice}")

    def shifted(self, offset: int) -> BoundaryError:
        """The same error, for segments counted from ``offset``."""
        what, advice, segment, _ = self.parts
        return BoundaryError(what, advice, segment, offset)

    def __reduce__(self) -> Any:  # from a worker process, with its parts
        return (BoundaryError, self.parts)


def raised(metric: Any, method: str, exc: BaseException, segment: int | None = None
           ) -> BoundaryError:
    """The error for ``exc`` raised by plugin code in ``method``; when it came from deeper
    plugin code than the metric's own (a component of another plugin), that code is named."""
    from evalfw.plugin.guard import culprit

    where = culprit(exc.__traceback__)
    if where is not None and not where.startswith(_class(metric).__module__ + " "):
        return BoundaryError(f"{who(metric, method)} raised {_one_line(exc)} in {where}",
                             "; nothing was stored: fix or disable the plugin of that code "
                             "(--disable-plugin NAME)", segment)
    return BoundaryError(f"{who(metric, method)} raised {_one_line(exc)}", _advice(metric),
                         segment)


def refused(metric: Any, method: str, found: returns.Refused) -> BoundaryError:
    """The error for a value ``method`` returned that evalfw refuses."""
    return BoundaryError(f"{who(metric, method)} returned {found.reason}", _advice(metric),
                         found.segment)


def call(metric: Any, method: str, function: Callable[..., Any], *args: Any,
         locate: Callable[[], int | None] | None = None, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``, a plugin's code: whatever it raises becomes one
    PluginError naming ``method`` (``locate()`` finds the first failing segment)."""
    try:
        return function(*args, **kwargs)
    except (EvalfwError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # MemoryError, RecursionError, SystemExit from plugin code
        where = None
        if locate is not None and not isinstance(exc, MemoryError):
            try:
                where = locate()
            except BaseException:  # locating is a courtesy; the first error is the one
                where = None
        raise raised(metric, method, exc, where) from exc


def checked(metric: Any, method: str, value: Any, check: Callable[..., Any], *args: Any) -> Any:
    """``check(value, *args)``, refusing the value in the name of ``method``."""
    try:
        return check(value, *args)
    except returns.Refused as found:
        raise refused(metric, method, found) from None


class Checked:
    """A metric method as evalfw calls it (see the module docstring): the plugin's method,
    then ``check(value, *args, **kwargs)`` on what it returned."""

    def __init__(self, metric: Metric, method: str) -> None:
        self.metric = metric
        self.method = method

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        metric, method = self.metric, self.method
        function = getattr(type(metric), method).__get__(metric)
        locate = (lambda: _first_failing(metric, function, args)) \
            if method == "segment_statistics" else None
        value = call(metric, method, function, *args, locate=locate, **kwargs)
        try:
            return CHECKS[method](metric, value, *args, **kwargs)
        except returns.Refused as found:
            raise refused(metric, method, found) from None


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
    returns.real(getattr(value, "score", None))
    return value


#: method -> check(metric, value, *the call's arguments) of what it returns
CHECKS: dict[str, Callable[..., Any]] = {
    "segment_statistics": lambda m, v, hyps, *_: returns.statistics(v, len(hyps)),
    "score": lambda m, v, *_: returns.real(v),
    "sentence_score": lambda m, v, *_: returns.real(v),
    "sentence_scores": lambda m, v, stats, *_: returns.values(v, len(stats)),
    "score_rows": lambda m, v, sums, *_, **__: returns.values(v, len(sums), "scores of "
                                                              "summed rows", per_segment=False),
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
    "display_name": lambda v: returns.text(v, "a name"),
    "length_unit": lambda v: returns.text(v, "a unit"),
    "wants_context": returns.flag,
    "reads_last_row": returns.flag,
    "penalisable": returns.flag,
}


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
    if isinstance(vars(metric).get("score"), Checked):
        return metric
    for attribute, check in ATTRIBUTES.items():
        value = call(metric, attribute, getattr, metric, attribute, None)
        checked(metric, attribute, value, check)
    for method in CHECKS:
        object.__setattr__(metric, method, Checked(metric, method))
    return metric


def build(entry: Any, options: Mapping[str, Any] | None, host: Components,
          definition: Mapping[str, Any] | None = None) -> Metric:
    """The metric of registry ``entry`` (its class and plugin) with ``options``, or rebuilt
    from a recorded ``definition``; guarded."""
    cls, origin = entry.cls, Origin(entry.cls, entry.plugin)
    if definition is not None:
        metric = call(origin, "from_definition", cls.from_definition, definition, host)
    else:
        metric = call(origin, "create", cls.create, options, host=host)
    if not isinstance(metric, Metric):
        raise PluginError(f"{who(origin, 'create')} returned {type(metric).__name__}, not a "
                          "metric" + _advice(origin))
    object.__setattr__(metric, "_evalfw_plugin", entry.plugin)
    return guard(metric)


__all__ = ["build", "call", "class_problem", "Checked", "checked", "guard", "Origin", "provider",
           "raised", "refused", "BoundaryError", "statistics_problem", "who"]
