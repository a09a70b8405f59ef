"""``ChrfScore``: a chrF result, printed as sacreBLEU prints ``CHRFScore`` (``chrF2++ = 62.24``),
and the signature sacreBLEU 2.6.0 gives chrF."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evalfw.metrics.base import Score
from evalfw.metrics.bleu.text import SACREBLEU_VERSION
from evalfw.metrics.chrf.core import ChrfConfig


@dataclass(frozen=True)
class ChrfScore(Score):
    """A corpus or segment chrF score with the orders and beta that produced it."""

    char_order: int = 6
    word_order: int = 0
    beta: float = 2

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "char_order": self.char_order,
                "word_order": self.word_order, "beta": self.beta}


def sacrebleu_signature(config: ChrfConfig, nrefs: int | str) -> str:
    """sacreBLEU's chrF signature, e.g. ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|
    version:2.6.0`` (beta is not part of it; the name carries it)."""
    return (f"nrefs:{nrefs}|case:{'lc' if config.lowercase else 'mixed'}"
            f"|eff:{'no' if config.eps_smoothing else 'yes'}|nc:{config.char_order}"
            f"|nw:{config.word_order}|space:{'yes' if config.whitespace else 'no'}"
            f"|version:{SACREBLEU_VERSION}")


__all__ = ["ChrfScore", "sacrebleu_signature"]
