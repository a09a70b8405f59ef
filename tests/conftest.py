"""Shared fixtures: a fresh plugin host per test (no entry-point autoload), the shared data."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
WMT22 = SHARED / "data" / "wmt22"


@pytest.fixture
def host():
    from evalfw.host.host import PluginHost

    return PluginHost.create(autoload=False)


@pytest.fixture(scope="session")
def session_host():
    from evalfw.host.host import PluginHost

    return PluginHost.create(autoload=False)


@pytest.fixture(autouse=True)
def _scrub_env(monkeypatch):
    for var in ("EVALFW_DISABLE_PLUGINS", "EVALFW_DISABLE_PLUGIN_AUTOLOAD", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)


def need_wmt22() -> Path:
    if not WMT22.is_dir():
        pytest.skip(f"WMT22 data not found at {WMT22} (../shared is absent in a user's clone; CI has it)")
    return WMT22


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def wmt22_pairs(root: Path) -> list[str]:
    """The language pairs of the WMT22 data: the folders with system outputs."""
    return sorted(p.name for p in root.iterdir() if (p / "sys").is_dir())


def load_wmt22(root: Path, pair: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(references by name, system outputs by name) of a pair, with line ends stripped as
    sacreBLEU's command line strips them (the published scores come from it)."""
    refs = {p.name.split(".")[1]: [x.rstrip() for x in read_lines(p)]
            for p in sorted((root / pair).glob("ref.*.txt"))}
    systems = {p.stem: [x.rstrip() for x in read_lines(p)]
               for p in sorted((root / pair / "sys").glob("*.txt"))}
    return refs, systems
