"""The plain BLEU ``evalfw-sacrebleu`` command (13a, files, JSON or text, corpus or sentence
scores) starts without the standard modules a 400-line command cannot afford: ``re`` and
``enum``, ``json``, ``collections``, ``functools``, ``contextlib``, ``typing`` and numpy (chrF
and TER use ``collections``' named tuples and counters); so does ``-tok intl`` with the
compiled intl rules, and without ``regex``. The script is run with
``-X importtime``, whose report lists every module imported after ``site``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalfw.metrics.bleu.counting import kernel
from evalfw.tokenizers import _mteval, intl

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


@pytest.mark.skipif(intl.compiled() is None, reason="the compiled intl rules are not built")
@pytest.mark.skipif(os.environ.get("EVALFW_NO_CACHE", "") not in ("", "0"),
                    reason="without the classes file every process reads regex, which uses re")
def test_the_intl_command_starts_as_lean_without_regular_expressions(tmp_path: Path) -> None:
    intl.runs()  # the classes file exists (written by this process if it did not)
    (tmp_path / "ref.txt").write_text("The “cat” sat on the mat.\nA € 3.5 km—far!\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("The cat sat on a mat…\nA € 3,5 km - far.\n", "utf-8")
    imported = set(_imported(["ref.txt", "-i", "hyp.txt", "-tok", "intl", "-lc", "-b", "-w",
                              "4"], tmp_path))
    assert not (AVOIDED | {"regex"}) & imported
