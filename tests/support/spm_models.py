"""Small SentencePiece models trained by the tests, and a sacreBLEU home that holds them.

The published FLORES models cannot be downloaded in a test, so the tests train their own:
on the WMT22 en-zh and en-ja sources and references (a few seconds), or on generated text
when the shared data is absent. :func:`sacrebleu_home` copies a model under the file names of
every published model into ``<home>/models``, and :func:`use_home` points both sacreBLEU and
evalfw at that home, so the two read the same file where each looks for the published one.
"""

from __future__ import annotations

import atexit
import functools
import random
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.support.shared_data import need_wmt22, read_lines


@functools.cache
def _workdir() -> Path:
    path = Path(tempfile.mkdtemp(prefix="evalfw-spm-models-"))
    atexit.register(shutil.rmtree, path, True)
    return path


def _train(name: str, lines: list[str], **options: object) -> Path:
    sentencepiece = pytest.importorskip("sentencepiece")
    prefix = _workdir() / name
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_prefix=str(prefix), num_threads=2,
        minloglevel=2, **options)
    return prefix.with_suffix(".model")


def wmt22_text() -> list[str]:
    """Sources and first references of en-zh and en-ja: English, Chinese and Japanese."""
    root = need_wmt22()
    return [line for pair in ("en-zh", "en-ja") for name in ("src.txt", "ref.A.txt")
            for line in read_lines(root / pair / name)]


@functools.cache
def wmt22_model(kind: str = "unigram") -> Path:
    """A model of 4,000 pieces trained on :func:`wmt22_text`: ``unigram`` (rare characters
    left out, so some lines hold unknown pieces) or ``bpe`` (with byte fallback)."""
    options: dict[str, object] = {"vocab_size": 4000, "model_type": kind,
                                  "character_coverage": 0.9995}
    if kind == "bpe":
        options["byte_fallback"] = True
    return _train(f"wmt22-{kind}", wmt22_text(), **options)


#: letters the generated text is made of: Latin with diacritics, CJK, kana, Hangul, digits
_ALPHABET = ("abcdefghijklmnopqrstuvwxyzéüñß" "的一是不了人我在有他这中大来上"
             "あいうえおかきくけこ" "アイウエオ" "한국어" "0123456789" ".,!?")


def generated_text(seed: int = 5, lines: int = 1500) -> list[str]:
    rng = random.Random(seed)
    words = ["".join(rng.choices(_ALPHABET, k=rng.randint(1, 6))) for _ in range(400)]
    return [" ".join(rng.choices(words, k=rng.randint(1, 15))) for _ in range(lines)]


@functools.cache
def generated_model(vocab: int = 250) -> Path:
    """A model trained on :func:`generated_text` (no shared data needed)."""
    return _train(f"generated-{vocab}", generated_text(), vocab_size=vocab,
                  model_type="unigram", character_coverage=0.99,
                  hard_vocab_limit=False)


def sacrebleu_home(home: Path, model: Path) -> Path:
    """``home`` with ``model`` under the file name of each published model sacreBLEU knows."""
    from evalfw.tokenizers._spm_models import PUBLISHED

    (home / "models").mkdir(parents=True, exist_ok=True)
    for published in PUBLISHED.values():
        shutil.copyfile(model, home / "models" / published.file_name)
    return home


def use_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> Path:
    """Point ``$SACREBLEU`` (evalfw, and sacreBLEU commands started later) and the sacreBLEU
    imported here at ``home``; that sacreBLEU fails instead of downloading a missing model."""
    monkeypatch.setenv("SACREBLEU", str(home))
    import sacrebleu.tokenizers.tokenizer_spm as spm

    monkeypatch.setattr(spm, "SACREBLEU_DIR", str(home))
    monkeypatch.setattr(spm, "download_file", _no_download)
    return home


def _no_download(url: str, path: str) -> None:
    raise AssertionError(f"a test asked sacreBLEU to download {url} to {path}")


__all__ = ["generated_model", "generated_text", "sacrebleu_home", "use_home", "wmt22_model",
           "wmt22_text"]
