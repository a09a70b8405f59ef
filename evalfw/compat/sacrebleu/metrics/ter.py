"""``sacrebleu.metrics.ter``: ``TER``, ``TERScore``, ``TERSignature``."""

from evalfw.compat._ter import TER, TERScore, TERSignature

__all__ = ["TER", "TERScore", "TERSignature"]
