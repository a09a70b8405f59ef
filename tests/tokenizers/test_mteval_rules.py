"""The compiled mteval rules (``evalfw.tokenizers._mteval_rules``) against the rules applied
literally with regular expressions (``_mteval.exact``), line by line, on random text dense in
the characters the rules look at; its one-line entry (``rules_line``) against the padded line
through ``rules``; and the ``13a`` and ``zh`` batches with and without it."""

from __future__ import annotations

import random

import pytest

from evalfw.tokenizers import _mteval
from evalfw.tokenizers.mteval13a import Tokenizer13a
from evalfw.tokenizers.zh import TokenizerZh

native = pytest.importorskip("evalfw.tokenizers._mteval_rules")

PIECES = ["1", "23", ".", ",", "-", "a", "Bc", " ", "  ", "\t", "\u3000", "\xa0", "$", "(", ")",
          "&", "'", "é", "中", "…", "\u200b", "'s", "..", ",,", "-", "<", ">", "_", "~", "!", "?"]


def _line(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 25)))


@pytest.mark.parametrize("seed", range(40))
def test_compiled_rules_equal_the_literal_substitutions(seed):
    rng = random.Random(seed)
    lines = [_line(rng) for _ in range(50)]
    got = native.rules("\n".join(lines)).split("\n")
    assert got == [" ".join(_mteval.exact(line).split()) for line in lines]


@pytest.mark.parametrize("seed", range(10))
def test_rules_line_is_the_padded_line_through_rules(seed):
    rng = random.Random(seed + 100)
    for _ in range(200):
        line = _line(rng) + rng.choice(["", "", "\n", "&", "<", "a\nb", "😀", "\u0100"])
        want = None if any(c in line for c in "\n&<") else native.rules(f"\n {line} \n")
        got = native.rules_line(line)
        assert got == want, line
        assert got is None or (got.startswith("\n") and got.endswith("\n"))


@pytest.mark.parametrize("tokenizer", [Tokenizer13a(), TokenizerZh()], ids=["13a", "zh"])
@pytest.mark.parametrize("seed", range(10))
def test_batches_are_the_same_with_and_without_the_compiled_rules(tokenizer, seed,
                                                                  monkeypatch):
    rng = random.Random(seed)
    lines = [_line(rng) for _ in range(80)]
    compiled = tokenizer.tokenize(lines), tokenizer.tokenize_joined(lines).split("\n")
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    assert _mteval.compiled() is None
    plain = tokenizer.tokenize(lines), tokenizer.tokenize_joined(lines).split("\n")
    assert compiled[0] == plain[0]
    assert [t.split() for t in compiled[1]] == [t.split() for t in plain[1]]
