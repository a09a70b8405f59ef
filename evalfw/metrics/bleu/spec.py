"""Resolving BLEU options (a preset plus overrides) into concrete components: a ``BleuSpec``.

The same options mapping comes from a config's metric entry, from ``evalfw score`` flags and
from keyword arguments of :func:`evalfw.corpus_bleu`::

    {"preset": "sacrebleu", "tokenizer": "zh", "smoothing": {"name": "add-k", "value": 2},
     "max_order": 4, "lowercase": False, "effective_order": True, "weights": [[.5, .5]]}

Component entries are a name or ``{"name": ..., **options}``; an entry without ``name`` adjusts
the options of the preset's choice. ``effective_order``, ``auto_reweigh`` and ``smooth_value``
are shorthands for options of the chosen mean or smoother.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evalfw.errors import ConfigError, suggest
from evalfw.metrics.bleu.components import (
    BrevityPenalty,
    Mean,
    NgramCounter,
    Preset,
    Smoother,
    check_scale,
)
from evalfw.plugin.component import Component
from evalfw.tokenizers.base import Tokenizer
from evalfw.version import __version__

if TYPE_CHECKING:
    from evalfw.plugin.protocols import Components

#: the component kinds BLEU is made of, in signature order, with their signature labels
SLOTS: tuple[tuple[type[Component], str], ...] = (
    (Tokenizer, "tok"),
    (NgramCounter, "prec"),
    (BrevityPenalty, "bp"),
    (Smoother, "smooth"),
    (Mean, "mean"),
)
#: option key (the kind's word) -> signature label
COMPONENT_KEYS: dict[str, str] = {contract.kind: label for contract, label in SLOTS}
#: option keys accepted in place of another: configs written earlier name the counter
#: "precision"
ALIASES = {"precision": "counter"}
SCALAR_KEYS = ("max_order", "lowercase", "weights")
#: shorthand -> (component key, option name)
SHORTHANDS = {
    "effective_order": ("mean", "effective_order"),
    "auto_reweigh": ("mean", "auto_reweigh"),
}
OPTION_KEYS = ("preset", *COMPONENT_KEYS, *SCALAR_KEYS, *SHORTHANDS, "smooth_value", *ALIASES)
DEFAULT_PRESET = "sacrebleu"


@dataclass(frozen=True, eq=False)
class BleuSpec:
    """Every choice that affects a BLEU number, resolved to component instances."""

    preset: Preset
    tokenizer: Tokenizer
    counter: NgramCounter
    brevity_penalty: BrevityPenalty
    smoothing: Smoother
    mean: Mean
    max_order: int
    lowercase: bool
    weights: tuple[tuple[float, ...], ...] | None

    def components(self) -> dict[str, Component]:
        return {key: getattr(self, key) for key in COMPONENT_KEYS}

    @property
    def count_orders(self) -> int:
        """Orders the counter must produce: the metric's, or more if the smoother reads more."""
        return max(self.max_order, self.smoothing.needs_orders)

    def signature(self, nrefs: int | str) -> str:
        """evalfw's signature: every score-affecting choice with component versions."""
        return _signature(self, nrefs)

    def _text(self, nrefs: int | str) -> str:
        parts = [f"preset:{self.preset.name}"]
        parts += [f"{label}:{getattr(self, key).describe()}" for key, label
                  in COMPONENT_KEYS.items()]
        parts.append(f"order:{self.max_order}")
        if self.weights is not None:
            parts.append("w:" + ";".join(",".join(repr(w) for w in ws) for ws in self.weights))
        parts += [f"case:{'lc' if self.lowercase else 'mixed'}", f"nrefs:{nrefs}",
                  f"evalfw:{__version__}"]
        return "BLEU|" + "|".join(parts)

    def foreign_signature(self, nrefs: int | str) -> str | None:
        """The signature of the tool the preset reproduces (sacreBLEU's string), if any."""
        return self.preset.foreign_signature(self, nrefs)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"preset": self.preset.name}
        for key in COMPONENT_KEYS:
            comp = getattr(self, key)
            out[key] = {"name": comp.name, "version": comp.version, **dict(comp.options)}
        out.update(max_order=self.max_order, lowercase=self.lowercase,
                   weights=[list(w) for w in self.weights] if self.weights else None)
        return out


@functools.lru_cache(maxsize=256)
def _signature(spec: BleuSpec, nrefs: int | str) -> str:
    # A spec's components and options are immutable (specs hash by identity), so the text
    # depends on nrefs only; scoring one sentence per call would otherwise rebuild it each time.
    return spec._text(nrefs)


def _as_choice(value: Any, where: str) -> dict[str, Any]:
    if isinstance(value, str):
        return {"name": value}
    if isinstance(value, Mapping):
        return dict(value)
    raise ConfigError(f"{where}: expected a component name or a mapping with 'name', got {value!r}")


def _merge(base: dict[str, Any], override: Any, where: str) -> dict[str, Any]:
    over = _as_choice(override, where)
    if "name" in over and over["name"] != base.get("name"):
        return over  # another component: the preset's options belonged to the old one
    return {**base, **over}


def normalize_weights(weights: Any) -> tuple[tuple[float, ...], ...] | None:
    """``[w1, w2, ...]`` or ``[[...], [...]]`` -> tuple of tuples (``None`` stays None)."""
    if weights is None:
        return None
    try:
        items = list(weights)
        if items and all(isinstance(w, (int, float)) and not isinstance(w, bool) for w in items):
            return (tuple(items),)
        out = tuple(tuple(w) for w in items)
    except TypeError as exc:
        raise ConfigError(f"weights: expected a list of numbers or of lists, got {weights!r}") \
            from exc
    if not out or not all(out):
        raise ConfigError("weights: every weight tuple needs at least one number")
    return out


def canonical_keys(options: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``options`` with alias keys (``precision``) renamed to the kind's word (``counter``)."""
    out = dict(options)
    for alias, key in ALIASES.items():
        if alias in out:
            if key in out:
                raise ConfigError(f"{where}: '{alias}' and '{key}' both choose the {key}; "
                                  f"give '{key}' only")
            out[key] = out.pop(alias)
    return out


def resolve_spec(host: Components, options: Mapping[str, Any] | None = None,
                 **kwargs: Any) -> BleuSpec:
    """Build a :class:`BleuSpec` from a preset name plus overrides (see module docstring)."""
    opts = canonical_keys({**(options or {}), **kwargs}, "BLEU options")
    unknown = [k for k in opts if k not in OPTION_KEYS]
    if unknown:
        raise ConfigError(
            f"unknown BLEU option '{unknown[0]}'{suggest(unknown[0], OPTION_KEYS)}; "
            f"options are: {', '.join(OPTION_KEYS)}"
        )
    preset_name = opts.get("preset") or DEFAULT_PRESET
    preset: Preset = host.component("preset", preset_name)
    settings = canonical_keys(preset.settings, f"preset '{preset_name}'")
    choices: dict[str, dict[str, Any]] = {}
    for key in COMPONENT_KEYS:
        choices[key] = _as_choice(settings.get(key), f"preset '{preset_name}' {key}")
        if opts.get(key) is not None:
            choices[key] = _merge(choices[key], opts[key], key)
    for short, (key, option) in SHORTHANDS.items():
        if opts.get(short) is not None:
            choices[key][option] = opts[short]
    if opts.get("smooth_value") is not None:
        cls = host.registry("smoothing").get(choices["smoothing"]["name"])
        props = list(cls.options_schema.get("properties", {}))
        if len(props) != 1:
            raise ConfigError(
                f"smooth_value: smoothing '{cls.name}' takes "
                f"{'no value' if not props else 'several options: ' + ', '.join(props)}; "
                "set its options by name instead"
            )
        choices["smoothing"][props[0]] = opts["smooth_value"]
    built: dict[str, Any] = {}
    for key in COMPONENT_KEYS:
        choice = dict(choices[key])
        name = choice.pop("name", None)
        if not name:
            raise ConfigError(f"{key}: no component name given and preset '{preset_name}' sets none")
        try:
            built[key] = host.component(key, name, choice)
        except ConfigError as exc:
            raise type(exc)(f"{key}: {exc}") from exc
    max_order = opts.get("max_order", settings.get("max_order", 4))
    if not isinstance(max_order, int) or isinstance(max_order, bool) or max_order < 1:
        raise ConfigError(f"max_order: expected a positive integer, got {max_order!r}")
    weights = normalize_weights(opts.get("weights", settings.get("weights")))
    if weights is not None and max(len(w) for w in weights) != max_order:
        if "max_order" in opts:
            raise ConfigError(
                f"weights have {max(len(w) for w in weights)} orders but max_order is {max_order}"
            )
        max_order = max(len(w) for w in weights)
    if weights is not None:
        problem = built["mean"].check_weights(weights)
        if problem is not None:
            raise ConfigError(f"weights: {problem}")
    check_scale(built["smoothing"], built["mean"])
    return BleuSpec(
        preset=preset, max_order=max_order,
        lowercase=bool(opts.get("lowercase", settings.get("lowercase", False))),
        weights=weights, **built,
    )


__all__ = [
    "ALIASES", "BleuSpec", "canonical_keys", "COMPONENT_KEYS", "DEFAULT_PRESET",
    "normalize_weights", "OPTION_KEYS", "resolve_spec", "SCALAR_KEYS", "SHORTHANDS", "SLOTS",
]
