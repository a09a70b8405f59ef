"""The example third-party plugin package plugins/evalfw-smooth-floorplus.

Installing into a fresh venv is too slow for the test suite, so the test does what an install
leaves behind: a ``*.dist-info`` directory (METADATA and the entry points the package's own
pyproject.toml declares) on ``sys.path`` beside the package sources. ``importlib.metadata``
then really discovers the distribution and its ``evalfw`` entry point, exactly as after
``pip install``.
"""

from __future__ import annotations

import importlib.metadata
import sys
import tomllib
from pathlib import Path

import pytest
import sacrebleu

from evalfw.errors import ConfigError
from evalfw.host.host import PluginHost
from evalfw.records.load import load_segments
from tests.support.runs import REPO, run, write_config

pytestmark = pytest.mark.parity

PACKAGE = REPO / "plugins" / "evalfw-smooth-floorplus"
DIST = "evalfw-smooth-floorplus"


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The package 'installed' from its own pyproject.toml (metadata on sys.path)."""
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text("utf-8"))["project"]
    name, version = project["name"], project["version"]
    site = tmp_path / "site"
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", "utf-8")
    lines = ["[evalfw]", *(f"{k} = {v}" for k, v in project["entry-points"]["evalfw"].items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", "utf-8")
    monkeypatch.syspath_prepend(str(PACKAGE / "src"))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.chdir(tmp_path)
    yield version
    sys.modules.pop("evalfw_smooth_floorplus", None)


def data(tmp: Path) -> None:
    src = REPO / "configs" / "sample" / "en-de"
    for name in ("ref.A.txt", "ref.B.txt", "sys/Weak.txt", "sys/Medium.txt"):
        (tmp / Path(name).name).write_bytes((src / name).read_bytes())


CONFIG = """\
schema_version: 1
experiment: plug
output_dir: runs
requires: ["evalfw-smooth-floorplus>=0.1"]
test_sets:
  - name: en-de
    langs: en-de
    references: [ref.A.txt, ref.B.txt]
    systems: {{Weak: Weak.txt, Medium: Medium.txt}}
metrics:
  - name: floorplus
    smoothing: {{name: floor-plus, {options}}}
    effective_order: true
    level: [corpus, sentence]
"""


def test_package_metadata_is_real():
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text("utf-8"))
    assert project["build-system"]["build-backend"] == "setuptools.build_meta"
    assert project["project"]["entry-points"]["evalfw"] == {"floorplus": "evalfw_smooth_floorplus"}
    assert (PACKAGE / "src" / "evalfw_smooth_floorplus" / "__init__.py").is_file()


def test_discovered_through_its_entry_point(installed):
    eps = importlib.metadata.entry_points(group="evalfw")
    (ep,) = [e for e in eps if e.name == "floorplus"]
    assert ep.dist.name == DIST and ep.dist.version == installed
    host = PluginHost.create(autoload=True)
    entry = host.registry("smoothing").entry("floor-plus")
    assert entry.plugin.source == "entrypoint"
    assert (entry.plugin.distribution, entry.plugin.version) == (DIST, installed)
    assert "floor-plus" not in PluginHost.create(autoload=False).registry("smoothing")


def test_selected_in_a_config_and_named_in_the_record(installed, tmp_path):
    data(tmp_path)
    cfg = write_config(tmp_path / "plug.yaml", CONFIG.format(options="floor: 0.2, decay: 1"))
    outcome = run(str(cfg))
    record = outcome.record
    plugin = next(p for p in record["plugins"] if p["name"] == "floorplus")
    assert plugin == {"name": "floorplus", "source": "entrypoint", "distribution": DIST,
                      "version": installed}
    assert record["environment"]["packages"][DIST] == installed
    (spec,) = record["specs"]
    assert spec["definition"]["options"]["smoothing"] == {
        "name": "floor-plus", "version": "1", "floor": 0.2, "decay": 1}
    assert "smooth:floor-plus@1[decay=1,floor=0.2]" in spec["signature"]
    assert spec["sacrebleu_signature"] is None  # sacreBLEU cannot express this smoothing
    # with decay 1 the plugin is sacreBLEU's floor: the sentence scores must agree exactly
    refs = [(tmp_path / f).read_text().split("\n")[:-1] for f in ("ref.A.txt", "ref.B.txt")]
    oracle = sacrebleu.BLEU(smooth_method="floor", smooth_value=0.2, effective_order=True)
    arrays = load_segments(outcome.path, record)
    for row in record["results"]:
        if row["level"] != "sentence":
            continue
        hyps = (tmp_path / f"{row['system']}.txt").read_text().split("\n")[:-1]
        want = [oracle.sentence_score(h, [a, b]).score for h, a, b in zip(hyps, *refs)]
        assert arrays[row["sentence_scores"]].tolist() == want


@pytest.mark.parametrize("options, message", [
    ("floor: 2", "metrics[0].smoothing.floor: expected a number <= 1"),
    ("decay: 0.5", "metrics[0].smoothing.decay: expected a number >= 1"),
    ("flor: 0.2", "unknown key 'flor' (did you mean 'floor'?)"),
])
def test_options_validated_by_the_plugins_schema(installed, tmp_path, options, message):
    data(tmp_path)
    cfg = write_config(tmp_path / "plug.yaml", CONFIG.format(options=options))
    with pytest.raises(ConfigError) as info:
        run(str(cfg))
    text = str(info.value)
    assert message in text and "plug.yaml:12:" in text
    assert "(options of smoothing 'floor-plus')" in text


def test_requires_fails_when_the_package_is_absent(tmp_path, monkeypatch):
    real = importlib.metadata.version

    def version(name: str) -> str:  # absent, even where the package is installed
        if name == DIST:
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "version", version)
    monkeypatch.chdir(tmp_path)
    data(tmp_path)
    cfg = write_config(tmp_path / "plug.yaml", CONFIG.format(options="floor: 0.2"))
    with pytest.raises(ConfigError, match="evalfw-smooth-floorplus"):
        run(str(cfg))
    assert not (tmp_path / "runs").exists()
