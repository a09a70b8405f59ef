"""``sacrebleu.metrics``: ``BLEU``, ``CHRF``, ``TER``, their score and signature classes and
``METRICS`` (name -> class), each imported on first use; the modules ``bleu``, ``chrf`` and
``ter`` mirror ``sacrebleu.metrics.bleu`` and its siblings."""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing at start-up

from evalfw.compat.sacrebleu import _HOME, _lazy

# imported on first use (below); type checkers read these instead
if TYPE_CHECKING:
    from evalfw.compat._bleu import BLEU, BLEUScore, BLEUSignature
    from evalfw.compat._chrf import CHRF, CHRFScore, CHRFSignature
    from evalfw.compat._ter import TER, TERScore, TERSignature

    METRICS: dict[str, type[BLEU] | type[CHRF] | type[TER]]

_NAMES = ("BLEU", "BLEUScore", "BLEUSignature", "CHRF", "CHRFScore", "CHRFSignature", "TER",
          "TERScore", "TERSignature")

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "CHRF", "CHRFScore", "CHRFSignature", "TER",
           "TERScore", "TERSignature", "METRICS"]


def __getattr__(name: str) -> object:
    if name == "METRICS":  # sacreBLEU's table of the three classes (loads all three)
        return {key: _lazy(__name__, _HOME, key) for key in ("BLEU", "CHRF", "TER")}
    return _lazy(__name__, {n: _HOME[n] for n in _NAMES}, name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
