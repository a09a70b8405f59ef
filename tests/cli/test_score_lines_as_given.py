"""``evalfw score`` scores each line as it is in the file and says so (``--help``, README):
sacreBLEU's command line strips trailing whitespace first, which changes chrF with
``--chrf-whitespace`` and nothing else; ``evalfw-sacrebleu`` strips as sacreBLEU does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from evalfw.cli.main import main
from tests.support.cli import sacrebleu

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat \n  hello world\t\n", "utf-8")
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\nhello world\n", "utf-8")
    return str(tmp_path / "ref.txt"), str(tmp_path / "hyp.txt")


def test_help_and_readme_say_lines_are_scored_as_they_are(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "evalfw score scores each line as it is in the file" in text
    assert "strips trailing whitespace" in text and "--chrf-whitespace" in text
    readme = " ".join((REPO / "README.md").read_text("utf-8").split())
    assert "lines are scored as they are" in readme


@pytest.mark.parametrize("args, differs", [
    (["-m", "chrf", "--chrf-whitespace"], True),
    (["-m", "chrf", "--chrf-word-order", "2", "--chrf-whitespace"], True),
    (["-m", "chrf"], False), (["-m", "bleu"], False), (["-m", "ter"], False),
    (["-m", "bleu", "-tok", "char"], False),
])
def test_only_chrf_with_whitespace_sees_trailing_spaces(files, capsys, args, differs):
    ref, hyp = files
    theirs = sacrebleu(ref, "-i", hyp, *args, "-b")
    assert theirs.returncode == 0, theirs.stderr
    assert main(["score", ref, "-i", hyp, *args, "-b"]) == 0
    ours = capsys.readouterr().out
    assert (ours != theirs.stdout) == differs
    drop_in = subprocess.run([sys.executable, "-m", "evalfw.compat.sacrebleu", ref, "-i", hyp,
                              *args, "-b"], capture_output=True, text=True, timeout=120)
    assert drop_in.returncode == 0 and drop_in.stdout == theirs.stdout, drop_in.stderr
