"""One chrF segment per call: the path of sentence-score loops (RL rewards, data filtering),
where preparing references and building statistics rows costs more than the counting.

A new segment (hypothesis and references, all plain ``str``) is scored by the compiled
kernel's ``sentence``, which counts the hypothesis against each reference and applies
sacreBLEU's F-score formula in C, bit-identical to :func:`evalfw.metrics.chrf.core.f_score`
(the same double operations in the same order). A segment seen before under the same options
(systems often agree on a line; a loop may score a line twice) is answered from a cache.

The caches are plain dictionaries emptied when full: one per :class:`ChrfConfig` (every
option that changes a number), so a result is only ever reused under the options it was
computed with. Whenever a piece is missing (no kernel, ``EVALFW_NATIVE=0``, options outside
the metric's limits, a reference that is None or not a ``str``) the caller's general path
computes the same number, and it is kept the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from evalfw.limits import LIMITS
from evalfw.metrics.chrf import core

__all__ = ["OneChrf", "plain_config", "CACHE_SEGMENTS"]

#: segments whose scores are kept per set of options (a score and the key's strings each)
CACHE_SEGMENTS = 1 << 16
#: sets of options whose caches are kept
CACHE_CONFIGS = 16

#: per options, (hypothesis, *references) -> (score, references counted)
_SEEN: dict[tuple[core.ChrfConfig, tuple[type, ...]],
            dict[tuple[str | None, ...], tuple[float, int]]] = {}


def plain_config(config: core.ChrfConfig) -> bool:
    """Whether ``config`` holds options the chrF metric accepts (:data:`evalfw.limits.LIMITS`),
    of the plain types the compiled path reads (int orders, an int or float beta, bool
    flags)."""
    orders_ok = all(type(v) is int and LIMITS[k].problem(v) is None
                    for k, v in (("char_order", config.char_order),
                                 ("word_order", config.word_order))) and config.orders > 0
    beta_ok = type(config.beta) in (int, float) and \
        LIMITS["beta"].low <= config.beta <= LIMITS["beta"].high
    return orders_ok and beta_ok and all(type(v) is bool for v in config[3:])


class OneChrf:
    """Scores of single segments under ``config`` (see the module docstring)."""

    def __init__(self, config: core.ChrfConfig) -> None:
        self._config = config
        self._plain = plain_config(config)
        # beta ** 2 as the Python formula computes it (exact for the ints allowed)
        self._factor = float(config.beta ** 2) if self._plain else 0.0
        # the options' types too: 2 == 2.0 and 0 == False, and a cache is only shared where
        # the arithmetic is the same
        options = (config, tuple(type(v) for v in config))
        if options not in _SEEN and len(_SEEN) >= CACHE_CONFIGS:
            _SEEN.clear()
        #: this config's cache; every instance with equal options shares it
        self.seen = _SEEN.setdefault(options, {})

    def result(self, hypothesis: str, references: Sequence[str | None],
               general: Callable[[str, Sequence[str | None]], tuple[float, int]]
               ) -> tuple[float, int]:
        """(score, references counted) of the segment: from the cache, else from the kernel,
        else from ``general(hypothesis, references)``; kept for the next call."""
        key = (hypothesis, *references)
        try:
            found = self.seen.get(key)
        except TypeError:  # an unhashable reference: the general path says what is wrong
            return general(hypothesis, references)
        if found is None:
            found = self._fresh(hypothesis, references)
            if found is None:
                found = general(hypothesis, references)
            if len(self.seen) >= CACHE_SEGMENTS:
                self.seen.clear()
            self.seen[key] = found
        return found

    def _fresh(self, hypothesis: str, references: Sequence[str | None]
               ) -> tuple[float, int] | None:
        """The kernel's (score, references counted), or None to decline."""
        native = core.kernel()
        if native is None or not self._plain or type(hypothesis) is not str or \
                not references or any(type(r) is not str for r in references):
            return None
        c = self._config
        refs = references if type(references) in (list, tuple) else list(references)
        if c.lowercase:
            hypothesis = hypothesis.lower()
            refs = [r.lower() for r in refs]  # type: ignore[union-attr]
        return native.sentence(hypothesis, refs, c.char_order, c.word_order, c.whitespace,
                               self._factor, c.eps_smoothing), len(refs)
