"""Running a config's output checks on every system of a test set, and what the record keeps
of them.

Each (check, system) is computed once and cached with the statistics: the cache key is the
check's class, definition (name, version, options, implementation), the language pair and the
sha256 of the system's output, the source and the references, so a re-run with unchanged
inputs reads its flags back. A check's answer is plugin output and is checked where it enters:
one boolean per segment, nothing else (a cached entry too: sorted, distinct line indices in
range). A check that needs the source skips a test set without one, and the record says so.

The record's ``checks`` section (:func:`section`) holds ``on_flag``, every check's definition
and, per test set, the 1-based line numbers each check flagged in each system, how many
segments of each system are flagged, the lines ``on_flag: exclude`` left out, and the texts of
the first few flagged segments per system and check (source, output, references), so a report
can list them from the record alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from evalfw.checks.base import Check, CheckInput
from evalfw.errors import ConfigError, PluginError

if TYPE_CHECKING:
    from evalfw.config import ExperimentConfig, TestSetConfig
    from evalfw.host.host import PluginHost
    from evalfw.io.text import TextFile
    from evalfw.runner.cache import StatsCache

class Texts(Protocol):
    """What was read of a test set (the runner's inputs of it)."""

    references: list[TextFile]
    systems: list[TextFile]
    source: TextFile | None


#: bump when the cache key recipe or the entry layout of flags changes
FORMAT = 1
#: flagged segments per system and check whose texts the record keeps for reports
EXAMPLES = 10
ON_FLAG = ("keep", "penalise", "exclude")


def build_checks(cfg: ExperimentConfig, host: PluginHost) -> list[Check]:
    """The config's checks, built (a check that cannot run here is an error, before any file
    is read)."""
    checks = []
    for choice in cfg.checks:
        check = host.component("check", choice.name, dict(choice.options))
        why = check.unavailable()
        if why:
            raise ConfigError(f"check '{check.name}' cannot run here: {why}")
        checks.append(check)
    return checks


def _provider(check: Check) -> str:
    info = getattr(check, "_evalfw_plugin", None)
    where = f"{type(check).__module__}.{type(check).__qualname__}"
    return f"{info.provider if info is not None else 'a plugin'}: check '{check.name}' ({where})"


def flags_of(check: Check, segments: CheckInput) -> np.ndarray:
    """The 0-based indices of the segments ``check`` flags, its answer checked: one boolean
    (Python's or numpy's) per segment. The check runs behind the plugin boundary
    (:func:`evalfw.plugin.boundary.call`): what it raises, an exit, a fork or a thread it
    leaves running is one error naming it."""
    from evalfw.plugin.boundary import call

    answer = call(check, "flag", check.flag, segments)
    problem = answer_problem(answer, len(segments))
    if problem is not None:
        raise PluginError(f"{_provider(check)}.flag returned {problem}; it must return one "
                          "True or False per segment")
    return np.flatnonzero(np.asarray(answer, dtype=bool)).astype(np.int64)


def answer_problem(answer: Any, segments: int) -> str | None:
    """Why ``answer`` is not one boolean per segment of ``segments``, or None."""
    if isinstance(answer, np.ndarray):
        if answer.ndim != 1 or answer.dtype != np.bool_:
            return f"an array of shape {answer.shape} and dtype {answer.dtype}"
        values: Sequence[Any] = ()
    elif isinstance(answer, (list, tuple)):
        values = answer
    else:
        return f"a {type(answer).__name__}, not a list of booleans"
    if len(answer) != segments:
        return f"{len(answer)} values for {segments} segments"
    bad = next((i for i, v in enumerate(values) if not isinstance(v, (bool, np.bool_))), None)
    if bad is not None:
        return f"{type(values[bad]).__name__} {values[bad]!r:.40} for segment {bad + 1}"
    return None


def cached_problem(lines: np.ndarray, segments: int) -> str | None:
    """Why a cached entry is not flags of ``segments`` segments (sorted distinct 0-based
    indices in range), or None."""
    if lines.ndim != 1 or lines.dtype.kind != "i":
        return "flags are a 1-dimensional integer array"
    if len(lines) and (lines[0] < 0 or lines[-1] >= segments or (np.diff(lines) <= 0).any()):
        return f"flags are not distinct ascending line indices below {segments}"
    return None


def cache_key(check: Check, langs: str, hypotheses: str, source: str | None,
              references: Sequence[str]) -> str:
    """The cache key of one check on one system's output (sha256 digests of the texts)."""
    recipe = {"format": FORMAT, "kind": "check",
              "class": f"{type(check).__module__}.{type(check).__qualname__}",
              "check": check.definition(), "langs": langs, "hypotheses": hypotheses,
              "source": source, "references": list(references)}
    text = json.dumps(recipe, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def run_checks(checks: Sequence[Check], ts: TestSetConfig, inputs: Texts,
               store: StatsCache | None) -> dict[str, Any]:
    """Every check on every system of ``ts``: the test set's entry of the record's section
    (flags as 1-based lines; the examples' texts; ``excluded`` is added by the runner)."""
    refs = tuple(tuple(f.lines) for f in inputs.references)
    source = tuple(inputs.source.lines) if inputs.source is not None else None
    segments = len(refs[0])
    skipped = {c.name: "the test set has no source" for c in checks
               if c.needs_source and source is None}
    systems = []
    for (name, _), output in zip(ts.systems, inputs.systems, strict=True):
        segs = CheckInput(ts.name, name, ts.langs, tuple(output.lines), source, refs)
        flags: dict[str, list[int]] = {}
        for check in checks:
            if check.name in skipped:
                continue
            key = cache_key(check, ts.langs, output.sha256,
                            inputs.source.sha256 if inputs.source is not None else None,
                            [f.sha256 for f in inputs.references]) if store else ""
            found = store.load_checked(key, lambda a: cached_problem(a, segments),
                                       f"check '{check.name}'") if store else None
            if found is None:
                found = flags_of(check, segs)
                if store is not None:
                    store.store(key, found)
            flags[check.name] = (found + 1).tolist()
        systems.append({"system": name, "flags": flags,
                        "flagged": len(set().union(*flags.values()))})
    entry: dict[str, Any] = {"test_set": ts.name, "segments": segments, "systems": systems}
    if skipped:
        entry["skipped"] = skipped
    entry["examples"] = examples(entry, inputs, ts)
    return entry


def examples(entry: Mapping[str, Any], inputs: Texts, ts: TestSetConfig
             ) -> list[dict[str, Any]]:
    """The texts of the first :data:`EXAMPLES` flagged lines of each system and check: per
    line its source and references, and the output of each system that has it flagged."""
    lines: dict[int, dict[str, str]] = {}
    outputs = {name: f.lines for (name, _), f in zip(ts.systems, inputs.systems, strict=True)}
    for system in entry["systems"]:
        for found in system["flags"].values():
            for line in found[:EXAMPLES]:
                lines.setdefault(line, {})[system["system"]] = outputs[system["system"]][line - 1]
    return [{"line": line,
             "source": inputs.source.lines[line - 1] if inputs.source is not None else None,
             "references": [f.lines[line - 1] for f in inputs.references],
             "outputs": shown}
            for line, shown in sorted(lines.items())]


def flagged_mask(entry: Mapping[str, Any], system: str) -> np.ndarray:
    """One boolean per segment of ``entry``'s test set: flagged by any check in ``system``."""
    mask = np.zeros(int(entry["segments"]), dtype=bool)
    for item in entry["systems"]:
        if item["system"] == system:
            for found in item["flags"].values():
                mask[np.asarray(found, dtype=np.int64) - 1] = True
    return mask


def excluded_lines(entry: Mapping[str, Any]) -> list[int]:
    """The lines flagged by any check in any system (what ``on_flag: exclude`` leaves out)."""
    return sorted(set().union(*(set(found) for item in entry["systems"]
                                for found in item["flags"].values())))


def section(cfg: ExperimentConfig, checks: Sequence[Check],
            entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The record's ``checks`` section."""
    return {"on_flag": cfg.on_flag, "definitions": [c.definition() for c in checks],
            "test_sets": list(entries)}


__all__ = ["answer_problem", "build_checks", "cache_key", "cached_problem", "EXAMPLES",
           "excluded_lines", "flagged_mask", "flags_of", "ON_FLAG", "run_checks", "section"]
