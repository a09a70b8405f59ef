"""What the drop-ins say about the SentencePiece tokenizers, as sacreBLEU 2.6.0 says it:
``-tok spm`` logs sacreBLEU's renaming line (and no Python warning of evalfw's own), and
without the ``sentencepiece`` package the error is sacreBLEU's ``ImportError``, in the class
and on the command line. Both commands read one small model trained here."""

from __future__ import annotations

import logging
import sys
import warnings
from pathlib import Path

import pytest

from tests.support.sacrebleu_cli import run_dropin_process, run_sacrebleu
from tests.support.spm_models import generated_model, sacrebleu_home, use_home

pytestmark = pytest.mark.parity
pytest.importorskip("sentencepiece")

RENAMED = "Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future."


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("spm-messages")
    sacrebleu_home(root / "home", generated_model())
    (root / "ref.txt").write_text("the cat sat on the mat\na dog ran\n", "utf-8")
    (root / "hyp.txt").write_text("the cat sat on a mat\na dog ran far\n", "utf-8")
    # a `sentencepiece` that fails to import as a missing one does (first on PYTHONPATH)
    stub = root / "no-sentencepiece" / "sentencepiece"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'sentencepiece'\", name='sentencepiece')\n",
        "utf-8")
    return root


def _both(files: Path, args: list[str], **env: str) -> tuple:
    env = {"SACREBLEU": str(files / "home"), **env}
    argv = ["ref.txt", "-i", "hyp.txt", *args]
    return run_sacrebleu(argv, files, env=env), run_dropin_process(argv, files, env=env)


@pytest.mark.parametrize("quiet", [[], ["-q"]], ids=["logged", "quiet"])
def test_spm_prints_sacrebleus_renaming_line_only(files: Path, quiet: list[str]) -> None:
    theirs, ours = _both(files, ["-tok", "spm", "-b", *quiet])
    assert theirs.status == ours.status == 0, (theirs.stderr, ours.stderr)
    assert ours.stdout == theirs.stdout
    assert RENAMED in theirs.stderr  # the line this test expects is sacreBLEU's
    assert ours.stderr == theirs.stderr


def test_flores101_prints_nothing_on_stderr(files: Path) -> None:
    theirs, ours = _both(files, ["-tok", "flores101", "-b"])
    assert theirs.status == ours.status == 0, (theirs.stderr, ours.stderr)
    assert ours.stdout == theirs.stdout
    assert ours.stderr == theirs.stderr == ""


@pytest.mark.parametrize("tokenizer", ["flores200", "spm"])
def test_without_sentencepiece_the_command_ends_with_sacrebleus_import_error(
        files: Path, tokenizer: str) -> None:
    theirs, ours = _both(files, ["-tok", tokenizer],
                         PYTHONPATH=str(files / "no-sentencepiece"))
    assert theirs.status == ours.status == 1
    assert ours.stdout == theirs.stdout == b""
    tail = ("ImportError: \n\nPlease install the sentencepiece library for SPM tokenization:"
            "\n\n  pip install sentencepiece \n")
    assert theirs.stderr.endswith(tail), theirs.stderr  # sacreBLEU's traceback ends so
    assert ours.stderr.endswith(tail), ours.stderr
    assert "Traceback" not in ours.stderr
    assert (RENAMED in ours.stderr) == (RENAMED in theirs.stderr) == (tokenizer == "spm")


def test_the_class_logs_sacrebleus_line_and_no_warning(files: Path, monkeypatch,
                                                       caplog) -> None:
    from sacrebleu.metrics import BLEU as SacreBLEU

    from evalfw.compat.sacrebleu import BLEU

    use_home(monkeypatch, files / "home")
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        with caplog.at_level(logging.WARNING):
            ours = BLEU(tokenize="spm")
            ours_logged = [r.getMessage() for r in caplog.records]
            caplog.clear()
            with warnings.catch_warnings():  # sacreBLEU calls the deprecated Logger.warn
                warnings.simplefilter("ignore", DeprecationWarning)
                theirs = SacreBLEU(tokenize="spm")
            theirs_logged = [r.getMessage() for r in caplog.records]
    assert ours_logged == theirs_logged == [RENAMED]
    hyps, refs = ["a cat sat"], [["the cat sat"]]
    assert str(ours.corpus_score(hyps, refs)) == str(theirs.corpus_score(hyps, refs))
    assert str(ours.get_signature()) == str(theirs.get_signature())


@pytest.mark.parametrize("tokenizer", ["flores101", "flores200", "spBLEU-1K"])
def test_without_sentencepiece_the_class_raises_sacrebleus_import_error(
        files: Path, monkeypatch, tokenizer: str) -> None:
    from sacrebleu.metrics import BLEU as SacreBLEU

    from evalfw.compat.sacrebleu import BLEU

    use_home(monkeypatch, files / "home")
    monkeypatch.setitem(sys.modules, "sentencepiece", None)  # `import sentencepiece` fails
    with pytest.raises(ImportError) as theirs:
        SacreBLEU(tokenize=tokenizer)
    with pytest.raises(ImportError) as ours:
        BLEU(tokenize=tokenizer)
    assert type(ours.value) is ImportError
    assert str(ours.value) == str(theirs.value)
