"""What a run keeps besides the statistics: worst-segment texts, sentence exports, and the
check ``evalfw verify`` makes of the significance section.

Drill-down texts are stored in the record at run time (not read back at render time): a
report must render from ``record.json`` alone, also after the inputs moved or changed, and
only a few segments per system are kept (``significance.worst_segments``). The texts are read
from the run's inputs right after scoring and each file's sha256 must equal the one recorded
for it while scoring, so the texts are those of the scored files.

Worst segments rank a system's segments by sentence score minus the baseline's sentence score
under the first analysed metric (smallest first; ties in segment order); only segments where
the system scores below the baseline are kept, so a system may have fewer (or none).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.analysis import export
from evalfw.metrics.bleu import engine
from evalfw.errors import InputError
from evalfw.io.text import read_segments
from evalfw.runner.analyse import Plan, cell_stats

if TYPE_CHECKING:
    from evalfw.config import ExperimentConfig, TestSetConfig
    from evalfw.host.host import PluginHost
    from evalfw.runner.evaluate import Evaluation

EXPORT_FILES = {"csv": "sentences.csv", "jsonl": "sentences.jsonl"}


def _lines(path: Any, recorded: Mapping[str, str]) -> list[str]:
    text = read_segments(path)
    want = recorded.get(text.path)
    if want is not None and want != text.sha256:
        raise InputError(f"{text.path} changed while the run was scoring it (sha256 "
                         f"{want[:12]}... -> {text.sha256[:12]}...); run again on stable inputs")
    return text.lines


def _texts(ts: TestSetConfig, ev: Evaluation) -> dict[str, Any]:
    recorded = {i["path"]: i["sha256"] for i in ev.inputs if i["test_set"] == ts.name}
    return {
        "source": _lines(ts.source, recorded) if ts.source is not None else None,
        "references": [_lines(p, recorded) for p in ts.references],
        "systems": {name: _lines(p, recorded) for name, p in ts.systems},
    }


def worst_segments(plan: Plan, cfg: ExperimentConfig, host: PluginHost,
                   ev: Evaluation) -> list[dict[str, Any]]:
    """Per test set: each system's worst segments against the baseline, with their texts."""
    from evalfw.runner.evaluate import resolve_specs

    k = plan.settings.worst_segments
    if k == 0 or not plan.metrics:
        return []
    base_name, metric = plan.settings.baseline, plan.metrics[0]
    out = []
    for ts in cfg.test_sets:
        spec = resolve_specs(cfg, host, ts)[metric]
        stats = cell_stats(ev, ts.name, metric)
        base = engine.sentence_score_values(spec, stats[base_name])
        texts = _texts(ts, ev)
        systems = []
        for name, st in stats.items():
            if name == base_name:
                continue
            values = engine.sentence_score_values(spec, st)
            delta = values - base
            rows = []
            worst = [i for i in np.argsort(delta, kind="stable")[:k].tolist() if delta[i] < 0]
            for i in worst:
                rows.append({
                    "segment": i + 1, "score": float(values[i]), "baseline_score": float(base[i]),
                    "delta": float(delta[i]), "hypothesis": texts["systems"][name][i],
                    "baseline_hypothesis": texts["systems"][base_name][i],
                    "source": None if texts["source"] is None else texts["source"][i],
                    "references": [r[i] for r in texts["references"]]})
            systems.append({"system": name, "segments": rows})
        out.append({"test_set": ts.name, "metric": metric, "baseline": base_name,
                    "systems": systems})
    return out


def sentence_exports(plan: Plan, cfg: ExperimentConfig, host: PluginHost,
                     ev: Evaluation) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """Files ``sentences.csv``/``.jsonl`` (every test set x system x metric, every segment)
    and their record entries (file, format, rows, sha256)."""
    import hashlib

    from evalfw.runner.evaluate import resolve_specs

    formats = plan.settings.sentence_export
    if not formats:
        return {}, []
    rows: list[dict[str, Any]] = []
    for ts in cfg.test_sets:
        specs = resolve_specs(cfg, host, ts)
        for metric in cfg.metrics:
            for system, st in cell_stats(ev, ts.name, metric.name, level=None).items():
                rows += export.sentence_rows(specs[metric.name], st, test_set=ts.name,
                                             system=system, metric=metric.name)
    files, entries = {}, []
    for fmt in formats:
        text = export.to_text(rows, fmt)
        files[EXPORT_FILES[fmt]] = text
        entries.append({"file": EXPORT_FILES[fmt], "format": fmt, "rows": len(rows),
                        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()})
    return files, entries


# ----------------------------------------------------------------------------- verify


def _diff(old: Any, new: Any, path: str, out: list[str], limit: int) -> None:
    if len(out) >= limit or old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            _diff(old.get(key), new.get(key), f"{path}.{key}", out, limit)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            label = a.get("system") or a.get("test_set") or a.get("label") \
                if isinstance(a, dict) else None
            _diff(a, b, f"{path}[{label or i}]", out, limit)
    else:
        moved = f" ({new - old:+.6g})" if all(isinstance(v, (int, float)) and
                                             not isinstance(v, bool) for v in (old, new)) else ""
        out.append(f"significance{path}: {old!r} -> {new!r}{moved}")


def compare_significance(old: Mapping[str, Any], new: Mapping[str, Any],
                         limit: int = 20) -> list[str]:
    """Differences between the significance sections of a stored and a re-run record."""
    a, b = old.get("significance"), new.get("significance")
    if a is None and b is None:
        return []
    if a is None or b is None:
        return [f"significance analysis {'added' if a is None else 'missing'} in the re-run "
                "(the config's significance block changed)"]
    out: list[str] = []
    _diff(a, b, "", out, limit)
    return out
