"""Reading a text file one line at a time under the text policy of :mod:`evalfw.io.text`, for
inputs whose lines become something smaller than text (score files: a float per line): memory
is one line at a time, whatever the file's size.

The checks are the ones :func:`evalfw.io.text.decode` makes on a whole file, with the same
messages (built here, used by both): a NUL byte or invalid UTF-8 is refused naming the line
and byte offset, a BOM on the first line and the CR of a CRLF line end are dropped, an empty
file and CR-only line ends are refused.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import BinaryIO

from evalfw.errors import InputError

BOM = "\ufeff"


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
    (:meth:`blocks`), at most ``limit`` bytes in all; ``sha256`` and ``bytes`` describe what
    was read once the blocks are exhausted. Line numbers count from 1."""

    def __init__(self, stream: BinaryIO, shown: str, limit: int, hint: str = "") -> None:
        self.stream, self.shown, self.limit, self.hint = stream, shown, limit, hint
        self._sha = hashlib.sha256()
        self.bytes = 0

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
                raise InputError(f"{self.shown}: larger than the limit of {self.limit:,} "
                                 f"bytes{self.hint}")
            self._sha.update(chunk)
            # a block ends after its last LF (never inside a UTF-8 sequence); at the end of
            # the file what is left is the last line, with or without its line end
            cut = chunk.rfind(b"\n") + 1
            if chunk and not cut:
                pending.append(chunk)  # joined once its LF comes: a long line costs O(n)
                continue
            data = b"".join([*pending, chunk[:cut]])
            pending = [chunk[cut:]]
            if data:
                lines = self._decode(data, number, start)
                yield number, lines
                number, start = number + len(lines), start + len(data)
            if not chunk:
                break
        if not self.bytes:
            raise empty_error(self.shown)

    def __iter__(self) -> Iterator[tuple[int, str]]:
        """``(number, text)`` of every line."""
        for first, lines in self.blocks():
            yield from enumerate(lines, first)

    def _decode(self, data: bytes, number: int, start: int) -> list[str]:
        """The lines of ``data`` (whole lines from line ``number``, byte ``start`` on)."""
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
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()  # the final LF of the block
        elif number == 1 and len(lines) == 1 and "\r" in lines[0].rstrip("\r"):
            raise cr_only_error(self.shown)  # the whole file is one line, split by CRs
        if "\r" in text:
            lines = [s[:-1] if s.endswith("\r") else s for s in lines]  # CRLF line ends
        return lines


__all__ = ["BLOCK_BYTES", "BOM", "cr_only_error", "empty_error", "LineReader", "nul_error",
           "utf8_error"]
