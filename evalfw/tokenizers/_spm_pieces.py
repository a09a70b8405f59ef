"""Lines to SentencePiece pieces joined by spaces, for batches.

sentencepiece returns a batch's pieces as one Python string per piece, and making those strings
costs as much as the encoding itself. A batch is therefore encoded to ids, and each line's text
is gathered with numpy from a table of every piece followed by a space. For any id but the
unknown one, ``EncodeAsPieces`` gives the vocabulary's piece for that id, so the text is
``" ".join(pieces) + " "``; a line holding an unknown piece (whose text is the input's own
characters) is encoded again as pieces. Small batches skip the table (and numpy).
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

#: batches of fewer lines are encoded as pieces directly
GATHERED = 64
#: lines gathered at once (bounds the index arrays of one pass)
CHUNK = 1 << 15


class PieceTable:
    """Every piece of a model, each followed by a space, and a line end after the last id:
    their UTF-32 code units end to end, where each starts and how long it is."""

    def __init__(self, pieces: list[str], unknown: int) -> None:
        import numpy as np

        size = len(pieces)
        self.unknown = unknown
        self.line_end = size  # the id that stands for "\n"
        self.lengths: np.ndarray = np.append(
            np.fromiter(map(len, pieces), dtype=np.int64, count=size) + 1, 1)
        self.starts: np.ndarray = np.concatenate(([0], np.cumsum(self.lengths[:-1])))
        text = "".join([*(piece + " " for piece in pieces), "\n"])
        self.codes: np.ndarray = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def table_of(processor: Any) -> PieceTable | None:
    """The table of a model, or None when a piece holds a line break (which would be taken
    for the end of a line)."""
    pieces = processor.id_to_piece(list(range(processor.get_piece_size())))
    if any("\n" in piece for piece in pieces):
        return None
    return PieceTable(pieces, processor.unk_id())


def texts(processor: Any, table: PieceTable | None, lines: list[str],
          threads: int) -> list[str]:
    """Each line's pieces joined by spaces (with ``table``: and a space after the last)."""
    if table is None or len(lines) < GATHERED:
        return [" ".join(p) for p in processor.encode(lines, out_type=str,
                                                      num_threads=threads)]
    out: list[str] = []
    for start in range(0, len(lines), CHUNK):
        out += _gathered(processor, table, lines[start:start + CHUNK], threads)
    return out


def _gathered(processor: Any, table: PieceTable, lines: list[str], threads: int) -> list[str]:
    import numpy as np

    ids = processor.encode(lines, out_type=int, num_threads=threads)
    counts = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
    flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(counts.sum()))
    unknown = np.unique(np.repeat(np.arange(len(lines)), counts)[flat == table.unknown])
    flat = np.insert(flat, np.cumsum(counts), table.line_end)  # "\n" after every line
    sizes = table.lengths[flat]
    ends = np.cumsum(sizes)
    # output position p of an item i reads the table at starts[i] + (p - first position of i)
    where = np.repeat(table.starts[flat] - (ends - sizes), sizes)
    where += np.arange(int(ends[-1]))
    out = table.codes[where].tobytes().decode("utf-32-le").split("\n")
    del out[-1]
    if len(unknown):
        redo = [lines[i] for i in unknown.tolist()]
        for i, text in zip(unknown.tolist(), texts(processor, None, redo, threads),
                           strict=True):
            out[i] = text
    return out


__all__ = ["CHUNK", "GATHERED", "PieceTable", "table_of", "texts"]
