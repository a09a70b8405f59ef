"""What a metric's methods may return: one check per kind of value, each giving the reason a
value is refused (and the first offending segment, where there is one) or the value as evalfw
uses it from then on. :mod:`evalfw.metrics.boundary` applies them to every call into a metric.
"""

from __future__ import annotations

import json
import math
import numbers
import sys
from collections.abc import Hashable, Mapping
from typing import Any

from evalfw.limits import MAX_ABS_COUNT, MAX_ABS_SCORE, MAX_RECORD_DEPTH, MAX_STATISTICS_COLUMNS
from evalfw.metrics.base import STATISTICS_DTYPES
from evalfw.plugin.boundary import Refused

#: how far beyond a declared bound a score may be, relative to the bound: a rounding, not an
#: error. Model metrics compute in float32, where the cosine of two equal embeddings can be
#: 1.0000002 (float32's epsilon is 1.2e-7); float64 arithmetic gives 100.00000000000004
TOLERANCE = 1e-6


def _kind(value: Any) -> str:
    np = sys.modules.get("numpy")  # an array can only come from a loaded numpy
    if np is not None and isinstance(value, np.ndarray):
        return f"a {value.ndim}-d {value.dtype} array of shape {value.shape}"
    return f"{type(value).__name__} {_short(value)}"


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__: the type is enough
        return "(unprintable)"
    return text if len(text) <= 60 else text[:57] + "..."


def real(value: Any) -> float:
    """A finite real number (a Python or numpy int or float, not a bool), as float."""
    np = sys.modules.get("numpy")  # class attributes are checked before numpy is needed
    if isinstance(value, bool) or (np is not None and isinstance(value, np.bool_)) \
            or not isinstance(value, numbers.Real):
        raise Refused(f"{_kind(value)}, not a real number")
    try:
        out = float(value)
    except (OverflowError, ValueError, TypeError):
        raise Refused(f"{type(value).__name__} too large for a float") from None
    if not math.isfinite(out):
        raise Refused(f"{out!r}, not a finite number")
    return out


def _first_bad_row(array: Any) -> int | None:
    import numpy as np

    bad = ~np.isfinite(array)
    if not bad.any():
        return None
    return int(np.argwhere(bad)[0][0])


def statistics(value: Any, segments: int) -> Any:
    """Rows of statistics: a 2-d int64 or float64 array, one row per segment, 1 to
    MAX_STATISTICS_COLUMNS columns, every value finite and at most MAX_ABS_SCORE in
    magnitude (sums stay finite); returned as a read-only copy, so
    nothing the plugin keeps can change what evalfw stores."""
    import numpy as np

    if type(value) is not np.ndarray:
        raise Refused(f"{_kind(value)}; statistics must be a numpy array")
    if value.ndim != 2:
        raise Refused(f"{_kind(value)}; statistics must be 2-dimensional (one row per segment)")
    if value.dtype.name not in STATISTICS_DTYPES:
        raise Refused(f"{_kind(value)}; statistics must be int64 or float64")
    rows, columns = value.shape
    if rows != segments:
        raise Refused(f"{rows} rows for {segments} segments; one row per segment")
    if not 1 <= columns <= MAX_STATISTICS_COLUMNS:
        raise Refused(f"{columns} columns; statistics have 1 to {MAX_STATISTICS_COLUMNS:,}")
    if value.dtype.kind == "f":
        row = _first_bad_row(value)
        if row is not None:
            raise Refused("NaN or infinity", row)
    import numpy as np

    bound = MAX_ABS_SCORE if value.dtype.kind == "f" else MAX_ABS_COUNT
    big = (value > bound) | (value < -bound)
    if big.any():  # sums over segments (and resamples) must stay finite and exact
        row = int(np.argwhere(big)[0][0])
        raise Refused(f"a value of magnitude {float(np.abs(value[row]).max()):.3g}, beyond "
                      f"the {float(bound):.3g} statistics may hold (their sums over any number "
                      "of segments must stay exact and finite)", row)
    # the same numbers, in the byte order a record stores
    out = value.astype(value.dtype.newbyteorder("="), copy=True)
    out.flags.writeable = False
    return out


def values(value: Any, count: int, what: str = "scores", per_segment: bool = True) -> Any:
    """One finite number per row: a 1-d array (or list) of ``count`` numbers, as float64
    (rows are segments when ``per_segment``, else resamples)."""
    import numpy as np

    if not isinstance(value, (np.ndarray, list, tuple)):
        raise Refused(f"{_kind(value)}; expected an array of {count} {what}")
    try:
        array = np.asarray(value)
    except (ValueError, TypeError, OverflowError):
        raise Refused(f"{_kind(value)}; expected an array of {count} {what}") from None
    if array.ndim != 1 or len(array) != count:
        raise Refused(f"{_kind(array)}; expected {count} {what}")
    if array.dtype.kind not in "iuf":
        raise Refused(f"{_kind(array)}; {what} must be numbers")
    array = array.astype(np.float64)
    row = _first_bad_row(array)
    if row is not None and not per_segment:
        raise Refused(f"NaN or infinity among the {what} (first at row {row + 1} of {count})")
    if row is not None:
        raise Refused(f"NaN or infinity among the {what}", row)
    return array


def score_range(value: Any) -> tuple[float | None, float | None] | None:
    """A declared range of scores: None, or ``(low, high)``, each a finite number or None
    (unbounded), low <= high."""
    if value is None:
        return None
    if not isinstance(value, tuple) or len(value) != 2:
        raise Refused(f"{_kind(value)}, not None or a (low, high) tuple")
    low, high = (None if v is None else real(v) for v in value)
    if low is not None and high is not None and low > high:
        raise Refused(f"({low!r}, {high!r}), whose low end is above its high end")
    return low, high


def _outside(values: Any, bounds: tuple[float | None, float | None]) -> Any:
    import numpy as np

    low, high = bounds
    bad = np.zeros(np.shape(values), dtype=bool)
    if low is not None:
        bad |= values < low - abs(low) * TOLERANCE
    if high is not None:
        bad |= values > high + abs(high) * TOLERANCE
    return bad


def _range_text(bounds: tuple[float | None, float | None]) -> str:
    low, high = bounds
    return f"{'-inf' if low is None else repr(low)} to {'inf' if high is None else repr(high)}"


def outside(value: float, bounds: tuple[float | None, float | None] | None) -> bool:
    """Whether ``value`` lies outside ``bounds`` (None: none declared) by more than rounding
    (a float32 cosine of 1.0000002 is 1)."""
    if bounds is None:
        return False
    low, high = bounds
    return low is not None and value < low - abs(low) * TOLERANCE or \
        high is not None and value > high + abs(high) * TOLERANCE


def outside_any(values: Any, bounds: tuple[float | None, float | None] | None) -> Any:
    """Per value of an array, whether it lies outside ``bounds`` (as :func:`outside`)."""
    import numpy as np

    bad = np.zeros(np.shape(values), dtype=bool)
    if bounds is not None:
        bad |= _outside(values, bounds)
    return bad


def within(value: float, bounds: tuple[float | None, float | None] | None,
           what: str = "score") -> float:
    """``value``, refused when it lies outside the metric's declared ``bounds``."""
    if outside(value, bounds):
        assert bounds is not None
        raise Refused(f"the {what} {value!r}, outside the metric's score_range "
                      f"({_range_text(bounds)})")
    return value


def all_within(values: Any, bounds: tuple[float | None, float | None] | None,
               what: str = "scores", per_segment: bool = True) -> Any:
    """``values`` (a float64 array), refused at the first one outside ``bounds``."""
    import numpy as np

    if bounds is None:
        return values
    bad = _outside(values, bounds)
    if bad.any():
        row = int(np.argwhere(bad)[0][0])
        found = f"{values[row]!r} among the {what}, outside the metric's score_range " \
                f"({_range_text(bounds)})"
        if per_segment:
            raise Refused(found, row)
        raise Refused(f"{found} (first at row {row + 1} of {len(values)})")
    return values


def text(value: Any, what: str = "a string", optional: bool = False) -> Any:
    """A string without control characters (they would drive a terminal)."""
    from evalfw.names import unprintable

    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise Refused(f"{_kind(value)}, not {what}")
    bad = unprintable(value)
    if bad:
        raise Refused(f"{what} holding the control character {bad}")
    return value


def hashable(value: Any) -> Hashable:
    """A hashable value with a printable repr (cache keys are made of it)."""
    try:
        hash(value)
        repr(value)
    except Exception as exc:  # TypeError for unhashable; anything from a hostile __hash__
        raise Refused(f"{type(value).__name__} that cannot be hashed ({exc})") from None
    checked: Hashable = value
    return checked


def plain_json(value: Any, what: str) -> Any:
    """Plain JSON data (dicts with string keys, lists, strings, finite numbers, booleans,
    None), nested at most MAX_RECORD_DEPTH deep; tuples and mappings become lists and dicts."""

    def walk(item: Any, depth: int) -> Any:
        if depth > MAX_RECORD_DEPTH:
            raise Refused(f"{what} nested more than {MAX_RECORD_DEPTH} deep")
        if item is None or isinstance(item, (bool, str)):
            return item
        if isinstance(item, int) and type(item) is int:
            if abs(item) > 2**63:
                raise Refused(f"{what} holding an integer beyond 64 bits")
            return item
        if type(item) is float:
            if not math.isfinite(item):
                raise Refused(f"{what} holding {item!r}")
            return item
        if isinstance(item, Mapping):
            if not all(isinstance(k, str) for k in item):
                raise Refused(f"{what} with a key that is not a string")
            return {k: walk(v, depth + 1) for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return [walk(v, depth + 1) for v in item]
        raise Refused(f"{what} holding {_kind(item)}, which is not plain JSON data")

    out = walk(value, 0)
    json.dumps(out, allow_nan=False)  # cannot fail now: the walk allowed JSON types only
    return out


def definition(value: Any, name: str) -> dict[str, Any]:
    """What a record keeps of a metric: ``{"name": <its name>, "version": str, "options":
    {...}}`` in plain JSON."""
    found = plain_json(value, "a definition")
    if not isinstance(found, dict):
        raise Refused(f"{_kind(value)}, not a mapping")
    if found.get("name") != name:
        raise Refused(f"a definition named {_short(found.get('name'))}, not '{name}'")
    if not isinstance(found.get("version"), str):
        raise Refused(f"a definition whose version is {_short(found.get('version'))}, "
                      "not a string")
    if not isinstance(found.get("options", {}), dict):
        raise Refused("a definition whose options are not a mapping")
    return found


def scale(value: Any, optional: bool = True) -> float | None:
    """A score scale: a finite positive number (None: not declared)."""
    if value is None and optional:
        return None
    out = real(value)
    if out <= 0:
        raise Refused(f"{out!r}, not a positive number")
    return out


def flag(value: Any) -> bool:
    """A bool (numpy's too), never a truthy string such as "no"."""
    np = sys.modules.get("numpy")
    if isinstance(value, bool) or (np is not None and isinstance(value, np.bool_)):
        return bool(value)
    raise Refused(f"{_kind(value)}, not True or False")


__all__ = ["all_within", "definition", "flag", "hashable", "outside", "outside_any",
           "plain_json", "real", "Refused", "scale", "score_range", "statistics", "text",
           "TOLERANCE", "values", "within"]
