"""The README's first two commands: the main job works in a brand-new virtual environment, and
.ci/run runs exactly the README's test command."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.support.shared_data import REPO


def readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block, "README.md must open with a bash block of commands"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines()[:2]]


def test_readme_opens_with_the_two_commands():
    main_job, tests = readme_commands()
    assert main_job.endswith("evalfw run configs/wmt.yaml") and main_job.startswith("pip install")
    assert "pytest" in tests and tests.startswith("pip install")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines(), ".ci/run must run exactly the README's test command"


def _copy_tracked_files(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO,
                           capture_output=True, text=True, check=True).stdout.split("\n")
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to list the project's files")
def test_main_job_in_a_brand_new_virtualenv(tmp_path):
    if not os.environ.get("CI") and not os.environ.get("EVALFW_VENV_TEST"):
        pytest.skip("builds a fresh virtualenv and installs from the package index (~30 s); "
                    "runs in CI (CI=true) or with EVALFW_VENV_TEST=1")
    main_job, _ = readme_commands()
    project = tmp_path / "clone"
    _copy_tracked_files(project)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True, clear=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(env_dir)
    done = subprocess.run(["bash", "-c", main_job], cwd=project, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert "sacrebleu" in done.stdout and "Strong" in done.stdout
    versions = list((project / "runs" / "wmt").iterdir())
    assert len(versions) == 1 and (versions[0] / "record.json").is_file()
    # the venv's evalfw, not this interpreter's
    where = subprocess.run(["bash", "-c", "command -v evalfw"], env=env, capture_output=True,
                           text=True).stdout.strip()
    assert where.startswith(str(env_dir)), where
    assert sys.prefix not in where
