"""``evalfw score -m bleu chrf ter`` against the real ``sacrebleu`` command on random inputs (a few
seeds): the text lines, ``--confidence``, ``--paired-bs`` and ``--paired-ar`` (small numbers
of samples) byte for byte, with the same seed."""

from __future__ import annotations

import random

import pytest

from tests.support.cli import evalfw, sacrebleu, write

pytestmark = pytest.mark.parity

WORDS = ["the", "a", "cat", "dog", "sat", "on", "mat", "and", "ran", "away", "fast", "it",
         "was", "n't", "Über", "straße", "ça", "va", "!", ",", ".", "?", "(", ")", "'s",
         "1,000", "3.5", "CAT", "Dog", "well-known"]


def sentence(rng: random.Random, base: list[str] | None = None) -> str:
    if base is not None and rng.random() < 0.8:  # a noisy copy of the reference
        words = [w for w in base if rng.random() > 0.2]
        words += rng.choices(WORDS, k=rng.randint(0, 3))
        rng.shuffle(words) if rng.random() < 0.2 else None
    else:
        words = rng.choices(WORDS, k=rng.randint(0 if rng.random() < 0.05 else 1, 14))
    glue = "" if rng.random() < 0.1 else " "
    return glue.join(words)


@pytest.fixture(params=[1, 7, 2024])
def corpus(request, tmp_path):
    rng = random.Random(request.param)
    n = rng.randint(15, 40)
    refs = [[sentence(rng) for _ in range(n)] for _ in range(rng.choice([1, 2]))]
    systems = [[sentence(rng, refs[0][i].split()) for i in range(n)] for _ in range(3)]
    ref_files = [write(tmp_path / f"ref{k}.txt", r) for k, r in enumerate(refs)]
    sys_files = [write(tmp_path / f"sys{k}.txt", s) for k, s in enumerate(systems)]
    return ref_files, sys_files, request.param


def same(ours_args: list[str], theirs_args: list[str], seed: int | None = None) -> None:
    env = {"SACREBLEU_SEED": str(seed)} if seed is not None else None
    ours = evalfw("score", *ours_args, env=env)
    theirs = sacrebleu(*theirs_args, env=env)
    assert ours.returncode == theirs.returncode == 0, (ours.stderr, theirs.stderr)
    assert ours.stdout == theirs.stdout


@pytest.mark.parametrize("extra", [[], ["--chrf-word-order", "2"], ["-lc", "--chrf-lowercase"],
                                   ["-w", "3", "--chrf-eps-smoothing"],
                                   ["--ter-case-sensitive", "--ter-no-punct"],
                                   ["--ter-normalized", "--ter-asian-support"]])
def test_text(corpus, extra):
    refs, systems, _ = corpus
    same([*refs, "-i", systems[0], "-m", "bleu", "chrf", "ter", *extra],
         [*refs, "-i", systems[0], "-m", "bleu", "chrf", "ter", "-f", "text", *extra])


def test_confidence(corpus):
    refs, systems, seed = corpus
    args = [*refs, "-i", systems[1], "-m", "bleu", "chrf", "ter", "--confidence", "-cin", "60"]
    same(args, [*args, "-f", "text"], seed)


@pytest.mark.parametrize("test", [["--paired-bs", "-pbsn", "50"], ["--paired-ar", "-parn", "40"]])
def test_paired(corpus, test):
    refs, systems, seed = corpus
    args = [*refs, "-i", *systems, "-m", "bleu", "chrf", "ter", *test]
    same(args, [*args, "-f", "text"], seed)


def test_paired_chrf_plus_plus(corpus):
    refs, systems, seed = corpus
    args = [*refs, "-i", *systems, "-m", "chrf", "bleu", "--chrf-word-order", "2",
            "--paired-bs", "-pbsn", "30"]
    same(args, [*args, "-f", "text"], seed)


@pytest.mark.parametrize("metrics", [["bleu", "chrf", "ter"], ["ter", "chrf", "bleu"]])
def test_several_systems_without_a_paired_test_print_sacrebleus_table(corpus, metrics):
    refs, systems, _ = corpus
    args = [*refs, "-i", *systems, "-m", *metrics]
    same(args, [*args, "-f", "text"])
