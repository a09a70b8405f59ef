"""``--paired-bs`` and ``--paired-ar`` of the drop-in command line: sacreBLEU 2.6.0's paired
tests (its ``PairedTest``), computed by :mod:`evalfw.analysis` in ``sacrebleu`` mode, so the
same seed gives the same resamples, means, intervals and p-values.

The first system is the baseline. Each metric's signature gains ``seed:<seed>`` (the integer
sacreBLEU parsed from ``$SACREBLEU_SEED``, or ``none``) and ``bs:<n>`` or ``ar:<n>``. A
resample count of 0 or less means sacreBLEU's default (1000, or 10000 trials).
``-j/--paired-jobs`` only spreads sacreBLEU's work over processes; the numbers do not depend
on it, so the systems are tested here one after another.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["environment_seed", "Result", "paired_test"]

DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}


class Result:
    """One cell of the paired table: ``score``, and ``p_value``, ``mean``, ``ci`` when the test
    gives them (sacreBLEU's ``significance.Result``; its JSON is ``vars()``)."""

    def __init__(self, score: float, p_value: float | None = None, mean: float | None = None,
                 ci: float | None = None) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci


def environment_seed() -> int | None:
    """``$SACREBLEU_SEED`` as sacreBLEU reads it: ``none`` (any case), else ``int()`` of it
    (with ``int()``'s error), non-negative (numpy's error)."""
    text = os.environ.get("SACREBLEU_SEED", "12345")
    if text.lower() == "none":
        return None
    seed = int(text)
    if seed < 0:
        raise ValueError("expected non-negative integer")
    return seed


def paired_test(systems: list[tuple[str, list[str]]], metrics: dict[str, Any],
                test_type: str, n_samples: int, n_jobs: int
                ) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Signatures by metric name, and the table's columns: ``System`` (the names) and each
    metric's results (baseline first), as sacreBLEU's ``PairedTest()`` returns them."""
    from evalfw.analysis.sacrebleu_mode import read_seed
    from evalfw.analysis.significance import paired_analysis

    seed = environment_seed()
    n = n_samples if n_samples > 0 else DEFAULT_SAMPLES[test_type]
    method = "bootstrap" if test_type == "bs" else "ar"
    base = systems[0][0]
    signatures: dict[str, Any] = {}
    prepared = []
    for metric in metrics.values():  # every baseline first, as sacreBLEU computes them
        evalfw_metric, rows, score = metric._resampling_input(systems[0][1])
        signature = metric.get_signature()
        signature.update("seed", str(seed).lower())
        signature.update(test_type, n)
        prepared.append((metric, evalfw_metric, rows, score, signature))
    if n_jobs < 0:  # sacreBLEU's worker pool refuses it once the baselines are done
        raise ValueError("Number of processes must be at least 1")
    columns: dict[str, list[Any]] = {"System": [name for name, _ in systems]}
    for metric, evalfw_metric, rows, score, signature in prepared:
        signatures[score.name] = signature
        stats = {base: rows}
        for name, hyps in systems[1:]:
            stats[name] = metric._resampling_input(hyps)[1]
        outcome = paired_analysis(stats, base, evalfw_metric, method, n,
                                  read_seed(bounded=False), mode="sacrebleu")
        baseline = outcome.baseline
        cells = [Result(score.score, mean=baseline.mean if baseline else None,
                        ci=baseline.ci if baseline else None)]
        cells += [Result(c.score, c.p_value, c.mean, c.ci) for c in outcome.comparisons]
        columns[score.name] = cells
    return signatures, columns
