"""sacreBLEU 2.6.0's ``BLEUScore`` and ``BLEUSignature`` and BLEU's defaults, apart from the
metric: the drop-in command line's lean path (:mod:`evalfw.compat._bleu_lean`) prints them
without loading evalfw's BLEU engine, as :mod:`evalfw.compat._bleu` does with it."""

from __future__ import annotations

from collections.abc import Sequence

TYPE_CHECKING = False  # not from typing: the drop-in command line starts without it
if TYPE_CHECKING:
    from typing import Any

from evalfw.compat._common import SacreScore, SacreSignature, warn
from evalfw.metrics.bleu.text import verbose_text

__all__ = ["BLEUScore", "BLEUSignature", "LANGUAGE_NAMES", "LOG_ZERO", "MAX_ORDER",
           "SMOOTH_DEFAULTS", "signature",
           "TOKENIZER_BY_LANG", "check_lengths", "warn_tokenized", "TOKENIZER_DEFAULT"]

#: sacreBLEU's n-gram order (the drop-in command line has no option for it)
MAX_ORDER = 4
#: sacreBLEU's log of a zero precision (``my_log``)
LOG_ZERO = -9999999999
TOKENIZER_DEFAULT = "13a"
TOKENIZER_BY_LANG = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
LANGUAGE_NAMES = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}
SMOOTH_DEFAULTS: dict[str, float | int | None] = {"none": None, "floor": 0.1, "add-k": 1,
                                                   "exp": None}


class BLEUScore(SacreScore):
    """sacreBLEU's ``BLEUScore``: same fields, ``format()`` and ``str()``."""

    def __init__(self, score: float, counts: list[Any], totals: list[Any],
                 precisions: list[float], bp: float, sys_len: int, ref_len: int) -> None:
        # SacreScore's fields set here: one object per sentence in per-call loops
        self.name = "BLEU"
        self.score = score
        self._mean: Any = -1.0
        self._ci: Any = -1.0
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.ratio = sys_len / ref_len if ref_len else 0

    # Formatted on first use: loops that score one sentence per call read only ``score``.
    @property
    def prec_str(self) -> str:
        return "/".join(f"{p:.1f}" for p in self.precisions)

    @property
    def _verbose(self) -> str:
        return verbose_text(self.precisions, self.bp, self.ratio, self.sys_len, self.ref_len)


class BLEUSignature(SacreSignature):
    """sacreBLEU's signature: ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``."""

    _ABBR = {"nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs", "case": "c", "eff": "e",
             "tok": "tok", "smooth": "s", "version": "v"}


def signature(metric: Any) -> BLEUSignature:
    """sacreBLEU's ``BLEU.get_signature()`` of a drop-in BLEU object (its references counted)."""
    smooth = metric.smooth_method
    if SMOOTH_DEFAULTS[smooth] is not None:
        value = metric.smooth_value if metric.smooth_value is not None else SMOOTH_DEFAULTS[smooth]
        smooth += f"[{value:.2f}]"
    return BLEUSignature.of(
        metric, case="lc" if metric.lowercase else "mixed", eff=metric.effective_order,
        tok=metric.tokenizer_signature, smooth=smooth)


def check_lengths(hypotheses: int, segments: int) -> None:
    """A hypothesis count other than the reference segments' is an error (sacreBLEU's
    ``zip`` would silently truncate)."""
    if hypotheses != segments:
        from evalfw.errors import InputError

        raise InputError(
            f"{hypotheses} hypotheses but {segments} reference segments; "
            "sacreBLEU would silently truncate to the shorter one, evalfw refuses"
        )


def warn_tokenized(hypotheses: Sequence[str], force: bool) -> None:
    """sacreBLEU's warning for hypotheses that look tokenized (unless ``force``)."""
    if not force and sum(h.endswith(" .") for h in hypotheses) >= 100:
        warn("That's 100 lines that end in a tokenized period ('.')")
        warn("It looks like you forgot to detokenize your test data, which may hurt your "
             "score.")
        warn("If you insist your data is detokenized, or don't care, you can suppress this "
             "message with the `force` parameter.")
