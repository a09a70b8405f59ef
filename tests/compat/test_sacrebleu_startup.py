"""The plain BLEU ``evalfw-sacrebleu`` command (13a, files, JSON or text, corpus or sentence
scores) starts without the standard modules a 400-line command cannot afford: ``re`` and
``enum``, ``json``, ``collections``, ``functools``, ``contextlib``, ``typing`` and numpy (chrF
and TER use ``collections``' named tuples and counters). The script is run with
``-X importtime``, whose report lists every module imported after ``site``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from evalfw.metrics.bleu.counting import kernel
from evalfw.tokenizers import _mteval

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "evalfw-sacrebleu"
AVOIDED = {"re", "enum", "json", "collections", "functools", "contextlib", "typing", "numpy"}

pytestmark = pytest.mark.skipif(kernel.kernel() is None or _mteval.compiled() is None,
                                reason="the compiled kernels are not built")


def _imported(args: list[str], cwd: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-X", "importtime", str(SCRIPT), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout
    names = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
             if line.startswith("import time:") and "imported package" not in line]
    return names[names.index("site") + 1:]


@pytest.mark.parametrize("args", [
    ["ref.txt", "-i", "hyp.txt"],
    ["ref.txt", "ref2.txt", "-i", "hyp.txt", "-f", "text"],
    ["ref.txt", "-i", "hyp.txt", "-sl", "-b"],
])
def test_plain_commands_start_lean(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "ref.txt").write_text("The cat sat on the mat.\nA &amp; B, 3.5 km.\n", "utf-8")
    (tmp_path / "ref2.txt").write_text("A cat sat on the mat.\nA and B, 3.5 km.\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("The cat sat on a mat.\nA & B, 3.5 km\n", "utf-8")
    assert not AVOIDED & set(_imported(args, tmp_path))
