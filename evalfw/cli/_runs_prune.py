"""``evalfw runs prune``: remove old run versions, a dry run unless ``--yes``."""

from __future__ import annotations

import argparse
from datetime import date

from evalfw.cli._options import add_format, add_runs_dir, write, write_json

HELP = "remove old run versions (dry run unless --yes); the latest version is always kept"
EPILOG = """examples:
  evalfw runs prune --keep 5                   # show what keeping the last 5 would remove
  evalfw runs prune --keep 5 --yes             # remove them
  evalfw runs prune wmt --before 2025-01-01    # versions of wmt made before that day (UTC)
  evalfw runs prune --keep 3 --before 2025-06-01 --yes   # only versions meeting both

Without --yes nothing is removed: the versions that would be, and the bytes freed, are
listed. The latest version of every experiment is never removed, whatever the options;
temporary directories and the statistics cache are left alone.
"""

__all__ = ["configure", "EPILOG", "execute", "HELP"]


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (the latest version is always "
                                         f"kept), got {value}")
    return value


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date YYYY-MM-DD, e.g. "
                                         "2025-01-31") from None


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("experiment", metavar="EXPERIMENT", nargs="?", default=None,
                        help="only this experiment (default: every experiment)")
    parser.add_argument("--keep", type=_positive, metavar="N",
                        help="keep the last N versions of each experiment")
    parser.add_argument("--before", type=_day, metavar="YYYY-MM-DD",
                        help="remove versions created before this day (UTC)")
    parser.add_argument("--yes", action="store_true",
                        help="really remove (default: only list what would be removed)")
    add_runs_dir(parser)
    add_format(parser, ("table", "json"))


def _size(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} bytes" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} bytes"  # pragma: no cover


def execute(args: argparse.Namespace) -> int:
    from evalfw.records.prune import plan, remove

    chosen = plan(args.runs_dir, args.experiment, keep=args.keep, before=args.before)
    total = sum(c.bytes for c in chosen)
    if args.yes:
        remove(chosen)
    if args.format == "json":
        write_json({"removed" if args.yes else "would_remove": [
            {"experiment": c.experiment, "version": c.version, "path": str(c.path),
             "bytes": c.bytes} for c in chosen], "bytes": total, "dry_run": not args.yes})
        return 0
    verb = "removed" if args.yes else "would remove"
    lines = [f"{verb} {c.path} ({_size(c.bytes)})" for c in chosen]
    if not chosen:
        lines.append(f"nothing to remove in {args.runs_dir}")
    else:
        lines.append(f"{verb} {len(chosen)} version(s), {_size(total)} ({total} bytes)"
                     + ("" if args.yes else "; nothing was removed: add --yes to remove them"))
    write("\n".join(lines) + "\n")
    return 0
