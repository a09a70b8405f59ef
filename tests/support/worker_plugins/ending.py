"""A metric for the executor tests: unigram F1 whose computing, in a worker process only (a
fork of ``--jobs N`` or a Dask worker), ends that process or stalls it, as a crashing
extension or the kernel's out-of-memory killer would.

Options: ``action`` (``exit``: ``os._exit(7)``; ``kill``: SIGKILL to itself; ``sleep``: write
the process id to a file in ``$EVALFW_TEST_PIDS`` and sleep a minute), ``stage``
(``statistics``: while computing a system whose hypotheses hold a line ``TRIGGER``; or
``resampling``: while scoring resamples, any system).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import evalfw


def _in_worker() -> bool:
    """In a process started by multiprocessing: a fork of the pool, a Dask nanny's worker."""
    return multiprocessing.parent_process() is not None


class Ending(evalfw.Metric):
    name = "ending"
    version = "1"
    description = "unigram F1 that ends or stalls its worker process (executor tests)"
    options_schema = {"type": "object", "additionalProperties": False, "properties": {
        "action": {"enum": ["exit", "kill", "sleep"], "default": "exit"},
        "stage": {"enum": ["statistics", "resampling"], "default": "statistics"}}}

    def _act(self) -> None:
        if not _in_worker():
            return
        action = self.options["action"]
        if action == "exit":
            os._exit(7)
        if action == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        (Path(os.environ["EVALFW_TEST_PIDS"]) / str(os.getpid())).write_text("", "utf-8")
        time.sleep(60)

    def segment_statistics(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        if self.options["stage"] == "statistics" and "TRIGGER" in hypotheses:
            self._act()
        rows = []
        for hyp, ref in zip(hypotheses, references[0]):
            h, r = hyp.split(), (ref or "").split()
            rows.append([len(set(h) & set(r)), len(h), len(r)])
        return np.array(rows, dtype=np.int64).reshape(len(hypotheses), 3)

    def score(self, statistics: np.ndarray) -> float:
        matched, hyp, ref = statistics.sum(axis=0).tolist()
        return 100.0 * 2 * matched / (hyp + ref) if hyp + ref else 0.0

    def score_rows(self, sums: np.ndarray, last: np.ndarray | None = None,
                   segments: int = 1) -> np.ndarray:
        if self.options["stage"] == "resampling":
            self._act()
        return super().score_rows(sums, last, segments)

    def signature(self, nrefs: int | str) -> str:
        return f"nrefs:{nrefs}|{self.name}:{self.version}"


@evalfw.hookimpl
def evalfw_register_metrics() -> list[type[evalfw.Metric]]:
    return [Ending]
