"""Sections of the HTML report built from plain record data: paired tests, buckets and
provenance (the drill-down is :mod:`evalfw.reports._html_drilldown`). Every value from the
record is escaped; nothing here fetches anything.

Tables of numbers sit in a ``.wide`` box that scrolls sideways on its own where the screen is
too narrow, with the system column (``.sys``) kept in view; numeric cells and their headers
are ``.num`` (right-aligned). Provenance tables are ``.stack``: on a phone each row becomes a
block of "label: value" lines (the labels come from ``data-label``), see ``_html_style``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from evalfw.reports._cells import Significance, significant
from evalfw.reports._legend import units_words


def p_text(p: float, adjusted: float | None, correction: str | None = "Holm") -> str:
    text = f"p = {p:.4g}"
    return text + (f", {correction}-adjusted p = {adjusted:.4g}" if adjusted is not None
                   else "")


def _title(sig: Significance, c: Mapping[str, Any]) -> str:
    """The test's name in its table: marked as primary or secondary when there are two."""
    # short: the settings line above the tables names the tests in full
    test: str = {"bootstrap": "bootstrap", "ar": "AR"}.get(c["method"], c["method"])
    if sig.secondary is None:
        return test
    return f"{test} ({'primary' if c['method'] == sig.method else 'secondary'})"


def anchor(*names: str) -> str:
    return "-".join(re.sub(r"[^A-Za-z0-9_-]+", "_", n) for n in names)


def wide(table: str) -> str:
    """``table`` in its own horizontally scrolling box (the page itself never scrolls)."""
    return f"<div class=\"wide\">{table}</div>"


def system_cell(name: str) -> str:
    """The row header of a system: kept in view while its row scrolls sideways; a long name
    wraps (after a hyphen, where it has one) instead of widening the column."""
    return f"<th scope=\"row\" class=\"sys\"><span class=\"name\">{escape(name)}</span></th>"


def _head(names: Sequence[str], numeric: Sequence[bool]) -> str:
    """A header row; the first column is the system column."""
    kinds = ["sys", *("num" if num else "" for num in numeric[1:])]
    cells = [f"<th class=\"{kind}\">{name}</th>" if kind else f"<th>{name}</th>"
             for name, kind in zip(names, kinds, strict=True)]
    return "<thead><tr>" + "".join(cells) + "</tr></thead>"


def settings_note(sig: Significance) -> str:
    s = sig.settings
    items = [f"baseline <strong>{escape(str(s.get('baseline')))}</strong>",
             f"method {escape(str(s.get('method')))}", f"mode {escape(str(s.get('mode')))}",
             f"{s.get('samples')} bootstrap resamples"]
    if s.get("method") in ("ar", "both"):
        items.append(f"{s.get('ar_trials')} AR trials")
    items += [f"seed {sig.section.get('seed')}", f"α = {sig.alpha:g}",
              f"correction {escape(sig.correction)}", f"family {escape(sig.family)}",
              f"resampling {escape(units_words(sig))}"]
    if sig.secondary is not None:
        names = {"bootstrap": "paired bootstrap", "ar": "approximate randomization (AR)"}
        items.append(f"primary test {names[sig.method]}, secondary {names[sig.secondary]}")
    note = f"<p class=\"note\">{' · '.join(items)}. p-values are two-sided in default mode.</p>"
    if sig.section.get("sacrebleu_warning"):
        note += f"<p class=\"note worse\">{escape(sig.section['sacrebleu_warning'])}.</p>"
    return note


def _comparison_rows(sig: Significance, comps: Sequence[Mapping[str, Any]], metric: str,
                     with_baseline: bool) -> list[str]:
    """Rows of paired tests; all pairs (``with_baseline``) leave the MDD to the result's
    words, so the table keeps to a laptop's width."""
    out = []
    places = sig.places(metric)
    for c in comps:
        marked = significant(c, sig.alpha) and c["method"] == sig.method
        klass = (" class=\"better\"" if sig.better(metric, c["delta"]) else
                 " class=\"worse\"") if marked else ""
        cells = [f"<td>{escape(c['baseline'])}</td>"] if with_baseline else []
        cells.append(f"<td>{escape(_title(sig, c))}</td>")
        mdd = sig.mdd(c)
        numbers = [f"{c['delta']:+.{places}f}",
                   (f"[{c['delta_lower']:+.{places}f}, {c['delta_upper']:+.{places}f}]"
                    if c.get("delta_lower") is not None else "–"),
                   escape(sig.p_text(c, "p_value")), escape(sig.p_text(c, "p_adjusted"))]
        if not with_baseline:
            numbers.append("–" if mdd is None else f"{mdd:.{places}f}")
        cells += [f"<td class=\"num\">{x}</td>" for x in numbers]
        cells.append(f"<td>{escape(sig.verdict(c, metric, c['method'] == sig.method))}</td>")
        out.append(f"<tr{klass} data-system=\"{escape(c['system'])}\" "
                   f"data-p=\"{c['p_value']!r}\">" + system_cell(c["system"]) + "".join(cells)
                   + "</tr>")
    return out


def _heads(sig: Significance, mdd: bool = True) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    adjusted = f"p ({sig.adjusted_name})" if sig.adjusted_name else "p (adjusted)"
    head = ("System", "Test", "Δ score", f"Δ {sig.level_text} interval (unadjusted)", "p",
            adjusted, *(("MDD",) if mdd else ()), "result")
    return head, (False, False, *(True,) * (len(head) - 3), False)


def comparisons_table(sig: Significance, table: Mapping[str, Any]) -> str:
    """Paired tests against the baseline; differences get the decimals of the metric's
    scale."""
    rows = _comparison_rows(sig, table["comparisons"], table["metric"], False)
    if not rows:
        return ""
    head, numeric = _heads(sig)
    return wide("<table class=\"tests\">" + _head(head, numeric) + "<tbody>" + "".join(rows)
                + "</tbody></table>")


def pairs_table(sig: Significance, table: Mapping[str, Any]) -> str:
    """Every pair of systems (when run), folded."""
    if not table.get("pairs"):
        return ""
    head, numeric = _heads(sig, mdd=False)
    return ("<details><summary>All pairs</summary>" + wide(
        "<table class=\"tests\">" + _head(("System", "against", *head[1:]),
                                          (False, *numeric)) + "<tbody>"
        + "".join(_comparison_rows(sig, table["pairs"], table["metric"], True))
        + "</tbody></table>") + "</details>")


def ranking_table(sig: Significance, table: Mapping[str, Any]) -> str:
    """The systems best first, with their WMT-style cluster and bootstrap rank interval."""
    ranking = table.get("ranking")
    if not ranking:
        return ""
    places = sig.places(table["metric"])
    level = f"{ranking.get('level', 0.95):.0%}"
    rows = []
    for r in ranking["systems"]:
        span = str(r["rank_lower"]) if r["rank_lower"] == r["rank_upper"] else \
            f"{r['rank_lower']}–{r['rank_upper']}"
        shade = " class=\"band\"" if r["cluster"] % 2 == 0 else ""
        rows.append(f"<tr{shade}>" + system_cell(r["system"])
                    + "".join(f"<td class=\"num\">{x}</td>" for x in (
                        r["cluster"], f"{r['score']:.{places}f}", r["rank"], span)) + "</tr>")
    head = _head(("System", "cluster", "score", "rank", f"{level} rank interval"),
                 (False, True, True, True, True))
    return (f"<figure class=\"ranking\"><figcaption>Ranking: {len(ranking['clusters'])} "
            "cluster(s) from the all-pairs tests; rank intervals over the bootstrap "
            "resamples</figcaption>" + wide("<table class=\"tests\">" + head + "<tbody>"
                                            + "".join(rows) + "</tbody></table>")
            + "</figure>")


def buckets_table(sig: Significance, table: Mapping[str, Any], length_axis: str) -> str:
    results = table["buckets"]["results"]
    systems = table["systems"]
    metric = table["metric"]
    places = sig.places(metric)
    head = "".join(f"<th class=\"num\">{escape(b['label'])}<br><span class=\"ci\">"
                   f"{b['segments']} seg.{_untested(b)}</span></th>" for b in results)
    out = [f"<details><summary>Scores per bucket of {escape(length_axis)} "
           f"({escape(table['buckets']['bucketer']['name'])})</summary>",
           f"<div class=\"wide\"><table class=\"buckets\"><thead><tr><th class=\"sys\">System"
           f"</th>{head}</tr></thead><tbody>"]
    for system in systems:
        cells = []
        for b in results:
            i = next((x for x in b["intervals"] if x["system"] == system), None)
            c = next((x for x in b["comparisons"] if x["system"] == system), None)
            score = (b.get("scores") or {}).get(system)
            text = "–" if i is None and score is None else f"{score:.{places}f}" if i is None \
                else f"{i['score']:.{places}f} <span class=\"ci\">±{i['ci']:.{places}f}</span>"
            if c is not None and significant(c, sig.alpha):
                text += " <span class=\"mark\">" + \
                    ("†" if sig.better(metric, c["delta"]) else "‡") + "</span>"
            cells.append(f"<td class=\"num\">{text}</td>")
        out.append(f"<tr>{system_cell(system)}{''.join(cells)}</tr>")
    out.append("</tbody></table></div></details>")
    return "".join(out)


def _untested(bucket: Mapping[str, Any]) -> str:
    """Under a bucket's count: why it has no tests, if it has none."""
    why = bucket.get("untested")
    if why == "too few segments":
        return "<br>too few segments"
    return "<br>no tests" if why else ""


def _sha(value: str) -> str:
    # ellipsized by the style sheet; the whole hash stays in the text (copy, search) and title
    return f"<span class=\"sha\" title=\"{escape(value)}\">{escape(value)}</span>"


def _path(value: str) -> str:
    """A path that may wrap after each ``/`` or ``\\`` (not in the middle of a name)."""
    parts = re.split(r"(?<=[/\\])", value)
    return "<code class=\"path\">" + "<wbr>".join(escape(part) for part in parts) + "</code>"


def _signature(value: str) -> str:
    """A signature that may wrap after each ``|`` field."""
    return "|<wbr>".join(escape(part) for part in value.split("|"))


def _kv(pairs: Sequence[tuple[str, Any]]) -> str:
    return "<table class=\"kv\">" + "".join(
        f"<tr><th>{escape(k)}</th><td>{v}</td></tr>" for k, v in pairs) + "</table>"


def _stack(klass: str, head: Sequence[str], rows: Sequence[Sequence[str]],
           numeric: Sequence[bool] | None = None) -> str:
    """A table that becomes one block per row on a phone (labels from ``data-label``); the
    cells are HTML."""
    num = [' class="num"' if n else "" for n in (numeric or [False] * len(head))]
    th = "".join(f"<th{n}>{escape(h)}</th>" for h, n in zip(head, num, strict=True))
    body = "".join("<tr>" + "".join(
        f"<td data-label=\"{escape(h)}\"{n}><span>{cell}</span></td>" if cell else "<td></td>"
        for h, n, cell in zip(head, num, row, strict=True)) + "</tr>" for row in rows)
    return (f"<table class=\"stack {klass}\"><thead><tr>{th}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


def _plugin(p: Mapping[str, Any]) -> list[str]:
    where = [escape(" ".join(str(p[k]) for k in ("distribution", "version") if k in p))]
    if "path" in p:
        where.append(_path(str(p["path"])))
    if "sha256" in p:
        where.append("sha256 " + _sha(str(p["sha256"])))
    if "error" in p:
        where.append(f"<span class=\"worse\">{escape(str(p['error']))}</span>")
    return [escape(p["name"]), escape(p["source"]), " ".join(w for w in where if w)]


def provenance(record: Mapping[str, Any]) -> str:
    cmd, cfg, env = record["command"], record["config"], record["environment"]
    argv = " ".join(cmd["argv"]) if cmd.get("argv") else "(Python API)"
    facts = [("command", f"<code>{escape(argv)}</code>"),
             ("overrides", escape(", ".join(o.get("set", json.dumps(o)) for o in cmd["overrides"])
                                  or "none")),
             ("config", f"{_path(str(cfg['path']))} sha256 "
                        + _sha(str(cfg["sha256"]))),
             ("resolved config sha256", _sha(cfg["resolved_sha256"])),
             ("seed", escape(str(record["seed"]))),
             ("python", escape(f"{env['python']} ({env['implementation']}) on {env['platform']}")),
             ("packages", escape(", ".join(f"{k} {v}" for k, v in env["packages"].items()))),
             ("segments file", f"{_path(record['segments']['file'])} sha256 "
                               + _sha(record["segments"]["sha256"]))]
    sigs = [[escape(s["test_set"]), escape(s["metric"]),
             f"<code>{_signature(s.get('sacrebleu_signature') or s['signature'])}</code>"]
            for s in record["specs"]]
    inputs = [[escape(i["test_set"]), escape(i["role"]), escape(i.get("system", "")),
               _path(i["path"]), str(i["lines"]), _sha(i["sha256"])] for i in record["inputs"]]
    warnings = "".join(f"<li>{escape(w['file'])}: {escape(w['message'])}</li>"
                       for w in record.get("warnings", []))
    return "\n".join([
        _kv(facts),
        "<h3>Signatures</h3>" + _stack("sigs", ("test set", "metric", "signature"), sigs),
        "<h3>Inputs</h3>" + _stack("inputs", ("test set", "role", "system", "path", "lines",
                                              "sha256"), inputs,
                                   (False, False, False, False, True, False)),
        "<details><summary>Plugins</summary>" + _stack(
            "plugins", ("plugin", "source", "from"),
            [_plugin(p) for p in record["plugins"]]) + "</details>",
        f"<h3>Data warnings</h3><ul>{warnings}</ul>" if warnings else ""])
