"""numpy's ``SeedSequence(seed).generate_state(4, numpy.uint64)`` in plain Python: the four
64-bit words that seed ``numpy.random.default_rng(seed)``'s PCG64, for the compiled sacreBLEU
bootstrap (:mod:`evalfw.analysis._sacreboot`), which must not import numpy.

The algorithm is numpy's (``numpy/random/bit_generator.pyx``, after M.E. O'Neill's
``seed_seq_fe``): the seed's 32-bit words are hashed into a pool of four words, the pool is
mixed, and the output words are hashed from the pool in turn. ``tests/analysis`` compares it
with numpy's own on random seeds. ``seed=None`` takes 128 bits from the operating system, as
numpy does.
"""

from __future__ import annotations

import secrets

__all__ = ["pcg64_words"]

_MASK = 0xFFFFFFFF
_POOL = 4
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_SHIFT = 16


def _words(value: int) -> list[int]:
    """A non-negative integer as 32-bit words, least significant first (0 is one word)."""
    if value < 0:
        raise ValueError("expected non-negative integer")
    out = [value & _MASK]
    value >>= 32
    while value:
        out.append(value & _MASK)
        value >>= 32
    return out


def _pool(entropy: list[int]) -> list[int]:
    const = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal const
        value ^= const
        const = (const * _MULT_A) & _MASK
        value = (value * const) & _MASK
        return value ^ (value >> _SHIFT)

    def mix(x: int, y: int) -> int:
        result = (_MIX_L * x - _MIX_R * y) & _MASK
        return result ^ (result >> _SHIFT)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(_POOL)]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(_POOL, len(entropy)):
        for dst in range(_POOL):
            pool[dst] = mix(pool[dst], hashmix(entropy[src]))
    return pool


def pcg64_words(seed: int | None) -> tuple[int, int, int, int]:
    """The four uint64 words numpy seeds PCG64 with for ``default_rng(seed)``."""
    entropy = _words(secrets.randbits(128) if seed is None else seed)
    pool = _pool(entropy)
    const = _INIT_B
    halves = []
    for i in range(2 * 4):
        value = pool[i % _POOL] ^ const
        const = (const * _MULT_B) & _MASK
        value = (value * const) & _MASK
        halves.append(value ^ (value >> _SHIFT))
    w = [halves[2 * i] | (halves[2 * i + 1] << 32) for i in range(4)]
    return w[0], w[1], w[2], w[3]
