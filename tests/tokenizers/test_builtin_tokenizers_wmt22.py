"""Every line of every WMT22 file (../shared/data/wmt22), tokenized by the built-in 13a,
intl, zh and char tokenizers in whole-file batches, equals sacreBLEU 2.6.0's tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalfw.tokenizers import plugin as tokenizers  # noqa: E402
from tests.support.shared_data import SHARED as _SHARED_DIR
from tests.support.tokenizer_oracles import sacrebleu_oracle

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

SHARED = _SHARED_DIR
BY_NAME = {cls.name: cls for cls in tokenizers.evalfw_register_tokenizers()}


def _wmt22_files() -> list[Path]:
    root = SHARED / "data" / "wmt22"
    if not root.is_dir():
        pytest.skip(f"WMT22 data not found at {root} (../shared beside the repo)")
    return sorted(root.rglob("*.txt"))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char"])
def test_every_wmt22_line_equals_sacrebleu(name):
    tok, oracle = BY_NAME[name](), sacrebleu_oracle(name)
    files = {path: path.read_text(encoding="utf-8").split("\n")[:-1] for path in _wmt22_files()}
    # sacreBLEU is slow (zh loops per character): ask it once per distinct line (the English
    # sources repeat across pairs, some systems agree)
    unique = sorted({line for lines in files.values() for line in lines})
    theirs = dict(zip(unique, oracle(unique)))
    for path, lines in files.items():
        got = tok.tokenize(lines)  # whole files, as the engine batches them
        assert len(got) == len(lines)
        for i, (line, ours) in enumerate(zip(lines, got)):
            assert ours == theirs[line], f"{path}:{i + 1}"
    assert len(files) >= 50


def test_ja_mecab_on_wmt22_japanese_files():
    pytest.importorskip("MeCab")
    _wmt22_files()  # skips without the data
    tok, oracle = BY_NAME["ja-mecab"](), sacrebleu_oracle("ja-mecab")
    root = SHARED / "data" / "wmt22" / "en-ja"
    files = [root / "ref.A.txt", *sorted((root / "sys").glob("*.txt"))[:3]]
    for path in files:
        lines = path.read_text(encoding="utf-8").split("\n")[:-1]
        assert tok.tokenize(lines) == oracle(lines), path
    assert len(files) == 4
