"""Drop-in for sacreBLEU 2.6.0: its metric API and its command line, computed by evalfw.

Change ``import sacrebleu`` / ``from sacrebleu import ...`` to ``from evalfw.compat import
sacrebleu`` / ``from evalfw.compat.sacrebleu import ...`` and ``from sacrebleu.metrics import
...`` (or ``sacrebleu.metrics.bleu``, ``.chrf``, ``.ter``) to ``from
evalfw.compat.sacrebleu.metrics import ...``: the same classes and functions, the same numbers,
fields, signatures and ``str()``. Every name sacreBLEU exports for its metrics is here:
``BLEU``, ``CHRF``, ``TER``, their ``...Score`` and ``...Signature`` classes, ``corpus_*``,
``sentence_*``, ``raw_corpus_bleu`` and ``METRICS``.

numpy is imported only when a computation needs it. The command line is ``evalfw-sacrebleu``
(or ``python -m evalfw.compat.sacrebleu``), see :mod:`evalfw.compat.sacrebleu._cli`.
"""

from __future__ import annotations

from evalfw.compat._bleu import (
    BLEU,
    BLEUScore,
    BLEUSignature,
    corpus_bleu,
    raw_corpus_bleu,
    sentence_bleu,
)
from evalfw.compat._chrf import CHRF, CHRFScore, CHRFSignature, corpus_chrf, sentence_chrf
from evalfw.compat._ter import TER, TERScore, TERSignature, corpus_ter, sentence_ter
from evalfw.compat.sacrebleu.metrics import METRICS
from evalfw.metrics.bleu.text import SACREBLEU_VERSION as __version__  # noqa: F401

__all__ = [
    "BLEU", "BLEUScore", "BLEUSignature", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu",
    "CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf",
    "TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter", "METRICS",
]
