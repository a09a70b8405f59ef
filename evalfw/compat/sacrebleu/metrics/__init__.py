"""``sacrebleu.metrics``: ``BLEU``, ``CHRF``, ``TER``, their score and signature classes and
``METRICS`` (name -> class); the modules ``bleu``, ``chrf`` and ``ter`` mirror
``sacrebleu.metrics.bleu`` and its siblings."""

from __future__ import annotations

from evalfw.compat._bleu import BLEU, BLEUScore, BLEUSignature
from evalfw.compat._chrf import CHRF, CHRFScore, CHRFSignature
from evalfw.compat._ter import TER, TERScore, TERSignature

METRICS: dict[str, type[BLEU] | type[CHRF] | type[TER]] = {"BLEU": BLEU, "CHRF": CHRF,
                                                          "TER": TER}

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "CHRF", "CHRFScore", "CHRFSignature", "TER",
           "TERScore", "TERSignature", "METRICS"]
