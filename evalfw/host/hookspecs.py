"""The plugin API: every hook a plugin may implement, and nothing else.

There is one hook per component kind (:mod:`evalfw.host.kinds`), named
``evalfw_register_<plural>``; each takes no arguments and returns the component *classes* the
plugin provides, which the host instantiates with options from a config or the command line.
Built-in components use exactly these hooks. The hooks are generated from the list of kinds,
so a kind and its hook cannot drift apart:

=================================  =========================================================
hook                               returns subclasses of
=================================  =========================================================
evalfw_register_metrics            :class:`evalfw.metrics.base.Metric`
evalfw_register_tokenizers         :class:`evalfw.tokenizers.base.Tokenizer`
evalfw_register_counters           :class:`evalfw.metrics.bleu.components.NgramCounter`
evalfw_register_brevity_penalties  :class:`evalfw.metrics.bleu.components.BrevityPenalty`
evalfw_register_smoothers          :class:`evalfw.metrics.bleu.components.Smoother`
evalfw_register_means              :class:`evalfw.metrics.bleu.components.Mean`
evalfw_register_presets            :class:`evalfw.metrics.bleu.components.Preset`
evalfw_register_reporters          :class:`evalfw.reports.base.Reporter`
evalfw_register_bucketers          :class:`evalfw.analysis.bucketing.Bucketer`
evalfw_register_executors          :class:`evalfw.executors.base.Executor`
evalfw_register_checks             :class:`evalfw.checks.base.Check`
=================================  =========================================================

A test checks this table against the generated hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pluggy

from evalfw.host.kinds import HOOKS
from evalfw.plugin import PROJECT
from evalfw.plugin.component import Component

hookspec = pluggy.HookspecMarker(PROJECT)


def _spec(name: str, contract: type[Component]) -> Callable[[], Iterable[type[Any]]]:
    def hook() -> Iterable[type[Any]]:
        raise NotImplementedError  # a specification: pluggy calls the implementations

    hook.__name__ = hook.__qualname__ = name
    hook.__doc__ = (f"Return {contract.kind.replace('_', ' ')} classes: subclasses of "
                    f"{contract.__module__}.{contract.__name__}.\n\n"
                    f"Called once per plugin host, when it builds its registries.")
    return hookspec(hook)


#: the hook specifications, as pluggy reads them (``pm.add_hookspecs(Hookspecs)``)
Hookspecs = type("Hookspecs", (), {name: staticmethod(_spec(name, contract))
                                   for name, contract in HOOKS.items()})

__all__ = ["Hookspecs", "hookspec"]
