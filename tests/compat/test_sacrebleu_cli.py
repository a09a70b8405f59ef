"""``evalfw-sacrebleu`` against the real ``sacrebleu`` 2.6.0 command: a matrix of argument sets
(every flag family alone and combined, standard input and files, one and two references,
three systems with both paired tests, LaTeX, test sets from a local sacreBLEU cache, errors)
on small random corpora, each with the same standard output, exit status and last line of
standard error, the random seeds as sacreBLEU sets them.

sacreBLEU's runs are subprocesses, two at a time, started once for the whole matrix; the
drop-in runs in this process (``tests/support/sacrebleu_cli.py``), except the test-set
cases: sacreBLEU's dataset code reads ``$SACREBLEU`` when it is first imported, so those run
as subprocesses with their own cache.
"""

from __future__ import annotations

import gzip
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.pythons import needs_nep50
from tests.support.sacrebleu_cli import Outcome, assert_same, run_dropin, run_dropin_process, run_sacrebleu

pytestmark = pytest.mark.parity

WORDS = ["the", "a", "cat", "dog", "sat", "on", "mat", "and", "ran", "away", "it", "was",
         "n't", "Über", "straße", "ça", "va", "!", ",", ".", "?", "(", ")", "'s", "1,000",
         "3.5", "CAT", "Dog", "well-known", "中文", "测试", "&amp;", "e.g.", "U.S."]
SEGMENTS = 36


def _line(rng: random.Random, base: list[str] | None = None) -> str:
    if base is not None and rng.random() < 0.85:
        words = [w for w in base if rng.random() > 0.25] + rng.choices(WORDS, k=rng.randint(0, 2))
        if rng.random() < 0.2:
            rng.shuffle(words)
    else:
        words = rng.choices(WORDS, k=rng.randint(1, 12))
    glue = rng.choice([" ", " ", " ", "  ", "\u3000"])
    return glue.join(words)


def _trailing(rng: random.Random, line: str) -> str:
    """Whitespace at the end of some lines, and some lines of whitespace only."""
    roll = rng.random()
    if roll < 0.1:
        return rng.choice([" ", "  ", " \t "])
    if roll < 0.4:
        return line + rng.choice([" ", "  ", "\t", " \u3000"])
    return line


def _write(path: Path, lines: list[str], encoding: str = "utf-8", end: str = "\n") -> None:
    path.write_bytes("".join(line + end for line in lines).encode(encoding))


def build_corpus(root: Path) -> None:
    rng = random.Random(20240611)
    ref1 = [_line(rng) for _ in range(SEGMENTS)]
    ref2 = [_line(rng, r.split()) for r in ref1]
    systems = [[_line(rng, r.split()) for r in ref1] for _ in range(3)]
    _write(root / "ref1.txt", [_trailing(rng, r) for r in ref1])
    _write(root / "ref2.txt", ref2)
    _write(root / "refs.tsv", [f"{a}\t{b}" for a, b in zip(ref1, ref2)])
    _write(root / "refs_bad.tsv", [f"{a}\t{b}" for a, b in zip(ref1, ref2)][:-1] + [ref1[-1]])
    for k, lines in enumerate(systems, 1):
        _write(root / f"s{k}.txt", [_trailing(rng, s) for s in lines])
    _write(root / "s1_crlf.txt", systems[0], end="\r\n")
    (root / "ref1.txt.gz").write_bytes(gzip.compress((root / "ref1.txt").read_bytes(), mtime=0))
    _write(root / "short.txt", systems[0][:10])
    _write(root / "empty.txt", [])
    latin = str.maketrans({"中": "é", "文": "à", "测": "ü", "试": "ß", "\u3000": " "})
    _write(root / "ref_latin1.txt", [r.translate(latin) for r in ref1], "latin-1")
    _write(root / "s_latin1.txt", [s.translate(latin) for s in systems[1]], "latin-1")
    (root / "stdin1").write_bytes((root / "s1.txt").read_bytes())
    _write(root / "stdin2", [f"{a.rstrip()}\t{b.rstrip()}  " for a, b in zip(*systems[:2])])
    _write(root / "stdin_bad", [f"{a}\t{b}" for a, b in zip(*systems[:2])][:5] + ["x"])
    _fake_wmt17(root / "sacrebleu_home", ref1, systems[2])


def _fake_wmt17(home: Path, refs: list[str], sources: list[str]) -> None:
    """sacreBLEU's cache holding wmt17 en-de as if downloaded: its plain-text fields and the
    raw SGML file its -ol/--subset/-d read (three documents: en, de, en)."""
    out = home / "wmt17"
    (out / "raw" / "test").mkdir(parents=True)
    docs = [(f"doc{d}", ["en", "de", "en"][d]) for d in range(3)]
    doc_of = [docs[min(i * 3 // SEGMENTS, 2)] for i in range(SEGMENTS)]
    fields = {"src": sources, "ref": [r.rstrip() for r in refs],
              "docid": [d for d, _ in doc_of], "genre": ["news"] * SEGMENTS,
              "origlang": [o for _, o in doc_of]}
    for name, lines in fields.items():
        _write(out / f"wmt17.en-de.{name}", lines)
    sgm = ['<srcset setid="newstest2017" srclang="any">']
    for i, (doc, origlang) in enumerate(doc_of):
        if i == 0 or doc_of[i - 1][0] != doc:
            if i:
                sgm.append("</doc>")
            sgm.append(f'<doc sysid="ref" docid="{doc}" genre="news" origlang="{origlang}">')
        sgm.append(f'<seg id="{i + 1}">{sources[i]}</seg>')
    sgm += ["</doc>", "</srcset>"]
    _write(out / "raw" / "test" / "newstest2017-ende-src.en.sgm", sgm)


@dataclass(frozen=True)
class Case:
    args: list[str]
    stdin: str | None = None  # a file of the corpus folder, fed to standard input
    env: dict[str, str] = field(default_factory=dict)
    process: bool = False  # the drop-in runs as its console script (test-set cases)
    #: prints sacreBLEU's float32 bootstrap numbers in full (numpy 2's promotion rules)
    float32: bool = False


THREE = ["s1.txt", "s2.txt", "s3.txt"]
CACHE = {"SACREBLEU": "sacrebleu_home"}  # made absolute in the fixture

CASES: dict[str, Case] = {
    # one system, JSON (the default) and text, metrics and their flags
    "json-default": Case(["ref1.txt", "-i", "s1.txt"]),
    "text": Case(["ref1.txt", "-i", "s1.txt", "-f", "text"]),
    "two-refs-json": Case(["ref1.txt", "ref2.txt", "-i", "s1.txt"]),
    "two-refs-all-metrics": Case(["ref1.txt", "ref2.txt", "-i", "s1.txt", "-f", "text",
                                  "-m", "bleu", "chrf", "ter"]),
    "metrics-reversed-json": Case(["ref1.txt", "-i", "s1.txt", "-m", "ter", "chrf", "bleu"]),
    "score-only": Case(["ref1.txt", "-i", "s1.txt", "-b"]),
    "score-only-width-metrics": Case(["ref1.txt", "-i", "s1.txt", "-b", "-w", "4", "-m",
                                      "bleu", "chrf"]),
    "short-width-text": Case(["ref1.txt", "-i", "s1.txt", "-w", "3", "-sh", "-f", "text",
                              "-m", "bleu", "chrf", "ter"]),
    "short-ignored-in-json": Case(["ref1.txt", "-i", "s1.txt", "-sh", "-m", "chrf"]),
    "width-0": Case(["ref1.txt", "-i", "s1.txt", "-w", "0", "-f", "text"]),
    "stdin": Case(["ref1.txt"], stdin="stdin1"),
    "stdin-chrf-text": Case(["ref1.txt", "-f", "text", "-m", "chrf"], stdin="stdin1"),
    "stdin-two-columns": Case(["ref1.txt", "-f", "text", "-m", "bleu", "chrf"],
                              stdin="stdin2"),
    "stdin-two-columns-paired": Case(["ref1.txt", "--paired-bs", "-pbsn", "50", "-f", "text"],
                                     stdin="stdin2"),
    "tsv-refs": Case(["refs.tsv", "-nr", "2", "-i", "s1.txt", "-m", "bleu", "chrf", "ter",
                      "-f", "text"]),
    "gz-refs-crlf-system": Case(["ref1.txt.gz", "-i", "s1_crlf.txt", "-f", "text"]),
    "latin1": Case(["ref_latin1.txt", "-i", "s_latin1.txt", "-e", "latin-1", "-m", "bleu",
                    "chrf", "-f", "text"]),
    "intl-lc-floor": Case(["ref1.txt", "-i", "s1.txt", "-tok", "intl", "-lc", "-s", "floor",
                           "-f", "text"]),
    "char-addk": Case(["ref1.txt", "-i", "s1.txt", "-tok", "char", "-s", "add-k", "-sv", "2"]),
    "none-none-force": Case(["ref1.txt", "-i", "s1.txt", "-tok", "none", "-s", "none",
                             "--force", "-f", "text"]),
    "floor-value": Case(["ref1.txt", "-i", "s1.txt", "-s", "floor", "-sv", "0.01"]),
    "zh": Case(["ref1.txt", "-i", "s1.txt", "-tok", "zh", "-f", "text"]),
    "target-zh": Case(["ref1.txt", "-i", "s1.txt", "-l", "en-zh"]),
    "target-ja-mecab": Case(["ref1.txt", "-i", "s1.txt", "-l", "en-ja", "-f", "text"]),
    "target-de-13a": Case(["ref1.txt", "-i", "s1.txt", "-l", "en-de", "-tok", "13a"]),
    "chrf-options": Case(["ref1.txt", "-i", "s1.txt", "-m", "chrf", "-cw", "2", "-cc", "4",
                          "--chrf-beta", "1", "--chrf-lowercase", "-f", "text"]),
    "chrf-whitespace-trailing": Case(["ref1.txt", "-i", "s1.txt", "-m", "chrf",
                                      "--chrf-whitespace", "-b", "-w", "12"]),
    "chrf-eps": Case(["ref1.txt", "ref2.txt", "-i", "s2.txt", "-m", "chrf",
                      "--chrf-eps-smoothing"]),
    "ter-options": Case(["ref1.txt", "-i", "s1.txt", "-m", "ter", "--ter-normalized",
                         "--ter-asian-support", "--ter-case-sensitive", "--ter-no-punct",
                         "-f", "text"]),
    # sentence level (always text lines)
    "sentence-text": Case(["ref1.txt", "-i", "s1.txt", "-sl", "-f", "text"]),
    "sentence-json-is-text": Case(["ref1.txt", "-i", "s1.txt", "-sl"]),
    "sentence-two-refs-chrf": Case(["ref1.txt", "ref2.txt", "-i", "s1.txt", "-sl", "-m",
                                    "chrf", "-w", "3"]),
    "sentence-ter-score-only": Case(["ref1.txt", "-i", "s2.txt", "-sl", "-m", "ter", "-b"]),
    "sentence-whitespace-lines": Case(["ref1.txt", "-i", "s3.txt", "-sl", "-b", "-w", "2"]),
    "sentence-stdin": Case(["ref1.txt", "-sl", "-sh", "-f", "text"], stdin="stdin1"),
    # confidence intervals
    "confidence-text": Case(["ref1.txt", "-i", "s1.txt", "-ci", "-cin", "100", "-f", "text",
                             "-m", "bleu", "chrf", "ter"]),
    "confidence-json": Case(["ref1.txt", "ref2.txt", "-i", "s1.txt", "-ci", "-cin", "100",
                             "-m", "bleu", "chrf", "ter"]),
    "confidence-score-only": Case(["ref1.txt", "-i", "s1.txt", "-ci", "-cin", "80", "-b",
                                   "-m", "bleu", "chrf"]),
    "confidence-seed-0": Case(["ref1.txt", "-i", "s1.txt", "-ci", "-cin", "60", "-f", "text"],
                              env={"SACREBLEU_SEED": "0"}),
    "confidence-seed-7-short": Case(["ref1.txt", "-i", "s2.txt", "-ci", "-f", "text", "-sh"],
                                    env={"SACREBLEU_SEED": "007"}),
    "confidence-n-1": Case(["ref1.txt", "-i", "s1.txt", "-ci", "-cin", "1", "-f", "text"]),
    "confidence-add-k": Case(["ref1.txt", "-i", "s2.txt", "-ci", "-cin", "90", "-s", "add-k",
                              "-f", "text"]),
    "confidence-floor-value-two-refs": Case(["ref1.txt", "ref2.txt", "-i", "s1.txt", "-ci",
                                             "-s", "floor", "-sv", "0.5", "-w", "5"]),
    # several systems: tables, LaTeX, JSON
    "three-text": Case(["ref1.txt", "-i", *THREE, "-f", "text"]),
    "three-json": Case(["ref1.txt", "ref2.txt", "-i", *THREE, "-m", "bleu", "chrf", "ter"]),
    "three-latex": Case(["ref1.txt", "-i", *THREE, "-f", "latex", "-m", "ter", "bleu"]),
    "three-text-width-short": Case(["ref1.txt", "-i", *THREE, "-f", "text", "-w", "3", "-sh",
                                    "-m", "chrf", "bleu"]),
    "three-format-env-text": Case(["ref1.txt", "-i", *THREE], env={"SACREBLEU_FORMAT": "TEXT"}),
    # paired tests
    "paired-bs-text": Case(["ref1.txt", "-i", *THREE, "--paired-bs", "-pbsn", "100", "-f",
                            "text", "-m", "bleu", "chrf", "ter"]),
    "paired-ar-text-two-refs": Case(["ref1.txt", "ref2.txt", "-i", *THREE, "--paired-ar",
                                     "-parn", "200", "-f", "text", "-m", "bleu", "chrf", "ter"]),
    "paired-bs-latex": Case(["ref1.txt", "-i", *THREE, "--paired-bs", "-pbsn", "100", "-f",
                             "latex", "-m", "chrf", "bleu"]),
    "paired-ar-latex": Case(["ref1.txt", "-i", *THREE, "--paired-ar", "-parn", "200", "-f",
                             "latex", "-m", "ter"]),
    "paired-bs-json-bleu": Case(["ref1.txt", "-i", *THREE, "--paired-bs", "-pbsn", "100"],
                                float32=True),
    "paired-bs-no-smoothing-latex": Case(["ref1.txt", "-i", *THREE, "--paired-bs", "-pbsn",
                                          "70", "-s", "none", "-f", "latex"]),
    "paired-ar-json": Case(["ref1.txt", "-i", *THREE, "--paired-ar", "-parn", "200", "-m",
                            "bleu", "chrf", "ter"]),
    "paired-bs-defaults-short": Case(["ref1.txt", "-i", *THREE, "--paired-bs", "-f", "text",
                                      "-sh", "-j", "2"]),
    "paired-ar-defaults": Case(["ref1.txt", "-i", "s1.txt", "s2.txt", "--paired-ar", "-f",
                                "text"]),
    "paired-baseline-repeated": Case(["ref1.txt", "-i", "s1.txt", "s2.txt", "s1.txt",
                                      "--paired-bs", "-pbsn", "50", "-f", "text"]),
    "paired-bs-n-0": Case(["ref1.txt", "-i", "s1.txt", "s2.txt", "--paired-bs", "-pbsn", "0",
                           "-f", "text"]),
    "paired-seed-beyond-32-bits": Case(["ref1.txt", "-i", *THREE, "--paired-bs", "-pbsn", "40",
                                        "-f", "text", "-m", "bleu", "chrf"],
                                       env={"SACREBLEU_SEED": "99999999999"}),
    "paired-ar-seed-beyond-32-bits": Case(["ref1.txt", "-i", *THREE, "--paired-ar", "-parn",
                                           "60", "-f", "text"],
                                          env={"SACREBLEU_SEED": "2" + "0" * 30}),
    "confidence-seed-beyond-32-bits": Case(["ref1.txt", "-i", "s1.txt", "-ci", "-cin", "50",
                                            "-m", "bleu", "chrf", "ter"],
                                           env={"SACREBLEU_SEED": "4294967296"}),
    "paired-seed-env": Case(["ref1.txt", "-i", *THREE, "--paired-bs", "-pbsn", "80", "-f",
                             "text", "-m", "bleu", "chrf"], env={"SACREBLEU_SEED": "7"}),
    # environment and reporting flags
    "format-env-latex-one-system": Case(["ref1.txt", "-i", "s1.txt", "-m", "bleu", "ter"],
                                        env={"SACREBLEU_FORMAT": "latex"}),
    "format-env-unknown": Case(["ref1.txt", "-i", "s1.txt"], env={"SACREBLEU_FORMAT": "html"}),
    "quiet-no-color": Case(["ref1.txt", "-i", "s1.txt", "-q", "-nc", "-f", "text"],
                           env={"NO_COLOR": "1"}),
    "detail-without-test-set": Case(["ref1.txt", "-i", "s1.txt", "-d", "-m", "bleu", "chrf"]),
    "detail-several-systems": Case(["ref1.txt", "-i", "s1.txt", "s2.txt", "-d", "-f", "text"]),
    "version": Case(["-V"]),
    "abbreviated-options": Case(["ref1.txt", "--inp", "s1.txt", "--metr", "chrf", "--form",
                                 "text", "--chrf-word", "2"]),
    "no-systems-json": Case(["ref1.txt", "-i"]),
    # errors
    "error-lengths": Case(["ref1.txt", "-i", "short.txt"]),
    "error-empty-system": Case(["ref1.txt", "-i", "empty.txt"]),
    "error-no-references": Case(["-i", "s1.txt"]),
    "error-sentence-two-metrics": Case(["ref1.txt", "-i", "s1.txt", "-sl", "-m", "bleu",
                                        "chrf"]),
    "error-sentence-two-systems": Case(["ref1.txt", "-i", "s1.txt", "s2.txt", "-sl"]),
    "error-sentence-confidence": Case(["ref1.txt", "-i", "s1.txt", "-sl", "-ci"]),
    "error-paired-one-system": Case(["ref1.txt", "-i", "s1.txt", "--paired-bs"]),
    "error-confidence-two-systems": Case(["ref1.txt", "-i", "s1.txt", "s2.txt", "-ci"]),
    "error-tsv-fields": Case(["refs_bad.tsv", "-nr", "2", "-i", "s1.txt"]),
    "error-stdin-fields": Case(["ref1.txt"], stdin="stdin_bad"),
    "error-bad-metric": Case(["ref1.txt", "-i", "s1.txt", "-m", "meteor"]),
    "error-both-paired-tests": Case(["ref1.txt", "-i", *THREE, "--paired-bs", "--paired-ar"]),
    "error-ambiguous-option": Case(["ref1.txt", "-i", "s1.txt", "--chrf-w", "2"]),
    "error-bad-int": Case(["ref1.txt", "-i", "s1.txt", "-w", "two"]),
    "error-duplicate-system": Case(["ref1.txt", "-i", "s1.txt", "s1.txt"]),
    "error-num-refs-two-files": Case(["ref1.txt", "ref2.txt", "-nr", "2", "-i", "s1.txt"]),
    "error-missing-file": Case(["ref1.txt", "-i", "missing.txt"]),
    "error-negative-width": Case(["ref1.txt", "-i", "s1.txt", "-w", "-1"]),
    "error-origlang-without-test-set": Case(["ref1.txt", "-i", "s1.txt", "-ol", "de"]),
    "error-echo-without-test-set": Case(["ref1.txt", "-i", "s1.txt", "--echo", "src"]),
    "error-citation-without-test-set": Case(["ref1.txt", "-i", "s1.txt", "--citation"]),
    "error-language-pair-without-dash": Case(["ref1.txt", "-i", "s1.txt", "-l", "en"]),
    "error-seed-not-a-number": Case(["ref1.txt", "-i", "s1.txt", "-ci"],
                                    env={"SACREBLEU_SEED": "abc"}),
    "error-negative-paired-jobs": Case(["ref1.txt", "-i", "s1.txt", "s2.txt", "--paired-bs",
                                        "-pbsn", "20", "-j", "-1", "-f", "text"]),
    "error-no-systems-text": Case(["ref1.txt", "-i", "-f", "text"]),
    "error-sentence-no-systems": Case(["ref1.txt", "-i", "-sl"]),
    # test sets, from a local sacreBLEU cache (no network)
    "testset-score": Case(["-t", "wmt17", "-l", "en-de", "-i", "s1.txt", "-m", "bleu", "chrf"],
                          env=CACHE, process=True),
    "testset-stdin-text": Case(["-t", "wmt17", "-l", "en-de", "-f", "text"], stdin="stdin1",
                               env=CACHE, process=True),
    "testset-echo": Case(["-t", "wmt17", "-l", "en-de", "--echo", "src", "ref", "origlang"],
                         env=CACHE, process=True),
    "testset-echo-origlang": Case(["-t", "wmt17", "-l", "en-de", "--echo", "ref", "-ol", "de"],
                                  env=CACHE, process=True),
    "testset-origlang": Case(["-t", "wmt17", "-l", "en-de", "-i", "s2.txt", "-ol", "non-de",
                              "-f", "text"], env=CACHE, process=True),
    "testset-detail": Case(["-t", "wmt17", "-l", "en-de", "-i", "s2.txt", "-d", "-m", "bleu",
                            "ter"], env=CACHE, process=True),
    "testset-tokenize-none": Case(["-t", "wmt17", "-l", "en-de", "-i", "s1.txt", "-tok",
                                   "none"], env=CACHE, process=True),
    "testset-list-fields": Case(["--list", "-t", "wmt17", "-l", "en-de"], env=CACHE,
                                process=True),
    "testset-list-pair": Case(["--list", "-l", "en-de"], env=CACHE, process=True),
    "testset-download-cached": Case(["--download", "wmt17", "-l", "en-de"], env=CACHE,
                                    process=True),
    "testset-error-citation": Case(["--citation", "-t", "wmt17"], env=CACHE, process=True),
    "testset-error-lengths": Case(["-t", "wmt17", "-l", "en-de", "-i", "short.txt"],
                                  env=CACHE, process=True),
    "testset-error-unknown": Case(["-t", "wmt99", "-l", "en-de", "-i", "s1.txt"], env=CACHE,
                                  process=True),
    "testset-error-no-pair": Case(["-t", "wmt17", "-i", "s1.txt"], env=CACHE, process=True),
    "testset-error-bad-pair": Case(["-t", "wmt17", "-l", "xx-yy", "-i", "s1.txt"], env=CACHE,
                                   process=True),
    "testset-error-and-refs": Case(["ref1.txt", "-t", "wmt17", "-l", "en-de", "-i", "s1.txt"],
                                   env=CACHE, process=True),
}


def _env(case: Case, root: Path) -> dict[str, str]:
    return {k: str(root / v) if k == "SACREBLEU" else v for k, v in case.env.items()}


def _stdin(case: Case, root: Path) -> bytes:
    return (root / case.stdin).read_bytes() if case.stdin else b""


@pytest.fixture(scope="module")
def oracle(tmp_path_factory) -> tuple[Path, dict[str, Outcome]]:
    """The corpus folder and sacreBLEU's outcome of every case (two runs at a time)."""
    root = tmp_path_factory.mktemp("sacrebleu-cli")
    build_corpus(root)

    def one(name: str) -> tuple[str, Outcome]:
        case = CASES[name]
        return name, run_sacrebleu(case.args, root, _stdin(case, root), _env(case, root))

    with ThreadPoolExecutor(max_workers=2) as pool:
        return root, dict(pool.map(one, CASES))


def test_the_matrix_is_large_and_covers_every_flag_family():
    assert len(CASES) >= 50
    used = {a for case in CASES.values() for a in case.args if a.startswith("-")}
    for flag in ("-i", "-nr", "-e", "-m", "-sl", "-s", "-sv", "-tok", "-lc", "--force", "-cc",
                 "-cw", "--chrf-beta", "--chrf-whitespace", "--chrf-lowercase",
                 "--chrf-eps-smoothing", "--ter-case-sensitive", "--ter-asian-support",
                 "--ter-no-punct", "--ter-normalized", "-ci", "-cin", "--paired-bs",
                 "--paired-ar", "-pbsn", "-parn", "-j", "-q", "-sh", "-b", "-w", "-d", "-nc",
                 "-f", "-V", "--citation", "-t", "-l", "--echo", "--list", "-ol",
                 "--download"):
        assert flag in used, flag


@pytest.mark.parametrize("name", [pytest.param(name, marks=needs_nep50) if CASES[name].float32
                                  else name for name in sorted(CASES)])
def test_same_as_sacrebleu(oracle, name):
    root, theirs = oracle
    case = CASES[name]
    run = run_dropin_process if case.process else run_dropin
    ours = run(case.args, root, _stdin(case, root), _env(case, root))
    assert_same(theirs[name], ours, name, prog="evalfw-sacrebleu" if case.process else
                "sacrebleu")


def test_paired_bootstrap_json_of_chrf_and_ter_is_valid_json_where_sacrebleu_crashes(oracle):
    """sacreBLEU 2.6.0 cannot serialize chrF's and TER's float32 bootstrap means; the drop-in
    prints them as JSON floats, the same numbers its text table shows."""
    import json
    import re

    root, _ = oracle
    args = ["ref1.txt", "-i", *THREE, "--paired-bs", "-pbsn", "100", "-m", "bleu", "chrf",
            "ter", "-w", "2"]
    crashed = run_sacrebleu(args, root)
    assert crashed.status == 1
    assert crashed.last_error_line() == "TypeError: Object of type float32 is not JSON serializable"
    ours = run_dropin(args, root)
    assert ours.status == 0, ours.stderr
    rows = json.loads(ours.stdout)
    table = run_sacrebleu([*args, "-f", "text"], root).stdout.decode()
    cells = re.findall(r"(\d+\.\d\d) \((\d+\.\d\d) ± (\d+\.\d\d)\)", table)
    p_values = re.findall(r"\(p = (\d\.\d{4})\)", table)
    assert [r["system"] for r in rows] == ["Baseline: s1.txt", "s2.txt", "s3.txt"]
    shown, ps = [], []
    for row in rows:
        for metric in ("BLEU", "chrF2", "TER"):
            cell = row[metric]
            shown.append(tuple(f"{cell[k]:.2f}" for k in ("score", "mean", "ci")))
            if cell["p_value"] is not None:
                ps.append(f"{cell['p_value']:.4f}")
    assert shown == cells
    assert ps == p_values


@pytest.mark.parametrize("name", ["json-default", "stdin-two-columns", "paired-bs-text",
                                  "error-lengths", "error-bad-metric", "version"])
@pytest.mark.parametrize("command", ["script", "module"])
def test_the_console_script_and_python_m_print_what_runs_in_process(oracle, name, command):
    """The in-process runs of the matrix stand for the command: the console script and
    ``python -m evalfw.compat.sacrebleu`` give the same bytes and status (the program's name in
    messages is the command's own)."""
    import sys

    from tests.support.sacrebleu_cli import dropin_command

    root, theirs = oracle
    case = CASES[name]
    if command == "script" and dropin_command()[0] == sys.executable:
        pytest.skip("evalfw-sacrebleu is not installed beside this interpreter (a virtualenv "
                    "that reads evalfw from another one's site-packages)")
    argv = dropin_command() if command == "script" else \
        [sys.executable, "-m", "evalfw.compat.sacrebleu"]
    ours = run_dropin_process(case.args, root, _stdin(case, root), _env(case, root), argv)
    prog = "evalfw-sacrebleu" if command == "script" else "__main__.py"
    expected = theirs[name]
    if name == "version":
        assert ours.stdout == expected.stdout.replace(b"sacrebleu", prog.encode())
        assert ours.status == expected.status == 0
        return
    assert_same(expected, ours, name, prog=prog)


def test_every_sacrebleu_option_is_accepted():
    """Every option string of ``sacrebleu --help`` is one of the drop-in's, with the same
    defaults (abbreviations of long options then resolve the same way)."""
    import re
    import subprocess

    from evalfw.compat.sacrebleu._cli import build_parser
    from tests.support.cli import sacrebleu_command

    help_text = subprocess.run([sacrebleu_command(), "--help"], capture_output=True,
                               text=True, env={"COLUMNS": "200"}).stdout
    theirs = set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", help_text.split("options:")[1]))
    parser = build_parser("sacrebleu")
    ours = set(parser._option_string_actions)
    assert theirs <= ours, sorted(theirs - ours)
    assert ours - theirs <= {"-h", "--help"}
    defaults = vars(parser.parse_args([]))
    assert defaults["format"] == "json" and defaults["width"] == 1
    assert defaults["metrics"] == ["bleu"] and defaults["num_refs"] == 1
