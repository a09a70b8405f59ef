"""Running experiment configs: reading inputs, scoring every cell, storing a record.

``evalfw.run(config, overrides=...)`` is :func:`evalfw.runner.run.run`.
"""

from __future__ import annotations

from evalfw.runner.run import RunOutcome, run, run_experiment

__all__ = ["RunOutcome", "run", "run_experiment"]
