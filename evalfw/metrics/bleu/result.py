"""``BleuScore``: an immutable BLEU result with sacreBLEU-style formatting and JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evalfw.metrics.bleu.text import verbose_text


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
