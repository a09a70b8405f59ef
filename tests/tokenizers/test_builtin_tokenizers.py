"""The built-in tokenizers against sacreBLEU 2.6.0: the reference note's oracle table,
seeded random differential batches and hypothesis properties (every WMT22 line: in
test_tokenizers_wmt22.py)."""

from __future__ import annotations

import gc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalfw.errors import PluginError  # noqa: E402
from evalfw.tokenizers import plugin  # noqa: E402
from evalfw.tokenizers import plugin as tokenizers  # noqa: E402
from tests.support.tokenizer_oracles import random_batches, sacrebleu_oracle

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

CORE = ("none", "13a", "intl", "zh", "char")
BY_NAME = {cls.name: cls for cls in tokenizers.evalfw_register_tokenizers()}


def make(name: str):
    return BY_NAME[name]()


# --------------------------------------------------------------------------- registration


def test_registers_sacrebleu_names_through_the_host():
    from evalfw.host.host import PluginHost

    host = PluginHost.create(autoload=False, builtins=False, extra_plugins=[plugin])
    assert host.registry("tokenizer").names() == sorted(
        [*CORE, "ja-mecab", "ko-mecab", "spm", "flores101", "flores200", "spBLEU-1K"])
    tok = host.registry("tokenizer").create("13a", {})
    assert tok.describe() == "13a@1"
    for cls in BY_NAME.values():
        assert cls.version == "1"
        assert cls.description and "\n" not in cls.description


@pytest.mark.parametrize("name", CORE)
def test_empty_batch_and_gc_state(name):
    tok = make(name)
    assert tok.tokenize([]) == []
    assert tok.tokenize(("",)) == [[]]
    gc.disable()
    try:
        tok.tokenize(["a b"])
        assert not gc.isenabled()
    finally:
        gc.enable()
    tok.tokenize(["a b"])
    assert gc.isenabled()


# --------------------------------------------------------------------------- oracle table
# sacrebleu-2.6.0-bleu-spec.md §3.2: input -> (13a, intl, zh); None where the note has no entry

TABLE = [
    ("Hello, world.", "Hello , world .", "Hello , world .", "Hello , world ."),
    ("It was 2017.", "It was 2017 .", "It was 2017.", "It was 2017."),
    ("The price is $1,000.50 today.", "The price is $ 1,000.50 today .",
     "The price is $ 1,000.50 today .", "The price is $ 1,000.50 today ."),
    ("don't stop-me now!", "don't stop-me now !", "don ' t stop - me now !", "don't stop-me now !"),
    ("5-3=2", "5 - 3 = 2", "5-3 = 2", "5 - 3 = 2"),
    ("5-3-1", "5 - 3 - 1", "5-3-1", None),
    ("3-", "3 -", "3-", None),
    ("x--y", "x--y", "x - - y", None),
    ("&quot;Quoted&quot; &amp; &lt;tag&gt;", '" Quoted " & < tag >',
     "& quot ; Quoted & quot ; & amp ; & lt ; tag & gt ;",
     "& quot ; Quoted & quot ; & amp ; & lt ; tag & gt ;"),
    ("&amp;lt;b&amp;gt; &apos;x&apos; a&amp;b", "< b > & apos ; x & apos ; a & b", None, None),
    ("<skipped>word", "word", "< skipped > word", "< skipped > word"),
    ("e.g. U.S.A.", "e . g . U . S . A .", "e . g . U . S . A .", "e . g . U . S . A ."),
    ("1.5,2", "1.5,2", "1.5,2", None),
    ("2.5.2017", "2.5.2017", "2.5.2017", None),
    ("1,2,3.", "1,2,3 .", "1,2,3.", None),
    ("1..2", "1 . . 2", "1 . . 2", "1 . . 2"),
    ("a.,b", "a . , b", "a . , b", "a . , b"),
    ("...", ". . .", ". . .", ". . ."),
    ("(1.)", "( 1 . )", "(1 . )", None),
    ("$10.", "$ 10 .", "$ 10.", None),
    ("3:45pm", "3 : 45pm", "3:45pm", "3 : 45pm"),
    ("“Smart quotes” — dash… €5", "“Smart quotes” — dash… €5",
     "“ Smart quotes ” — dash … € 5", "“ Smart quotes ” — dash … € 5"),
    ("Über 3.5% «guillemets»", "Über 3.5 % «guillemets»", "Über 3.5 % « guillemets »",
     "Über 3.5 % «guillemets»"),
    ("ab\xa0cd\u2009ef\u200bgh\u3000ij", "ab cd ef\u200bgh ij", "ab cd ef\u200bgh ij",
     "ab cd ef \u200b gh ij"),
    ("中文测试，你好。English words 2017.", "中文测试，你好。English words 2017 .",
     "中文测试 ， 你好 。 English words 2017.", "中 文 测 试 ， 你 好 。 English words 2017."),
    ("日本語のテキスト", "日本語のテキスト", "日本語のテキスト", "日 本 語 のテキスト"),
    ("\U00020000\U00020001", "\U00020000\U00020001", "\U00020000\U00020001",
     "\U00020000\U00020001"),
    ("a_b^c`d|e~f", "a _ b ^ c ` d | e ~ f", "a _ b ^ c ` d | e ~ f", "a _ b ^ c ` d | e ~ f"),
    ("@user #tag", "@ user # tag", "@ user # tag", "@ user # tag"),
    (".5 x", ". 5 x", ".5 x", None),
    (" .5 x", ". 5 x", ". 5 x", None),
]


@pytest.mark.parametrize("column,name", [(1, "13a"), (2, "intl"), (3, "zh")])
def test_oracle_table(column, name):
    rows = [(row[0], row[column]) for row in TABLE if row[column] is not None]
    inputs = [text for text, _ in rows]
    expected = [out.split() for _, out in rows]
    assert make(name).tokenize(inputs) == expected  # one batch
    assert [make(name).tokenize([text])[0] for text in inputs] == expected  # one by one
    assert sacrebleu_oracle(name)(inputs) == expected  # the note still describes sacreBLEU


def test_oracle_table_char_and_none():
    assert make("char").tokenize(["ab c  d"]) == [["a", "b", "c", "d"]]
    assert make("none").tokenize([" a\u3000b\u200bc  "]) == [["a", "b\u200bc"]]


# --------------------------------------------------------------------------- differential


@pytest.mark.parametrize("name", CORE)
def test_random_batches_equal_sacrebleu(name):
    tok, oracle = make(name), sacrebleu_oracle(name)
    batches = random_batches(seed=sum(map(ord, name)), lines=3000)
    compared = 0
    for batch in batches:
        got = tok.tokenize(batch)
        assert len(got) == len(batch)
        for line, ours, theirs in zip(batch, got, oracle(batch)):
            assert ours == theirs, f"{name}: {line!r}"
        compared += len(batch)
    assert compared >= 3000


@pytest.mark.parametrize("name", CORE)
def test_line_joiner_equals_the_batch_of_one_line(name):
    tok = make(name)
    one = tok.line_joiner()
    lines = [line for batch in random_batches(seed=7, lines=2000) for line in batch]
    lines += ["&amp;lt; x", "a <skipped> b", "a\nb", "-\n", " .5", "1.", "", " "]
    for line in lines:
        assert one(line) == tok.tokenize_joined([line]), f"{name}: {line!r}"


def test_zh_effective_ranges_equal_sacrebleu_on_every_code_point():
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    from evalfw.tokenizers.zh import ZH_RANGES

    is_chinese = TokenizerZh._is_chinese_char.__wrapped__
    theirs = [c for c in range(0x110000) if is_chinese(chr(c))]
    ours = [c for first, last in ZH_RANGES for c in range(first, last + 1)]
    assert ours == theirs


# --------------------------------------------------------------------------- properties


def _property(name: str):
    tok, oracle = make(name), sacrebleu_oracle(name)

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.text()))
    def check(lines):
        assert tok.tokenize(lines) == oracle(lines)

    return check


@pytest.mark.parametrize("name", CORE)
def test_hypothesis_equal_sacrebleu(name):
    _property(name)()


# --------------------------------------------------------------------------- MeCab (optional)


@pytest.mark.parametrize("name,module,text", [
    ("ja-mecab", "MeCab", ["日本語のテキストです。", "  今日は晴れ、2017年。 ", "", "ｶﾀｶﾅ abc"]),
    ("ko-mecab", "mecab_ko", ["안녕하세요 세계입니다.", " 오늘은 2017년 ", "", "한국어 abc!"]),
])
def test_mecab_equals_sacrebleu(name, module, text):
    pytest.importorskip(module)
    tok = make(name)
    # MeCab takes UTF-8 (lone surrogates raise TypeError, in sacreBLEU as well)
    lines = text + [line for batch in random_batches(7, 300) for line in batch
                    if not any("\ud800" <= c <= "\udfff" for c in line)]
    assert tok.tokenize(lines) == sacrebleu_oracle(name)(lines)
    assert tok.sacrebleu_signature().startswith(f"{name}-")
    assert tok.sacrebleu_signature().endswith("-IPA" if name == "ja-mecab" else "-KO")


@pytest.mark.parametrize("name", ["ja-mecab", "ko-mecab"])
def test_mecab_missing_package_is_a_clear_error(name, monkeypatch):
    import importlib

    def refuse(module_name, *args):
        raise ImportError(f"No module named {module_name!r}")

    monkeypatch.setattr(importlib, "import_module", refuse)
    extra = name[:2]
    with pytest.raises(PluginError, match=rf"pip install 'evalfw\[{extra}\]'"):
        make(name)
