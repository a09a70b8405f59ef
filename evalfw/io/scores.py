"""Reading precomputed per-segment scores (COMET, BLEURT, MetricX, ... computed elsewhere).

A score file holds one number per segment, under the same text policy as segment files
(:mod:`evalfw.io.text`: UTF-8, line ends, size), in one of three layouts chosen by the file
name:

- ``*.tsv``: tab-separated with a header row; ``column`` names the column to read;
- ``*.jsonl``: one JSON object per line; ``column`` names the key to read;
- anything else: one number per line (``column`` must not be given).

Every value must be a finite number, and the file must have exactly one value per segment;
anything else is an error naming the file, the line and what to do, never a plausible wrong
mean.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from typing import Any

from evalfw.errors import InputError
from evalfw.io.text import decode, display_path, read_bytes, split_lines


@dataclass(frozen=True, slots=True)
class ScoreFile:
    """The scores of one file and the facts a record keeps about it."""

    path: str
    scores: list[float]
    sha256: str
    bytes: int

    def facts(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256, "lines": len(self.scores),
                "bytes": self.bytes}


def layout(path: str | os.PathLike[str]) -> str:
    """``tsv``, ``jsonl`` or ``lines``, from the file name."""
    name = os.fspath(path).lower()
    return "tsv" if name.endswith(".tsv") else "jsonl" if name.endswith(".jsonl") else "lines"


def _number(text: Any, shown: str, line: int) -> float:
    if isinstance(text, bool) or not isinstance(text, (int, float, str)):
        raise InputError(f"{shown}:{line}: expected a number, got {text!r}")
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{shown}:{line}: expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise InputError(f"{shown}:{line}: the score {text!r} is not a finite number; every "
                         "segment needs a real score (recompute the scores of this file)")
    return value


class _DuplicateKey(ValueError):
    """A JSON object that names a key twice (json keeps the last value silently)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def read_scores(path: str | os.PathLike[str], column: str | None = None, *,
                segments: int | None = None, shown: str | None = None) -> ScoreFile:
    """The scores of ``path`` (see the module docstring); ``segments``: how many there must
    be."""
    shown = shown or display_path(path)
    data = read_bytes(path, shown)
    text, _ = decode(data, shown)
    lines = split_lines(text)
    kind = layout(path)
    if kind == "lines":
        if column is not None:
            raise InputError(f"{shown}: a column ({column!r}) is given but the file holds one "
                             "number per line; name a .tsv or .jsonl file, or give no column")
        scores = [_number(s.strip(), shown, i + 1) for i, s in enumerate(lines)]
    elif column is None:
        raise InputError(f"{shown}: a {kind.upper()} file needs the column to read; give its "
                         "name (column: ... in the config, --scores-column on the command line)")
    elif kind == "tsv":
        head = lines[0].split("\t") if lines else []
        if column not in head:
            raise InputError(f"{shown}:1: no column {column!r} in the header; its columns are: "
                             f"{', '.join(head) or 'none'}")
        if head.count(column) > 1:
            places = ", ".join(str(j + 1) for j, name in enumerate(head) if name == column)
            raise InputError(f"{shown}:1: the header names column {column!r} more than once "
                             f"(fields {places}); which one holds the scores is ambiguous: "
                             "rename the others")
        k = head.index(column)
        scores = []
        for i, row in enumerate(lines[1:], start=2):
            cells = row.split("\t")
            if len(cells) != len(head):
                raise InputError(f"{shown}:{i}: {len(cells)} fields but the header has "
                                 f"{len(head)}")
            scores.append(_number(cells[k], shown, i))
    else:
        scores = []
        for i, row in enumerate(lines, start=1):
            try:
                obj = json.loads(row, object_pairs_hook=_unique_keys)
            except json.JSONDecodeError as exc:
                raise InputError(f"{shown}:{i}: not a JSON object ({exc.msg})") from None
            except _DuplicateKey as exc:
                raise InputError(f"{shown}:{i}: the key {exc.args[0]!r} appears more than "
                                 "once in this line's object; which value holds the score is "
                                 "ambiguous") from None
            if not isinstance(obj, dict) or column not in obj:
                raise InputError(f"{shown}:{i}: no key {column!r} in this line's object")
            scores.append(_number(obj[column], shown, i))
    if segments is not None and len(scores) != segments:
        raise InputError(f"{shown}: {len(scores)} scores but the test set has {segments} "
                         "segments; a score file needs exactly one score per segment")
    return ScoreFile(shown, scores, hashlib.sha256(data).hexdigest(), len(data))


__all__ = ["ScoreFile", "layout", "read_scores"]
