"""Giant lines: TER keeps only the bands of its edit distance (memory grows with the lengths,
not their product) and stays equal to sacreBLEU 2.6.0 where the band matters (very unequal
lengths widen it, long lines with moved blocks shift); lines of 50,000 and 200,000 words
score under an address-space cap. chrF and chrF++ refuse a line over their limit
(``EVALFW_MAX_SEGMENT_CHARS``) before computing, naming the file, line and length."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.compat import sacrebleu as compat
from tests.support.capped import MiB, evalfw_capped, run_capped
from tests.support.kernels import TER, needs_kernel

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "configs" / "sample" / "en-de"


def words(rng: random.Random, n: int, vocab: int = 40) -> list[str]:
    return rng.choices([f"w{k}" for k in range(vocab)], k=n)


def swapped(ref: list[str], block: int = 5) -> list[str]:
    """``ref`` with each pair of neighbouring blocks swapped: many shifts to find."""
    hyp = list(ref)
    for i in range(0, len(hyp) - 2 * block + 1, 2 * block):
        hyp[i:i + 2 * block] = hyp[i + block:i + 2 * block] + hyp[i:i + block]
    return hyp


def _pairs() -> list[tuple[str, str, str]]:
    rng = random.Random(11)
    ref = words(rng, 80, vocab=300)
    return [
        ("hyp 2 words, ref 160: the band widens", " ".join(words(rng, 2)),
         " ".join(words(rng, 160))),
        ("hyp 160 words, ref 2", " ".join(words(rng, 160)), " ".join(words(rng, 2))),
        ("hyp 7, ref 400", " ".join(words(rng, 7, vocab=5)), " ".join(words(rng, 400, vocab=5))),
        ("80 words, blocks swapped", " ".join(swapped(ref)), " ".join(ref)),
        ("80 words, halves swapped", " ".join(ref[40:] + ref[:40]), " ".join(ref)),
    ]


@functools.cache
def sacrebleu_statistics(hyp: str, ref: str) -> list[list[float]]:
    from sacrebleu.metrics import TER

    return [[float(e), r] for e, r in TER()._extract_corpus_statistics([hyp], [[ref]])]


@pytest.mark.parametrize("native", [True, False], ids=["kernel", "python"])
@pytest.mark.parametrize("what, hyp, ref", _pairs(), ids=[p[0] for p in _pairs()])
def test_banded_ter_equals_sacrebleu(what, hyp, ref, native, monkeypatch) -> None:
    expected = sacrebleu_statistics(hyp, ref)
    if not native:
        monkeypatch.setenv("EVALFW_NATIVE", "0")
    assert compat.TER()._metric.segment_statistics([hyp], [[ref]]).tolist() == expected


def giant_pair(length: int) -> tuple[list[str], list[str]]:
    """A reference of ``length`` words and a hypothesis with one word in ten changed."""
    rng = random.Random(length)
    ref = words(rng, length, vocab=5000)
    hyp = list(ref)
    for k, word in zip(rng.sample(range(length), length // 10), words(rng, length // 10, 5000)):
        hyp[k] = word
    return hyp, ref


# the Python fallback scores 200,000 words in minutes (its memory is checked below)
@pytest.mark.parametrize("length", [50_000, pytest.param(200_000, marks=needs_kernel(TER))])
def test_ter_on_a_giant_line_under_a_cap(tmp_path: Path, length: int) -> None:
    # the full matrix of two 50,000-word lines is 22 GB; the bands take about 20 MB (the
    # segment limit, which keeps TER's time bounded, is raised to let such lines in)
    hyp, ref = giant_pair(length)
    (tmp_path / "ref.txt").write_text(" ".join(ref) + "\n", "utf-8")
    (tmp_path / "hyp.txt").write_text(" ".join(hyp) + "\n", "utf-8")
    done = evalfw_capped("score", "-r", "ref.txt", "-i", "hyp.txt", "-m", "ter", "-b",
                         cap=512 * MiB, cwd=tmp_path, timeout=120,
                         env={"EVALFW_MAX_SEGMENT_CHARS": "2000000"})
    assert done.returncode == 0, done.stderr
    assert 0 < float(done.stdout) <= 10  # one word in ten changed


@pytest.mark.slow
def test_python_ter_keeps_the_bands_of_a_giant_line_under_a_cap() -> None:
    # one round of the Python fallback's banded distance on 200,000 words: 10 million cells,
    # kept as int64 arrays and op bytes (as Python lists they outgrow the cap)
    code = ("from tests.metrics.test_long_segments import giant_pair\n"
            "from evalfw.metrics.ter import _shifts\n"
            "hyp, ref = giant_pair(200_000)\n"
            "ids = {w: i for i, w in enumerate(sorted(set(hyp + ref)))}\n"
            "h, r = [ids[w] for w in hyp], [ids[w] for w in ref]\n"
            "rows, *_ = _shifts._round_matrix(h, r, _shifts._bands(len(h), len(r)))\n"
            "print(rows[-1][len(r) - _shifts._bands(len(h), len(r))[-1][0]])\n")
    done = run_capped(["-c", code], cap=512 * MiB, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr
    assert 0 < int(done.stdout) <= 20_000  # one word in ten substituted, before shifts


@pytest.mark.parametrize("metric", [["chrf"], ["chrf", "--chrf-word-order", "2"], ["ter"]])
def test_a_ten_megabyte_line_is_refused_before_computing(tmp_path: Path, metric) -> None:
    line = ("lorem ipsum dolor sit amet " * 400_000)[:10_000_000]
    (tmp_path / "ref.txt").write_text("a short reference\n" + line + "\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("a short hypothesis\n" + line + "\n", "utf-8")
    done = evalfw_capped("score", "-r", "ref.txt", "-i", "hyp.txt", "-m", *metric,
                         cap=512 * MiB, cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("evalfw: error: ref.txt:2: a segment of 10,000,000 "
                                  f"characters, more than metric '{metric[0]}' scores (at most "
                                  "100,000"), done.stderr
    assert done.stderr.count("\n") == 1


def test_the_limit_is_inclusive_and_can_be_raised(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    Path("ref.txt").write_text("x" * 40 + "\n", "utf-8")
    Path("hyp.txt").write_text("x" * 41 + "\n", "utf-8")
    monkeypatch.setenv("EVALFW_MAX_SEGMENT_CHARS", "40")
    args = ["score", "-r", "ref.txt", "-i", "hyp.txt", "-m", "chrf", "-b"]
    assert main(args) == 2
    assert "hyp.txt:1: a segment of 41 characters" in capsys.readouterr().err
    monkeypatch.setenv("EVALFW_MAX_SEGMENT_CHARS", "41")
    assert main(args) == 0
    monkeypatch.setenv("EVALFW_MAX_SEGMENT_CHARS", "many")
    assert main(args) == 2
    assert "$EVALFW_MAX_SEGMENT_CHARS: expected a number of characters" in \
        capsys.readouterr().err


def test_a_run_names_the_system_file_and_line(tmp_path: Path, monkeypatch, capsys) -> None:
    import shutil

    shutil.copytree(SAMPLE, tmp_path / "data")
    weak = tmp_path / "data" / "sys" / "Weak.txt"
    lines = weak.read_text("utf-8").splitlines()
    lines[2] = "word " * 30_000  # 150,000 characters
    weak.write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "exp.yaml").write_text(
        "schema_version: 1\nexperiment: long\noutput_dir: runs\ntest_sets:\n  - name: t\n"
        "    langs: en-de\n    references: [data/ref.A.txt]\n"
        "    systems: {\"*\": \"data/sys/*.txt\"}\nmetrics:\n  - name: bleu\n"
        "  - {name: chrf, metric: chrf}\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "exp.yaml", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evalfw: error: data/sys/Weak.txt:3: a segment of 150,000 characters")
    assert not (tmp_path / "runs" / "long").exists()  # nothing stored
