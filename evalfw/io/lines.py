"""Reading a text file a block of lines at a time under the text policy of
:mod:`evalfw.io.text`: memory is the lines kept plus one block, never the file's bytes and its
decoded text beside them.

The reader applies the whole policy with its messages: a NUL byte or invalid UTF-8 is refused
naming the line and byte offset; a BOM on the first line and the CR of a CRLF line end are
dropped and counted; lone CRs inside lines are kept and counted; an empty file and CR-only
line ends are refused.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from evalfw.errors import InputError
from evalfw.limits import LINE_MEMORY_FACTOR, max_line_memory

BOM = "\ufeff"


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


def nul_error(shown: str, line: int, offset: int) -> InputError:
    """The error for a NUL byte at ``offset`` of the file (on ``line``)."""
    return InputError(f"{shown}:{line}: NUL byte at byte offset {offset}; this looks like a "
                      "binary or UTF-16 file; convert it to UTF-8 text")


def utf8_error(shown: str, line: int, offset: int, byte: int, column: int) -> InputError:
    """The error for an invalid UTF-8 ``byte`` at ``offset`` of the file (``column``: its
    byte number in ``line``, from 1)."""
    return InputError(f"{shown}:{line}: invalid UTF-8 at byte offset {offset} (byte "
                      f"0x{byte:02x}, byte {column} of the line); convert the file to UTF-8, "
                      "e.g. iconv -f latin1 -t utf-8")


def empty_error(shown: str) -> InputError:
    """The error for a file of 0 bytes."""
    return InputError(f"{shown}: file is empty (0 bytes); an empty file cannot be scored; "
                      "check that it was written completely")


def cr_only_error(shown: str) -> InputError:
    """The error for a file whose line ends are CR only."""
    return InputError(f"{shown}:1: line ends are CR only (classic Mac OS), so the whole file "
                      "would be one segment; convert it to LF line ends (e.g. tr '\\r' '\\n')")


#: bytes read at a time: lines are cut from blocks, so a line costs no Python call to read
BLOCK_BYTES = 1 << 20


class LineReader:
    """The decoded lines of ``stream``, without their line ends, a block of lines at a time
    (:meth:`blocks`), at most ``limit`` bytes in all (``hint``: how to raise the limit), whose
    lines take at most :func:`~evalfw.limits.max_line_memory` bytes of memory (a string per
    line costs its characters plus a header: short lines cost several times their bytes).
    Once the blocks are exhausted, ``sha256``, ``bytes`` and :meth:`warnings` describe what
    was read. Line numbers count from 1."""

    def __init__(self, stream: BinaryIO, shown: str, limit: int, hint: str = "") -> None:
        self.stream, self.shown, self.limit, self.hint = stream, shown, limit, hint
        self._sha = hashlib.sha256()
        self.bytes = 0
        #: memory the lines read so far take (strings and their list slots)
        self.memory = 0
        self._budget = max_line_memory()
        self.bom = False
        #: [count, first line] of CRLF line ends and of CRs kept inside lines
        self.crlf = [0, 0]
        self.lone_cr = [0, 0]
        self._more_lines = False  # a line with text after the first: LF does end lines

    @property
    def sha256(self) -> str:
        return self._sha.hexdigest()

    def blocks(self) -> Iterator[tuple[int, list[str]]]:
        """``(number of the first line, lines)`` per block of whole lines."""
        pending: list[bytes] = []  # read bytes after the last LF (a line being read)
        number, start = 1, 0
        while True:
            chunk = self.stream.read(min(BLOCK_BYTES, self.limit + 1 - self.bytes))
            self.bytes += len(chunk)
            if self.bytes > self.limit:
                raise InputError(f"{self.shown}: more than the limit of {self.limit:,} "
                                 f"bytes{self.hint}")
            self._sha.update(chunk)
            # a block ends after its last LF (never inside a UTF-8 sequence); at the end of
            # the file what is left is the last line, with or without its line end
            cut = chunk.rfind(b"\n") + 1
            if chunk and not cut:
                nul = chunk.find(b"\x00")  # a binary file or /dev/zero: said at once
                if nul >= 0:
                    raise nul_error(self.shown, number, self.bytes - len(chunk) + nul)
                pending.append(chunk)  # joined once its LF comes: a long line costs O(n)
                continue
            data = b"".join([*pending, chunk[:cut]])
            pending = [chunk[cut:]]
            if data:
                lines = self._decode(data, number, start, final=not chunk)
                self._count(lines)
                yield number, lines
                number, start = number + len(lines), start + len(data)
            if not chunk:
                break
        if not self.bytes:
            raise empty_error(self.shown)
        if self.lone_cr[0] and not self._more_lines:
            raise cr_only_error(self.shown)

    def _count(self, lines: list[str]) -> None:
        """Add what ``lines`` take to :attr:`memory`; refuse the input beyond the budget."""
        self.memory += sum(map(sys.getsizeof, lines)) + 8 * len(lines)
        if self.memory > self._budget:
            raise InputError(
                f"{self.shown}: its lines would take more than {self._budget:,} bytes of "
                f"memory ({LINE_MEMORY_FACTOR} x the input limit; short lines cost about 60 "
                f"bytes each), read after {self.bytes:,} bytes; raise EVALFW_MAX_INPUT_BYTES "
                "if the input is genuine")

    def __iter__(self) -> Iterator[tuple[int, str]]:
        """``(number, text)`` of every line."""
        for first, lines in self.blocks():
            yield from enumerate(lines, first)

    def warnings(self) -> list[DataWarning]:
        """What was accepted and changed (BOM, CRLF) or kept (lone CRs), once read."""
        out = []
        if self.bom:
            out.append(DataWarning(self.shown, "bom", "UTF-8 byte order mark removed", 1, 1))
        count, line = self.crlf
        if count:
            out.append(DataWarning(self.shown, "crlf", f"{count} CRLF line end(s); the CR was "
                                   "removed", count, line))
        count, line = self.lone_cr
        if count:
            out.append(DataWarning(
                self.shown, "lone_cr", f"{count} carriage return(s) inside lines, kept (they "
                "count as whitespace, as in sacreBLEU)", count, line))
        return out

    def _decode(self, data: bytes, number: int, start: int, final: bool) -> list[str]:
        """The lines of ``data`` (whole lines from line ``number``, byte ``start`` on; the
        last block of the file may end without a LF)."""
        nul = data.find(b"\x00")
        if nul >= 0:
            raise nul_error(self.shown, number + data.count(b"\n", 0, nul), start + nul)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line_start = data.rfind(b"\n", 0, exc.start) + 1
            raise utf8_error(self.shown, number + data.count(b"\n", 0, exc.start),
                             start + exc.start, data[exc.start],
                             exc.start - line_start + 1) from None
        if number == 1 and text.startswith(BOM):
            text = text[1:]
            self.bom = True
        lines = text.split("\n")
        ended = lines[-1] == ""  # else the file's last line, without a LF
        if ended:
            lines.pop()
        if "\r" in text:
            self._carriage_returns(lines, number, ended or not final)
        if not self._more_lines:
            self._more_lines = any(lines[1:] if number == 1 else lines)
        return lines

    def _carriage_returns(self, lines: list[str], number: int, last_ended: bool) -> None:
        """Drop the CR of CRLF line ends in place; count them and the CRs left in lines."""
        for k, line in enumerate(lines):
            if line.endswith("\r") and (last_ended or k < len(lines) - 1):
                self.crlf[0] += 1
                self.crlf[1] = self.crlf[1] or number + k
                line = lines[k] = line[:-1]
            if "\r" in line:
                self.lone_cr[0] += line.count("\r")
                self.lone_cr[1] = self.lone_cr[1] or number + k


__all__ = ["BLOCK_BYTES", "BOM", "cr_only_error", "DataWarning", "empty_error", "LineReader",
           "nul_error", "utf8_error"]
