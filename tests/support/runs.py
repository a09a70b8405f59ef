"""Helpers for the run/record tests: a private copy of configs/ (data may be changed) and runs."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the repository's configs/ in tmp_path, which becomes the current directory;
    configs/wmt.yaml there writes to tmp_path/runs (its output_dir is ../runs)."""
    shutil.copytree(REPO / "configs", tmp_path / "configs")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(config: str = "configs/wmt.yaml", overrides: tuple[str, ...] = (), **kw: Any):
    from evalfw.runner.run import run_experiment

    return run_experiment(config, overrides, **kw)


def random_word_files(folder: Path, seed: int, lines: int,
                      names: tuple[str, ...] = ("ref", "s0", "s1", "s2")) -> dict[str, Path]:
    """``folder/<name>.txt`` for each name: ``lines`` lines of 3 to 12 words from a small
    vocabulary, drawn from ``random.Random(seed)`` (a reference and systems that share words)."""
    import random

    rng = random.Random(seed)
    words = "the a cat dog sat ran on under mat house quickly".split()
    files = {}
    for name in names:
        files[name] = folder / f"{name}.txt"
        files[name].write_text("".join(" ".join(rng.choices(words, k=rng.randint(3, 12))) + "\n"
                                       for _ in range(lines)), "utf-8")
    return files


def write_config(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


MINI = """\
schema_version: 1
experiment: mini
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [ref.txt]
    systems: {{A: a.txt, B: b.txt}}
metrics:
  - name: bleu
{extra}
"""


def mini(tmp: Path, ref: bytes, a: bytes, b: bytes, extra: str = "") -> Path:
    """A one-test-set config with the given file contents."""
    (tmp / "ref.txt").write_bytes(ref)
    (tmp / "a.txt").write_bytes(a)
    (tmp / "b.txt").write_bytes(b)
    return write_config(tmp / "mini.yaml", MINI.format(extra=extra))
