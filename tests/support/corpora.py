"""Random Unicode-heavy corpora for differential tests against sacreBLEU: sentences glued from
a list of pieces with every kind of whitespace, empty lines, 1 to 4 reference streams (some
references missing, never all of a segment's) and hypotheses that copy a reference."""

from __future__ import annotations

import random
from collections.abc import Sequence

SPACES = [" ", " ", " ", "  ", "\t", "\u3000", "\n", ""]


def sentence(rng: random.Random, pieces: Sequence[str], longest: int = 14) -> str:
    if rng.random() < 0.08:
        return rng.choice(["", " ", "a", "\t \t"])
    words = [rng.choice(pieces) for _ in range(rng.randint(1, longest))]
    text = "".join(w + rng.choice(SPACES) for w in words)
    return rng.choice(["", " ", "\t"]) + text if rng.random() < 0.2 else text


def corpus(seed: int, pieces: Sequence[str], segments: int = 25, longest: int = 14
           ) -> tuple[list[str], list[list[str | None]]]:
    rng = random.Random(seed)
    hyps = [sentence(rng, pieces, longest) for _ in range(segments)]
    nrefs = rng.randint(1, 4)
    refs: list[list[str | None]] = [[sentence(rng, pieces, longest) for _ in range(segments)]
                                    for _ in range(nrefs)]
    if nrefs > 1 and rng.random() < 0.5:  # missing references (never all of a segment's)
        for i in range(segments):
            for k in range(1, nrefs):
                if rng.random() < 0.3:
                    refs[k][i] = None
    # some hypotheses copy a reference, so matches are complete as well as partial
    for i in range(0, segments, 5):
        hyps[i] = refs[0][i] or ""
    return hyps, refs


__all__ = ["SPACES", "corpus", "sentence"]
