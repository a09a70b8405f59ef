"""Score files (``.txt``, ``.tsv``, ``.jsonl``) as a hostile user writes them: every finite
score within range reads back exactly, whatever the layout, line ends and block boundaries;
every bad value (not finite, beyond range, thousands of digits, deeply nested, not a number)
is an ``InputError`` naming the file and its line; a large file reads in memory proportional
to it."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalfw.cli.main import main
from evalfw.errors import InputError
from evalfw.io import lines as line_reader
from evalfw.io.scores import read_scores
from evalfw.limits import MAX_ABS_SCORE
from tests.support.capped import MiB, run_capped

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "configs" / "sample" / "en-de"

scores_st = st.lists(st.floats(min_value=-MAX_ABS_SCORE, max_value=MAX_ABS_SCORE,
                               allow_nan=False), min_size=1, max_size=30)
#: values no score file may hold, as written in a text cell
BAD_TEXT = ["nan", "NaN", "inf", "-Infinity", "1e400", "-1e309", "1e101", "1" + "0" * 400,
            "9" * 5000, "abc", "", "0x10", "1,5"]
#: the same as JSON values (raw JSON text), plus values of other JSON types
BAD_JSON = ["NaN", "Infinity", "-Infinity", "1e400", "1e101", "1" + "0" * 400, "9" * 5000,
            "-" + "9" * 5000, "true", "null", "[0.5]", '{"a": 0.5}', '"abc"',
            "[" * 100_000 + "]" * 100_000]


def write(path: Path, kind: str, cells: list[str], *, crlf: bool = False, bom: bool = False,
          final_newline: bool = True) -> Path:
    """A score file of ``cells`` (raw text, JSON text for jsonl); returns its path."""
    if kind == "lines":
        rows = cells
    elif kind == "tsv":
        rows = ["id\tscore\tsystem", *(f"{i}\t{c}\tA" for i, c in enumerate(cells))]
    else:
        rows = [f'{{"seg": {i}, "score": {c}, "mt": "a b"}}' for i, c in enumerate(cells)]
    end = "\r\n" if crlf else "\n"
    text = ("\ufeff" if bom else "") + end.join(rows) + (end if final_newline else "")
    path = path.with_suffix({"lines": ".txt", "tsv": ".tsv", "jsonl": ".jsonl"}[kind])
    path.write_bytes(text.encode("utf-8"))
    return path


def column(kind: str) -> str | None:
    return None if kind == "lines" else "score"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=scores_st, kind=st.sampled_from(["lines", "tsv", "jsonl"]), crlf=st.booleans(),
       bom=st.booleans(), final_newline=st.booleans(), block=st.integers(1, 64))
def test_finite_scores_read_back_exactly(tmp_path_factory, values, kind, crlf, bom,
                                         final_newline, block) -> None:
    path = write(tmp_path_factory.mktemp("s") / "s", kind, [repr(v) for v in values],
                 crlf=crlf, bom=bom, final_newline=final_newline)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(line_reader, "BLOCK_BYTES", block)  # block boundaries anywhere
        found = read_scores(path, column(kind), segments=len(values))
    assert found.scores.dtype == "float64"
    assert found.scores.tolist() == values
    assert found.bytes == path.stat().st_size


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), kind=st.sampled_from(["lines", "tsv", "jsonl"]),
       block=st.sampled_from([3, 64, 1 << 20]))
def test_bad_values_name_the_file_and_line(tmp_path_factory, data, kind, block) -> None:
    good = data.draw(st.lists(st.floats(-1, 1), min_size=0, max_size=10))
    bad = data.draw(st.sampled_from(BAD_JSON if kind == "jsonl" else BAD_TEXT))
    at = data.draw(st.integers(0, len(good)))
    cells = [repr(v) for v in good]
    cells.insert(at, bad)
    path = write(tmp_path_factory.mktemp("s") / "s", kind, cells)
    with pytest.MonkeyPatch.context() as mp, pytest.raises(InputError) as info:
        mp.setattr(line_reader, "BLOCK_BYTES", block)
        read_scores(path, column(kind), shown="scores/A")
    line = at + 1 + (kind == "tsv")  # the header is line 1
    message = str(info.value)
    assert message.startswith(f"scores/A:{line}: "), message
    assert len(message) < 300  # a 5,000-digit number is not echoed whole


@pytest.mark.parametrize("cells, words", [
    (["0.5", "1" + "0" * 400], ":2: the score '1000"),
    (["9" * 5000], "(5,000 characters) is beyond ±1e+100"),
    (["1e308", "1e308"], ":1: the score '1e308' is beyond ±1e+100, where sums of scores "
                         "overflow"),
    (["-1e101"], "is beyond ±1e+100"),
    (["1e400"], ":1: the score '1e400' is beyond"),
    (["inf"], ":1: the score 'inf' is not a finite number"),
])
def test_cases_of_the_report(tmp_path: Path, cells: list[str], words: str) -> None:
    with pytest.raises(InputError, match=re.escape(words)):
        read_scores(write(tmp_path / "s", "lines", cells))


def test_largest_scores_keep_sums_finite(tmp_path: Path) -> None:
    from evalfw.metrics.segment_scores import SegmentScores

    path = write(tmp_path / "s", "lines", [repr(MAX_ABS_SCORE)] * 1000)
    metric = SegmentScores()
    rows = metric.rows(read_scores(path).scores)
    # the sum in segment order rounds, but stays finite
    assert metric.score(rows) == pytest.approx(MAX_ABS_SCORE, rel=1e-12)


@pytest.mark.parametrize("name, head, good, column", [
    ("big.jsonl", b'{"x": 1' + b"0" * 400 + b"}\n", b'{"x": 0.5}\n', "x"),
    ("digits.jsonl", b'{"x": ' + b"1" * 5000 + b"}\n", b'{"x": 0.5}\n', "x"),
    ("nested.jsonl", b'{"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n", b'{"x": 0.5}\n',
     "x"),
    ("overflow.txt", b"1e308\n", b"1e308\n", None),
    ("nul.txt", b"0.5\x00\n", b"0.5\n", None),
    ("latin1.tsv", b"x\n\xe9\n", b"0.5\n", "x"),
])
def test_command_line_gives_one_line_and_status_2(tmp_path: Path, monkeypatch, capsys, name,
                                                  head, good, column) -> None:
    monkeypatch.chdir(tmp_path)
    segments = len((SAMPLE / "ref.A.txt").read_text("utf-8").splitlines())
    Path(name).write_bytes(head + good * (segments - 1))
    args = ["score", "-r", str(SAMPLE / "ref.A.txt"), "-i", str(SAMPLE / "sys" / "Weak.txt"),
            "-m", "segment-scores", "--scores", name]
    assert main([*args, *(["--scores-column", column] if column else [])]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"evalfw: error: {name}:") and err.count("\n") == 1, err


def test_a_large_file_reads_in_memory_proportional_to_it(tmp_path: Path) -> None:
    # 1M scores (7 MB): 8 MB as float64; as Python strings and floats they took over 100 MB
    rng = random.Random(7)
    path = tmp_path / "scores.txt"
    path.write_text("".join(f"{rng.random():.4f}\n" for _ in range(1_000_000)), "utf-8")
    code = ("from evalfw.io.scores import read_scores; "
            f"s = read_scores({str(path)!r}); print(len(s.scores), s.scores.dtype)")
    # numpy alone takes about 100 MiB of address space here
    done = run_capped(["-c", code], 192 * MiB, timeout=60, env={"OPENBLAS_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1000000", "float64"]
