"""The ``zh`` tokenizer spaces out Chinese characters two ways (``str.translate``, and numpy
for long texts when numpy is loaded or the text is huge); they agree on every code point."""

from __future__ import annotations

import subprocess
import sys

from evalfw.tokenizers import zh


def test_translate_and_vectorized_paths_agree_on_every_code_point() -> None:
    codes = [c for c in range(0x110000) if c != 0x0A]
    pieces = 0
    for start in range(0, len(codes), 4000):
        text = "a" + "".join(chr(c) for c in codes[start:start + 4000]) + "b"
        assert text.translate(zh._SPACER) == zh._space_out_vectorized(text), hex(codes[start])
        pieces += 1
    assert pieces == 279
    assert zh.space_out("我a们") == " 我 a 们 " and zh.space_out("abc") == "abc"


def test_a_batch_uses_numpy_only_when_loaded_or_huge() -> None:
    # importing numpy costs more than spacing out a test set's batch with str.translate
    code = (
        "import sys\n"
        "from evalfw.tokenizers import zh\n"
        "text = '我们a,' * 10_000\n"
        "assert zh.space_out(text) == text.translate(zh._SPACER)\n"
        "assert 'numpy' not in sys.modules\n"
        "zh._IMPORT_NUMPY = 1000\n"
        "assert zh.space_out(text) == text.translate(zh._SPACER)\n"
        "assert 'numpy' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
