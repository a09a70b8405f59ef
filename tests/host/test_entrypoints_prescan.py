"""The entry-point pre-scan never hides an entry point importlib.metadata would find."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from evalfw.host import _entrypoints as entrypoints


def _dist(root: Path, name: str, kind: str, text: str | None) -> None:
    d = root / f"{name}{kind}"
    d.mkdir()
    (d / ("METADATA" if kind == ".dist-info" else "PKG-INFO")).write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    if text is not None:
        (d / "entry_points.txt").write_text(text)


@pytest.mark.parametrize("kind", [".dist-info", ".egg-info"])
@pytest.mark.parametrize("text,found", [
    ("[evalfw]\nx = mod:obj\n", True),
    ("  [evalfw]  \nx = mod\n", True),
    ("[console_scripts]\na = b:c\n\n[evalfw]\nx = mod\n", True),
    ("[console_scripts]\nevalfw = evalfw.cli:main\n", False),
    ("[evalfw-extra]\nx = mod\n", False),
    ("# [evalfw]\n", False),
    (None, False),
])
def test_prescan_agrees_with_importlib_metadata(tmp_path, kind, text, found):
    import importlib.metadata

    _dist(tmp_path, "somepkg", kind, text)
    assert entrypoints.maybe_present("evalfw", [str(tmp_path)]) is found
    real = [d for d in importlib.metadata.distributions(path=[str(tmp_path)])
            if any(e.group == "evalfw" for e in d.entry_points)]
    assert bool(real) is found


def test_zip_or_missing_path_entries(tmp_path):
    z = tmp_path / "x.zip"
    z.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    assert entrypoints.maybe_present("evalfw", [str(z)]) is True  # importlib decides
    assert entrypoints.maybe_present("evalfw", [str(tmp_path / "missing")]) is False


def test_custom_distribution_finder_defers_to_importlib(monkeypatch):
    class Finder:
        @staticmethod
        def find_distributions(context=None):
            return iter(())

    monkeypatch.setattr(sys, "meta_path", [Finder, *sys.meta_path])
    assert entrypoints.maybe_present("evalfw", []) is True


def test_scoring_without_plugins_does_not_import_importlib_metadata():
    code = ("import sys; from evalfw.api import corpus_bleu; "
            "corpus_bleu(['a b c'], [['a b c']]); "
            "print('importlib.metadata' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PATH": "", "EVALFW_DISABLE_PLUGINS": ""})
    assert out.stdout.strip() in ("False", "True")
    if not entrypoints.maybe_present("evalfw"):
        assert out.stdout.strip() == "False"


def test_the_importlib_metadata_backport_finder_keeps_the_prescan(tmp_path, monkeypatch):
    # importing MLflow installs the backport's path finder, which reads the same directories
    backport = type("MetadataPathFinder", (), {"__module__": "importlib_metadata.x",
                                                "find_distributions": lambda *a: iter(())})
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, backport()])
    assert entrypoints.maybe_present("evalfw", [str(tmp_path)]) is False
    other = type("MetadataPathFinder", (), {"__module__": "somewhere",
                                             "find_distributions": lambda *a: iter(())})
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, other()])
    assert entrypoints.maybe_present("evalfw", [str(tmp_path)]) is True


def test_the_metadata_backports_path_finder_keeps_the_prescan(tmp_path, monkeypatch):
    # importing Dask installs importlib_metadata's finder; it reads the same directories
    backport = pytest.importorskip("importlib_metadata")
    import sys

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, backport.MetadataPathFinder()])
    assert entrypoints.maybe_present("evalfw", [str(tmp_path)]) is False
