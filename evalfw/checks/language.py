"""The ``language`` check: the output is not in the test set's target language (``langs:
en-de`` says German).

Scripts come first, as a fast test that needs no model: an output whose letters are mostly in
scripts the target language is not written in (Latin letters for Chinese, Han characters for
German) is flagged at once. Otherwise the language identifier py3langid (its naive Bayes model
ships inside the package; ``pip install 'evalfw[langid]'``) gives the probability that the
output is in the target language, its close variants counted with it (Norwegian Bokmal and
Nynorsk, Serbian, Croatian and Bosnian, Malay and Indonesian, Chinese and Cantonese or Wu);
below the threshold, the output is flagged. Before either test, URLs, e-mail addresses,
anonymisation placeholders (``#PRS_ORG#``) and digits are removed; outputs left with fewer
than ``min_words`` words (a Chinese or Japanese character counting as half a word) are not
judged: identifiers guess on a few words. ``docs/checks.md`` says why py3langid and not
lingua, with the measurements.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, ClassVar

from evalfw.checks._text import is_empty, words
from evalfw.checks.base import Check, CheckInput

#: letters of each script, as regular expression character ranges
SCRIPTS: dict[str, str] = {
    "Latin": "A-Za-z\u00aa\u00b5\u00ba\u00c0-\u024f\u1e00-\u1eff\uff21-\uff3a\uff41-\uff5a",
    "Greek": "\u0370-\u03ff\u1f00-\u1fff",
    "Cyrillic": "\u0400-\u052f",
    "Armenian": "\u0530-\u058f",
    "Hebrew": "\u0590-\u05ff",
    "Arabic": "\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff",
    "Devanagari": "\u0900-\u097f",
    "Bengali": "\u0980-\u09ff",
    "Gurmukhi": "\u0a00-\u0a7f",
    "Gujarati": "\u0a80-\u0aff",
    "Oriya": "\u0b00-\u0b7f",
    "Tamil": "\u0b80-\u0bff",
    "Telugu": "\u0c00-\u0c7f",
    "Kannada": "\u0c80-\u0cff",
    "Malayalam": "\u0d00-\u0d7f",
    "Sinhala": "\u0d80-\u0dff",
    "Thai": "\u0e00-\u0e7f",
    "Lao": "\u0e80-\u0eff",
    "Tibetan": "\u0f00-\u0fff",
    "Myanmar": "\u1000-\u109f",
    "Georgian": "\u10a0-\u10ff",
    "Ethiopic": "\u1200-\u139f",
    "Khmer": "\u1780-\u17ff",
    "Hangul": "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af",
    "Kana": "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f",
    "Han": "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f",
}

_BY_SCRIPT: dict[tuple[str, ...], tuple[str, ...]] = {
    ("Cyrillic",): ("ru", "uk", "be", "bg", "mk", "sr", "kk", "ky", "mn", "tg", "tt", "ba"),
    ("Greek",): ("el",),
    ("Armenian",): ("hy",),
    ("Hebrew",): ("he", "yi"),
    ("Arabic",): ("ar", "fa", "ur", "ps", "ug", "sd", "ckb"),
    ("Devanagari",): ("hi", "mr", "ne", "sa"),
    ("Bengali",): ("bn", "as"),
    ("Gurmukhi",): ("pa",),
    ("Gujarati",): ("gu",),
    ("Oriya",): ("or",),
    ("Tamil",): ("ta",),
    ("Telugu",): ("te",),
    ("Kannada",): ("kn",),
    ("Malayalam",): ("ml",),
    ("Sinhala",): ("si",),
    ("Thai",): ("th",),
    ("Lao",): ("lo",),
    ("Tibetan",): ("bo", "dz"),
    ("Myanmar",): ("my",),
    ("Georgian",): ("ka",),
    ("Ethiopic",): ("am", "ti"),
    ("Khmer",): ("km",),
    ("Hangul", "Han"): ("ko",),
    ("Han", "Kana"): ("ja",),
    ("Han",): ("zh", "yue", "wuu"),
    ("Latin",): (
        "af", "az", "br", "bs", "ca", "cs", "cy", "da", "de", "en", "eo", "es", "et", "eu",
        "fi", "fil", "fo", "fr", "fy", "ga", "gd", "gl", "ha", "hr", "ht", "hu", "id", "ig",
        "is", "it", "jv", "ku", "la", "lb", "lg", "ln", "lt", "lv", "mg", "ms", "mt", "nb", "nl",
        "nn", "no", "oc", "om", "pl", "pt", "qu", "ro", "rw", "sk", "sl", "sn", "so", "sq",
        "st", "sv", "sw", "tk", "tl", "tr", "uz", "vi", "wa", "xh", "yo", "zu"),
}
#: language code -> the scripts its text is written in (languages not listed: no script test)
TARGET_SCRIPTS: dict[str, tuple[str, ...]] = {
    lang: scripts for scripts, langs in _BY_SCRIPT.items() for lang in langs}

#: languages an identifier confuses with each other and a test set rarely tells apart: each
#: counts as the others when the target is one of them
VARIANTS: tuple[frozenset[str], ...] = (
    frozenset({"no", "nb", "nn"}), frozenset({"sr", "hr", "bs"}), frozenset({"ms", "id"}),
    frozenset({"zh", "yue", "wuu"}), frozenset({"ar", "ary", "arz"}),
    frozenset({"uz", "uzs"}), frozenset({"ku", "sdh", "ckb"}), frozenset({"tl", "fil"}),
)

_SCRIPT = {name: re.compile(f"[{chars}]") for name, chars in SCRIPTS.items()}
#: what is no evidence of a language: URLs, e-mail addresses, #PLACEHOLDERS#, digits
_NOISE = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+\.\w+|#[A-Z_]+#|\d+")


def variants(lang: str) -> frozenset[str]:
    """``lang`` and the languages counted as it."""
    return next((group for group in VARIANTS if lang in group), frozenset({lang}))


#: scripts written without spaces between words: a character is half a word
_UNSPACED = frozenset({"Han", "Kana", "Hangul", "Thai", "Lao", "Khmer", "Myanmar", "Tibetan"})
_RUN = {name: re.compile(f"[{chars}]+") for name, chars in SCRIPTS.items()}
_LETTER_RUN = re.compile(r"[^\W\d_]+")


def _mass(text: str, scripts: tuple[str, ...]) -> float:
    """Words of ``text`` in ``scripts``: runs of their letters, a character of an unspaced
    script counting as half a word."""
    return sum(len(_SCRIPT[s].findall(text)) / 2 if s in _UNSPACED else
               len(_RUN[s].findall(text)) for s in scripts)


def script_share(text: str, scripts: tuple[str, ...]) -> tuple[float, float]:
    """The share of ``text``'s words that are in ``scripts`` (a character of Chinese,
    Japanese, Korean, Thai, ... counting as half a word, so a name in Latin letters inside a
    Chinese sentence weighs as a word, not as its letters), and how many words it has."""
    unspaced = _mass(text, tuple(_UNSPACED))
    total = unspaced + len(_LETTER_RUN.findall(_UNSPACED_CHARS.sub(" ", text)))
    if not total:
        return 1.0, 0.0
    return min(1.0, _mass(text, scripts) / total), total


def in_scripts(text: str, scripts: tuple[str, ...]) -> str:
    """The runs of ``text``'s letters that are in ``scripts``, joined by spaces: what the
    identifier reads (a Latin name in a Chinese sentence is no evidence of Chinese)."""
    return " ".join(_RUN_OF[scripts].findall(text)) if scripts in _RUN_OF else \
        " ".join(re.findall("[" + "".join(SCRIPTS[s] for s in scripts) + "]+", text))


_UNSPACED_CHARS = re.compile("[" + "".join(SCRIPTS[s] for s in sorted(_UNSPACED)) + "]")
_RUN_OF = {scripts: re.compile("[" + "".join(SCRIPTS[s] for s in scripts) + "]+")
           for scripts in _BY_SCRIPT}


class Language(Check):
    name = "language"
    label = "wrong language"
    description = ("the output is not in the target language: mostly in another script, or "
                   "the language identifier (py3langid) gives the target a low probability")
    extra = "langid"
    options_schema = {
        "type": "object", "additionalProperties": False,
        "properties": {
            "min_words": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 5,
                          "description": "outputs with fewer words (a Chinese or Japanese "
                                         "character counting as half a word) are not judged"},
            "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.1,
                          "description": "flag when the identifier gives the target language "
                                         "(with its close variants) a probability below this"},
            "script_share": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                             "description": "flag at once when less than this share of the "
                                            "letters is in the target language's scripts"},
        },
    }

    #: the identifier, loaded once per process
    _identifier: ClassVar[Any] = None

    def unavailable(self) -> str | None:
        try:
            import py3langid  # noqa: F401
        except ImportError:
            return ("it needs py3langid, which is not installed: pip install "
                    "'evalfw[langid]'")
        return None

    @classmethod
    def implementation(cls) -> str | None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return f"py3langid {version('py3langid')}"
        except PackageNotFoundError:
            return None

    @classmethod
    def identifier(cls) -> Any:
        """py3langid's identifier with probabilities, loaded on first use."""
        if Language._identifier is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            Language._identifier = LanguageIdentifier.from_model_file(MODEL_FILE,
                                                                       norm_probs=True)
        return Language._identifier

    def flag(self, segments: CheckInput) -> list[bool]:
        target = segments.target_lang
        scripts = TARGET_SCRIPTS.get(target) or TARGET_SCRIPTS.get(target.split("_")[0])
        return [self._wrong(hyp, [refs[i] for refs in segments.references], target, scripts)
                for i, hyp in enumerate(segments.hypotheses)]

    def _wrong(self, hyp: str, refs: list[str], target: str,
               scripts: tuple[str, ...] | None) -> bool:
        if is_empty(hyp):
            return False
        text = _NOISE.sub(" ", hyp)
        least = self.options["min_words"]
        if words(text) < least:
            return False
        if scripts is not None:
            share, total = script_share(text, scripts)
            if not total:
                return False
            # a reference mixing scripts (Latin names in Chinese) lowers the bar as much
            expected = max(script_share(_NOISE.sub(" ", r), scripts)[0] for r in refs)
            if share < self.options["script_share"] * expected:
                return True
            text = in_scripts(text, scripts)
            if words(text) < least:
                return False
        threshold = self.options["threshold"]
        if self.probability(text, target) >= threshold:
            return False
        # a segment whose references the identifier does not take for the target language
        # either (names, product codes) is not judged
        return any(self.probability(in_scripts(_NOISE.sub(" ", r), scripts) if scripts
                                    else _NOISE.sub(" ", r), target) >= threshold
                   for r in refs)

    def probability(self, text: str, target: str) -> float:
        """The identifier's probability that ``text`` is in ``target`` or a close variant
        (1 for a language the identifier does not know: only scripts judge it)."""
        return _probability(text, target)


@lru_cache(maxsize=1 << 16)  # references are the same for every system of a test set
def _probability(text: str, target: str) -> float:
    identifier = Language.identifier()
    accepted = variants(target) & set(identifier.labels)
    if not accepted:
        return 1.0
    return float(sum(p for lang, p in identifier.rank(text) if lang in accepted))


__all__ = ["in_scripts", "Language", "SCRIPTS", "script_share", "TARGET_SCRIPTS", "variants",
           "VARIANTS"]
