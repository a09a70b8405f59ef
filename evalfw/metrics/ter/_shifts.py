"""TER edit counting in pure Python: the twin of the compiled ``_ter.c`` (same algorithm, same
numbers), used when the extension is not built or ``EVALFW_NATIVE=0``.

What sacreBLEU 2.6.0 counts for one (hypothesis, reference) pair of token ids:

- a banded ("beam") edit distance: row i covers the columns around ``floor(i * m / n)`` (in
  doubles) with half-width 25, widened for very unequal lengths and to the end on the last
  row; only the band's cells are kept (sacreBLEU keeps whole rows), so memory grows with
  the lengths, not their product; ties prefer match/substitution, then deletion, then insertion. The band makes it
  differ from Levenshtein, and the trace it leaves chooses the shift candidates, so both are
  reproduced exactly;
- greedy shifts: each round tries every common run (up to 10 words, start offsets at most 50
  apart) that is wrong on both sides, at the targets the alignment suggests, and applies the
  best by (gain, length, -start, -target); rounds stop when nothing gains or when 1000
  candidates were tried in all (that round's shift is then dropped);
- edits = shifts + the distance of the final hypothesis.

A candidate's first words equal the round's hypothesis up to the shift, and banded rows depend
only on the words before them, so candidates start from the round's rows (sacreBLEU caches
rows in a trie for the same reason; the numbers do not depend on how rows are reused).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator, Sequence

INF = 10**16
BEAM = 25
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_CANDIDATES = 1000
NOP, SUB, DEL, INS = 1, 2, 3, 4


def _bands(n: int, m: int) -> list[tuple[int, int]]:
    """(lo, hi) column range of rows 0..n (row 0 whole), with sacreBLEU's float steps."""
    ratio = m / n if n else 1
    beam = math.ceil(ratio / 2 + BEAM) if BEAM < ratio / 2 else BEAM
    out = [(0, m + 1)]
    for i in range(1, n + 1):
        diag = math.floor(i * ratio)
        hi = m + 1 if i == n else min(m + 1, diag + beam)
        lo = max(0, diag - beam)
        out.append((lo, max(lo, hi)))
    return out


# Rows are banded: row i keeps the cells of columns [lo, hi) of its band only, so memory grows
# with the lengths, not their product. A cell outside the band is INF (and its op undefined),
# exactly as in a full matrix filled with INF. A kept row is an array of int64 and its ops are
# bytes (8 and 1 bytes a cell, where a list holds a pointer and an int object): a line of
# 200,000 words keeps 10 million cells.


def _row(word: int, ref: Sequence[int], band: tuple[int, int], prev: Sequence[int],
         prev_band: tuple[int, int], ops: list[int] | None) -> list[int]:
    lo, hi = band
    plo, phi = prev_band
    cur: list[int] = []
    left = INF  # the cell before the band is INF
    for j in range(lo, hi):
        if j == 0:
            best, op = (prev[0] if plo == 0 < phi else INF) + 1, DEL
        else:
            same = word == ref[j - 1]
            best, op = INF, 0
            c = (prev[j - 1 - plo] if plo < j <= phi else INF) + (0 if same else 1)
            if c < best:  # strict: the first of equal costs wins
                best, op = c, (NOP if same else SUB)
            c = (prev[j - plo] if plo <= j < phi else INF) + 1
            if c < best:
                best, op = c, DEL
            if left + 1 < best:
                best, op = left + 1, INS
        cur.append(best)
        if ops is not None:
            ops.append(op)
        left = best
    return cur


def _round_matrix(hyp: list[int], ref: Sequence[int], bands: list[tuple[int, int]]
                  ) -> tuple[list[Sequence[int]], list[int], list[int], list[int]]:
    """The rows of ``hyp``, the alignment and the prefix sums of hyp/ref error flags."""
    m = len(ref)
    rows: list[Sequence[int]] = [array("q", range(m + 1))]
    ops = [bytes([INS]) * (m + 1)]
    for i, word in enumerate(hyp, 1):
        op_row: list[int] = []
        rows.append(array("q", _row(word, ref, bands[i], rows[-1], bands[i - 1], op_row)))
        ops.append(bytes(op_row))
    trace = []
    i, j = len(hyp), m
    while i > 0 or j > 0:
        lo, hi = bands[i]
        op = ops[i][j - lo] if lo <= j < hi else 0
        trace.append(op)
        if op in (NOP, SUB):
            i, j = i - 1, j - 1
        elif op == INS:
            j -= 1
        elif op == DEL:
            i -= 1
        else:
            raise RuntimeError("TER: the edit trace met an undefined cell")
    # Rewriting the reference into the hypothesis (the flipped trace, as TERCOM aligns):
    # a deletion consumes a hypothesis word, an insertion a reference word.
    align, herr, rerr = [0] * m, [0], [0]
    ph = pr = -1
    for op in reversed(trace):
        if op in (NOP, SUB):
            ph, pr = ph + 1, pr + 1
            align[pr] = ph
            herr.append(herr[-1] + (op == SUB))
            rerr.append(rerr[-1] + (op == SUB))
        elif op == DEL:
            ph += 1
            herr.append(herr[-1] + 1)
        else:
            pr += 1
            align[pr] = ph
            rerr.append(rerr[-1] + 1)
    return rows, align, herr, rerr


def shift(words: list[int], start: int, length: int, target: int) -> list[int]:
    """sacreBLEU's shift of ``words[start:start+length]`` before ``target`` (a target inside
    the span moves it by ``target - start``, its quirk)."""
    span = words[start:start + length]
    if target < start:
        return words[:target] + span + words[target:start] + words[start + length:]
    if target > start + length:
        return words[:start] + words[start + length:target] + span + words[target:]
    return words[:start] + words[start + length:length + target] + span + words[length + target:]


def _distance_from(cand: list[int], hyp: list[int], ref: Sequence[int],
                   bands: list[tuple[int, int]], rows: list[Sequence[int]]) -> int:
    s = 0
    n = len(hyp)
    while s < n and cand[s] == hyp[s]:
        s += 1
    prev = rows[s]
    for i in range(s + 1, n + 1):
        prev = _row(cand[i - 1], ref, bands[i], prev, bands[i - 1], None)
    return prev[len(ref) - bands[n][0]]


def pair_edits(hyp: Sequence[int], ref: Sequence[int]) -> int:
    """sacreBLEU's TER edit count of one hypothesis against one reference."""
    n, m = len(hyp), len(ref)
    if m == 0 or n == 0:
        return n + m
    bands = _bands(n, m)
    words = list(hyp)
    shifts = checked = 0
    while True:
        rows, align, herr, rerr = _round_matrix(words, ref, bands)
        pre = rows[n][m - bands[n][0]]
        best: tuple[int, int, int, int] | None = None
        for sh, sr, length in _runs(words, ref):
            if herr[sh + length] == herr[sh] or rerr[sr + length] == rerr[sr] \
                    or sh <= align[sr] < sh + length:
                continue
            prev_t = -1
            for k in range(sr - 1, sr + length):
                t = 0 if k == -1 else align[k] + 1
                if t == prev_t:
                    continue
                prev_t = t
                gain = pre - _distance_from(shift(words, sh, length, t), words, ref, bands, rows)
                checked += 1
                key = (gain, length, -sh, -t)
                if best is None or key > best:
                    best = key
            if checked >= MAX_CANDIDATES:
                break
        if checked >= MAX_CANDIDATES or best is None or best[0] <= 0:
            return shifts + pre
        words = shift(words, -best[2], best[1], -best[3])
        shifts += 1


def _runs(hyp: list[int], ref: Sequence[int]) -> Iterator[tuple[int, int, int]]:
    """(hyp start, ref start, length) of common runs, every length of a run, shortest first."""
    n, m = len(hyp), len(ref)
    for sh in range(n):
        for sr in range(max(0, sh - MAX_SHIFT_DIST), min(m, sh + MAX_SHIFT_DIST + 1)):
            length = 0
            while length < MAX_SHIFT_SIZE and hyp[sh + length] == ref[sr + length]:
                length += 1
                yield sh, sr, length
                if sh + length == n or sr + length == m:
                    break


__all__ = ["pair_edits", "shift"]
