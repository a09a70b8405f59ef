"""The block-at-a-time reader applies the text policy exactly as reading a whole file did:
for any bytes (BOM, CRLF, lone CRs, CR-only files, NUL, invalid UTF-8, empty lines) and any
block size, the same lines, warnings and errors as the whole-file oracle below."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalfw.errors import InputError
from evalfw.io import lines as line_reader
from evalfw.io.text import parse_segments, stream_segments


def oracle(data: bytes, shown: str) -> tuple[list[str], list[tuple[str, int, int | None]]]:
    """Lines and (kind, count, first line) warnings of ``data``, read whole."""
    def line_of(offset: int) -> int:
        return data.count(b"\n", 0, offset) + 1

    if not data:
        raise InputError(f"{shown}: file is empty")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(f"{shown}:{line_of(nul)}: NUL byte at byte offset {nul}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"{shown}:{line_of(exc.start)}: invalid UTF-8 at byte offset "
                         f"{exc.start} (byte 0x{data[exc.start]:02x}, byte {column} of the "
                         "line)") from None
    warnings = []
    if text.startswith("\ufeff"):
        text = text[1:]
        warnings.append(("bom", 1, 1))
    crlf = text.count("\r\n")
    if crlf:
        warnings.append(("crlf", crlf, line_of(data.find(b"\r\n"))))
        text = text.replace("\r\n", "\n")
    lone = text.count("\r")
    if lone:
        if "\n" not in text.rstrip("\n"):
            raise InputError(f"{shown}:1: line ends are CR only")
        warnings.append(("lone_cr", lone, text[:text.index("\r")].count("\n") + 1))
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    empty = [i for i, s in enumerate(lines) if not s.strip()]
    if empty:
        warnings.append(("empty_lines", len(empty), empty[0] + 1))
    return lines, warnings


pieces = st.sampled_from(["a", "b c", "é", "\n", "\r", "\r\n", " ", "\ufeff", "漢"])
texts = st.lists(pieces, max_size=30).map("".join).map(lambda t: t.encode("utf-8"))
damaged = st.tuples(texts, st.sampled_from([b"\x00", b"\xff", b"\xe6\xbc"]),
                    st.integers(0, 40)).map(lambda x: x[0][:x[2]] + x[1] + x[0][x[2]:])


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(texts, st.just(b"\xef\xbb\xbfa\r\n"), damaged),
       block=st.integers(1, 16))
def test_blocks_read_as_the_whole_file(data: bytes, block: int) -> None:
    try:
        expected = oracle(data, "f.txt")
    except InputError as exc:
        with pytest.MonkeyPatch.context() as mp, pytest.raises(InputError) as info:
            mp.setattr(line_reader, "BLOCK_BYTES", block)
            parse_segments(data, "f.txt")
        assert str(info.value).startswith(str(exc)), (data, block)
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(line_reader, "BLOCK_BYTES", block)
        found = stream_segments(io.BytesIO(data), "f.txt")
    assert found.lines == expected[0]
    assert [(w.kind, w.count, w.first_line) for w in found.warnings] == expected[1]
    assert found.bytes == len(data)
