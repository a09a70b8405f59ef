"""The cached Unicode classes of the ``intl`` tokenizer (``evalfw.tokenizers._unicode_classes``)
against ``regex`` on every code point, the cache file's handling of damage, and the ``re``
paths of the tokenizer (Latin-1 classes with stand-ins, full classes; the compiled rules switched
off) against each other and against sacreBLEU."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import regex

from evalfw.tokenizers import _unicode_classes as uc
from evalfw.tokenizers import intl
from tests.support.tokenizer_oracles import random_batches, sacrebleu_oracle

pytestmark = [pytest.mark.parity]

EVERY = "".join(map(chr, range(0x110000)))


@pytest.fixture
def cache(monkeypatch, tmp_path):
    """A private cache folder, and no classes remembered by this process."""
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("EVALFW_NO_CACHE", raising=False)
    forget()
    yield tmp_path
    forget()


def forget() -> None:
    for function in (uc.classes, intl._latin1, intl._patterns, intl._rules):
        function.cache_clear()


def cache_file() -> str:
    return uc.cache_path(uc.regex_identity())


def test_cached_ranges_equal_regex_on_every_code_point(cache):
    first = uc.classes()  # built from regex, file written
    assert os.path.isfile(cache_file())
    forget()
    again = uc.classes()  # read from the file
    assert again == first
    with open(cache_file(), encoding="utf-8") as fh:
        assert uc.parse(fh.read(), uc.regex_identity()) == first
    for category in uc.CATEGORIES:
        ranges = again[category]
        spelled = "".join(chr(c) for a, b in zip(ranges.starts, ranges.ends)
                          for c in range(ord(a), ord(b) + 1))
        assert spelled == "".join(regex.findall(rf"\p{{{category}}}", EVERY))


def test_re_classes_equal_regex():
    """The ``re`` class bodies the tokenizer writes from the ranges: on every BMP code point,
    and above it on both sides of every run's ends."""
    bmp = EVERY[:0x10000]
    edges = "".join(sorted({chr(c) for ranges in uc.classes().values()
                            for a, b in zip(ranges.starts, ranges.ends) if a > "\uffff"
                            for c in (ord(a) - 1, ord(a), ord(b), min(ord(b) + 1, 0x10FFFF))}))
    for text, bmp_only in ((bmp, True), (edges, False)):
        bodies = intl.classes_in(set(text), bmp_only=bmp_only)
        for category, body in zip(uc.CATEGORIES, bodies):
            assert re.findall(f"[{body}]", text) == regex.findall(rf"\p{{{category}}}", text)
            assert re.findall(f"[^{body}]", text) == regex.findall(rf"\P{{{category}}}",
                                                                        text)
    for category, body in zip(uc.CATEGORIES, intl._latin1(False)):
        latin1 = EVERY[:0x100]
        assert re.findall(f"[{body}]", latin1) == regex.findall(rf"\p{{{category}}}", latin1)


def test_the_cached_path_does_not_import_regex(cache):
    uc.classes()  # writes the file
    code = ("import sys; from evalfw.tokenizers.intl import TokenizerIntl; "
            "print(TokenizerIntl().tokenize(['a.b, (x) 3.5 \u201cq\u201d \u20ac5 1...'])); "
            "print('regex' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env={**os.environ, "EVALFW_CACHE_DIR": str(cache)})
    assert out.returncode == 0, out.stderr
    tokens, imported = out.stdout.splitlines()
    want = sacrebleu_oracle("intl")(["a.b, (x) 3.5 \u201cq\u201d \u20ac5 1..."])
    assert tokens == repr(want) and imported == "False"


def _damages(text: str) -> list[str | bytes]:
    lines = text.split("\n")
    p_line = lines[2]
    flipped = p_line[:5] + chr(ord(p_line[5]) + 1) + p_line[6:]
    return [
        "",
        text[: len(text) // 2],  # truncated
        text.replace(p_line, flipped),  # one range moved: the checksum fails
        text.replace(lines[1], lines[1] + "0"),  # another regex build
        "\n".join([lines[0], lines[1], lines[3], lines[2], *lines[4:]]),  # categories swapped
        b"\xff\xfe garbage \x00" * 50,  # not UTF-8
        text.replace(uc.MAGIC, uc.MAGIC + "9"),  # another layout
    ]


@pytest.mark.parametrize("damage", range(7))
def test_a_damaged_or_foreign_cache_is_ignored_and_rebuilt(cache, damage):
    sound = uc.classes()
    path = cache_file()
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    bad = _damages(text)[damage]
    with open(path, "wb") as fh:
        fh.write(bad if isinstance(bad, bytes) else bad.encode("utf-8"))
    forget()
    assert uc.classes() == sound
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == text  # written again


def test_a_well_formed_file_with_unsorted_ranges_is_refused():
    identity = "regex=test tables=x:1:2"
    sound = {c: uc.Ranges("a", "b") for c in uc.CATEGORIES}
    assert uc.parse(uc.render(sound, identity), identity) == sound
    for starts, ends in (("b", "a"), ("ad", "eg"), ("", ""), ("ab", "b")):
        bad = {**sound, "S": uc.Ranges(starts, ends)}
        assert uc.parse(uc.render(bad, identity), identity) is None


def test_an_unwritable_cache_still_gives_the_classes(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(blocker))
    forget()
    try:
        assert uc.classes() == uc.from_regex()
    finally:
        forget()


def test_no_cache_reads_regex(monkeypatch, tmp_path):
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("EVALFW_NO_CACHE", "1")
    forget()
    try:
        assert uc.classes() == uc.from_regex()
        assert not os.listdir(tmp_path)
    finally:
        forget()


# --------------------------------------------------------------------------- tokenizer paths

#: members above Latin-1 of each category, more than a pool holds
_MANY = {c: regex.findall(rf"\p{{{c}}}", "".join(map(chr, range(0x100, 0x3000))))[:40]
         for c in uc.CATEGORIES}


#: members above Latin-1 a European text holds; the random lines are cut down to them (and to
#: Latin-1), so that they fit the pools of stand-ins
_FEW = set("\u2013\u2014\u201c\u201d\u201e\u2018\u2019\u2026\u20ac\u2122\u2022\u2160")


def _lines(seed: int) -> list[str]:
    lines = [line for batch in random_batches(seed=seed, lines=3000) for line in batch]
    return ["".join(c for c in line if (c <= "\xff" or c in _FEW) and c not in intl._POOLED)
            for line in lines]


@pytest.mark.parametrize("looped", [0, 10**9])
@pytest.mark.parametrize("extra", ["", "pool", "many", "astral"])
def test_stand_ins_full_classes_and_exact_path_agree_with_sacrebleu(cache, monkeypatch, extra,
                                                                    looped):
    # the exact path: compiled rules (after FEW lines), or the loop in Python (the first FEW);
    # the re paths, not the compiled module (tests/tokenizers/test_intl_rules.py)
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    monkeypatch.setattr(intl, "FEW", looped)
    monkeypatch.setattr(intl, "_looped", 0)
    lines = _lines(23)
    if extra == "pool":  # a pool character in the text: full classes
        lines = [*lines, "a\x01b.", "\x90 1.5"]
    elif extra == "many":  # more members than a pool: full classes
        lines = [*lines, *("x" + "".join(ms) + "y" for ms in _MANY.values())]
    elif extra == "astral":
        lines = [*lines, "a\U0001F600.b", "\U0001D7CE.5 x\U00010100."]
    tok = intl.TokenizerIntl()
    want = sacrebleu_oracle("intl")(lines)
    assert tok.tokenize(lines) == want  # batch
    assert [tok._exact(line) for line in lines] == want  # exact path, line by line
    joined = tok.tokenize_joined(lines)
    assert [segment.split() for segment in joined.split("\n")[1:-1]] == want
    pairs = intl._stand_ins(intl._unusual("\n".join(lines)))
    assert (pairs is None) == (extra in ("pool", "many"))
