"""Advancing numpy's PCG64 past AR masks without drawing them, for the walks of
:mod:`evalfw.analysis._blocks` (each block of trials starts where the local run's draws would
have left the generator).

Booleans take a fixed number of 32-bit draws, so :func:`skip_bools` moves the generator with
PCG64's own ``advance`` and sets its 32-bit buffer (``has_uint32``, ``uinteger``: fields of
numpy's documented state dictionary) as drawing would leave it. Bootstrap indices cannot be
skipped this way (Lemire's rejections decide how many draws each index takes): the walk draws
them. ``tests/analysis/test_resampling_jobs.py`` checks the skip against numpy's own draws,
state for state.
"""

from __future__ import annotations

import numpy as np

__all__ = ["skip_bools"]


def skip_bools(bits: np.random.PCG64, count: int) -> None:
    """``bits`` as after ``integers(2, size=count, dtype=bool)`` drew from it, without
    drawing. numpy fills booleans from 32-bit draws, 32 per draw (a fresh buffer per call);
    PCG64 serves two 32-bit draws per 64-bit step, the low half first, keeping the high half
    (``has_uint32``, ``uinteger``) for the next 32-bit draw, also across calls."""
    draws = -(-count // 32)
    if not draws:
        return
    state = bits.state
    if state["has_uint32"]:  # the kept half is the first draw
        draws -= 1
    state["has_uint32"] = 0
    if draws:
        # the last 64-bit step: its low half drawn, its high half kept (odd) or drawn too;
        # numpy leaves a drawn high half in ``uinteger``, and so does this
        bits.advance(-(-draws // 2) - 1)
        high = int(bits.random_raw()) >> 32
        state = bits.state
        state["has_uint32"], state["uinteger"] = draws % 2, high
    bits.state = state
