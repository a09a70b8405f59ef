"""What BLEU's components may return, checked where it enters the engine: a misbehaving
plugin component gives an error naming it (and the segment, at sentence level) instead of a
plausible wrong number.

Each contract bounds its values (:mod:`evalfw.metrics.bleu.components`): precisions from 0 to
the smoothing's ``max_precision`` (1 unless it declares more) on its scale, a brevity penalty
from 0 to 1, scores from 0 to what the mean's ``max_score`` allows for those precisions.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from evalfw.errors import EvalfwError
from evalfw.metrics.bleu.components import Smoothed
from evalfw.plugin.boundary import BoundaryError

if TYPE_CHECKING:
    from evalfw.metrics.bleu.spec import BleuSpec
    from evalfw.plugin.component import Component

#: how far above its bound a value may be: exp(log(100)) is 100.00000000000004
TOLERANCE = 1e-9


def fail(comp: Component, what: str, segment: int | None = None) -> BoundaryError:
    """The error for a component that raised or returned a refused value."""
    plugin = getattr(comp, "_evalfw_plugin", None)  # set by the registry that built it
    origin = f" from {plugin.provider}" if plugin is not None else ""
    return BoundaryError(f"{comp.kind} '{comp.name}'{origin} {what}",
                         "; report this to the plugin's author or choose another component",
                         segment)


def call(comp: Component, method: str, *args: Any, segment: int | None = None) -> Any:
    """``comp.method(*args)``, a component's code: what it raises is attributed to it."""
    try:
        return getattr(comp, method)(*args)
    except EvalfwError:
        raise
    except Exception as exc:  # third-party code: attribute the failure
        raise fail(comp, f"raised {type(exc).__name__}: {exc} in {method}()", segment) from exc


def _bound(comp: Component, what: str, value: Any) -> float | None:
    """A bound a component declares: None or a finite number >= 0."""
    if value is None:
        return None
    if not isinstance(value, (int, float, Fraction)) or isinstance(value, bool) \
            or not 0 <= value < math.inf:
        raise fail(comp, f"declares {what} {value!r}; expected a number >= 0 or None")
    return float(value)


@functools.lru_cache(maxsize=256)
def limits(spec: BleuSpec) -> tuple[float | None, float | None]:
    """The largest precision (on the smoothing's scale) and the largest score ``spec``'s
    components may give, None where they declare no bound (a spec is immutable: specs hash
    by identity)."""
    precision = _bound(spec.smoothing, "max_precision",
                       call(spec.smoothing, "__getattribute__", "max_precision"))
    score = _bound(spec.mean, "max_score",
                   call(spec.mean, "max_score", precision, spec.weights))
    return (None if precision is None else precision * spec.smoothing.scale, score)


def above(value: Any, bound: float | None) -> bool:
    """Whether ``value`` exceeds ``bound`` (None: no bound) by more than rounding."""
    return bound is not None and value > bound * (1 + TOLERANCE)


def check_smoothed(spec: BleuSpec, sm: Any, segment: int | None) -> Smoothed:
    """A smoothing's output: ``max_order`` finite precisions from 0 to its bound."""
    comp = spec.smoothing
    if not isinstance(sm, Smoothed) or len(sm.precisions) != spec.max_order:
        raise fail(comp, f"returned {sm!r}; expected Smoothed with {spec.max_order} precisions",
                   segment)
    bound = limits(spec)[0]
    for p in sm.precisions:
        if not isinstance(p, (int, float, Fraction)) or isinstance(p, bool) or p < 0 or (
            isinstance(p, float) and not math.isfinite(p)
        ):
            raise fail(comp, f"returned an invalid precision {p!r}", segment)
        if above(p, bound):
            raise fail(comp, f"returned the precision {float(p)!r}, above the largest it "
                             f"declares ({bound!r} on its 0-{comp.scale} scale: max_precision)",
                       segment)
    return sm


def check_penalty(spec: BleuSpec, bp: Any, segment: int | None) -> Any:
    """A brevity penalty: a real number from 0 to 1."""
    if not isinstance(bp, (int, float, Fraction)) or isinstance(bp, bool) or not 0 <= bp <= 1:
        raise fail(spec.brevity_penalty, f"returned the penalty {bp!r}; a brevity penalty is "
                                         "a number from 0 to 1", segment)
    return bp


def check_scores(spec: BleuSpec, scores: tuple[Any, ...], segment: int | None) -> None:
    """A mean's scores: one per weight tuple, finite, from 0 to the components' bound."""
    expected = 1 if spec.weights is None else len(spec.weights)
    if len(scores) != expected:
        raise fail(spec.mean, f"returned {len(scores)} scores for {expected} weight tuples",
                   segment)
    bound = limits(spec)[1]
    for s in scores:
        if not isinstance(s, (int, float)) or isinstance(s, bool) or math.isnan(s) or s < 0 \
                or math.isinf(s):
            raise fail(spec.mean, f"returned an invalid score {s!r}", segment)
        if above(s, bound):
            raise fail(spec.mean, f"returned the score {s!r}, above the largest its components "
                                  f"allow ({bound!r})", segment)


__all__ = ["above", "call", "check_penalty", "check_scores", "check_smoothed",
           "fail", "limits", "TOLERANCE"]
