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

Files and standard input are read a block of lines at a time (:mod:`evalfw.io.lines` applies
the policy), so reading costs the lines kept plus one block.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from evalfw.errors import EvalfwError, InputError
from evalfw.io.lines import DataWarning, LineReader
from evalfw.limits import max_input_bytes

#: sacreBLEU's threshold for its "looks tokenized" warning
TOKENIZED_THRESHOLD = 100


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


_MISSING = "check the path (relative paths in a config are relative to the config file)"


def open_regular(path: str | os.PathLike[str], shown: str, limit: int, *,
                 error: type[EvalfwError] = InputError,
                 variable: str | None = "EVALFW_MAX_INPUT_BYTES", what: str = "file",
                 missing: str = _MISSING) -> BinaryIO:
    """A regular file opened for reading, once its kind and size are checked.

    Devices, FIFOs and sockets are refused before a byte is read (``/dev/zero`` never ends; a
    FIFO without a writer would wait forever: it is opened non-blocking), and so is a file of
    more than ``limit`` bytes. ``missing`` says what to do when the file does not exist.
    """
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
    if info.st_size > limit:  # refused before reading (a sparse file costs no disk)
        os.close(fd)
        raise error(f"{shown}: is {info.st_size:,} bytes, more than the limit of "
                    f"{limit:,}{raise_hint(variable)}")
    return os.fdopen(fd, "rb")


def read_bytes(path: str | os.PathLike[str], shown: str, *, limit: int | None = None,
               error: type[EvalfwError] = InputError,
               variable: str | None = "EVALFW_MAX_INPUT_BYTES", what: str = "file",
               missing: str = _MISSING) -> bytes:
    """A regular file's bytes (see :func:`open_regular`), at most ``limit`` (default
    :func:`evalfw.limits.max_input_bytes`), enforced while reading too, so a file growing
    under evalfw cannot exhaust memory either."""
    limit = max_input_bytes() if limit is None else limit
    with open_regular(path, shown, limit, error=error, variable=variable, what=what,
                      missing=missing) as fh:
        try:
            data = read_capped(fh, limit)
        except OSError as exc:
            raise error(f"{shown}: cannot read: {exc.strerror or exc}") from None
    if data is None:
        raise error(f"{shown}: larger than the limit of {limit:,} bytes"
                    f"{raise_hint(variable)}")
    return data


def raise_hint(variable: str | None) -> str:
    """How to raise a size limit (``variable``: its environment variable, None: fixed)."""
    if variable is None:
        return "; the limit is fixed (a config names its data files, it does not hold them)"
    return f"; raise it with {variable}=BYTES if the file is genuine"


#: bytes asked of the operating system per read: memory grows with what a file holds, never
#: with the limit (one ``read(limit + 1)`` reserves the whole limit at once, which fails at
#: once under an address-space cap such as ``ulimit -v``)
CHUNK_BYTES = 1 << 20


def read_capped(stream: BinaryIO, limit: int) -> bytes | None:
    """All of ``stream`` in chunks, or None as soon as it holds more than ``limit`` bytes.

    The chunks go into one ``BytesIO``, whose buffer grows by an eighth at a time and is
    returned without a copy, so reading n bytes costs about n bytes (joining a list of
    chunks would cost 2n at the end)."""
    buf = io.BytesIO()
    while True:
        chunk = stream.read(min(CHUNK_BYTES, limit + 1 - buf.tell()))
        if not chunk:
            return buf.getvalue()
        buf.write(chunk)
        if buf.tell() > limit:
            return None


def read_stream(stream: BinaryIO, shown: str, *, limit: int | None = None) -> bytes:
    """Standard input (or another stream), at most ``limit`` bytes, enforced while reading."""
    limit = max_input_bytes() if limit is None else limit
    data = read_capped(stream, limit)
    if data is None:
        raise InputError(f"{shown}: more than the limit of {limit:,} bytes; raise it with "
                         "EVALFW_MAX_INPUT_BYTES=BYTES if the input is genuine")
    return data


def decode(data: bytes, shown: str) -> tuple[str, list[DataWarning]]:
    """Check and decode raw bytes under the policy above; returns the text with line ends
    normalized to ``\\n`` and the warnings."""
    reader = LineReader(io.BytesIO(data), shown, len(data))
    text = "".join(line + "\n" for _, lines in reader.blocks() for line in lines)
    return text, reader.warnings()


def split_lines(text: str) -> list[str]:
    """One segment per ``\\n``-terminated line; a final newline adds no empty segment."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_segments(path: str | os.PathLike[str], *, shown: str | None = None,
                  check_tokenized: bool = False) -> TextFile:
    """Read a segment file under the policy above, a block of lines at a time."""
    shown = shown or display_path(path)
    limit = max_input_bytes()
    with open_regular(path, shown, limit) as fh:
        return stream_segments(fh, shown, check_tokenized=check_tokenized, limit=limit,
                               hint=raise_hint("EVALFW_MAX_INPUT_BYTES"))


def parse_segments(data: bytes, shown: str, *, check_tokenized: bool = False) -> TextFile:
    """The policy above applied to bytes already read."""
    return stream_segments(io.BytesIO(data), shown, check_tokenized=check_tokenized,
                           limit=len(data))


def stream_segments(stream: BinaryIO, shown: str, *, check_tokenized: bool = False,
                    limit: int | None = None, hint: str | None = None) -> TextFile:
    """The policy above applied to a stream (a file, standard input), a block of lines at a
    time: memory is the lines kept plus one block, at most ``limit`` bytes read."""
    limit = max_input_bytes() if limit is None else limit
    if hint is None:
        hint = "; raise it with EVALFW_MAX_INPUT_BYTES=BYTES if the input is genuine"
    reader = LineReader(stream, shown, limit, hint)
    lines: list[str] = []
    try:
        for _, block in reader.blocks():
            lines += block
    except OSError as exc:
        raise InputError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    warnings = reader.warnings()
    # ``not s.strip()``, without building a stripped copy of every line
    empty = [i for i, s in enumerate(lines) if not s or s.isspace()]
    if empty:
        warnings.append(DataWarning(
            shown, "empty_lines", f"{len(empty)} empty line(s) (scored as empty segments)",
            len(empty), empty[0] + 1))
    if check_tokenized:
        tok = sum(1 for s in lines if s.endswith(" ."))
        if tok >= TOKENIZED_THRESHOLD:
            first = next(i for i, s in enumerate(lines) if s.endswith(" ."))
            warnings.append(DataWarning(
                shown, "looks_tokenized", f"{tok} lines end in a tokenized period (' .'); the "
                "text looks tokenized already, which may hurt the score; detokenize it",
                tok, first + 1))
    return TextFile(shown, lines, reader.sha256, reader.bytes, warnings)


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
    "CHUNK_BYTES", "check_same_length", "DataWarning", "decode", "display_path",
    "open_regular", "parse_segments", "raise_hint", "read_bytes", "read_capped",
    "read_segments", "read_stream", "split_lines", "stream_segments", "TextFile",
    "TOKENIZED_THRESHOLD",
]
