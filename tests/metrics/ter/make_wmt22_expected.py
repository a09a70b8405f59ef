"""Writes ``wmt22_sacrebleu_ter.tsv``: sacreBLEU 2.6.0's TER of every WMT22 system (all
references, whole corpus), with default options and, for en-ja and en-zh, with
``normalized`` and ``asian_support``. sacreBLEU needs minutes for this, so the WMT22 tests read
the table and run sacreBLEU itself only on a sample of segments.

    python tests/metrics/ter/make_wmt22_expected.py /path/to/shared/data/wmt22
"""

from __future__ import annotations

import sys
from pathlib import Path

from sacrebleu.metrics import TER

HERE = Path(__file__).resolve().parent
OUT = HERE / "wmt22_sacrebleu_ter.tsv"
#: option sets by name; the asian one only where the target language is Chinese or Japanese
VARIANTS = {"default": {}, "normalized+asian": {"normalized": True, "asian_support": True}}
ASIAN_PAIRS = ("en-ja", "en-zh")


def read_lines(path: Path) -> list[str]:
    # as sacreBLEU's command line reads files
    return [x.rstrip() for x in path.read_text(encoding="utf-8").split("\n")[:-1]]


def main(root: Path) -> int:
    rows = ["pair\tsystem\tvariant\tscore\tnum_edits\tref_length"]
    for pair_dir in sorted(p for p in root.iterdir() if (p / "sys").is_dir()):
        pair = pair_dir.name
        refs = [read_lines(p) for p in sorted(pair_dir.glob("ref.*.txt"))]
        for variant, options in VARIANTS.items():
            if variant != "default" and pair not in ASIAN_PAIRS:
                continue
            ter = TER(references=refs, **options)
            for system in sorted(pair_dir.glob("sys/*.txt")):
                s = ter.corpus_score(read_lines(system), None)
                rows.append(f"{pair}\t{system.stem}\t{variant}\t{s.score!r}\t{s.num_edits}"
                            f"\t{s.ref_length!r}")
                print(rows[-1], flush=True)
    OUT.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
