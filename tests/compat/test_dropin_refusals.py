"""The option values the drop-in command refuses where sacreBLEU 2.6.0 computes a number (or
crashes) are the ones its page lists: each is one ``evalfw: error:`` line and exit status 2,
and a value inside the range gives sacreBLEU's bytes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import sacrebleu, write

pytestmark = pytest.mark.parity

REPO = Path(__file__).resolve().parents[2]

#: (arguments, what sacreBLEU does with them: "score" or the exception its traceback ends with)
REFUSED = [
    (["-m", "chrf", "-cc", "1000000"], "score"),
    (["-m", "chrf", "-cw", "-1"], "score"),
    (["-m", "chrf", "--chrf-beta", "-1"], "score"),
    (["-m", "chrf", "-cc", "0", "-cw", "0"], "IndexError"),
    (["-m", "chrf", "--chrf-beta", "1001"], "score"),
    (["-m", "bleu", "-s", "floor", "-sv", "-1"], "score"),
    (["-m", "bleu", "-s", "add-k", "-sv", "-5"], "ValueError"),
    (["-m", "bleu", "-s", "floor", "-sv", "inf"], "score"),
    (["-m", "bleu", "-s", "add-k", "-sv", "nan"], "score"),
]
COMPUTED = [["-m", "chrf", "-cc", "100"], ["-m", "chrf", "-cw", "100"],
            ["-m", "chrf", "--chrf-beta", "0"], ["-m", "chrf", "--chrf-beta", "1000"],
            ["-m", "chrf", "-cc", "0", "-cw", "2"], ["-m", "bleu", "-s", "exp", "-sv", "-1"],
            ["-m", "bleu", "-s", "floor", "-sv", "0"]]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("refusals")
    return (write(folder / "ref.txt", ["the cat sat on the mat", "hello world", "a b c"]),
            write(folder / "hyp.txt", ["the cat sat on a mat", "hello there", "x y z"]))


def dropin(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "evalfw.compat.sacrebleu", *args, "--no-color"],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, theirs", REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_refused_where_sacrebleu_computes(files, args, theirs):
    ref, hyp = files
    done = sacrebleu(ref, "-i", hyp, *args, "-b")
    if theirs == "score":
        assert done.returncode == 0 and done.stdout.strip(), done.stderr
    else:
        assert done.stderr.strip().splitlines()[-1].startswith(theirs + ":"), done.stderr
    ours = dropin(ref, "-i", hyp, *args, "-b")
    assert ours.returncode == 2 and ours.stdout == "", ours.stdout
    lines = ours.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evalfw: error: "), ours.stderr
    assert "plugin" not in lines[0], lines[0]  # the user's value, not a component, is wrong


@pytest.mark.parametrize("args", COMPUTED, ids=[" ".join(a) for a in COMPUTED])
def test_computed_inside_the_range(files, args):
    ref, hyp = files
    theirs = sacrebleu(ref, "-i", hyp, *args)
    ours = dropin(ref, "-i", hyp, *args)
    assert (ours.returncode, ours.stdout) == (theirs.returncode, theirs.stdout), ours.stderr


def test_the_page_lists_every_refused_option():
    page = " ".join((REPO / "docs" / "sacrebleu-drop-in.md").read_text("utf-8").split())
    section = page.split("**Refused where sacreBLEU computes a number of no meaning.**", 1)[1]
    section = section.split("\n- **", 1)[0]
    for flag in ("--chrf-char-order", "--chrf-word-order", "--chrf-beta", "--smooth-value",
                 "0-100", "0-1000", "`inf`", "`nan`"):
        assert flag in section, flag
