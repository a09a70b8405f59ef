"""Where the shared WMT22 data lives, for the tests that read it.

The data sits beside the repository in ``../shared/data/wmt22``; ``EVALFW_SHARED_DIR`` names
another ``shared`` directory (one holding ``data/wmt22``). Tests that read it carry the
``wmt22`` marker and skip, naming the path they looked at, when it is absent (a user's clone).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("EVALFW_SHARED_DIR") or REPO.parent / "shared")
WMT22 = SHARED / "data" / "wmt22"
MQM_TED = SHARED / "data" / "mqm" / "ted-en-de"


def need_wmt22() -> Path:
    """The WMT22 directory, or a skip saying where it was looked for."""
    if not WMT22.is_dir():
        pytest.skip(f"WMT22 data not found at {WMT22} (../shared is absent in a user's clone; "
                    "set EVALFW_SHARED_DIR to its place)")
    return WMT22


def need_shared_data() -> Path:
    """``../shared/data`` with the WMT22 files and the MQM TED en-de judgements, or a skip
    saying where they were looked for."""
    if not WMT22.is_dir() or not MQM_TED.is_dir():
        pytest.skip(f"shared data not found at {SHARED / 'data'} (../shared is absent in a "
                    "user's clone; set EVALFW_SHARED_DIR to its place)")
    return SHARED / "data"


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


__all__ = ["load_wmt22", "MQM_TED", "need_shared_data", "need_wmt22", "read_lines", "REPO",
           "SHARED", "WMT22", "wmt22_pairs"]
