"""Fixtures of the COMET plugin's tests: nothing leaves the machine (the hub is offline), the
WMT22 en-de data from the shared folder, tiny COMET checkpoints built once per session, and a
private evalfw cache and config directory per test."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
# an empty Hugging Face cache (read once, when huggingface_hub is imported): no test finds a
# model the machine happens to have
os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="evalfw-hf-")

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("EVALFW_SHARED_DIR") or REPO.parent / "shared")
EN_DE = SHARED / "data" / "wmt22" / "en-de"


@dataclass(frozen=True)
class Tiny:
    """The tiny reference-based checkpoint and its reference-free sibling."""

    checkpoint: Path
    qe_checkpoint: Path


@pytest.fixture(scope="session")
def en_de() -> Path:
    if not (EN_DE / "src.txt").is_file():
        pytest.skip(f"the WMT22 en-de data is not at {EN_DE} (set EVALFW_SHARED_DIR)")
    return EN_DE


@pytest.fixture(scope="session")
def tiny(en_de: Path, tmp_path_factory: pytest.TempPathFactory) -> Tiny:
    from evalfw_comet import tiny as build

    root = tmp_path_factory.mktemp("comet")
    texts = [t for name in ("src.txt", "ref.A.txt")
             for t in (en_de / name).read_text("utf-8").splitlines()]
    ref = build.build(root / "tiny", texts)
    qe = build.build(root / "tiny-qe", [], reference_free=True, seed=2,
                     encoder=root / "tiny" / "encoder")
    return Tiny(ref, qe)


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    from evalfw.metrics.model import ModelMetric

    ModelMetric._models.clear()
