"""``comet``: COMET scores in evalfw, computed by ``unbabel-comet``'s own code.

The metric loads a checkpoint with ``comet.load_from_checkpoint`` and scores with the model's
own ``predict`` (its batching, its length sorting, its system score: the mean), so a segment's
score is COMET's. evalfw adds what :class:`evalfw.ModelMetric` gives every model metric: each
(source, hypothesis, reference) scored once, cached by the checkpoint's sha256 and the
texts (re-runs, ``evalfw verify`` and ``evalfw compare`` never run the model again; neither
torch nor COMET is imported when every score is cached), and then intervals, paired tests,
buckets and reports on the metric's own 0-1 scale.

Options: ``model`` (a checkpoint path, its directory, or a hub name: see
:mod:`evalfw_comet.checkpoint`), ``batch_size``, ``device`` (``cpu``, ``cuda``, ``cuda:1``)
and ``multi_reference`` (how a segment with several references is scored: ``mean`` of the
model's score against each, or ``first`` reference only). A reference-free (quality
estimation) checkpoint reads the source and the hypothesis only.
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Sequence
from typing import Any, ClassVar

import evalfw
from evalfw.errors import ConfigError
from evalfw.metrics.base import SegmentContext
from evalfw_comet.checkpoint import Checkpoint, quiet_libraries, resolve

__version__ = "0.1.0"

#: the packages whose versions can change a COMET score: recorded, and in the cache key
PACKAGES = ("unbabel-comet", "torch", "transformers")


@functools.cache  # asked for every cache key and signature; installed versions do not change
def package_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


class Comet(evalfw.ModelMetric):
    name = "comet"
    version = "1"
    description = "COMET through unbabel-comet's own load_from_checkpoint and predict"
    model_name = "comet"
    model_version = __version__
    score_scale = 1
    own_batching = True
    #: imported when scoring; ``evalfw plugins`` imports it to report a broken install
    imports = ("comet",)
    #: evalfw score -m comet --comet-model CKPT --source src.txt --comet-batch-size 64
    cli_flags = (evalfw.MetricFlag("model"), evalfw.MetricFlag("batch_size"),
                 evalfw.MetricFlag("device"), evalfw.MetricFlag("multi_reference"))
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            **evalfw.ModelMetric.options_schema["properties"],
            "model": {"type": "string", "minLength": 1,
                      "description": "a COMET checkpoint (checkpoints/model.ckpt or the "
                                     "directory holding it; relative to the current "
                                     "directory), or a hub name such as "
                                     "Unbabel/wmt22-comet-da"},
            "multi_reference": {"enum": ["mean", "first"], "default": "mean",
                                "description": "a segment with several references: the mean "
                                               "of its scores against each, or the first's"},
        },
        "required": ["model"],
        "additionalProperties": False,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.checkpoint: Checkpoint = resolve(self.options["model"])

    # ------------------------------------------------------------------ identity and record

    def cache_identity(self) -> tuple[str, ...]:
        versions = package_versions()
        return ("comet", self.checkpoint.sha256, *(f"{k}={versions[k]}" for k in PACKAGES))

    def model_label(self) -> str:
        return f"{self.checkpoint.name}@sha256:{self.checkpoint.sha256[:12]}"

    def output_options(self) -> dict[str, Any]:
        # the checkpoint is named by its content (cache_identity), not by where it lies
        out = {k: v for k, v in super().output_options().items() if k != "model"}
        if not self.uses_references():
            out.pop("multi_reference", None)
        return out

    def uses_references(self) -> bool:
        return not self.checkpoint.reference_free

    def definition(self) -> dict[str, Any]:
        return {**super().definition(),
                "checkpoint": {"sha256": self.checkpoint.sha256,
                               "reference_free": self.checkpoint.reference_free}}

    @classmethod
    def implementation(cls) -> str | None:
        return ", ".join(f"{k} {v}" for k, v in package_versions().items())

    # ------------------------------------------------------------------ the model

    def segment_statistics(self, hypotheses: Sequence[str], references: Any,
                           context: SegmentContext | None = None) -> Any:
        if hypotheses and (context is None or context.source is None):  # before any loading
            raise ConfigError("COMET reads the source: give the test set a source: file "
                              "(evalfw score: --source FILE)")
        return super().segment_statistics(hypotheses, references, context)

    def load(self, device: str) -> Any:
        with quiet_libraries():
            from comet import load_from_checkpoint

            model = load_from_checkpoint(str(self.checkpoint.path))
            model.eval()
        return model

    def predict(self, model: Any, batch: Sequence[evalfw.ModelInput]) -> list[float]:
        # one sample per (source, hypothesis, reference) triple, each distinct triple once
        samples: dict[tuple[str, str, str | None], int] = {}
        wanted: list[list[int]] = []
        for item in batch:
            refs: Sequence[str | None] = item.references or (None,)
            if self.options["multi_reference"] == "first":
                refs = refs[:1]
            wanted.append([samples.setdefault((item.source or "", item.hypothesis, ref),
                                              len(samples)) for ref in refs])
        data = [{"src": s, "mt": h, **({"ref": r} if r is not None else {})}
                for s, h, r in samples]
        if self.uses_references() and any(not item.references for item in batch):
            raise ConfigError(f"COMET checkpoint {self.checkpoint.name} needs a "
                              "reference for every segment")
        with quiet_libraries():
            scores = _predict(model, data, self.options["batch_size"], self.options["device"])
        return [sum(scores[i] for i in ids) / len(ids) for ids in wanted]


def _predict(model: Any, data: list[dict[str, str]], batch_size: int, device: str) -> list[float]:
    """COMET's own predict on ``device`` (``cpu``, ``cuda`` or ``cuda:N``)."""
    if device == "cpu":
        gpus, devices = 0, None
    elif device == "cuda":
        gpus, devices = 1, None
    elif device.startswith("cuda:") and device[5:].isdigit():
        gpus, devices = 1, [int(device[5:])]
    else:
        raise ConfigError(f"COMET runs on cpu, cuda or cuda:N, not on {device!r}")
    import logging

    # Lightning announces its trainer and devices on every predict call
    for name in ("pytorch_lightning", "lightning.pytorch", "lightning_fabric"):
        logging.getLogger(name).setLevel(logging.WARNING)
    out = model.predict(data, batch_size=batch_size, gpus=gpus, devices=devices,
                        progress_bar=False, num_workers=0)
    return [float(s) for s in out.scores]


@evalfw.hookimpl
def evalfw_register_metrics() -> list[type[evalfw.Metric]]:
    return [Comet]


__all__ = ["Comet", "evalfw_register_metrics", "package_versions"]
