"""What every model plugin's tests share (they run in the models virtualenv, see
tests/plugins/test_model_plugins.py): nothing leaves the machine (the hub is offline, its cache
empty), the shared WMT22 data's place, and a private evalfw cache, config directory and working
directory per test, with no model kept from another test."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
# an empty Hugging Face cache (read once, when huggingface_hub is imported): no test finds a
# model the machine happens to have
os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="evalfw-hf-")

REPO = Path(__file__).resolve().parents[1]
WMT22 = Path(os.environ.get("EVALFW_SHARED_DIR") or REPO.parent / "shared") / "data" / "wmt22"


def _pair(pair: str) -> Path:
    """The folder of a WMT22 pair, or a skip saying where it was looked for."""
    if not (WMT22 / pair / "src.txt").is_file():
        pytest.skip(f"the WMT22 {pair} data is not at {WMT22 / pair} (set EVALFW_SHARED_DIR)")
    return WMT22 / pair


@pytest.fixture(scope="session")
def en_de() -> Path:
    return _pair("en-de")


@pytest.fixture(scope="session")
def de_en() -> Path:
    return _pair("de-en")


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    from evalfw.metrics.model import ModelMetric

    ModelMetric._models.clear()
