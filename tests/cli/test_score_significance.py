"""``evalfw score`` with sacreBLEU's significance flags: the text output is byte-identical to
the ``sacrebleu`` command's (colours off), JSON carries mean, ci and p_value."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from evalfw.cli.main import main  # noqa: E402
from evalfw.compat.sacrebleu import _text as st  # noqa: E402
from tests.support import significance as sup

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

EN_DE = sup.WMT22 / "en-de"
pytest.importorskip("sacrebleu")


@pytest.fixture(autouse=True)
def _in_data_dir(monkeypatch):
    if not EN_DE.is_dir():
        pytest.skip(f"WMT22 data not found at {EN_DE} (shared data directory absent)")
    monkeypatch.chdir(EN_DE)
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


def _sacrebleu(*args: str, seed: str | None = None) -> str:
    env = {**os.environ, "NO_COLOR": "1", "SACREBLEU_FORMAT": "text"}
    if seed is not None:
        env["SACREBLEU_SEED"] = seed
    done = subprocess.run([sys.executable, "-m", "sacrebleu", *args], capture_output=True,
                          text=True, env=env, check=True)
    return done.stdout


def _ours(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["score", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("flags", [["--paired-bs", "-pbsn", "150"], ["--paired-ar", "-parn", "400"]])
def test_paired_table_identical(capsys, flags):
    systems = ["sys/Online-W.txt", "sys/OpenNMT.txt", "sys/Online-Y.txt"]
    theirs = _sacrebleu("ref.A.txt", "-i", *systems, *flags)
    assert _ours(capsys, "-r", "ref.A.txt", "-i", *systems, *flags) == theirs


@pytest.mark.parametrize("flags,option", [(["--paired-bs", "-pbsn", "10"], "-pbsn 400"),
                                          (["--paired-ar", "-parn", "12"], "-parn 400")])
def test_too_few_resamples_warn_on_stderr_and_print_sacrebleus_bytes(capsys, flags, option):
    """1/(n + 1) > 0.05: nothing can be starred; stdout stays sacreBLEU's, byte for byte."""
    systems = ["sys/Online-W.txt", "sys/Online-B.txt", "sys/Online-Y.txt"]
    theirs = _sacrebleu("ref.A.txt", "-i", *systems, *flags)
    capsys.readouterr()
    assert main(["score", "-r", "ref.A.txt", "-i", *systems, *flags]) == 0
    out, err = capsys.readouterr()
    assert out == theirs and "out of reach" not in out
    assert err.count("evalfw: warning: significance is out of reach") == 1
    unit = "resamples" if "bs" in option else "trials"
    assert f"no comparison can be significant; 19 {unit} would reach alpha, 400 {unit} " \
        f"(20 / alpha) are recommended ({option})" in err
    assert main(["score", "-r", "ref.A.txt", "-i", *systems, flags[0], flags[1], "19"]) == 0
    assert "out of reach" not in capsys.readouterr().err


def test_the_paired_bootstrap_says_what_it_costs_on_stderr_only(capsys):
    """sacreBLEU's paired bootstrap is anti-conservative: one stderr line says so; stdout
    stays sacreBLEU's bytes. Approximate randomization is not concerned."""
    from evalfw.analysis.sacrebleu_mode import SACREBLEU_BOOTSTRAP

    systems = ["sys/Online-W.txt", "sys/OpenNMT.txt"]
    theirs = _sacrebleu("ref.A.txt", "-i", *systems, "--paired-bs", "-pbsn", "100")
    capsys.readouterr()
    assert main(["score", "-r", "ref.A.txt", "-i", *systems, "--paired-bs", "-pbsn", "100"]) == 0
    out, err = capsys.readouterr()
    assert out == theirs
    assert err.count(f"evalfw: warning: {SACREBLEU_BOOTSTRAP}") == 1
    assert "anti-conservative" in SACREBLEU_BOOTSTRAP and "twice" in SACREBLEU_BOOTSTRAP
    assert main(["score", "-r", "ref.A.txt", "-i", *systems, "--paired-ar", "-parn", "400"]) == 0
    assert "anti-conservative" not in capsys.readouterr().err


def test_confidence_line_identical_with_seed(capsys, monkeypatch):
    args = ["-i", "sys/PROMT.txt", "--confidence", "-cin", "300", "-w", "3"]
    theirs = _sacrebleu("ref.A.txt", "ref.B.txt", *args, seed="77")
    assert _ours(capsys, "-r", "ref.A.txt", "ref.B.txt", *args, "--seed", "77") == theirs
    monkeypatch.setenv("SACREBLEU_SEED", "77")
    assert _ours(capsys, "-r", "ref.A.txt", "ref.B.txt", *args) == theirs
    assert "|bs:300|seed:77|" in theirs


def test_json_fields(capsys):
    out = json.loads(_ours(capsys, "-r", "ref.A.txt", "-i", "sys/Online-B.txt", "sys/PROMT.txt",
                           "-pbs", "-pbsn", "100", "-f", "json"))
    base, other = out
    assert base["name"] == "sys/Online-B.txt" and base["metric"] == "BLEU" and "p_value" not in base
    assert base["mean"] > 0 and base["ci"] > 0 and 0 < other["p_value"] <= 1
    assert other["sacrebleu_signature"].startswith("nrefs:1|bs:100|seed:12345|")
    out = json.loads(_ours(capsys, "-r", "ref.A.txt", "-i", "sys/Online-B.txt", "sys/PROMT.txt",
                           "-par", "-parn", "100", "-f", "json"))
    assert out[1]["mean"] is None and out[1]["p_value"] == 1 / 101


def test_other_presets_use_default_mode(capsys):
    text = _ours(capsys, "-r", "ref.A.txt", "-i", "sys/Online-B.txt", "sys/PROMT.txt",
                 "--preset", "nltk", "-pbs", "-pbsn", "50")
    assert "Baseline: sys/Online-B.txt" in text and "(p = " in text
    assert st.banner("bootstrap", 50) in text


def test_usage_errors(capsys):
    assert main(["score", "-r", "ref.A.txt", "-i", "sys/PROMT.txt", "--paired-bs"]) == 2
    assert "at least two systems" in capsys.readouterr().err
    assert main(["score", "-r", "ref.A.txt", "-i", "sys/PROMT.txt", "-ci", "-sl"]) == 2
    assert "--sentence-level" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["score", "-r", "ref.A.txt", "-i", "a", "b", "--paired-bs", "--paired-ar"])
