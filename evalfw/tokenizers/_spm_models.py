"""Where the SentencePiece models of the spBLEU tokenizers come from, and reading them.

A published model is looked for where sacreBLEU keeps it, under sacreBLEU's file name
(``$SACREBLEU/models/<name>``, else ``~/.sacrebleu/models/<name>``), so a machine that has run
sacreBLEU once needs nothing more, and a model evalfw fetched serves sacreBLEU too. When it is
missing, sacreBLEU's URL is tried once, with a bounded time; when that fails, one line says
where the model belongs, where to fetch it from and how to name a local copy instead.

A model file is read once per process, within a size limit, hashed and loaded from the same
bytes (so the sha256 recorded is that of the model that tokenized). The bytes travel with a
pickled tokenizer, so a worker process or a cluster worker never looks for the file itself.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from typing import Any

from evalfw.errors import InputError, PluginError
from evalfw.io.text import read_bytes
from evalfw.plugin.component import unprintable


@dataclass(frozen=True)
class Published:
    """A model sacreBLEU 2.6.0 knows by a tokenizer name: the name its signature shows and the
    URL it downloads the model from (the URL's last part is the file name)."""

    signature: str
    url: str

    @property
    def file_name(self) -> str:
        return self.url.rsplit("/", 1)[-1]


_FLORES101 = "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model"
#: sacreBLEU 2.6.0's ``SPM_MODELS``: 'spm' is its older name of 'flores101'
PUBLISHED: dict[str, Published] = {
    "spm": Published("flores101", _FLORES101),
    "flores101": Published("flores101", _FLORES101),
    "flores200": Published("flores200", "https://tinyurl.com/flores200sacrebleuspm"),
    "spBLEU-1K": Published("spBLEU-1K",
                           "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model"),
}

#: seconds one network operation of the download may wait (connecting, each read)
TIMEOUT = 30.0
#: seconds the whole download may take
DEADLINE = 300.0
#: setting this environment variable to 1 turns the download off (an offline machine fails at
#: once instead of waiting for a firewall to drop the connection)
NO_DOWNLOAD = "EVALFW_NO_DOWNLOAD"
#: a model file at most this many bytes (the published ones are a few MB)
MAX_MODEL_BYTES = 256 << 20
#: lines whose pieces a model keeps (each line once); past it, all are forgotten at once
CACHED_LINES = 1 << 16


class NotAModel(InputError):
    """Bytes that sentencepiece cannot load as a model."""


def shown(text: str) -> str:
    """A path as messages print it: escaped when a terminal would not print it as itself."""
    return ascii(text)[1:-1] if unprintable(text) else text


def sacrebleu_models_dir() -> str:
    """sacreBLEU's model folder: ``$SACREBLEU/models``, else ``~/.sacrebleu/models``."""
    home = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))
    return os.path.join(home, "models")


def published_path(key: str) -> str:
    """Where sacreBLEU keeps the model of tokenizer ``key``."""
    return os.path.join(sacrebleu_models_dir(), PUBLISHED[key].file_name)


class NoSentencePiece(PluginError, ImportError):
    """The ``sentencepiece`` package is not installed (an ImportError too, as sacreBLEU's)."""


def sentencepiece(tokenizer: str) -> Any:
    """The ``sentencepiece`` module, or an error saying how to install it."""
    try:
        import sentencepiece as module
    except ImportError as exc:
        raise NoSentencePiece(
            f"tokenizer '{tokenizer}' needs the sentencepiece package ({exc}); install it "
            "with: pip install 'evalfw[spm]'") from None
    return module


@dataclass(frozen=True, eq=False)
class Model:
    """A loaded SentencePiece model: its file's bytes, their sha256, the processor, and the
    texts of the lines it has encoded (line -> its pieces joined by spaces)."""

    sha256: str
    data: bytes
    processor: Any
    pieces: dict[str, str] = field(default_factory=dict)


#: models of this process by sha256, and by the identity of the file they were read from
_BY_SHA: dict[str, Model] = {}
_BY_FILE: dict[tuple[int, int, int, int], Model] = {}


def from_bytes(data: bytes, tokenizer: str, where: str) -> Model:
    """The model made of ``data`` (once per process for the same bytes)."""
    digest = hashlib.sha256(data).hexdigest()
    found = _BY_SHA.get(digest)
    if found is not None:
        return found
    processor = sentencepiece(tokenizer).SentencePieceProcessor()
    try:
        processor.LoadFromSerializedProto(data)
    except Exception as exc:  # sentencepiece raises RuntimeError or OSError, by version
        raise NotAModel(f"{where}: not a SentencePiece model ({type(exc).__name__}: "
                         f"{str(exc).strip()[:200]}); tokenizer '{tokenizer}' needs one") \
            from None
    if len(_BY_SHA) >= 8:  # a long-lived worker that met many models keeps the last few
        _BY_SHA.clear()
        _BY_FILE.clear()
    model = _BY_SHA[digest] = Model(digest, data, processor)
    return model


def from_file(path: str, tokenizer: str, missing: str) -> Model:
    """The model in file ``path`` (read once per process while the file is unchanged)."""
    try:
        info = os.stat(path)
        identity = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    except OSError:
        identity = None
    if identity is not None and identity in _BY_FILE:
        return _BY_FILE[identity]
    where = shown(path)
    data = read_bytes(path, where, limit=MAX_MODEL_BYTES, variable=None,
                      what="SentencePiece model", missing=missing)
    model = from_bytes(data, tokenizer, where)
    if identity is not None:
        _BY_FILE[identity] = model
    return model


def fetch(key: str, tokenizer: str) -> Model:
    """The published model of ``key`` from sacreBLEU's folder, downloaded there first when it
    is missing (one attempt, bounded in time)."""
    path = published_path(key)
    if os.path.lexists(path):
        return from_file(path, tokenizer, "check the file")
    url = PUBLISHED[key].url
    if os.environ.get(NO_DOWNLOAD, "") == "1":
        reason = f"not downloaded: {NO_DOWNLOAD}=1"
    else:
        import http.client

        try:
            return download(url, path, tokenizer)
        except NotAModel:
            reason = f"{url} did not give a SentencePiece model"
        except (OSError, ValueError, http.client.HTTPException) as exc:
            # URLError, timeouts, refused connections, a broken transfer, a full disk
            reason = f"downloading it from {url} failed: {_reason(exc)}"
    raise InputError(
        f"tokenizer '{tokenizer}' needs sacreBLEU's model {shown(path)}, which is missing "
        f"({reason}); fetch {url} on a machine that is online and copy it to that path, "
        f"or name a local copy with the tokenizer option model "
        f"(tokenizer: {{name: {tokenizer}, model: PATH}})")


def _reason(exc: BaseException) -> str:
    """A download failure in a few words (the reason inside a URLError, not its repr)."""
    reason = getattr(exc, "reason", None)
    text = str(reason if reason is not None and not isinstance(reason, str) else exc)
    return " ".join(text.split())[:200] or type(exc).__name__


def download(url: str, path: str, tokenizer: str) -> Model:
    """Fetch ``url`` into ``path``: written beside it under a temporary name, checked to be a
    SentencePiece model, then renamed into place (a failed or concurrent download never
    leaves a partial model where sacreBLEU or evalfw would read it)."""
    import tempfile
    import urllib.request

    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    deadline = time.monotonic() + DEADLINE
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:  # noqa: S310 - fixed URLs
        chunks, size = [], 0
        while chunk := response.read(1 << 20):
            size += len(chunk)
            if size > MAX_MODEL_BYTES:
                raise OSError(f"the download is larger than {MAX_MODEL_BYTES:,} bytes")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the download took more than {DEADLINE:.0f} s")
            chunks.append(chunk)
    data = b"".join(chunks)
    model = from_bytes(data, tokenizer, f"the file downloaded from {url}")
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=os.path.basename(path) + ".",
                                     suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return model


def remember(model: Model, encoded: dict[str, str]) -> None:
    """Keep newly encoded lines' pieces (all forgotten at once past ``CACHED_LINES``: they
    never change, so which ones are kept only costs time)."""
    if len(model.pieces) + len(encoded) > CACHED_LINES:
        model.pieces.clear()
    if len(encoded) <= CACHED_LINES:
        model.pieces.update(encoded)


__all__ = [
    "CACHED_LINES", "DEADLINE", "download", "fetch", "from_bytes", "from_file",
    "MAX_MODEL_BYTES", "Model", "NO_DOWNLOAD", "NoSentencePiece", "NotAModel", "Published",
    "PUBLISHED", "published_path", "remember", "sacrebleu_models_dir", "sentencepiece", "shown",
    "TIMEOUT",
]
