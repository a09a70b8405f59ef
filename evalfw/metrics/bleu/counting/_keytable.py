"""Exact membership and rank lookups of int64 keys through an open-addressing hash table.

The n-gram tables (:mod:`evalfw.metrics.bleu.counting._tables`) are sorted arrays of distinct non-negative
keys, and counting asks, for every hypothesis position, whether its key is in the table and
at which rank. A binary search needs the queries sorted first to be fast (an ``argsort`` per
order per system); a hash table answers unsorted queries directly with a few gathers.

Layout (linear probing, built without a Python loop): every key has a home slot (a
multiplicative hash). Keys sorted by home slot are placed at ``max(home, previous + 1)``, so
each key sits in the run of occupied slots that starts at or before its home, and a lookup
walks forward from the home slot until it meets the key or a free slot. Keys are compared
exactly, so a hash collision costs a probe, never a wrong answer.
"""

from __future__ import annotations

import numpy as np

#: 2^64 / golden ratio: spreads structured keys (segment * V + token) over the table
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
#: free slots hold this (keys are >= 0)
_FREE = -1


class KeyTable:
    """Rank of each of ``keys`` (distinct, >= 0) by lookup; at most half of the slots are used."""

    def __init__(self, keys: np.ndarray) -> None:
        n = len(keys)
        bits = max(4, (2 * n).bit_length())
        self._shift = np.uint64(64 - bits)
        home = self._home(keys)
        # sort (home, rank) pairs packed in one int64: homes < 2^bits, ranks < 2^32
        packed = (home << 32) | np.arange(n, dtype=np.int64)
        packed.sort()
        home_sorted, rank = packed >> 32, packed & 0xFFFFFFFF
        at = np.arange(n, dtype=np.int64)
        slot = np.maximum.accumulate(home_sorted - at) + at if n else at
        size = max(1 << bits, int(slot[-1]) + 1 if n else 0) + 1  # ends with a free slot
        self.keys = np.full(size, _FREE, dtype=np.int64)
        self.keys[slot] = keys[rank]
        self.ranks = np.zeros(size, dtype=np.int64)
        self.ranks[slot] = rank

    @staticmethod
    def fits(n: int) -> bool:
        """Whether ``n`` keys fit the packed build (ranks below 2^32, homes below 2^31)."""
        return (4 * n).bit_length() <= 31

    def _home(self, keys: np.ndarray) -> np.ndarray:
        # uint64 arithmetic wraps modulo 2^64 (no overflow error for arrays): that is the hash
        return ((keys.view(np.uint64) * _MULTIPLIER) >> self._shift).view(np.int64)

    def lookup(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which queries are keys, and their ranks (meaningful where found)."""
        slot = self._home(query)
        seen = self.keys[slot]
        found = seen == query
        rest = np.flatnonzero(~found & (seen != _FREE))
        while len(rest):  # probe on; each round only the queries still in an occupied run
            slot[rest] += 1
            seen = self.keys[slot[rest]]
            hit = seen == query[rest]
            found[rest[hit]] = True
            rest = rest[~hit & (seen != _FREE)]
        return found, self.ranks[slot]
