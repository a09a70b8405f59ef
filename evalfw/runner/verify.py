"""``evalfw verify``: re-run a stored version's config on its inputs and compare every number.

A record verifies on its own: the re-run uses the config the record holds (as resolved, with
the recorded ``--set`` overrides), not the YAML file, which may have moved, changed or gone.
It happens in the run's working directory (recorded relative to the version directory, so the
record holds no absolute path), or, for a version directory copied elsewhere, in the current
directory; when the recorded inputs are not there and the config reads its data from
``data_root``, ``--data-root DIR`` says where the data is now (inputs are then compared by
content, not by path). The verdict is *identical* only when every input file still has its
recorded sha256 and every number -- scores, what each metric reports with them (BLEU's
precisions, counts, lengths), each per-segment statistic and the significance section -- is
equal (``==``, not approximately). Otherwise each difference is explained: the input whose
hash changed, the metric, component or package whose version differs, the score that moved and
by how much (exit status 1). A record that *cannot* be verified here -- an input missing or
unreadable, a plugin not installed, a config the installed plugins refuse -- is not a
difference: it says why (``unverifiable``, exit status 2). Differences that leave every number
unchanged (versions, the defaults evalfw fills into a config, the executor, a config file
changed since) are reported as notes. Records of earlier schema versions are verified the same
way (:mod:`evalfw.records.upgrade`).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import os
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.errors import (
    AntiConservativeWarning,
    EvalfwError,
    InputError,
    RecordError,
    ResolutionWarning,
)
from evalfw.io.text import read_bytes
from evalfw.limits import MAX_CONFIG_BYTES
from evalfw.records.load import StoredRun, load_segments, open_run
from evalfw.runner._trust import Trust, check_config_files, trusted_plugin_dirs
from evalfw.runner.recorded import describe_changes

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost
    from evalfw.runner.run import RunOutcome

#: result fields that are not numbers a metric computed
LABEL_FIELDS = ("test_set", "system", "metric", "level", "segments", "sentence_scores")


@dataclass
class Verdict:
    """What ``verify`` found: ``problems`` (differences) make it fail, ``unverifiable`` (why
    it could not be checked here) make it inconclusive, ``notes`` do neither."""

    run: Path
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    compared: int = 0
    unverifiable: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.unverifiable

    def lines(self, limit: int | None = None) -> list[str]:
        """The verdict as text; with ``limit``, at most that many differences, then how many
        more there are (``--json`` lists them all)."""
        if self.problems:
            head = f"NOT verified: {self.run}: {len(self.problems)} difference(s)"
        elif self.unverifiable:
            head = f"cannot verify: {self.run}: {len(self.unverifiable)} reason(s)"
        else:
            head = f"verified: {self.run}: all {self.compared} results identical"
        shown = self.problems if limit is None else self.problems[:limit]
        more = len(self.problems) - len(shown)
        tail = [f"  ... and {more} more (all of them with --json)"] if more else []
        return [head, *(f"  - {p}" for p in shown), *tail,
                *(f"  - cannot verify: {u}" for u in self.unverifiable),
                *(f"  note: {n}" for n in self.notes)]


def check_inputs(record: dict[str, Any], base: Path, verdict: Verdict,
                 trust: Trust | None = None) -> None:
    """Every recorded input against its sha256: a changed one is a difference; one that is
    missing, unreadable or outside what verify may read makes the record unverifiable here."""
    for item in record["inputs"]:
        path = base / item["path"]
        what = f"{item['role']} {item['path']} of test set '{item['test_set']}'"
        if trust is not None and not trust.allows(path):
            verdict.problems.append(trust.refusal(path, f"input {what}"))
            continue
        if not path.exists():
            verdict.unverifiable.append(f"input {what} is missing (looked for {path})")
            continue
        try:  # a regular file within the input size limit, as when the run read it
            data = read_bytes(path, str(path))
        except InputError as exc:
            verdict.unverifiable.append(f"input {what} cannot be read: {exc}")
            continue
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
    for key in ("python", "implementation"):
        if key in oe and oe[key] != ne.get(key):
            out.append(f"{key} {oe[key]} -> {ne.get(key)}")
    out += _diff_versions(oe.get("implementations", {}), ne.get("implementations", {}),
                          "code computing")

    def plugins(rec: dict[str, Any]) -> dict[str, str]:
        return {p["name"]: p.get("version") or p.get("sha256") or p["source"]
                for p in rec["plugins"]}

    out += _diff_versions(plugins(old), plugins(new), "plugin")
    return out


def compare_specs(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Every recorded metric definition against the one the installed metric gives now, and
    the definitions the re-run has that the record lacks."""
    out = []
    new_specs = {(s["test_set"], s["metric"]): s for s in new["specs"]}
    for spec in old["specs"]:
        key = (spec["test_set"], spec["metric"])
        other = new_specs.pop(key, None)
        where = f"metric '{key[1]}' on test set '{key[0]}'"
        if other is None:
            out.append(f"{where} is no longer computed")
        elif spec != other:
            changed = describe_changes(spec["definition"], other["definition"]) \
                if isinstance(spec["definition"], Mapping) else "its definition"
            rest = [k for k in sorted(set(spec) | set(other))
                    if k != "definition" and spec.get(k) != other.get(k)]
            out.append(f"{where}: recorded definition differs from the installed metric's: "
                       + "; ".join([c for c in [changed] if c != "no difference"]
                                   + [f"{k} {spec.get(k)!r} -> {other.get(k)!r}" for k in rest]))
    for key in new_specs:
        out.append(f"metric '{key[1]}' on test set '{key[0]}': defined now but the record "
                   "holds no definition of it")
    return out


def check_metric_files(record: Mapping[str, Any], host: PluginHost) -> list[str]:
    """Each recorded metric, rebuilt from its definition, reads the files it reads besides
    its inputs (:meth:`~evalfw.plugin.component.Component.load_files`): a tokenizer's model
    that is missing, or not the one the run read (its sha256 is in the definition), is a
    problem found before anything is re-run."""
    from evalfw.runner.recorded import metric_from_record

    found: dict[str, list[str]] = {}  # message -> the metrics it concerns
    for spec in record["specs"]:
        where = f"metric '{spec['metric']}' on test set '{spec['test_set']}'"
        try:
            metric = metric_from_record(host, spec["definition"], where)
        except EvalfwError:
            continue  # the re-run reports a definition the installed metric does not build
        try:
            metric.load_files()
        except EvalfwError as exc:
            found.setdefault(str(exc), []).append(where)
    return [f"{wheres[0]}{f' (and {len(wheres) - 1} more)' if len(wheres) > 1 else ''}: "
            f"{message}" for message, wheres in found.items()]


#: sections of a record the re-run reproduces field by field, and what identifies an item
SECTIONS: dict[str, tuple[str, ...]] = {
    "metrics": ("name",),
    "test_sets": ("name",),
    "inputs": ("role", "test_set", "system", "scores"),
}


def compare_sections(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """What the record says about its metrics (direction, scale, ...), test sets, inputs and
    seed, against what the re-run says: a difference is an edited record. (A field the
    re-run writes and an older record lacks is not one: it did not exist then.)"""
    out = []
    if old.get("seed") != new.get("seed"):
        out.append(f"seed {old.get('seed')!r} -> {new.get('seed')!r}")
    for section, ids in SECTIONS.items():
        now = _keyed(new.get(section, []), ids)
        for key, item in _keyed(old.get(section, []), ids).items():
            label = f"{section}[{'/'.join(str(k) for k in key if k is not None)}]"
            other = now.pop(key, None)
            if other is None:
                out.append(f"{label}: recorded but not in the re-run")
                continue
            out += [f"{label}.{k}: {item[k]!r} -> {other.get(k, 'absent')!r}"
                    for k in item if item[k] != other.get(k)]
        out += [f"{section}[{'/'.join(str(k) for k in key if k is not None)}]: in the re-run "
                "but not recorded" for key in now]
    return out


def _keyed(items: list[Any], ids: tuple[str, ...]) -> dict[tuple[Any, ...], Any]:
    """Items by their identifying fields, and by order among items that share them (the
    references of a test set)."""
    out: dict[tuple[Any, ...], Any] = {}
    for item in items:
        key = tuple(item.get(k) for k in ids if isinstance(item, Mapping))
        n = sum(1 for k in out if k[:-1] == key)
        out[(*key, n + 1 if n else None)] = item
    return out


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
        fields = [f for f in (*row, *(f for f in other if f not in row)) if f not in LABEL_FIELDS]
        moved = [_moved(f, row.get(f), other.get(f)) for f in fields
                 if row.get(f) != other.get(f)]
        if moved:
            verdict.problems.append(f"{label}: " + "; ".join(moved))
    for k in new_rows:
        verdict.problems.append(f"{' / '.join(k[:3])} ({k[3]}): computed now but not recorded")


def compare_segments(stored: StoredRun, old_arrays: dict[str, np.ndarray],
                     outcome: RunOutcome, verdict: Verdict) -> None:
    """Every stored per-segment statistic and sentence score against the re-run's."""
    old, new, ev = stored.record, outcome.record, outcome.evaluation
    new_rows = {(r["test_set"], r["system"], r["metric"], r["level"]): r for r in new["results"]}
    seen: set[tuple[str, str]] = set()
    for row in old["results"]:
        other = new_rows.get((row["test_set"], row["system"], row["metric"], row["level"]))
        if other is None:
            continue
        pairs = [(row["segments"], other["segments"], "statistics")]
        if "sentence_scores" in row and "sentence_scores" in other:
            pairs.append((row["sentence_scores"], other["sentence_scores"], "sentence scores"))
        for a, b, name in pairs:
            if (a, b) in seen:
                continue
            seen.add((a, b))
            y = ev.arrays.get(b)
            metric = ev.metrics[(row["test_set"], row["metric"])]
            try:
                x = stored.statistics(old_arrays, a, metric) \
                    if name == "statistics" else old_arrays.get(a)
            except (KeyError, ValueError, TypeError):
                x = None
            problem = metric.check_statistics(x) if name == "statistics" and x is not None \
                else None
            if problem is not None:
                verdict.problems.append(
                    f"{row['test_set']} / {row['system']} / {row['metric']}: the stored "
                    f"per-segment statistics are not valid ({problem})")
                continue
            if x is None or y is None or x.shape != y.shape:
                verdict.problems.append(
                    f"{row['test_set']} / {row['system']} / {row['metric']}: per-segment {name} "
                    f"have shape {None if x is None else x.shape} -> "
                    f"{None if y is None else y.shape}")
                continue
            diff = x != y
            if diff.any():
                rows = np.unique(np.argwhere(diff)[:, 0])
                verdict.problems.append(
                    f"{row['test_set']} / {row['system']} / {row['metric']}: per-segment {name} "
                    f"differ in {len(rows)} segment(s), first at segment {int(rows[0]) + 1}")


def verify(run: str, runs_dir: Path | None = None, *, host: PluginHost | None = None,
           data_roots: Iterable[str | os.PathLike[str]] = ()) -> Verdict:
    """Re-run the stored version ``run`` and compare (see module docstring). Files are read
    only under the current directory and ``data_roots``; plugin directories the record names
    load only when ``host`` loaded them already (:mod:`evalfw.runner._trust`)."""
    stored = open_run(run, runs_dir)
    return verify_stored(stored, host=host, data_roots=data_roots)


def verify_stored(stored: StoredRun, *, host: PluginHost | None = None,
                  data_roots: Iterable[str | os.PathLike[str]] = ()) -> Verdict:
    from evalfw.config import validate_config
    from evalfw.config._locate import Locations
    from evalfw.executors.local import Serial
    from evalfw.host.host import PluginHost
    from evalfw.runner.run import run_experiment

    record = stored.record
    verdict = Verdict(stored.path)
    roots = list(data_roots)
    resolved = record["config"].get("resolved")
    if not isinstance(resolved, Mapping):
        raise RecordError(f"{stored.path}: the record holds no resolved config to re-run")
    recorded_base = Path(os.path.realpath(stored.path)) / record["command"]["cwd"]
    config = record["config"]["path"]
    # a version directory copied elsewhere: its recorded working directory (where neither the
    # config nor the inputs are) means nothing there; the current directory is the place
    here = recorded_base.is_dir() and (
        _inputs_here(record, recorded_base)
        or config is not None and (recorded_base / config).is_file())
    base = recorded_base if here else Path.cwd()
    trust = Trust.of(roots)
    old_arrays = load_segments(stored.path, record)
    data = copy.deepcopy(dict(resolved))
    overrides: list[str] = [o["set"] for o in record["command"]["overrides"]]
    moved = bool(roots) and "data_root" in data and not _inputs_here(record, base)
    if moved:  # the data is under --data-root now: read it there, compare it by content
        data["data_root"] = str(Path(os.path.realpath(roots[0])))
        overrides = [o for o in overrides if not o.startswith("data_root=")]
        verdict.notes.append(f"the recorded inputs are not under {base}: data_root is "
                             f"{data['data_root']} (--data-root), inputs compared by sha256")
    else:
        check_inputs(record, base, verdict, trust)
    settings = (record.get("significance") or {}).get("settings", {})
    if settings and "family" not in settings:
        # written when every correction ran across the whole run: re-run it that way
        overrides.append("significance.family=run")
    if settings and "min_bucket_size" not in settings:
        # written when every non-empty bucket was tested: re-run it that way
        overrides.append("significance.min_bucket_size=1")
    if config is not None:  # its directory is where the config's relative paths begin
        trust.require(base / config, "the record's config")
    _note_config_file(base, config, record, trust, verdict)
    if host is None:
        host = PluginHost.create()
    try:
        with contextlib.chdir(base):
            cfg, host = validate_config(
                data, overrides=overrides, host=host,
                locations=Locations(f"{stored.path}/record.json config.resolved"),
                base_dir=Path(config).parent if config else Path("."),
                trusted_plugin_dirs=trusted_plugin_dirs(host))
            check_config_files(cfg, trust)
            refused = check_metric_files(record, host)
            if refused:  # another model would move every number: nothing to re-run
                verdict.problems.extend(refused)
                return verdict
            # here, serially: where the run's jobs ran changes no number; the run warned
            # already if its resamples could not reach alpha (the record says so)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ResolutionWarning)
                warnings.simplefilter("ignore", AntiConservativeWarning)
                outcome = run_experiment(cfg, host=host, store=False, cache=False,
                                         executor=Serial())
    except RecordError:
        raise
    except EvalfwError as exc:
        verdict.unverifiable.append(f"re-running the record's config failed: {exc}")
        return verdict
    new = outcome.record
    if moved:
        _same_paths(record, new)
    versions = compare_environment(record, new)
    # what the record says a metric is must be what it is: never only a note
    verdict.problems.extend(compare_specs(record, new) + compare_sections(record, new))
    if new["config"]["resolved_sha256"] != record["config"]["resolved_sha256"]:
        versions.append("the config as evalfw completes it (defaults filled in) has another "
                        f"sha256 ({record['config']['resolved_sha256'][:12]}... -> "
                        f"{new['config']['resolved_sha256'][:12]}...)")
    compare_results(record, new, verdict)
    verdict.problems.extend(compare_checks(record, new))
    compare_segments(stored, old_arrays, outcome, verdict)
    verdict.problems.extend(compare_significance(record, new))
    from evalfw.runner._verify_meta import judgement_differences, meta_differences

    verdict.problems.extend(judgement_differences(record, old_arrays, new,
                                                  outcome.evaluation.arrays))
    verdict.problems.extend(meta_differences(record, new))
    # versions explain moved numbers; when nothing moved they are only worth a note
    (verdict.problems if verdict.problems else verdict.notes).extend(versions)
    why = python_sum_note(record, new)
    if verdict.problems and why:
        verdict.notes.append(why)
    return verdict


def _inputs_here(record: Mapping[str, Any], base: Path) -> bool:
    """Whether the recorded inputs are where the record says, from ``base``."""
    return all((base / item["path"]).exists() for item in record["inputs"])


def _note_config_file(base: Path, config: str | None, record: Mapping[str, Any],
                      trust: Trust, verdict: Verdict) -> None:
    """A note when the config file the run read has changed or gone: the re-run uses the
    record's own copy, so neither is a difference (a file verify may not read is not read)."""
    if config is None:
        return
    path = base / config
    if not trust.allows(path) or not path.is_file():
        verdict.notes.append(f"config file {config} is not here; re-run from the config the "
                             "record holds")
        return
    try:
        digest = hashlib.sha256(read_bytes(path, str(path), limit=MAX_CONFIG_BYTES,
                                           variable=None)).hexdigest()
    except EvalfwError:
        return
    if digest != record["config"].get("sha256"):
        verdict.notes.append(f"config file {config} changed since the run (sha256 "
                             f"{str(record['config'].get('sha256'))[:12]}... -> {digest[:12]}"
                             "...); re-run from the config the record holds")


def _same_paths(old: Mapping[str, Any], new: dict[str, Any]) -> None:
    """Give the re-run's record the paths the record names (the data moved: files are
    compared by their sha256)."""
    keyed = {(i["role"], i["test_set"], i.get("system"), i.get("scores"), n): i
             for n, i in enumerate(old["inputs"])}
    for n, item in enumerate(new["inputs"]):
        found = keyed.get((item["role"], item["test_set"], item.get("system"), item.get("scores"), n))
        if found is not None:
            item["path"] = found["path"]
    by_name = {t["name"]: t for t in old["test_sets"]}
    for ts in new["test_sets"]:
        if ts["name"] in by_name:
            for key in ("source", "references", "systems"):
                ts[key] = copy.deepcopy(by_name[ts["name"]].get(key))


def python_sum_note(old: dict[str, Any], new: dict[str, Any]) -> str | None:
    """Why the numbers of a run made on one side of Python 3.12 move on the other, or None.

    From 3.12 on, ``sum()`` of floats compensates rounding (earlier Pythons add left to right).
    sacreBLEU sums BLEU's log precisions with ``sum()``, so its BLEU differs in the last bits
    between the two, and evalfw's BLEU, exact with sacreBLEU on the Python it runs on, too."""
    versions = [rec["environment"].get("python") or "" for rec in (old, new)]

    def compensated(version: str) -> bool:
        parts = version.split(".")
        return len(parts) >= 2 and (int(parts[0]), int(parts[1])) >= (3, 12)

    if not all(versions) or compensated(versions[0]) == compensated(versions[1]):
        return None
    return (f"the run used Python {versions[0]} and this check Python {versions[1]}: from "
            "3.12 on sum() of floats compensates rounding, so sacreBLEU's BLEU, which evalfw's "
            "reproduces on each Python, can differ in the last bits; verify with Python "
            f"{versions[0]} to reproduce the record bit for bit")


# ----------------------------------------------------------------------------- checks


def _lines_text(lines: Iterable[int]) -> str:
    shown = sorted(lines)
    text = ", ".join(map(str, shown[:8]))
    return text + (f" and {len(shown) - 8} more" if len(shown) > 8 else "")


def compare_checks(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """The recorded output checks against the re-run's: ``on_flag``, each check's definition
    and every line each check flagged in each system (a record written before checks existed
    has none to compare)."""
    a, b = old.get("checks"), new.get("checks")
    if a is None:
        return []
    if b is None:
        return ["checks: recorded but not run again"]
    out = []
    if a.get("on_flag") != b.get("on_flag"):
        out.append(f"checks: on_flag {a.get('on_flag')!r} -> {b.get('on_flag')!r}")
    defs = {d["name"]: d for d in b.get("definitions", [])}
    for d in a.get("definitions", []):
        other = defs.pop(d["name"], None)
        if other is None:
            out.append(f"check '{d['name']}' is no longer run")
        elif other != d:
            changed = [f"{k} {d.get(k)!r} -> {other.get(k)!r}" for k in sorted({*d, *other})
                       if d.get(k) != other.get(k)]
            out.append(f"check '{d['name']}' is defined differently now: {'; '.join(changed)}")
    out += [f"check '{name}' is run now but not recorded" for name in defs]
    now = {(t["test_set"], s["system"], c): set(found) for t in b.get("test_sets", [])
           for s in t["systems"] for c, found in s["flags"].items()}
    for t in a.get("test_sets", []):
        for s in t["systems"]:
            for c, found in s["flags"].items():
                key = (t["test_set"], s["system"], c)
                other = now.pop(key, None)
                where = f"checks: {key[0]} / {key[1]} / {c}"
                if other is None:
                    out.append(f"{where}: recorded but not checked again")
                elif other != set(found):
                    gone, added = set(found) - other, other - set(found)
                    out.append(f"{where}: flagged lines differ"
                               + (f"; no longer flagged: {_lines_text(gone)}" if gone else "")
                               + (f"; flagged now: {_lines_text(added)}" if added else ""))
    out += [f"checks: {k[0]} / {k[1]} / {k[2]}: checked now but not recorded" for k in now]
    excluded_a = {t["test_set"]: t.get("excluded") for t in a.get("test_sets", [])}
    for t in b.get("test_sets", []):
        if t["test_set"] in excluded_a and excluded_a[t["test_set"]] != t.get("excluded"):
            out.append(f"checks: {t['test_set']}: excluded lines differ")
    return out


# ----------------------------------------------------------------------------- significance


def compare_significance(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """Every difference between the significance sections of a stored and a re-run record,
    each named with its test set, metric, test and system
    (:mod:`evalfw.runner._verify_significance`)."""
    from evalfw.runner._verify_significance import significance_differences

    a, b = old.get("significance"), new.get("significance")
    if a is None and b is None:
        return []
    if a is None or b is None:
        return [f"significance analysis {'added' if a is None else 'missing'} in the re-run "
                "(the config's significance block changed)"]
    if "drilldown_metric" not in a.get("settings", {}):
        # written before the drill-down metric was a setting (it ranked by the first analysed
        # metric, without token spans): the drill-down is texts for reading, not a number to
        # reproduce, so only the analysis proper is compared
        b = {**b, "drilldown": a.get("drilldown"),
             "settings": {k: v for k, v in b.get("settings", {}).items()
                          if k != "drilldown_metric"}}
    if "family" not in a.get("settings", {}):
        # written before families and resolution limits were recorded: the re-run corrected
        # across the run as that record did, and only what it recorded is compared
        b = {**{k: v for k, v in b.items() if k in a},
             "settings": {k: v for k, v in b.get("settings", {}).items() if k != "family"},
             "tables": [{k: v for k, v in t.items() if k != "families"}
                        for t in b.get("tables") or []]}
    if "min_bucket_size" not in a.get("settings", {}):
        # written before units, detectable differences and bucket minimums were recorded:
        # the numbers it holds are compared, the fields added since are not
        b = recorded_only(a, b)
    return significance_differences(a, b)


def recorded_only(old: Any, new: Any) -> Any:
    """``new`` without the dictionary keys ``old`` does not have, at every depth (lists of
    the same length compared item by item); where ``old`` holds None (a number it did not
    compute, such as the difference's interval of an approximate randomization) ``new``'s
    value is not compared either."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        return {k: None if old[k] is None else recorded_only(old[k], v)
                for k, v in new.items() if k in old}
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [recorded_only(a, b) for a, b in zip(old, new)]
    return new


__all__ = [
    "check_inputs", "check_metric_files", "compare_checks", "compare_environment",
    "compare_results", "python_sum_note", "compare_sections",
    "compare_segments", "compare_significance", "compare_specs", "LABEL_FIELDS", "Verdict", "verify", "verify_stored",
]
