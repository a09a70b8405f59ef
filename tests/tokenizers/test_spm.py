"""The SentencePiece tokenizers against sacreBLEU 2.6.0's on random lines (with small models
trained here), their signatures and model sha256, and where their model comes from: sacreBLEU's
folder, the ``model`` option, or one download (from a server on 127.0.0.1 only)."""

from __future__ import annotations

import http.server
import pickle
import random
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from evalfw.errors import ConfigError, InputError, PluginError
from evalfw.tokenizers import _spm_models as models
from evalfw.tokenizers import builtin
from tests.support.spm_models import generated_model, sacrebleu_home, use_home, wmt22_model
from tests.support.tokenizer_oracles import random_batches

pytestmark = pytest.mark.parity
pytest.importorskip("sentencepiece")

NAMES = ("flores101", "flores200", "spBLEU-1K", "spm")
SACREBLEU_CLASSES = {"flores101": "Flores101Tokenizer", "flores200": "Flores200Tokenizer",
                     "spBLEU-1K": "spBLEU1KTokenizer", "spm": "TokenizerSPM"}


def make(name: str, **options: object):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # 'spm' warns, as sacreBLEU does
        return builtin(name)(**options)


def oracle(name: str):
    """sacreBLEU's tokens of a line, as its BLEU computes them."""
    import sacrebleu.tokenizers.tokenizer_spm as spm

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # its logger.warn for 'spm'
        tokenizer = getattr(spm, SACREBLEU_CLASSES[name])()
    return lambda line: tokenizer(line.rstrip()).split()


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A sacreBLEU home holding the generated model under every published file name."""
    return use_home(monkeypatch, sacrebleu_home(tmp_path / "sacrebleu", generated_model()))


def texts_of(joined: str) -> list[list[str]]:
    assert joined.startswith("\n") and joined.endswith("\n")
    return [segment.split() for segment in joined.split("\n")[1:-1]]


# ------------------------------------------------------------------------------ the tokens


def _lines(seed: int) -> list[str]:
    """Random lines (the tokenizer tests' generator: every kind of character, whitespace,
    line breaks inside lines) without lone surrogates, which no UTF-8 text holds."""
    rng = random.Random(seed)
    lines = [line for batch in random_batches(seed, 600) for line in batch
             if not any(0xD800 <= ord(c) <= 0xDFFF for c in line)]
    lines += [line.lower() for line in rng.sample(lines, 50)] + lines[:40]  # repeated lines
    rng.shuffle(lines)
    return lines


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [3, 17])
def test_tokens_equal_sacrebleus(home, name, seed):
    lines = _lines(seed)
    theirs = [oracle(name)(line) for line in lines]
    tok = make(name)
    assert tok.tokenize(lines) == theirs
    assert texts_of(tok.tokenize_joined(lines)) == theirs
    assert make(name).tokenize(lines[::-1]) == theirs[::-1]  # from the model's line cache
    assert [tok.tokenize([line])[0] for line in lines[:50]] == theirs[:50]


@pytest.mark.wmt22
@pytest.mark.parametrize("kind", ["unigram", "bpe"])
def test_tokens_equal_sacrebleus_with_wmt22_models(tmp_path, monkeypatch, kind):
    use_home(monkeypatch, sacrebleu_home(tmp_path, wmt22_model(kind)))
    lines = _lines(29)
    theirs = [oracle("flores200")(line) for line in lines]
    assert make("flores200").tokenize(lines) == theirs
    assert texts_of(make("flores200").tokenize_joined(lines)) == theirs


def test_each_distinct_line_is_encoded_once(home):
    tok = make("flores200")
    model = tok._loaded()
    calls: list[list[str]] = []

    class Counting:
        def __init__(self, processor):
            self.processor = processor

        def encode(self, lines, **options):
            calls.append(list(lines))
            return self.processor.encode(lines, **options)

        def __getattr__(self, name):
            return getattr(self.processor, name)

    object.__setattr__(model, "processor", Counting(model.processor))
    try:
        model.pieces.clear()
        tok.tokenize(["a b", "c", "a b  ", "c"])
        tok.tokenize_joined(["c", "a b", "d"])
        lines = [f"w{i}" for i in range(200)]
        tok.tokenize([*lines, *lines, "d"])
        assert calls == [["a b", "c"], ["d"], lines]
    finally:
        object.__setattr__(model, "processor", model.processor.processor)


# ------------------------------------------------------------------------------ signatures


def test_signatures_and_sha256(home):
    sha = models.from_file(str(generated_model()), "t", "").sha256
    for name in NAMES:
        tok = make(name)
        signature = "flores101" if name == "spm" else name
        assert tok.sacrebleu_signature() == signature
        assert tok.describe() == f"{name}@1[sha256={sha}]"
        assert dict(tok.options) == {"model": None, "sha256": sha}


def test_a_model_option_puts_the_sha256_in_sacrebleus_signature(tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "empty"))  # no published model needed
    model = tmp_path / "mine.model"
    model.write_bytes(generated_model().read_bytes())
    sha = models.from_file(str(model), "t", "").sha256
    tok = make("flores200", model=str(model))
    assert tok.sacrebleu_signature() == f"flores200[sha256={sha}]"
    assert tok.describe() == f"flores200@1[sha256={sha}]"  # where it was read from is no part
    monkeypatch.chdir(tmp_path)
    assert make("flores200", model="mine.model").describe() == tok.describe()


def test_spm_warns_as_sacrebleu_does(home):
    with pytest.warns(FutureWarning, match="'spm' is sacreBLEU's older name of 'flores101'"):
        tok = builtin("spm")()
    assert tok.sacrebleu_signature() == "flores101"


# ------------------------------------------------------------------------------ sha256 pins


def test_a_pinned_model_is_read_when_tokenizing_and_must_match(home, tmp_path, monkeypatch):
    sha = make("flores200").options["sha256"]
    pinned = make("flores200", sha256=sha)
    assert pinned._model is None and pinned.describe() == f"flores200@1[sha256={sha}]"
    assert pinned.tokenize(["a b"]) == make("flores200").tokenize(["a b"])
    use_home(monkeypatch, sacrebleu_home(tmp_path / "other", generated_model(120)))
    with pytest.raises(InputError, match=f"not the {sha} its option sha256 asks for") as err:
        make("flores200", sha256=sha).tokenize(["a b"])
    assert "\n" not in str(err.value)
    with pytest.raises(InputError, match="not the"):
        make("flores200", sha256=sha).load_files()


@pytest.mark.parametrize("value", ["abc", "A" * 64, "g" * 64])
def test_a_malformed_sha256_is_refused(home, value):
    with pytest.raises(ConfigError, match="is not a sha256"):
        make("flores200", sha256=value)


def test_an_empty_model_option_is_refused(home):
    with pytest.raises(ConfigError, match="give a model file's path"):
        make("flores200", model="")


# ------------------------------------------------------------------------------ model files


def test_a_missing_model_names_its_path_url_and_the_option(tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    with pytest.raises(InputError) as err:
        make("flores200")
    message = str(err.value)
    assert "\n" not in message
    for part in (str(tmp_path / "models" / "flores200sacrebleuspm"),
                 "https://tinyurl.com/flores200sacrebleuspm", "EVALFW_NO_DOWNLOAD=1",
                 "model: PATH"):
        assert part in message


def test_the_default_home_is_sacrebleus(tmp_path, monkeypatch):
    monkeypatch.delenv("SACREBLEU", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    sacrebleu_home(tmp_path / ".sacrebleu", generated_model())
    assert models.published_path("spBLEU-1K") == str(
        tmp_path / ".sacrebleu" / "models" / "spbleu-1k_tokenizer_spm.model")
    assert make("spBLEU-1K").tokenize(["ab"])


def test_a_file_that_is_not_a_model(home):
    (home / "models" / "flores200sacrebleuspm").write_bytes(b"<html>not found</html>")
    with pytest.raises(InputError, match="flores200sacrebleuspm: not a SentencePiece model"):
        make("flores200")


def test_a_missing_model_option_file(home, tmp_path):
    with pytest.raises(InputError, match="SentencePiece model not found; check the tokenizer"):
        make("flores200", model=str(tmp_path / "absent.model"))


def test_without_sentencepiece_one_line_says_how_to_install_it(home, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "sentencepiece", None)
    with pytest.raises(PluginError) as err:
        make("flores200")
    assert isinstance(err.value, ImportError)  # as sacreBLEU's, for code that catches that
    assert str(err.value).endswith("install it with: pip install 'evalfw[spm]'")
    assert "\n" not in str(err.value)


def test_a_pickled_tokenizer_carries_its_model(home, tmp_path):
    tok = make("flores200")
    lines = _lines(5)[:100]
    theirs = [oracle("flores200")(line) for line in lines]
    data = pickle.dumps(tok)
    for path in (home / "models").iterdir():
        path.unlink()
    models._BY_SHA.clear()
    models._BY_FILE.clear()
    again = pickle.loads(data)
    assert again.options == tok.options
    assert again.tokenize(lines) == theirs


# ------------------------------------------------------------------------------ the download


class _Files(http.server.BaseHTTPRequestHandler):
    """Serves ``files`` (path -> bytes) and counts requests; ``/slow/...`` never answers."""

    files: dict[str, bytes] = {}
    requests: list[str] = []
    release = threading.Event()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.requests.append(self.path)
        if self.path.startswith("/slow/"):
            self.release.wait(10)
            return
        body = self.files.get(self.path)
        self.send_response(200 if body is not None else 404)
        self.send_header("Content-Length", str(len(body or b"")))
        self.end_headers()
        self.wfile.write(body or b"")

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def file_server(files: dict[str, bytes]) -> Iterator[tuple[str, list[str]]]:
    """``http://127.0.0.1:PORT`` serving ``files``, and the paths it was asked for."""
    handler = type("Handler", (_Files,), {"files": files, "requests": [],
                                         "release": threading.Event()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler.requests
    finally:
        handler.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def _serve_flores200_from(monkeypatch, base: str, folder: str) -> str:
    url = f"{base}/{folder}/flores200sacrebleuspm"
    monkeypatch.setitem(models.PUBLISHED, "flores200", models.Published("flores200", url))
    monkeypatch.delenv(models.NO_DOWNLOAD)
    return url


def test_a_missing_model_is_downloaded_once_into_sacrebleus_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    data = generated_model().read_bytes()
    with file_server({"/m/flores200sacrebleuspm": data}) as (base, requests):
        _serve_flores200_from(monkeypatch, base, "m")
        tok = make("flores200")
        again = make("flores200")
    assert requests == ["/m/flores200sacrebleuspm"]
    assert (tmp_path / "models" / "flores200sacrebleuspm").read_bytes() == data
    assert [p.name for p in (tmp_path / "models").iterdir()] == ["flores200sacrebleuspm"]
    assert tok.options == again.options and tok.tokenize(["ab cd"])


@pytest.mark.parametrize("served, expected", [
    ({}, "HTTP Error 404"),
    ({"/m/flores200sacrebleuspm": b"<html>a captive portal</html>"},
     "did not give a SentencePiece model"),
])
def test_a_failed_download_leaves_nothing_and_says_what_to_do(tmp_path, monkeypatch, served,
                                                              expected):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    with file_server(served) as (base, requests):
        url = _serve_flores200_from(monkeypatch, base, "m")
        with pytest.raises(InputError) as err:
            make("flores200")
    message = str(err.value)
    assert expected in message and url in message and "model: PATH" in message
    assert "\n" not in message and len(requests) == 1
    assert list((tmp_path / "models").iterdir()) == []


def test_a_download_that_does_not_answer_times_out(tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    monkeypatch.setattr(models, "TIMEOUT", 0.5)
    with file_server({}) as (base, requests):
        _serve_flores200_from(monkeypatch, base, "slow")
        with pytest.raises(InputError, match="timed out"):
            make("flores200")
    assert len(requests) == 1


def test_a_refused_connection_fails_at_once(tmp_path, monkeypatch):
    import socket

    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
    try:
        _serve_flores200_from(monkeypatch, f"http://127.0.0.1:{closed.getsockname()[1]}", "m")
        with pytest.raises(InputError, match="refused"):
            make("flores200")
    finally:
        closed.close()
