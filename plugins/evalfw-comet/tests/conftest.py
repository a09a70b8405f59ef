"""The COMET plugin's tests: tiny COMET checkpoints built once per session from the WMT22 en-de
data (the hub offline, private directories and the data fixtures: plugins/conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Tiny:
    """The tiny reference-based checkpoint and its reference-free sibling."""

    checkpoint: Path
    qe_checkpoint: Path


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
