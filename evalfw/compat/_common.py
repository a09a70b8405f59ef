"""What sacreBLEU 2.6.0's metric classes share, for the drop-ins in :mod:`evalfw.compat._bleu`,
:mod:`evalfw.compat._chrf` and :mod:`evalfw.compat._ter`: the score object's text forms, the
signature, the argument checks, reference caching and the bootstrap interval (drawn by
:mod:`evalfw.analysis.sacrebleu_mode`, as sacreBLEU draws it).

A drop-in metric subclasses :class:`SacreMetric` over an evalfw metric (``_metric``) and says
how to build its score object from statistics.
"""

from __future__ import annotations

import json
import logging
from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.base import Metric

__all__ = ["SacreMetric", "SacreScore", "SacreSignature", "check_corpus_args", "set_warning_sink",
           "warn"]

#: where sacreBLEU's warnings go; None: the ``evalfw.compat.sacrebleu`` logger
_sink: Callable[[str], None] | None = None


def set_warning_sink(sink: Callable[[str], None] | None) -> None:
    """Send the drop-ins' warnings to ``sink`` instead of the logger (the drop-in command
    line prints them as sacreBLEU's does)."""
    global _sink
    _sink = sink


def warn(message: str) -> None:
    """A warning with sacreBLEU's text."""
    if _sink is not None:
        _sink(message)
        return
    logging.getLogger("evalfw.compat.sacrebleu").warning(message)


class SacreScore:
    """sacreBLEU's ``Score``: ``name``, ``score``, ``format()``, ``str()`` and the bootstrap
    fields ``_mean`` and ``_ci`` (``μ = … ± …`` is shown when the mean is positive)."""

    #: the text after the score (BLEU's precisions and brevity penalty; none for chrF, TER)
    _verbose = ""

    def __init__(self, name: str, score: Any) -> None:
        self.name = name
        self.score = score
        self._mean: Any = -1.0
        self._ci: Any = -1.0

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False) -> str:
        sc = f"{self.score:.{width}f}"
        d: dict[str, Any] = {"name": self.name, "score": float(sc), "signature": signature}
        if self._mean > 0:
            mean, ci = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            conf = f"μ = {mean} ± {ci}"
            sc += f" ({conf})"
            if is_json:
                d.update(confidence_mean=float(mean), confidence_var=float(ci), confidence=conf)
        line = f"{self.name}|{signature}" if signature else self.name
        line = f"{line} = {sc}"
        verbose = self._verbose  # a property of BLEU's: formatted once
        if verbose:
            line += f" {verbose}"
            d["verbose_score"] = verbose
        if score_only:
            return sc
        if is_json:
            for pair in signature.split("|"):
                key, value = pair.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        return line

    def estimate_ci(self, scores: Sequence[Any]) -> None:
        """sacreBLEU's interval of resampled scores (``.score`` of each): half the spread of
        the 2.5 % and 97.5 % order statistics, and their ``statistics.mean``."""
        from evalfw.analysis.sacrebleu_mode import estimate_ci

        self._mean, self._ci, _, _ = estimate_ci([getattr(s, "score", s) for s in scores])

    def __repr__(self) -> str:
        return self.format()

    __str__ = __repr__


class SacreSignature:
    """sacreBLEU's ``Signature``: ``key:value`` pairs joined by ``|`` (booleans as yes/no,
    None left out), long or with the abbreviations of ``_ABBR`` (``short=True``)."""

    _ABBR: dict[str, str] = {}

    def __init__(self, info: dict[str, Any]) -> None:
        self.info = info

    def format(self, short: bool = False) -> str:
        pairs = []
        for key, value in self.info.items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._ABBR[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value
        self.info["version"] = self.info.pop("version")  # version stays last

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__

    @classmethod
    def of(cls, metric: Any, **fields: Any) -> Self:
        """sacreBLEU's ``get_signature()`` of a drop-in metric object: its references counted
        (``nrefs``, ``var`` when they vary), resampling settings, then the metric's own
        ``fields`` and sacreBLEU's version last."""
        if not hasattr(metric, "num_refs"):
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        from evalfw.metrics.bleu.text import SACREBLEU_VERSION

        return cls({"nrefs": "var" if metric.num_refs == -1 else metric.num_refs,
                    "bs": metric.n_bootstrap, "ar": None, "seed": metric.seed,
                    **fields, "version": SACREBLEU_VERSION})


def check_corpus_args(prefix: str, hyps: Any, refs: Any) -> None:
    """sacreBLEU's ``corpus_score`` argument checks, the same for every metric; the class
    name (``prefix``) leads the message."""
    err = None
    if not isinstance(hyps, Sequence):
        err = "`hyps` should be a sequence of strings."
    elif not isinstance(hyps[0], str):
        err = "Each element of `hyps` should be a string."
    elif any(line is None for line in hyps):
        err = "Undefined line in hypotheses stream!"
    if refs is not None:
        if not isinstance(refs, Sequence):
            err = "`refs` should be a sequence of sequence of strings."
        elif not isinstance(refs[0], Sequence):
            err = "Each element of `refs` should be a sequence of strings."
        elif not isinstance(refs[0][0], str) and refs[0][0] is not None:
            err = "`refs` should be a sequence of sequence of strings."
    if err:
        raise TypeError(f"{prefix}: {err}")


class SacreMetric:
    """sacreBLEU's ``Metric`` plumbing over an evalfw metric (``self._metric``): cached or
    passed references, ``corpus_score`` with an optional bootstrap, ``sentence_score``."""

    _metric: Metric
    _ref_cache: Any = None
    n_bootstrap: int | None = None
    seed: str | None = None
    num_refs: int

    @abstractmethod
    def _result(self, stats: Any) -> SacreScore:
        """The score object of these statistics."""

    def _index(self, references: Sequence[Sequence[str | None]]) -> Any:
        refs = self._metric.prepare_references(references)
        per_seg = {int(k) for k in refs.counts}
        self.num_refs = per_seg.pop() if len(per_seg) == 1 else -1
        return refs

    def _references(self, references: Sequence[Sequence[str | None]] | None) -> Any:
        """Prepared references: these (which become the number of references), or the
        cached ones."""
        if references:
            return self._index(references)
        if self._ref_cache is not None:
            return self._ref_cache
        raise RuntimeError("No references provided and the cache is empty.")

    def _stats(self, hypotheses: Sequence[str],
               references: Sequence[Sequence[str | None]] | None) -> Any:
        return self._metric.segment_statistics(hypotheses, self._references(references))

    def _rows(self, stats: Any) -> np.ndarray:
        """The evalfw metric's statistics rows of ``stats``."""
        return stats  # type: ignore[no-any-return]

    def _resampling_input(self, hypotheses: Sequence[str]) -> tuple[Metric, np.ndarray, Any]:
        """For paired tests: evalfw's metric, its statistics rows of ``hypotheses`` (against
        the cached references) and their score."""
        stats = self._stats(hypotheses, None)
        return self._metric, self._rows(stats), self._result(stats)

    def corpus_score(self, hypotheses: Sequence[str],
                     references: Sequence[Sequence[str]] | None,
                     n_bootstrap: int = 1) -> Any:
        check_corpus_args(type(self).__name__, hypotheses, references)
        stats = self._stats(hypotheses, references)
        score = self._result(stats)
        if n_bootstrap > 1:
            from evalfw.analysis.resampling import columns
            from evalfw.analysis.sacrebleu_mode import raw_bootstrap_scores, read_seed

            seed = read_seed(bounded=False)  # $SACREBLEU_SEED as sacreBLEU reads it
            rows = columns(self._metric, self._rows(stats))
            score.estimate_ci(raw_bootstrap_scores(self._metric, [rows], n_bootstrap,
                                                   seed.value)[0])
            self.n_bootstrap, self.seed = n_bootstrap, seed.label
        return score

    def _check_sentence_args(self, hypothesis: Any, references: Any) -> None:
        prefix = type(self).__name__
        if not isinstance(hypothesis, str):
            raise TypeError(f"{prefix}: The argument `hyp` should be a string.")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError(f"{prefix}: The argument `refs` should be a sequence of strings.")
        if not isinstance(references[0], str) and references[0] is not None:
            raise TypeError(f"{prefix}: Each element of `refs` should be a string.")

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> Any:
        self._check_sentence_args(hypothesis, references)
        return self._result(self._stats([hypothesis], [[r] for r in references]))
