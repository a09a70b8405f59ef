"""Lines to SentencePiece pieces joined by spaces, for batches.

sentencepiece returns a batch's pieces as one Python string per piece, and making those strings
costs as much as the encoding itself. A batch is therefore encoded to ids, and each line's text
is gathered with numpy from the batch's distinct pieces, each followed by a space. For any id
but the unknown one, ``EncodeAsPieces`` gives the vocabulary's piece for that id, so the text is
``" ".join(pieces) + " "``; a line holding an unknown piece (whose text is the input's own
characters) is encoded again as pieces. Small batches are encoded as pieces directly (without
numpy).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

#: batches of fewer lines are encoded as pieces directly
GATHERED = 64
#: lines gathered at once (bounds the index arrays of one pass)
CHUNK = 1 << 15


def texts(processor: Any, lines: list[str], threads: int) -> list[str]:
    """Each line's pieces joined by spaces (maybe with a space after the last)."""
    if len(lines) < GATHERED:
        return _as_pieces(processor, lines, threads)
    out: list[str] = []
    for start in range(0, len(lines), CHUNK):
        out += _gathered(processor, lines[start:start + CHUNK], threads)
    return out


def _as_pieces(processor: Any, lines: list[str], threads: int) -> list[str]:
    return [" ".join(p) for p in processor.encode(lines, out_type=str, num_threads=threads)]


def _gathered(processor: Any, lines: list[str], threads: int) -> list[str]:
    import numpy as np

    ids = processor.encode(lines, out_type=int, num_threads=threads)
    counts = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
    flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(counts.sum()))
    used, items = np.unique(flat, return_inverse=True)
    pieces = processor.id_to_piece(used.tolist())
    if any("\n" in piece for piece in pieces):  # it would be taken for the end of a line
        return _as_pieces(processor, lines, threads)
    # the batch's pieces, each with a space after it, then a line end (item len(used))
    lengths = np.append(np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces)) + 1, 1)
    starts = np.concatenate(([0], np.cumsum(lengths[:-1])))
    codes = np.frombuffer("".join([*(p + " " for p in pieces), "\n"]).encode("utf-32-le"),
                          dtype=np.uint32)
    items = np.insert(items.reshape(-1), np.cumsum(counts), len(used))  # "\n" after each line
    sizes = lengths[items]
    ends = np.cumsum(sizes)
    # output position p of item i reads codes[starts[i] + (p - the first position of i)]
    where = np.repeat(starts[items] - (ends - sizes), sizes)
    where += np.arange(int(ends[-1]))
    out = codes[where].tobytes().decode("utf-32-le").split("\n")
    del out[-1]
    unknown = np.unique(np.repeat(np.arange(len(lines)), counts)[flat == processor.unk_id()])
    if len(unknown):
        redo = unknown.tolist()
        for i, text in zip(redo, _as_pieces(processor, [lines[i] for i in redo], threads),
                           strict=True):
            out[i] = text
    return out


__all__ = ["CHUNK", "GATHERED", "texts"]
