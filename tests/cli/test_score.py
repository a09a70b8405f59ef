"""`evalfw score`: sacreBLEU-identical text line, JSON fields, stdin, errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.shared_data import need_wmt22

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REF_A = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
REF_B = ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]


def write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "evalfw", *args], input=stdin,
                          capture_output=True, text=True)


def sacrebleu_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "sacrebleu", *args], input=stdin,
                          capture_output=True, text=True)


@pytest.fixture
def files(tmp_path):
    return (write(tmp_path / "hyp.txt", HYPS), write(tmp_path / "refA.txt", REF_A),
            write(tmp_path / "refB.txt", REF_B))


@pytest.mark.parametrize("extra", [
    [], ["-tok", "intl"], ["-tok", "char"], ["-tok", "none"], ["-lc"], ["-s", "floor"],
    ["-s", "add-k", "-sv", "2"], ["-s", "none"], ["-w", "4"], ["-tok", "zh", "-lc", "-s", "floor", "-sv", "0.01"],
])
def test_text_line_is_byte_identical_to_sacrebleu(files, extra):
    hyp, ref_a, ref_b = files
    ours = run("score", "-r", ref_a, ref_b, "-i", hyp, *extra)
    theirs = sacrebleu_cli(ref_a, ref_b, "-i", hyp, "-f", "text", *extra)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout


def test_sentence_level_lines_match_sacrebleu(files):
    hyp, ref_a, _ = files
    ours = run("score", "-r", ref_a, "-i", hyp, "--sentence-level")
    theirs = sacrebleu_cli(ref_a, "-i", hyp, "-sl")
    assert ours.stdout == theirs.stdout


def test_stdin_and_json(files):
    hyp, ref_a, ref_b = files
    out = run("score", "-r", ref_a, ref_b, "--format", "json", stdin="\n".join(HYPS) + "\n")
    assert out.returncode == 0, out.stderr
    (obj,) = json.loads(out.stdout)
    assert obj["name"] == "<stdin>"
    assert obj["score"] == 48.530827009929865  # full float precision
    for key in ("precisions", "bp", "ratio", "hyp_len", "ref_len", "signature"):
        assert key in obj
    assert obj["sacrebleu_signature"] == "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"


def test_nltk_preset_json(files):
    from nltk.translate.bleu_score import corpus_bleu

    hyp, ref_a, ref_b = files
    out = run("score", "-r", ref_a, ref_b, "-i", hyp, "--preset", "nltk", "-tok", "none",
              "--format", "json")
    (obj,) = json.loads(out.stdout)
    expected = corpus_bleu([[a.split(), b.split()] for a, b in zip(REF_A, REF_B)],
                           [h.split() for h in HYPS])
    assert obj["score"] == expected


@pytest.mark.parametrize("args, message", [
    (["-r", "missing.txt", "-i", "hyp"], "missing.txt: file not found"),
    (["-r", "REF", "-i", "SHORT"], "lines"),
    (["-r", "REF", "-i", "HYP", "--smooth", "exq"], "unknown smoothing 'exq' (did you mean 'exp'?)"),
    (["-r", "REF", "-i", "HYP", "--tokenize", "13b"], "unknown tokenizer '13b'"),
    (["-r", "REF", "-i", "HYP", "HYP"], "given twice"),
])
def test_errors_are_one_line_exit_2(tmp_path, files, args, message):
    hyp, ref_a, _ = files
    short = write(tmp_path / "short.txt", HYPS[:2])
    args = [{"REF": ref_a, "HYP": hyp, "SHORT": short}.get(a, a) for a in args]
    out = run("score", *args)
    assert out.returncode == 2
    assert out.stderr.startswith("evalfw: error: ") and message in out.stderr
    assert "Traceback" not in out.stderr
    assert out.stderr.strip().count("\n") == 0


def test_wmt22_text_line_matches_sacrebleu_cli():
    root = need_wmt22() / "en-zh"
    args = [str(root / "ref.A.txt"), str(root / "ref.B.txt")]
    hyp = str(root / "sys" / "Online-B.txt")
    ours = run("score", "-r", *args, "-i", hyp, "-tok", "zh")
    theirs = sacrebleu_cli(*args, "-i", hyp, "-tok", "zh", "-f", "text")
    assert ours.returncode == 0 and ours.stdout == theirs.stdout
    assert " = 80.0 " in ours.stdout  # the published 79.99423783588395 at width 1


def test_help_lists_component_names_from_the_registries():
    out = run("score", "--help")
    assert out.returncode == 0
    assert "tokenizer: 13a, char, flores101, flores200, intl" in out.stdout
    assert "method7" in out.stdout and "spBLEU-1K" in out.stdout


def test_system_names_are_printed_as_given(files):
    hyp, ref_a, _ = files  # absolute paths
    ours = run("score", "-r", ref_a, "-i", hyp, hyp.replace("hyp.txt", "./hyp.txt"), "-pbs",
               "-pbsn", "20")
    theirs = sacrebleu_cli(ref_a, "-i", hyp, hyp.replace("hyp.txt", "./hyp.txt"), "-pbs",
                           "-pbsn", "20", "-nc", "-f", "text")
    assert f"Baseline: {hyp}" in ours.stdout
    assert ours.stdout == theirs.stdout
