"""``evalfw verify``: re-run a stored version's config on its inputs and compare every number.

The re-run happens in the run's working directory (recorded relative to the version
directory, so the record holds no absolute path) with the recorded ``--set`` overrides. The
verdict is *identical* only when every input file still has its recorded sha256 and every
number -- scores, precisions, counts, lengths and each per-segment statistic -- is equal
(``==``, not approximately). Otherwise each difference is explained: the input whose hash
changed, the component or package whose version differs, the score that moved and by how much.
Version differences that leave every number unchanged are reported as notes.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.errors import EvalfwError, RecordError
from evalfw.records.load import StoredRun, load_segments, open_run

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost

NUMERIC_FIELDS = ("score", "scores", "precisions", "counts", "totals", "bp", "ratio", "hyp_len",
                  "ref_len", "n", "min", "max")


@dataclass
class Verdict:
    """What ``verify`` found: ``problems`` make it fail, ``notes`` do not."""

    run: Path
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    compared: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        head = (f"verified: {self.run}: all {self.compared} results identical" if self.ok
                else f"NOT verified: {self.run}: {len(self.problems)} difference(s)")
        return [head, *(f"  - {p}" for p in self.problems), *(f"  note: {n}" for n in self.notes)]


def check_inputs(record: dict[str, Any], base: Path, verdict: Verdict) -> None:
    for item in record["inputs"]:
        path = base / item["path"]
        what = f"{item['role']} {item['path']} of test set '{item['test_set']}'"
        if not path.is_file():
            verdict.problems.append(f"input {what} is missing (looked for {path})")
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest != item["sha256"]:
            lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
            verdict.problems.append(
                f"input {what} changed: sha256 {item['sha256'][:12]}... -> {digest[:12]}..., "
                f"bytes {item['bytes']} -> {len(data)}, lines {item['lines']} -> {lines}")


def _diff_versions(old: dict[str, Any], new: dict[str, Any], what: str) -> list[str]:
    out = []
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            out.append(f"{what} {key}: {old.get(key, 'absent')} -> {new.get(key, 'absent')}")
    return out


def compare_environment(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    oe, ne = old["environment"], new["environment"]
    out = _diff_versions(oe["packages"], ne["packages"], "package")
    for key in ("python", "implementation", "counting"):  # counting: absent in older records
        if key in oe and oe[key] != ne.get(key):
            out.append(f"{key} {oe[key]} -> {ne.get(key)}")

    def plugins(rec: dict[str, Any]) -> dict[str, str]:
        return {p["name"]: p.get("version") or p.get("sha256") or p["source"]
                for p in rec["plugins"]}

    out += _diff_versions(plugins(old), plugins(new), "plugin")
    return out


def compare_specs(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out = []
    new_specs = {(s["test_set"], s["metric"]): s for s in new["specs"]}
    for spec in old["specs"]:
        key = (spec["test_set"], spec["metric"])
        other = new_specs.get(key)
        where = f"metric '{key[1]}' on test set '{key[0]}'"
        if other is None:
            out.append(f"{where} is no longer computed")
            continue
        for comp, value in spec["components"].items():
            now = other["components"].get(comp)
            if value != now:
                out.append(f"{where}: {comp} {_describe(value)} -> {_describe(now)}")
    return out


def _describe(value: Any) -> str:
    if isinstance(value, dict) and "name" in value:
        opts = ",".join(f"{k}={v}" for k, v in sorted(value.items())
                        if k not in ("name", "version"))
        return f"{value['name']}@{value.get('version')}" + (f"[{opts}]" if opts else "")
    return repr(value)


def _moved(name: str, old: Any, new: Any) -> str:
    if isinstance(old, (int, float)) and isinstance(new, (int, float)):
        return f"{name} {old!r} -> {new!r} ({new - old:+.6g})"
    return f"{name} {old!r} -> {new!r}"


def compare_results(old: dict[str, Any], new: dict[str, Any], verdict: Verdict) -> None:
    def key(r: dict[str, Any]) -> tuple[str, str, str, str]:
        return (r["test_set"], r["system"], r["metric"], r["level"])

    new_rows = {key(r): r for r in new["results"]}
    for row in old["results"]:
        k = key(row)
        label = f"{k[0]} / {k[1]} / {k[2]} ({k[3]})"
        other = new_rows.pop(k, None)
        if other is None:
            verdict.problems.append(f"{label}: no longer computed")
            continue
        verdict.compared += 1
        moved = [_moved(f, row.get(f), other.get(f)) for f in NUMERIC_FIELDS
                 if row.get(f) != other.get(f)]
        if moved:
            verdict.problems.append(f"{label}: " + "; ".join(moved))
    for k in new_rows:
        verdict.problems.append(f"{' / '.join(k[:3])} ({k[3]}): computed now but not recorded")


def compare_segments(old: dict[str, Any], old_arrays: dict[str, np.ndarray],
                     new: dict[str, Any], new_arrays: dict[str, np.ndarray],
                     verdict: Verdict) -> None:
    new_rows = {(r["test_set"], r["system"], r["metric"], r["level"]): r for r in new["results"]}
    seen: set[tuple[str, str]] = set()
    for row in old["results"]:
        other = new_rows.get((row["test_set"], row["system"], row["metric"], row["level"]))
        if other is None:
            continue
        pairs = [(f"{row['segments']}.{n}", f"{other['segments']}.{n}", n)
                 for n in ("hyp_len", "ref_lens", "matches", "totals")]
        if "sentence_scores" in row and "sentence_scores" in other:
            pairs.append((row["sentence_scores"], other["sentence_scores"], "sentence scores"))
        for a, b, name in pairs:
            if (a, b) in seen:
                continue
            seen.add((a, b))
            x, y = old_arrays.get(a), new_arrays.get(b)
            if x is None or y is None or x.shape != y.shape:
                verdict.problems.append(
                    f"{row['test_set']} / {row['system']}: per-segment {name} have shape "
                    f"{None if x is None else x.shape} -> {None if y is None else y.shape}")
                continue
            diff = x != y
            if diff.any():
                rows = np.unique(np.argwhere(diff)[:, 0])
                verdict.problems.append(
                    f"{row['test_set']} / {row['system']} / {row['metric']}: per-segment {name} "
                    f"differ in {len(rows)} segment(s), first at segment {int(rows[0]) + 1}")


def verify(run: str, runs_dir: Path | None = None, *, host: PluginHost | None = None) -> Verdict:
    """Re-run the stored version ``run`` and compare (see module docstring)."""
    stored = open_run(run, runs_dir)
    return verify_stored(stored, host=host)


def verify_stored(stored: StoredRun, *, host: PluginHost | None = None) -> Verdict:
    from evalfw.runner.run import run_experiment

    record = stored.record
    verdict = Verdict(stored.path)
    base = Path(os.path.realpath(stored.path)) / record["command"]["cwd"]
    config = record["config"]["path"]
    if config is None:
        raise RecordError(f"{stored.path}: the run was made from an in-memory config; only runs "
                          "of a config file can be verified")
    if not base.is_dir():
        raise RecordError(f"{stored.path}: the run's working directory {base} no longer exists")
    old_arrays = load_segments(stored.path, record)
    check_inputs(record, base, verdict)
    overrides: Iterable[str] = [o["set"] for o in record["command"]["overrides"]]
    try:
        with contextlib.chdir(base):
            outcome = run_experiment(config, overrides, host=host, store=False, cache=False)
    except EvalfwError as exc:
        verdict.problems.append(f"re-running the config failed: {exc}")
        return verdict
    new = outcome.record
    if new["config"]["resolved_sha256"] != record["config"]["resolved_sha256"]:
        verdict.problems.append(
            f"config {config} changed since the run: resolved config sha256 "
            f"{record['config']['resolved_sha256'][:12]}... -> "
            f"{new['config']['resolved_sha256'][:12]}...")
    versions = compare_environment(record, new) + compare_specs(record, new)
    compare_results(record, new, verdict)
    compare_segments(record, old_arrays, new, outcome.evaluation.arrays, verdict)
    from evalfw.runner.drilldown import compare_significance  # significance section (issue 4)

    verdict.problems.extend(compare_significance(record, new))
    # versions explain moved numbers; when nothing moved they are only worth a note
    (verdict.problems if verdict.problems else verdict.notes).extend(versions)
    return verdict
