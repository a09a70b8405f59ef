"""``json.dumps(d, indent=N, ensure_ascii=False)`` of a flat dictionary without importing
:mod:`json`: the drop-in's JSON line of a score (sacreBLEU prints it that way) is all a plain
``evalfw-sacrebleu`` run writes as JSON, and the :mod:`json` package imports :mod:`re` for its
decoder, a fifth of that command's own start-up. Strings are escaped by the same C function
:mod:`json` uses (``_json.encode_basestring``), numbers are written as :mod:`json` writes them;
``tests/compat/test_jsonout.py`` compares the two."""

from __future__ import annotations

TYPE_CHECKING = False  # not from typing: the drop-in command line starts without it
if TYPE_CHECKING:
    from typing import Any

__all__ = ["dumps_flat"]

_INF = float("inf")


def _number(value: float) -> str:
    # json.encoder's floatstr with allow_nan=True: repr, except for the three non-finite values
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)


def dumps_flat(d: dict[str, Any], indent: int) -> str:
    """``json.dumps(d, indent=indent, ensure_ascii=False)`` for a dictionary of str keys whose
    values are str, float, int, bool or None (anything else: :mod:`json` itself)."""
    try:
        from _json import encode_basestring  # the C accelerator json.encoder uses
    except ImportError:  # an interpreter without it: json's own Python code
        encode_basestring = None
    if encode_basestring is None or not all(
            type(v) in (str, float, int, bool) or v is None for v in d.values()) or not all(
            type(k) is str for k in d):
        import json

        return json.dumps(d, indent=indent, ensure_ascii=False)
    if not d:
        return "{}"
    pad = " " * indent
    items = []
    for key, value in d.items():
        if type(value) is str:
            text = encode_basestring(value)
        elif value is None:
            text = "null"
        elif value is True:
            text = "true"
        elif value is False:
            text = "false"
        elif type(value) is float:
            text = _number(value)
        else:
            text = int.__repr__(value)
        items.append(f"{pad}{encode_basestring(key)}: {text}")
    return "{\n" + ",\n".join(items) + "\n}"
