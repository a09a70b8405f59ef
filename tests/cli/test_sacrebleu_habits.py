"""sacreBLEU's command-line habits in ``evalfw score``: positional references, ``-l`` choosing
BLEU's tokenizer by the target language, ``-t`` reading sacreBLEU's test-set cache (a small
cache made here; ``$SACREBLEU`` points at it, the network is never used), ``--echo``."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import evalfw, sacrebleu, write

pytestmark = pytest.mark.parity

SRC = ["Der Hund biss den Mann.", "Es war nicht überraschend."]
REF_A = ["The dog bit the man.", "It was not surprising."]
REF_B = ["The dog had bitten the man.", "No one was surprised."]
HYP = ["The dog bit a man.", "It wasn't surprising."]


@pytest.fixture
def files(tmp_path):
    return (write(tmp_path / "ref.A.txt", REF_A), write(tmp_path / "ref.B.txt", REF_B),
            write(tmp_path / "hyp.txt", HYP))


def cache(tmp_path, name="mytest", pair="de-en", refs=("ref",)):
    """sacreBLEU's layout: <cache>/NAME/NAME.PAIR.FIELD."""
    root = tmp_path / "sacrebleu-cache"
    (root / name).mkdir(parents=True)
    write(root / name / f"{name}.{pair}.src", SRC)
    for field, lines in zip(refs, (REF_A, REF_B)):
        write(root / name / f"{name}.{pair}.{field}", lines)
    return {"SACREBLEU": str(root)}


def test_positional_references_equal_dash_r(files):
    a, b, hyp = files
    positional = evalfw("score", a, b, "-i", hyp, "-m", "bleu", "chrf")
    flagged = evalfw("score", "-r", a, b, "-i", hyp, "-m", "bleu", "chrf")
    theirs = sacrebleu(a, b, "-i", hyp, "-m", "bleu", "chrf", "-f", "text")
    assert positional.returncode == 0, positional.stderr
    assert positional.stdout == flagged.stdout == theirs.stdout


@pytest.mark.parametrize("args, message", [
    (["REF", "-r", "REF", "-i", "HYP"], "given both positionally and with -r"),
    (["-i", "HYP"], "no references"),
    (["-t", "mytest", "-i", "HYP"], "-t mytest needs a language pair"),
    (["REF", "-t", "mytest", "-l", "de-en", "-i", "HYP"], "either a test set (-t) or"),
    (["REF", "-l", "english", "-i", "HYP"], "expected SRC-TGT"),
    (["--echo", "src"], "--echo needs a test set and a language pair"),
])
def test_usage_errors_are_one_line(files, args, message):
    a, _, hyp = files
    out = evalfw("score", *[{"REF": a, "HYP": hyp}.get(x, x) for x in args])
    assert out.returncode == 2 and out.stderr.startswith("evalfw: error: ")
    assert message in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.parametrize("pair", ["en-zh", "en-de", "zh-en"])
def test_language_pair_chooses_the_tokenizer_as_sacrebleu(files, pair):
    a, _, hyp = files
    ours = evalfw("score", a, "-i", hyp, "-l", pair, "--format", "json")
    (obj,) = json.loads(ours.stdout)
    tok = "zh" if pair.endswith("-zh") else "13a"
    assert f"|tok:{tok}|" in obj["sacrebleu_signature"] and obj["language_pair"] == pair
    theirs = sacrebleu(a, "-i", hyp, "-l", pair, "-f", "text")
    assert evalfw("score", a, "-i", hyp, "-l", pair).stdout == theirs.stdout


def test_explicit_tokenizer_wins_with_sacrebleus_advice(files):
    a, _, hyp = files
    out = evalfw("score", a, "-i", hyp, "-l", "en-zh", "-tok", "13a", "--json")
    (obj,) = json.loads(out.stdout)
    assert "|tok:13a|" in obj["sacrebleu_signature"]
    assert "evalfw: warning: consider the 'zh' or 'spm' tokenizer for Chinese" in out.stderr


def test_japanese_target_needs_mecab(files, tmp_path):
    a, _, hyp = files
    pytest.importorskip("MeCab")
    ours = evalfw("score", a, "-i", hyp, "-l", "en-ja")
    theirs = sacrebleu(a, "-i", hyp, "-l", "en-ja", "-f", "text")
    assert ours.returncode == 0 and ours.stdout == theirs.stdout
    # without MeCab (hidden by a stub that fails to import), a one-line error naming the fix
    stub = tmp_path / "stub"
    stub.mkdir()
    (stub / "MeCab.py").write_text("raise ImportError('MeCab hidden by the test')\n")
    out = evalfw("score", a, "-i", hyp, "-l", "en-ja", env={"PYTHONPATH": str(stub)})
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "-l en-ja chooses BLEU's tokenizer ja-mecab as sacreBLEU does" in out.stderr
    assert "pip install 'evalfw[ja]'" in out.stderr and "--tokenize" in out.stderr


def test_test_set_from_the_cache(files, tmp_path):
    a, b, hyp = files
    env = cache(tmp_path)
    ours = evalfw("score", "-t", "mytest", "-l", "de-en", "-i", hyp, "-m", "bleu", "chrf",
                  env=env)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == evalfw("score", a, "-i", hyp, "-m", "bleu", "chrf").stdout
    out = evalfw("score", "-t", "mytest", "-l", "de-en", "-i", hyp, "--json", env=env)
    (obj,) = json.loads(out.stdout)
    assert (obj["test_set"], obj["language_pair"]) == ("mytest", "de-en")


def test_several_translator_references_use_the_first_without_metadata(files, tmp_path):
    a, _, hyp = files
    env = cache(tmp_path, refs=("ref-A", "ref-B"))
    ours = evalfw("score", "-t", "mytest", "-l", "de-en", "-i", hyp, env=env)
    assert ours.stdout == evalfw("score", a, "-i", hyp).stdout


@pytest.mark.parametrize("side, lines", [("src", SRC), ("ref", REF_A)])
def test_echo_prints_a_side(tmp_path, side, lines):
    out = evalfw("score", "-t", "mytest", "-l", "de-en", "--echo", side, env=cache(tmp_path))
    assert out.returncode == 0 and out.stdout == "".join(x + "\n" for x in lines)


def test_known_test_set_is_read_from_the_cache_without_download(files, tmp_path):
    # wmt14 is in sacreBLEU's dataset list: its metadata names the reference field ("ref");
    # the files are present, so nothing is fetched
    a, _, hyp = files
    env = cache(tmp_path, name="wmt14", pair="de-en")
    ours = evalfw("score", "-t", "wmt14", "-l", "de-en", "-i", hyp, env=env)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == evalfw("score", a, "-i", hyp).stdout


def test_missing_test_set_names_the_directory_and_the_fetch_command(files, tmp_path):
    _, _, hyp = files
    env = {"SACREBLEU": str(tmp_path / "empty")}
    out = evalfw("score", "-t", "nosuchset", "-l", "de-en", "-i", hyp, env=env)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert str(tmp_path / "empty" / "nosuchset") in out.stderr
    assert "sacrebleu -t nosuchset -l de-en --echo ref" in out.stderr


def test_nltk_preset_line_keeps_one_scale(files):
    a, _, hyp = files
    out = evalfw("score", a, "-i", hyp, "--preset", "nltk")
    score, rest = out.stdout.split(" = ")[1].split(" ", 1)
    precisions = rest.split(" ")[0].split("/")
    assert float(score) <= 1 and all(0 <= float(p) <= 1 for p in precisions), out.stdout
    assert all(len(p.split(".")[1]) == 4 for p in precisions)
