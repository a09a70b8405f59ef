"""Reading human judgements: MQM annotations in Google's layout, per-segment score tables and
system-level score tables.

Every file is read a block of lines at a time under the text policy of :mod:`evalfw.io.text`
(UTF-8, bounded size, sha256 of what was read). Anything that could turn into a plausible
wrong number is an error naming the file and line: a missing column, a row with another
number of fields, a score that is not a finite number (or beyond ±1e100), a system and
segment judged twice in a table, an annotation whose severity has no weight.

**MQM** (:func:`read_mqm`): a tab-separated file with a header naming at least ``system``,
``seg_id``, ``rater``, ``source``, ``target``, ``category`` and ``severity`` (``doc`` is
kept when present), one row per error annotation (a segment without errors has a row with
category ``No-error``), fields split at tabs with no quoting, as Google writes them. An
error's weight is the most specific entry of ``weights`` for ``severity[/category[/sub]]``
(Google's rule: ``Major/Non-translation!`` before ``Major``); a rater's score of a segment is
the sum of the weights of its annotations (added exactly, whatever their order), and the
score of a system's segment is the mean over its raters: MQM points, 0 is perfect, lower is
better. The file also holds the texts: the source and each system's target with the error
marks ``<v>`` and ``</v>`` removed, which must be the same on every row of a segment.

**Tables** (:func:`read_table`): one row per judgement, columns chosen by name (with a
header) or by number from 1, fields split at tabs, commas (with CSV quoting) or runs of
whitespace. A segment table has system, segment and score columns (segment ids are
integers); a system table has system and score. Cells listed as ``missing`` (``None``,
``NA``, ``nan``, empty) are judgements not made.

``names`` maps the file's system names to the test set's (``Online-W.2: Online-W``); a name
mapped to ``None`` is left out.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evalfw.errors import InputError
from evalfw.io.lines import LineReader
from evalfw.io.text import display_path, open_regular, raise_hint
from evalfw.limits import MAX_ABS_SCORE, max_input_bytes

#: the weights Google publishes for its MQM data (Freitag et al. 2021)
DEFAULT_WEIGHTS: Mapping[str, float] = {
    "Major": 5.0, "Minor": 1.0, "Neutral": 0.0, "No-error": 0.0,
    "Major/Non-translation": 25.0, "Major/Non-translation!": 25.0,
    "Minor/Fluency/Punctuation": 0.1,
}
MQM_COLUMNS = ("system", "seg_id", "rater", "source", "target", "category", "severity")
DELIMITERS = ("tab", "comma", "whitespace")
MISSING = ("None", "NA", "nan", "")
MARKS = ("<v>", "</v>")


@dataclass(frozen=True, eq=False)
class Read:
    """What is recorded about a file read: path, sha256, lines and bytes."""

    path: str
    sha256: str
    lines: int
    bytes: int

    def facts(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256, "lines": self.lines,
                "bytes": self.bytes}


@dataclass(frozen=True, eq=False)
class MqmFile:
    """An MQM file as read (see the module docstring)."""

    read: Read
    #: systems in the order of their first row, after ``names``
    systems: tuple[str, ...]
    #: every segment id of the file, ascending
    segment_ids: tuple[int, ...]
    #: system -> segment id -> MQM points (mean over raters)
    scores: dict[str, dict[int, float]]
    #: system -> segment id -> raters
    raters: dict[str, dict[int, int]]
    source: dict[int, str]
    targets: dict[str, dict[int, str]]
    docs: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Table:
    """A score table as read: per system the scores of its segments (``segments``) or its
    one system-level score (``system``), and how many cells were marked missing."""

    read: Read
    systems: tuple[str, ...]
    segments: dict[str, dict[int, float]] | None
    system: dict[str, float] | None
    missing: int


def _rows(path: str | os.PathLike[str], shown: str) -> Iterator[tuple[int, str]]:
    limit = max_input_bytes()
    with open_regular(path, shown, limit) as fh:
        reader = LineReader(fh, shown, limit, raise_hint("EVALFW_MAX_INPUT_BYTES"))
        yield from reader
        yield -1, reader.sha256  # the end: the digest (and bytes) of what was read
        yield -2, str(reader.bytes)


def _number(text: str, shown: str, line: int, what: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise InputError(f"{shown}:{line}: {what} {text[:40]!r} is not a number") from None
    if not math.isfinite(value) or abs(value) > MAX_ABS_SCORE:
        raise InputError(f"{shown}:{line}: {what} {text[:40]!r} is not a finite number of "
                         f"magnitude at most {MAX_ABS_SCORE:g}")
    return value


def _integer(text: str, shown: str, line: int, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise InputError(f"{shown}:{line}: {what} {text[:40]!r} is not an integer") from None


def _rename(name: str, names: Mapping[str, str | None] | None, shown: str = "",
            line: int = 0) -> str | None:
    """``name`` after ``names``; a name that could not be shown as it is (control
    characters, path separators, empty) is refused."""
    if not name.strip() or any(c < " " or "\x7f" <= c <= "\x9f" or c in "/\\" for c in name):
        raise InputError(f"{shown}:{line}: the system name {name[:40]!r} is empty or holds a "
                         "control character or a path separator; rename it in the file")
    return names.get(name, name) if names else name


def weight_of(weights: Mapping[str, float], severity: str, category: str) -> float | None:
    """The most specific weight for ``severity/category`` (None: none applies)."""
    items = [severity, *category.split("/")]
    while items:
        key = "/".join(items)
        if key in weights:
            return float(weights[key])
        items.pop()
    return None


def unmark(text: str) -> str:
    """``text`` without MQM's error marks."""
    for mark in MARKS:
        text = text.replace(mark, "")
    return text


def read_mqm(path: str | os.PathLike[str], weights: Mapping[str, float] | None = None,
             names: Mapping[str, str | None] | None = None, *,
             shown: str | None = None) -> MqmFile:
    """The judgements and texts of an MQM file (see the module docstring)."""
    shown = shown or display_path(path)
    weights = DEFAULT_WEIGHTS if weights is None else weights
    head: list[str] = []
    col: dict[str, int] = {}
    errors: dict[tuple[str, int, str], list[float]] = {}
    order: dict[str, None] = {}
    source: dict[int, tuple[str, int]] = {}
    targets: dict[str, dict[int, tuple[str, int]]] = {}
    docs: dict[int, str] = {}
    sha, size, count = "", 0, 0
    for line, text in _rows(path, shown):
        if line < 0:
            sha, size = (text, size) if line == -1 else (sha, int(text))
            continue
        count = line
        cells = text.split("\t")
        if not head:
            head = cells
            lacking = [c for c in MQM_COLUMNS if c not in head]
            if lacking:
                raise InputError(f"{shown}:1: not an MQM file in Google's layout: no column "
                                 f"{', '.join(lacking)} in the header (it has: "
                                 f"{', '.join(head[:12])})")
            col = {c: head.index(c) for c in (*MQM_COLUMNS, "doc") if c in head}
            continue
        if len(cells) != len(head):
            raise InputError(f"{shown}:{line}: {len(cells)} fields but the header has "
                             f"{len(head)} (fields are split at tabs, without quoting)")
        system = _rename(cells[col["system"]], names, shown, line)
        if system is None:
            continue
        seg = _integer(cells[col["seg_id"]], shown, line, "seg_id")
        severity, category = cells[col["severity"]], cells[col["category"]]
        w = weight_of(weights, severity, category)
        if w is None:
            raise InputError(f"{shown}:{line}: no weight for severity {severity!r} (category "
                             f"{category!r}); add one under weights, e.g. {{{severity}: 1}}")
        order.setdefault(system)
        errors.setdefault((system, seg, cells[col["rater"]]), []).append(w)
        _same(source, seg, unmark(cells[col["source"]]), shown, line, f"segment {seg}",
              "source")
        _same(targets.setdefault(system, {}), seg, unmark(cells[col["target"]]), shown, line,
              f"system {system!r}, segment {seg}", "target")
        if "doc" in col:
            docs.setdefault(seg, cells[col["doc"]])
    if not head:
        raise InputError(f"{shown}: no header line")
    if not errors:
        raise InputError(f"{shown}: no annotation rows")
    per_rater: dict[tuple[str, int], list[float]] = {}
    for (system, seg, _rater), ws in errors.items():
        per_rater.setdefault((system, seg), []).append(math.fsum(ws))
    scores: dict[str, dict[int, float]] = {s: {} for s in order}
    raters: dict[str, dict[int, int]] = {s: {} for s in order}
    for (system, seg), sums in sorted(per_rater.items(), key=lambda kv: kv[0][1]):
        scores[system][seg] = math.fsum(sums) / len(sums)
        raters[system][seg] = len(sums)
    return MqmFile(Read(shown, sha, count, size), tuple(order), tuple(sorted(source)), scores,
                   raters, {s: t for s, (t, _) in sorted(source.items())},
                   {s: {g: t for g, (t, _) in sorted(v.items())} for s, v in targets.items()},
                   docs)


def mqm_systems(path: str | os.PathLike[str], names: Mapping[str, str | None] | None = None,
                *, shown: str | None = None) -> tuple[str, ...]:
    """The systems of an MQM file in the order of their first row, after ``names`` (a quick
    pass that reads only the system column)."""
    shown = shown or display_path(path)
    column = -1
    order: dict[str, None] = {}
    for line, text in _rows(path, shown):
        if line < 0:
            continue
        cells = text.split("\t")
        if column < 0:
            if "system" not in cells:
                raise InputError(f"{shown}:1: not an MQM file in Google's layout: no column "
                                 "system in the header")
            column = cells.index("system")
            continue
        if column < len(cells):
            name = _rename(cells[column], names, shown, line)
            if name is not None:
                order.setdefault(name)
    return tuple(order)


def _same(seen: dict[int, tuple[str, int]], key: int, text: str, shown: str, line: int,
          what: str, field_: str) -> None:
    """Every row of a segment (of a system) must carry the same text."""
    first = seen.setdefault(key, (text, line))
    if first[0] != text:
        raise InputError(f"{shown}:{line}: the {field_} of {what} differs from line {first[1]} "
                         "(with the <v> marks removed); the rows of a segment must have one "
                         f"{field_} text")


def _split(text: str, delimiter: str) -> list[str]:
    if delimiter == "tab":
        return text.split("\t")
    if delimiter == "whitespace":
        return text.split()
    return next(csv.reader([text]))


def _column(spec: str | int, head: list[str] | None, shown: str, what: str) -> int:
    if isinstance(spec, int):
        return spec - 1
    if head is None:
        raise InputError(f"{shown}: the {what} column is named {spec!r} but the file has no "
                         "header (header: false); give its number, counted from 1")
    if spec not in head:
        raise InputError(f"{shown}:1: no column {spec!r} for the {what} in the header; its "
                         f"columns are: {', '.join(head[:12])}")
    return head.index(spec)


def read_table(path: str | os.PathLike[str], *, system: str | int, score: str | int,
               segment: str | int | None = None, delimiter: str = "tab",
               header: bool = True, missing: Sequence[str] = MISSING,
               names: Mapping[str, str | None] | None = None,
               shown: str | None = None) -> Table:
    """A segment table (``segment`` given) or a system table (see the module docstring)."""
    shown = shown or display_path(path)
    if delimiter not in DELIMITERS:
        raise InputError(f"{shown}: delimiter {delimiter!r}; choose one of "
                         f"{', '.join(DELIMITERS)}")
    absent = set(missing)
    head: list[str] | None = None
    cols: list[int] = []
    segments: dict[str, dict[int, float]] | None = {} if segment is not None else None
    systems: dict[str, float] | None = None if segment is not None else {}
    seen: dict[tuple[str, int | None], int] = {}
    order: dict[str, None] = {}
    sha, size, count, gaps = "", 0, 0, 0
    for line, text in _rows(path, shown):
        if line < 0:
            sha, size = (text, size) if line == -1 else (sha, int(text))
            continue
        count = line
        if not text.strip():
            continue
        cells = _split(text, delimiter)
        if header and head is None:
            head = cells
            continue
        if not cols:
            cols = [_column(system, head, shown, "system"), _column(score, head, shown, "score"),
                    *([_column(segment, head, shown, "segment")] if segment is not None else [])]
        if max(cols) >= len(cells):
            raise InputError(f"{shown}:{line}: {len(cells)} fields; the columns read go up to "
                             f"number {max(cols) + 1}")
        name = _rename(cells[cols[0]], names, shown, line)
        if name is None:
            continue
        seg = _integer(cells[cols[2]], shown, line, "segment id") if segment is not None \
            else None
        key = (name, seg)
        if key in seen:
            where = f"system {name!r}" + (f", segment {seg}" if seg is not None else "")
            raise InputError(f"{shown}:{line}: {where} is judged again (first on line "
                             f"{seen[key]}); one judgement per row is read, average them first")
        seen[key] = line
        order.setdefault(name)
        cell = cells[cols[1]]
        if cell.strip() in absent:
            gaps += 1
            continue
        value = _number(cell, shown, line, "score")
        if segments is not None and seg is not None:
            segments.setdefault(name, {})[seg] = value
        elif systems is not None:
            systems[name] = value
    if not order:
        raise InputError(f"{shown}: no rows")
    return Table(Read(shown, sha, count, size), tuple(order), segments, systems, gaps)


__all__ = ["DEFAULT_WEIGHTS", "DELIMITERS", "MISSING", "MqmFile", "MQM_COLUMNS", "mqm_systems",
           "read_mqm",
           "Read", "read_table", "Table", "unmark", "weight_of"]
