"""KeyTable (open-addressing lookups of the n-gram tables) answers exactly what a binary search
over the sorted keys answers, for random, structured and clustered keys."""

from __future__ import annotations

import random

import numpy as np
import pytest

from evalfw.metrics.bleu.counting._keytable import KeyTable


def _binary(keys: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pos = np.minimum(np.searchsorted(keys, query), max(len(keys) - 1, 0))
    found = keys[pos] == query if len(keys) else np.zeros(len(query), dtype=bool)
    return found, pos


def _check(keys: np.ndarray, query: np.ndarray) -> None:
    keys = np.unique(keys)
    found, rank = KeyTable(keys).lookup(query)
    want_found, want_rank = _binary(keys, query)
    assert np.array_equal(found, want_found)
    assert np.array_equal(rank[found], want_rank[want_found])


@pytest.mark.parametrize("seed", range(30))
def test_random_keys_and_queries(seed: int) -> None:
    rng = np.random.default_rng(seed)
    kind = seed % 3
    n = int(rng.integers(0, 5000))
    if kind == 0:  # anywhere in int64's non-negative range
        keys = rng.integers(0, 2**62, n)
    elif kind == 1:  # as the n-gram tables make them: segment * V + token
        v = int(rng.integers(1, 3000))
        keys = rng.integers(0, 2000, n) * v + rng.integers(0, v, n)
    else:  # dense runs of consecutive integers
        keys = np.concatenate([np.arange(s, s + 50) for s in rng.integers(0, 10**6, n // 50 + 1)])
    keys = keys.astype(np.int64)
    query = np.concatenate([keys[rng.integers(0, len(keys), 3000)] if len(keys) else keys,
                            rng.integers(0, int(keys.max(initial=0)) + 10, 3000)])
    _check(keys, query.astype(np.int64))


def test_colliding_homes_are_probed_exactly() -> None:
    # 32 keys with the same home slot: one long run, every lookup walks it
    n = 32
    shift = int(KeyTable(np.arange(n, dtype=np.int64))._shift)
    inverse = pow(0x9E3779B97F4A7C15, -1, 2**64)  # the hash of ((7 << shift) + j) * inverse
    candidates = (((7 << shift) + j) * inverse % 2**64 for j in range(1000))
    keys = np.array(sorted(k for k in candidates if k < 2**63)[:n], dtype=np.int64)
    table = KeyTable(keys)
    assert int(table._shift) == shift and len(set(table._home(keys).tolist())) == 1
    rng = random.Random(1)
    query = np.array(rng.choices(keys.tolist(), k=200) + [0, 1, 2, 3], dtype=np.int64)
    _check(keys, query)


def test_empty_table_and_empty_query() -> None:
    _check(np.zeros(0, np.int64), np.array([0, 5, 2**62], np.int64))
    _check(np.array([3, 9], np.int64), np.zeros(0, np.int64))
