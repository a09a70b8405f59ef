"""Reading per-segment labels: documents, domains, anything a segment belongs to.

A label file has one row per segment of its test set, under the text policy of segment files
(:mod:`evalfw.io.text`: UTF-8, line ends, size limit), in one of two layouts:

- a TSV whose first line is a header (it has a tab, or is a single column name such as
  ``doc_id``): columns by name, e.g. ``line``, ``doc_id``, ``domain``. A ``line`` column, when
  present, must number the segments 1, 2, 3, ... in order, so rows cannot be misaligned;
- one label per line, no header (for example a document id per line).

Every row must have a value in every column, and the file exactly one row per segment;
anything else is an error naming the file, the line and what to do.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evalfw.errors import InputError
from evalfw.io.text import TextFile, read_segments

#: the column a label file without header holds
PLAIN = ""
#: header names that mark a one-column file as a TSV with a header
_HEADERS = ("doc_id", "domain", "label")


def _shown(value: str) -> str:
    """A value from a file, as a message shows it: quoted, control characters escaped, cut."""
    text = value if len(value) <= 60 else value[:57] + "..."
    return repr(text)


@dataclass(frozen=True, eq=False)
class LabelTable:
    """The columns of a label file (``PLAIN`` for a file without header) and the facts a
    record keeps about it."""

    file: TextFile
    columns: Mapping[str, Sequence[str]]

    @property
    def path(self) -> str:
        return self.file.path

    def facts(self) -> dict[str, Any]:
        return self.file.facts()

    def column(self, name: str | None, what: str) -> list[str]:
        """The values of column ``name`` (None: the file's only column without header, or its
        ``doc_id`` column)."""
        if name is None:
            for key in (PLAIN, "doc_id"):
                if key in self.columns:
                    return list(self.columns[key])
            raise InputError(f"{self.path}: {what} needs a doc_id column (or one id a line "
                             f"without header); its columns are: {self._names()}")
        if name not in self.columns:
            raise InputError(f"{self.path}: no column {_shown(name)} for {what}; its columns "
                             f"are: {self._names()}")
        return list(self.columns[name])

    def _names(self) -> str:
        return ", ".join(_shown(c) for c in self.columns if c != PLAIN) or \
            "none (one value a line, no header)"


def read_labels(path: str | os.PathLike[str], segments: int, what: str) -> LabelTable:
    """The label file at ``path`` for a test set of ``segments`` segments (``what`` names its
    role in messages, e.g. "the documents of test set 'en-zh'")."""
    text = read_segments(path)
    lines = text.lines
    header = bool(lines) and ("\t" in lines[0] or lines[0].strip() in _HEADERS)
    rows = lines[1:] if header else lines
    if len(rows) != segments:
        extra = " (besides its header line)" if header else ""
        raise InputError(f"{text.path}: {len(rows)} rows{extra} for {what}, which has "
                         f"{segments} segments; give one row per segment, in segment order")
    if not header:
        for i, value in enumerate(rows):
            if not value.strip():
                raise InputError(f"{text.path}:{i + 1}: empty label for {what}; every "
                                 "segment needs one")
        return LabelTable(text, {PLAIN: [v.strip() for v in rows]})
    names = [n.strip() for n in lines[0].split("\t")]
    if len(set(names)) != len(names) or not all(names):
        raise InputError(f"{text.path}:1: the header must name each column once, got "
                         f"{', '.join(_shown(n) for n in names)}")
    columns: dict[str, list[str]] = {n: [] for n in names}
    for i, row in enumerate(rows, start=2):
        fields = row.split("\t")
        if len(fields) != len(names):
            raise InputError(f"{text.path}:{i}: {len(fields)} fields, the header has "
                             f"{len(names)}; separate the columns by one tab each")
        for name, value in zip(names, fields):
            if not value.strip():
                raise InputError(f"{text.path}:{i}: column {_shown(name)} is empty; every "
                                 "segment needs a value")
            columns[name].append(value.strip())
    if "line" in columns:
        expected = [str(k) for k in range(1, segments + 1)]
        for i, (got, want) in enumerate(zip(columns["line"], expected), start=2):
            if got != want:
                raise InputError(f"{text.path}:{i}: column 'line' says {_shown(got)}, the row "
                                 f"is segment {want}; keep the rows in segment order")
    return LabelTable(text, columns)


__all__ = ["LabelTable", "PLAIN", "read_labels"]
