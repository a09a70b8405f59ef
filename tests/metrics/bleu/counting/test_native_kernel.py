"""The compiled counting kernel (``evalfw.metrics.bleu.counting._clipcount``) equals the numpy tables exactly.

Randomized differential tests on joined texts built to be hard: every kind of ``str.split()``
whitespace, astral and combining characters, tokens that differ only past their first
character, repeated n-grams (clipping), empty lines and references, 1-3 references, orders
1-7, word and character units. The engine-level parity tests (sacreBLEU, NLTK, WMT22) run
through the kernel too whenever it is built; these pin it to the numpy implementation.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from evalfw.metrics.bleu.counting import kernel as native  # noqa: E402
from evalfw.metrics.bleu.counting._tables import NgramTables  # noqa: E402
from evalfw.metrics.bleu.counting.clipped import Clipped  # noqa: E402
from evalfw.metrics.bleu.counting.kernel import NativeTables  # noqa: E402
from tests.support.tokenizer_oracles import WHITESPACE as _ALL_SPACE

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

#: a line never holds "\n" (it separates the lines of a joined text)
WHITESPACE = [c for c in _ALL_SPACE if c != "\n"]

KERNEL = native.kernel()
# Without a C compiler pip installs evalfw without the kernel and numpy counts (same numbers):
# then these comparisons have nothing to compare, and say so.
needs_kernel = pytest.mark.skipif(KERNEL is None, reason=native.describe())

#: small alphabets so that n-grams repeat and match; one entry per kind of str storage
ALPHABETS = (
    ["a", "b", "ab", "ba", "aa", "b.", "A"],
    ["é", "e\u0301", "ß", "ss", "Ω", "ω"],
    ["中", "文", "中文", "日本", "本", "の"],
    ["\U0001f600", "\U0001f600a", "a\U0001f600", "𝔸", "b"],
)


def random_line(rng: random.Random, words: list[str]) -> str:
    if rng.random() < 0.08:
        return rng.choice(["", " ", "\u3000", rng.choice(WHITESPACE)])
    out = []
    for _ in range(rng.randint(1, 25)):
        out.append(rng.choice(words))
        out.append(rng.choice([" ", " ", " ", "  ", rng.choice(WHITESPACE), ""]))
    return "".join(out)


def joined(lines: list[str]) -> str:
    return "\n" + "\n".join(lines) + "\n"


def both(refs: list[str], lines: int, order: int, unit: str):
    fast = NativeTables.build(refs, lines, order, unit)
    slow = NgramTables.from_joined(refs, lines, order, unit)
    return fast, slow


@needs_kernel
@pytest.mark.parametrize("unit", ["word", "char"])
def test_kernel_equals_numpy_on_random_texts(unit: str) -> None:
    rng = random.Random(f"kernel-{unit}")
    compared = matched = 0
    for _ in range(300):
        words = rng.choice(ALPHABETS) + (rng.choice(ALPHABETS) if rng.random() < 0.3 else [])
        n = rng.randint(0, 30)
        base = [random_line(rng, words) for _ in range(n)]
        refs = [joined([b if rng.random() < 0.6 else random_line(rng, words) for b in base])
                for _ in range(rng.randint(1, 3))]
        order = rng.randint(1, 7)
        fast, slow = both(refs, n, order, unit)
        if slow is None:  # a NUL in the text: numpy declines, the list path takes it
            continue
        assert fast is not None
        assert np.array_equal(fast.ref_lens, slow.ref_lens)
        for _ in range(3):
            hyp = joined([b if rng.random() < 0.5 else random_line(rng, words) for b in base])
            got, want = fast.count_joined(hyp, n, unit), slow.count_joined(hyp, n, unit)
            assert want is not None and got is not None
            assert got[0].tolist() == want[0].tolist()
            assert got[1].tolist() == want[1].tolist()
            compared += 1
            matched += int(want[1][:, -1].sum() > 0)
    assert compared > 700 and matched > 50  # the highest order matched often enough


def _sequence(k: int, tag: str = "w") -> list[str]:
    return [f"{tag}{i}" for i in range(k)]


#: segments around the limits of the 16-bit n-gram slots: (tokens, max order, wide?)
#: k distinct tokens at order 2 give 2k - 1 n-grams; up to 16384 fit 32768 slots (int16 slot
#: numbers), one more needs 65536 slots. One token repeated 65535 times still fits a 16-bit
#: count, 65536 times does not.
LIMITS = [
    (_sequence(8192), 2, False), (_sequence(8193), 2, True),
    (_sequence(16384), 1, False), (_sequence(16385), 1, True),
    (["a"] * 65535, 3, False), (["a"] * 65536, 3, True),
]


@needs_kernel
@pytest.mark.parametrize("tokens,order,wide", LIMITS)
def test_blocks_on_either_side_of_the_16_bit_limits(tokens: list[str], order: int,
                                                    wide: bool) -> None:
    """A block whose slot numbers, token ids or counts outgrow 16 bits gets 32-bit slots; both
    layouts count exactly what numpy counts, in one index with ordinary segments around it."""
    rng = random.Random(len(tokens) * 10 + order)
    lines = ["x y z", " ".join(tokens), "y z x y"]
    fast, slow = both([joined(lines), joined(["x y", "", "z x y z"])], 3, order, "word")
    assert fast is not None and slow is not None
    assert fast._index.wide_blocks == int(wide)
    shuffled = tokens[:]
    rng.shuffle(shuffled)
    for hyp_line in (" ".join(tokens), " ".join(tokens + tokens[:5]), " ".join(shuffled),
                     " ".join(tokens[: len(tokens) // 2])):
        hyp = joined(["x y z x", hyp_line, "y z"])
        got, want = fast.count_joined(hyp, 3), slow.count_joined(hyp, 3)
        assert want is not None and got is not None
        assert got[0].tolist() == want[0].tolist()
        assert got[1].tolist() == want[1].tolist()
    # the list path builds the same blocks
    lists = NativeTables.from_lists([[ln.split() for ln in lines]], order)
    assert lists is not None and lists._index.wide_blocks == int(wide)
    assert lists.count([["x"], tokens, []])[1].tolist() == \
        NgramTables([[ln.split() for ln in lines]], order).count([["x"], tokens, []])[1].tolist()


@needs_kernel
def test_clipping_and_lengths_by_hand() -> None:
    tables = NativeTables.build([joined(["a b c a", "x y"]), joined(["a b a", ""])], 2, 4, "word")
    assert tables is not None
    assert tables.ref_lens.tolist() == [[4, 3], [2, 0]]
    hyp_len, matches = tables.count_joined(joined(["a b c a a", "z y x"]), 2)
    assert hyp_len.tolist() == [5, 3]
    # a: 3 in the hypothesis, at most 2 in one reference -> 2; "a b", "b c", "c a" -> 3
    assert matches.tolist() == [[4, 3, 2, 1], [2, 0, 0, 0]]


@needs_kernel
@pytest.mark.parametrize("text,lines", [("a b\n", 1), ("\na b", 1), ("\na\nb\n", 1),
                                        ("\na\n", 2), ("", 0), ("\n\n\n", 1)])
def test_malformed_joined_texts_are_declined(text: str, lines: int) -> None:
    assert NativeTables.build([text], lines, 4, "word") is None
    good_text = joined(["a"] * lines) if lines else "\n"  # zero lines: just the one "\n"
    good = NativeTables.build([good_text], lines, 4, "word")
    assert good is not None and good.count_joined(text, lines) is None



@needs_kernel
@pytest.mark.parametrize("unit", ["word", "char"])
def test_every_code_point_splits_as_str_split(unit: str) -> None:
    """The kernel's whitespace test (fast paths for printable ASCII and above U+3000) agrees
    with ``str.split()`` on all 1,114,111 code points but "\\n", the line separator."""
    points = [c for c in range(0x110000) if c != 0x0A]
    for start in range(0, len(points), 0x20000):
        lines = [f"a{chr(c)}b" for c in points[start:start + 0x20000]]
        tables = NativeTables.build([joined(["a b"] * len(lines))], len(lines), 2, unit)
        assert tables is not None
        hyp_len, matches = tables.count_joined(joined(lines), len(lines), unit)
        want = [len(line.split()) if unit == "word" else len("".join(line.split()))
                for line in lines]
        assert hyp_len.tolist() == want
        # "a b" parts match where the character is whitespace, never across it
        spaces = [w != (1 if unit == "word" else 3) for w in want]
        assert (matches[:, 0] == np.where(spaces, 2, 0 if unit == "word" else 2)).all()

@needs_kernel
def test_list_path_on_a_kernel_index_uses_numpy_tables() -> None:
    refs = [joined(["a b c", "d e"])]
    tables = NativeTables.build(refs, 2, 4, "word")
    assert tables is not None
    hyp_len, matches = tables.count([["a", "b", "x"], ["d", "e"]])
    assert hyp_len.tolist() == [3, 2] and matches.tolist() == [[2, 1, 0, 0], [2, 1, 0, 0]]


def test_switch_off_with_environment(monkeypatch) -> None:
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    assert native.kernel() is None and "EVALFW_NATIVE=0" in native.describe()
    assert NativeTables.build([joined(["a"])], 1, 4, "word") is None
    index = Clipped().index_joined([joined(["a"])], 1, 4, "word")
    assert index is not None and isinstance(index.tables, NgramTables)


@pytest.mark.parametrize("switch", ["1", "0"])
def test_engine_equals_sacrebleu_with_and_without_the_kernel(switch: str, monkeypatch) -> None:
    """The whole engine through either counting code gives sacreBLEU's corpus and sentence
    numbers (the rest of the suite runs with the kernel whenever it is built)."""
    from sacrebleu.metrics import BLEU

    from evalfw import api

    monkeypatch.setenv("EVALFW_NATIVE", switch)
    rng = random.Random(f"engine-{switch}")
    for _ in range(12):
        words = rng.choice(ALPHABETS) + rng.choice(ALPHABETS) + ["x.", "5,0", "(", "-1"]
        n = rng.randint(1, 25)
        refs = [[random_line(rng, words) for _ in range(n)] for _ in range(rng.randint(1, 3))]
        hyps = [random_line(rng, words) for _ in range(n)]
        tok = rng.choice(["13a", "intl", "zh", "char", "none"])
        ours = api.corpus_bleu(hyps, refs, tokenizer=tok)
        theirs = BLEU(tokenize=tok).corpus_score(hyps, refs)
        assert (ours.score, list(ours.counts), list(ours.totals), ours.ref_len) == \
            (theirs.score, theirs.counts, theirs.totals, theirs.ref_len)
        sentence = BLEU(tokenize=tok, effective_order=True)
        got = api.sentence_scores(hyps, refs, tokenizer=tok, effective_order=True)
        want = [sentence.sentence_score(h, list(r)).score for h, r in zip(hyps, zip(*refs))]
        assert [s.score for s in got] == want


class Word(str):
    """A str subclass: the kernel leaves it to numpy (Python's own == and hash)."""


def random_tokens(rng: random.Random, words: list[str]) -> list:
    out: list = [rng.choice(words) for _ in range(rng.randint(0, 20))]
    if out and rng.random() < 0.1:
        out[rng.randrange(len(out))] = ""  # empty tokens are tokens in the list path
    return out


@needs_kernel
def test_token_lists_equal_numpy_including_missing_references() -> None:
    rng = random.Random("lists")
    compared = fallbacks = 0
    for _ in range(300):
        words = rng.choice(ALPHABETS) + ["a b", "\n", " "]  # whitespace inside a token is fine
        n = rng.randint(1, 25)
        width = rng.randint(1, 3)
        streams = [[random_tokens(rng, words) if k == 0 or rng.random() < 0.8 else None
                    for _ in range(n)] for k in range(width)]
        order = rng.randint(1, 6)
        fast = NativeTables.from_lists(streams, order)
        slow = NgramTables(streams, order)
        assert fast is not None
        assert fast.ref_lens.tolist() == slow.ref_lens.tolist()
        # the caller's lists may change afterwards: a fallback count uses a snapshot
        for stream in streams:
            for tokens in stream:
                if tokens:
                    tokens[0] = "changed"
        for _ in range(3):
            hyps = [random_tokens(rng, words) for _ in range(n)]
            if rng.random() < 0.2:  # a str subclass or another type: counted by numpy
                hyps[rng.randrange(n)] = [Word("a"), rng.choice(words)] if rng.random() < 0.5 \
                    else [1, "a"]
                fallbacks += 1
            got, want = fast.count(hyps), slow.count(hyps)
            assert got[0].tolist() == want[0].tolist()
            assert got[1].tolist() == want[1].tolist()
            compared += 1
    assert compared == 900 and fallbacks > 50


@needs_kernel
def test_references_that_are_not_plain_str_take_numpy() -> None:
    assert NativeTables.from_lists([[["a", 1]]], 4) is None
    assert NativeTables.from_lists([[[Word("a")]]], 4) is None
    assert NativeTables.from_lists([[("a", "b")]], 4) is not None  # tuples are sequences


@needs_kernel
def test_joined_index_counts_token_lists_too() -> None:
    tables = NativeTables.build([joined(["a b c", "d e"])], 2, 4, "word")
    assert tables is not None
    hyp_len, matches = tables.count([["a", "b", "x"], ["d", "e"]])
    assert hyp_len.tolist() == [3, 2] and matches.tolist() == [[2, 1, 0, 0], [2, 1, 0, 0]]


@needs_kernel
def test_an_index_of_token_lists_gives_its_tokens_back() -> None:
    streams = [[["a", "bé", "\U0001f600x", ""], [], ["x", "y", "x"]],
               [["a", "b", "a"], None, ["中", "中文"]]]
    index = KERNEL.Index.from_lists(streams, 3, 4)
    assert index.tokens() == streams
    assert KERNEL.Index.from_lists([[[]], [None]], 1, 2).tokens() == [[[]], [None]]
    with pytest.raises(ValueError):
        KERNEL.Index(["\n"], 0, 4, False).tokens()


@needs_kernel
def test_a_record_counted_by_the_kernel_verifies_with_numpy(tmp_path, monkeypatch) -> None:
    """Recomputing a stored run with the other counting code gives every number again; the
    switch is named as a note, not as a difference."""
    import shutil

    from evalfw.runner.run import run_experiment
    from evalfw.runner.verify import verify

    repo = Path(__file__).resolve().parents[4]
    shutil.copytree(repo / "configs", tmp_path / "configs")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_NATIVE", "1")
    stored = run_experiment(str(tmp_path / "configs" / "wmt.yaml"), cache=False)
    assert "compiled kernel" in stored.record["environment"]["implementations"]["bleu"]
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    verdict = verify(str(stored.path))
    assert verdict.ok, verdict.problems
    assert verdict.compared == 18  # 5 BLEU results and chrf, 3 systems
    assert any("code computing bleu: compiled kernel" in n and "numpy" in n
               for n in verdict.notes), verdict.notes


@needs_kernel
@pytest.mark.parametrize("unit", ["word", "char"])
def test_a_joined_index_counts_other_token_types_through_numpy(unit: str) -> None:
    # "\x00" makes numpy's own joined reader decline the text; the kernel takes it
    refs = [joined(["a b\x00 c", "d e"]), joined(["a x", "\x00"])]
    tables = NativeTables.build(refs, 2, 4, unit)
    assert tables is not None
    hyps = [[Word("a"), "b\x00", "c"], ["d", 1]] if unit == "word" else [["a", Word("b")], ["d"]]
    lists = [[stream_line.split() if unit == "word" else
              [c for c in stream_line if not c.isspace()]
              for stream_line in ref.split("\n")[1:-1]] for ref in refs]
    want = NgramTables(lists, 4).count(hyps)
    got = tables.count(hyps)
    assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()
