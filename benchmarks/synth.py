"""A deterministic synthetic corpus for speed and memory benchmarks.

``python benchmarks/synth.py OUTDIR [--segments N] [--seed S]`` writes ``ref.txt`` and
``hyp.txt`` (one segment per line, UTF-8, final newline). Same arguments, same bytes, on any
machine and Python 3 version: only ``random.Random`` with an integer seed is used.

Shape (close to the corpora in the sacreBLEU/NLTK timing notes): a 20,000-word Zipf vocabulary
of lowercase pseudo-words; references of 20-30 words, the first capitalised, a comma after one
word in half of them, a final period. A hypothesis keeps each reference word with probability
0.7 (else a random word), and drops one word in half of the segments. Expected BLEU is around 40.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from itertools import accumulate
from pathlib import Path

LETTERS = "etaoinshrdlucmfwypvbgkjqxz"
VOCAB = 20_000


def vocabulary(rng: random.Random) -> list[str]:
    words: set[str] = set()
    out = []
    while len(out) < VOCAB:
        w = "".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 9)))
        if w not in words:
            words.add(w)
            out.append(w)
    return out


def generate(segments: int, seed: int = 2022):
    """Yield (reference, hypothesis) lines."""
    rng = random.Random(seed)
    words = vocabulary(rng)
    cum = list(accumulate(1.0 / (r + 1) for r in range(VOCAB)))  # Zipf, exponent 1
    for _ in range(segments):
        ref = rng.choices(words, cum_weights=cum, k=rng.randint(20, 30))
        hyp = [w if rng.random() < 0.7 else rng.choices(words, cum_weights=cum)[0] for w in ref]
        if rng.random() < 0.5:
            del hyp[rng.randrange(len(hyp))]
        comma = rng.randrange(len(ref) - 1) if rng.random() < 0.5 else -1
        yield _surface(ref, comma), _surface(hyp, comma if comma < len(hyp) - 1 else -1)


def _surface(tokens: list[str], comma: int) -> str:
    out = list(tokens)
    out[0] = out[0].capitalize()
    if comma >= 0:
        out[comma] += ","
    return " ".join(out) + "."


def write(outdir: Path, segments: int, seed: int = 2022) -> tuple[Path, Path]:
    """Write the corpus unless an identical one (same parameters) is already there."""
    outdir.mkdir(parents=True, exist_ok=True)
    ref, hyp = outdir / "ref.txt", outdir / "hyp.txt"
    stamp = outdir / "PARAMS"
    params = f"segments={segments} seed={seed} version=1\n"
    if ref.exists() and hyp.exists() and stamp.exists() and stamp.read_text() == params:
        return ref, hyp
    with open(ref, "w", encoding="utf-8", newline="\n") as fr, \
            open(hyp, "w", encoding="utf-8", newline="\n") as fh:
        for r, h in generate(segments, seed):
            fr.write(r + "\n")
            fh.write(h + "\n")
    stamp.write_text(params)
    return ref, hyp


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--segments", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=2022)
    args = ap.parse_args(argv)
    for path in write(args.outdir, args.segments, args.seed):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        print(f"{path}  sha256:{digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
