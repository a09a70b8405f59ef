"""Every command of docs/significance.md works as written: they run, in order, in a copy of
the project's configs (the shared WMT22 data beside it, as in a clone), and each exits as the
page says (0, or 1 where it describes a failing check)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from evalfw.cli.main import main
from tests.support.shared_data import REPO, need_wmt22

pytestmark = [pytest.mark.slow, pytest.mark.wmt22]

PAGE = REPO / "docs" / "significance.md"


def commands() -> list[str]:
    text = PAGE.read_text("utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, re.S)
    return [line.strip() for block in blocks for line in block.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_the_page_has_commands():
    found = commands()
    assert all(c.startswith("evalfw ") for c in found), found
    assert any("--margin" in c for c in found) and any("documents" in c for c in found)


def test_every_command_runs(tmp_path, monkeypatch, capsys):
    data = need_wmt22()
    project = tmp_path / "project"
    shutil.copytree(REPO / "configs", project / "configs")
    (tmp_path / "shared" / "data").mkdir(parents=True)
    (tmp_path / "shared" / "data" / "wmt22").symlink_to(data)
    monkeypatch.chdir(project)
    for line in commands():
        argv = shlex.split(line)[1:]
        target = None
        if ">" in argv:
            target = argv[argv.index(">") + 1]
            argv = argv[:argv.index(">")]
        capsys.readouterr()
        status = main(argv)
        out = capsys.readouterr().out
        assert status == 0, (line, out[-2000:])
        if target is not None:
            Path(target).write_text(out, encoding="utf-8")
    assert "<!DOCTYPE html>" in (project / "report.html").read_text("utf-8")
