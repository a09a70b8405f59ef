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

from evalfw.config._loader import load_config, validate_config
from evalfw.config.model import ExperimentConfig, MetricConfig, TestSetConfig
from evalfw.config._overrides import Override, add_set_option, parse_override
from evalfw.config.paths import experiment_dir
from evalfw.config.schema import combined_schema, static_schema

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
