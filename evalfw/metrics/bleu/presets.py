"""Built-in presets: the component bundles that reproduce popular BLEU implementations.

- ``sacrebleu`` (the default): sacreBLEU 2.6.0's ``BLEU()`` defaults; its results also carry
  sacreBLEU's own signature string when every choice is one sacreBLEU can express;
- ``nltk``: ``nltk.translate.bleu_score.corpus_bleu`` on whitespace tokens (NLTK 3.10.4);
- ``multi-bleu``: Moses ``multi-bleu.perl`` on whitespace tokens (no smoothing);
- ``torchmetrics``: ``torchmetrics`` ``BLEUScore`` rules (closest reference, first listed on ties)
  computed in float64, with the paper's plain precisions.
"""

from __future__ import annotations

from typing import Any

from evalfw.metrics.bleu.components import Preset
from evalfw.metrics.bleu.text import SACREBLEU_VERSION
from evalfw.plugin import hookimpl
from evalfw.tokenizers.base import Tokenizer


def sacrebleu_tokenizer_signature(tokenizer: Tokenizer) -> str | None:
    """What sacreBLEU's signature calls this tokenizer (``tok:<this>``), or None if it is not
    one of sacreBLEU's (see ``Tokenizer.sacrebleu_signature``)."""
    return tokenizer.sacrebleu_signature()


class SacreBleuPreset(Preset):
    name = "sacrebleu"
    description = "sacreBLEU 2.6.0 defaults: 13a, exp smoothing, closest ref length, 0-100"
    settings = {
        "tokenizer": "13a",
        "counter": {"name": "clipped", "total_floor": 0},
        "brevity_penalty": {"name": "closest", "formula": "sacrebleu"},
        "smoothing": "exp",
        "mean": {"name": "sacrebleu", "effective_order": False},
        "max_order": 4,
        "lowercase": False,
    }

    def foreign_signature(self, spec: Any, nrefs: int | str) -> str | None:
        tok = sacrebleu_tokenizer_signature(spec.tokenizer)
        smooth = getattr(spec.smoothing, "sacrebleu_signature", None)
        if tok is None or not callable(smooth):
            return None
        expressible = (
            spec.counter.name == "clipped" and spec.counter.options["total_floor"] == 0
            and spec.brevity_penalty.name == "closest"
            and spec.brevity_penalty.options["formula"] == "sacrebleu"
            and spec.mean.name == "sacrebleu" and spec.weights is None
        )
        if not expressible:
            return None
        eff = "yes" if spec.mean.options["effective_order"] else "no"
        case = "lc" if spec.lowercase else "mixed"
        return (f"nrefs:{nrefs}|case:{case}|eff:{eff}|tok:{tok}|smooth:{smooth()}"
                f"|version:{SACREBLEU_VERSION}")


class NltkPreset(Preset):
    name = "nltk"
    description = "NLTK 3.10.4 corpus_bleu: whitespace tokens, method0, scores 0-1"
    settings = {
        "tokenizer": "none",
        "counter": {"name": "clipped", "total_floor": 1},
        "brevity_penalty": {"name": "closest", "formula": "nltk"},
        "smoothing": "method0",
        "mean": "nltk",
        "max_order": 4,
        "lowercase": False,
    }


class MultiBleuPreset(Preset):
    name = "multi-bleu"
    description = "Moses multi-bleu.perl: whitespace tokens, no smoothing, 0-100"
    settings = {
        "tokenizer": "none",
        "counter": {"name": "clipped", "total_floor": 0},
        "brevity_penalty": {"name": "closest", "formula": "sacrebleu"},
        "smoothing": "plain",
        "mean": "multi-bleu",
        "max_order": 4,
        "lowercase": False,
    }


class TorchmetricsPreset(Preset):
    name = "torchmetrics"
    description = "torchmetrics BLEUScore rules (first-listed tie), plain precisions, 0-1"
    settings = {
        "tokenizer": "none",
        "counter": {"name": "clipped", "total_floor": 0},
        "brevity_penalty": {"name": "closest-first", "formula": "sacrebleu"},
        "smoothing": "plain",
        "mean": "geometric",
        "max_order": 4,
        "lowercase": False,
    }


@hookimpl
def evalfw_register_presets() -> list[type[Preset]]:
    return [SacreBleuPreset, NltkPreset, MultiBleuPreset, TorchmetricsPreset]


__all__ = [
    "evalfw_register_presets", "MultiBleuPreset", "NltkPreset", "sacrebleu_tokenizer_signature",
    "SACREBLEU_VERSION", "SacreBleuPreset", "TorchmetricsPreset",
]
