"""Reading is bounded in memory for every shape of input: the lines of one input take at most
``LINE_MEMORY_FACTOR`` (2) times the input limit, however short they are (a short line costs
about 60 bytes of string and list slot for a few bytes of text), plus one block; a NUL byte is
named as soon as it is read; running out of memory anyway is one line, exit status 2.

Each case runs in a subprocess under an address-space cap and a timeout
(:mod:`tests.support.capped`)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from evalfw.limits import LINE_MEMORY_FACTOR
from tests.support.capped import GiB, MiB, evalfw_capped, run_capped

REPO = Path(__file__).resolve().parents[2]
REF = str(REPO / "configs" / "sample" / "en-de" / "ref.A.txt")

#: a feed of short lines without end, as `yes "the cat sat"` writes them
YES = [sys.executable, "-c",
       "import sys\nw = sys.stdout.buffer.write\nblock = b'the cat sat\\n' * 65536\n"
       "try:\n    while True:\n        w(block)\nexcept (BrokenPipeError, OSError):\n    pass"]

#: read standard input as a segment file; print the peak resident memory (KiB) either way
PEAK = ("import resource, sys\n"
        "from evalfw.errors import InputError\n"
        "from evalfw.io.text import stream_segments\n"
        "try:\n"
        "    found = stream_segments(sys.stdin.buffer, '<stdin>')\n"
        "    print('lines', len(found.lines))\n"
        "except InputError as exc:\n"
        "    print('refused', exc)\n"
        "print('peak', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")


def _peak(stdin: bytes | None, limit: int, feed: bool = False) -> tuple[str, int]:
    """(what the reader said, its peak resident memory in bytes)."""
    env = {"EVALFW_MAX_INPUT_BYTES": str(limit)}
    if feed:
        writer = subprocess.Popen(YES, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            done = run_capped(["-c", PEAK], 2 * GiB, stdin=writer.stdout, timeout=120, env=env)
        finally:
            writer.kill()
            writer.stdout.close()  # type: ignore[union-attr]
            writer.wait(timeout=30)
    else:
        done = run_capped(["-c", PEAK], 2 * GiB, stdin=stdin, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    said, peak = done.stdout.strip().rsplit("\n", 1)
    return said, int(peak.split()[1]) * 1024


def test_short_lines_cost_at_most_the_stated_multiple_of_the_input_limit():
    limit = 32 * MiB
    _, baseline = _peak(b"the cat sat\n", limit)
    said, peak = _peak(None, limit, feed=True)
    assert said.startswith("refused <stdin>: its lines would take more than"), said
    # the lines (LINE_MEMORY_FACTOR x the limit) and one block of reading besides
    assert peak - baseline <= (LINE_MEMORY_FACTOR + 0.5) * limit, (peak - baseline) / limit


def test_long_lines_read_up_to_the_limit_cost_about_their_size():
    limit = 32 * MiB
    _, baseline = _peak(b"x\n", limit)
    said, peak = _peak((b"x" * (MiB - 1) + b"\n") * 24, limit)
    assert said == "lines 24"
    assert peak - baseline <= (LINE_MEMORY_FACTOR + 0.5) * limit


def test_short_lines_on_standard_input_are_refused_in_one_line():
    writer = subprocess.Popen(YES, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        done = evalfw_capped("score", "-r", REF, cap=GiB, stdin=writer.stdout, timeout=120,
                             env={"EVALFW_MAX_INPUT_BYTES": str(16 * MiB)})
    finally:
        writer.kill()
        writer.stdout.close()  # type: ignore[union-attr]
        writer.wait(timeout=30)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("evalfw: error: <stdin>: its lines would take more than")
    assert "EVALFW_MAX_INPUT_BYTES" in lines[0]


def test_running_out_of_memory_is_one_line_and_exit_2():
    # the default input limit (2 GiB) under a cap of 512 MiB: memory runs out first
    writer = subprocess.Popen(YES, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        done = evalfw_capped("score", "-r", REF, cap=512 * MiB, stdin=writer.stdout,
                             timeout=120)
    finally:
        writer.kill()
        writer.stdout.close()  # type: ignore[union-attr]
        writer.wait(timeout=30)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evalfw: error: out of memory"), lines


@pytest.mark.slow
def test_a_run_out_of_memory_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "big.txt").write_bytes(b"the cat sat\n" * (6 * MiB))
    (tmp_path / "c.yaml").write_text(
        "schema_version: 1\nexperiment: mem\ntest_sets:\n  - name: t\n    langs: en-de\n"
        f"    references: [{REF}]\n    systems: {{A: big.txt}}\nmetrics:\n  - name: bleu\n",
        "utf-8")
    done = evalfw_capped("run", "c.yaml", "--quiet", cap=512 * MiB, cwd=tmp_path, timeout=120,
                         env={"EVALFW_NO_CACHE": "1"})
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evalfw: error: out of memory"), lines
    assert not (tmp_path / "runs" / "mem").exists()


def test_a_nul_byte_is_named_as_soon_as_it_is_read():
    started = time.monotonic()
    with open("/dev/zero", "rb") as zero:
        done = evalfw_capped("score", "-r", REF, cap=GiB, stdin=zero, timeout=60)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("evalfw: error: <stdin>:1: NUL byte at byte offset 0"), line
    assert time.monotonic() - started < 30
