"""Sentence-level score export: one row per segment, as CSV or JSON Lines.

Rows carry the test set, system, metric name, segment number (1-based, the line number in the
input files), the segment's score under the spec (any smoothing the spec configures), its
brevity penalty and its lengths. Scores are written with ``repr`` precision, so a reader gets
the exact floats back.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.spec import BleuSpec
from evalfw.metrics.bleu.stats import SegmentStats

FIELDS = ("test_set", "system", "metric", "segment", "score", "bp", "hyp_len", "ref_len")


def sentence_rows(spec: BleuSpec, stats: SegmentStats, *, test_set: str, system: str,
                  metric: str = "BLEU") -> Iterator[dict[str, Any]]:
    """One mapping per segment, in segment order (keys: :data:`FIELDS`)."""
    for i, score in enumerate(engine.sentence_scores(spec, stats)):
        yield {"test_set": test_set, "system": system, "metric": metric, "segment": i + 1,
               "score": score.score, "bp": score.bp, "hyp_len": score.hyp_len,
               "ref_len": score.ref_len}


def write_csv(rows: Iterable[dict[str, Any]], out: IO[str]) -> None:
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: repr(v) if isinstance(v, float) else v for k, v in row.items()})


def write_jsonl(rows: Iterable[dict[str, Any]], out: IO[str]) -> None:
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False) + "\n")


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
