"""The input policy of evalfw.io.text, directly and as `evalfw run` applies it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evalfw.errors import InputError
from evalfw.io.text import check_same_length, read_segments
from tests.support.runs import mini, run

pytestmark = pytest.mark.parity


def write(tmp_path: Path, data: bytes, name: str = "f.txt") -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def kinds(f) -> list[str]:
    return [w.kind for w in f.warnings]


def test_lines_split_on_newline_only_and_final_newline_adds_nothing(tmp_path):
    f = read_segments(write(tmp_path, "a b\nc\u2028d\x0be\n\nf".encode()))
    # U+2028 and VT are not line separators for sacreBLEU's file reading either
    assert f.lines == ["a b", "c\u2028d\x0be", "", "f"]
    assert f.facts()["lines"] == 4 and f.facts()["bytes"] == len("a b\nc\u2028d\x0be\n\nf".encode())
    assert read_segments(write(tmp_path, b"x\n")).lines == ["x"]
    assert read_segments(write(tmp_path, b"\n")).lines == [""]


def test_facts_keep_the_path_as_written_and_hash_the_bytes(tmp_path, monkeypatch):
    import hashlib

    monkeypatch.chdir(tmp_path)
    write(tmp_path, b"hello\n", "h.txt")
    f = read_segments("h.txt")
    assert f.path == "h.txt" and f.sha256 == hashlib.sha256(b"hello\n").hexdigest()
    assert read_segments(tmp_path / "h.txt").path == "h.txt"  # absolute -> relative to cwd


@pytest.mark.parametrize("make, expect", [
    (lambda d: d / "missing.txt", "file not found"),
    (lambda d: d, "is a directory"),
    (lambda d: write(d, b""), "file is empty"),
    (lambda d: write(d, b"ok\nbad \xff\xfe here\n"), ":2: invalid UTF-8 at byte offset 7"),
    (lambda d: write(d, "a\n".encode("utf-16")), "NUL byte"),
    (lambda d: write(d, b"one\x00two\n"), "f.txt:1: NUL byte at byte offset 3"),
    (lambda d: write(d, b"a b\rc d\re f\r"), "CR only"),
])
def test_rejected_inputs_name_the_file_and_what_to_do(tmp_path, make, expect):
    with pytest.raises(InputError, match=None) as info:
        read_segments(make(tmp_path))
    assert expect in str(info.value)
    assert ";" in str(info.value)  # what to do follows


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read files without permission")
def test_unreadable_file(tmp_path):
    p = write(tmp_path, b"x\n")
    p.chmod(0)
    with pytest.raises(InputError, match="permission denied"):
        read_segments(p)


def test_bom_is_stripped_and_recorded(tmp_path):
    f = read_segments(write(tmp_path, "\ufeffHallo Welt\nzwei\n".encode()))
    assert f.lines == ["Hallo Welt", "zwei"] and kinds(f) == ["bom"]


def test_crlf_is_normalized_and_recorded(tmp_path):
    f = read_segments(write(tmp_path, b"a b\r\nc\r\n"))
    assert f.lines == ["a b", "c"] and kinds(f) == ["crlf"] and f.warnings[0].count == 2


def test_lone_cr_inside_a_line_is_kept_like_sacrebleu(tmp_path):
    f = read_segments(write(tmp_path, b"a \r b\nc\n"))
    assert f.lines == ["a \r b", "c"] and kinds(f) == ["lone_cr"]
    assert f.warnings[0].first_line == 1


def test_empty_lines_are_counted(tmp_path):
    f = read_segments(write(tmp_path, b"a\n\n  \nb\n\n"))
    assert f.lines == ["a", "", "  ", "b", ""]
    (w,) = f.warnings
    assert w.kind == "empty_lines" and w.count == 3 and w.first_line == 2


def test_ten_megabyte_line_is_read_whole(tmp_path):
    line = ("wort " * (2 * 1024 * 1024)).strip()  # ~10 MB, one segment
    f = read_segments(write(tmp_path, (line + "\nkurz\n").encode()))
    assert len(f.lines) == 2 and f.lines[0] == line


def test_looks_tokenized_only_from_100_lines_and_only_when_asked(tmp_path):
    p99 = write(tmp_path, b"a b .\n" * 99 + b"c\n", "t99.txt")
    p100 = write(tmp_path, b"a b .\n" * 100, "t100.txt")
    assert kinds(read_segments(p99, check_tokenized=True)) == []
    assert kinds(read_segments(p100, check_tokenized=True)) == ["looks_tokenized"]
    assert kinds(read_segments(p100)) == []


def test_line_count_mismatch_names_both_files(tmp_path):
    a = read_segments(write(tmp_path, b"1\n2\n3\n", "ref.txt"))
    b = read_segments(write(tmp_path, b"1\n2\n", "sys.txt"))
    with pytest.raises(InputError) as info:
        check_same_length([a, b])
    msg = str(info.value)
    assert "sys.txt has 2 lines" in msg and "ref.txt has 3" in msg


# ------------------------------------------------------------------ through `run`


def test_run_records_warnings_and_rejects_misaligned_systems(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = mini(tmp_path, b"a b c\n\nd e f\n", "\ufeffa b c\r\n\r\nd e\r\n".encode(),
               b"x y\n\nz\n")
    record = run(str(cfg)).record
    got = {(w["file"], w["kind"]) for w in record["warnings"]}
    assert ("a.txt", "bom") in got and ("a.txt", "crlf") in got
    assert ("ref.txt", "empty_lines") in got and ("b.txt", "empty_lines") in got
    (tmp_path / "b.txt").write_bytes(b"x y\nz\n")
    with pytest.raises(InputError, match=r"b\.txt has 2 lines but ref\.txt has 3"):
        run(str(cfg))
    assert not list((tmp_path / "runs" / "mini").glob(".tmp-*"))


def test_run_warns_like_sacrebleu_about_tokenized_system_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = mini(tmp_path, b"a b c\n" * 120, b"a b .\n" * 120, b"a b c\n" * 120)
    warnings = run(str(cfg)).record["warnings"]
    assert [(w["file"], w["kind"], w["count"]) for w in warnings] == [
        ("a.txt", "looks_tokenized", 120)]
