"""evalfw.compat.sacrebleu and evalfw.corpus_bleu equal sacreBLEU 2.6.0 bit for bit.

Randomized differential tests over every tokenizer x smoothing x effective order x lowercase x
max order on Unicode-heavy text, plus the values of sacreBLEU's own test suite.
"""

from __future__ import annotations

import itertools
import random

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU as SacreBLEU

import evalfw
from evalfw.compat import sacrebleu as compat
from tests.support.pythons import same_as_recorded

pytestmark = pytest.mark.parity

TOKENIZERS = ["none", "13a", "intl", "zh", "char"]
SMOOTHING = [("exp", None), ("none", None), ("floor", None), ("floor", 0.5), ("add-k", None),
             ("add-k", 2)]

WORDS = [
    "the", "The", "cat", "CAT", "ΟΔΟΣ", "οδός", "Straße", "STRASSE", "İstanbul", "naïve", "café",
    "北京", "欢迎", "你", "好", "。", "，", "日本語", "です", "カタカナ", "한국어", "１２３", "ＡＢＣ",
    "3.14", "1,000", "e-mail", "don't", "U.S.A.", "&quot;", "&amp;", "&lt;", "--", "...", "«", "»",
    "€5", "$10", "100%", "😀", "x\u0301", "\u200b", "\ufeff", "a\u00a0b", "—", "(", ")", "!", "?",
    "ﬁ", "Ⅻ", "²", "𝔘", "ß", "ǅ", "\u3000", "\t", "  ", "-", "'", "\"",
]


def sentence(rng: random.Random) -> str:
    n = rng.choice([0, 1, 2, 3, 5, 8, 12])
    return " ".join(rng.choice(WORDS) for _ in range(n)) + rng.choice(["", " ", ".", " ."])


def corpus(rng: random.Random, n: int, k: int):
    hyps = [sentence(rng) for _ in range(n)]
    refs = [[sentence(rng) for _ in range(n)] for _ in range(k)]
    # make some matches likely: copy pieces of references into hypotheses
    for i in range(n):
        if rng.random() < 0.6:
            hyps[i] = refs[0][i] if rng.random() < 0.3 else refs[0][i] + " " + sentence(rng)
    return hyps, refs


def same(ours, theirs) -> None:
    assert type(ours.score) is type(theirs.score)
    assert ours.score == theirs.score
    assert list(ours.counts) == list(theirs.counts)
    assert list(ours.totals) == list(theirs.totals)
    assert list(ours.precisions) == list(theirs.precisions)
    assert ours.bp == theirs.bp and type(ours.bp) is type(theirs.bp)
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert str(ours) == str(theirs)
    assert ours.format(width=1) == theirs.format(width=1)


@pytest.mark.parametrize("tok", TOKENIZERS)
def test_every_combination(tok):
    rng = random.Random(f"combos-{tok}")
    cases = 0
    for (smooth, value), eff, lc, order in itertools.product(SMOOTHING, [False, True],
                                                              [False, True], [1, 2, 3, 4, 5]):
        kw = dict(tokenize=tok, smooth_method=smooth, smooth_value=value, effective_order=eff,
                  lowercase=lc, max_ngram_order=order)
        theirs, ours = SacreBLEU(**kw), compat.BLEU(**kw)
        hyps, refs = corpus(rng, rng.randint(1, 6), rng.randint(1, 3))
        same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
        assert ours.get_signature().format() == theirs.get_signature().format()
        assert ours.get_signature().format(short=True) == theirs.get_signature().format(short=True)
        same(ours.sentence_score(hyps[0], [r[0] for r in refs]),
             theirs.sentence_score(hyps[0], [r[0] for r in refs]))
        # the native API with the same options
        native = evalfw.corpus_bleu(
            hyps, refs, tokenizer=tok, lowercase=lc, max_order=order, effective_order=eff,
            smoothing=smooth, **({"smooth_value": value} if value is not None else {}),
        )
        assert native.score == theirs.corpus_score(hyps, refs).score
        assert native.sacrebleu_signature == theirs.get_signature().format()
        cases += 1
    assert cases == len(SMOOTHING) * 2 * 2 * 5


def test_random_corpora_with_cached_references():
    rng = random.Random(7)
    for _ in range(150):
        tok = rng.choice(TOKENIZERS)
        smooth, value = rng.choice(SMOOTHING)
        hyps, refs = corpus(rng, rng.randint(1, 30), rng.randint(1, 3))
        kw = dict(tokenize=tok, smooth_method=smooth, smooth_value=value)
        theirs = SacreBLEU(**kw, references=refs)
        ours = compat.BLEU(**kw, references=refs)
        same(ours.corpus_score(hyps, None), theirs.corpus_score(hyps, None))


def test_variable_number_of_references():
    hyps = ["a b c", "d e f", "g h"]
    refs = [["a b c", "d e", "g h"], ["a b", None, "g"]]
    theirs, ours = SacreBLEU(tokenize="none"), compat.BLEU(tokenize="none")
    same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
    assert ours.get_signature().format() == theirs.get_signature().format() == \
        "nrefs:var|case:mixed|eff:no|tok:none|smooth:exp|version:2.6.0"


def test_compat_functions():
    from sacrebleu import corpus_bleu, raw_corpus_bleu, sentence_bleu

    rng = random.Random(3)
    for _ in range(40):
        hyps, refs = corpus(rng, 5, 2)
        same(compat.corpus_bleu(hyps, refs), corpus_bleu(hyps, refs))
        same(compat.raw_corpus_bleu(hyps, refs, 0.01), raw_corpus_bleu(hyps, refs, 0.01))
        same(compat.sentence_bleu(hyps[0], [refs[0][0], refs[1][0]]),
             sentence_bleu(hyps[0], [refs[0][0], refs[1][0]]))


def test_compute_bleu_static():
    from sacrebleu.metrics import BLEU as S

    rng = random.Random(11)
    for _ in range(300):
        order = rng.randint(1, 5)
        totals = [rng.randint(0, 9) for _ in range(order)]
        correct = [rng.randint(0, t) for t in totals]
        sys_len, ref_len = rng.randint(0, 12), rng.randint(0, 12)
        smooth = rng.choice(["none", "floor", "add-k", "exp"])
        value = rng.choice([None, 0.0, 0.01, 1, 3])
        eff = rng.random() < 0.5
        a = compat.BLEU.compute_bleu(list(correct), list(totals), sys_len, ref_len, smooth, value,
                                     eff, order)
        b = S.compute_bleu(list(correct), list(totals), sys_len, ref_len, smooth, value, eff, order)
        same(a, b)


# ---------------------------------------------------------------- sacreBLEU's own tests (§7)

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
        ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]


@pytest.mark.parametrize("kw, expected", [
    ({}, 48.530827009929865),
    ({"tokenize": "none"}, 49.19195660047277),
    ({"tokenize": "intl"}, 43.91623493336995),
    ({"tokenize": "char"}, 72.61064153440596),
    ({"smooth_method": "add-k"}, 52.70109002482467),
    ({"max_ngram_order": 1}, 77.64837655275439),
    ({"max_ngram_order": 6}, 43.283197812670714),
])
def test_readme_corpus(kw, expected):
    ours = compat.BLEU(**kw).corpus_score(HYPS, REFS).score
    assert ours == SacreBLEU(**kw).corpus_score(HYPS, REFS).score  # on this Python
    assert same_as_recorded(ours, expected)  # sacreBLEU's test value (see tests.support.pythons)


def test_readme_corpus_text_line():
    bleu = compat.BLEU()
    res = bleu.corpus_score(HYPS, REFS)
    assert res.format(width=1, signature=bleu.get_signature().format()) == (
        "BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 48.5 "
        "82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)")
    assert str(res) == ("BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 "
                        "hyp_len = 17 ref_len = 18)")


SYS = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
REF = "producţia de zahăr brut se exprimă în zahăr alb;"


@pytest.mark.parametrize("smooth, value, lc, tok, expected", [
    ("exp", None, False, "13a", 8.493098745313148),
    ("none", None, False, "13a", 0.0),
    ("floor", None, False, "13a", 4.516881220954753),
    ("floor", 0.5, False, "13a", 10.100053456347073),
    ("add-k", None, False, "13a", 14.882560178972215),
    ("add-k", 2, False, "13a", 21.389460275371086),
    ("exp", None, False, "none", 7.347053125977879),
    ("exp", None, False, "intl", 8.493098745313148),
    ("exp", None, False, "char", 40.875973647629166),
    ("exp", None, True, "char", 42.02678206410298),
])
def test_sentence_bleu_table(smooth, value, lc, tok, expected):
    kw = dict(smooth_method=smooth, smooth_value=value, lowercase=lc, tokenize=tok)
    res = compat.sentence_bleu(SYS, [REF], **kw)
    assert res.score == sacrebleu.sentence_bleu(SYS, [REF], **kw).score  # on this Python
    assert same_as_recorded(res.score, expected)  # sacreBLEU's test value


def test_length_mismatch_is_an_error_not_a_truncation():
    from evalfw.errors import InputError

    with pytest.raises(InputError, match="3 hypotheses but 1 reference segments"):
        compat.BLEU().corpus_score(["a b c d", "zzz", "yyy"], [["a b c d"]])
    with pytest.raises(InputError, match="reference stream 1 has 1 segments"):
        evalfw.corpus_bleu(["a b c d", "zzz", "yyy"], [["a b c d"]])


@pytest.mark.parametrize("seed", [None, "7", "none"])
def test_corpus_score_with_bootstrap_interval(monkeypatch, seed):
    if seed is not None:
        monkeypatch.setenv("SACREBLEU_SEED", seed)
    rng = random.Random(5)
    hyps, refs = corpus(rng, 60, 2)
    theirs, ours = SacreBLEU(), compat.BLEU()
    a, b = ours.corpus_score(hyps, refs, n_bootstrap=300), theirs.corpus_score(hyps, refs, n_bootstrap=300)
    assert ours.get_signature().format() == theirs.get_signature().format()
    if seed == "none":  # unseeded: only the form can agree
        assert "seed:none" in ours.get_signature().format()
        return
    assert (a._mean, a._ci) == (b._mean, b._ci)
    sig = theirs.get_signature().format()
    assert str(a) == str(b)
    assert a.format(signature=sig, is_json=True) == b.format(signature=sig, is_json=True)
