"""The commands of docs/meta-evaluation.md work: every ``evalfw`` line of its bash blocks and
its Python blocks run and succeed, in order, from a folder laid out as the repository is
(``configs/`` beside ``../shared``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.shared_data import REPO, SHARED, need_shared_data

pytestmark = [pytest.mark.wmt22, pytest.mark.slow]

DOCS = (REPO / "docs" / "meta-evaluation.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOCS, re.S)


COMMANDS = [line.split(" #")[0].strip() for block in blocks("bash")
            for line in block.splitlines() if line.startswith("evalfw ")]


def test_the_page_has_commands_and_python() -> None:
    assert len(COMMANDS) >= 6 and blocks("python")
    assert "docs/meta-evaluation.md" in (REPO / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = need_shared_data()
    base = tmp_path_factory.mktemp("meta-docs")
    (base / "shared").symlink_to(SHARED if SHARED.is_dir() else data.parent)
    folder = base / "project"
    shutil.copytree(REPO / "configs", folder / "configs")
    return folder


def test_commands_then_python(project: Path) -> None:
    for command in COMMANDS:
        done = subprocess.run(["bash", "-c", command.replace("evalfw ", f"{sys.executable} -m "
                                                             "evalfw ", 1)],
                              cwd=project, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, (command, done.stderr[-2000:])
        assert done.stdout, command
    for code in blocks("python"):
        done = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "ted-en-de" in done.stdout and "holm" in done.stdout
