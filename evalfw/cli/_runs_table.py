"""The table ``evalfw runs`` prints: a header row, one row per stored version, fitted to a
width.

Two versions of one experiment can differ in their data without a config change (``--set
data_root=...``, files replaced in place): the INPUTS column is a short hash of the contents
of every input file, so such runs are told apart at a glance, next to their test sets.
To fit a width, the headline is cut first, then the test sets (each ending in ``…`` where it
was cut); still too wide, the CREATED column goes (the version name holds the same UTC time)
and the config hash is shortened to 8 digits; a line that is still too long (a very narrow
terminal) is cut at the width.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["HEADER", "row", "table"]

HEADER = ("RUN", "CREATED (UTC)", "CONFIG", "INPUTS", "TEST SETS", "HEADLINE")
#: columns that may be cut to fit, in the order they give way
SHRINKABLE = (5, 4)
MIN_WIDTH = {4: 9, 5: 12}
GAP = "  "


def _score(h: Mapping[str, Any]) -> str:
    from evalfw.metrics.scales import places

    return f"{h['score']:.{places(h['score_scale'])}f}"


def row(entry: Mapping[str, Any]) -> list[str]:
    """The cells of one version, every name as :func:`evalfw.names.shown` prints it."""
    from evalfw.names import printable_data

    entry = printable_data(entry)
    run = f"{entry['experiment']}/{entry['version']}"
    if "error" in entry:
        return [run, "-", "-", "-", "-", f"UNREADABLE: {entry['error']}"]
    heads = "; ".join(f"{h['test_set']} {h['metric']}: best {h['best_system']} "
                      f"{_score(h)} of {h['systems']}" for h in entry["headline"])
    if "damaged" in entry:  # first, so cutting the line to a width keeps it
        heads = f"DAMAGED: {entry['damaged']}; " + heads
    created = entry["created"][:16].replace("T", " ")
    return [run, created, entry["config_sha256"][:12], entry["inputs_sha256"][:8],
            ",".join(entry["test_sets"]), heads]


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:max(0, width - 1)] + "…"


def _total(widths: Sequence[int]) -> int:
    shown = [w for w in widths if w]
    return sum(shown) + len(GAP) * (len(shown) - 1)


def _shrink(widths: list[int], width: int) -> None:
    for col in SHRINKABLE:
        excess = _total(widths) - width
        if excess <= 0:
            return
        widths[col] = max(min(MIN_WIDTH[col], widths[col]), widths[col] - excess)


def table(rows: Sequence[Sequence[str]], width: int | None) -> list[str]:
    """Header and rows, aligned; with ``width``, no line is longer."""
    rows = [list(HEADER), *(list(r) for r in rows)]
    natural = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    widths = list(natural)
    if width is not None:
        _shrink(widths, width)
        if _total(widths) > width:
            widths = [natural[0], 0, min(natural[2], 8), *natural[3:]]
            _shrink(widths, width)
    lines = []
    for r in rows:
        # hashes are cut without a mark: a prefix of a hash is still a (shorter) hash
        cells = [(c[:w] if i in (2, 3) else _cut(c, w)).ljust(w)
                 for i, (c, w) in enumerate(zip(r, widths)) if w]
        line = GAP.join(cells).rstrip()
        lines.append(line if width is None else _cut(line, width))
    return lines
