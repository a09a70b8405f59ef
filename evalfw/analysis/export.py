"""Sentence-level score export: one row per segment, as CSV or JSON Lines.

Rows carry the test set, system, metric name, segment number (1-based, the line number in the
input files) and the segment's score under the metric (with any option it has, e.g. BLEU's
smoothing). Results that have them add a brevity penalty and lengths (BLEU's ``bp``,
``hyp_len``, ``ref_len``); other metrics leave those columns empty. Scores are written with
``repr`` precision, so a reader gets the exact floats back.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.base import Metric

FIELDS = ("test_set", "system", "metric", "segment", "score", "bp", "hyp_len", "ref_len")
#: result attributes some metrics have per segment (BLEU), empty for the others
DETAILS = ("bp", "hyp_len", "ref_len")


def sentence_rows(metric: Metric, stats: np.ndarray, *, test_set: str, system: str,
                  label: str = "BLEU", nrefs: int | str = 1) -> Iterator[dict[str, Any]]:
    """One mapping per segment, in segment order (keys: :data:`FIELDS`); ``label`` is the
    metric's name in the config."""
    for i, result in enumerate(metric.sentence_results(stats, nrefs)):
        yield {"test_set": test_set, "system": system, "metric": label, "segment": i + 1,
               "score": result.score,
               **{k: getattr(result, k, "") for k in DETAILS}}


def write_csv(rows: Iterable[dict[str, Any]], out: IO[str]) -> None:
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: repr(v) if isinstance(v, float) else v for k, v in row.items()})


def write_jsonl(rows: Iterable[dict[str, Any]], out: IO[str]) -> None:
    for row in rows:  # a metric without per-segment details leaves them out
        out.write(json.dumps({k: v for k, v in row.items() if v != ""},
                             ensure_ascii=False) + "\n")


def export(rows: Iterable[dict[str, Any]], path: str | Path, fmt: str | None = None) -> Path:
    """Write ``rows`` to ``path``; the format is ``fmt`` or the suffix (``.csv``/``.jsonl``)."""
    path = Path(path)
    fmt = fmt or path.suffix.lstrip(".").lower()
    writers = {"csv": write_csv, "jsonl": write_jsonl}
    if fmt not in writers:
        from evalfw.errors import ConfigError

        raise ConfigError(f"sentence-score export to {path}: unknown format '{fmt}'; "
                          "use a .csv or .jsonl file name (or pass fmt='csv'/'jsonl')")
    with path.open("w", encoding="utf-8", newline="") as fh:
        writers[fmt](rows, fh)
    return path


def to_text(rows: Iterable[dict[str, Any]], fmt: str = "csv") -> str:
    buf = io.StringIO()
    (write_csv if fmt == "csv" else write_jsonl)(rows, buf)
    return buf.getvalue()


__all__ = ["DETAILS", "export", "FIELDS", "sentence_rows", "to_text", "write_csv", "write_jsonl"]
