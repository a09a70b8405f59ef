"""What :func:`evalfw.run` and :func:`evalfw.load_run` return: a run's record, with notebook
conveniences.

:class:`RunResult` *is* the record (a ``dict``: ``result["results"]``, ``json.dumps(result)``
and every existing use keep working) and adds:

- :meth:`~RunResult.to_pandas`: one row per test set x metric x system x test method (each
  configured test: bootstrap and approximate randomization when both ran), plus one row per
  bucket x system when buckets were analysed, in the columns of :data:`COLUMNS` (needs
  ``pip install 'evalfw[pandas]'``);
- ``_repr_html_``: the results table, as a notebook shows the object (self-styled: it reads
  the same in Jupyter and in a plain page, :mod:`evalfw.reports._notebook`);
- :meth:`~RunResult.sentence_scores`: every segment's score of a metric;
- :attr:`~RunResult.significance`: the significance tables (intervals, paired tests, buckets);
- :attr:`~RunResult.meta_evaluation`: how each metric agrees with the human judgements, with
  its own ``to_pandas()``;
- :attr:`~RunResult.path`: the stored version directory.

:func:`load_run` opens a stored version as the same type without recomputing anything: its
rows come from the record alone, its sentence scores from the stored per-segment arrays.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas

    from evalfw.host.host import PluginHost
    from evalfw.records.load import StoredRun
    from evalfw.reports._cells import Significance

__all__ = ["COLUMNS", "load_run", "RunResult"]

#: the columns of :meth:`RunResult.to_pandas`, in order (docs/python-api.md says
#: what each holds)
COLUMNS = ("test_set", "system", "metric", "level", "bucket", "segments", "score", "ci",
           "lower", "upper", "baseline", "method", "primary", "unit", "trials", "delta",
           "delta_lower", "delta_upper", "p_value", "p_adjusted", "significant", "mdd",
           "result", "correction", "family", "family_size", "signature", "flagged",
           "flagged_lines")

#: system -> every segment's score of one metric on one test set
SentenceScores = Callable[[str, str], dict[str, Any]]


class RunResult(dict[str, Any]):
    """A finished or stored run's record (see the module docstring)."""

    # ``outcome`` is an evalfw.runner.run.RunOutcome; not imported even for type checking,
    # since run.py imports this module (no import cycles, the architecture test says)
    def __init__(self, outcome: Any = None, *, record: Mapping[str, Any] | None = None,
                 path: Path | None = None, scores: SentenceScores | None = None) -> None:
        super().__init__(outcome.record if outcome is not None else record or {})
        self._path = outcome.path if outcome is not None else path
        self._scores = scores or (lambda ts, m: _evaluated_scores(outcome.evaluation, ts, m))

    @property
    def path(self) -> Path | None:
        """The version directory the run was stored in (``None`` when not stored)."""
        return self._path

    @property
    def meta_evaluation(self) -> Any:
        """The meta-evaluation (:class:`evalfw.runner.meta.MetaEvaluation`: the record's
        section, with ``to_pandas()``), or None without a ``meta_evaluation`` block."""
        from evalfw.runner.meta import MetaEvaluation

        section = self.get("meta_evaluation")
        return MetaEvaluation(section) if section else None

    @property
    def significance(self) -> list[dict[str, Any]]:
        """The significance tables, one per test set x analysed metric (empty without a
        ``significance`` block)."""
        return list((self.get("significance") or {}).get("tables", []))

    def rows(self) -> list[dict[str, Any]]:
        """The rows :meth:`to_pandas` makes a frame of, as plain dicts."""
        from evalfw.reports._cells import Significance

        sig = Significance(self)
        specs = {(s["test_set"], s["metric"]): s.get("sacrebleu_signature") or s["signature"]
                 for s in self.get("specs", [])}
        segments = {t["name"]: t["segments"] for t in self.get("test_sets", [])}
        flagged = _flags_by_system(self)
        out = []
        for r in self["results"]:
            row = dict.fromkeys(COLUMNS)
            row.update({k: r[k] for k in ("test_set", "system", "metric", "level", "score")})
            row.update(signature=specs.get((r["test_set"], r["metric"])),
                       segments=segments.get(r["test_set"]))
            found = flagged.get((r["test_set"], r["system"]))
            if found is not None:
                row.update(flagged_lines={c: lines for c, lines in found.items() if lines},
                           flagged=len(set().union(*found.values())))
            table = sig.tables.get((r["test_set"], r["metric"]))
            if table is None or r["level"] != "corpus":
                out.append(row)
                continue
            interval = _by_system(table["intervals"], r["system"])
            for method in sig.methods:
                comp = sig.comparison(r["system"], r["test_set"], r["metric"], method)
                out.append(_tested(row, sig, table, "comparisons", method, interval, comp))
        for table in sig.tables.values():
            out += _bucket_rows(sig, table, specs)
        return out

    def to_pandas(self) -> pandas.DataFrame:
        """The rows of :meth:`rows` as a DataFrame with the columns of :data:`COLUMNS`:
        per test set x metric x system x level (x test method, when significance was
        analysed) and per bucket x system, each with its score, interval, paired test
        against the baseline and the correction's family."""
        try:
            import pandas
        except ImportError:
            raise ModuleNotFoundError(
                "RunResult.to_pandas() needs pandas: pip install 'evalfw[pandas]'",
                name="pandas") from None
        return pandas.DataFrame(self.rows(), columns=list(COLUMNS))

    def sentence_scores(self, test_set: str, metric: str) -> dict[str, Any]:
        """System -> the score of every segment (a numpy array) of ``metric`` (its name in
        the config) on ``test_set``."""
        known = sorted({f"{r['test_set']}/{r['metric']}" for r in self["results"]})
        if f"{test_set}/{metric}" not in known:
            from evalfw.errors import ConfigError, suggest

            raise ConfigError(f"no metric '{metric}' on test set '{test_set}' in this run"
                              f"{suggest(f'{test_set}/{metric}', known)}; it has: "
                              f"{', '.join(known)}")
        return self._scores(test_set, metric)

    def _repr_html_(self) -> str:
        from evalfw.reports._notebook import notebook_html

        return notebook_html(self)

    def __reduce__(self) -> Any:  # pickles (e.g. to worker processes) as the plain record
        return (dict, (dict(self),))


def _flags_by_system(record: Mapping[str, Any]) -> dict[tuple[str, str], dict[str, list[int]]]:
    """(test set, system) -> check -> the lines it flagged (from the record's checks)."""
    return {(entry["test_set"], item["system"]): dict(item["flags"])
            for entry in (record.get("checks") or {}).get("test_sets", [])
            for item in entry["systems"]}


def _by_system(items: list[dict[str, Any]], system: str) -> dict[str, Any] | None:
    return next((i for i in items if i["system"] == system), None)


def _tested(row: dict[str, Any], sig: Significance, table: Mapping[str, Any], kind: str,
            method: str, interval: Mapping[str, Any] | None,
            comp: Mapping[str, Any] | None) -> dict[str, Any]:
    """``row`` with an interval, the paired test by ``method`` (None for the baseline) and
    the family that test was corrected in."""
    from evalfw.reports._cells import significant

    out = dict(row)
    if interval is not None:
        out.update({k: interval[k] for k in ("score", "ci", "lower", "upper")})
    family = next((f for f in table.get("families", ())
                   if f["kind"] == kind and f["method"] == method), None)
    out.update(baseline=table["baseline"], method=method, primary=method == sig.method,
               unit=sig.unit(table, method),
               trials=sig.settings.get("samples" if method == "bootstrap" else "ar_trials"),
               correction=sig.correction, family=sig.family,
               family_size=family["size"] if family else None)
    if comp is not None:
        out.update({k: comp.get(k) for k in ("delta", "delta_lower", "delta_upper", "p_value",
                                             "p_adjusted")})
        out["significant"] = significant(comp, sig.alpha)
        out["mdd"] = sig.mdd(comp)
        out["result"] = sig.verdict(comp, table["metric"], method == sig.method)
    return out


def _bucket_rows(sig: Significance, table: Mapping[str, Any],
                 specs: Mapping[tuple[str, str], str]) -> Iterator[dict[str, Any]]:
    """One row per bucket x system (the bucket tests use the marking test); a bucket too
    small to test has its scores only."""
    method = sig.method
    for bucket in (table.get("buckets") or {}).get("results", []):
        scores = bucket.get("scores") or {}
        systems = [i["system"] for i in bucket["intervals"]] or list(scores)
        for system in systems:
            interval = _by_system(bucket["intervals"], system)
            row = dict.fromkeys(COLUMNS)
            row.update(test_set=table["test_set"], system=system, score=scores.get(system),
                       metric=table["metric"], level="corpus", bucket=bucket["label"],
                       segments=bucket["segments"],
                       signature=specs.get((table["test_set"], table["metric"])))
            comp = next((c for c in bucket["comparisons"] if c["system"] == system
                         and c["method"] == method), None)
            yield _tested(row, sig, table, "buckets", method, interval, comp)


def _evaluated_scores(ev: Any, test_set: str, metric: str) -> dict[str, Any]:
    """Sentence scores from a run's statistics, still in memory."""
    built = ev.metrics[(test_set, metric)]
    return {system: built.sentence_scores(stats)
            for system, stats in ev.statistics(test_set, metric, level=None,
                                               concluded=False).items()}


def _stored_scores(stored: StoredRun, host: PluginHost | None) -> SentenceScores:
    """Sentence scores of a stored version: the stored ones of a metric with a sentence
    level, else computed from the stored statistics by the metric rebuilt from its recorded
    definition. The segments file is read (and checked) on first use."""
    arrays: dict[str, Any] = {}
    hosts: list[PluginHost] = []  # the one built on first use when none is given

    def scores(test_set: str, metric: str) -> dict[str, Any]:
        from evalfw.runner.recorded import metric_from_record

        if not arrays:
            arrays.update(stored.segments())
        rows = [r for r in stored.record["results"]
                if (r["test_set"], r["metric"]) == (test_set, metric)]
        stored_scores = {r["system"]: arrays[r["sentence_scores"]] for r in rows
                         if "sentence_scores" in r}
        if len(stored_scores) == len({r["system"] for r in rows}):
            return stored_scores
        spec = next(s for s in stored.record["specs"]
                    if (s["test_set"], s["metric"]) == (test_set, metric))
        if host is None and not hosts:
            from evalfw.host.host import PluginHost

            hosts.append(PluginHost.create())
        built = metric_from_record(host or hosts[0], spec["definition"], f"metric '{metric}'")
        out: dict[str, Any] = {}
        for r in rows:
            if r["system"] not in out:
                out[r["system"]] = built.sentence_scores(
                    stored.statistics(arrays, r["segments"], built))
        return out

    return scores


def load_run(run: str | os.PathLike[str], runs_dir: str | os.PathLike[str] | None = None, *,
             host: PluginHost | None = None) -> RunResult:
    """A stored version as :func:`evalfw.run` returned it, without recomputing: ``run`` is a
    version directory (or its ``record.json``), an experiment name (its latest version) or
    ``EXPERIMENT/VERSION`` under ``runs_dir`` (default ``runs``). ``host`` rebuilds metrics
    for :meth:`~RunResult.sentence_scores` of metrics the run scored at corpus level only.

    >>> result = evalfw.load_run("wmt")                  # doctest: +SKIP
    >>> result.to_pandas()                                # doctest: +SKIP
    """
    from evalfw.records.load import open_run

    stored = open_run(os.fspath(run), Path(runs_dir) if runs_dir is not None else None)
    return RunResult(record=stored.record, path=stored.path,
                     scores=_stored_scores(stored, host))
