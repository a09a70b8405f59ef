"""The statistics cache is an optimisation, never a source of truth or of failure: a cache
that cannot be used leaves the run's numbers unchanged with one warning, and a tampered entry
is recomputed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from evalfw.runner.cache import checksum
from tests.cli.test_hostile_inputs import config_text, evalfw_cli


def scores(tmp_path: Path, env: dict[str, str]) -> tuple[dict[str, float], str]:
    """Run the two-system config; its corpus scores and stderr."""
    done = evalfw_cli("run", "c.yaml", "--json", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    record = json.loads(done.stdout)
    found = {r["system"]: r["score"] for r in record["results"] if r["level"] == "corpus"}
    return found, done.stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    # the statistics entries alone (the checks' flags have tests of their own)
    (tmp_path / "c.yaml").write_text(config_text(top="experiment: x\nchecks: none\n"), "utf-8")
    return tmp_path


def unusable(kind: str, tmp_path: Path) -> str:
    if kind == "file":
        (tmp_path / "afile").write_text("x")
        return str(tmp_path / "afile")
    if kind == "under a file":
        (tmp_path / "afile").write_text("x")
        return str(tmp_path / "afile" / "cache")
    if kind == "read-only":
        (tmp_path / "ro").mkdir()
        os.chmod(tmp_path / "ro", 0o500)
        return str(tmp_path / "ro")
    return kind


@pytest.mark.parametrize("kind", ["/dev/null", "/proc/self", "file", "under a file",
                                  "read-only"])
def test_an_unusable_cache_changes_no_number_and_warns_once(project, kind):
    if kind == "read-only" and os.geteuid() == 0:
        pytest.skip("root writes into read-only directories")
    want, _ = scores(project, {"EVALFW_NO_CACHE": "1"})
    got, err = scores(project, {"EVALFW_CACHE_DIR": unusable(kind, project)})
    assert got == want
    warnings = [line for line in err.splitlines() if "statistics cache" in line]
    assert len(warnings) == 1 and warnings[0].startswith("evalfw: warning: "), err


def entries(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*.npz"))


def rewrite(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    """Change an entry's statistics and write a matching checksum, as a careful forger would."""
    with np.load(path) as data:
        stats = data["statistics"].copy()
    stats = change(stats)
    np.savez(path, statistics=stats, sha256=np.array(checksum(stats)))


@pytest.mark.parametrize("damage", ["matches equal totals, checksum kept",
                                    "negative counts, checksum updated",
                                    "a row too few, checksum updated",
                                    "truncated file"])
def test_a_tampered_entry_is_recomputed_with_a_warning(project, damage):
    cache = project / "cache"
    env = {"EVALFW_CACHE_DIR": str(cache)}
    want, _ = scores(project, env)
    for path in entries(cache):
        if damage.startswith("matches"):
            with np.load(path) as data:
                stats, recorded = data["statistics"].copy(), data["sha256"]
            order = (stats.shape[1] - 2) // 2
            stats[:, 2:2 + order] = stats[:, 2 + order:]  # every n-gram matched
            np.savez(path, statistics=stats, sha256=recorded)
        elif damage.startswith("negative"):
            rewrite(path, lambda s: -s)
        elif damage.startswith("a row"):  # rows of another test set: never stored
            rewrite(path, lambda s: s[:-1])
        else:
            path.write_bytes(path.read_bytes()[:40])
    got, err = scores(project, env)
    assert got == want
    assert "statistics cache entry" in err and "recomputed" in err, err
    again, err = scores(project, env)  # the recomputed entries replaced the bad ones
    assert again == want and "statistics cache entry" not in err
