"""``TerScore``: a TER result, printed as sacreBLEU prints ``TERScore`` (``TER = 49.95``), and
the signature sacreBLEU 2.6.0 gives TER."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evalfw.metrics.base import Score
from evalfw.metrics.bleu.text import SACREBLEU_VERSION


@dataclass(frozen=True)
class TerScore(Score):
    """A corpus or segment TER score with the sums it was computed from: ``num_edits`` (an
    int, as sacreBLEU keeps it) and ``ref_length`` (the sum of average reference lengths)."""

    num_edits: int = 0
    ref_length: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "num_edits": self.num_edits,
                "ref_length": self.ref_length}


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def sacrebleu_signature(options: Mapping[str, Any], nrefs: int | str) -> str:
    """sacreBLEU's TER signature, e.g. ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|
    asian:no|version:2.6.0`` (``punct`` says whether punctuation is kept)."""
    return (f"nrefs:{nrefs}|case:{'mixed' if options['case_sensitive'] else 'lc'}"
            f"|tok:tercom|norm:{_yes(options['normalized'])}"
            f"|punct:{_yes(not options['no_punct'])}|asian:{_yes(options['asian_support'])}"
            f"|version:{SACREBLEU_VERSION}")


__all__ = ["TerScore", "sacrebleu_signature"]
