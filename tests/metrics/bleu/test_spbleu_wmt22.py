"""spBLEU on every WMT22 system of en-zh and en-ja equals sacreBLEU 2.6.0's, bit for bit: corpus
scores with one and two references, lowercased or not, sentence scores, and signatures.

Both read the same SentencePiece model (trained here on WMT22 text, see
:mod:`tests.support.spm_models`) where each looks for the published FLORES-200 model.
"""

from __future__ import annotations

import warnings

import pytest

import evalfw
from tests.support.shared_data import load_wmt22, need_wmt22
from tests.support.spm_models import sacrebleu_home, use_home, wmt22_model

pytestmark = [pytest.mark.wmt22, pytest.mark.parity, pytest.mark.slow]
pytest.importorskip("sentencepiece")

#: (pair, references) scored: both of en-zh's references, and each pair's first alone
REFERENCES = [("en-zh", ("A",)), ("en-zh", ("A", "B")), ("en-ja", ("A",))]


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        yield use_home(patch, sacrebleu_home(tmp_path_factory.mktemp("sacrebleu"),
                                             wmt22_model("unigram")))


@pytest.fixture(scope="module")
def data(home):
    root = need_wmt22()
    return {pair: load_wmt22(root, pair) for pair in ("en-zh", "en-ja")}


def sacrebleu_bleu(**options):
    from sacrebleu.metrics import BLEU

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # its logger.warn for 'spm'
        return BLEU(**options)


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("pair, names", REFERENCES)
def test_corpus_scores_of_every_system(data, pair, names, lowercase):
    refs_by_name, systems = data[pair]
    refs = [refs_by_name[n] for n in names]
    theirs = sacrebleu_bleu(tokenize="flores200", lowercase=lowercase, references=refs)
    signature = None
    assert len(systems) == 13
    for name, hyps in systems.items():
        ours = evalfw.corpus_bleu(hyps, refs, tokenizer="flores200", lowercase=lowercase)
        expected = theirs.corpus_score(hyps, None)
        assert (ours.score, list(ours.counts), list(ours.totals), ours.sys_len,
                ours.ref_len, ours.bp, list(ours.precisions)) == \
            (expected.score, expected.counts, expected.totals, expected.sys_len,
             expected.ref_len, expected.bp, expected.precisions), name
        assert str(ours) == str(expected)
        signature = ours.sacrebleu_signature
    assert signature == str(theirs.get_signature())
    assert "|tok:flores200|" in signature


@pytest.mark.parametrize("pair", ["en-zh", "en-ja"])
def test_sentence_scores_of_every_system(data, pair):
    refs_by_name, systems = data[pair]
    theirs = sacrebleu_bleu(tokenize="flores200", effective_order=True)
    refs = [refs_by_name["A"][::4]]  # every fourth segment: sacreBLEU's loop is the slow part
    for name, hyps in systems.items():
        hyps = hyps[::4]
        ours = evalfw.sentence_scores(hyps, refs, tokenizer="flores200", effective_order=True)
        expected = [theirs.sentence_score(h, [r]) for h, r in zip(hyps, refs[0], strict=True)]
        assert [s.score for s in ours] == [s.score for s in expected], name
        assert [s.bp for s in ours] == [s.bp for s in expected], name


def test_the_older_name_spm_scores_as_flores101(data):
    refs_by_name, systems = data["en-ja"]
    hyps = systems["NT5"]
    with pytest.warns(FutureWarning, match="older name"):
        ours = evalfw.corpus_bleu(hyps, [refs_by_name["A"]], tokenizer="spm")
    theirs = sacrebleu_bleu(tokenize="spm")
    expected = theirs.corpus_score(hyps, [refs_by_name["A"]])
    assert ours.score == expected.score
    assert ours.sacrebleu_signature == str(theirs.get_signature())
    assert "|tok:flores101|" in ours.sacrebleu_signature
