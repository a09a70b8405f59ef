"""Advancing numpy's PCG64 past draws without making them, for the walks of
:mod:`evalfw.analysis._blocks` (each block of resamples starts where the local run's draws
would have left the generator).

AR masks are skipped arithmetically (:func:`skip_bools`: booleans take a fixed number of 32-bit
draws, and PCG64 can ``advance``); bootstrap indices cannot be, because Lemire's rejections
decide how many draws each index takes, so the compiled kernel makes the same draws without
storing them (:func:`skip_indices`). ``tests/analysis/test_resampling_jobs.py`` checks both
against numpy's own draws, state for state.
"""

from __future__ import annotations

import numpy as np

__all__ = ["skip_bools", "skip_indices"]


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
        state.update(has_uint32=draws % 2, uinteger=high)
    bits.state = state


_MASK64 = (1 << 64) - 1


def skip_indices(bits: np.random.PCG64, segments: int, count: int) -> bool:
    """``bits`` as after ``choice(segments, size=count)`` drew from it, without storing the
    draws (the compiled kernel makes the same bounded draws: Lemire's rejections decide how
    many 32-bit words each index takes, so the stream cannot be advanced arithmetically);
    False, and ``bits`` untouched, when the kernel is not built."""
    try:
        from evalfw.analysis import _sacreboot
    except ImportError:
        return False
    state = bits.state
    pcg = state["state"]
    after = _sacreboot.skip(pcg["state"] >> 64, pcg["state"] & _MASK64, pcg["inc"] >> 64,
                            pcg["inc"] & _MASK64, state["has_uint32"], state["uinteger"],
                            segments, count)
    pcg["state"] = (after[0] << 64) | after[1]
    state.update(has_uint32=after[2], uinteger=after[3])
    bits.state = state
    return True
