"""``evalfw verify`` treats a record as data: it loads no code and opens no file that the record
chose on its own, only what the person verifying trusts (current directory, --data-root,
--plugins-dir)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from evalfw.cli.main import main
from tests.support.runs import mini

PLUGIN = """\
from pathlib import Path
Path({marker!r}).write_text("imported")
"""


@pytest.fixture
def stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A verified run of a small config in tmp_path/project (the current directory)."""
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    mini(project, b"the cat sat on the mat\n", b"the cat sat on a mat\n", b"a cat on the mat\n")
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    (version,) = (project / "runs" / "mini").iterdir()
    assert main(["verify", "mini"]) == 0
    return version


def edit(version: Path, change) -> None:
    path = version / "record.json"
    record = json.loads(path.read_text("utf-8"))
    change(record)
    path.write_text(json.dumps(record), "utf-8")


def hostile_plugin_dir(where: Path) -> tuple[Path, Path]:
    plugins = where / "x-plugins"
    plugins.mkdir()
    marker = where / "imported.txt"
    (plugins / "x.py").write_text(PLUGIN.format(marker=str(marker)), "utf-8")
    return plugins, marker


def test_a_plugin_dir_added_to_the_recorded_overrides_is_not_imported(stored, tmp_path, capsys):
    plugins, marker = hostile_plugin_dir(tmp_path)
    edit(stored, lambda r: r["command"]["overrides"].append({"set": f"plugin_dirs=[{plugins}]"}))
    status = main(["verify", "mini"])
    out = capsys.readouterr()
    assert status != 0 and not marker.exists()
    assert f"--plugins-dir {plugins}" in out.out + out.err
    # naming the directory is the user's choice to trust it
    assert main(["verify", "mini", "--plugins-dir", str(plugins)]) in (0, 1)
    assert marker.exists()


def test_a_config_and_plugins_carried_inside_the_version_directory_are_not_loaded(
        stored, capsys):
    plugins, marker = hostile_plugin_dir(stored)
    (stored / "evil.yaml").write_text(
        (Path("mini.yaml").read_text("utf-8")
         .replace("experiment: mini", f"experiment: mini\nplugin_dirs: [{plugins}]")), "utf-8")

    def point_at_own_config(r):
        r["command"]["cwd"] = "."
        r["config"]["path"] = "evil.yaml"
        # verify re-runs the config the record holds: that is where a record would name code
        r["config"]["resolved"]["plugin_dirs"] = [str(plugins)]

    edit(stored, point_at_own_config)
    assert main(["verify", "mini"]) != 0
    assert not marker.exists()
    assert "verify runs no code that a record names" in capsys.readouterr().out


def test_an_input_path_outside_the_trusted_directories_is_never_opened(stored, tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("private\nlines\n", "utf-8")
    digest = __import__("hashlib").sha256(secret.read_bytes()).hexdigest()
    rel = os.path.relpath(secret, stored / "../../..")
    edit(stored, lambda r: r["inputs"][0].update(path=rel))
    assert main(["verify", "mini"]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "outside the directories verify reads" in text and "--data-root" in text
    assert digest[:12] not in text and "lines 2" not in text and "-> 14," not in text
    # trusted explicitly: now it is read (and differs from the recorded reference)
    assert main(["verify", "mini", "--data-root", str(tmp_path)]) == 1
    assert digest[:12] in capsys.readouterr().out


def test_a_symlink_inside_the_project_leading_outside_is_refused(stored, tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("private\n", "utf-8")
    Path("link.txt").symlink_to(secret)
    edit(stored, lambda r: r["inputs"][0].update(path="link.txt"))
    assert main(["verify", "mini"]) == 1
    assert "outside the directories verify reads" in capsys.readouterr().out


@pytest.mark.parametrize("config", ["/etc/passwd", "../../../../../../../../etc/hostname"])
def test_a_config_path_outside_is_an_error_without_reading_it(stored, config, capsys):
    edit(stored, lambda r: r["config"].update(path=config))
    assert main(["verify", "mini"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evalfw: error: the record's config is ") and "root:" not in err
    assert len(err.strip().splitlines()) == 1
