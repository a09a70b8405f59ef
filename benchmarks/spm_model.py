"""The SentencePiece model the spBLEU benchmark scores with, in a sacreBLEU home of its own.

The published FLORES-200 model is not downloaded: a unigram model of 32,000 pieces is trained
once on the WMT22 sources and references of the four pairs (about 22,000 lines, a few CPU
seconds) and saved under the FLORES-200 file name in ``benchmarks/.data/spbleu/models``, where
``SACREBLEU=benchmarks/.data/spbleu`` makes sacreBLEU and evalfw both read it.

    python benchmarks/spm_model.py        # prints the home (training the model if needed)
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
HOME = HERE / ".data" / "spbleu"
FILE = "flores200sacrebleuspm"  # sacreBLEU's name of the FLORES-200 model
PIECES = 32_000


def training_text(wmt: Path) -> list[str]:
    return [line for pair in ("de-en", "en-de", "en-zh", "en-ja")
            for path in sorted((wmt / pair).glob("*.txt"))  # src.txt and ref.*.txt
            for line in path.read_text(encoding="utf-8").split("\n")[:-1]]


def home(wmt: Path) -> Path:
    """The benchmark's sacreBLEU home, with the model trained on first use."""
    model = HOME / "models" / FILE
    if not model.is_file():
        import sentencepiece

        (HOME / "models").mkdir(parents=True, exist_ok=True)
        prefix = HOME / "trained"
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=iter(training_text(wmt)), model_prefix=str(prefix),
            vocab_size=PIECES, model_type="unigram", character_coverage=0.9995,
            num_threads=2, minloglevel=2)
        prefix.with_suffix(".model").rename(model)
        prefix.with_suffix(".vocab").unlink()
    return HOME


def describe(wmt: Path) -> str:
    model = home(wmt) / "models" / FILE
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    return f"{model} ({model.stat().st_size:,} bytes, {PIECES:,} pieces, sha256 {digest[:12]}...)"


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    from run import WMT_DIR

    print(describe(WMT_DIR))
