"""Reading references and systems as sacreBLEU 2.6.0's command line reads them.

- Files (``.gz`` decompressed) in the ``-e`` encoding, split at ``\\n`` only (a lone ``\\r``
  stays inside its line), each line stripped of trailing whitespace.
- ``-nr N``: each reference line (stripped first) splits at its first N-1 tabs into exactly N
  references; another count stops with status 17.
- Standard input (no ``-i``): universal newlines (a lone ``\\r`` ends a line); tab-separated
  columns are systems, as many as the first line has. The first line's fields keep their own
  trailing whitespace, later fields are stripped; a line with another number of fields stops
  with status 17.
- ``-i`` files are named by their path as given; a path given twice stops, except in a paired
  test, where a repeat of the baseline is skipped.
"""

from __future__ import annotations

import gzip
import io
import sys
from collections.abc import Callable, Iterable

from evalfw.compat.sacrebleu._messages import Stop

__all__ = ["read_lines", "read_references", "read_stdin_systems", "read_system_files"]


def _text(path: str, encoding: str) -> str:
    if path.endswith(".gz"):
        with gzip.open(path, mode="rt", encoding=encoding, newline="\n") as f:
            return f.read()
    with open(path, encoding=encoding, newline="\n") as f:
        return f.read()


def read_lines(path: str, encoding: str = "utf-8") -> list[str]:
    """The lines of a file, each stripped at the end."""
    lines = _text(path, encoding).split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def read_references(groups: Iterable[list[str]], num_refs: int, encoding: str,
                    streams: int) -> list[list[str]]:
    """Reference streams from the files of each group (one group per test set, concatenated);
    ``streams``: how many streams there are to fill."""
    full: list[list[str]] = [[] for _ in range(streams)]
    for files in groups:
        for k, path in enumerate(files):
            lines = read_lines(path, encoding)
            if num_refs == 1:
                full[k].extend(lines)
                continue
            for number, line in enumerate(lines, 1):
                fields = line.split("\t", num_refs - 1)
                if len(fields) != num_refs:
                    raise Stop(17, f"FATAL: line {number}: expected {num_refs} fields, but "
                                   f"found {len(fields)}.")
                for j, field in enumerate(fields):
                    full[j].append(field)
    return full


def read_stdin_systems(encoding: str) -> list[list[str]]:
    """The systems of standard input's tab-separated columns."""
    stream = io.TextIOWrapper(sys.stdin.buffer, encoding=encoding)
    first = stream.readline().rstrip().split("\t")
    systems = [[field] for field in first]
    for line in stream:
        fields = line.rstrip().split("\t")
        if len(fields) != len(systems):
            raise Stop(17, "FATAL: the number of tab-delimited fields in the input stream "
                           "differ across lines.")
        for system, field in zip(systems, fields):
            system.append(field.rstrip())
    return systems


def read_system_files(paths: list[str], encoding: str, paired: bool,
                      info: Callable[[str], None]) -> tuple[list[list[str]], list[str]]:
    """The systems of ``-i`` files and their names."""
    systems: list[list[str]] = []
    names: list[str] = []
    for path in paths:
        if path in names:
            if paired and path == names[0]:
                info(f"Ignoring {path!r} as it was also given as the baseline.")
                continue
            raise Stop(1, f"{path!r} already used to name a system.",
                       "Make sure to have a different basename for each system.")
        systems.append(read_lines(path, encoding))
        names.append(path)
    return systems, names
