"""The language check: scripts first, then py3langid against the references."""

from __future__ import annotations

import pytest

from evalfw.checks.base import CheckInput
from evalfw.checks.language import Language, script_share, variants

pytest.importorskip("py3langid", reason="the language check needs py3langid (evalfw[langid])")

SRC = ["The committee approved the new budget for the coming year on Monday.",
       "Prices for energy have risen sharply since the beginning of the winter.",
       "Short one.",
       "The museum will stay closed for renovation until the end of next month."]
REF = ["Der Ausschuss hat am Montag den neuen Haushalt für das kommende Jahr gebilligt.",
       "Die Energiepreise sind seit Beginn des Winters stark gestiegen.",
       "Kurz.",
       "Das Museum bleibt bis Ende nächsten Monats wegen Renovierung geschlossen."]


def flags(hyps: list[str], langs: str = "en-de", refs: list[str] = REF, **options: float
          ) -> list[bool]:
    return Language(**options).flag(CheckInput("t", "s", langs, tuple(hyps), tuple(SRC),
                                               (tuple(refs),)))


def test_the_source_language_and_another_script_are_flagged() -> None:
    hyps = [SRC[0], "价格自冬季开始以来大幅上涨，能源价格尤其如此。", "Short one.", REF[3]]
    # the copy is English, the second Chinese; the third is too short to judge
    assert flags(hyps) == [True, True, False, False]


def test_translations_are_not_flagged() -> None:
    assert flags(REF) == [False] * 4


def test_short_outputs_are_not_judged() -> None:
    assert flags(["The committee approved it."] + REF[1:], min_words=5)[0] is False
    assert flags(["The committee approved the budget."] + REF[1:], min_words=5)[0] is True


def test_names_in_latin_letters_inside_chinese_are_not_a_wrong_script() -> None:
    share, _ = script_share("EverGrow 与 Shiba Inu 非常不同，价格也差很多。", ("Han",))
    assert share > 0.5
    assert variants("nb") == variants("no") and "yue" in variants("zh")


def test_the_identifier_is_recorded() -> None:
    assert (Language.implementation() or "").startswith("py3langid ")
    assert Language().definition()["implementation"] == Language.implementation()
