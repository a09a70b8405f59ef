"""Statistics kept as the kernel's buffers (``KernelStats``) score exactly like numpy arrays.

The corpus path reads the kernel's sums (``_clipcount.summarize``) instead of summing arrays;
these tests pin those sums to the numpy definitions (every built-in reference-length rule,
missing references, the NLTK total floor, malformed statistics), check that the arrays built
on demand are the ones the counter always produced, and that a corpus score counted by the
kernel does not import numpy at all.
"""

from __future__ import annotations

import pickle
import random
import struct
import subprocess
import sys

import numpy as np
import pytest

from evalfw.api import default_host
from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.counting import kernel as native
from evalfw.metrics.bleu.counting.kernel_stats import RULES, KernelStats, floor_totals
from evalfw.metrics.bleu.families.brevity import Closest
from evalfw.metrics.bleu.spec import resolve_spec
from evalfw.metrics.bleu.stats import SegmentStats
from tests.support.expected_warnings import nltk_zero_order

pytestmark = pytest.mark.parity

KERNEL = native.kernel()
needs_kernel = pytest.mark.skipif(KERNEL is None, reason=native.describe())


def _pack(values: list[int]) -> bytes:
    return struct.pack(f"{len(values)}q", *values)


def random_stats(rng: random.Random, floor: int) -> tuple[KernelStats, SegmentStats]:
    lines, refs, order = rng.randint(1, 40), rng.randint(0, 4), rng.randint(1, 6)
    hyp = [rng.randint(0, 12) for _ in range(lines)]
    matches = [rng.randint(0, max(h - n, 0)) for h in hyp for n in range(order)]
    ref_lens = [rng.choice([-1, rng.randint(0, 14)]) if rng.random() < 0.3 else rng.randint(0, 14)
                for _ in range(lines * refs)]
    lazy = KernelStats(KERNEL, _pack(hyp), _pack(matches), _pack(ref_lens), lines, refs, order,
                       floor)
    h = np.array(hyp, dtype=np.int64)
    plain = SegmentStats(h, np.array(ref_lens, dtype=np.int64).reshape(lines, refs),
                         np.array(matches, dtype=np.int64).reshape(lines, order),
                         floor_totals(h, order, floor))
    return lazy, plain


@needs_kernel
def test_summary_equals_numpy_sums_for_every_rule() -> None:
    rng = random.Random("summary")
    varied = 0
    for i in range(400):
        lazy, plain = random_stats(rng, floor=i % 2)
        s = lazy.summary()
        assert s.hyp_len == int(plain.hyp_len.sum())
        assert s.matches == tuple(plain.matches.sum(axis=0).tolist())
        assert s.totals == tuple(plain.totals.sum(axis=0).tolist())
        host = default_host()
        for k, rule in enumerate(RULES):
            bp = host.component("brevity_penalty", rule)
            assert bp.kernel_rule() == rule
            assert s.ref_len[k] == int(np.asarray(bp.choose_ref_len(plain.hyp_len,
                                                                     plain.ref_lens)).sum())
        want = engine.count_refs(plain)
        assert engine.count_refs(lazy) == want
        varied += want == "var"
        assert s.bad_row == -1
        # the arrays built on demand are the plain ones
        for name in ("hyp_len", "ref_lens", "matches", "totals"):
            assert getattr(lazy, name).tolist() == getattr(plain, name).tolist()
            assert not getattr(lazy, name).flags.writeable
        assert lazy.last_row() == (tuple(plain.matches[-1].tolist()),
                                   tuple(plain.totals[-1].tolist()), int(plain.hyp_len[-1]))
    assert varied > 20


@needs_kernel
@pytest.mark.parametrize("preset", ["sacrebleu", pytest.param("nltk", marks=nltk_zero_order)])
def test_corpus_counts_from_the_summary_equal_the_array_path(preset: str) -> None:
    host = default_host()
    rng = random.Random(preset)
    for _ in range(150):
        lazy, plain = random_stats(rng, floor=1 if preset == "nltk" else 0)
        if (plain.ref_lens < 0).all(axis=1).any():
            continue  # a segment without references: the engine refuses it before counting
        for bp in RULES:
            spec = resolve_spec(host, {"preset": preset, "brevity_penalty": bp,
                                       "max_order": lazy.max_order})
            fresh = KernelStats(KERNEL, *lazy._raw, *lazy._shape)
            assert engine.corpus_counts(spec, fresh) == engine.corpus_counts(spec, plain)
            assert "matches" not in fresh.__dict__  # answered from the summary
            assert repr(engine.corpus_score(spec, fresh)) == repr(engine.corpus_score(spec, plain))


@needs_kernel
def test_a_penalty_that_redefines_its_rule_is_asked_itself() -> None:
    class Longest(Closest):
        name = "longest-test"

        def choose_ref_len(self, hyp_len, ref_lens):
            return ref_lens.max(axis=1)

    assert Closest().kernel_rule() == "closest" and Longest().kernel_rule() is None
    lazy, plain = random_stats(random.Random(3), floor=0)
    spec = resolve_spec(default_host(), {"preset": "sacrebleu"})
    spec = type(spec)(**{**spec.__dict__, "brevity_penalty": Longest()})
    got = engine.corpus_counts(spec, lazy)
    assert got.ref_len == int(plain.ref_lens.max(axis=1).sum())


@needs_kernel
def test_malformed_buffers_are_reported() -> None:
    lazy = KernelStats(KERNEL, _pack([2, 1]), _pack([1, 0, 2, 0]), _pack([2, 2]), 2, 1, 2, 0)
    assert lazy.summary().bad_row == 1  # 2 unigram matches in a 1-token hypothesis
    neg = KernelStats(KERNEL, _pack([-1]), _pack([0, 0]), _pack([1]), 1, 1, 2, 0)
    assert neg.summary().bad_row == 0
    spec = resolve_spec(default_host(), {"preset": "sacrebleu", "max_order": 2})
    with pytest.raises(Exception, match="more matches than n-grams"):
        engine.check_stats(spec, lazy, 2)
    with pytest.raises(ValueError, match="buffer sizes"):
        KERNEL.summarize(b"\0" * 8, b"", b"", 1, 2, 0, 0)


@needs_kernel
def test_pickles_as_plain_arrays() -> None:
    lazy, plain = random_stats(random.Random(5), floor=0)
    back = pickle.loads(pickle.dumps(lazy))
    assert type(back) is SegmentStats
    assert back.matches.tolist() == plain.matches.tolist()
    assert back.ref_lens.tolist() == plain.ref_lens.tolist()


@needs_kernel
@pytest.mark.parametrize("preset,tokenizer", [("nltk", None), ("sacrebleu", "13a")])
def test_a_kernel_counted_corpus_score_does_not_import_numpy(preset, tokenizer) -> None:
    options = {"preset": preset} | ({"tokenizer": tokenizer} if tokenizer else {})
    code = f"""
import sys
from evalfw.metrics.bleu import engine
from evalfw.api import default_host
from evalfw.metrics.bleu.spec import resolve_spec
spec = resolve_spec(default_host(), {options!r})
refs = [["the cat sat on the mat .", "a b c d e"], ["there is a cat on the mat", "a b c"]]
index = engine.index_references(spec, refs)
score = engine.corpus_score(spec, engine.segment_stats(spec, ["the cat is on the mat", "a b c d"], index))
print(score.score, "numpy" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    value, imported = out.stdout.split()
    assert imported == "False", out.stdout
    from evalfw.api import corpus_bleu

    want = corpus_bleu(["the cat is on the mat", "a b c d"],
                       [["the cat sat on the mat .", "a b c d e"],
                        ["there is a cat on the mat", "a b c"]], **options)
    assert float(value) == float(want.score) and repr(float(value)) == value


@needs_kernel
def test_the_nltk_drop_in_corpus_bleu_does_not_import_numpy() -> None:
    code = """
import sys
from evalfw.compat.nltk import SmoothingFunction, corpus_bleu
refs = [[["the", "cat", "sat"], ["a", "cat", "sat", "down"]], [["a", "b", "c", "d", "e"]]]
hyps = [["the", "cat", "sat", "down"], ["a", "b", "c", "d"]]
print(repr(corpus_bleu(refs, hyps, smoothing_function=SmoothingFunction().method5)),
      "numpy" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    value, imported = out.stdout.split()
    assert imported == "False", out.stdout
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

    refs = [[["the", "cat", "sat"], ["a", "cat", "sat", "down"]], [["a", "b", "c", "d", "e"]]]
    hyps = [["the", "cat", "sat", "down"], ["a", "b", "c", "d"]]
    assert value == repr(corpus_bleu(refs, hyps, smoothing_function=SmoothingFunction().method5))
