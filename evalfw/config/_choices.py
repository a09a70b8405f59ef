"""Checking what a config chooses by name against the loaded plugins: metrics, reporters and
a test set's default tokenizer.

Each metric entry names its metric (``metric:``, default ``bleu``); its other keys are that
metric's options, checked against the metric's own ``options_schema`` and then by the metric
itself (BLEU checks the components it is made of), with error paths such as
``metrics[0].smoothing.value`` and their ``file:line:col``. Finally every metric is built for
every test set whose default tokenizer applies to it, so cross-option rules (scales, weights
vs. order) fail here, at validation, with the metric's position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from evalfw.config._locate import KeyPath, Locations, format_path
from evalfw.config.model import DEFAULT_METRIC, ENTRY_KEYS
from evalfw.config.schema import check_schema
from evalfw.errors import ConfigError
from evalfw.metrics.boundary import Origin, call
from evalfw.plugin.choices import check_choice, check_schema_valid, lookup

if TYPE_CHECKING:
    from evalfw.config.model import MetricConfig, TestSetConfig
    from evalfw.host.host import PluginHost

class LocatedChecker:
    """An :class:`~evalfw.plugin.options.OptionChecker` that reports errors at
    ``file:line:col`` of key paths below ``prefix``."""

    def __init__(self, loc: Locations, prefix: KeyPath) -> None:
        self.loc = loc
        self.prefix = prefix

    def check(self, schema: Mapping[str, Any], value: Any, path: KeyPath,
              note: str = "") -> None:
        try:
            check_schema(schema, value, self.loc, prefix=(*self.prefix, *path))
        except ConfigError as exc:
            raise ConfigError(f"{exc}{note}") from None

    def fail(self, path: KeyPath, message: str,
             error: type[ConfigError] = ConfigError) -> NoReturn:
        raise self.loc.error((*self.prefix, *path), message, cls=error)


def metric_options(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The metric's options in a metric entry (everything but name, label, metric and
    level)."""
    return {k: v for k, v in entry.items() if k not in ENTRY_KEYS}


def check_metric(host: PluginHost, entry: Mapping[str, Any], path: KeyPath,
                 loc: Locations) -> None:
    """The entry's metric exists, and its options are the metric's."""
    checker = LocatedChecker(loc, path)
    name = entry.get("metric", DEFAULT_METRIC)
    found = lookup(host, "metric", name, ("metric",) if "metric" in entry else (), checker)
    own = entry.get("name")
    if isinstance(own, str) and own != name and own in host.registry("metric").names():
        # `name: chrf` alone computes BLEU under the name chrf: a trap, never what was meant
        default = "" if "metric" in entry else f" (no metric: was given, so {name}, the default)"
        raise loc.error((*path, "name"), (
            f"'{own}' is the name of the registered metric '{own}', but this entry computes "
            f"'{name}'{default}; add `metric: {own}` to compute {own}, or choose another name "
            f"for this {name} entry (a display text goes in label:)"))
    schema = check_schema_valid(found, "metric")
    options = metric_options(entry)
    checker.check(schema, options, ())
    call(Origin(found.cls, found.plugin), "check_options", found.cls.check_options, options,
         host, checker)


def metric_defaults(host: PluginHost, entry: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults of the entry's metric options (from its options schema), to be filled in."""
    cls = host.registry("metric").get(entry.get("metric", DEFAULT_METRIC))
    props = dict(cls.options_schema).get("properties", {})
    return {k: v["default"] for k, v in props.items()
            if isinstance(v, Mapping) and "default" in v}


def check_reports(host: PluginHost, reports: Sequence[Any], loc: Locations) -> None:
    for i, report in enumerate(reports):
        check_choice(host, "reporter", report, (), LocatedChecker(loc, ("reports", i)))


def check_checks(host: PluginHost, checks: Sequence[Any], loc: Locations) -> None:
    """Each check exists, takes its options, is named once and can run here (a check whose
    extra is not installed is an error, never silently skipped)."""
    seen: dict[str, int] = {}
    for i, choice in enumerate(checks):
        checker = LocatedChecker(loc, ("checks", i))
        check_choice(host, "check", choice, (), checker)
        name = choice if isinstance(choice, str) else choice["name"]
        if name in seen:
            checker.fail((), f"check '{name}' is listed twice (also checks[{seen[name]}]); "
                             "name each check once")
        seen[name] = i
        options = {} if isinstance(choice, str) else {k: v for k, v in choice.items()
                                                       if k != "name"}
        check = host.component("check", name, options)
        why = check.unavailable()
        if why:
            checker.fail((), f"check '{name}' cannot run here: {why}")


def check_executor(host: PluginHost, value: Any, loc: Locations) -> None:
    check_choice(host, "executor", value, (), LocatedChecker(loc, ("executor",)))


def check_tokenizer(host: PluginHost, value: Any, path: KeyPath, loc: Locations) -> None:
    check_choice(host, "tokenizer", value, (), LocatedChecker(loc, path))


def check_resolvable(host: PluginHost, metrics: Sequence[MetricConfig],
                     test_sets: Sequence[TestSetConfig], loc: Locations) -> None:
    """Build every metric (once per test set whose default tokenizer applies to it)."""
    for i, metric in enumerate(metrics):
        cls = host.registry("metric").get(metric.metric)
        variants: dict[str, TestSetConfig | None] = {"": None}
        for j, ts in enumerate(test_sets):
            if metric.options_for(ts, cls) != dict(metric.options):
                variants[f" with test_sets[{j}] ('{ts.name}') tokenizer"] = ts
        for label, variant in variants.items():
            opts = (metric.options_for(variant, cls) if variant is not None
                    else dict(metric.options))
            try:
                host.metric(metric.metric, opts)
            except ConfigError as exc:
                raise type(exc)(
                    f"{loc.where(('metrics', i))}: {format_path(('metrics', i))}{label}: {exc}"
                ) from None
