"""Which COMET checkpoint a ``model`` option names, and what identifies it.

``model`` is a checkpoint file (``.../checkpoints/model.ckpt``), a directory holding one (the
layout COMET's hub models and ``comet-download`` leave: ``checkpoints/model.ckpt`` beside
``hparams.yaml``), or a hub name such as ``Unbabel/wmt22-comet-da``, resolved through
``comet.download_model``: from the Hugging Face cache when it is there, else downloaded, which
needs the hub. With ``HF_HUB_OFFLINE=1`` a hub name that is not cached is a one-line error
saying how to pass a local path. None of this imports torch: a run whose scores are all cached
never loads it.

A checkpoint is identified by its content (sha256, :mod:`evalfw.metrics.model_files`), so
scores are cached and recorded by what was run, not by where it lay.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from evalfw.errors import ConfigError
from evalfw.metrics.model_files import digest

#: COMET model classes (hparams.yaml's class_identifier) that read no reference
REFERENCE_FREE = {"referenceless_regression_metric"}


@dataclass(frozen=True)
class Checkpoint:
    """A resolved COMET checkpoint."""

    #: the ``model`` option as given (a hub name or a path)
    name: str
    path: Path
    sha256: str
    #: the model reads no reference (a quality-estimation model such as CometKiwi)
    reference_free: bool


def resolve(model: str) -> Checkpoint:
    """The checkpoint ``model`` names (see the module docstring)."""
    given = Path(model).expanduser()
    if given.is_dir():
        given = given / "checkpoints" / "model.ckpt"
    if given.is_file():
        path = given.resolve()
    elif os.path.isabs(model) or model.startswith(".") or model.endswith(".ckpt") \
            or model.count("/") > 1:
        raise ConfigError(f"COMET checkpoint {model} does not exist; give the path of a "
                          "checkpoints/model.ckpt file or of the directory holding it")
    else:
        path = Path(_from_hub(model)).resolve()
    return Checkpoint(model, path, digest(path), _reference_free(path))


#: the libraries under COMET, whose deprecation notices are about their own code, not the user's
LIBRARIES = r"(comet|torch|torchmetrics|transformers|pytorch_lightning|lightning|" \
            r"lightning_fabric|huggingface_hub|sentencepiece|pkg_resources|jsonargparse)"


@contextlib.contextmanager
def quiet_libraries() -> Iterator[None]:
    """Loading and predicting without the notices COMET's libraries print on every command
    (deprecations, future changes, their own user warnings): they say nothing about the
    scores, and a user can do nothing about them."""
    with warnings.catch_warnings():
        for category in (DeprecationWarning, PendingDeprecationWarning, FutureWarning,
                         UserWarning):
            warnings.filterwarnings("ignore", category=category, module=LIBRARIES)
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        warnings.filterwarnings("ignore", category=FutureWarning)
        yield


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def _from_hub(name: str) -> str:
    fix = (f"download it where the hub is reachable (huggingface-cli download {name}, or "
           "comet's download_model) and pass the downloaded directory, or its "
           "checkpoints/model.ckpt, as the model option")
    try:
        with quiet_libraries():
            from comet import download_model
    except ImportError as exc:
        raise ConfigError(f"COMET model '{name}' is a hub name, and unbabel-comet cannot be "
                          f"imported ({exc}); install unbabel-comet, or {fix}") from exc
    try:
        return str(download_model(name, local_files_only=True))
    except Exception:  # noqa: BLE001 - not in the cache (COMET says KeyError): ask the hub
        pass
    if _offline():
        raise ConfigError(f"COMET model '{name}' is not in the Hugging Face cache and the hub "
                          f"is offline (HF_HUB_OFFLINE is set); {fix}")
    try:
        return str(download_model(name))
    except Exception as exc:  # noqa: BLE001 - any failure to fetch is the user's to fix
        # COMET turns every failure (no network included) into "not supported by COMET":
        # the hub itself says why
        why = hub_problem(name)
        if why is not None:
            raise ConfigError(f"COMET model '{name}' could not be downloaded: {why}; "
                              f"{fix}") from exc
        first = (str(exc).splitlines() or [""])[0]
        raise ConfigError(f"COMET model '{name}' could not be downloaded "
                          f"({type(exc).__name__}: {first}); check the name, or {fix}") from exc


#: seconds the hub has to answer whether it knows a model
HUB_TIMEOUT = 10


def hub_problem(name: str) -> str | None:
    """Why the Hugging Face hub cannot give model ``name`` (it cannot be reached, or has no
    such model), or None when it answers that it has it (or cannot be asked)."""
    try:
        from huggingface_hub import model_info
    except ImportError:
        return None
    try:
        model_info(name, timeout=HUB_TIMEOUT)
    except Exception as exc:  # noqa: BLE001 - what the hub said, or why it said nothing
        kind = type(exc).__name__
        first = " ".join((str(exc).splitlines() or [""])[0].split())[:160]
        if kind in ("RepositoryNotFoundError", "GatedRepoError", "RevisionNotFoundError"):
            return f"the Hugging Face hub has no public model '{name}' ({kind}); check the name"
        status = getattr(getattr(exc, "response", None), "status_code", None)
        if status is not None:
            return f"the Hugging Face hub answered HTTP {status} ({first})"
        return (f"the Hugging Face hub cannot be reached ({kind}: {first}): no network, or a "
                "proxy or firewall in the way")
    return None


def _reference_free(checkpoint: Path) -> bool:
    hparams = checkpoint.parents[1] / "hparams.yaml"
    if not hparams.is_file():
        raise ConfigError(f"COMET checkpoint {checkpoint} has no hparams.yaml in "
                          f"{hparams.parent}; COMET needs it to load the model")
    import yaml

    try:
        found = yaml.safe_load(hparams.read_text("utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read {hparams}: {exc}") from exc
    if not isinstance(found, dict):
        raise ConfigError(f"{hparams} is not a mapping of COMET hyper-parameters")
    if found.get("class_identifier") in REFERENCE_FREE:
        return True
    # a unified model (CometKiwi, XCOMET) reads the segments it was trained on
    segments = found.get("input_segments")
    return isinstance(segments, list) and "ref" not in segments


__all__ = ["Checkpoint", "hub_problem", "quiet_libraries", "REFERENCE_FREE", "resolve"]
