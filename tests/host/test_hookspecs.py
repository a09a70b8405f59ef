"""The hook specifications are written out one per component kind: the list of kinds and the
list of hooks agree, name for name, and each hook's docstring names what it returns."""

from __future__ import annotations

import inspect

import pytest

from evalfw.host import hookspecs
from evalfw.host.kinds import HOOKS, KINDS, hook_name
from evalfw.plugin import PROJECT

SPECS = {name: getattr(hookspecs.Hookspecs, name) for name in vars(hookspecs.Hookspecs)
         if not name.startswith("_")}


def test_one_hook_per_kind() -> None:
    assert list(SPECS) == [hook_name(kind) for kind in KINDS]
    assert list(SPECS) == list(HOOKS)


@pytest.mark.parametrize("name", list(HOOKS))
def test_hook_is_a_marked_specification_without_arguments(name: str) -> None:
    spec = SPECS[name]
    assert hasattr(spec, f"{PROJECT}_spec"), f"{name} is not marked with @hookspec"
    assert inspect.signature(spec).parameters == {}
    with pytest.raises(NotImplementedError):
        spec()


@pytest.mark.parametrize("name", list(HOOKS))
def test_docstring_says_what_when_names_and_example(name: str) -> None:
    contract = HOOKS[name]
    doc = inspect.getdoc(SPECS[name]) or ""
    assert doc.startswith("Return the "), doc[:60]
    assert f":class:`evalfw.{contract.__name__}`" in doc
    assert ":returns:" in doc and "Called when" in doc and "conflict" in doc
    assert f"def {name}():" in doc  # the example implements this very hook
    assert contract.__name__ in str(inspect.signature(SPECS[name]).return_annotation)


def test_every_contract_is_public_api() -> None:
    import evalfw

    assert all(kind.__name__ in evalfw.__all__ for kind in KINDS)
