"""``embed-sim``: an example model-based metric for evalfw.

The model embeds a text as the normalised sum of fixed random vectors of its character
trigrams (hashed into ``buckets`` rows with CRC-32, so every process and machine builds the
same model from its seed); a segment's score is the cosine similarity of the hypothesis with
its closest reference, in [-1, 1], higher is better. It is small enough to be built by the
plugin itself when loaded, so nothing is downloaded, and it shows the whole contract of
:class:`evalfw.ModelMetric`: a model name and version, ``load`` once per device, batched
``predict``, options that change scores (``dim``) next to those that do not (``batch_size``,
``device``, ``cache``). See the package README for what a COMET plugin looks like.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

import evalfw

__version__ = "0.1.0"


class TrigramModel:
    """Character-trigram embeddings: ``buckets`` x ``dim`` fixed random vectors."""

    def __init__(self, dim: int, buckets: int = 1 << 14, seed: int = 20240601) -> None:
        rng = np.random.default_rng(seed)
        self.table = rng.standard_normal((buckets, dim)).astype(np.float64)
        self.buckets = buckets

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.table.shape[1]))
        for i, text in enumerate(texts):
            padded = f"  {' '.join(text.split())}  "
            rows = [zlib.crc32(padded[j:j + 3].encode("utf-8")) % self.buckets
                    for j in range(len(padded) - 2)]
            vector = self.table[rows].sum(axis=0)
            norm = float(np.linalg.norm(vector))
            out[i] = vector / norm if norm else vector
        return out


class EmbedSim(evalfw.ModelMetric):
    name = "embed-sim"
    version = "1"
    description = "cosine of character-trigram embeddings, closest reference (example model)"
    model_name = "evalfw-embed-sim/char3"
    model_version = __version__
    #: a cosine: 1 is a perfect score (a metric declaring none gets it inferred from its scores)
    score_scale = 1
    #: a cosine similarity
    score_range = (-1.0, 1.0)
    #: a few hundred trigram lookups per segment: far cheaper than a neural model
    cost_per_segment = 1e-4
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            **evalfw.ModelMetric.options_schema["properties"],
            "dim": {"type": "integer", "minimum": 8, "maximum": 1024, "default": 128,
                    "description": "embedding size (changes the model, and the scores)"},
        },
        "additionalProperties": False,
    }

    def load(self, device: str) -> TrigramModel:
        if device != "cpu":
            raise ValueError(f"this model runs on the CPU only, not on {device!r}")
        return TrigramModel(self.options["dim"])

    def predict(self, model: TrigramModel, batch: Sequence[evalfw.ModelInput]) -> list[float]:
        hyps = model.embed([x.hypothesis for x in batch])
        out = []
        for vector, item in zip(hyps, batch):
            refs = model.embed(item.references)
            out.append(float(max(refs @ vector)) if len(refs) else 0.0)
        return out


@evalfw.hookimpl
def evalfw_register_metrics() -> list[type[evalfw.Metric]]:
    return [EmbedSim]


__all__ = ["EmbedSim", "TrigramModel", "evalfw_register_metrics"]
