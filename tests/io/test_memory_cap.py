"""Reading costs memory in proportion to what is read, never to the input limit: small files,
standard input and the whole sample run work under an address-space cap (``ulimit -v``, as
some clusters impose), in a subprocess with ``RLIMIT_AS``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.capped import GiB, MiB, evalfw_capped, run_capped

REPO = Path(__file__).resolve().parents[2]

READ_STDIN = ("import sys; from evalfw.io.text import read_stream; "
              "print(len(read_stream(sys.stdin.buffer, '<stdin>')))")


def test_sample_run_passes_under_one_gib(tmp_path: Path) -> None:
    shutil.copytree(REPO / "configs", tmp_path / "configs")
    # no statistics cache: everything is computed under the cap
    done = evalfw_capped("run", "configs/wmt.yaml", "--quiet", cap=GiB, cwd=tmp_path,
                         timeout=120, env={"EVALFW_NO_CACHE": "1"})
    assert done.returncode == 0, done.stderr
    assert "Medium" in done.stdout and not done.stderr.strip()
    assert list((tmp_path / "runs").iterdir())  # the record was stored


def test_a_small_file_costs_no_more_than_its_size(tmp_path: Path) -> None:
    # the default input limit is 2 GiB, the cap far below it
    path = tmp_path / "ref.txt"
    path.write_text("a small reference\n", "utf-8")
    code = f"from evalfw.io.text import read_segments; print(read_segments({str(path)!r}).lines)"
    done = run_capped(["-c", code], 128 * MiB, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['a small reference']"


def test_standard_input_is_read_in_chunks() -> None:
    # 128 MiB through a pipe under a 256 MiB cap (the interpreter itself takes about 20 MiB)
    size = 128 * MiB
    feed = subprocess.Popen([sys.executable, "-c", f"import sys; w = sys.stdout.buffer.write\n"
                             f"for _ in range({size // MiB}): w(b'a' * {MiB - 1} + b'\\n')"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        done = run_capped(["-c", READ_STDIN], 256 * MiB, stdin=feed.stdout, timeout=60)
    finally:
        feed.stdout.close()  # type: ignore[union-attr]
        feed.wait(timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(size)


def test_standard_input_over_the_limit_stops_at_the_limit() -> None:
    done = run_capped(["-c", READ_STDIN], 128 * MiB, stdin=b"x" * (3 * MiB), timeout=30,
                      env={"EVALFW_MAX_INPUT_BYTES": str(2 * MiB)})
    assert done.returncode != 0
    assert "<stdin>: more than the limit of 2,097,152 bytes" in done.stderr
