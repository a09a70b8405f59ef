"""The ``zh`` tokenizer spaces out Chinese characters two ways (``str.translate`` for short
texts, numpy for long ones); they agree on every code point."""

from __future__ import annotations

import pytest

from evalfw.tokenizers import zh


def test_short_and_long_paths_agree_on_every_code_point(monkeypatch: pytest.MonkeyPatch) -> None:
    codes = [c for c in range(0x110000) if c != 0x0A]
    pieces = 0
    for start in range(0, len(codes), 4000):
        text = "a" + "".join(chr(c) for c in codes[start:start + 4000]) + "b"
        short = text.translate(zh._SPACER)
        monkeypatch.setattr(zh, "_SHORT", -1)
        long = zh.space_out(text)
        monkeypatch.setattr(zh, "_SHORT", 4096)
        assert short == long, hex(codes[start])
        pieces += 1
    assert pieces == 279
    assert zh.space_out("我a们") == " 我 a 们 " and zh.space_out("abc") == "abc"
