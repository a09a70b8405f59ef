"""Command-line flags of a metric, declared once on the metric class.

A metric lists which of its options ``evalfw score`` offers as flags in the class attribute
``Metric.cli_flags``; the command line derives everything else (flag names, types, help) from
the metric's ``name`` and ``options_schema``::

    class Chrf(Metric):
        name = "chrf"
        cli_flags = (MetricFlag("char_order", short="-cc"), MetricFlag("beta", type=int), ...)

gives ``--chrf-char-order/-cc`` and ``--chrf-beta``. A boolean option becomes a switch that
sets the option to true; any other option takes one value, converted by ``type`` (default:
``int`` for schema type ``integer``, ``float`` for ``number``, else ``str``). ``flag`` replaces
the derived name where a tool's established spelling differs (BLEU's ``--tokenize``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from evalfw.limits import LIMITS, Limit

_SCHEMA_TYPES: dict[str, Callable[[str], Any]] = {"integer": int, "number": float}


@dataclass(frozen=True)
class MetricFlag:
    """One option of a metric offered as a command-line flag."""

    #: the key of the metric's options the flag sets
    option: str
    #: the long flag without ``--``; default ``<metric name>-<option with '-' for '_'>``
    flag: str | None = None
    #: an additional short flag, e.g. ``-cc`` (sacreBLEU's)
    short: str | None = None
    #: converts the text given on the command line (raise ValueError with a message);
    #: default: from the option's schema type
    type: Callable[[str], Any] | None = None
    #: help text; default: the option's ``description`` in the schema
    help: str | None = None


@dataclass(frozen=True)
class ResolvedFlag:
    """A :class:`MetricFlag` with everything derived: what ``argparse`` is given."""

    metric: str
    option: str
    names: tuple[str, ...]
    switch: bool
    convert: Callable[[str], Any] | None
    help: str

    @property
    def dest(self) -> str:
        return f"metric_flag__{self.metric}__{self.option}"

    @property
    def long(self) -> str:
        return next(n for n in self.names if n.startswith("--"))


#: an integer bound beyond any setting: the schema gives none on that side
_HUGE = 10 ** 18


def resolve(metric_name: str, schema: Mapping[str, Any], flag: MetricFlag) -> ResolvedFlag:
    """Derive names, kind, converter and help of ``flag`` from the metric's name and schema."""
    prop = schema.get("properties", {}).get(flag.option, {})
    kind = prop.get("type")
    switch = kind == "boolean" and flag.type is None
    long = "--" + (flag.flag or f"{metric_name}-{flag.option.replace('_', '-')}")
    names = (long,) if flag.short is None else (flag.short, long)
    convert = None if switch else (flag.type or _SCHEMA_TYPES.get(str(kind), str))
    if kind == "integer" and flag.type is None:  # the schema's bounds hold on the command line
        limit = LIMITS.get(flag.option) or Limit(prop.get("minimum", -_HUGE),
                                                 prop.get("maximum", _HUGE),
                                                 flag.option.replace("_", " "))
        convert = limit.argtype()
    text = flag.help
    if text is None:  # the schema's words, with its default
        text = prop.get("description") or flag.option.replace("_", " ")
        if "default" in prop and not switch:
            text += f" (default: {prop['default']})"
    return ResolvedFlag(metric_name, flag.option, names, switch, convert, text)


def metric_flags(cls: Any) -> list[ResolvedFlag]:
    """The resolved flags a metric class declares (none for a class without ``cli_flags``)."""
    schema = cls.options_schema if isinstance(cls.options_schema, Mapping) else {}
    return [resolve(cls.name, schema, f) for f in getattr(cls, "cli_flags", ())]


__all__ = ["MetricFlag", "ResolvedFlag", "metric_flags", "resolve"]
