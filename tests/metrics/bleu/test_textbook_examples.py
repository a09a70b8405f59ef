"""Worked examples from classic BLEU write-ups, reproduced through components.

The lowercase-and-strip-punctuation tokenizer they need is a local plugin
(plugins/local/textbook.py), not a special case in the core.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import evalfw
from evalfw.host.host import PluginHost
from tests.support.shared_data import REPO


@pytest.fixture(scope="module")
def textbook_host():
    return PluginHost.create(autoload=False, plugin_dirs=[REPO / "plugins" / "local"])


def clipped(host, hyp, refs, n):
    res = evalfw.corpus_bleu([hyp], [[r] for r in refs], host=host, preset="textbook",
                             max_order=max(n, 1))
    return Fraction(int(res.counts[n - 1]), int(res.totals[n - 1]))


def test_love_can_always(textbook_host):
    refs = ["love can always find a way", "love makes anything possible"]
    res = evalfw.corpus_bleu(["the love can always do"], [[r] for r in refs],
                             host=textbook_host, preset="textbook", max_order=3)
    assert [Fraction(int(c), int(t)) for c, t in zip(res.counts, res.totals)] == \
        [Fraction(3, 5), Fraction(1, 2), Fraction(1, 3)]
    assert res.bp == 1.0
    assert round(res.score, 3) == 0.464


def test_match_postponed(textbook_host):
    res = evalfw.corpus_bleu(["The match was postponed because of the snow."],
                             [["The match was postponed because it was snowing."]],
                             host=textbook_host, preset="textbook")
    assert list(zip(res.counts, res.totals)) == [(5, 8), (4, 7), (3, 6), (2, 5)]
    assert round(res.score, 3) == 0.517 and str(res.score).startswith("0.516")


PAPINENI_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands.",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
    "It is the practical guide for the army always to heed the directions of the party.",
]


def test_papineni_modified_unigram_precisions(textbook_host):
    cand1 = "It is a guide to action which ensures that the military always obeys the commands of the party."
    cand2 = "It is to insure the troops forever hearing the activity guidebook that party direct."
    assert clipped(textbook_host, cand1, PAPINENI_REFS, 1) == Fraction(17, 18)
    assert clipped(textbook_host, cand2, PAPINENI_REFS, 1) == Fraction(8, 14)
    the = "the the the the the the the."
    refs = ["The cat is on the mat.", "There is a cat on the mat."]
    c = evalfw.corpus_bleu([the], [[r] for r in refs], host=textbook_host, preset="textbook")
    assert (c.counts[0], c.totals[0]) == (2, 7)


def test_she_she_she(textbook_host):
    res = evalfw.corpus_bleu(["She She She eats a sour cherry."],
                             [["She is eating a sour cherry."]],
                             host=textbook_host, preset="textbook")
    assert (res.counts[0], res.totals[0]) == (4, 7)
    # without lowercasing "She"/"she" would not be an issue here, but with the
    # sacreBLEU defaults the period is a token and the counts differ
    sacre = evalfw.corpus_bleu(["She She She eats a sour cherry."], [["She is eating a sour cherry."]])
    assert (sacre.counts[0], sacre.totals[0]) == (5, 8)
