"""Drop-in for sacreBLEU 2.6.0: its metric API and its command line, computed by evalfw.

Change ``import sacrebleu`` / ``from sacrebleu import ...`` to ``from evalfw.compat import
sacrebleu`` / ``from evalfw.compat.sacrebleu import ...`` and ``from sacrebleu.metrics import
...`` (or ``sacrebleu.metrics.bleu``, ``.chrf``, ``.ter``) to ``from
evalfw.compat.sacrebleu.metrics import ...``: the same classes and functions, the same numbers,
fields, signatures and ``str()``. Every name sacreBLEU exports for its metrics is here:
``BLEU``, ``CHRF``, ``TER``, their ``...Score`` and ``...Signature`` classes, ``corpus_*``,
``sentence_*``, ``raw_corpus_bleu`` and ``METRICS``.

Names are imported on first use, so BLEU-only code loads neither chrF's and TER's code nor
numpy. The command line is ``evalfw-sacrebleu`` (or ``python -m evalfw.compat.sacrebleu``),
see :mod:`evalfw.compat.sacrebleu._cli`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing at start-up

# imported on first use (below); type checkers read these imports instead
if TYPE_CHECKING:
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
    from evalfw.metrics.bleu.text import SACREBLEU_VERSION as __version__

    METRICS: dict[str, type[BLEU] | type[CHRF] | type[TER]]

#: public name -> the module that defines it
_HOME = {
    **dict.fromkeys(("BLEU", "BLEUScore", "BLEUSignature", "corpus_bleu", "raw_corpus_bleu",
                     "sentence_bleu"), "evalfw.compat._bleu"),
    **dict.fromkeys(("CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"),
                    "evalfw.compat._chrf"),
    **dict.fromkeys(("TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter"),
                    "evalfw.compat._ter"),
    "METRICS": "evalfw.compat.sacrebleu.metrics",
    "__version__": "evalfw.metrics.bleu.text",
}

__all__ = [
    "BLEU", "BLEUScore", "BLEUSignature", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu",
    "CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf",
    "TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter", "METRICS",
]


def _lazy(module: str, homes: dict[str, str], name: str) -> object:
    """``module.name`` imported from its home on first use (``module.__getattr__``)."""
    if name not in homes:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    import importlib

    home = importlib.import_module(homes[name])
    if name == "__version__":
        return home.SACREBLEU_VERSION
    return getattr(home, name)


def __getattr__(name: str) -> object:
    return _lazy(__name__, _HOME, name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})
