"""Removing old run versions: keep the last N per experiment, or drop those before a date.

:func:`plan` chooses, :func:`remove` deletes. The latest version of an experiment is never
chosen, whatever the criteria, so ``show``/``verify``/``compare`` of ``<experiment>`` keep
working. Only complete version directories (``<UTC stamp>-<n>`` holding a ``record.json``)
are considered: hidden temporary directories, the statistics cache and anything else in the
runs directory are never touched. A version that is a symbolic link is refused rather than
followed.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from evalfw.errors import RecordError
from evalfw.records.load import experiments, versions
from evalfw.records.naming import version_key

__all__ = ["Candidate", "plan", "remove", "size_of"]


@dataclass(frozen=True)
class Candidate:
    """A version chosen for removal and the bytes it takes."""

    experiment: str
    path: Path
    bytes: int

    @property
    def version(self) -> str:
        return self.path.name


def size_of(path: Path) -> int:
    """Bytes of the regular files under ``path`` (links are not followed)."""
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


def _stamp_date(name: str) -> date:
    stamp = version_key(name)[0]  # yyyymmddTHHMMSSZ, UTC
    return date(int(stamp[:4]), int(stamp[4:6]), int(stamp[6:8]))


def plan(runs_dir: Path, experiment: str | None = None, *, keep: int | None = None,
         before: date | None = None) -> list[Candidate]:
    """Versions to remove, oldest first per experiment: beyond the last ``keep`` ones and
    (when given) created before ``before`` (UTC day); given both, a version must meet both.
    The latest version of each experiment is always kept."""
    if keep is None and before is None:
        raise RecordError("say what to remove: --keep N (keep the last N versions of each "
                          "experiment) or --before YYYY-MM-DD (remove older versions)")
    if keep is not None and keep < 1:
        raise RecordError(f"--keep {keep}: keep at least 1 version (the latest is never "
                          "removed)")
    names = [experiment] if experiment is not None else experiments(runs_dir)
    if experiment is not None and not versions(runs_dir / experiment):
        from evalfw.errors import suggest

        raise RecordError(f"no experiment '{experiment}' with versions in {runs_dir}"
                          f"{suggest(experiment, experiments(runs_dir))}; `evalfw runs` "
                          "lists them")
    out = []
    for name in names:
        found = versions(runs_dir / name)
        older = found[:-1]  # never the latest
        if keep is not None:
            older = found[:max(0, len(found) - keep)]
        if before is not None:
            older = [p for p in older if _stamp_date(p.name) < before]
        out += [Candidate(name, p, size_of(p)) for p in older]
    return out


def _gone(_function: object, _path: str, exc_info: tuple[type, BaseException, object]) -> None:
    """rmtree's error handler: what another process removed first is no error."""
    if not isinstance(exc_info[1], FileNotFoundError):
        raise exc_info[1]


def remove(candidates: list[Candidate]) -> int:
    """Delete the chosen versions; returns the bytes freed. A version another process
    removed meanwhile (a concurrent prune) is skipped and frees nothing here."""
    freed = 0
    for c in candidates:
        if c.path.is_symlink():
            raise RecordError(f"{c.path} is a symbolic link; evalfw removes only version "
                              "directories it wrote, not what a link points to")
        if not os.path.lexists(c.path):
            continue
        try:
            shutil.rmtree(c.path, onerror=_gone)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise RecordError(f"cannot remove {c.path}: {exc.strerror or exc}; check its "
                              "permissions") from None
        freed += c.bytes
    return freed
