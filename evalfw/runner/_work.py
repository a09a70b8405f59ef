"""How many CPU seconds a run would take serially, estimated before anything is scored, so
the ``auto`` executor can choose between this process and a pool (:mod:`evalfw.executors.auto`).

The estimate counts segments (the lines of each test set's first reference, read as bytes),
systems, statistics and resamples, at costs measured on a 2-core machine with evalfw's compiled
kernels (:data:`COSTS`). It only has to tell a run of a second from a run of a minute.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from evalfw.errors import EvalfwError

if TYPE_CHECKING:
    from evalfw.config import ExperimentConfig
    from evalfw.host.host import PluginHost
    from evalfw.runner._settings import Plan

#: CPU seconds per segment and system of one metric's statistics (TER, the slowest built-in,
#: takes about this; BLEU and chrF less), per resample x system x segment of a bootstrap, and
#: per trial x compared system x segment of approximate randomization
COSTS = {"statistics": 5e-6, "bootstrap": 2.5e-9, "ar": 1.5e-9}
#: what the estimate reads of a reference file at most: enough to count a large test set
MAX_COUNT_BYTES = 64 << 20


def _segments(path: str) -> int:
    from evalfw.errors import InputError
    from evalfw.io.text import open_regular

    try:  # not a FIFO or a device: reading the inputs reports those properly
        with open_regular(path, path, 1 << 62) as f:
            data = f.read(MAX_COUNT_BYTES)
    except (OSError, InputError):
        return 0
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def statistics_cost(cls: Any) -> float:
    """CPU seconds per segment and system of a metric class's statistics: what it declares
    (``cost_per_segment``: a model's prediction costs thousands of times a count), else the
    built-ins' :data:`COSTS`."""
    declared = getattr(cls, "cost_per_segment", None)
    ok = isinstance(declared, (int, float)) and not isinstance(declared, bool) \
        and 0 <= declared < float("inf")
    return float(declared) if ok else COSTS["statistics"]  # type: ignore[arg-type]


def serial_seconds(cfg: ExperimentConfig, plan: Plan | None,
                   host: PluginHost | None = None) -> float:
    """The run's estimated serial CPU seconds (statistics and resampling); with ``host``,
    each metric at the cost its class declares."""
    costs = []
    for m in cfg.metrics:
        cls = None
        if host is not None:
            try:
                cls = host.registry("metric").get(m.metric)
            except EvalfwError:  # scoring reports an unknown metric properly
                cls = None
        costs.append(statistics_cost(cls))
    total = 0.0
    for ts in cfg.test_sets:
        segments = _segments(str(ts.references[0])) if ts.references else 0
        systems = len(ts.systems)
        total += sum(costs) * segments * systems
        if plan is None:
            continue
        s = plan.settings
        tables = len(plan.metrics)
        if s.method in ("bootstrap", "both"):
            total += COSTS["bootstrap"] * s.samples * systems * segments * tables
        if s.method in ("ar", "both"):
            total += COSTS["ar"] * s.ar_trials * max(0, systems - 1) * segments * tables
    return total


__all__ = ["COSTS", "serial_seconds", "statistics_cost"]
