"""The checks a plugin's component classes pass when they register: the built-ins pass them
too (their options schemas are checked here rather than at every start), and a plugin's name
follows the very rule of names in configs."""

from __future__ import annotations

import json
import types

import pytest

import evalfw
from evalfw.errors import UnknownComponentError
from evalfw.host.host import PluginHost
from evalfw.plugin import hookimpl
from evalfw.plugin.choices import schema_problem
from evalfw.plugin.component import NAME_MAX, NAME_PATTERN, name_problem
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)
from tests.support.runs import REPO


def test_every_built_in_component_passes_the_registration_checks():
    host = PluginHost.create(autoload=False)
    for kind, registry in host.registries.items():
        for entry in registry:
            label = f"{kind} {entry.name}"
            assert name_problem(entry.name) is None, label
            assert isinstance(entry.cls.version, str), label
            assert schema_problem(entry.cls.options_schema) is None, label


def test_component_names_follow_the_rule_of_config_names():
    schema = json.loads((REPO / "evalfw" / "config" / "experiment.schema.json")
                        .read_text("utf-8"))
    label = schema["$defs"]["label"]
    assert (label["pattern"], label["maxLength"]) == (NAME_PATTERN, NAME_MAX)


@pytest.mark.parametrize("schema, said", [
    ([], "not a mapping"),
    ({"type": "object", "properties": {"x": {"type": "wobbly"}}}, "is not valid"),
    ({"type": "object", "properties": {"x": {"enum": "abc"}}}, "is not of type 'array'"),
    ({"$ref": "https://example.com/schema.json"}, "refers to 'https://example.com"),
    ({"type": "object", "properties": {"x": {"$ref": "other.json#/a"}}}, "refers to"),
    ({"$defs": {"a": {"$dynamicRef": "http://x/#a"}}}, "refers to"),
])
def test_an_invalid_or_remote_options_schema_is_refused(schema, said):
    problem = schema_problem(schema)
    assert problem is not None and said in problem


def test_a_local_reference_and_a_property_named_ref_are_fine():
    assert schema_problem({"type": "object", "$defs": {"n": {"type": "integer"}},
                           "properties": {"x": {"$ref": "#/$defs/n"},
                                          "$ref": {"type": "string"}}}) is None


class Named(evalfw.Metric):
    name = "ok"

    def segment_statistics(self, hypotheses, references):
        raise NotImplementedError

    def score(self, statistics):
        return 0.0

    def signature(self, nrefs):
        return "ok"


@pytest.mark.parametrize("attributes, said", [
    ({"name": "a\nb"}, "its name 'a\\nb'"),
    ({"name": "x\u202e"}, "its name 'x\\u202e'"),
    ({"name": ""}, "its name ''"),
    ({"name": "n" * 129}, "is not 1 to 128"),
    ({"version": None}, "its version is None"),
    ({"version": 2}, "its version is 2"),
    ({"higher_is_better": "no"}, "higher_is_better is str 'no', not True or False"),
    ({"higher_is_better": None}, "higher_is_better is NoneType None"),
    ({"score_scale": 0}, "score_scale is 0.0, not a positive number"),
    ({"score_scale": float("nan")}, "score_scale is nan"),
    ({"options_schema": {"type": "object", "properties": {"x": {"type": 5}}}},
     "options_schema is invalid"),
])
def test_a_metric_class_is_checked_when_its_plugin_registers(attributes, said):
    # refused like a plugin that fails to load: other metrics keep working, and using this
    # one names the plugin and why
    module = types.ModuleType("oddplugin")
    cls = type("Odd", (Named,), {"name": "odd", **attributes})
    module.evalfw_register_metrics = hookimpl(lambda: [cls])
    host = PluginHost.create(autoload=False, extra_plugins=[module])
    assert "bleu" in host.registry("metric") and cls not in [e.cls for e in
                                                              host.registry("metric")]
    assert any(b.name == "oddplugin" and said in b.error for b in host.broken)
    with pytest.raises(UnknownComponentError) as err:
        host.registry("metric").entry("odd")
    assert "note: plugin 'oddplugin' failed to load: metric class Odd: " in str(err.value)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_evalfw_plugins_lists_a_refused_class_as_an_error_of_its_plugin():
    from evalfw.cli.cmd_plugins import describe

    module = types.ModuleType("oddplugin")
    cls = type("Odd", (Named,), {"name": "odd", "version": 3})
    module.evalfw_register_metrics = hookimpl(lambda: [cls])
    host = PluginHost.create(autoload=False, extra_plugins=[module])
    rows = [r for r in describe(host, include_builtin=False) if r["name"] == "oddplugin"]
    assert len(rows) == 1 and rows[0]["status"] == "error"
    assert "metric class Odd: its version is 3, not a string" in rows[0]["error"]
