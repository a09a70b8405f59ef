"""Checking component choices in a config against the loaded plugins.

A choice is a name or ``{name: ..., <options>}``; in a metric, a mapping without ``name``
adjusts the options of the component its preset chose. Names must exist in the registry of
their kind (else "did you mean" and the list of available names), and options are checked
against the chosen class's own ``options_schema``, third-party or built-in alike, with error
paths such as ``metrics[0].smoothing.value``. Finally each metric is resolved by the engine
(``resolve_spec``) so that cross-component rules (scales, weights vs. order) fail here, at
validation, with the metric's position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import jsonschema

from evalfw.metrics.bleu.spec import ALIASES, COMPONENT_KEYS, DEFAULT_PRESET, resolve_spec
from evalfw.config.locate import KeyPath, Locations, format_path
from evalfw.config.schema import check_schema, plain
from evalfw.errors import ConfigError, EvalfwError, PluginError

if TYPE_CHECKING:
    from evalfw.config.model import MetricConfig, TestSetConfig
    from evalfw.host.host import PluginHost
    from evalfw.host.registry import ComponentEntry


def _entry(host: PluginHost, kind: str, name: str, path: KeyPath,
           loc: Locations) -> ComponentEntry:
    try:
        return host.registry(kind).entry(name)
    except EvalfwError as exc:  # unknown name (with suggestions) or two providers
        raise type(exc)(f"{loc.where(path)}: {format_path(path)}: {exc}") from None


def check_choice(host: PluginHost, kind: str, value: Any, path: KeyPath, loc: Locations,
                 preset_choice: Any = None) -> None:
    """Check one component choice; ``preset_choice`` is what a preset picked for this slot."""
    if isinstance(value, str):
        _entry(host, kind, value, path, loc)
        return
    options = {k: v for k, v in value.items() if k != "name"}
    if "name" in value:
        entry = _entry(host, kind, value["name"], (*path, "name"), loc)
    else:
        base = {"name": preset_choice} if isinstance(preset_choice, str) else dict(
            preset_choice or {})
        if not base.get("name"):
            raise loc.error(path, f"no {kind.replace('_', ' ')} name given; write "
                                  f"{{name: <{kind}>, ...}} (see `evalfw plugins --all`)")
        entry = _entry(host, kind, base.pop("name"), path, loc)
        options = {**base, **options}  # the preset's options, adjusted by the config's
    schema = plain(entry.cls.options_schema)
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise PluginError(
            f"{entry.plugin.provider}: {kind} '{entry.name}' has an invalid options_schema: "
            f"{exc.message}; report this to the plugin's author") from None
    try:
        check_schema(schema, options, loc, prefix=path)
    except ConfigError as exc:
        raise ConfigError(f"{exc} (options of {kind.replace('_', ' ')} '{entry.name}')") from None


def check_metric(host: PluginHost, metric: Mapping[str, Any], path: KeyPath,
                 loc: Locations) -> None:
    preset_name = metric.get("preset", DEFAULT_PRESET)
    preset = _entry(host, "preset", preset_name, (*path, "preset"), loc).cls
    settings = getattr(preset, "settings", {}) or {}
    for alias, key in ALIASES.items():
        if alias in metric and key in metric:
            raise loc.error((*path, alias), f"'{alias}' and '{key}' both choose the {key}; "
                                            f"give '{key}' only")
    for key in COMPONENT_KEYS:
        for written in (key, *(a for a, k in ALIASES.items() if k == key)):
            if written in metric:
                check_choice(host, key, metric[written], (*path, written), loc, settings.get(key))


def check_reports(host: PluginHost, reports: Sequence[Any], loc: Locations) -> None:
    for i, report in enumerate(reports):
        check_choice(host, "reporter", report, ("reports", i), loc)


def check_resolvable(host: PluginHost, metrics: Sequence[MetricConfig],
                     test_sets: Sequence[TestSetConfig], loc: Locations) -> None:
    """Let the engine build every metric (per test set when one sets a tokenizer)."""
    for i, metric in enumerate(metrics):
        variants: dict[str, TestSetConfig | None] = {"": None}
        for j, ts in enumerate(test_sets):
            if ts.tokenizer is not None and "tokenizer" not in metric.options:
                variants[f" with test_sets[{j}] ('{ts.name}') tokenizer"] = ts
        for label, ts in variants.items():
            opts = metric.options_for(ts) if ts is not None else dict(metric.options)
            try:
                resolve_spec(host, opts)
            except ConfigError as exc:
                raise type(exc)(
                    f"{loc.where(('metrics', i))}: {format_path(('metrics', i))}{label}: {exc}"
                ) from None
