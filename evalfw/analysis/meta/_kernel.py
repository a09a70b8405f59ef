"""The hot loops of the meta-evaluation, in numpy, or in the compiled kernel
(``evalfw/analysis/meta/_metakernel.c``) when it is built and not switched off with
``EVALFW_NATIVE=0``. Both do the same arithmetic in the same order, so they give the same
bits (the tests compare them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from evalfw.metrics._native import CompiledKernel

if TYPE_CHECKING:
    from evalfw.analysis.meta.grouped import Sweep

COMPILED = CompiledKernel("evalfw.analysis.meta._metakernel", "numpy")


def sweep_max(sweep: Sweep, weights: np.ndarray, used: np.ndarray, block: int = 64) -> np.ndarray:
    """The best acc_eq over every threshold of ``sweep`` for each row of ``weights``
    (resamples x segments, int64), divided by ``used``; NaN where ``used`` is 0."""
    native = COMPILED.module()
    out = np.full(len(weights), np.nan)
    if native is not None:
        native.sweep_max(
            np.ascontiguousarray(sweep.gain, dtype=np.int64),
            np.ascontiguousarray(sweep.row, dtype=np.int64),
            np.ascontiguousarray(sweep.ends, dtype=np.int64), int(sweep.starts_at_zero),
            np.ascontiguousarray(sweep.group, dtype=np.int64),
            np.ascontiguousarray(sweep.denominators, dtype=np.float64),
            np.ascontiguousarray(sweep.base, dtype=np.int64),
            np.ascontiguousarray(weights, dtype=np.int64),
            np.ascontiguousarray(used, dtype=np.float64), out)
        return out
    for start in range(0, len(weights), block):
        w, u = weights[start:start + block], used[start:start + block]
        ok = u > 0
        if ok.any():
            out[start:start + block][ok] = sweep.values(w[ok], u[ok]).max(axis=1)
    return out


__all__ = ["COMPILED", "sweep_max"]
