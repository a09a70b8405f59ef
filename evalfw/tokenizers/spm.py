"""sacreBLEU's SentencePiece tokenizers: ``flores101``, ``flores200``, ``spBLEU-1K`` and
``spm`` (sacreBLEU's older name of ``flores101``). BLEU over their pieces is spBLEU.

As sacreBLEU 2.6.0 computes it, a line's tokens are the model's pieces of the line without
trailing whitespace, joined with spaces and split again on whitespace. sacreBLEU encodes line
by line; here each distinct line of a batch is encoded once, the batch in one call (which
sentencepiece runs in its own threads), and a model keeps the pieces of the lines it has seen,
so the references and the lines systems share are encoded once across systems.

The model (see :mod:`evalfw.tokenizers._spm_models`) is sacreBLEU's published one, from
sacreBLEU's folder, or the file the ``model`` option names. Its sha256 is the ``sha256``
option once the model is read: it is in evalfw's signature, the definition a record keeps and
the statistics cache's key. A tokenizer built with ``sha256`` given (as one rebuilt from a
record) reads its model only when it tokenizes, and refuses a model with another sha256.
sacreBLEU's signature is its own (``flores200``) for its published model and carries the
sha256 for a file named with ``model``.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from evalfw.errors import ConfigError, InputError
from evalfw.tokenizers import _spm_models as models
from evalfw.tokenizers.base import BatchTokenizer

_HEX = frozenset("0123456789abcdef")
#: a batch of at least this many new lines is encoded in sentencepiece's threads
_THREADED = 256


def _threads() -> int:
    """The cores this process may use (at most 8: more threads only cost start-up)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count() or 1
    return max(1, min(cores, 8))


class SentencePieceTokenizer(BatchTokenizer):
    """The pieces of a SentencePiece model (see the module docstring)."""

    #: the name of the published model in ``_spm_models.PUBLISHED``
    published: ClassVar[str]
    version = "1"
    options_schema: ClassVar[Mapping[str, Any]] = {
        "type": "object",
        "properties": {
            "model": {"type": ["string", "null"], "default": None,
                      "description": "a local model file (default: sacreBLEU's published model "
                                     "in $SACREBLEU/models or ~/.sacrebleu/models, downloaded "
                                     "once when missing)"},
            "sha256": {"type": ["string", "null"], "default": None,
                       "description": "the model's sha256: a model with another one is "
                                      "refused (filled in once the model is read)"},
        },
        "additionalProperties": False,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        pinned, path = self.options["sha256"], self.options["model"]
        if pinned is not None and (len(pinned) != 64 or not set(pinned) <= _HEX):
            raise ConfigError(f"tokenizer '{self.name}' option sha256: {pinned!r} is not a "
                              "sha256 (64 lower-case hexadecimal digits)")
        if path is not None and not path:
            raise ConfigError(f"tokenizer '{self.name}' option model: give a model file's "
                              "path, or leave the option out for sacreBLEU's published model")
        self._model: models.Model | None = None
        if pinned is None:  # read now (as sacreBLEU's tokenizer does): the sha256 is an option
            model = self._loaded()
            self.options = MappingProxyType({**self.options, "sha256": model.sha256})

    # ----------------------------------------------------------------- the model

    def _loaded(self) -> models.Model:
        if self._model is not None:
            return self._model
        models.sentencepiece(self.name)  # the install hint before any file or download
        path = self.options["model"]
        if path is None:
            model = models.fetch(self.published, self.name)
            where = models.published_path(self.published)
        else:
            where = os.path.expanduser(path)
            model = models.from_file(where, self.name, "check the tokenizer's model option")
        pinned = self.options["sha256"]
        if pinned is not None and model.sha256 != pinned:
            raise InputError(
                f"tokenizer '{self.name}' read the model {models.shown(where)} with sha256 "
                f"{model.sha256}, not the {pinned} its option sha256 asks for (a record "
                "holds the sha256 of the model its run read); put the model with that sha256 "
                "there, or name it with the tokenizer option model")
        self._model = model
        return model

    def describe(self) -> str:
        """``name@version[sha256=...]``: the model's content, not where it was read from."""
        return f"{self.name}@{self.version}[sha256={self.options['sha256']}]"

    def sacrebleu_signature(self) -> str | None:
        """sacreBLEU's name for the published model; with the sha256 for another file."""
        name = super().sacrebleu_signature()
        if name is None or self.options["model"] is None:
            return name
        return f"{name}[sha256={self.options['sha256']}]"

    def load_files(self) -> None:
        """Read the model now (a tokenizer rebuilt with its sha256 reads it when it first
        tokenizes): raises when it is missing or not the one asked for."""
        self._loaded()

    # ----------------------------------------------------------------- tokenizing

    def pieces(self, lines: Sequence[str]) -> list[str]:
        """Each line's pieces joined by spaces (sacreBLEU's tokenized line)."""
        model = self._loaded()
        known = model.pieces
        stripped = [line.rstrip() for line in lines]
        found = [known.get(line) for line in stripped]
        new = list(dict.fromkeys(s for s, f in zip(stripped, found, strict=True) if f is None))
        if not new:
            return found  # type: ignore[return-value]
        threads = _threads() if len(new) >= _THREADED else 1
        encoded = model.processor.encode(new, out_type=str, num_threads=threads)
        made = dict(zip(new, map(" ".join, encoded), strict=True))
        models.remember(model, made)
        return [made[s] if f is None else f for s, f in zip(stripped, found, strict=True)]

    def _tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        return [text.split() for text in self.pieces(lines)]

    def tokenize_joined(self, lines: Sequence[str]) -> str | None:
        texts = self.pieces(lines)
        text = "\n".join(["", *texts, ""])
        if text.count("\n") != len(texts) + 1:  # a piece holding a line break
            text = "\n".join(["", *(" ".join(t.split()) for t in texts), ""])
        return text

    # ----------------------------------------------------------------- pickling

    def __getstate__(self) -> dict[str, Any]:
        """A worker gets the model's bytes, not its path: it may not see the same files."""
        model = self._model
        state = {**self.__dict__, "_model": None, "options": dict(self.options)}
        if model is not None:
            state["_model_bytes"] = model.data
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        data = state.pop("_model_bytes", None)
        state["options"] = MappingProxyType(state["options"])
        self.__dict__.update(state)
        if data is not None:
            self._model = models.from_bytes(data, self.name, "a pickled tokenizer's model")


class Flores101Tokenizer(SentencePieceTokenizer):
    name = "flores101"
    sacrebleu_name = "flores101"
    description = ("spBLEU: FLORES-101 SentencePiece pieces (sacreBLEU 'flores101'; "
                   "extra 'spm')")
    published = "flores101"
    joined = True  # a capability is declared by each class itself


class Flores200Tokenizer(SentencePieceTokenizer):
    name = "flores200"
    sacrebleu_name = "flores200"
    description = ("spBLEU: FLORES-200 SentencePiece pieces, 200 languages (sacreBLEU "
                   "'flores200'; extra 'spm')")
    published = "flores200"
    joined = True  # a capability is declared by each class itself


class SpBleu1KTokenizer(SentencePieceTokenizer):
    name = "spBLEU-1K"
    sacrebleu_name = "spBLEU-1K"
    description = ("spBLEU-1K: SentencePiece pieces for 1,000+ languages (sacreBLEU "
                   "'spBLEU-1K'; extra 'spm')")
    published = "spBLEU-1K"
    joined = True  # a capability is declared by each class itself


class SpmTokenizer(SentencePieceTokenizer):
    """sacreBLEU's ``spm``: ``flores101`` under its older name, with sacreBLEU's warning."""

    name = "spm"
    sacrebleu_name = "flores101"
    description = "sacreBLEU's older name of 'flores101' (warns, as sacreBLEU does)"
    published = "spm"
    joined = True  # a capability is declared by each class itself

    def __init__(self, **options: Any) -> None:
        warnings.warn("tokenizer 'spm' is sacreBLEU's older name of 'flores101', which "
                      "sacreBLEU may remove: name 'flores101' instead (the same model and "
                      "signature)", FutureWarning, stacklevel=2)
        super().__init__(**options)


__all__ = ["Flores101Tokenizer", "Flores200Tokenizer", "SentencePieceTokenizer",
           "SpBleu1KTokenizer", "SpmTokenizer"]
