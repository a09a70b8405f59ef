"""BLEU's one-line text after the score (precisions, brevity penalty, lengths), as sacreBLEU
prints it, and the sacreBLEU version whose texts evalfw reproduces. A module of its own
without imports: the drop-in command line formats scores without loading the result classes
or the presets."""

from __future__ import annotations

#: the sacreBLEU release whose numbers, signatures and texts evalfw reproduces
SACREBLEU_VERSION = "2.6.0"


def verbose_text(percent_precisions: tuple[float, ...] | list[float], bp: float, ratio: float,
                 hyp_len: int, ref_len: int, scale: float = 100) -> str:
    """sacreBLEU's verbose part: ``82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 ...)``; for a
    0-1 score (``scale`` 1) the precisions are on the 0-1 scale too (``0.8235/0.5000/...``),
    so a line never mixes scales."""
    if scale == 1:
        prec = "/".join(f"{p / 100:.4f}" for p in percent_precisions)
    else:
        prec = "/".join(f"{p:.1f}" for p in percent_precisions)
    return (f"{prec} (BP = {bp:.3f} ratio = {ratio:.3f} "
            f"hyp_len = {hyp_len:d} ref_len = {ref_len:d})")


__all__ = ["SACREBLEU_VERSION", "verbose_text"]
