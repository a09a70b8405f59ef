"""References given as ``None`` in the drop-in classes: a segment with some references scores
as sacreBLEU 2.6.0 scores it; a segment with none raises the ``TypeError`` sacreBLEU raises
there, never a score with a reference length of -1 counted in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sacrebleu

from evalfw.compat import sacrebleu as dropin

pytestmark = pytest.mark.parity

HYPS = ["the cat sat on the mat", "hello world"]


def outcome(call: Callable[[], Any]) -> str:
    try:
        return str(call())
    except Exception as exc:  # what the caller sees: its type
        return type(exc).__name__


@pytest.mark.parametrize("refs", [
    [[None, "hello world"]],
    [["the cat sat on a mat", None]],
    [[None, "hello world"], [None, "hello there world"]],
])
def test_a_segment_without_references_raises_as_sacrebleu(refs):
    assert outcome(lambda: sacrebleu.BLEU().corpus_score(HYPS, refs)) == "TypeError"
    with pytest.raises(TypeError, match="segment .* has no reference"):
        dropin.BLEU().corpus_score(HYPS, refs)


@pytest.mark.parametrize("refs", [[None], [None, None]])
def test_a_sentence_without_references_raises_as_sacrebleu(refs):
    assert outcome(lambda: sacrebleu.BLEU().sentence_score("the cat", refs)) == "TypeError"
    with pytest.raises(TypeError, match="has no reference"):
        dropin.BLEU().sentence_score("the cat", refs)
    with pytest.raises(TypeError, match="has no reference"):
        dropin.BLEU(effective_order=True).sentence_score("the cat", refs)


@pytest.mark.parametrize("refs", [
    [["the cat sat on a mat", "hello world"], [None, "hello there world"]],
    [[None, "hello world"], ["the cat sat on the mat", None]],
])
def test_a_segment_with_some_references_scores_as_sacrebleu(refs):
    theirs = sacrebleu.BLEU().corpus_score(HYPS, refs)
    ours = dropin.BLEU().corpus_score(HYPS, refs)
    assert str(ours) == str(theirs)
    assert (ours.ref_len, ours.sys_len) == (theirs.ref_len, theirs.sys_len)
    one = dropin.BLEU(effective_order=True).sentence_score("the cat", [None, "the cat sat"])
    assert str(one) == str(sacrebleu.BLEU(effective_order=True)
                           .sentence_score("the cat", [None, "the cat sat"]))
