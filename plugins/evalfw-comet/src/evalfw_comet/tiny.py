"""A tiny, untrained COMET checkpoint built on this machine, for tests and benchmarks.

Real COMET models are gigabytes on the Hugging Face hub; this one is built offline in a few
seconds from text the caller gives: a sentencepiece unigram vocabulary trained on that text, an
XLM-RoBERTa encoder of ``layers`` layers and hidden size ``hidden`` with random weights (seeded),
wrapped in COMET's own ``RegressionMetric`` (or ``ReferencelessRegression`` for a
reference-free, QE, model) with ``load_pretrained_weights=False``, and saved the way COMET's
training saves one: ``checkpoints/model.ckpt`` plus ``hparams.yaml``. Its scores mean nothing
about translation quality; they are a real COMET model's computation, so evalfw's numbers can
be checked against ``comet``'s own ``predict`` on the same checkpoint.

The checkpoint names its encoder directory by absolute path (COMET stores
``pretrained_model`` that way): build it where it is used, or rebuild it after a move.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def build(directory: str | os.PathLike[str], texts: Iterable[str], *, vocab_size: int = 2000,
          layers: int = 2, hidden: int = 64, seed: int = 1, reference_free: bool = False,
          encoder: str | os.PathLike[str] | None = None) -> Path:
    """Build the checkpoint under ``directory``; returns the path of ``checkpoints/model.ckpt``.
    ``encoder``: the encoder directory of a checkpoint built before, to share its vocabulary
    and configuration (``texts`` are then not read). Nothing is downloaded (set
    ``HF_HUB_OFFLINE=1`` to make sure)."""
    import torch
    import yaml

    root = Path(directory).resolve()
    root.mkdir(parents=True, exist_ok=True)
    if encoder is None:
        encoder = root / "encoder"
        _build_encoder(encoder, texts, vocab_size, layers, hidden)
    encoder = Path(encoder).resolve()
    from comet.models import ReferencelessRegression, RegressionMetric

    torch.manual_seed(seed)
    cls = ReferencelessRegression if reference_free else RegressionMetric
    model = cls(encoder_model="XLM-RoBERTa", pretrained_model=str(encoder),
                load_pretrained_weights=False, local_files_only=True,
                hidden_sizes=[hidden], layer="mix", pool="avg", dropout=0.0,
                nr_frozen_epochs=0.0, keep_embeddings_frozen=False)
    hparams = dict(model.hparams)
    (root / "checkpoints").mkdir(exist_ok=True)
    checkpoint = root / "checkpoints" / "model.ckpt"
    import pytorch_lightning

    torch.save({"state_dict": model.state_dict(), "hyper_parameters": hparams,
                "pytorch-lightning_version": pytorch_lightning.__version__}, checkpoint)
    (root / "hparams.yaml").write_text(yaml.safe_dump(hparams), "utf-8")
    return checkpoint


def _build_encoder(encoder: Path, texts: Iterable[str], vocab_size: int, layers: int,
                   hidden: int) -> None:
    """A sentencepiece vocabulary trained on ``texts``, its XLM-R tokenizer and config."""
    import sentencepiece as spm
    from transformers import XLMRobertaConfig, XLMRobertaTokenizerFast

    encoder.mkdir(parents=True, exist_ok=True)
    corpus = encoder / "corpus.txt"
    corpus.write_text("\n".join(t for t in texts if t.strip()) + "\n", "utf-8")
    # the special pieces XLM-R's tokenizer expects at ids 0-3 (<s>, <pad>, </s>, <unk>)
    spm.SentencePieceTrainer.train(
        input=str(corpus), model_prefix=str(encoder / "sentencepiece.bpe"),
        vocab_size=vocab_size, model_type="unigram", character_coverage=1.0,
        bos_id=0, pad_id=1, eos_id=2, unk_id=3, num_threads=1, minloglevel=2,
        input_sentence_size=200000, shuffle_input_sentence=False)
    corpus.unlink()
    # converted from the sentencepiece model (this conversion is what needs protobuf<5 with
    # sentencepiece<0.2.3)
    fast = XLMRobertaTokenizerFast(vocab_file=str(encoder / "sentencepiece.bpe.model"))
    fast.save_pretrained(str(encoder))
    XLMRobertaConfig(vocab_size=len(fast), hidden_size=hidden, num_hidden_layers=layers,
                     num_attention_heads=max(1, hidden // 32), intermediate_size=2 * hidden,
                     max_position_embeddings=514, type_vocab_size=1, pad_token_id=1,
                     bos_token_id=0, eos_token_id=2).save_pretrained(str(encoder))


__all__ = ["build"]
