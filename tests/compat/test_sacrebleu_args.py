"""The drop-in command line's two argument readers agree: wherever ``quick_parse`` answers, its
namespace equals argparse's; it answers for the plain command lines scripts write, and leaves
everything else (abbreviations, ``=``, repeats, bad values, help) to argparse."""

from __future__ import annotations

import contextlib
import io
import random

import pytest

from evalfw.compat.sacrebleu._args import ARGUMENTS, build_parser, quick_parse

PLAIN = [
    ["ref.txt", "-i", "hyp.txt"],
    ["ref.A", "ref.B", "-i", "a", "b", "c", "-m", "bleu", "chrf", "ter", "-f", "text"],
    ["ref", "-i", "hyp", "-b", "-w", "4", "-tok", "intl", "-lc", "-sl"],
    ["refs.tsv", "-nr", "2", "-i", "hyp", "--paired-bs", "-pbsn", "100", "-f", "latex"],
    ["ref", "-ci", "-cin", "50", "-m", "chrf", "-cw", "2", "--chrf-whitespace", "-q", "-nc"],
    ["ref", "-s", "floor", "-sv", "0.2", "--force", "-e", "latin-1", "-sh"],
    ["-t", "wmt22", "-l", "en-de", "-i", "hyp", "--echo", "src", "ref"],
    ["ref"],
    ["ref", "-i"],
    [],
]

UNSURE = [
    ["ref", "--inp", "hyp"],  # an abbreviation
    ["ref", "--width=3"],
    ["ref", "-w3"],
    ["ref", "-w", "-1"],
    ["ref", "-w", "x"],
    ["ref", "-f", "xml"],
    ["ref", "-w", "2", "-w", "3"],
    ["ref", "-i", "a", "ref2", "-f", "text", "ref3"],
    ["ref", "-f", "text", "ref2"],
    ["ref", "-m"],
    ["ref", "--paired-bs", "--paired-ar"],
    ["ref", "-h"],
    ["ref", "-V"],
    ["ref", "--", "-x"],
    ["ref", "-i", "-"],
]


def argparse_result(argv: list[str]) -> dict | None:
    """argparse's namespace as a dict, or None when it stops (error, help, version)."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return vars(build_parser("sacrebleu").parse_args(argv))
        except SystemExit:
            return None


@pytest.mark.parametrize("argv", PLAIN)
def test_plain_command_lines_are_read_quickly_and_the_same(argv: list[str]) -> None:
    quick = quick_parse(argv)
    assert quick is not None, argv
    assert vars(quick) == argparse_result(argv)


@pytest.mark.parametrize("argv", UNSURE)
def test_unsure_command_lines_go_to_argparse(argv: list[str]) -> None:
    assert quick_parse(argv) is None, argv


def _random_argv(rng: random.Random) -> list[str]:
    options = [(flags, kw) for _, flags, kw in ARGUMENTS if flags != ("refs",)]
    values = ["ref", "a.txt", "3", "-2", "0.5", "text", "bleu", "chrf", "13a", "x", "", "exp"]
    argv = [rng.choice(values) for _ in range(rng.randint(0, 2))]
    for _ in range(rng.randint(0, 6)):
        flags, kw = rng.choice(options)
        flag = rng.choice(flags)
        if rng.random() < 0.05:
            flag = flag[:max(2, len(flag) - 2)]  # maybe an abbreviation
        argv.append(flag)
        if kw.get("action") not in ("store_true", "version"):
            pool = [str(c) for c in kw.get("choices") or []] + values
            argv += [rng.choice(pool) for _ in range(rng.choice([0, 1, 1, 1, 2]))]
    return argv


def test_random_command_lines_agree_wherever_quick_parse_answers() -> None:
    rng = random.Random(5)
    answered = 0
    for _ in range(1500):
        argv = _random_argv(rng)
        quick = quick_parse(argv)
        if quick is not None:
            answered += 1
            assert vars(quick) == argparse_result(argv), argv
    assert answered >= 300
