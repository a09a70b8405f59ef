"""Experiment configs: safe YAML with positions, JSON Schema validation, resolved paths.

Public API::

    config, host = load_config("configs/wmt.yaml", overrides=["data_root=../shared/data/wmt22"])
    schema = combined_schema(host)          # static schema + plugin names and option schemas
    config, host = validate_config(mapping, base_dir=Path("."))   # an in-memory config

Every problem raises :class:`evalfw.errors.ConfigError` (or a subclass) whose message is
``<file>:<line>:<col>: <key path>: <what was expected>``; values given with ``--set`` are
located by that option instead of a line. See :mod:`evalfw.config._loader` for the order in
which a config is checked and :mod:`evalfw.config.paths` for how paths resolve.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Loaded on first use: the command line's `--help` and `--set` need none of this, and the
# loader pulls in jsonschema, whose import alone costs more than the rest of start-up.
_LAZY = {
    "load_config": "evalfw.config._loader",
    "validate_config": "evalfw.config._loader",
    "ExperimentConfig": "evalfw.config.model",
    "MetricConfig": "evalfw.config.model",
    "TestSetConfig": "evalfw.config.model",
    "Override": "evalfw.config._overrides",
    "add_set_option": "evalfw.config._overrides",
    "parse_override": "evalfw.config._overrides",
    "experiment_dir": "evalfw.config.paths",
    "combined_schema": "evalfw.config.schema",
    "static_schema": "evalfw.config.schema",
}

if TYPE_CHECKING:
    from evalfw.config._loader import load_config, validate_config
    from evalfw.config._overrides import Override, add_set_option, parse_override
    from evalfw.config.model import ExperimentConfig, MetricConfig, TestSetConfig
    from evalfw.config.paths import experiment_dir
    from evalfw.config.schema import combined_schema, static_schema


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # looked up once
        return value
    raise AttributeError(f"module 'evalfw.config' has no attribute {name!r}")


__all__ = [
    "ExperimentConfig",
    "MetricConfig",
    "Override",
    "TestSetConfig",
    "add_set_option",
    "combined_schema",
    "experiment_dir",
    "load_config",
    "parse_override",
    "static_schema",
    "validate_config",
]
