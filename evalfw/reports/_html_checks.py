"""The output checks section of the HTML report: the legend (which checks ran, what a flag
counted for), a table of the systems with flagged segments, and per system the flagged
segments the record keeps texts of (source, references, the output), each marked with the
checks that flagged it. Everything comes from the record's ``checks`` section and is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from evalfw.reports import _checks


def line_flags(record: Mapping[str, Any]) -> dict[tuple[str, str], dict[int, list[str]]]:
    """(test set, system) -> line -> the checks that flagged it."""
    out: dict[tuple[str, str], dict[int, list[str]]] = {}
    for entry in (_checks.section(record) or {}).get("test_sets", []):
        for item in entry["systems"]:
            lines = out.setdefault((entry["test_set"], item["system"]), {})
            for check, found in item["flags"].items():
                for line in found:
                    lines.setdefault(line, []).append(check)
    return out


def badge(checks: list[str]) -> str:
    """The mark a flagged segment carries, here and in the drill-down."""
    return f"<span class=\"flag\">flagged: {escape(', '.join(checks))}</span>"


def _text(text: str) -> str:
    return escape(text) if text.strip() else "<span class=\"none\">(empty)</span>"


def _segment(example: Mapping[str, Any], system: str, checks: list[str]) -> str:
    texts = []
    if example.get("source") is not None:
        texts.append(("source", _text(example["source"])))
    texts += [(f"reference {k + 1}", _text(r)) for k, r in enumerate(example["references"])]
    texts.append((f"output ({system})", _text(example["outputs"][system])))
    items = "".join(f"<dt>{escape(role)}</dt><dd class=\"txt\">{t}</dd>" for role, t in texts)
    return (f"<div class=\"seg\" data-segment=\"{example['line']}\"><p class=\"seghead\">"
            f"<strong>segment {example['line']}</strong> · {badge(checks)}</p>"
            f"<dl class=\"texts\">{items}</dl></div>")


def checks_section(record: Mapping[str, Any]) -> str:
    """The section's body (empty when the record holds no checks)."""
    checks = _checks.section(record)
    if checks is None:
        return ""
    out = [f"<p class=\"note\">{escape(str(_checks.legend(record)))}</p>"]
    rows = _checks.flagged_rows(record)
    if checks.get("definitions") and not rows:
        out.append("<p class=\"note\">No segment of any system was flagged.</p>")
    if rows:
        body = "".join(f"<tr><th scope=\"row\" class=\"sys\"><span class=\"name\">"
                       f"{escape(s)}</span></th><td class=\"nw\">{escape(t)}</td>"
                       f"<td>{escape(text)}</td></tr>"
                       for t, s, text in rows)
        out.append("<div class=\"wide\"><table class=\"checks\"><thead><tr><th class=\"sys\">"
                   "system</th><th>test set</th><th>flagged segments</th></tr></thead>"
                   f"<tbody>{body}</tbody></table></div>")
    flagged = line_flags(record)
    first = True
    for entry in checks.get("test_sets", []):
        examples = {e["line"]: e for e in entry.get("examples", [])}
        parts = []
        for item in entry["systems"]:
            lines = flagged.get((entry["test_set"], item["system"]), {})
            shown = [n for n in sorted(lines) if item["system"] in
                     examples.get(n, {}).get("outputs", {})]
            if not lines:
                continue
            segs = "".join(_segment(examples[n], item["system"], lines[n]) for n in shown)
            rest = sorted(set(lines) - set(shown))
            if rest:
                more = ", ".join(map(str, rest[:40])) + (" ..." if len(rest) > 40 else "")
                segs += (f"<p class=\"note\">{len(rest)} more flagged segment(s), texts not "
                         f"kept in the record: lines {more}</p>")
            opened = " open" if first else ""  # the first system's texts in view
            first = False
            parts.append(f"<details{opened} data-system=\"{escape(item['system'])}\"><summary>"
                         f"{escape(item['system'])}: {len(lines)} flagged segment(s)"
                         f"</summary>{segs}</details>")
        if parts:
            out.append(f"<h3>{escape(entry['test_set'])}</h3>" + "".join(parts))
        for check, why in entry.get("skipped", {}).items():
            out.append(f"<p class=\"note\">{escape(entry['test_set'])}: check "
                       f"{escape(check)} not run: {escape(why)}</p>")
    return "\n".join(out)


__all__ = ["badge", "checks_section", "line_flags"]
