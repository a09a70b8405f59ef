"""The contract for metrics whose segment scores come from a model (COMET, BLEURT, MetricX, an
embedding similarity, ...). A plugin implements two methods, and gets batching, a device
option, a segment-score cache and everything evalfw does with a metric::

    class MyComet(ModelMetric):
        name = "my-comet"
        model_name = "Unbabel/wmt22-comet-da"     # what the scores depend on: recorded,
        model_version = "1.0"                     # in the signature and in the cache key

        def load(self, device):                   # once per process and device
            return load_checkpoint(self.options["checkpoint"], device)

        def predict(self, model, batch):          # batch: list of ModelInput
            return model.score([(x.source, x.hypothesis, x.references[0]) for x in batch])

Segments go to ``predict`` in batches of ``batch_size`` (an option, like ``device``), only
those whose score is not cached yet, each distinct input once, sorted by length (so a batch
pads little): the cache (:mod:`evalfw.metrics._score_cache`) is keyed by the model's identity
(:meth:`ModelMetric.cache_identity`: name and version by default), the options that change
scores and the segment's texts, so a re-run, ``evalfw verify`` and another system with the same
line do not run the model again. A library with its own batching loop (COMET's ``predict``)
sets ``own_batching`` and gets every pending input in one call. Scores must be finite numbers; the
corpus score is their mean (:class:`~evalfw.metrics.segment_mean.SegmentMean`); its scale is
the class's ``score_scale`` (declare it), or inferred from the scores when the class declares
none. A model must
be on the machine already (installed with the plugin, or at a path given as an option): a
metric never downloads at run time.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.errors import EvalfwError, InputError, PluginError
from evalfw.limits import LIMITS
from evalfw.metrics._returns import outside
from evalfw.metrics.base import SegmentContext
from evalfw.metrics.segment_mean import SegmentMean

if TYPE_CHECKING:
    import numpy as np

#: options every model metric has; they change where and how fast, never a score
RUN_OPTIONS: dict[str, Any] = {
    "batch_size": LIMITS["batch_size"].schema(default=32, description="segments per model call"),
    "device": {"type": "string", "minLength": 1, "default": "cpu",
               "description": "where the model runs (cpu, cuda, cuda:1, ...)"},
    "cache": {"type": "boolean", "default": True,
              "description": "reuse cached segment scores of the same model and texts"},
    "resources": {"type": "object",
                  "additionalProperties": {"type": "number", "exclusiveMinimum": 0},
                  "description": "Dask worker resources the model's tasks need, e.g. "
                                 "{GPU: 1}; default: {GPU: 1} on a cuda device, else none"},
}


@dataclass(frozen=True)
class ModelInput:
    """One segment as a model sees it."""

    source: str | None
    hypothesis: str
    references: tuple[str, ...]


class ModelMetric(SegmentMean):
    """Base of metrics scored by a model (see the module docstring)."""

    #: the model the scores come from, and its version (a checkpoint name, a hash)
    model_name: ClassVar[str]
    model_version: ClassVar[str] = "1"
    #: what a perfect score is (1 for COMET): declare it; None infers it from the scores of
    #: every system scored (:func:`evalfw.metrics.scales.infer_scale`), never a silent 100
    score_scale: float | None = None
    wants_context = True
    #: CPU seconds per segment of a model's prediction (a COMET-sized model on a CPU core
    #: takes about this): declare another for a much smaller or larger model
    cost_per_segment: ClassVar[float | None] = 0.05
    options_schema: ClassVar[Mapping[str, Any]] = {
        "type": "object", "properties": dict(RUN_OPTIONS), "additionalProperties": False}

    #: True: ``predict`` gets every pending input at once (sorted by length) and batches them
    #: itself by the ``batch_size`` option, as a library with its own batching loop does
    own_batching: ClassVar[bool] = False

    # loaded models per (class, device, model identity), shared by every instance in this
    # process: a metric is built per test set, and loading a model is the expensive part
    _models: ClassVar[dict[tuple[Any, ...], Any]] = {}

    @property
    def resources(self) -> dict[str, float]:
        """On Dask, a model on a GPU runs only on workers started with ``--resources GPU=1``
        (the ``resources`` option names others, or ``{}`` for any worker); on the CPU, any
        worker will do."""
        given = self.options.get("resources")
        if given is not None:
            return dict(given)
        return {"GPU": 1} if str(self.options.get("device", "cpu")).startswith("cuda") else {}

    @abstractmethod
    def load(self, device: str) -> Any:
        """The model, ready to predict on ``device`` (called once per process and device)."""

    @abstractmethod
    def predict(self, model: Any, batch: Sequence[ModelInput]) -> Sequence[float]:
        """One score per input of ``batch``."""

    def output_options(self) -> dict[str, Any]:
        """The options that change scores (all but batch size, device and cache)."""
        return {k: v for k, v in self.options.items() if k not in RUN_OPTIONS}

    def cache_identity(self) -> tuple[str, ...]:
        """What the model's scores depend on besides options and texts: the model's name and
        version by default. A metric whose model is an option (a checkpoint path) returns
        its content's identity, so a moved file keeps its cached scores."""
        return (self.model_name, self.model_version)

    def uses_references(self) -> bool:
        """False for a reference-free (quality estimation) model: its inputs and cache keys
        then carry no references, and its scores do not change with them."""
        return True

    def model_label(self) -> str:
        """How signatures and messages name the model: ``name@version``."""
        return f"{self.model_name}@{self.model_version}"

    @staticmethod
    def input_length(item: ModelInput) -> int:
        """The sort key of batching: characters the model reads for ``item``."""
        return len(item.source or "") + len(item.hypothesis) + sum(map(len, item.references))

    def model(self) -> Any:
        key = (type(self), self.options["device"], self.cache_identity())
        if key not in ModelMetric._models:
            try:
                ModelMetric._models[key] = self.load(self.options["device"])
            except Exception as exc:
                raise PluginError(f"metric '{self.name}': loading model {self.model_label()} on "
                                  f"{self.options['device']} failed: {type(exc).__name__}: "
                                  f"{exc}") from exc
        return ModelMetric._models[key]

    def segment_statistics(self, hypotheses: Sequence[str], references: Any,
                           context: SegmentContext | None = None) -> np.ndarray:
        from evalfw.metrics import _score_cache

        source = context.source if context is not None else None
        refs = zip(*references) if self.uses_references() else ((),) * len(hypotheses)
        inputs = [ModelInput(None if source is None else source[i], hyp,
                             tuple(r for r in seg_refs if r is not None))
                  for i, (hyp, seg_refs) in enumerate(zip(hypotheses, refs))]
        options, identity = self.output_options(), list(self.cache_identity())
        keys = [_score_cache.key(identity[0], "|".join(identity[1:]), options, x.source,
                                 x.hypothesis, x.references) for x in inputs]
        cache = _score_cache.ScoreCache() if self.options["cache"] else None
        known = cache.get(keys, self.score_range) if cache is not None else {}
        # each distinct input once: the first segment that has it
        first: dict[str, int] = {}
        for i, k in enumerate(keys):
            if k not in known:
                first.setdefault(k, i)
        fresh = self._predict_all([inputs[i] for i in first.values()],
                                  [i + 1 for i in first.values()])
        scores = dict(zip(first, fresh))
        if cache is not None:
            cache.put(scores.items())
            cache.close()
        return self.rows([known[k] if k in known else scores[k] for k in keys])

    def _predict_all(self, inputs: Sequence[ModelInput], segments: Sequence[int]) -> list[float]:
        """Scores of ``inputs`` (segment numbers ``segments``, for messages), predicted in
        batches of similar length."""
        out = [0.0] * len(inputs)
        if not inputs:
            return out
        order = sorted(range(len(inputs)), key=lambda i: self.input_length(inputs[i]))
        model, size = self.model(), self.options["batch_size"]
        step = len(order) if self.own_batching else size
        for start in range(0, len(order), step):
            part = order[start:start + step]
            batch = [inputs[i] for i in part]
            where = _segments_text([segments[i] for i in part])
            try:
                got = [float(s) for s in self.predict(model, batch)]
            except EvalfwError:
                raise
            except Exception as exc:
                raise PluginError(f"metric '{self.name}' raised {type(exc).__name__}: {exc} "
                                  f"scoring {where}") from exc
            if len(got) != len(batch):
                raise PluginError(f"metric '{self.name}' returned {len(got)} scores for a "
                                  f"batch of {len(batch)} ({where})")
            bad = next((i for i, s in enumerate(got) if not math.isfinite(s)), None)
            if bad is not None:
                raise InputError(f"metric '{self.name}' scored segment {segments[part[bad]]} "
                                 f"{got[bad]!r}; model scores must be finite")
            bounds = self.score_range
            bad = next((i for i, s in enumerate(got) if outside(s, bounds)), None)
            if bad is not None:
                raise PluginError(f"metric '{self.name}' scored segment "
                                  f"{segments[part[bad]]} {got[bad]!r}, outside its "
                                  f"score_range {bounds!r}")
            for i, score in zip(part, got):
                out[i] = score
        return out

    def signature(self, nrefs: int | str) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.output_options().items()))
        return (f"nrefs:{nrefs}|model:{self.model_label()}"
                + (f"[{opts}]" if opts else "") + f"|{self.name}:{self.version}")

    def statistics_key(self) -> Any:
        return (type(self).__module__, type(self).__qualname__, self.name, self.version,
                *self.cache_identity(), repr(sorted(self.output_options().items())))


def _segments_text(numbers: Sequence[int]) -> str:
    """``segments 3, 8, 12`` (the first few of a batch)."""
    shown = ", ".join(map(str, sorted(numbers)[:5]))
    return f"segment{'s' if len(numbers) > 1 else ''} {shown}" + \
        (f" and {len(numbers) - 5} more" if len(numbers) > 5 else "")


__all__ = ["ModelInput", "ModelMetric", "RUN_OPTIONS"]
