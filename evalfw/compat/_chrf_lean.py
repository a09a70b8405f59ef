"""sacreBLEU's chrF for the drop-in command line, without evalfw's chrF metric class.

The metric class (:class:`evalfw.metrics.chrf.metric.Chrf`) brings the metric contract with
it (``dataclasses``, ``inspect``, ``typing``), which costs a command on a few hundred lines
more than scoring them. For plain scores (corpus chrF of each system, ``-sl`` sentence
scores) this module counts with :func:`evalfw.metrics.chrf.core.segment_rows` and scores
with :func:`~evalfw.metrics.chrf.core.f_score`, exactly what the drop-in ``CHRF`` computes
with its rows of Python ints. Resampling, missing references, options outside the metric's
limits and inputs big enough for numpy's reference choice take ``CHRF``; :func:`lean_chrf`
says which. ``tests/compat/test_chrf_lean.py`` compares the two.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalfw.compat._chrf_score import CHRFScore, CHRFSignature, signature
from evalfw.compat._chrf_sentence import plain_config
from evalfw.compat._common import check_corpus_args
from evalfw.metrics.chrf import core

TYPE_CHECKING = False  # not from typing: the drop-in command line starts without it
if TYPE_CHECKING:
    from typing import Any

__all__ = ["lean_chrf", "LeanCHRF"]

#: reference choices (segments x references, several references) the lean path makes in
#: Python; beyond it the drop-in ``CHRF`` chooses with numpy (see ``PYTHON_CHOICES`` there)
MAX_CHOICES = 20_000


class LeanCHRF:
    """The part of :class:`evalfw.compat._chrf.CHRF` the command line uses for plain scores:
    ``corpus_score`` against its references, ``sentence_scores`` of a system and
    ``get_signature``."""

    n_bootstrap: int | None = None
    seed: Any = None

    def __init__(self, config: core.ChrfConfig, streams: list[list[str]]) -> None:
        self._config = config
        self._streams = streams
        self.num_refs = len(streams)
        self.char_order, self.word_order, self.beta, self.lowercase, self.whitespace, \
            self.eps_smoothing = config

    def _rows(self, hypotheses: Sequence[str]) -> list[list[int]]:
        check_corpus_args("CHRF", hypotheses, None)
        if len(hypotheses) != len(self._streams[0]):
            raise ValueError("LeanCHRF: hypotheses and references differ in length")
        hyps = [h.lower() for h in hypotheses] if self.lowercase else list(hypotheses)
        return core.segment_rows(hyps, self._streams, self._config)

    def _score(self, row: Sequence[int]) -> CHRFScore:
        return CHRFScore(core.f_score(row, self._config), self.char_order, self.word_order,
                         self.beta)

    def corpus_score(self, hypotheses: Sequence[str], references: None = None,
                     n_bootstrap: int = 1) -> CHRFScore:
        if references is not None or n_bootstrap > 1:
            raise ValueError("LeanCHRF scores against its own references, without resampling")
        rows = self._rows(hypotheses)
        return self._score([sum(c) for c in zip(*rows)] if rows else [0] * self._config.width)

    def sentence_scores(self, hypotheses: Sequence[str]) -> list[CHRFScore]:
        """``sentence_score`` of every line against its references, in order."""
        return [self._score(row) for row in self._rows(hypotheses)]

    def get_signature(self) -> CHRFSignature:
        return signature(self)


def lean_chrf(references: Sequence[Sequence[str | None]], options: dict[str, Any]
              ) -> LeanCHRF | None:
    """A :class:`LeanCHRF` of these reference streams under ``options`` (the drop-in CHRF's
    keyword arguments), or None where ``CHRF`` is needed (see the module docstring)."""
    config = core.ChrfConfig(**options)
    # outside the metric's limits ``CHRF`` reports what is wrong
    if not plain_config(config) or not references or \
            any(None in stream for stream in references) or \
            len({len(stream) for stream in references}) != 1 or \
            (len(references) > 1 and len(references) * len(references[0]) > MAX_CHOICES):
        return None
    streams = [[r.lower() for r in stream] if config.lowercase else list(stream)
               for stream in references]
    return LeanCHRF(config, streams)  # type: ignore[arg-type]
