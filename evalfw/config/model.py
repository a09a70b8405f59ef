"""The validated config as frozen value objects, handed to the runner.

Paths in these objects are resolved (bases joined, globs expanded, files known to exist) but
not made absolute; ``raw`` keeps the config as written after ``--set`` overrides and defaults,
and ``sha256`` is the hash of its canonical JSON, so the same config text and overrides give
the same hash on any machine.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from evalfw.config._overrides import Override
from evalfw.config.paths import experiment_dir
from evalfw.plugin.choices import ComponentChoice

#: the metric of a metric entry that names none
DEFAULT_METRIC = "bleu"
#: keys of a metric entry that are not the metric's options
ENTRY_KEYS = ("name", "label", "metric", "level")


def canonical_json(value: Any) -> str:
    """Deterministic JSON text: sorted keys, no whitespace, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def config_sha256(raw: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(raw).encode("utf-8")).hexdigest()


def frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class JudgementConfig:
    """Human judgements of a test set's systems: an MQM file or a score table (per segment or
    per system), read by :mod:`evalfw.io.judgements` with ``options`` (weights, names,
    delimiter, columns, ...)."""

    name: str
    format: str  # mqm | segments | systems
    file: Path
    options: Mapping[str, Any]
    higher_is_better: bool
    unit: str

    @property
    def per_segment(self) -> bool:
        return self.format != "systems"


@dataclass(frozen=True)
class MqmTexts:
    """A test set whose texts come from an MQM file: the target of system ``reference`` is the
    reference; the other systems are scored."""

    file: Path
    reference: str
    judgements: str


@dataclass(frozen=True)
class TestSetConfig:
    """One test set: references, systems and an optional default tokenizer."""

    __test__ = False  # not a pytest test class despite the name

    name: str
    langs: str
    source: Path | None
    references: tuple[Path, ...]
    systems: tuple[tuple[str, Path], ...]
    #: default tokenizer for metrics that choose none: a name or {"name": ..., <options>}
    tokenizer: str | Mapping[str, Any] | None = None
    #: precomputed per-segment scores: name -> (column or None, ((system, file), ...))
    segment_scores: tuple[tuple[str, str | None, tuple[tuple[str, Path], ...]], ...] = ()
    #: the document of every segment (one id a line, or a TSV with a doc_id column)
    documents: Path | None = None
    #: the documents TSV's column whose value groups documents into strata
    strata: str | None = None
    #: texts from an MQM file (then source, references and systems all name that file)
    mqm: MqmTexts | None = None
    #: human judgements, by name
    judgements: tuple[JudgementConfig, ...] = ()
    #: systems that are human translations
    human_systems: tuple[str, ...] = ()

    def judgement(self, name: str) -> JudgementConfig | None:
        return next((j for j in self.judgements if j.name == name), None)

    @property
    def source_lang(self) -> str:
        return self.langs.split("-", 1)[0]

    @property
    def target_lang(self) -> str:
        return self.langs.split("-", 1)[1]

    @property
    def system_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.systems)


@dataclass(frozen=True)
class MetricConfig:
    """One metric of a config: a unique name, the registered metric it is (``bleu``,
    ``chrf``, a plugin's), the levels to compute and the metric's options."""

    name: str
    metric: str
    levels: tuple[str, ...]
    #: the metric's options as the config gives them (defaults of its schema filled in)
    options: Mapping[str, Any] = field(default_factory=dict)
    #: what tables show instead of the name (``chrF++``), if given
    label: str | None = None

    def options_for(self, test_set: TestSetConfig | None,
                    cls: type[Any] | None = None) -> dict[str, Any]:
        """The metric's options on ``test_set``: the test set's tokenizer applies to a metric
        that takes a ``tokenizer`` option (``cls``'s schema) unless the metric chooses one
        itself (a test set's tokenizer is more specific than a preset's)."""
        opts = dict(self.options)
        properties = dict(cls.options_schema).get("properties", {}) if cls is not None else {}
        takes = cls is None or "tokenizer" in properties
        if test_set is not None and test_set.tokenizer is not None and takes \
                and "tokenizer" not in opts:
            opts["tokenizer"] = test_set.tokenizer
        if test_set is not None and "judgements" in properties:
            # a metric of human judgements takes their direction and unit from the test set
            found = test_set.judgement(str(opts.get("judgements", "mqm")))
            if found is not None:
                opts.setdefault("higher_is_better", found.higher_is_better)
                opts.setdefault("unit", found.unit)
        return opts


@dataclass(frozen=True)
class ExperimentConfig:
    """A validated experiment config."""

    path: Path | None
    sha256: str
    experiment: str
    seed: int
    output_dir: Path
    data_root: Path | None
    plugin_dirs: tuple[Path, ...]
    requires: tuple[str, ...]
    test_sets: tuple[TestSetConfig, ...]
    metrics: tuple[MetricConfig, ...]
    reports: tuple[ComponentChoice, ...]
    significance: Mapping[str, Any]
    overrides: tuple[Override, ...]
    #: the config after overrides, with defaults filled in, paths as written (JSON-able)
    raw: Mapping[str, Any]
    #: the config's ``executor:`` choice (not in ``raw``: it changes no number)
    executor: ComponentChoice | None = None
    #: system name -> display label (``system_labels:``)
    system_labels: Mapping[str, str] = field(default_factory=dict)
    #: the output checks to run (``checks:``; empty for ``none``) and what a flag counts for
    checks: tuple[ComponentChoice, ...] = ()
    on_flag: str = "keep"
    #: ``significance.buckets.file`` resolved: per-segment labels for label buckets
    bucket_labels: Path | None = None
    #: the ``meta_evaluation:`` block (empty: none)
    meta_evaluation: Mapping[str, Any] = field(default_factory=dict)

    @property
    def experiment_dir(self) -> Path:
        """``output_dir/experiment``, checked not to escape ``output_dir`` (see
        :func:`evalfw.config.paths.experiment_dir`; call again right before writing)."""
        return experiment_dir(self.output_dir, self.experiment)

    def summary(self) -> str:
        n, m = len(self.test_sets), len(self.metrics)
        return (f"{self.experiment} ({n} test set{'s' if n != 1 else ''}, "
                f"{m} metric{'s' if m != 1 else ''})")


__all__ = [
    "canonical_json", "config_sha256", "DEFAULT_METRIC", "ENTRY_KEYS", "ExperimentConfig",
    "frozen", "JudgementConfig", "MetricConfig", "MqmTexts", "TestSetConfig",
]
