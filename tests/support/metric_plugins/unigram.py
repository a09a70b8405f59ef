"""Two metrics written only for the test suite, as a third-party author would write them: one
file, one hook. They prove that everything downstream of scoring works through the Metric
contract alone (score, run with significance and buckets, show, verify, compare, reports).

- ``unigram-f1``: F1 of whitespace words against the best-matching reference, 0-100, higher
  is better;
- ``unigram-error``: the share of unmatched words, 0-100, lower is better (it flips every
  "better"/"worse").

Statistics per segment: [matched words, hypothesis words, reference words].
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

import evalfw


def _stats(hyp: str, refs: Sequence[str | None]) -> list[int]:
    words = Counter(hyp.split())
    best = [-1, 0, 0]
    for ref in refs:
        if ref is None:
            continue
        ref_words = Counter(ref.split())
        matched = sum(min(n, ref_words[w]) for w, n in words.items())
        if matched > best[0]:
            best = [matched, sum(words.values()), sum(ref_words.values())]
    return best


class UnigramF1(evalfw.Metric):
    name = "unigram-f1"
    version = "1"
    description = "F1 of whitespace words against the best-matching reference (test metric)"

    def segment_statistics(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        return np.array([_stats(h, refs) for h, refs in zip(hypotheses, zip(*references))],
                        dtype=np.int64).reshape(len(hypotheses), 3)

    def score(self, statistics: np.ndarray) -> float:
        matched, hyp, ref = statistics.sum(axis=0).tolist()
        return 100.0 * 2 * matched / (hyp + ref) if hyp + ref else 0.0

    def signature(self, nrefs: int | str) -> str:
        return f"nrefs:{nrefs}|tok:whitespace|{self.name}:{self.version}"

    def lengths(self, statistics: np.ndarray) -> evalfw.SegmentLengths:
        return evalfw.SegmentLengths(statistics[:, 1], statistics[:, 2])


class UnigramError(UnigramF1):
    name = "unigram-error"
    description = "unmatched whitespace words in percent, lower is better (test metric)"
    higher_is_better = False

    def score(self, statistics: np.ndarray) -> float:
        return 100.0 - super().score(statistics)


@evalfw.hookimpl
def evalfw_register_metrics() -> list[type[evalfw.Metric]]:
    return [UnigramF1, UnigramError]
