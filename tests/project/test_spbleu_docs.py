"""The spBLEU commands of docs/tokenizers.md work: every ``evalfw`` and ``evalfw-sacrebleu``
line of its bash blocks and every Python block of the page runs and succeeds, from a folder
laid out as the repository is (``configs/``, ``../shared``, a ``ref.txt`` and a ``hyp.txt``),
with a model trained here where sacreBLEU keeps the published one. Commands that reach
another machine (``curl``, ``scp``) or install packages are not run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.support.shared_data import REPO, SHARED, need_wmt22
from tests.support.spm_models import sacrebleu_home, wmt22_model

pytestmark = [pytest.mark.wmt22, pytest.mark.slow]
pytest.importorskip("sentencepiece")


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def evalfw_lines(text: str) -> list[str]:
    """The ``evalfw`` command lines of the bash blocks, comments cut."""
    lines = [line.split(" #")[0].strip() for block in blocks(text, "bash")
             for line in block.splitlines()]
    return [line for line in lines
            if line.startswith(("evalfw ", "evalfw-sacrebleu "))]


DOCS = (REPO / "docs" / "tokenizers.md").read_text(encoding="utf-8")
COMMANDS = evalfw_lines(DOCS)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A folder beside a ``shared`` link, with the repository's configs and ref.txt/hyp.txt."""
    root = need_wmt22().parents[1]
    base = tmp_path_factory.mktemp("docs")
    (base / "shared").symlink_to(SHARED if SHARED.is_dir() else root)
    folder = base / "project"
    shutil.copytree(REPO / "configs", folder / "configs")
    pair = SHARED / "data" / "wmt22" / "en-zh"
    shutil.copyfile(pair / "ref.A.txt", folder / "ref.txt")
    shutil.copyfile(pair / "sys" / "Online-B.txt", folder / "hyp.txt")
    home = sacrebleu_home(base / "sacrebleu", wmt22_model("unigram"))
    return folder, {**os.environ, "SACREBLEU": str(home), "EVALFW_NO_DOWNLOAD": "1"}


def test_the_pages_have_spbleu_commands():
    assert any("-tok flores200" in c for c in evalfw_lines(DOCS))
    assert len(evalfw_lines(DOCS)) >= 3 and blocks(DOCS, "python")


@pytest.mark.parametrize("command", COMMANDS)
def test_command(project, command):
    folder, env = project
    program = "evalfw.compat.sacrebleu" if command.startswith("evalfw-sacrebleu") else "evalfw"
    command = f"{sys.executable} -m {program} {command.split(' ', 1)[1]}"
    done = subprocess.run(["bash", "-c", command],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout


@pytest.mark.parametrize("code", blocks(DOCS, "python"))
def test_python_block(project, code):
    folder, env = project
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
