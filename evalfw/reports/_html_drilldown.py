"""The drill-down section of the HTML report: each system's worst segments against the
baseline, with source, references and both hypotheses.

The run stores, per hypothesis, the character spans of the tokens (the drill-down metric's
tokenizer) that no reference contains (``hypothesis_unmatched``, ``baseline_unmatched``);
they are marked here. A record without spans (written before they were stored) is marked by
whitespace words, which for Chinese or Japanese is the whole sentence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from evalfw.reports._cells import places as scale_places
from evalfw.reports._html_checks import badge


def highlight(hypothesis: str, references: Sequence[str]) -> str:
    """Escaped ``hypothesis`` with the whitespace words no reference contains marked."""
    known = {w for r in references for w in r.split()}
    return " ".join(escape(w) if w in known else f"<mark>{escape(w)}</mark>"
                    for w in hypothesis.split())


def mark_spans(text: str, spans: Sequence[Sequence[int]]) -> str:
    """Escaped ``text`` with the character ``spans`` ([start, end), ascending) marked;
    spans out of range or overlapping an earlier one are ignored."""
    out, at = [], 0
    for start, end in spans:
        if not at <= start < end <= len(text):
            continue
        out += [escape(text[at:start]), f"<mark>{escape(text[start:end])}</mark>"]
        at = end
    out.append(escape(text[at:]))
    return "".join(out)


def _marked(seg: Mapping[str, Any], key: str, spans_key: str) -> str:
    spans = seg.get(spans_key)
    if spans is None:
        return highlight(seg[key], seg["references"])
    return mark_spans(seg[key], spans)


def _segment(seg: Mapping[str, Any], system: str, baseline: str, digits: int,
             flags: Mapping[str, Mapping[int, list[str]]]) -> str:
    texts: list[tuple[str, str]] = []
    if seg.get("source") is not None:
        texts.append(("source", escape(seg["source"])))
    texts += [(f"reference {k + 1}", escape(r)) for k, r in enumerate(seg["references"])]
    texts += [(f"baseline ({baseline})", _marked(seg, "baseline_hypothesis",
                                                  "baseline_unmatched")),
              (system, _marked(seg, "hypothesis", "hypothesis_unmatched"))]
    items = "".join(f"<dt>{escape(role)}</dt><dd class=\"txt\">{t}</dd>" for role, t in texts)
    marks = "".join(f" · {badge(found)}" + (f" ({escape(who)})" if who == baseline else "")
                    for who in (system, baseline)
                    if (found := flags.get(who, {}).get(seg["segment"])))
    return (f"<div class=\"seg\" data-segment=\"{seg['segment']}\"><p class=\"seghead\">"
            f"<strong>segment {seg['segment']}</strong> · score {seg['score']:.{digits}f}"
            f" · baseline {seg['baseline_score']:.{digits}f} · <span class=\"worse\">"
            f"Δ {seg['delta']:+.{digits}f}</span>{marks}</p><dl class=\"texts\">{items}</dl></div>")


def drilldown(items: Sequence[Mapping[str, Any]], scales: Mapping[str, float],
              flagged: Mapping[tuple[str, str], Mapping[int, list[str]]] | None = None) -> str:
    """The section; ``scales`` maps metric names to their score scale (for the decimals);
    ``flagged``: (test set, system) -> line -> the checks that flagged it, marked."""
    if not items:
        return "<p class=\"note\">No drill-down stored (significance.worst_segments: 0).</p>"
    out = []
    for item in items:
        digits = scale_places(scales.get(item["metric"], 100))
        tokens = (f"tokens ({escape(item['tokenizer'])} tokenizer)" if item.get("tokenizer")
                  else "words")
        out.append(f"<h3>{escape(item['test_set'])}</h3><p class=\"note\">Sentence scores by "
                   f"metric {escape(item['metric'])}; Δ = system − baseline "
                   f"({escape(item['baseline'])}), worst first. <mark>Marked</mark>: {tokens} "
                   "of a hypothesis that no reference contains.</p>")
        for k, entry in enumerate(item["systems"]):
            if not entry["segments"]:
                out.append(f"<p class=\"note\">{escape(entry['system'])}: no segment scores "
                           "below the baseline.</p>")
                continue
            flags = {who: (flagged or {}).get((item["test_set"], who), {})
                     for who in (entry["system"], item["baseline"])}
            segs = "".join(_segment(s, entry["system"], item["baseline"], digits, flags)
                           for s in entry["segments"])
            opened = " open" if k == 0 else ""  # the first one visible without a click
            out.append(f"<details{opened} data-system=\"{escape(entry['system'])}\"><summary>"
                       f"{escape(entry['system'])}: {len(entry['segments'])} worst segments"
                       f"</summary>{segs}</details>")
    return "\n".join(out)
