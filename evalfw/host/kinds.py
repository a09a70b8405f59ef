"""The one list of component kinds. Hooks, registries and ``evalfw plugins`` derive from it.

Each entry is a contract class. Its ``kind`` is the kind's one word: the registry key, the
config key where components of the kind are chosen, and the word in error messages. Its
``plural`` names the hook that registers it: ``evalfw_register_<plural>``. A new kind is
one contract class added here.
"""

from __future__ import annotations

from evalfw.analysis.bucketing import Bucketer
from evalfw.checks.base import Check
from evalfw.executors.base import Executor
from evalfw.metrics.base import Metric
from evalfw.metrics.bleu.components import BrevityPenalty, Mean, NgramCounter, Preset, Smoother
from evalfw.plugin.component import Component
from evalfw.reports.base import Reporter
from evalfw.tokenizers.base import Tokenizer

KINDS: tuple[type[Component], ...] = (
    Metric,
    Tokenizer,
    NgramCounter,
    BrevityPenalty,
    Smoother,
    Mean,
    Preset,
    Reporter,
    Bucketer,
    Executor,
    Check,
)


def hook_name(contract: type[Component]) -> str:
    """The hook that registers components of ``contract``'s kind."""
    return f"evalfw_register_{contract.plural}"


#: hook name -> the contract class its results must subclass
HOOKS: dict[str, type[Component]] = {hook_name(c): c for c in KINDS}
#: kind word -> contract class
BY_KIND: dict[str, type[Component]] = {c.kind: c for c in KINDS}


__all__ = ["BY_KIND", "hook_name", "HOOKS", "KINDS"]
