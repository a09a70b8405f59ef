"""spBLEU through the drop-ins: ``evalfw-sacrebleu -tok flores200`` against the real ``sacrebleu``
command on every WMT22 system of en-zh and en-ja (standard output byte for byte: JSON, text,
lowercase, two references, sentence level, ``-ci``, ``--paired-bs``, other SentencePiece
models), and ``evalfw.compat.sacrebleu.BLEU(tokenize="flores200")`` against sacreBLEU's
``BLEU``. Both read one model, trained here, from ``$SACREBLEU/models``."""

from __future__ import annotations

import warnings

import pytest

from tests.support.sacrebleu_cli import assert_same, run_dropin, run_sacrebleu
from tests.support.shared_data import load_wmt22, need_wmt22
from tests.support.spm_models import sacrebleu_home, use_home, wmt22_model

pytestmark = [pytest.mark.wmt22, pytest.mark.parity, pytest.mark.slow]
pytest.importorskip("sentencepiece")

ALL = "*"  # every system of the pair
CASES = {
    "json, two references": ("en-zh", ("A", "B"), ALL, ["-tok", "flores200"]),
    "text, lowercase": ("en-zh", ("A",), ALL, ["-tok", "flores200", "-lc", "-f", "text"]),
    "en-ja text, 3 decimals": ("en-ja", ("A",), ALL, ["-tok", "flores200", "-f", "text",
                                                      "-w", "3"]),
    "paired bootstrap": ("en-ja", ("A",), ALL, ["-tok", "flores200", "--paired-bs", "-pbsn",
                                                "200", "-f", "text"]),
    "confidence": ("en-zh", ("A", "B"), "Online-B", ["-tok", "flores200", "-ci", "-cin", "200"]),
    "sentence level": ("en-zh", ("A",), "Online-W", ["-tok", "flores200", "-sl"]),
    "flores101 and chrF": ("en-ja", ("A",), "NT5", ["-tok", "flores101", "-m", "bleu", "chrf",
                                                    "-f", "text"]),
    "spBLEU-1K": ("en-zh", ("A",), "DLUT", ["-tok", "spBLEU-1K", "-b"]),
}


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return sacrebleu_home(tmp_path_factory.mktemp("sacrebleu"), wmt22_model("unigram"))


@pytest.mark.parametrize("name", CASES)
def test_the_command_line_as_sacrebleus(home, name):
    pair, refs, systems, flags = CASES[name]
    root = need_wmt22() / pair
    found = sorted((root / "sys").glob("*.txt"))
    chosen = found if systems == ALL else [root / "sys" / f"{systems}.txt"]
    args = [*(str(root / f"ref.{r}.txt") for r in refs), "-i", *map(str, chosen), *flags]
    env = {"SACREBLEU": str(home), "SACREBLEU_SEED": "12345"}
    theirs = run_sacrebleu(args, root, env=env)
    assert theirs.status == 0, theirs.stderr
    assert_same(theirs, run_dropin(args, root, env=env), name)


def test_the_bleu_class_as_sacrebleus(home, monkeypatch):
    from sacrebleu.metrics import BLEU as SacreBLEU

    from evalfw.compat.sacrebleu import BLEU, corpus_bleu

    use_home(monkeypatch, home)
    for pair in ("en-zh", "en-ja"):
        refs_by_name, systems = load_wmt22(need_wmt22(), pair)
        refs = [refs_by_name["A"]]
        ours, theirs = BLEU(tokenize="flores200", references=refs), \
            SacreBLEU(tokenize="flores200", references=refs)
        for name, hyps in systems.items():
            a, b = ours.corpus_score(hyps, None), theirs.corpus_score(hyps, None)
            assert (a.score, str(a)) == (b.score, str(b)), name
        assert str(ours.get_signature()) == str(theirs.get_signature())
        hyps = systems["Online-A"]
        one = corpus_bleu(hyps, refs, tokenize="flores200", lowercase=True)
        assert str(one) == str(SacreBLEU(tokenize="flores200", lowercase=True)
                               .corpus_score(hyps, refs))
        sentence, sacre = BLEU(tokenize="flores200", effective_order=True), \
            SacreBLEU(tokenize="flores200", effective_order=True)
        for h, r in list(zip(hyps, refs[0], strict=True))[:300]:
            assert sentence.sentence_score(h, [r]).score == sacre.sentence_score(h, [r]).score


def test_spm_is_flores101_for_the_class(home, monkeypatch):
    from sacrebleu.metrics import BLEU as SacreBLEU

    from evalfw.compat.sacrebleu import BLEU

    use_home(monkeypatch, home)
    refs_by_name, systems = load_wmt22(need_wmt22(), "en-ja")
    refs = [refs_by_name["A"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = BLEU(tokenize="spm"), SacreBLEU(tokenize="spm")
    a, b = ours.corpus_score(systems["KYB"], refs), theirs.corpus_score(systems["KYB"], refs)
    assert str(a) == str(b)
    assert str(ours.get_signature()) == str(theirs.get_signature())
    assert "tok:flores101" in str(ours.get_signature())
