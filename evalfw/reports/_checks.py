"""What the reports say about a run's output checks, from the record's ``checks`` section alone:
one summary line per system with flags (``Online-W: 2 empty, 14 wrong language (0.8 %)``),
the sentence that says what a flag counted for (``on_flag``), and each system's flags for the
CSV and notebook rows. A record without the section (written before checks existed) has
nothing to say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: what each ``on_flag`` did, as the legends say it
ON_FLAG_WORDS = {
    "keep": "flagged segments are scored as they are",
    "penalise": "each flagged segment is scored as the metric's worst value (a counting metric's "
                "segment without a match, a model metric's declared minimum)",
    "exclude": "the segments flagged in any system are left out of every system's scores and "
               "comparisons on that test set",
}


def section(record: Mapping[str, Any]) -> Mapping[str, Any] | None:
    found = record.get("checks")
    return found if isinstance(found, Mapping) else None


def labels(record: Mapping[str, Any]) -> dict[str, str]:
    """Check name -> how summaries count its flags."""
    checks = section(record) or {}
    return {d["name"]: d.get("label") or d["name"] for d in checks.get("definitions", [])}


def system_flags(record: Mapping[str, Any], test_set: str, system: str) -> dict[str, list[int]]:
    """Check name -> the lines it flagged in ``system``'s output on ``test_set`` (empty when
    nothing was checked)."""
    for entry in (section(record) or {}).get("test_sets", []):
        if entry["test_set"] == test_set:
            for item in entry["systems"]:
                if item["system"] == system:
                    return {c: list(lines) for c, lines in item["flags"].items()}
    return {}


def flags_text(flags: Mapping[str, list[int]]) -> str:
    """``empty 791 1334; numbers 12`` (checks with flags only)."""
    return "; ".join(f"{c} {' '.join(map(str, lines))}" for c, lines in flags.items() if lines)


def counts_text(entry: Mapping[str, Any], item: Mapping[str, Any],
                names: Mapping[str, str]) -> str | None:
    """``2 empty, 14 wrong language (0.8 %)`` for one system (the share: segments flagged by
    any check), None when nothing is flagged."""
    counts = [f"{len(lines)} {names.get(c, c)}" for c, lines in item["flags"].items() if lines]
    if not counts:
        return None
    share = 100 * item["flagged"] / entry["segments"] if entry["segments"] else 0.0
    return f"{', '.join(counts)} ({share:.2f} %)" if share < 1 else \
        f"{', '.join(counts)} ({share:.1f} %)"


def flagged_rows(record: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(test set, system, ``2 empty, 14 wrong language (0.8 %)``) of each system with flags."""
    names = labels(record)
    out = []
    for entry in (section(record) or {}).get("test_sets", []):
        for item in entry["systems"]:
            text = counts_text(entry, item, names)
            if text is not None:
                out.append((entry["test_set"], item["system"], text))
    return out


def legend(record: Mapping[str, Any]) -> str | None:
    """The sentence saying which checks ran and what a flag counted for."""
    checks = section(record)
    if checks is None:
        return None
    names = [d["name"] for d in checks.get("definitions", [])]
    if not names:
        return "Output checks: none were run (checks: none)."
    on_flag = checks.get("on_flag", "keep")
    text = (f"Output checks ({', '.join(names)}): {ON_FLAG_WORDS.get(on_flag, on_flag)} "
            f"(on_flag: {on_flag})")
    if on_flag == "exclude":
        left = [f"{e['test_set']} {len(e.get('excluded', []))} of {e['segments']:,}"
                for e in checks.get("test_sets", [])]
        text += f"; left out: {', '.join(left)}" if left else ""
    return text + "."


def summary(record: Mapping[str, Any]) -> list[str]:
    """The terminal block: the legend as its heading, then per test set one line per system
    with flags (or that nothing was flagged) and the checks a test set skipped."""
    checks = section(record)
    if checks is None or not checks.get("definitions"):
        return []
    names = labels(record)
    out = [str(legend(record))[:-1] + ":"]
    for entry in checks.get("test_sets", []):
        lines = [f"{item['system']}: {text}" for item in entry["systems"]
                 if (text := counts_text(entry, item, names)) is not None]
        head = f"  {entry['test_set']}"
        if not lines:
            out.append(f"{head}: no segment flagged")
        out += [f"{head}  {line}" for line in lines]
        for check, why in entry.get("skipped", {}).items():
            out.append(f"{head}: {check} not run: {why}")
    return out


__all__ = ["flagged_rows", "flags_text", "labels", "legend", "ON_FLAG_WORDS", "section", "summary",
           "system_flags", "counts_text"]
