"""Output checks on the WMT22 data in ../shared: what they flag in the real outputs, how
precise they are on corrupted copies, and what they cost.

    python benchmarks/checks_bench.py real        # flags per pair and system, every check
    python benchmarks/checks_bench.py corrupt     # precision and recall on corrupted copies
    python benchmarks/checks_bench.py speed       # CPU of the default checks, cold and cached

``corrupt`` makes one corrupted copy of every system (44): of each system's segments, chosen
at random (``random.Random``, seed 12345 and the pair and system names), 5 % are replaced by
their source, 5 % by a random reference line of another language pair, 2 % cut to a third of
their characters (at a word boundary where the script has spaces), 2 % emptied and 2 % given a
loop (a phrase of 2 to 4 words, or 3 to 6 Chinese or Japanese characters, of the output
repeated five more times right after itself, the rest dropped). Every check (``language``
too) then runs on the copies. A flag is right when the segment's corruption is one the check
is for (``empty``: emptied; ``copy-source``: source; ``language``: source or another pair's
reference; ``length``: cut; ``repetition``: looped; ``numbers``: cut, with a number of 13 or
more, written in ASCII digits, in the clean output and not in the cut one). Flags on
untouched segments count as wrong, real problems of the systems included. Precision and
recall are given over all segments and over segments of 5 words or more (source and corrupted
output; a Chinese or Japanese character counts as half a word; for an emptied segment, the
clean output), the population the acceptance figures are stated for.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from evalfw.checks._text import words  # noqa: E402
from evalfw.checks.base import CheckInput  # noqa: E402
from evalfw.checks.builtin import BUILTIN  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "wmt22"
PAIRS = ("de-en", "en-de", "en-zh", "en-ja")
SEED = 12345
SHARES = (("source", 0.05), ("other-ref", 0.05), ("cut", 0.02), ("emptied", 0.02),
          ("looped", 0.02))
TARGETS = {"empty": {"emptied"}, "copy-source": {"source"}, "language": {"source", "other-ref"},
           "length": {"cut"}, "repetition": {"looped"}, "numbers": {"cut-number"}}
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def lines(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text("utf-8").split("\n")[:-1])


def load() -> dict[str, dict[str, object]]:
    if not DATA.is_dir():
        sys.exit(f"checks_bench: the WMT22 data is not at {DATA}")
    out = {}
    for pair in PAIRS:
        folder = DATA / pair
        out[pair] = {
            "source": lines(folder / "src.txt"),
            "references": tuple(lines(p) for p in sorted(folder.glob("ref.*.txt"))),
            "systems": {p.stem: lines(p) for p in sorted((folder / "sys").glob("*.txt"))},
        }
    return out


def inputs(pair: str, data: dict[str, object], system: str, hyps: tuple[str, ...]) -> CheckInput:
    return CheckInput(pair, system, pair, hyps, data["source"], data["references"])  # type: ignore[arg-type]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def default_checks() -> list[object]:
    return [cls() for cls in BUILTIN]


# ----------------------------------------------------------------------------- real


def real() -> None:
    """Flags of the default checks, and of ``language`` when py3langid is installed."""
    from evalfw.checks.language import Language

    data = load()
    checks = default_checks() + ([] if Language().unavailable() else [Language()])
    names = [c.name for c in checks]
    print("pair   system              " + "  ".join(f"{n:>11}" for n in names) + "  flagged")
    totals = Counter()
    for pair in PAIRS:
        d = data[pair]
        for system, hyps in d["systems"].items():  # type: ignore[attr-defined]
            segs = inputs(pair, d, system, hyps)
            flagged = {c.name: [i + 1 for i, f in enumerate(c.flag(segs)) if f] for c in checks}
            union = set().union(*flagged.values())
            totals.update({k: len(v) for k, v in flagged.items()})
            totals["segments"] += len(hyps)
            totals["flagged"] += len(union)
            print(f"{pair}  {system:<18}  " + "  ".join(f"{len(flagged[n]):>11}" for n in names)
                  + f"  {len(union):>4} ({100 * len(union) / len(hyps):.1f} %)")
            shown = {k: v for k, v in flagged.items() if 0 < len(v) <= 3}
            if shown:
                print("         lines: " + "; ".join(f"{k} {' '.join(map(str, v))}"
                                               for k, v in shown.items()))
    print(f"all    {totals['segments']} segments  "
          + "  ".join(f"{n} {totals[n]}" for n in names)
          + f"  flagged {totals['flagged']} "
          f"({100 * totals['flagged'] / totals['segments']:.2f} %)")


# ----------------------------------------------------------------------------- corrupt


def cut(text: str) -> str:
    keep = max(1, len(text) // 3)
    head = text[:keep]
    if " " in head and not _UNSPACED.search(head):
        head = head.rsplit(" ", 1)[0] or head
    return head.rstrip()


def loop(text: str, rng: random.Random) -> str:
    if _UNSPACED.search(text):
        size = rng.randint(3, 6)
        start = rng.randrange(max(1, len(text) - size))
        phrase = text[start:start + size]
        return text[:start + size] + phrase * 5
    tokens = text.split()
    size = min(len(tokens), rng.randint(2, 4))
    start = rng.randrange(max(1, len(tokens) - size + 1))
    phrase = tokens[start:start + size]
    return " ".join(tokens[:start + size] + phrase * 5)


def _digits(text: str) -> set[str]:
    return {d for d in re.findall(r"[0-9]+", text) if len(d) > 2 or int(d) >= 13}


def corrupt_system(pair: str, system: str, data: dict[str, dict[str, object]]
                   ) -> tuple[tuple[str, ...], dict[int, str]]:
    """The corrupted copy and segment -> what was done to it."""
    d = data[pair]
    hyps = list(d["systems"][system])  # type: ignore[index]
    rng = random.Random(f"{SEED}-{pair}-{system}")
    order = list(range(len(hyps)))
    rng.shuffle(order)
    kinds: dict[int, str] = {}
    at = 0
    others = [p for p in PAIRS if p != pair]
    for kind, share in SHARES:
        for i in order[at:at + round(share * len(hyps))]:
            clean = hyps[i]
            if kind == "source":
                hyps[i] = d["source"][i]  # type: ignore[index]
            elif kind == "other-ref":
                refs = data[rng.choice(others)]["references"][0]  # type: ignore[index]
                hyps[i] = refs[rng.randrange(len(refs))]
            elif kind == "cut":
                hyps[i] = cut(clean)
            elif kind == "emptied":
                hyps[i] = ""
            else:
                hyps[i] = loop(clean, rng)
            kinds[i] = kind
            if kind == "cut" and _digits(d["source"][i]) & (_digits(clean) - _digits(hyps[i])):  # type: ignore[index]
                kinds[i] = "cut-number"
        at += round(share * len(hyps))
    return tuple(hyps), kinds


def corrupt() -> None:
    from evalfw.checks.language import Language

    data = load()
    checks = [*default_checks(), Language()]
    counts = {scope: {c.name: Counter() for c in checks} for scope in ("all", "5+")}
    started = cpu()
    for pair in PAIRS:
        d = data[pair]
        for system in d["systems"]:  # type: ignore[attr-defined]
            hyps, kinds = corrupt_system(pair, system, data)
            segs = inputs(pair, d, system, hyps)
            clean = d["systems"][system]  # type: ignore[index]
            long = [words(d["source"][i]) >= 5  # type: ignore[index]
                    and words(hyps[i] if kinds.get(i) != "emptied" else clean[i]) >= 5
                    for i in range(len(hyps))]
            for check in checks:
                targets = TARGETS[check.name]
                for i, flagged in enumerate(check.flag(segs)):
                    kind = kinds.get(i)
                    aimed = kind in targets or (kind == "cut-number" and "cut" in targets)
                    for scope in ("all", "5+") if long[i] else ("all",):
                        c = counts[scope][check.name]
                        c["flags"] += flagged
                        c["right"] += flagged and aimed
                        c["corrupted"] += flagged and kind is not None
                        c["aimed"] += aimed
                        c["found"] += flagged and aimed
    seconds = cpu() - started
    print("check        segments  targets      flags  precision  (any corruption)  recall"
          "   | 5+ words: targets  flags  precision  recall")
    for check in checks:
        a, b = counts["all"][check.name], counts["5+"][check.name]
        print(f"{check.name:<12} {'all':>8}  {a['aimed']:>7}  {a['flags']:>9}  "
              f"{_ratio(a['right'], a['flags']):>9}  {_ratio(a['corrupted'], a['flags']):>16}"
              f"  {_ratio(a['found'], a['aimed']):>6}   | {b['aimed']:>16}  {b['flags']:>5}  "
              f"{_ratio(b['right'], b['flags']):>9}  {_ratio(b['found'], b['aimed']):>6}")
    print(f"({sum(len(d['systems']) for d in data.values())} corrupted systems, "  # type: ignore[arg-type]
          f"{seconds:.1f} s CPU for all six checks)")


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "-"


# ----------------------------------------------------------------------------- speed


def speed() -> None:
    """CPU of the default checks through the runner's code (cache keys, checks on the answers,
    record entries), with an empty cache, then again with the cache it filled."""
    from evalfw.config.model import TestSetConfig
    from evalfw.io.text import read_segments
    from evalfw.runner._checks import run_checks
    from evalfw.runner.cache import StatsCache

    data = load()
    checks = default_checks()
    with tempfile.TemporaryDirectory() as tmp:
        store = StatsCache(tmp)
        sets = []
        for pair in PAIRS:
            folder = DATA / pair
            systems = tuple((p.stem, p) for p in sorted((folder / "sys").glob("*.txt")))
            ts = TestSetConfig(pair, pair, folder / "src.txt",
                               tuple(sorted(folder.glob("ref.*.txt"))), systems)

            class Read:
                references = [read_segments(p) for p in ts.references]
                systems_ = [read_segments(p) for _, p in ts.systems]
                source = read_segments(ts.source) if ts.source else None
            Read.systems = Read.systems_  # type: ignore[attr-defined]
            sets.append((ts, Read))
        segments = sum(len(d["source"]) * len(d["systems"]) for d in data.values())  # type: ignore[arg-type]
        for label in ("cold (no cache)", "cached re-run"):
            started = cpu()
            for ts, read in sets:
                run_checks(checks, ts, read, store)  # type: ignore[arg-type]
            print(f"{label:<16} {cpu() - started:6.2f} s CPU for the default checks on "
                  f"{segments:,} segments ({sum(len(ts.systems) for ts, _ in sets)} systems)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("real", "corrupt", "speed"), nargs="+")
    for what in parser.parse_args().what:
        {"real": real, "corrupt": corrupt, "speed": speed}[what]()


if __name__ == "__main__":
    main()
