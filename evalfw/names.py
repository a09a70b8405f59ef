"""Names and paths as evalfw accepts and shows them: the one rule for the characters a
terminal, a report or a spreadsheet would not show as themselves.

A system, test set or metric name, a path or a signature can come from a config, a file
name matched by a glob, a record, a plugin or the command line. Wherever it comes from:

- :func:`unprintable` finds its first control, format or bidi character (ESC, NUL, U+202E
  RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, a line separator, a lone surrogate
  from a file name that is not UTF-8), which input checks refuse;
- :func:`shown` escapes those characters (``\\x1b``, ``\\u202e``) wherever a name is printed,
  so nothing read from a record or a file name drives a terminal or reorders a line;
- :func:`csv_text` makes a text cell of a CSV file inert in a spreadsheet, as the
  spreadsheet-safe CSV writers do (OWASP's "CSV injection"): a cell starting with ``=``, ``+``,
  ``-``, ``@``, a tab or a carriage return gets a leading ``'``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

#: Unicode categories a terminal does not print as themselves: controls (Cc), format and
#: bidi controls (Cf), line and paragraph separators (Zl, Zp), surrogates (Cs: a file name
#: that is not valid UTF-8 decodes to lone surrogates), private use (Co), unassigned (Cn)
HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"))

#: what a spreadsheet reads as the start of a formula (and tab and CR, which some split on)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _hidden(char: str) -> bool:
    if " " <= char <= "~":  # printable ASCII, the common case
        return False
    return unicodedata.category(char) in HIDDEN_CATEGORIES


def unprintable(text: str) -> str | None:
    """The first character of ``text`` a terminal would not print as itself, as
    ``U+XXXX``; or None."""
    if text.isascii() and text.isprintable():
        return None
    for char in text:
        if _hidden(char):
            return f"U+{ord(char):04X}"
    return None


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown(text: object, quote: bool = False) -> str:
    """``text`` as it may be printed: every character :func:`unprintable` would name
    escaped (``\\x1b``, ``\\u202e``); with ``quote``, in single quotes."""
    value = str(text)
    if not (value.isascii() and value.isprintable()):
        value = "".join(_escape(c) if _hidden(c) else c for c in value)
    return f"'{value}'" if quote else value


def printable_data(value: Any) -> Any:
    """``value`` (plain JSON data, a record) with every string, keys included, as
    :func:`shown` prints it: what a report renders from it shows names as they are."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {shown(k) if isinstance(k, str) else k: printable_data(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [printable_data(v) for v in value]
    return value


def csv_text(text: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


__all__ = ["csv_text", "FORMULA_STARTS", "HIDDEN_CATEGORIES", "printable_data", "shown",
           "unprintable"]
