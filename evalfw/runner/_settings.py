"""The ``significance:`` block of a config with its defaults filled in (:class:`Settings`),
and what the runner prepares from it before scoring (:class:`Plan`). The keys, their
meanings and defaults are written once, in the config schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalfw.analysis.bucketing import Bucketer

__all__ = ["defaults", "KEY", "Plan", "Settings"]

KEY = "significance"


def defaults() -> dict[str, Any]:
    """The ``significance`` keys' defaults, read from the config schema (written once)."""
    from evalfw.config.schema import static_schema

    props = static_schema()["properties"][KEY]["properties"]
    return {k: v["default"] for k, v in props.items() if "default" in v}


@dataclass(frozen=True)
class Settings:
    """The ``significance:`` block with defaults filled in."""

    baseline: str
    method: str = "bootstrap"
    primary: str = "bootstrap"
    ar_unit: str = "segment"
    min_bucket_size: int = 30
    samples: int = 1000
    ar_trials: int = 10000
    confidence: float = 0.95
    alpha: float = 0.05
    mode: str = "default"
    correction: str = "holm"
    family: str = "table"
    all_pairs: bool = False
    metrics: tuple[str, ...] | None = None
    buckets: Any = False
    sentence_export: tuple[str, ...] = ()
    worst_segments: int = 5
    drilldown_metric: str | None = None

    @classmethod
    def from_config(cls, block: Mapping[str, Any]) -> Settings:
        data = {**defaults(), **dict(block)}
        # resolved here and stored in the record's settings (with the family), so a record
        # says which correction its p-values got whatever the default was when it was written
        data.setdefault("correction", "holm" if data["mode"] == "default" else "none")
        metrics = data.get("metrics")
        return cls(**{**data, "metrics": tuple(metrics) if metrics else None,
                      "sentence_export": tuple(data["sentence_export"])})

    @property
    def methods(self) -> tuple[str, ...]:
        """Test methods to run, in the order they run (bootstrap first)."""
        return ("bootstrap", "ar") if self.method == "both" else (self.method,)

    @property
    def marking(self) -> str:
        """The test whose p-values carry the marks: the only one, or ``primary`` of both."""
        return self.primary if self.method == "both" else self.method

    def trials(self, method: str) -> int:
        return self.samples if method == "bootstrap" else self.ar_trials

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["metrics"] = list(self.metrics) if self.metrics else None
        out["sentence_export"] = list(self.sentence_export)
        return out


@dataclass
class Plan:
    """What :func:`prepare` checked: settings, the analysed metrics, the bucketer, the seed."""

    settings: Settings
    metrics: list[str]
    bucketer: Bucketer | None
    seed: int
    tables: list[dict[str, Any]] = field(default_factory=list)
