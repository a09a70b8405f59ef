"""What ``verify`` compares of the human judgements and the meta-evaluation: the judgement
rows in the segments file, and every number of the ``meta_evaluation`` section, each
difference named by test set, level, grouping, statistic and metric::

    meta_evaluation[ted][segment/item/acc_eq][chrf].lower
    meta_evaluation[ted][system/accuracy].tests[chrf > bleu].p_value
    judgements[ted/mqm][Online-W]: per-segment judgements differ in 3 segment(s)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from evalfw.runner._verify_significance import _keyed, _value


def _statistic(path: str, old: Any, new: Any, out: list[str]) -> None:
    _value(path, {k: v for k, v in old.items() if k not in ("metrics", "tests")},
           {k: v for k, v in new.items() if k not in ("metrics", "tests")}, out)
    _keyed(path, old.get("metrics") or [], new.get("metrics") or [],
           lambda m: str(m.get("metric")), out)
    _keyed(f"{path}.tests", old.get("tests") or [], new.get("tests") or [],
           lambda t: f"{t.get('better')} > {t.get('worse')}", out)


def _table(path: str, old: Any, new: Any, out: list[str]) -> None:
    special = ("statistics", "deltas", "human_scores")
    _value(path, {k: v for k, v in old.items() if k not in special},
           {k: v for k, v in new.items() if k not in special}, out)
    _keyed(path, old.get("statistics") or [], new.get("statistics") or [],
           lambda s: "/".join(str(x) for x in (s.get("level"), s.get("grouping"),
                                                s.get("statistic")) if x is not None),
           out, _statistic)
    _keyed(f"{path}.human_scores", old.get("human_scores") or [],
           new.get("human_scores") or [], lambda h: str(h.get("system")), out)
    _keyed(f"{path}.deltas", old.get("deltas") or [], new.get("deltas") or [],
           lambda d: str(d.get("metric")), out)


def meta_differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """Every difference between two records' meta-evaluation sections."""
    a, b = old.get("meta_evaluation"), new.get("meta_evaluation")
    if a is None and b is None:
        return []
    if a is None or b is None:
        return [f"meta-evaluation {'added' if a is None else 'missing'} in the re-run (the "
                "config's meta_evaluation block changed)"]
    out: list[str] = []
    _value("meta_evaluation.settings", a.get("settings"), b.get("settings"), out)
    _value("meta_evaluation.skipped", a.get("skipped"), b.get("skipped"), out)
    _keyed("meta_evaluation", a.get("tables") or [], b.get("tables") or [],
           lambda t: str(t.get("test_set")), out, _table)
    return out


def judgement_differences(old: Mapping[str, Any], old_arrays: Mapping[str, np.ndarray],
                          new: Mapping[str, Any], new_arrays: Mapping[str, np.ndarray]
                          ) -> list[str]:
    """The recorded judgements (their per-segment rows included) against the re-run's."""
    out: list[str] = []

    def key(j: Mapping[str, Any]) -> str:
        return f"{j.get('test_set')}/{j.get('name')}"

    now = {key(j): j for j in new.get("judgements", ())}
    for j in old.get("judgements", ()):
        other = now.pop(key(j), None)
        if other is None:
            out.append(f"judgements[{key(j)}]: recorded but not in the re-run")
            continue
        rest = ("systems",)
        _value(f"judgements[{key(j)}]", {k: v for k, v in j.items() if k not in rest},
               {k: v for k, v in other.items() if k not in rest}, out)
        theirs = {s["system"]: s for s in other["systems"]}
        for s in j["systems"]:
            label = f"judgements[{key(j)}][{s['system']}]"
            t = theirs.pop(s["system"], None)
            if t is None:
                out.append(f"{label}: recorded but not in the re-run")
                continue
            _value(label, {k: v for k, v in s.items() if k != "segments"},
                   {k: v for k, v in t.items() if k != "segments"}, out)
            x = old_arrays.get(s.get("segments", ""))
            y = new_arrays.get(t.get("segments", ""))
            if x is None or y is None or x.shape != y.shape:
                if x is not None or y is not None:
                    out.append(f"{label}: per-segment judgements have shape "
                               f"{None if x is None else x.shape} -> "
                               f"{None if y is None else y.shape}")
                continue
            moved = np.unique(np.argwhere(x != y)[:, 0])
            if len(moved):
                out.append(f"{label}: per-segment judgements differ in {len(moved)} "
                           f"segment(s), first at segment {int(moved[0]) + 1}")
        out += [f"judgements[{key(j)}][{s}]: in the re-run but not recorded" for s in theirs]
    out += [f"judgements[{k}]: in the re-run but not recorded" for k in now]
    return out


__all__ = ["judgement_differences", "meta_differences"]
