"""Reading segment files (references, systems, sources): one policy for ``score`` and ``run``.

A segment file is UTF-8 text with one segment per line and ``"\\n"`` as the only line
separator, as sacreBLEU reads files; a final newline does not start an extra segment.
Anything that could turn into a plausible wrong number is rejected with
``file:line: what; what to do``; anything harmless is accepted and recorded as a warning:

============================  ==========================================================
case                          policy
============================  ==========================================================
missing / directory / unreadable   rejected (InputError)
empty file (0 bytes)          rejected: an empty system would score 0 silently
invalid UTF-8                 rejected, naming line and byte offset
NUL byte                      rejected (binary or UTF-16 file)
UTF-8 BOM                     stripped, warning (sacreBLEU keeps it inside the first token)
CRLF line ends                the CR is removed, warning (sacreBLEU's rstrip drops it too)
lone CR inside a line         kept (it acts as whitespace, as in sacreBLEU), warning
CR-only line ends             rejected: the file would read as one segment
empty lines                   accepted, counted, warning
very long lines (10 MB+)      accepted whole, never truncated
looks tokenized (system)      accepted, warning (>= 100 lines ending in " .", as sacreBLEU)
line counts differ            rejected, naming both files and both counts
============================  ==========================================================
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from evalfw.errors import EvalfwError, InputError
from evalfw.limits import max_input_bytes

BOM = "\ufeff"
#: sacreBLEU's threshold for its "looks tokenized" warning
TOKENIZED_THRESHOLD = 100


@dataclass(frozen=True, slots=True)
class DataWarning:
    """Something accepted in an input file that a reader of the results should know."""

    file: str
    kind: str
    message: str
    count: int = 1
    first_line: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "kind": self.kind, "message": self.message,
                               "count": self.count}
        if self.first_line is not None:
            out["first_line"] = self.first_line
        return out

    def __str__(self) -> str:
        line = f":{self.first_line}" if self.first_line is not None else ""
        return f"{self.file}{line}: {self.message}"


@dataclass(frozen=True, slots=True)
class TextFile:
    """A segment file as read: its lines plus the facts a record keeps about it."""

    path: str  # as the user wrote it (or relative to the current directory)
    lines: list[str]
    sha256: str
    bytes: int
    warnings: list[DataWarning] = field(default_factory=list)

    def facts(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256, "lines": len(self.lines),
                "bytes": self.bytes}


def display_path(path: str | os.PathLike[str]) -> str:
    """A path as shown in messages and records: relative to the current directory when the
    config layer made it absolute (records must not leak home directories)."""
    text = os.fspath(path)
    if os.path.isabs(text):
        try:
            return os.path.relpath(text)
        except ValueError:  # another drive on Windows
            return text
    return text


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def read_bytes(path: str | os.PathLike[str], shown: str, *, limit: int | None = None,
               error: type[EvalfwError] = InputError,
               variable: str | None = "EVALFW_MAX_INPUT_BYTES", what: str = "file",
               missing: str = "check the path (relative paths in a config are relative to "
                              "the config file)",
               ) -> bytes:
    """A regular file's bytes, at most ``limit`` (default :func:`evalfw.limits.max_input_bytes`).

    Devices, FIFOs and sockets are refused before a byte is read (``/dev/zero`` never ends; a
    FIFO without a writer would wait forever: it is opened non-blocking), and the size is
    enforced while reading, so a file growing under evalfw cannot exhaust memory either.
    ``missing`` says what to do when the file does not exist.
    """
    limit = max_input_bytes() if limit is None else limit
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise error(f"{shown}: {what} not found; {missing}") from None
    except PermissionError:
        raise error(f"{shown}: permission denied; make the file readable") from None
    except OSError as exc:
        raise error(f"{shown}: cannot read: {exc.strerror or exc}") from None
    info = os.fstat(fd)
    for test, kind in _KINDS:
        if test(info.st_mode):
            os.close(fd)
            raise error(f"{shown}: is {kind}, not a regular file; give a text file's path "
                        "(or - to read standard input where a command allows it)")
    with os.fdopen(fd, "rb") as fh:
        if info.st_size > limit:  # refused before reading (a sparse file costs no disk)
            raise error(f"{shown}: is {info.st_size:,} bytes, more than the limit of "
                        f"{limit:,}{_raise_hint(variable)}")
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise error(f"{shown}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{shown}: larger than the limit of {limit:,} bytes"
                    f"{_raise_hint(variable)}")
    return data


def _raise_hint(variable: str | None) -> str:
    if variable is None:
        return "; the limit is fixed (a config names its data files, it does not hold them)"
    return f"; raise it with {variable}=BYTES if the file is genuine"


def read_stream(stream: BinaryIO, shown: str, *, limit: int | None = None) -> bytes:
    """Standard input (or another stream), at most ``limit`` bytes, enforced while reading."""
    limit = max_input_bytes() if limit is None else limit
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"{shown}: more than the limit of {limit:,} bytes; raise it with "
                         "EVALFW_MAX_INPUT_BYTES=BYTES if the input is genuine")
    return data


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def decode(data: bytes, shown: str) -> tuple[str, list[DataWarning]]:
    """Check and decode raw bytes; returns the text with line ends normalized to ``\\n``."""
    warnings: list[DataWarning] = []
    if not data:
        raise InputError(f"{shown}: file is empty (0 bytes); an empty file cannot be scored; "
                         "check that it was written completely")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(
            f"{shown}:{_line_of(data, nul)}: NUL byte at byte offset {nul}; this looks like a "
            "binary or UTF-16 file; convert it to UTF-8 text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_of(data, exc.start)
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{shown}:{line}: invalid UTF-8 at byte offset {exc.start} (byte "
            f"0x{data[exc.start]:02x}, byte {column} of the line); convert the file to UTF-8, "
            "e.g. iconv -f latin1 -t utf-8") from None
    if text.startswith(BOM):
        text = text[1:]
        warnings.append(DataWarning(shown, "bom", "UTF-8 byte order mark removed", 1, 1))
    crlf = text.count("\r\n")
    if crlf:
        text = text.replace("\r\n", "\n")
        warnings.append(DataWarning(shown, "crlf", f"{crlf} CRLF line end(s); the CR was removed",
                                    crlf, _line_of(data, data.find(b"\r\n"))))
    lone = text.count("\r")
    if lone:
        if "\n" not in text.rstrip("\n"):
            raise InputError(
                f"{shown}:1: line ends are CR only (classic Mac OS), so the whole file would be "
                "one segment; convert it to LF line ends (e.g. tr '\\r' '\\n')")
        warnings.append(DataWarning(
            shown, "lone_cr", f"{lone} carriage return(s) inside lines, kept (they count as "
            "whitespace, as in sacreBLEU)", lone, text[: text.index("\r")].count("\n") + 1))
    return text, warnings


def split_lines(text: str) -> list[str]:
    """One segment per ``\\n``-terminated line; a final newline adds no empty segment."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_segments(path: str | os.PathLike[str], *, shown: str | None = None,
                  check_tokenized: bool = False) -> TextFile:
    """Read a segment file under the policy above."""
    shown = shown or display_path(path)
    return parse_segments(read_bytes(path, shown), shown, check_tokenized=check_tokenized)


_BLANK = re.compile(r"^[^\S\n]*$", re.MULTILINE)


def read_lines(path: str | os.PathLike[str]) -> tuple[str, list[str], str]:
    """(shown path, segments, sha256) of a file :func:`read_segments` accepted before: the
    same lines, without looking for what to warn about again (a run reads its inputs twice:
    to score them and for its drill-down)."""
    shown = display_path(path)
    data = read_bytes(path, shown)
    text, _ = decode(data, shown)
    return shown, split_lines(text), hashlib.sha256(data).hexdigest()


def parse_segments(data: bytes, shown: str, *, check_tokenized: bool = False) -> TextFile:
    """The policy above applied to bytes already read (a file's, or standard input's)."""
    text, warnings = decode(data, shown)
    lines = split_lines(text)
    # lines with nothing but whitespace (``not line.strip()``: ``\s`` is ``str.isspace``),
    # found in the text at once; the empty match after a final newline is no line
    empty = [m.start() for m in _BLANK.finditer(text) if m.start() < len(text)
             or not text.endswith("\n")]
    if empty:
        warnings.append(DataWarning(
            shown, "empty_lines", f"{len(empty)} empty line(s) (scored as empty segments)",
            len(empty), text.count("\n", 0, empty[0]) + 1))
    if check_tokenized:
        # lines ending in " .": each is followed by "\n" in the text, but an unterminated last
        tok = text.count(" .\n") + (not text.endswith("\n") and text.endswith(" ."))
        if tok >= TOKENIZED_THRESHOLD:
            first = next(i for i, s in enumerate(lines) if s.endswith(" ."))
            warnings.append(DataWarning(
                shown, "looks_tokenized", f"{tok} lines end in a tokenized period (' .'); the "
                "text looks tokenized already, which may hurt the score; detokenize it",
                tok, first + 1))
    return TextFile(shown, lines, hashlib.sha256(data).hexdigest(), len(data), warnings)


def check_same_length(files: Sequence[TextFile], what: str = "") -> None:
    """Every file must have as many lines as the first; name both files and counts."""
    if not files:
        return
    first = files[0]
    for other in files[1:]:
        if len(other.lines) != len(first.lines):
            ctx = f" in {what}" if what else ""
            raise InputError(
                f"{other.path} has {len(other.lines)} lines but {first.path} has "
                f"{len(first.lines)}{ctx}; files of one test set must be aligned line by line")


__all__ = [
    "BOM", "check_same_length", "DataWarning", "decode", "display_path", "parse_segments",
    "read_bytes", "read_lines", "read_segments", "split_lines", "TextFile", "TOKENIZED_THRESHOLD",
]
