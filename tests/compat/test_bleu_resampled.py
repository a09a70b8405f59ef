"""The drop-in's numpy-free BLEU bootstrap (``evalfw.compat._bleu_resampled`` and the lean
BLEU's ``-ci`` and ``--paired-bs``) against sacreBLEU 2.6.0's own ``_bootstrap_resample``,
``corpus_score(n_bootstrap=...)`` and ``PairedTest``: random statistics and corpora, every
smoothing with and without a value, effective order, several seeds; and the command line's
resampling imports no numpy."""

from __future__ import annotations

import random

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest, _bootstrap_resample

from evalfw.analysis._seedseq import pcg64_words
from evalfw.compat._bleu_lean import lean_bleu
from evalfw.compat._bleu_resampled import resampled_bleu
from evalfw.metrics.bleu.counting import kernel
from tests.support.pythons import needs_nep50

pytest.importorskip("evalfw.analysis._sacreboot", reason="the compiled bootstrap kernel is not built")
pytestmark = [pytest.mark.parity,
              pytest.mark.skipif(kernel.kernel() is None, reason="no compiled kernel")]

VOCAB = "the cat sat on a mat , . ! ? dog ran far away 3.5 1,000 € 你好 世界".split()


def _options(rng: random.Random) -> dict:
    method = rng.choice(["exp", "floor", "add-k", "none"])
    return {"smooth_method": method, "effective_order": rng.random() < 0.3,
            "smooth_value": rng.choice([None, 0.3, 2]) if method in ("floor", "add-k") else None}


def _random_rows(rng: random.Random) -> list[list[int]]:
    """sacreBLEU statistics rows with zeros (empty lines, no match at some order) and long
    segments (totals beyond float32's exact integers)."""
    rows = []
    scale = rng.choice([3, 30, 300_000])
    for _ in range(rng.randint(1, 60)):
        n = rng.choice([0, rng.randint(0, scale)])
        totals = [max(n - k, 0) for k in range(4)]
        correct = [rng.randint(0, t) if rng.random() < 0.8 else 0 for t in totals]
        rows.append([n, rng.randint(0, scale + 3), *correct, *totals])
    return rows


@needs_nep50
def test_resampled_scores_equal_sacrebleus_bootstrap_resample(monkeypatch) -> None:
    rng = random.Random(20261127)
    for case in range(150):
        options = _options(rng)
        rows = _random_rows(rng)
        seed = rng.choice([12345, 0, 7, rng.getrandbits(40)])
        n = rng.randint(1, 120)
        monkeypatch.setenv("SACREBLEU_SEED", str(seed))
        _, theirs = _bootstrap_resample(rows, SacreBLEU(**options), n)
        ours = resampled_bleu(np.asarray(rows, dtype=np.int64).tobytes(), n, pcg64_words(seed),
                              options["smooth_method"], options["smooth_value"],
                              options["effective_order"])
        assert ours == [s.score for s in theirs], (case, options, seed)


def _corpus(rng: random.Random) -> tuple[list[list[str]], list[list[str]]]:
    lines = rng.randint(2, 40)

    def line() -> str:
        return " ".join(rng.choice(VOCAB) for _ in range(rng.randint(0, 14)))

    refs = [[line() for _ in range(lines)] for _ in range(rng.randint(1, 3))]
    systems = [[line() if rng.random() < 0.5 else refs[0][i] for i in range(lines)]
               for _ in range(rng.randint(2, 4))]
    return refs, systems


@needs_nep50
def test_confidence_equals_sacrebleus_corpus_score(monkeypatch) -> None:
    rng = random.Random(5)
    for case in range(60):
        options = {**_options(rng), "tokenize": rng.choice(["13a", "intl", "char"]),
                   "lowercase": rng.random() < 0.3}
        refs, systems = _corpus(rng)
        monkeypatch.setenv("SACREBLEU_SEED", rng.choice(["12345", "0", "007", "none"]))
        n = rng.randint(2, 150)
        ours = lean_bleu(refs, {**options, "force": True})
        assert ours is not None
        got = ours.corpus_score(systems[0], None, n_bootstrap=n)
        theirs = SacreBLEU(references=refs, **options)
        expected = theirs.corpus_score(systems[0], None, n_bootstrap=n)
        assert ours.get_signature().format() == theirs.get_signature().format()
        assert got.score == expected.score
        if ours.seed != "none":  # unseeded: both draw fresh indices
            assert (got._mean, got._ci) == (expected._mean, expected._ci), (case, options)
            assert str(got) == str(expected)


@needs_nep50
def test_paired_bootstrap_equals_sacrebleus_paired_test(monkeypatch) -> None:
    from evalfw.compat.sacrebleu._paired import paired_test

    rng = random.Random(6)
    for case in range(40):
        options = _options(rng)
        refs, systems = _corpus(rng)
        named = [(f"s{i}", s) for i, s in enumerate(systems)]
        seed = rng.choice(["12345", "7", "31337"])
        monkeypatch.setenv("SACREBLEU_SEED", seed)
        n = rng.randint(1, 120)
        ours = lean_bleu(refs, {**options, "tokenize": "13a", "lowercase": False,
                                "force": True})
        assert ours is not None
        signatures, columns = paired_test(named, {"BLEU": ours}, "bs", n, 1)
        sigs, scores = PairedTest(named, {"BLEU": SacreBLEU(references=refs, **options)},
                                  None, test_type="bs", n_samples=n)()
        got = [(c.score, c.p_value, c.mean, c.ci) for c in columns["BLEU"]]
        assert got == [(r.score, r.p_value, r.mean, r.ci) for r in scores["BLEU"]], \
            (case, options, seed)
        assert signatures["BLEU"].format() == sigs["BLEU"].format()


@pytest.mark.parametrize("args", [["-ci"], ["--paired-bs", "-pbsn", "50"]])
def test_bleu_resampling_on_the_command_line_imports_no_numpy(tmp_path, args) -> None:
    """``-ci`` and ``--paired-bs`` of BLEU alone draw without numpy (its import would cost more
    than the whole resampling)."""
    import subprocess
    import sys

    (tmp_path / "ref.txt").write_text("the cat sat on the mat\na dog ran\n", encoding="utf-8")
    for name in ("a", "b"):
        (tmp_path / f"{name}.txt").write_text(f"the cat sat on {name} mat\na dog ran far\n",
                                              encoding="utf-8")
    systems = ["a.txt"] if args == ["-ci"] else ["a.txt", "b.txt"]
    code = ("import sys; from evalfw.compat.sacrebleu._cli import main; "
            f"status = main({['ref.txt', '-i', *systems, *args]!r}); "
            "print('numpy' in sys.modules, status, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "False 0", done.stderr
    assert '"BLEU"' in done.stdout or "BLEU" in done.stdout


@needs_nep50
@pytest.mark.parametrize("args", [["-i", "a.txt", "-ci", "-cin", "70"],
                                  ["-i", "a.txt", "b.txt", "--paired-bs", "-pbsn", "40"]])
def test_without_the_kernel_the_numpy_path_prints_the_same(tmp_path, monkeypatch,
                                                           args) -> None:
    """An install without the compiled bootstrap kernel resamples with numpy: same bytes."""
    from evalfw.analysis import sacrebleu_lean
    from tests.support.sacrebleu_cli import run_dropin

    rng = random.Random(8)
    lines = [" ".join(rng.choice(VOCAB) for _ in range(rng.randint(0, 12))) for _ in range(30)]
    (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name in ("a", "b"):
        hyps = [rng.choice([line, lines[0]]) for line in lines]
        (tmp_path / f"{name}.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    outputs = []
    for built in (True, False):
        monkeypatch.setattr(sacrebleu_lean, "available", lambda built=built: built)
        done = run_dropin(["ref.txt", *args], tmp_path)
        assert done.status == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert b'"confidence_mean"' in outputs[0] or b'"p_value"' in outputs[0]
