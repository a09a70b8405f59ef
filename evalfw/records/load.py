"""Finding, listing and reading stored run versions.

``RUN`` arguments of ``show`` and ``verify`` may be a version directory (or its
``record.json``), ``<experiment>`` (its latest version) or ``<experiment>/<version>`` under the
runs directory. Reading validates the record against its schema and checks the segments file
against the sha256 recorded for it, so a damaged record is reported, never half-used.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.errors import RecordError, suggest
from evalfw.io.text import read_bytes
from evalfw.limits import MAX_NUMBER_DIGITS, MAX_RECORD_DEPTH, max_record_bytes, max_segments_bytes
from evalfw.records.document import RECORD_FILE, SEGMENTS_FILE, validate_record
from evalfw.records.naming import TMP_PREFIX, VERSION_RE, names_in, version_key
from evalfw.records.segments import read_segments
from evalfw.records.upgrade import upgrade, v1_statistics

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric

DEFAULT_RUNS_DIR = Path("runs")


@dataclass(frozen=True, slots=True)
class StoredRun:
    """One version directory and its validated record."""

    path: Path
    record: dict[str, Any]

    def segments(self) -> dict[str, np.ndarray]:
        return load_segments(self.path, self.record)

    def statistics(self, arrays: Mapping[str, np.ndarray], cell: str, metric: Metric) -> np.ndarray:
        """The statistics rows of ``cell`` (read by :meth:`segments`) under ``metric``."""
        if self.record["segments"]["format"] == "npz-1":
            return v1_statistics(arrays, cell, metric)
        return arrays[cell]


def versions(exp_dir: Path) -> list[Path]:
    """Complete versions of an experiment, oldest first (temporary directories ignored).
    A version another process removes after this listing may be gone when it is read."""
    found = [exp_dir / name for name in names_in(exp_dir) if not name.startswith(TMP_PREFIX)
             and VERSION_RE.match(name) and (exp_dir / name / RECORD_FILE).is_file()]
    return sorted(found, key=lambda p: version_key(p.name))


def experiments(runs_dir: Path) -> list[str]:
    return sorted(name for name in names_in(runs_dir)
                  if not name.startswith(".") and versions(runs_dir / name))


def resolve_run(run: str, runs_dir: Path | None = None) -> Path:
    """The version directory that ``run`` names (see module docstring)."""
    runs_dir = runs_dir or DEFAULT_RUNS_DIR
    given = Path(run)
    if given.name == RECORD_FILE and given.is_file():
        return given.parent
    if (given / RECORD_FILE).is_file():
        return given
    candidate = runs_dir / run
    if (candidate / RECORD_FILE).is_file() and VERSION_RE.match(candidate.name):
        return candidate
    if candidate.is_dir() and "/" not in run.strip("/"):
        found = versions(candidate)
        if found:
            return found[-1]
        raise RecordError(f"experiment '{run}' in {runs_dir} has no complete version yet; "
                          f"run `evalfw run CONFIG` first")
    exp, _, ver = run.strip("/").partition("/")
    if ver and (runs_dir / exp).is_dir():
        names = [p.name for p in versions(runs_dir / exp)]
        raise RecordError(f"experiment '{exp}' has no version '{ver}'{suggest(ver, names)}; "
                          f"`evalfw runs {exp}` lists its versions")
    names = experiments(runs_dir)
    raise RecordError(
        f"no run '{run}': not a version directory and no experiment of that name in "
        f"{runs_dir}{suggest(exp, names)}; `evalfw runs` lists the experiments "
        "(use --runs-dir DIR for another runs directory)")


def _read_bounded(path: Path, limit: int, variable: str) -> bytes:
    """A regular file's bytes, refused beyond ``limit`` before and while reading."""
    return read_bytes(path, str(path), limit=limit, error=RecordError, variable=variable,
                      missing="is this a version directory?")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a record holds")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a {len(text)}-digit integer (at most {MAX_NUMBER_DIGITS} digits)")
    return int(text)


def _depth(value: Any) -> int:
    """Nesting depth of a parsed JSON value, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            if depth <= MAX_RECORD_DEPTH:
                stack.extend((v, depth + 1) for v in item)
    return deepest


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]}... does not fit a float")
    return value


def load_record(version_dir: Path) -> dict[str, Any]:
    path = version_dir / RECORD_FILE
    data = _read_bounded(path, max_record_bytes(), "EVALFW_MAX_RECORD_BYTES")
    try:
        record = json.loads(data.decode("utf-8"), parse_int=_bounded_int, parse_float=_finite_float,
                            parse_constant=_refuse_constant)
    except RecursionError:
        raise RecordError(f"{path}: nested too deeply to be a record (at most "
                          f"{MAX_RECORD_DEPTH} levels); the file is damaged") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise RecordError(f"{path}: cannot read the record: {exc}; the file is damaged") from None
    if _depth(record) > MAX_RECORD_DEPTH:
        raise RecordError(f"{path}: nested more than {MAX_RECORD_DEPTH} levels deep; a record "
                          "is not, the file is damaged")
    validate_record(record, str(path))
    return upgrade(record)


def open_run(run: str, runs_dir: Path | None = None) -> StoredRun:
    path = resolve_run(run, runs_dir)
    return StoredRun(path, load_record(path))


def load_segments(version_dir: Path, record: dict[str, Any]) -> dict[str, np.ndarray]:
    """The per-segment arrays (int64 statistics, float64 sentence scores), read within limits
    and checked against the record (:mod:`evalfw.records.segments`)."""
    path = version_dir / SEGMENTS_FILE
    data = _read_bounded(path, max_segments_bytes(), "EVALFW_MAX_SEGMENTS_BYTES")
    expected = record["segments"]["sha256"]
    if hashlib.sha256(data).hexdigest() != expected:
        raise RecordError(f"{path}: sha256 differs from the one in record.json; the segments "
                          "file was changed or damaged after the run")
    return read_segments(data, record, str(path))


def files_problem(version_dir: Path, record: Mapping[str, Any]) -> str | None:
    """Why a version's files do not match its record (its segments file missing, not a
    regular file, beyond the size limit, or with another sha256), or None. The file is read
    in blocks, so any size costs one block of memory."""
    path = version_dir / SEGMENTS_FILE
    try:
        facts = os.stat(path)  # before opening: opening a FIFO would wait for a writer
        if not stat.S_ISREG(facts.st_mode):
            return f"{SEGMENTS_FILE} is not a regular file"
        if facts.st_size > max_segments_bytes():
            return f"{SEGMENTS_FILE} is larger than EVALFW_MAX_SEGMENTS_BYTES"
        with open(path, "rb") as fh:
            digest = hashlib.sha256()
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except FileNotFoundError:
        return f"{SEGMENTS_FILE} is missing"
    except OSError as exc:
        return f"{SEGMENTS_FILE} cannot be read ({exc.strerror or exc})"
    if digest.hexdigest() != record["segments"]["sha256"]:
        return f"{SEGMENTS_FILE} does not match the record (another sha256)"
    return None


def headline(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Per test set, the best system by the first metric's first level, in the metric's
    direction (for listings)."""
    out = []
    first = record["metrics"][0]["name"] if record["metrics"] else None
    for ts in record["test_sets"]:
        rows = [r for r in record["results"] if r["test_set"] == ts["name"]
                and r["metric"] == first]
        if not rows:
            continue
        level = rows[0]["level"]
        rows = [r for r in rows if r["level"] == level]
        higher = record["metrics"][0].get("higher_is_better", True)
        best = (max if higher else min)(rows, key=lambda r: r["score"])
        out.append({"test_set": ts["name"], "metric": first, "level": level,
                    "best_system": best["system"], "score": best["score"],
                    "score_scale": best["score_scale"], "systems": len(rows)})
    return out


def inputs_sha256(record: Mapping[str, Any]) -> str:
    """One sha256 over the contents of a run's input files (by role and test set, not by path):
    equal for two runs on the same data, whatever the files were called."""
    parts = sorted(f"{i['role']}\t{i['test_set']}\t{i.get('system', '')}\t{i['sha256']}"
                   for i in record["inputs"])
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def list_runs(runs_dir: Path, experiment: str | None = None,
              judge: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
              check: Callable[[StoredRun], str | None] | None = None
              ) -> list[dict[str, Any]]:
    """Summaries of every complete version (of ``experiment``, or of all), oldest first.
    A version whose record cannot be read is listed with its error instead of hiding it.
    ``judge`` gives a record its metrics' directions as the installed metrics have them, so
    the headline's best system is not the record's to choose (the CLI passes the rebuilt
    metrics' view; without it the record's own entries are used). ``check`` says why a
    version's scores are not what its stored statistics give (``damaged`` then says so)."""
    if experiment is not None and not (runs_dir / experiment).is_dir():
        raise RecordError(f"no experiment '{experiment}' in {runs_dir}"
                          f"{suggest(experiment, experiments(runs_dir))}; `evalfw runs` lists them")
    names = [experiment] if experiment is not None else experiments(runs_dir)
    out = []
    for name in names:
        for path in versions(runs_dir / name):
            entry: dict[str, Any] = {"experiment": name, "version": path.name, "path": str(path)}
            try:
                record = load_record(path)
            except RecordError as exc:
                if not (path / RECORD_FILE).exists():
                    continue  # removed since the listing (pruned by another process)
                entry["error"] = str(exc)
            else:
                problem = files_problem(path, record)
                if problem is None and check is not None:
                    problem = check(StoredRun(path, record))
                if problem is not None:
                    entry["damaged"] = problem
                entry.update(created=record["created"],
                             config_sha256=record["config"]["resolved_sha256"],
                             inputs_sha256=inputs_sha256(record),
                             test_sets=[t["name"] for t in record["test_sets"]],
                             headline=headline(judge(record) if judge else record))
            out.append(entry)
    return out


__all__ = [
    "DEFAULT_RUNS_DIR", "experiments", "files_problem", "headline", "inputs_sha256", "list_runs", "load_record",
    "load_segments", "open_run", "resolve_run", "StoredRun", "versions",
]
