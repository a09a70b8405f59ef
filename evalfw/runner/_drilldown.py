"""What a run keeps of its texts besides the statistics: worst-segment texts for the report's
drill-down, sentence-score exports, and segment lengths counted from the texts.

Drill-down texts are stored in the record at run time (not read back at render time): a
report must render from ``record.json`` alone, also after the inputs moved or changed, and
only a few segments per system are kept (``significance.worst_segments``). The texts are read
from the run's inputs right after scoring and each file's sha256 must equal the one recorded
for it while scoring, so the texts are those of the scored files.

Worst segments rank a system's segments by how much worse than the baseline's it scores under
the drill-down metric (in the metric's direction: lower for BLEU, higher for TER; ties in
segment order); only segments where the system does worse than the baseline are kept, so a
system may have fewer (or none). The drill-down metric is ``significance.drilldown_metric``,
by default one meant for sentences (:func:`drilldown_metric`): corpus BLEU without effective
order scores most short segments 0, so the "worst" would be 3-word artefacts.

Each kept hypothesis carries the character spans of its tokens that no reference contains,
tokenized as the drill-down metric tokenizes (:func:`unmatched_spans`), so the report marks
words of Chinese or Japanese, not whole sentences.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.analysis import export
from evalfw.errors import InputError
from evalfw.io.text import read_segments
from evalfw.metrics.base import SegmentContext, SegmentLengths
from evalfw.tokenizers.base import Tokenizer

if TYPE_CHECKING:
    from evalfw.config import ExperimentConfig, TestSetConfig
    from evalfw.metrics.base import Metric
    from evalfw.runner._evaluate import Evaluation

EXPORT_FILES = {"csv": "sentences.csv", "jsonl": "sentences.jsonl"}


def _lines(path: Any, recorded: Mapping[str, str]) -> list[str]:
    text = read_segments(path)
    want = recorded.get(text.path)
    if want is not None and want != text.sha256:
        raise InputError(f"{text.path} changed while the run was scoring it (sha256 "
                         f"{want[:12]}... -> {text.sha256[:12]}...); run again on stable inputs")
    return text.lines


def _recorded(ts: TestSetConfig, ev: Evaluation) -> dict[str, str]:
    return {i["path"]: i["sha256"] for i in ev.inputs if i["test_set"] == ts.name}


def _texts(ts: TestSetConfig, ev: Evaluation) -> dict[str, Any]:
    if ts.name in ev.derived:  # a test set built from an MQM file: its texts as read
        return ev.derived[ts.name]
    recorded = _recorded(ts, ev)
    return {
        "source": _lines(ts.source, recorded) if ts.source is not None else None,
        "references": [_lines(p, recorded) for p in ts.references],
        "systems": {name: _lines(p, recorded) for name, p in ts.systems},
    }


def text_lengths(ts: TestSetConfig, ev: Evaluation, baseline: str) -> SegmentLengths:
    """Whitespace-separated words of the baseline's hypotheses and of the first reference:
    the lengths buckets use for a metric that reports none."""
    if ts.name in ev.derived:
        hyp, ref = ev.derived[ts.name]["systems"][baseline], ev.derived[ts.name]["references"][0]
    else:
        recorded = _recorded(ts, ev)
        hyp = _lines(dict(ts.systems)[baseline], recorded)
        ref = _lines(ts.references[0], recorded)
    kept = ev.segment_numbers(ts.name, len(ref))  # the segments the statistics are of
    return SegmentLengths(np.array([len(hyp[i].split()) for i in kept], dtype=np.int64),
                          np.array([len(ref[i].split()) for i in kept], dtype=np.int64))


def reference_lengths(ts: TestSetConfig, ev: Evaluation, metric: Metric) -> np.ndarray:
    """The first reference's length per segment in ``metric``'s unit: the hypothesis length
    the metric measures when the first reference is scored as a hypothesis (BLEU's tokens,
    chrF's characters); whitespace words for a metric that reports no hypothesis lengths.
    Buckets by reference length use it when the metric's own reference lengths depend on
    the system (several references)."""
    recorded = _recorded(ts, ev)
    refs = [_lines(p, recorded) for p in ts.references]
    context = SegmentContext(test_set=ts.name, system="reference 1", langs=ts.langs,
                             source=None, scores={})
    stats = metric.statistics_of(refs[0], metric.prepare_references(refs), context)
    found = metric.lengths(stats)
    if found is not None and found.hypothesis is not None:
        return np.asarray(found.hypothesis, dtype=np.int64)
    return np.array([len(r.split()) for r in refs[0]], dtype=np.int64)


def drilldown_metric(cfg: ExperimentConfig, chosen: str | None) -> str:
    """The metrics entry that ranks worst segments: ``chosen``, else the first entry the
    config also scores per sentence, else the first with effective order, else the first."""
    if chosen is not None:
        return chosen
    for suited in (lambda m: "sentence" in m.levels,
                   lambda m: m.options.get("effective_order") is True):
        found = next((m.name for m in cfg.metrics if suited(m)), None)
        if found is not None:
            return found
    return cfg.metrics[0].name


def metric_tokenizer(metric: Metric) -> tuple[Tokenizer, bool] | None:
    """The tokenizer ``metric`` counts with and whether it lowercases, when it exposes them
    (as ``tokenizer``/``lowercase`` or on its ``spec``, as BLEU does); None otherwise."""
    for holder in (metric, getattr(metric, "spec", None)):
        tok = getattr(holder, "tokenizer", None)
        if isinstance(tok, Tokenizer):
            return tok, bool(getattr(holder, "lowercase", False))
    return None


def unmatched_spans(tokenizer: Tokenizer, lowercase: bool, hypothesis: str,
                    references: Sequence[str]) -> list[list[int]]:
    """[start, end) character spans in ``hypothesis`` of its tokens that no reference
    contains. A token the tokenizer rewrote (so it is not a substring at that point) is not
    marked rather than marked in the wrong place."""
    lines = tokenizer.tokenize([hypothesis, *references])
    fold = str.lower if lowercase else (lambda t: t)
    known = {fold(t) for toks in lines[1:] for t in toks}
    spans: list[list[int]] = []
    at = 0
    for token in lines[0]:
        start = hypothesis.find(token, at)
        if start < 0:
            continue
        at = start + len(token)
        if fold(token) not in known:
            if spans and spans[-1][1] == start:  # adjacent (e.g. CJK characters): one mark
                spans[-1][1] = at
            else:
                spans.append([start, at])
    return spans


def worst_segments(ev: Evaluation, cfg: ExperimentConfig, baseline: str, label: str,
                   k: int) -> list[dict[str, Any]]:
    """Per test set: each system's ``k`` worst segments against the baseline under the
    metrics entry ``label``, with their texts and unmatched-token spans."""
    if k == 0:
        return []
    out = []
    for ts in cfg.test_sets:
        metric = ev.metrics[(ts.name, label)]
        tokens = metric_tokenizer(metric)
        sign = 1.0 if metric.higher_is_better else -1.0  # "worse" in the metric's direction
        stats = ev.statistics(ts.name, label, level=None)
        base = metric.sentence_scores(stats[baseline])
        texts = _texts(ts, ev)
        numbers = ev.segment_numbers(ts.name, len(texts["references"][0])).tolist()
        systems = []
        for name, st in stats.items():
            if name == baseline:
                continue
            values = metric.sentence_scores(st)
            delta = values - base
            worse = sign * delta
            rows = []
            worst = [i for i in np.argsort(worse, kind="stable")[:k].tolist() if worse[i] < 0]
            for i in worst:
                n = numbers[i]  # row i's segment (on_flag: exclude leaves some out)
                refs = [r[n] for r in texts["references"]]
                row = {
                    "segment": n + 1, "score": float(values[i]), "baseline_score": float(base[i]),
                    "delta": float(delta[i]), "hypothesis": texts["systems"][name][n],
                    "baseline_hypothesis": texts["systems"][baseline][n],
                    "source": None if texts["source"] is None else texts["source"][n],
                    "references": refs}
                if tokens is not None:
                    row["hypothesis_unmatched"] = unmatched_spans(*tokens, row["hypothesis"], refs)
                    row["baseline_unmatched"] = unmatched_spans(
                        *tokens, row["baseline_hypothesis"], refs)
                rows.append(row)
            systems.append({"system": name, "segments": rows})
        out.append({"test_set": ts.name, "metric": label, "baseline": baseline,
                    "tokenizer": tokens[0].name if tokens is not None else None,
                    "systems": systems})
    return out


def sentence_exports(ev: Evaluation, cfg: ExperimentConfig, formats: Sequence[str]
                     ) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """Files ``sentences.csv``/``.jsonl`` (every test set x system x metric, every segment)
    and their record entries (file, format, rows, sha256)."""
    if not formats:
        return {}, []
    rows: list[dict[str, Any]] = []
    for ts in cfg.test_sets:
        nrefs = len(ts.references)
        for config in cfg.metrics:
            metric = ev.metrics[(ts.name, config.name)]
            for system, st in ev.statistics(ts.name, config.name, level=None,
                                            concluded=False).items():
                rows += export.sentence_rows(metric, st, test_set=ts.name, system=system,
                                             label=config.name, nrefs=nrefs)
    files, entries = {}, []
    for fmt in formats:
        text = export.to_text(rows, fmt)
        files[EXPORT_FILES[fmt]] = text
        entries.append({"file": EXPORT_FILES[fmt], "format": fmt, "rows": len(rows),
                        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()})
    return files, entries
