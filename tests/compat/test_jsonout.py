"""``dumps_flat`` is ``json.dumps(d, indent=N, ensure_ascii=False)`` for flat dictionaries:
random keys and values of every JSON scalar type, strings full of what JSON escapes, and the
floats JSON writes specially."""

from __future__ import annotations

import json
import random

import pytest

from evalfw.compat._jsonout import dumps_flat

PIECES = ['"', "\\", "\n", "\t", "\r", "\b", "\f", "\x00", "\x1f", "\x7f", "é", "μ", "±", "😀",
          "\u2028", "\ud800", "a", "nrefs:1", "|", " ", "/"]
FLOATS = [0.0, -0.0, 1.0, 0.1, 1e-7, 1e16, 1e300, 36.0, 63.540411, float("nan"), float("inf"),
          float("-inf"), 2.0 ** 0.5]


def _value(rng: random.Random) -> object:
    kind = rng.randrange(6)
    if kind == 0:
        return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 6)))
    if kind == 1:
        return rng.choice(FLOATS) if rng.random() < 0.5 else rng.uniform(-1e3, 1e3)
    if kind == 2:
        return rng.randint(-10**20, 10**20)
    return [True, False, None][kind - 3]


@pytest.mark.parametrize("seed", range(5))
def test_equals_json_dumps(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        d = {"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4))): _value(rng)
             for _ in range(rng.randint(0, 8))}
        for indent in (1, 4):
            assert dumps_flat(d, indent) == json.dumps(d, indent=indent, ensure_ascii=False)


def test_other_values_go_to_json() -> None:
    d = {"a": [1, 2], "b": {"c": 1.5}}
    assert dumps_flat(d, 1) == json.dumps(d, indent=1, ensure_ascii=False)
    with pytest.raises(TypeError):
        dumps_flat({"a": object()}, 1)
