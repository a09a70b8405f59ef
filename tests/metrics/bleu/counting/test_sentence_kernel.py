"""The compiled kernel's ``sentence`` (one segment, no index) counts exactly what the index
counts, on random token texts with repeats, several references and both token units."""

from __future__ import annotations

import random

import pytest

from evalfw.metrics.bleu.counting import kernel

K = kernel.kernel()
pytestmark = pytest.mark.skipif(K is None, reason="the compiled kernel is not built")


def text(rng: random.Random, n: int, vocab: list[str]) -> str:
    return " ".join(rng.choice(vocab) for _ in range(n))


@pytest.mark.parametrize("chars", [0, 1])
def test_equals_the_index(chars: int) -> None:
    rng = random.Random(chars + 11)
    vocab = ["a", "b", "ab", "ba", "é", "😀", "x y"[0], "longer-token", "你"]
    for _ in range(3000):
        order = rng.randint(1, 6)
        hyp = text(rng, rng.randint(0, 40), vocab)
        refs = [text(rng, rng.randint(0, 40), vocab) for _ in range(rng.randint(1, 3))]
        index = K.Index([f"\n{r}\n" for r in refs], 1, order, bool(chars))
        hyp_len, matches = index.count(f"\n{hyp}\n", 1)
        want_len = int.from_bytes(hyp_len, "little", signed=True)
        want = [int.from_bytes(matches[i * 8:(i + 1) * 8], "little", signed=True)
                for i in range(order)]
        assert index.count_one(f"\n{hyp}\n") == (want_len, tuple(want))
        got = K.sentence(hyp, refs, order, chars)
        assert got[0] == want_len and list(got[2]) == want, (hyp, refs, order)
        unit = list if chars else str.split
        assert list(got[1]) == [len(unit("".join(r.split()) if chars else r)) for r in refs]


def test_count_one_takes_one_line_of_a_one_segment_index() -> None:
    index = K.Index(["\na b\n"], 1, 2, False)
    for bad in ("a b", "\na\nb\n", "\na b"):
        with pytest.raises(ValueError):
            index.count_one(bad)
    with pytest.raises(ValueError):
        K.Index(["\na\nb\n"], 2, 2, False).count_one("\na\n")


def test_long_segments_decline() -> None:
    assert K.sentence(" ".join(["w"] * 5000), ["w"], 4, 0) is None
    assert K.sentence("a", [], 4, 0) == (1, (), (0, 0, 0, 0))
