"""Running ``evalfw`` and the real ``sacrebleu`` command line in a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SUPPORT = REPO / "tests" / "support"


def evalfw(*args: str, stdin: str | None = None, env: dict[str, str] | None = None
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "evalfw", *args], input=stdin,
                          capture_output=True, text=True, env={**os.environ, **(env or {})})


def sacrebleu_command() -> str:
    """The sacrebleu console script of this interpreter's environment (skip when missing)."""
    here = Path(sys.executable).parent / "sacrebleu"
    found = str(here) if here.is_file() else shutil.which("sacrebleu")
    if found is None:
        pytest.skip("the sacrebleu command is not installed")
    return found


def sacrebleu(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    # colours off, as evalfw prints; its log lines go to stderr
    return subprocess.run([sacrebleu_command(), *args, "--no-color"], capture_output=True,
                          text=True, env={**os.environ, "NO_COLOR": "1", **(env or {})})


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)
