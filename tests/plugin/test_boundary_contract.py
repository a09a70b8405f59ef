"""The plugin boundary is one mechanism for every kind whose methods evalfw calls with its own
data: a kind declares a :class:`~evalfw.plugin.boundary.Contract` (a check of what each method
returns), and :func:`~evalfw.plugin.boundary.guard` gives its components read-only arguments,
one-line errors naming plugin, kind and method, and refusals where values enter."""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace
from typing import Any

import numpy as np
import pytest

from evalfw.errors import PluginError
from evalfw.plugin.boundary import Contract, Refused, guard, readonly
from evalfw.plugin.component import Component


class Flagger(Component):
    """A kind of component that flags segments (one boolean each)."""

    kind = "flagger"
    plural = "flaggers"
    name = "flagger"
    behaviour = "ok"

    def flag(self, hypotheses: Any, scores: Any) -> Any:
        if self.behaviour == "write-text":
            hypotheses[0] = "changed"
        if self.behaviour == "write-array":
            scores[0] = 99.0
        if self.behaviour == "raise":
            raise ValueError("cannot flag")
        if self.behaviour == "short":
            return [True]
        return [h == "" for h in hypotheses]


def _booleans(component: Any, value: Any, hypotheses: Any, *_: Any) -> list[bool]:
    if not isinstance(value, list) or len(value) != len(hypotheses):
        raise Refused(f"{type(value).__name__} of {len(value)}, not one boolean per segment")
    bad = next((i for i, v in enumerate(value) if not isinstance(v, bool)), None)
    if bad is not None:
        raise Refused("a value that is not a boolean", bad)
    return value


CONTRACT = Contract({"flag": _booleans})


def flagger(behaviour: str) -> Flagger:
    component = Flagger()
    component.behaviour = behaviour
    object.__setattr__(component, "_evalfw_plugin",
                       SimpleNamespace(provider="plugin 'flags'", name="flags"))
    return guard(component, CONTRACT)


def test_a_guarded_component_of_any_kind_gets_read_only_data():
    hyps, scores = ["a", ""], np.array([1.0, 2.0])
    assert flagger("ok").flag(hyps, scores) == [False, True]
    for behaviour in ("write-text", "write-array"):
        with pytest.raises(PluginError) as err:
            flagger(behaviour).flag(hyps, scores)
        assert str(err.value).startswith("plugin 'flags': flagger 'flagger' (")
        assert ").flag raised " in str(err.value)
    assert hyps == ["a", ""] and scores.tolist() == [1.0, 2.0]


def test_what_it_raises_and_returns_is_checked_in_its_kinds_words():
    with pytest.raises(PluginError, match=r"flagger 'flagger' .*\.flag raised ValueError: "
                                          r"cannot flag; nothing was stored"):
        flagger("raise").flag(["a"], np.zeros(1))
    with pytest.raises(PluginError, match=r"\.flag returned list of 1, not one boolean"):
        flagger("short").flag(["a", "b"], np.zeros(2))


def test_readonly_views():
    array = np.arange(3.0)
    view = readonly(array)
    assert not view.flags.writeable and np.shares_memory(view, array)
    with pytest.raises(ValueError):
        view[0] = 5.0
    # statistics evalfw keeps are read-only themselves: a view of them stays read-only
    array.flags.writeable = False
    with pytest.raises(ValueError):
        readonly(array).flags.writeable = True
    nested = readonly([["a", None], ["b", "c"]])
    assert nested == (("a", None), ("b", "c"))
    mapping = readonly({"scores": [1.0, 2.0]})
    assert isinstance(mapping, MappingProxyType) and mapping["scores"] == (1.0, 2.0)
    assert list(readonly(iter([array])))[0].flags.writeable is False
