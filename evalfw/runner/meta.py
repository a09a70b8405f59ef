"""A run's meta-evaluation: how well each metric agrees with the test sets' human judgements.

With a ``meta_evaluation:`` block, :func:`prepare` checks it before anything is scored, and
:func:`meta_section` computes the record's ``meta_evaluation`` section once the statistics are
in (:mod:`evalfw.analysis.meta.evaluate` does the statistics). :func:`meta_of_record` does the
same from a stored run (its statistics, its judgements, its metrics rebuilt from their
recorded definitions), so ``evalfw meta RUN`` needs no input file and, with the recorded
settings, gives the recorded section bit for bit.

What is compared: on every test set that has the judgements named by ``human``, each chosen
metric's corpus scores (system level) and sentence scores (segment level) of the test set's
systems, leaving out the human systems unless ``include_human``. A test set without those
judgements is skipped (named in the section); no test set with them is an error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.errors import ConfigError, suggest

if TYPE_CHECKING:
    from evalfw.analysis.meta.evaluate import Settings
    from evalfw.config import ExperimentConfig
    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric
    from evalfw.records.load import StoredRun
    from evalfw.runner._evaluate import Evaluation

#: the block's keys that are settings of the statistics, and their defaults
DEFAULTS: Mapping[str, Any] = {
    "levels": ["system", "segment"], "groupings": ["item", "none"], "include_human": False,
    "samples": 1000, "permutations": 1000, "confidence": 0.95, "alpha": 0.05,
    "correction": "holm", "delta_bins": {},
}
#: what the section says about how it was computed (fixed choices)
METHOD = {
    "resampling": "segments, with replacement; the same draws for every metric and statistic",
    "interval": "percentile",
    "test": "paired permutation (PERM-BOTH): each judged item's two z-scored metric scores "
            "swapped with probability 1/2; one-sided; p = (1 + reaching trials) / (1 + trials)",
    "family": "one test set x level x grouping x statistic: every pair of metrics",
    "tie_threshold": "searched over every pair's metric difference (acc_eq); kept from the "
                     "full data in the ungrouped bootstrap",
}


def _where(cfg: ExperimentConfig, key: str) -> str:
    return f"{cfg.path or '<config>'}: meta_evaluation.{key}"


def settings_of(block: Mapping[str, Any], metrics: Sequence[str]) -> dict[str, Any]:
    """The block with its defaults filled in and the metrics chosen."""
    out = {k: block.get(k, v) for k, v in DEFAULTS.items()}
    out["human"] = block["human"]
    out["metrics"] = list(block.get("metrics") or metrics)
    return out


def prepare(cfg: ExperimentConfig) -> dict[str, Any] | None:
    """Check the ``meta_evaluation`` block against the config; its settings, or None."""
    block = cfg.meta_evaluation
    if not block:
        return None
    human = block["human"]
    having = [ts.name for ts in cfg.test_sets if ts.judgement(human) is not None]
    if not having:
        names = sorted({j.name for ts in cfg.test_sets for j in ts.judgements})
        raise ConfigError(f"{_where(cfg, 'human')}: no test set has judgements '{human}'"
                          f"{suggest(human, names)}; declare them under a test set's human (or "
                          f"mqm); the test sets have: {', '.join(names) or 'none'}")
    corpus = [m.name for m in cfg.metrics if "corpus" in m.levels and m.metric != "human"]
    for m in cfg.metrics:
        if m.metric == "human" and "sentence" in m.levels:
            raise ConfigError(f"{cfg.path or '<config>'}: metric '{m.name}' (human judgements) "
                              "has no sentence level: segments without a judgement have no "
                              "score; use level: corpus")
    for name in block.get("metrics") or ():
        if name not in corpus:
            raise ConfigError(f"{_where(cfg, 'metrics')}: '{name}' is not a metric with a "
                              f"corpus level{suggest(name, corpus)}; choose from: "
                              f"{', '.join(corpus) or 'none'}")
    settings = settings_of(block, corpus)
    if not settings["metrics"]:
        raise ConfigError(f"{_where(cfg, 'metrics')}: the config has no metric to compare with "
                          "the human judgements (a metric entry with a corpus level)")
    for name in settings["delta_bins"]:
        if name not in settings["metrics"]:
            raise ConfigError(f"{_where(cfg, 'delta_bins')}: '{name}' is not a meta-evaluated "
                              f"metric{suggest(name, settings['metrics'])}")
    if "segment" in settings["levels"] and not any(
            ts.judgement(human).per_segment for ts in cfg.test_sets  # type: ignore[union-attr]
            if ts.judgement(human) is not None):
        settings["levels"] = [x for x in settings["levels"] if x != "segment"]
    return settings


def _settings(s: Mapping[str, Any]) -> Settings:
    from evalfw.analysis.meta.evaluate import Settings

    return Settings(samples=s["samples"], permutations=s["permutations"],
                    confidence=s["confidence"], alpha=s["alpha"], correction=s["correction"],
                    levels=tuple(s["levels"]), groupings=tuple(s["groupings"]),
                    include_human=s["include_human"], delta_bins=s["delta_bins"])


def tables(record: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
           metric_of: Callable[[str, str], Metric], settings: Mapping[str, Any], seed: int,
           rows_of: Callable[[str, str, Metric], np.ndarray] | None = None,
           progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The meta-evaluation section from record-shaped data: ``record`` has the test sets,
    results, judgements, metric entries and checks; ``arrays`` the statistics and judgement
    rows; ``metric_of(test set, metric)`` the built metric. What ``on_flag`` makes of the
    checks' flags applies as to every conclusion: the metrics' rows of flagged segments are
    penalised, or the flagged segments left out, judgements included."""
    from evalfw.executors.blas import one_blas_thread

    with one_blas_thread():  # as the significance tables: one BLAS thread, the same bits
        return _tables(record, arrays, metric_of, settings, seed, rows_of, progress)


def _tables(record: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
            metric_of: Callable[[str, str], Metric], settings: Mapping[str, Any], seed: int,
            rows_of: Callable[[str, str, Metric], np.ndarray] | None,
            progress: Callable[[str], None] | None) -> dict[str, Any]:
    from evalfw.analysis.meta.evaluate import Human, MetricRows, meta_evaluate
    from evalfw.runner._conclusions import Conclusions

    human = settings["human"]
    cells = {(r["test_set"], r["system"], r["metric"]): r["segments"] for r in record["results"]}
    scales = {(r["test_set"], r["metric"]): r["score_scale"] for r in record["results"]}
    out: list[dict[str, Any]] = []
    skipped = []
    for ts in record["test_sets"]:
        entry = next((j for j in record.get("judgements", ())
                      if j["test_set"] == ts["name"] and j["name"] == human), None)
        if entry is None:
            skipped.append(ts["name"])
            continue
        if progress is not None:
            progress(ts["name"])
        systems = [s["name"] for s in ts["systems"]]
        judged = {s["system"]: s for s in entry["systems"]}
        concluded = Conclusions.of_record(record, ts["name"])
        kept = concluded.segment_numbers(int(ts["segments"]))
        system = np.array([judged[s]["score"] if s in judged else np.nan for s in systems])
        segment = judged_mask = None
        if entry["format"] != "systems":
            segment = np.zeros((len(systems), len(kept)))
            judged_mask = np.zeros(segment.shape, dtype=bool)
            for k, s in enumerate(systems):
                if s in judged and "segments" in judged[s]:
                    given = arrays[judged[s]["segments"]][kept]
                    segment[k], judged_mask[k] = given[:, 0], given[:, 1] > 0
                    if len(kept) < int(ts["segments"]):  # segments left out: the mean moves
                        count = judged_mask[k].sum()
                        system[k] = segment[k][judged_mask[k]].mean() if count else np.nan
        metrics = []
        for name in settings["metrics"]:
            metric = metric_of(ts["name"], name)
            stats = [concluded.statistics(
                metric, s, arrays[cells[(ts["name"], s, name)]] if rows_of is None
                else rows_of(ts["name"], cells[(ts["name"], s, name)], metric))
                for s in systems]
            metrics.append(MetricRows(name, metric, stats))
        table = meta_evaluate(
            ts["name"], systems, ts.get("human_systems", []),
            Human(human, bool(entry["higher_is_better"]), system, segment, judged_mask),
            metrics, _settings(settings), seed,
            {n: scales.get((ts["name"], n)) for n in settings["metrics"]})
        table["unit"] = entry["unit"]
        table["human_higher_is_better"] = entry["higher_is_better"]
        table["references"] = [s["system"] for s in entry["systems"] if s.get("reference")]
        table["human_scores"] += [{"system": s["system"], "score": s["score"], "used": False}
                                  for s in entry["systems"] if s.get("reference")]
        table["human_systems"] = list(ts.get("human_systems", []))
        out.append(table)
    return {"settings": {**settings, "seed": seed, "method": METHOD}, "tables": out,
            **({"skipped": skipped} if skipped else {})}


def meta_section(cfg: ExperimentConfig, ev: Evaluation, settings: Mapping[str, Any],
                 results: Sequence[Mapping[str, Any]],
                 progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The section of a run that has just scored (``results``: its result rows)."""
    from evalfw.runner._checks import section as checks_section

    record = {"test_sets": ev.test_sets, "results": results, "judgements": ev.judgements,
              "checks": checks_section(cfg, ev.checks, ev.flags)}
    return tables(record, ev.arrays, lambda ts, m: ev.metrics[(ts, m)], settings, cfg.seed,
                  progress=progress)


def meta_of_record(stored: StoredRun, host: PluginHost,
                   changes: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The section of a stored run: its recorded settings (or the config's block when it had
    none: ``changes`` must then name ``human``) with ``changes`` applied."""
    from evalfw.runner.recorded import metric_from_record

    record = stored.record
    recorded = (record.get("meta_evaluation") or {}).get("settings")
    block = dict((record["config"]["resolved"] or {}).get("meta_evaluation") or {})
    if recorded:
        base = {k: v for k, v in recorded.items() if k not in ("seed", "method")}
    else:
        names = [m["name"] for m in record["metrics"]
                 if "corpus" in m["levels"] and m["metric"] != "human"]
        if changes and "human" in changes:
            block["human"] = changes["human"]
        if "human" not in block:
            have = sorted({j["name"] for j in record.get("judgements", ())})
            raise ConfigError(f"{stored.path}: the run has no meta-evaluation; name the human "
                              f"judgements to compare with (--human NAME; the run has: "
                              f"{', '.join(have) or 'none'})")
        base = settings_of(block, names)
    settings = {**base, **(changes or {})}
    judgements = {j["name"] for j in record.get("judgements", ())}
    if settings["human"] not in judgements:
        raise ConfigError(f"{stored.path}: the run has no judgements '{settings['human']}'"
                          f"{suggest(settings['human'], sorted(judgements))}; it has: "
                          f"{', '.join(sorted(judgements)) or 'none'}")
    if not any(j["format"] != "systems" for j in record.get("judgements", ())
               if j["name"] == settings["human"]):  # system-level judgements only
        settings["levels"] = [x for x in settings["levels"] if x != "segment"]
        if not settings["levels"]:
            raise ConfigError(f"{stored.path}: judgements '{settings['human']}' are "
                              "system-level only: there is no segment level to compare")
    known = [m["name"] for m in record["metrics"] if "corpus" in m["levels"]]
    for name in settings["metrics"]:
        if name not in known:
            raise ConfigError(f"{stored.path}: no metric '{name}' with a corpus level"
                              f"{suggest(name, known)}; the run has: {', '.join(known)}")
    arrays = stored.segments()
    specs = {(s["test_set"], s["metric"]): s for s in record["specs"]}
    built: dict[tuple[str, str], Metric] = {}

    def metric_of(ts: str, name: str) -> Metric:
        if (ts, name) not in built:
            built[(ts, name)] = metric_from_record(host, specs[(ts, name)]["definition"],
                                                   f"metric '{name}'")
            scale = next((r["score_scale"] for r in record["results"]
                          if (r["test_set"], r["metric"]) == (ts, name)), None)
            if built[(ts, name)].score_scale is None and scale is not None:
                built[(ts, name)].settle_scale(scale)
        return built[(ts, name)]

    def rows_of(ts: str, cell: str, metric: Metric) -> np.ndarray:
        return stored.statistics(arrays, cell, metric)

    return tables(record, arrays, metric_of, settings, int(record["seed"]), rows_of)


class MetaEvaluation(dict):
    """A record's ``meta_evaluation`` section (a dict, as stored) with its flat tables:
    ``rows(table)`` and ``to_pandas(table)``, ``table`` one of ``statistics`` (one row per
    test set x statistic x metric: value, interval, cluster, the metrics it beats, epsilon),
    ``tests`` (every test between two metrics), ``deltas`` (agreement by |delta| bins) and
    ``human`` (each system's human score)."""

    def rows(self, table: str = "statistics") -> list[dict[str, Any]]:
        from evalfw.reports._meta import TABLES

        if table not in TABLES:
            raise ConfigError(f"no meta-evaluation table '{table}'{suggest(table, list(TABLES))}"
                              f"; choose from: {', '.join(TABLES)}")
        return TABLES[table][1](self)

    def to_pandas(self, table: str = "statistics") -> Any:
        """:meth:`rows` as a pandas DataFrame (``pip install 'evalfw[pandas]'``)."""
        from evalfw.reports._meta import TABLES

        try:
            import pandas
        except ImportError:
            raise ModuleNotFoundError(
                "MetaEvaluation.to_pandas() needs pandas: pip install 'evalfw[pandas]'",
                name="pandas") from None
        return pandas.DataFrame(self.rows(table), columns=list(TABLES[table][0]))


__all__ = ["DEFAULTS", "MetaEvaluation", "meta_of_record", "meta_section", "METHOD", "prepare",
           "settings_of", "tables"]
