"""The compiled intl rules (``evalfw.tokenizers._intl_rules``) against sacreBLEU 2.6.0's intl
tokenizer and against the rules applied with ``regex`` (``intl.exact``), line by line,
on random text dense in punctuation, symbols, numbers (Latin-1, above it and astral) and every
kind of whitespace; its one-line entry on lines holding "\\n"; the ``intl`` batches, joined
texts and one-line joiner with and without it; and its refusal of malformed classes."""

from __future__ import annotations

import random

import pytest
import regex

from evalfw.tokenizers import intl
from tests.support.tokenizer_oracles import WHITESPACE, sacrebleu_oracle

native = pytest.importorskip("evalfw.tokenizers._intl_rules")
pytestmark = pytest.mark.parity

_SAMPLE = "".join(map(chr, [*range(0x20, 0x3100), *range(0xFE30, 0xFFEF),
                            *range(0x10100, 0x10140), *range(0x1D7CE, 0x1D7D8),
                            *range(0x1F300, 0x1F320)]))
#: members of each category, Latin-1 and above, BMP and astral
MEMBERS = {c: regex.findall(rf"\p{{{c}}}", _SAMPLE) for c in "PSN"}
PIECES = ["a", "Bc", "é", "中", "ß", "x\u0301", "\ud800", "\x01", "\x90", "\n", *WHITESPACE]


def _line(rng: random.Random, newlines: bool = False) -> str:
    out = []
    for _ in range(rng.randint(0, 30)):
        pick = rng.random()
        if pick < 0.6:
            out.append(rng.choice(MEMBERS[rng.choice("PPSN")]))
        else:
            out.append(rng.choice(PIECES))
    text = "".join(out)
    return text if newlines else text.replace("\n", " ")


def _literal(line: str) -> str:
    return " ".join(intl.exact(line.rstrip()).split())


@pytest.mark.parametrize("seed", range(30))
def test_compiled_rules_equal_sacrebleu_and_the_literal_substitutions(seed):
    rng = random.Random(seed)
    lines = [_line(rng) for _ in range(60)]
    text = "\n".join(lines)
    got = native.rules(text, intl.runs(text), False).split("\n")
    assert got == [" ".join(tokens) for tokens in sacrebleu_oracle("intl")(lines)]
    assert got == [_literal(line) for line in lines]


@pytest.mark.parametrize("seed", range(10))
def test_one_line_keeps_newlines_inside_the_line(seed):
    rng = random.Random(seed + 500)
    tokenizer = sacrebleu_oracle("intl")
    for _ in range(100):
        line = _line(rng, newlines=True)
        got = native.rules(line, intl.runs(line), True)
        assert got == _literal(line) == " ".join(tokenizer([line])[0]), repr(line)


@pytest.mark.parametrize("seed", range(8))
def test_batches_are_the_same_with_and_without_the_compiled_rules(seed, monkeypatch):
    rng = random.Random(seed + 900)
    lines = [_line(rng, newlines=rng.random() < 0.05) for _ in range(120)]
    tok = intl.TokenizerIntl()
    want = sacrebleu_oracle("intl")(lines)
    joiner = tok.line_joiner()
    compiled = tok.tokenize(lines), tok.tokenize_joined(lines), [joiner(x) for x in lines]
    assert compiled[0] == want
    assert [s.split() for s in compiled[1].split("\n")[1:-1]] == want
    assert [t.split() for t in compiled[2]] == want
    assert all(t.startswith("\n") and t.endswith("\n") and t.count("\n") == 2
               for t in compiled[2])
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    assert intl.compiled() is None
    assert tok.tokenize(lines) == want
    assert [s.split() for s in tok.tokenize_joined(lines).split("\n")[1:-1]] == want


def test_malformed_classes_are_refused():
    p_starts, p_ends, *rest = intl.runs("a.,!?1")
    with pytest.raises(ValueError):
        native.rules("a.", (p_starts, p_ends[:-1], *rest), False)
    with pytest.raises(TypeError):
        native.rules("a.", (p_starts, p_ends), False)
    with pytest.raises(TypeError):
        native.rules(b"a.", intl.runs("a."), False)


def test_empty_and_blank_lines():
    assert native.rules("", intl.runs(""), False) == ""
    assert native.rules("\n \n\t.\n", intl.runs("\n \n\t.\n"), False) == "\n\n.\n"
    assert native.rules("1. ", intl.runs("1. "), True) == "1."  # right-stripped first
