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

import os
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


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def _from_hub(name: str) -> str:
    fix = (f"download it where the hub is reachable (huggingface-cli download {name}, or "
           "comet's download_model) and pass the downloaded directory, or its "
           "checkpoints/model.ckpt, as the model option")
    try:
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
        first = (str(exc).splitlines() or [""])[0]
        raise ConfigError(f"COMET model '{name}' could not be downloaded "
                          f"({type(exc).__name__}: {first}); check the name, or {fix}") from exc


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


__all__ = ["Checkpoint", "REFERENCE_FREE", "resolve"]
