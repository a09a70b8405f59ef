"""What :func:`evalfw.run` returns: the run's record, with notebook conveniences.

:class:`RunResult` *is* the record (a ``dict``: ``result["results"]``, ``json.dumps(result)``
and every existing use keep working) and adds:

- :meth:`~RunResult.to_pandas`: one row per test set x system x metric (x level) with score,
  interval, p-value against the baseline and signature (needs ``pip install 'evalfw[pandas]'``);
- ``_repr_html_``: the results table, as a notebook shows the object (self-styled: it reads
  the same in Jupyter and in a plain page, :mod:`evalfw.reports._notebook`);
- :meth:`~RunResult.sentence_scores`: every segment's score of a metric, from the statistics
  kept in memory;
- :attr:`~RunResult.significance`: the significance tables (intervals, paired tests, buckets);
- :attr:`~RunResult.path`: the stored version directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas

__all__ = ["COLUMNS", "RunResult"]

#: the columns of :meth:`RunResult.to_pandas`, in order
COLUMNS = ("test_set", "system", "metric", "level", "score", "ci", "lower", "upper",
           "baseline", "method", "delta", "p_value", "p_adjusted", "signature")


class RunResult(dict):  # type: ignore[type-arg]
    """A finished run's record (see the module docstring)."""

    # ``outcome`` is an evalfw.runner.run.RunOutcome; not imported even for type checking,
    # since run.py imports this module (no import cycles, the architecture test says)
    def __init__(self, outcome: Any) -> None:
        super().__init__(outcome.record)
        self._outcome = outcome

    @property
    def path(self) -> Path | None:
        """The version directory the run was stored in (``None`` when not stored)."""
        return self._outcome.path

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
        out = []
        for r in self["results"]:
            row = dict.fromkeys(COLUMNS)
            row.update({k: r[k] for k in ("test_set", "system", "metric", "level", "score")})
            row["signature"] = specs.get((r["test_set"], r["metric"]))
            table = sig.tables.get((r["test_set"], r["metric"]))
            if table is not None and r["level"] == "corpus":
                cell = sig.cell(r["system"], r["test_set"], r["metric"])
                row.update(ci=cell.ci, lower=cell.lower, upper=cell.upper,
                           baseline=table["baseline"], method=sig.method, delta=cell.delta,
                           p_value=cell.p_value, p_adjusted=cell.p_adjusted)
            out.append(row)
        return out

    def to_pandas(self) -> pandas.DataFrame:
        """One row per test set x system x metric x level: score, interval (``ci`` half-width,
        ``lower``, ``upper``), the paired test against the baseline (first configured
        method: ``delta``, ``p_value``, ``p_adjusted``) and the metric's signature."""
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
        ev = self._outcome.evaluation
        built = ev.metrics.get((test_set, metric))
        if built is None:
            from evalfw.errors import ConfigError, suggest

            known = sorted({f"{t}/{m}" for t, m in ev.metrics})
            raise ConfigError(f"no metric '{metric}' on test set '{test_set}' in this run"
                              f"{suggest(f'{test_set}/{metric}', known)}; it has: "
                              f"{', '.join(known)}")
        return {system: built.sentence_scores(stats)
                for system, stats in ev.statistics(test_set, metric, level=None).items()}

    def _repr_html_(self) -> str:
        from evalfw.reports._notebook import notebook_html

        return notebook_html(self)

    def __reduce__(self) -> Any:  # pickles (e.g. to worker processes) as the plain record
        return (dict, (dict(self),))
