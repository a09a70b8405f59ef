"""Fixtures of the embedding plugin's tests: the hub offline, the WMT22 de-en data from the
shared folder, a private evalfw cache and config directory per test."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="evalfw-hf-")  # no model from the hub cache

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("EVALFW_SHARED_DIR") or REPO.parent / "shared")
DE_EN = SHARED / "data" / "wmt22" / "de-en"


@pytest.fixture(scope="session")
def de_en() -> Path:
    if not (DE_EN / "src.txt").is_file():
        pytest.skip(f"the WMT22 de-en data is not at {DE_EN} (set EVALFW_SHARED_DIR)")
    return DE_EN


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    from evalfw.metrics.model import ModelMetric

    ModelMetric._models.clear()
