"""``sacrebleu.metrics.chrf``: ``CHRF``, ``CHRFScore``, ``CHRFSignature``."""

from evalfw.compat._chrf import CHRF, CHRFScore, CHRFSignature

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]
