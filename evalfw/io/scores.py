"""Reading precomputed per-segment scores (COMET, BLEURT, MetricX, ... computed elsewhere).

A score file holds one number per segment, under the same text policy as segment files
(:mod:`evalfw.io.text`: UTF-8, line ends, size), in one of three layouts chosen by the file
name:

- ``*.tsv``: tab-separated with a header row; ``column`` names the column to read;
- ``*.jsonl``: one JSON object per line; ``column`` names the key to read;
- anything else: one number per line (``column`` must not be given).

Every value must be a finite number of magnitude at most :data:`MAX_ABS_SCORE`, and the file
must have exactly one value per segment; anything else is an error naming the file, the line
and what to do, never a plausible wrong mean. The file is read a block of lines at a time
(:mod:`evalfw.io.lines`) into a float64 array: memory is 8 bytes per score plus one block,
whatever the file's size.
"""

from __future__ import annotations

import json
import math
import os
import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evalfw.errors import InputError
from evalfw.io.lines import LineReader
from evalfw.io.text import display_path, open_regular, raise_hint
from evalfw.limits import MAX_ABS_SCORE, max_input_bytes

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True, slots=True, eq=False)
class ScoreFile:
    """The scores of one file (float64, one per segment) and the facts a record keeps."""

    path: str
    scores: np.ndarray
    sha256: str
    bytes: int

    def facts(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256, "lines": len(self.scores),
                "bytes": self.bytes}


def layout(path: str | os.PathLike[str]) -> str:
    """``tsv``, ``jsonl`` or ``lines``, from the file name."""
    name = os.fspath(path).lower()
    return "tsv" if name.endswith(".tsv") else "jsonl" if name.endswith(".jsonl") else "lines"


def _shown(value: Any) -> str:
    """A value as messages show it: at most 40 characters (a 5,000-digit number is not)."""
    text = value if isinstance(value, str) else repr(value)
    return repr(value) if len(text) <= 40 else f"{text[:30]!r}... ({len(text):,} characters)"


#: a number as text: ASCII decimal digits with an optional sign, point and exponent, as JSON
#: and the TSV readers of other tools take it (Python's float() also takes "1_000", Arabic-
#: Indic and full-width digits); nan and inf are words it knows, refused below by name
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                      r"|[+-]?(?:nan|inf|infinity)", re.ASCII | re.IGNORECASE)


#: characters float() reads in a number that no JSON or TSV reader does
_NOT_DECIMAL = frozenset("_\x0b\x0c")


def _number(value: Any, shown: str, line: int) -> float:
    if isinstance(value, str):
        text = value.strip(" \t\r")
        # digits beyond a float's range give inf: refused below
        number = float(text) if _DECIMAL.fullmatch(text) else None
    else:
        # JSON numbers arrive as floats (see _json); true, null, lists and objects do not
        number = value if isinstance(value, float) else None
    if number is None:
        raise InputError(f"{shown}:{line}: expected a number, got {_shown(value)}")
    # "inf", "nan" (and a JSON number beyond range, read as inf) are not finite; digits beyond
    # a float's range are a number too large (below)
    digits = isinstance(value, str) and any(c.isdigit() for c in value)
    if math.isnan(number) or (math.isinf(number) and not digits):
        raise InputError(f"{shown}:{line}: the score {_shown(value)} is not a finite number; "
                         "every segment needs a real score (recompute the scores of this file)")
    if abs(number) > MAX_ABS_SCORE:
        raise InputError(f"{shown}:{line}: the score {_shown(value)} is beyond "
                         f"±{MAX_ABS_SCORE:g}, where sums of scores overflow; rescale the "
                         "scores of this file")
    return number


def _json_number(text: str) -> float | str:
    """A JSON number (or NaN, Infinity) as a float, straight from its digits: Python's int()
    refuses 4,300 digits and more, and float(int) raises beyond a float's range. One that is
    not finite stays text, so the message shows what the file says."""
    value = float(text)
    return value if math.isfinite(value) else text


class _DuplicateKey(ValueError):
    """A JSON object that names a key twice (json keeps the last value silently)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


#: one decoder for every line (``json.loads`` with hooks builds a decoder per call)
_DECODER = json.JSONDecoder(parse_int=_json_number, parse_constant=_json_number,
                            object_pairs_hook=_unique_keys)


def _json(text: str, shown: str, line: int) -> Any:
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{shown}:{line}: not a JSON object ({exc.msg})") from None
    except _DuplicateKey as exc:
        raise InputError(f"{shown}:{line}: the key {exc.args[0]!r} appears more than once in "
                         "this line's object; which value holds the score is ambiguous") from None
    except RecursionError:  # the parser recurses once per level of nesting
        raise InputError(f"{shown}:{line}: JSON nested too deeply; a score line is one flat "
                         "object") from None


Block = tuple[int, list[Any]]  # the line number of the first value, the values of a block


def _values(blocks: Iterator[tuple[int, list[str]]], kind: str, column: str | None,
            shown: str) -> Iterator[Block]:
    """The raw values of every block of lines (one per line), by layout."""
    if kind == "lines":
        if column is not None:
            raise InputError(f"{shown}: a column ({column!r}) is given but the file holds one "
                             "number per line; name a .tsv or .jsonl file, or give no column")
        yield from blocks
        return
    if column is None:
        raise InputError(f"{shown}: a {kind.upper()} file needs the column to read; give its "
                         "name (column: ... in the config, --scores-column on the command line)")
    if kind == "tsv":
        yield from _tsv(blocks, column, shown)
        return
    for first, lines in blocks:
        values = []
        for i, row in enumerate(lines, first):
            obj = _json(row, shown, i)
            if not isinstance(obj, dict) or column not in obj:
                raise InputError(f"{shown}:{i}: no key {column!r} in this line's object")
            value = obj[column]
            if type(value) not in (float, str):  # true, null, lists, objects
                raise InputError(f"{shown}:{i}: expected a number, got {_shown(value)}")
            values.append(value)
        yield first, values


def _tsv(blocks: Iterator[tuple[int, list[str]]], column: str, shown: str) -> Iterator[Block]:
    head: list[str] | None = None
    k = 0
    for first, lines in blocks:
        if head is None:
            head = lines[0].split("\t")
            if column not in head:
                raise InputError(f"{shown}:1: no column {column!r} in the header; its columns "
                                 f"are: {', '.join(head) or 'none'}")
            if head.count(column) > 1:
                places = ", ".join(str(j + 1) for j, name in enumerate(head) if name == column)
                raise InputError(f"{shown}:1: the header names column {column!r} more than "
                                 f"once (fields {places}); which one holds the scores is "
                                 "ambiguous: rename the others")
            k = head.index(column)
            first, lines = first + 1, lines[1:]
        rows = [row.split("\t") for row in lines]
        width = len(head)
        if any(len(cells) != width for cells in rows):
            i, cells = next((i, c) for i, c in enumerate(rows, first) if len(c) != width)
            raise InputError(f"{shown}:{i}: {len(cells)} fields but the header has {width}")
        yield first, [cells[k] for cells in rows]


def _numbers(first: int, values: list[Any], shown: str) -> array[float]:
    """The values of a block as floats, each checked; converted and checked as a whole
    first, value by value (for the message) only when something is wrong."""
    import numpy as np

    numbers = array("d")
    text = "".join(v for v in values if isinstance(v, str))
    # float() takes more than ASCII decimals ("1_000", other scripts' digits): such text goes
    # value by value, where only ASCII decimal forms are numbers
    plain = text.isascii() and not _NOT_DECIMAL.intersection(text)
    try:
        numbers.extend(map(float, values))
        checked = np.frombuffer(numbers, dtype=np.float64) if numbers else None
        good = plain and (checked is None or bool((np.abs(checked) <= MAX_ABS_SCORE).all()))
    except ValueError:  # NaN above: False
        good = False
    if not good:  # each value by itself: the first bad one raises, naming its line
        numbers = array("d", (_number(value, shown, i) for i, value in enumerate(values, first)))
    return numbers


def read_scores(path: str | os.PathLike[str], column: str | None = None, *,
                segments: int | None = None, shown: str | None = None) -> ScoreFile:
    """The scores of ``path`` (see the module docstring); ``segments``: how many there must
    be."""
    import numpy as np

    shown = shown or display_path(path)
    limit = max_input_bytes()
    scores = array("d")
    with open_regular(path, shown, limit) as fh:
        reader = LineReader(fh, shown, limit, raise_hint("EVALFW_MAX_INPUT_BYTES"))
        for first, values in _values(reader.blocks(), layout(path), column, shown):
            scores.extend(_numbers(first, values, shown))
    if segments is not None and len(scores) != segments:
        raise InputError(f"{shown}: {len(scores)} scores but the test set has {segments} "
                         "segments; a score file needs exactly one score per segment")
    return ScoreFile(shown, np.frombuffer(scores, dtype=np.float64), reader.sha256,
                     reader.bytes)


__all__ = ["ScoreFile", "layout", "read_scores"]
