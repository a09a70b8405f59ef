"""Reading records of earlier schema versions: they are brought to the current shape in
memory when loaded (the file on disk is never changed), so ``show``, ``compare``,
``verify`` and ``runs`` have one shape to read.

Schema 1 records were written when BLEU was evalfw's only metric:

- a metric entry had ``preset`` beside its options and no ``metric``: it is a ``bleu`` metric
  and higher scores are better;
- a spec held the BLEU ``components``: they become the BLEU definition (name ``bleu``,
  version 1, the components as options; the counter was then called ``precision``);
- ``environment.counting`` said which counting code ran: BLEU's implementation;
- the segments file (format ``npz-1``) held BLEU's counts per cell as four arrays
  (``c<i>.hyp_len``, ``.ref_lens``, ``.matches``, ``.totals``); :func:`v1_statistics` turns
  them into the BLEU metric's statistics rows, choosing reference lengths as the metric does.

Schema 2 records have the shape of schema 3 without its optional additions; one section is
renamed: the significance section's ``power`` (the smallest p-value resamples allow) is
``resolution`` and ``power_warning`` is ``resolution_warning`` (records of schema 3 written
before the rename are read the same way).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from evalfw.records.segments import V1_ARRAYS

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.base import Metric



def upgrade(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` in the current shape (a copy; already current records come back as they
    are). ``schema_version`` and ``segments.format`` keep the values read from disk."""
    section = record.get("significance")
    renamed = isinstance(section, dict) and any(k in section for k in _RENAMED)
    if record.get("schema_version") != 1 and not renamed:
        return record
    out = copy.deepcopy(record)
    if renamed:
        sig = out["significance"]
        out["significance"] = {_RENAMED.get(k, k): v for k, v in sig.items()}
    if record.get("schema_version") != 1:
        return out
    for m in out["metrics"]:
        m.pop("preset", None)  # also in its options
        m["metric"] = "bleu"
        m["higher_is_better"] = True
        m["options"] = _counter(m["options"])
    for spec in out["specs"]:
        spec["definition"] = {"name": "bleu", "version": "1",
                              "options": _counter(spec.pop("components"))}
    env = out["environment"]
    if "counting" in env:
        env["implementations"] = {"bleu": env.pop("counting")}
    out.setdefault("executor", {"name": "serial"})
    return out


#: significance keys of earlier records and their current names
_RENAMED = {"power": "resolution", "power_warning": "resolution_warning"}


def _counter(options: dict[str, Any]) -> dict[str, Any]:
    return {("counter" if k == "precision" else k): v for k, v in options.items()}


def v1_statistics(arrays: Mapping[str, np.ndarray], cell: str, metric: Metric) -> np.ndarray:
    """The statistics rows of a schema-1 cell under ``metric`` (the BLEU metric its spec
    defines)."""
    from evalfw.metrics.bleu.stats import SegmentStats

    rows = getattr(metric, "rows", None)
    if rows is None:
        raise TypeError(f"schema-1 records hold BLEU statistics, not {metric.name}'s")
    statistics: np.ndarray = rows(SegmentStats.from_arrays({n: arrays[f"{cell}.{n}"] for n in V1_ARRAYS}))
    return statistics


__all__ = ["upgrade", "v1_statistics"]
