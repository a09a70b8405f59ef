"""``sacrebleu.metrics``: ``BLEU``, ``CHRF``, ``TER``, their score and signature classes and
``METRICS`` (name -> class), each imported on first use; the modules ``bleu``, ``chrf`` and
``ter`` mirror ``sacrebleu.metrics.bleu`` and its siblings."""

from __future__ import annotations

from evalfw.compat.sacrebleu import _HOME, _lazy

_NAMES = ("BLEU", "BLEUScore", "BLEUSignature", "CHRF", "CHRFScore", "CHRFSignature", "TER",
          "TERScore", "TERSignature")

__all__ = [*_NAMES, "METRICS"]


def __getattr__(name: str) -> object:
    if name == "METRICS":  # sacreBLEU's table of the three classes (loads all three)
        return {key: _lazy(__name__, _HOME, key) for key in ("BLEU", "CHRF", "TER")}
    return _lazy(__name__, {n: _HOME[n] for n in _NAMES}, name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
