"""What ``evalfw verify`` may read and load when it re-runs a stored record.

A record may come from anyone (a colleague, a paper's artifact), so it is data: everything it
names is checked against what the person running ``verify`` chose.

- **Files.** The config and every input a record (or the config it names) points at must lie
  under a *trusted root*: the current directory, a directory given with ``--data-root`` or one
  added with ``evalfw trust add``; or be a file one of your own runs read (the per-user trust
  list, :mod:`evalfw.runner.trust_list`). Symbolic links are resolved first, so a link cannot
  lead elsewhere. A file outside is never opened: not hashed, not counted, not parsed.
- **Code.** ``verify`` loads the plugins the user's own command line and environment load
  (installed packages, ``--plugins-dir``). A plugin directory named by the record's config or
  overrides is loaded only when the user names the same directory with ``--plugins-dir``;
  otherwise verification stops with an error saying which directory and how to trust it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from evalfw.errors import RecordError
from evalfw.runner import trust_list

if TYPE_CHECKING:
    from evalfw.config import ExperimentConfig
    from evalfw.host.host import PluginHost


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


@dataclass(frozen=True)
class Trust:
    """The directories ``verify`` may read files under (resolved, symlinks followed), and the
    user's trust list."""

    roots: tuple[Path, ...]
    listed: trust_list.TrustList = trust_list.TrustList()

    @classmethod
    def of(cls, data_roots: Iterable[str | os.PathLike[str]] = ()) -> Trust:
        return cls(tuple(dict.fromkeys(_real(Path(p)) for p in (Path.cwd(), *data_roots))),
                   trust_list.read())

    def allows(self, path: Path) -> bool:
        real = _real(path)
        return any(real == root or root in real.parents for root in self.roots) \
            or self.listed.allows(real)

    def refusal(self, path: Path, what: str) -> str:
        shown = ", ".join(str(r) for r in self.roots)
        return (f"{what} is {_real(path)}, outside the directories verify reads ({shown}) and "
                f"no file a run of yours read (trust list {trust_list.list_path()}); verify "
                "opens no file a record names elsewhere: run it from a directory holding the "
                "data, pass --data-root DIR, or `evalfw trust add DIR` to trust DIR")

    def require(self, path: Path, what: str) -> None:
        if not self.allows(path):
            raise RecordError(self.refusal(path, what))


def config_files(cfg: ExperimentConfig) -> list[tuple[Path, str]]:
    """Every file a loaded config will read, with what it is."""
    out: list[tuple[Path, str]] = []
    for ts in cfg.test_sets:
        where = f"test set '{ts.name}'"
        if ts.source is not None:
            out.append((ts.source, f"the source of {where}"))
        out += [(r, f"reference {i + 1} of {where}") for i, r in enumerate(ts.references)]
        out += [(p, f"system '{s}' of {where}") for s, p in ts.systems]
        for name, _column, files in ts.segment_scores:
            out += [(p, f"scores '{name}' of system '{s}' of {where}") for s, p in files]
        out += [(j.file, f"judgements '{j.name}' of {where}") for j in ts.judgements]
        if ts.documents is not None:
            out.append((ts.documents, f"the documents of {where}"))
    if cfg.bucket_labels is not None:
        out.append((cfg.bucket_labels, "the bucket labels (significance.buckets.file)"))
    return list(dict.fromkeys(out))  # an MQM file holds every text of its test set


def check_config_files(cfg: ExperimentConfig, trust: Trust) -> None:
    for path, what in config_files(cfg):
        trust.require(path, what)


def note_run(cfg: ExperimentConfig) -> str | None:
    """Add the files a stored run read (config and inputs) to the trust list; a warning when
    the list cannot be written (the run itself stands)."""
    files = [p for p, _ in config_files(cfg)] + ([cfg.path] if cfg.path is not None else [])
    try:
        trust_list.note_files(files)
    except (OSError, RecordError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return (f"warning: the files this run read were not added to the trust list "
                f"{trust_list.list_path()} ({reason}); `evalfw verify` will need --data-root "
                f"for data outside the current directory (or set ${trust_list.ENV_DIR})")
    return None


def trusted_plugin_dirs(host: PluginHost) -> set[Path]:
    """The plugin directories the user's host loaded (their own ``--plugins-dir``)."""
    return {_real(Path(p.path).parent) for p in host.plugins if p.source == "file" and p.path}


__all__ = ["check_config_files", "config_files", "note_run", "Trust", "trusted_plugin_dirs"]
