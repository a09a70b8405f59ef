"""The engine's joined lane (built-in tokenizer + built-in counter exchange one token text per
batch instead of a list per line) gives exactly the statistics of the list path."""

from __future__ import annotations

import random

import numpy as np
import pytest

from evalfw.api import default_host  # noqa: E402
from evalfw.metrics.bleu import engine  # noqa: E402
from evalfw.metrics.bleu.counting._tables import Vocab, flatten, flatten_joined  # noqa: E402
from evalfw.metrics.bleu.counting.clipped import Clipped  # noqa: E402
from evalfw.metrics.bleu.spec import resolve_spec  # noqa: E402
from evalfw.tokenizers import plugin as tokenizers  # noqa: E402
from evalfw.tokenizers.base import supports_joined  # noqa: E402
from evalfw.tokenizers.mteval13a import Tokenizer13a  # noqa: E402
from tests.support.tokenizer_oracles import random_batches, random_line

CORE = ("none", "13a", "intl", "zh", "char")
BY_NAME = {cls.name: cls for cls in tokenizers.evalfw_register_tokenizers()}


@pytest.mark.parametrize("name", CORE)
def test_joined_text_holds_the_tokens_of_every_line(name: str) -> None:
    tok = BY_NAME[name]()
    assert supports_joined(tok)
    checked = 0
    for batch in random_batches(11, 1500):
        text = tok.tokenize_joined(batch)
        assert text is not None
        assert text.startswith("\n") and text.endswith("\n")
        assert text.count("\n") == len(batch) + 1
        segments = text.split("\n")[1:-1]
        if tok.joined_unit == "char":  # every non-whitespace character is a token
            assert [list("".join(s.split())) for s in segments] == tok.tokenize(batch)
        else:
            assert [s.split() for s in segments] == tok.tokenize(batch)
        checked += len(batch)
    assert checked >= 1500


def test_flatten_joined_equals_flatten_or_declines() -> None:
    rng = random.Random(3)
    tok = Tokenizer13a()
    declined = 0
    for batch in random_batches(12, 2000):
        text = tok.tokenize_joined(batch)
        a, b = Vocab(), Vocab()
        got = flatten_joined(text, len(batch), a)
        want = flatten(tok.tokenize(batch), b)
        if got is None:
            assert "\x00" in text  # the only reason for a built-in tokenizer's text
            declined += 1
            continue
        # ids differ only by the marker's id: compare the tokens themselves
        inv_a, inv_b = {v: k for k, v in a.items()}, {v: k for k, v in b.items()}
        assert [inv_a[i] for i in got[0].tolist()] == [inv_b[i] for i in want[0].tolist()]
        assert got[1].tolist() == want[1].tolist()
    assert declined > 0 and rng is not None  # the generator's controls include NUL


def test_character_unit_equals_flatten() -> None:
    tok = BY_NAME["char"]()
    whitespace = [c for c in map(chr, range(0x110000)) if len(f"a{c}a".split()) == 2]
    assert max(map(ord, whitespace)) < 0x3001  # the code point table covers them all
    for batch in random_batches(13, 1500):
        a, b = Vocab(), Vocab()
        ids, lens = flatten_joined(tok.tokenize_joined(batch), len(batch), a, "char")
        want_ids, want_lens = flatten(tok.tokenize(batch), b)
        inv_a, inv_b = {v: k for k, v in a.items()}, {v: k for k, v in b.items()}
        assert [inv_a[i] for i in ids.tolist()] == [inv_b[i] for i in want_ids.tolist()]
        assert lens.tolist() == want_lens.tolist()


def _stats_both_ways(options: dict, refs: list[list[str]], hyps: list[str], monkeypatch):
    spec = resolve_spec(default_host(), options)
    assert engine._joined_lane(spec)
    index = engine.index_references(spec, refs)
    fast = engine.segment_stats(spec, hyps, index)
    lines = [h.lower() for h in hyps] if spec.lowercase else hyps
    used = spec.counter.count_joined(spec.tokenizer.tokenize_joined(lines), len(hyps), index,
                                       spec.tokenizer.joined_unit)
    with monkeypatch.context() as m:
        m.setattr(engine, "_joined_lane", lambda spec: False)
        slow = engine.segment_stats(spec, hyps, engine.index_references(spec, refs))
    for field in ("hyp_len", "ref_lens", "matches", "totals"):
        assert np.array_equal(getattr(fast, field), getattr(slow, field)), field
    return fast, used is not None


@pytest.mark.parametrize("name", CORE)
def test_engine_stats_equal_the_list_path(name: str, monkeypatch) -> None:
    rng = random.Random(hash(name) % 1000)
    cases = lane = 0
    for _ in range(40):
        n = rng.randint(1, 40)
        base = [random_line(rng) for _ in range(n)]
        # hypotheses and references share words, so n-grams of every order match
        refs = [[line if rng.random() < 0.5 else random_line(rng) for line in base]
                for _ in range(rng.randint(1, 3))]
        hyps = [line if rng.random() < 0.6 else random_line(rng) for line in base]
        options = {"tokenizer": name, "lowercase": rng.random() < 0.3}
        lane += _stats_both_ways(options, refs, hyps, monkeypatch)[1]
        cases += 1
    assert cases == 40 and lane >= 10  # the rest hold NUL characters: list path


def test_nltk_floor_and_missing_references(monkeypatch) -> None:
    refs = [["a b c d", "x y"], ["a b c", "x y z"]]
    stats, used = _stats_both_ways({"tokenizer": "none", "counter": {"name": "clipped", "total_floor": 1}},
                             refs, ["a b c d e", "x"], monkeypatch)
    assert used and stats.totals.tolist() == [[5, 4, 3, 2], [1, 1, 1, 1]]
    # a missing reference (None) takes the list path: still the same numbers
    spec = resolve_spec(default_host(), {"tokenizer": "13a"})
    index = engine.index_references(spec, [["a b", "c d"], ["a b", None]])
    assert engine.segment_stats(spec, ["a b", "c d"], index).ref_lens.tolist() == [[2, 2], [2, -1]]


def test_plugin_subclasses_do_not_inherit_the_lane() -> None:
    class MyTok(Tokenizer13a):
        name = "my13a"

    class MyCounter(Clipped):
        name = "mine"

    assert supports_joined(Tokenizer13a()) and supports_joined(Clipped())
    assert not supports_joined(MyTok()) and not supports_joined(MyCounter())
