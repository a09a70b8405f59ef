"""sacreBLEU 2.6.0's ``CHRFScore`` and ``CHRFSignature``, apart from the metric: the drop-in
command line's lean chrF (:mod:`evalfw.compat._chrf_lean`) prints them without loading
evalfw's chrF metric class, as :mod:`evalfw.compat._chrf` does with it."""

from __future__ import annotations

from evalfw.compat._common import SacreScore, SacreSignature

TYPE_CHECKING = False  # not from typing: the drop-in command line starts without it
if TYPE_CHECKING:
    from typing import Any

__all__ = ["CHRFScore", "CHRFSignature", "signature"]


class CHRFScore(SacreScore):
    """sacreBLEU's ``CHRFScore``: ``score``, ``char_order``, ``word_order``, ``beta``, ``name``,
    ``format()`` and ``str()`` (``chrF2++ = 62.24``)."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: float) -> None:
        super().__init__(f"chrF{beta}" + "+" * word_order, score)
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order


class CHRFSignature(SacreSignature):
    """sacreBLEU's chrF signature: ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""

    _ABBR = {"nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs", "case": "c", "eff": "e",
             "nc": "nc", "nw": "nw", "space": "s", "version": "v"}


def signature(metric: Any) -> CHRFSignature:
    """sacreBLEU's ``CHRF.get_signature()`` of a drop-in chrF object (its references counted)."""
    return CHRFSignature.of(
        metric, case="lc" if metric.lowercase else "mixed",
        eff="no" if metric.eps_smoothing else "yes", nc=metric.char_order,
        nw=metric.word_order, space="yes" if metric.whitespace else "no")
