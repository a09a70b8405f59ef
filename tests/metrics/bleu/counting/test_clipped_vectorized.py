"""Differential tests of the vectorized ``clipped`` counter.

Oracles: a plain Counter implementation written here (the textbook definition, any hashable
tokens), and sacreBLEU 2.6.0's own per-segment statistics on random, Unicode and WMT22 data.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from evalfw.metrics.bleu.counting.clipped import Clipped
from evalfw.metrics.bleu.families.brevity import Closest
from tests.support.shared_data import SHARED as _SHARED_DIR

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

SHARED = _SHARED_DIR
WMT = SHARED / "data" / "wmt22"


def reference_stats(hyps, streams, order, floor=0):
    """(hyp_len, matches, totals) by the definition: clip each hypothesis n-gram count to its
    maximum count in any single reference of the segment."""
    out = []
    for i, hyp in enumerate(hyps):
        best: Counter = Counter()
        for stream in streams:
            ref = stream[i]
            if ref is None:
                continue
            for n in range(1, order + 1):
                grams = Counter(tuple(ref[j:j + n]) for j in range(len(ref) - n + 1))
                for g, c in grams.items():
                    best[g] = max(best[g], c)
        matches = [0] * order
        for n in range(1, order + 1):
            grams = Counter(tuple(hyp[j:j + n]) for j in range(len(hyp) - n + 1))
            matches[n - 1] = sum(min(c, best[g]) for g, c in grams.items())
        totals = [max(floor, len(hyp) - n) for n in range(order)]
        out.append((len(hyp), matches, totals))
    return out


def check(hyps, streams, order, floor=0):
    counter = Clipped(total_floor=floor)
    stats = counter.count(hyps, counter.index_references(streams, order))
    expected = reference_stats(hyps, streams, order, floor)
    assert stats.hyp_len.tolist() == [e[0] for e in expected]
    assert stats.matches.tolist() == [e[1] for e in expected]
    assert stats.totals.tolist() == [e[2] for e in expected]
    lens = [[-1 if s[i] is None else len(s[i]) for s in streams] for i in range(len(hyps))]
    assert stats.ref_lens.tolist() == lens
    return stats


def random_corpus(rng: random.Random, vocab: list, n_seg: int, n_refs: int, maxlen: int,
                  allow_none: bool = True):
    def sent():
        return [rng.choice(vocab) for _ in range(rng.randint(0, maxlen))]

    streams = [[sent() for _ in range(n_seg)] for _ in range(n_refs)]
    if allow_none and n_refs > 1:
        for i in range(n_seg):
            for k in rng.sample(range(n_refs), rng.randint(0, n_refs - 1)):
                streams[k][i] = None
    hyps = []
    for i in range(n_seg):
        refs = [s[i] for s in streams if s[i] is not None]
        base = list(rng.choice(refs)) if refs and rng.random() < 0.8 else sent()
        # mutate: substitutions, deletions, repeats (repeats exercise clipping)
        for _ in range(rng.randint(0, 4)):
            op = rng.random()
            if op < 0.4 and base:
                base[rng.randrange(len(base))] = rng.choice(vocab)
            elif op < 0.7 and base:
                del base[rng.randrange(len(base))]
            elif base:
                j = rng.randrange(len(base))
                base[j:j] = base[j:j + rng.randint(1, 3)]
        hyps.append(base)
    return hyps, streams


@pytest.mark.parametrize("seed", range(300))
def test_random_against_definition(seed: int) -> None:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(rng.choice([2, 3, 5, 20, 200]))]
    hyps, streams = random_corpus(rng, vocab, rng.randint(1, 30), rng.randint(1, 4),
                                  rng.choice([3, 8, 30]))
    check(hyps, streams, rng.randint(1, 6), rng.choice([0, 1]))


def test_any_hashable_tokens_use_python_equality() -> None:
    # 1 == 1.0 == True as Counter keys; -1 and -2 hash alike but differ; tuples and None work.
    vocab = [1, 1.0, True, -1, -2, 0, False, (1, 2), "1", None, b"x", frozenset({1})]
    rng = random.Random(7)
    for _ in range(100):
        hyps, streams = random_corpus(rng, vocab, rng.randint(1, 10), rng.randint(1, 3), 12,
                                      allow_none=False)
        check(hyps, streams, rng.randint(1, 5))


def test_strings_are_character_sequences() -> None:
    # NLTK compat passes strings as token sequences: each character is a token.
    check(["abcab", "", "xyz"], [["abxab", "q", "zyx"], ["cab", "", None]], 4, floor=1)


def test_edge_cases() -> None:
    check([[]], [[[]]], 4)
    check([["a"]], [[[]]], 4)
    check([[]], [[["a", "b"]]], 4)
    check([["a"] * 9], [[["a"] * 3], [["a"] * 5]], 6)
    check([["a", "b"], ["a", "b"]], [[["a", "b"], ["b", "a"]]], 2)
    check([["x"]], [[None], [["x"]]], 1)


def test_index_is_reusable_across_systems() -> None:
    rng = random.Random(3)
    vocab = [f"t{i}" for i in range(30)]
    hyps, streams = random_corpus(rng, vocab, 40, 2, 15)
    counter = Clipped()
    index = counter.index_references(streams, 4)
    for _ in range(20):
        other, _ = random_corpus(rng, vocab + ["new", "unseen"], 40, 1, 15)
        stats = counter.count(other, index)
        assert stats.matches.tolist() == [e[1] for e in reference_stats(other, streams, 4)]


UNICODE = ["a", "A", "é", "é", "ß", "ς", "σ", "中", "文", "😀", "a\u200bb", "\ufeffx",
           "İ", "i̇", "--", ".", "&amp;", "Ω", "Ω"]


def _sacrebleu_stats(hyps: list[str], streams: list[list[str]], order: int) -> list[list[int]]:
    from sacrebleu.metrics import BLEU

    bleu = BLEU(tokenize="none", max_ngram_order=order)
    return bleu._extract_corpus_statistics(hyps, streams)


@pytest.mark.parametrize("seed", range(60))
def test_random_unicode_against_sacrebleu(seed: int) -> None:
    rng = random.Random(1000 + seed)
    hyps, streams = random_corpus(rng, UNICODE, rng.randint(1, 25), rng.randint(1, 3), 20,
                                  allow_none=False)
    order = rng.randint(1, 5)
    hyp_text = [" ".join(h) for h in hyps]
    ref_text = [[" ".join(r) for r in s] for s in streams]
    # evalfw sees the same whitespace split sacreBLEU's 'none' tokenizer does
    stats = Clipped().count([h.split() for h in hyp_text],
                            Clipped().index_references([[r.split() for r in s] for s in ref_text],
                                                       order))
    ours = _rows(stats)
    assert ours == _sacrebleu_stats(hyp_text, ref_text, order)


def _rows(stats) -> list[list[int]]:
    ref_len = Closest().choose_ref_len(stats.hyp_len, stats.ref_lens)
    return [[int(h), int(r), *m, *t] for h, r, m, t in zip(
        stats.hyp_len, ref_len, stats.matches.tolist(), stats.totals.tolist())]


def _wmt_pairs():
    if not WMT.is_dir():
        pytest.skip(f"shared WMT22 data not found at {WMT}")
    return sorted(p for p in WMT.iterdir() if p.is_dir())


@pytest.mark.slow
def test_wmt22_against_sacrebleu_13a() -> None:
    """Every system of every pair, tokenized by sacreBLEU's 13a (so only counting is tested)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    split = lambda lines: [tok(s.rstrip()).split() for s in lines]  # noqa: E731
    for pair in _wmt_pairs():
        refs = [p.read_text(encoding="utf-8").splitlines() for p in sorted(pair.glob("ref.*.txt"))]
        index = Clipped().index_references([split(r) for r in refs], 4)
        from sacrebleu.metrics import BLEU

        bleu = BLEU(tokenize="13a")
        for sys_file in sorted((pair / "sys").glob("*.txt"))[:4]:
            hyps = sys_file.read_text(encoding="utf-8").splitlines()
            ours = _rows(Clipped().count(split(hyps), index))
            assert ours == bleu._extract_corpus_statistics(hyps, refs), sys_file


def test_large_random_corpus_against_definition() -> None:
    rng = random.Random(11)
    vocab = [f"v{i}" for i in range(50)]
    hyps, streams = random_corpus(rng, vocab, 2000, 3, 25)
    stats = check(hyps, streams, 4)
    assert int(np.asarray(stats.matches).sum()) > 0
