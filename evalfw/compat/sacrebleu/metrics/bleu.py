"""``sacrebleu.metrics.bleu``: ``BLEU``, ``BLEUScore``, ``BLEUSignature``."""

from evalfw.compat._bleu import BLEU, BLEUScore, BLEUSignature

__all__ = ["BLEU", "BLEUScore", "BLEUSignature"]
