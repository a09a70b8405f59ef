"""References prepared once by the compiled kernel (``_chrf.prepare`` / ``stats_prepared``) give
the same statistics as counting them again for every hypothesis set (``_chrf.stats``) and as
Python: random Unicode text, 1-3 references with some missing, every option, one preparation
reused for several hypothesis sets; and ``Chrf`` keeps a preparation from its second use on."""

from __future__ import annotations

import pickle
import random

import pytest

from evalfw.metrics.chrf import core
from evalfw.metrics.chrf.metric import Chrf

if core.kernel() is None:
    pytest.skip("the compiled chrF kernel is not built", allow_module_level=True)

#: letters of several scripts and widths, combining marks, ASCII punctuation (split off words)
#: and non-ASCII punctuation (kept), ordinary and Unicode whitespace, a NUL and an astral emoji
ALPHABET = list("abcABCäöÉß") + ["я", "Ж", "中", "文", "\u0301", "😀", "\x00"] + \
    list(".,;!?()\"'-") + ["«", "»", "…"] + [" ", " ", " ", "\t", "\u3000", "\xa0", "\n"]


def _text(rng: random.Random) -> str:
    length = rng.choice([0, 1, 3, 8, 20, 40]) if rng.random() > 0.05 else rng.randint(300, 600)
    return "".join(rng.choice(ALPHABET) for _ in range(length))


def _near(rng: random.Random, ref: str | None) -> str:
    """A hypothesis sharing n-grams with a reference (random text shares few)."""
    if ref is None or rng.random() < 0.3:
        return _text(rng)
    cut = rng.randint(0, len(ref))
    return ref[:cut] + _text(rng)[:5] + ref[cut:][::-1 if rng.random() < 0.3 else 1]


def _corpus(rng: random.Random, n: int, k: int) -> list[list[str | None]]:
    # stream 0 always there; later ones missing on some lines
    return [[_text(rng) if j == 0 or rng.random() > 0.25 else None for _ in range(n)]
            for j in range(k)]


CONFIGS = [core.ChrfConfig(char_order=c, word_order=w, whitespace=ws)
           for c, w, ws in [(6, 0, False), (6, 2, False), (6, 2, True), (0, 2, False),
                            (0, 1, True), (1, 0, True), (3, 3, False), (1, 4, True)]]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_prepared_references_count_as_unprepared(seed, config):
    rng = random.Random(seed)
    n, k = 25, rng.randint(1, 3)
    refs = _corpus(rng, n, k)
    prepared = core.kernel_references(refs, config)
    assert prepared.segments == n and prepared.nbytes > 0
    for _ in range(3):  # one preparation serves hypothesis set after hypothesis set
        hyps = [_near(rng, refs[rng.randrange(k)][i]) for i in range(n)]
        expected = list(core.pair_values(hyps, refs, config))
        assert list(core.pair_values(hyps, refs, config, prepared)) == expected
        if config.char_order + config.word_order <= 4:  # and both equal Python's counts
            assert core._python_pairs(hyps, refs, config) == expected


def test_hypotheses_equal_to_the_references_match_everything():
    rng = random.Random(7)
    refs = _corpus(rng, 30, 2)
    config = core.ChrfConfig(word_order=2)
    prepared = core.kernel_references(refs, config)
    hyps = [r if r is not None else "" for r in refs[0]]
    assert list(core.pair_values(hyps, refs, config, prepared)) == \
        list(core.pair_values(hyps, refs, config))


OPTIONS = [{}, {"word_order": 2}, {"lowercase": True, "word_order": 2},
           {"whitespace": True, "beta": 1, "eps_smoothing": True},
           {"char_order": 0, "word_order": 3, "lowercase": True}]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_chrf_keeps_a_preparation_from_the_second_system_on(options):
    rng = random.Random(3)
    n = 40
    refs = _corpus(rng, n, 3)
    metric = Chrf(**options)
    prepared = metric.prepare_references(refs)
    for system in range(4):
        hyps = [_near(rng, refs[0][i]) for i in range(n)]
        fresh = Chrf(**options).prepare_references(refs)  # its first use: not prepared
        expected = Chrf(**options).segment_statistics(hyps, fresh).tolist()
        got = metric.segment_statistics(hyps, prepared).tolist()
        assert bool(prepared._tables) == (system >= 1)  # kept from the second use on
        assert got == expected
    assert len(prepared._tables) == 1
    # a worker gets the streams, not the kernel's object, and prepares its own
    copy = pickle.loads(pickle.dumps(prepared))
    assert copy.streams == prepared.streams and copy._tables == {}


def test_prepared_references_check_their_input():
    config = core.ChrfConfig()
    prepared = core.kernel_references([["ab", "cd"]], config)
    native = core.kernel()
    with pytest.raises(ValueError):
        native.stats_prepared(["ab"], prepared)
    with pytest.raises(TypeError):
        native.stats_prepared(["ab", 3], prepared)
    with pytest.raises(TypeError):
        native.prepare([["ab", 3]], 6, 0, False)
    with pytest.raises(ValueError):
        native.prepare([["ab"], ["a", "b"]], 6, 0, False)
    with pytest.raises(ValueError):
        native.prepare([["ab"]], 0, 0, False)
