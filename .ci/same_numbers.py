"""Exit 1 unless two stored runs hold the same numbers: ``python .ci/same_numbers.py A B``.

A and B are run directories (``runs/<experiment>/<version>``) of the same config computed by
two installations (the editable one and a wheel in a fresh virtualenv, with or without the
compiled kernels). What they computed must be identical: the inputs, the metrics' definitions,
every score, interval and test (``repr`` of every float), the warnings, and every array of the
per-segment statistics. What differs by nature is left out: times, versions, paths, the
environment (which names the code that computed).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

SAME = ("config", "seed", "inputs", "test_sets", "metrics", "specs", "results", "warnings")


def main(a: Path, b: Path) -> int:
    ra, rb = (json.loads((p / "record.json").read_text("utf-8")) for p in (a, b))
    ra["config"].pop("path", None)
    rb["config"].pop("path", None)
    differ = [key for key in SAME if json.dumps(ra.get(key)) != json.dumps(rb.get(key))]
    with np.load(a / ra["segments"]["file"]) as za, np.load(b / rb["segments"]["file"]) as zb:
        if sorted(za.files) != sorted(zb.files):
            differ.append("segments (arrays)")
        differ += [f"segments[{name}]" for name in za.files
                   if za[name].dtype != zb[name].dtype or not np.array_equal(za[name], zb[name])]
    if differ:
        print(f"same_numbers: {a} and {b} differ in: {', '.join(differ)}", file=sys.stderr)
        return 1
    print(f"same_numbers: {len(ra['results'])} results and the segment statistics are identical")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
