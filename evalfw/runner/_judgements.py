"""Reading a test set's human judgements, and the texts of a test set built from an MQM file.

Judgements are matched to the test set: segment ids are line numbers counted from 1, or, for
a test set built from an MQM file, that file's ``seg_id`` values in ascending order (gaps
allowed: segment k of the test set is the k-th id). A judged system must be a system of the
test set (``names`` maps or drops the file's names), except the MQM file's reference, which
is kept as a judged reference. Systems and segments without a judgement are allowed: each is
counted, never filled in.

Each judged system's per-segment judgements become one array of ``[score, 1]`` rows (``[0, 0]``
where not judged), stored in the segments file under ``j<k>`` and named by the record's
``judgements`` section, which also keeps each system's mean, the number of judged segments,
the reader's options (the MQM weights as applied) and the file read.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.errors import InputError
from evalfw.io.judgements import DEFAULT_WEIGHTS, MqmFile, read_mqm, read_table
from evalfw.io.text import TextFile

if TYPE_CHECKING:
    from evalfw.config.model import JudgementConfig, TestSetConfig


@dataclass(frozen=True, eq=False)
class Judged:
    """One test set's judgements of one name, as read."""

    config: JudgementConfig
    #: per system (test set systems, and an MQM test set's reference): judgement per segment
    segments: dict[str, list[float | None]] | None
    #: per system: the system-level score (a system table), or the mean of its segments
    system: dict[str, float]
    entry: dict[str, Any]
    facts: dict[str, Any]


def id_ranges(ids: Sequence[int]) -> str:
    """``1-21,23,25-40``: ascending ids, runs written as ranges."""
    out: list[str] = []
    start = prev = None
    for i in ids:
        if prev is not None and i == prev + 1:
            prev = i
            continue
        if start is not None:
            out.append(f"{start}-{prev}" if prev != start else str(start))
        start = prev = i
    if start is not None:
        out.append(f"{start}-{prev}" if prev != start else str(start))
    return ",".join(out)


def _derived(shown: str, role: str, lines: list[str]) -> TextFile:
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    return TextFile(f"{shown} ({role})", lines, hashlib.sha256(data).hexdigest(), len(data))


def mqm_texts(ts: TestSetConfig) -> tuple[MqmFile, TextFile, TextFile, list[TextFile]]:
    """The MQM file of ``ts`` and its texts: source, reference, systems."""
    assert ts.mqm is not None
    own = ts.judgement(ts.mqm.judgements)
    options = dict(own.options) if own is not None else {}
    mqm = read_mqm(ts.mqm.file, _weights(options), options.get("names"))
    ids = mqm.segment_ids

    def texts(system: str) -> list[str]:
        have = mqm.targets.get(system, {})
        lacking = [g for g in ids if g not in have]
        if lacking:
            raise InputError(f"{mqm.read.path}: system '{system}' has no target for segment "
                             f"{lacking[0]} ({len(lacking)} segment(s) lack one); every system "
                             f"of test set '{ts.name}' needs a text for every segment")
        return [have[g] for g in ids]

    source = _derived(mqm.read.path, "source", [mqm.source[g] for g in ids])
    reference = _derived(mqm.read.path, f"reference {ts.mqm.reference}",
                         texts(ts.mqm.reference))
    systems = [_derived(mqm.read.path, f"system {name}", texts(name)) for name, _ in ts.systems]
    return mqm, source, reference, systems


def _weights(options: Mapping[str, Any]) -> dict[str, float]:
    return dict(options.get("weights") or DEFAULT_WEIGHTS)


def read_judgements(ts: TestSetConfig, segment_ids: Sequence[int] | None, segments: int,
                    mqm: MqmFile | None = None) -> list[Judged]:
    """Every judgement of ``ts`` (``segment_ids``: the MQM test set's ids, None for line
    numbers; ``mqm``: the test set's own MQM file, already read)."""
    return [_read(ts, j, segment_ids, segments, mqm) for j in ts.judgements]


def _read(ts: TestSetConfig, j: JudgementConfig, segment_ids: Sequence[int] | None,
          segments: int, mqm: MqmFile | None) -> Judged:
    options = dict(j.options)
    reference = ts.mqm.reference if ts.mqm is not None else None
    known = [name for name, _ in ts.systems]
    per_segment: dict[str, dict[int, float]] | None
    if j.format == "mqm":
        own = ts.mqm is not None and mqm is not None and j.name == ts.mqm.judgements
        found = mqm if own and mqm is not None else \
            read_mqm(j.file, _weights(options), options.get("names"))
        per_segment, facts, gaps = found.scores, found.read.facts(), 0
        options["weights"] = _weights(options)
    else:
        table = read_table(j.file, system=options.get("system", "system"),
                           score=options.get("score", "score"),
                           segment=options.get("segment", "segment")
                           if j.format == "segments" else None,
                           delimiter=options.get("delimiter", "tab"),
                           header=options.get("header", True),
                           missing=options.get("missing", ("None", "NA", "nan", "")),
                           names=options.get("names"))
        per_segment, facts, gaps = table.segments, table.read.facts(), table.missing
    shown = facts["path"]
    index = ({g: k for k, g in enumerate(segment_ids)} if segment_ids is not None
             else {k + 1: k for k in range(segments)})
    named = set(per_segment) if per_segment is not None else set(table.system or {})
    for name in sorted(named):
        if name not in known and name != reference:
            raise InputError(
                f"{shown}: judged system '{name}' is not a system of test set '{ts.name}' "
                f"(its systems: {', '.join(known)}); map it with names: {{{name}: ...}} or "
                f"leave it out with names: {{{name}: null}} in judgements '{j.name}'")
    order = [s for s in (*known, *([reference] if reference else [])) if s in named]
    entry: dict[str, Any] = {
        "test_set": ts.name, "name": j.name, "format": j.format, "unit": j.unit,
        "higher_is_better": j.higher_is_better, "path": shown,
        "options": {k: v for k, v in options.items() if v is not None}, "missing": gaps,
        "systems": []}
    if per_segment is None:
        system = {s: float(table.system[s]) for s in order} if table.system else {}
        entry["systems"] = [{"system": s, "score": system[s], "reference": s == reference}
                            for s in order]
        return Judged(j, None, system, entry, facts)
    segments_of: dict[str, list[float | None]] = {}
    system = {}
    for s in order:
        row: list[float | None] = [None] * segments
        for g, value in per_segment[s].items():
            if g not in index:
                span = (f"ids {id_ranges(segment_ids)}" if segment_ids is not None
                        else f"lines 1-{segments}")
                raise InputError(f"{shown}: segment {g} of system '{s}' is not a segment of "
                                 f"test set '{ts.name}' ({span})")
            row[index[g]] = value
        judged = [v for v in row if v is not None]
        if not judged:
            continue
        segments_of[s] = row
        system[s] = math.fsum(judged) / len(judged)
        entry["systems"].append({"system": s, "score": system[s], "judged": len(judged),
                                 "reference": s == reference})
    return Judged(j, segments_of, system, entry, facts)


def rows(scores: Sequence[float | None]) -> np.ndarray:
    """``[score, 1]`` per judged segment, ``[0, 0]`` otherwise."""
    out = np.zeros((len(scores), 2), dtype=np.float64)
    for i, v in enumerate(scores):
        if v is not None:
            out[i] = (v, 1.0)
    return out


def digest(judged: Sequence[Judged], system: str) -> str:
    """What a system's judgements add to a statistics cache key."""
    parts = []
    for j in judged:
        if j.segments is not None and system in j.segments:
            text = repr([None if v is None else v.hex() for v in j.segments[system]])
            parts.append(f"{j.config.name}:{hashlib.sha256(text.encode()).hexdigest()}")
    return "|".join(parts)


__all__ = ["digest", "id_ranges", "Judged", "mqm_texts", "read_judgements", "rows"]
