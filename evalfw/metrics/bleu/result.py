"""``BleuScore``: an immutable BLEU result with sacreBLEU-style formatting and JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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


@dataclass(frozen=True)
class BleuScore:
    """One BLEU result (corpus or segment).

    ``score`` is on the scale of the mean that produced it (0-100 for sacreBLEU and Moses,
    0-1 for NLTK and the paper methods: ``score_scale`` says which); with several weight
    tuples ``scores`` holds one score each and ``score`` is the first. ``precisions`` are the
    smoothed precisions on the smoother's scale (``precision_scale``).
    """

    score: float | int
    precisions: tuple[float, ...]
    counts: tuple[int | float, ...]
    totals: tuple[int | float, ...]
    bp: float | int
    hyp_len: int
    ref_len: int
    signature: str = ""
    sacrebleu_signature: str | None = None
    scores: tuple[float | int, ...] = ()
    score_scale: int = 100
    precision_scale: int = 100
    name: str = "BLEU"
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def ratio(self) -> float:
        return self.hyp_len / self.ref_len if self.ref_len else 0

    @property
    def sys_len(self) -> int:  # sacreBLEU's name
        return self.hyp_len

    def percent_precisions(self) -> tuple[float, ...]:
        k = 100 / self.precision_scale
        return tuple(p * k for p in self.precisions) if k != 1 else self.precisions

    def verbose(self) -> str:
        return verbose_text(self.percent_precisions(), self.bp, self.ratio, self.hyp_len,
                            self.ref_len, self.score_scale)

    def format(self, width: int = 2, signature: str | None = None, score_only: bool = False) -> str:
        """sacreBLEU's text form: ``BLEU|<sig> = 48.53 82.4/50.0/... (BP = ...)``."""
        score = f"{self.score:.{width}f}"
        if score_only:
            return score
        head = self.name + (f"|{signature}" if signature else "")
        return f"{head} = {score} {self.verbose()}"

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "score": self.score,
            "precisions": list(self.precisions),
            "counts": list(self.counts),
            "totals": list(self.totals),
            "bp": self.bp,
            "ratio": self.ratio,
            "hyp_len": self.hyp_len,
            "ref_len": self.ref_len,
            "score_scale": self.score_scale,
            "signature": self.signature,
        }
        if len(self.scores) > 1:
            out["scores"] = list(self.scores)
        if self.sacrebleu_signature:
            out["sacrebleu_signature"] = self.sacrebleu_signature
        out.update(self.extra)
        return out


__all__ = ["BleuScore", "verbose_text"]
