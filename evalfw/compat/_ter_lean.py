"""sacreBLEU's TER for the drop-in command line, without numpy or evalfw's TER metric class.

The drop-in ``TER`` keeps statistics as numpy rows (its resampling needs them), and importing
numpy costs a command on a few hundred lines more than the edit distances. For plain scores
(corpus TER of each system, ``-sl`` sentence scores) this module takes each segment's fewest
edits from :func:`evalfw.metrics.ter.core.best_edits` and sums the columns in sacreBLEU's
order (:func:`~evalfw.metrics.ter.core.row_totals`): the numbers of ``TER``, which
resampling, test sets and missing references still use (:func:`lean_ter` says which).
``tests/compat/test_ter_lean.py`` compares them with sacreBLEU.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalfw.compat._common import check_corpus_args
from evalfw.compat._ter import TERScore, TERSignature, signature
from evalfw.metrics.ter import core

TYPE_CHECKING = False  # not from typing: the drop-in command line starts without it
if TYPE_CHECKING:
    from typing import Any

__all__ = ["lean_ter", "LeanTER"]


class LeanTER:
    """The part of :class:`evalfw.compat._ter.TER` the command line uses for plain scores:
    ``corpus_score`` against its references, ``sentence_scores`` of a system and
    ``get_signature``."""

    n_bootstrap: int | None = None
    seed: Any = None
    tokenizer_signature = "tercom"

    def __init__(self, options: dict[str, bool], prepared: core.PreparedReferences,
                 nrefs: int) -> None:
        self._prepared = prepared
        self.num_refs = nrefs
        self.normalized = options["normalized"]
        self.no_punct = options["no_punct"]
        self.asian_support = options["asian_support"]
        self.case_sensitive = options["case_sensitive"]

    def _best(self, hypotheses: Sequence[str]) -> list[int]:
        check_corpus_args("TER", hypotheses, None)
        return core.best_edits(hypotheses, self._prepared)

    def corpus_score(self, hypotheses: Sequence[str], references: None = None,
                     n_bootstrap: int = 1) -> TERScore:
        if references is not None or n_bootstrap > 1:
            raise ValueError("LeanTER scores against its own references, without resampling")
        edits, length = core.row_totals(self._best(hypotheses), self._prepared.ref_length)
        return TERScore(core.score_of(edits, length), edits, length)

    def sentence_scores(self, hypotheses: Sequence[str]) -> list[TERScore]:
        """``sentence_score`` of every line against its references, in order."""
        return [TERScore(core.score_of(e, r), e, r)
                for e, r in zip(self._best(hypotheses), self._prepared.ref_length)]

    def get_signature(self) -> TERSignature:
        return signature(self)


def lean_ter(references: Sequence[Sequence[str | None]], options: dict[str, Any]
             ) -> LeanTER | None:
    """A :class:`LeanTER` of these reference streams under ``options`` (the drop-in TER's
    keyword arguments), or None where ``TER`` is needed: a missing reference, options that
    are not booleans."""
    if not references or any(None in stream for stream in references) or \
            any(type(options[k]) is not bool for k in core.DEFAULTS):
        return None
    prepared = core.prepare(references, core.option_key(options))
    return LeanTER({k: options[k] for k in core.DEFAULTS}, prepared, len(references))
