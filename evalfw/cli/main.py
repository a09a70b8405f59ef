"""The ``evalfw`` command: a thin argparse front over the Python API.

Each sub-command lives in its own module ``evalfw.cli.cmd_<name>`` exposing ``HELP``
(one line), ``EPILOG`` (examples), ``configure(parser)`` and ``execute(args) -> int``.
User errors (:class:`evalfw.errors.EvalfwError`) become one ``evalfw: error: ...`` line on
stderr with the error's exit status; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

from evalfw.errors import EvalfwError
from evalfw.version import __version__

COMMANDS = (
    "score",
    "run",
    "validate",
    "schema",
    "show",
    "verify",
    "meta",
    "runs",
    "compare",
    "plugins",
    "trust",
)


class _Parser(argparse.ArgumentParser):
    #: component kinds whose registered names ``--help`` lists (set by a command's configure)
    list_components: tuple[str, ...] = ()
    #: a command's ``configure_plugins(parser, host)``: arguments derived from the plugins
    configure_plugins: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # no abbreviations: sacreBLEU habits such as ``-l en-de`` or ``-t wmt22`` must never be
        # taken for the start of another long option (``--lowercase``, ``--tokenize``)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.commands: dict[str, _Parser] = {}

    def format_help(self) -> str:
        if self.configure_plugins is not None:
            # flags that plugins' components declare (a metric's --<name>-* flags); for help
            # they come from a host with the default plugins
            from evalfw.host.host import PluginHost

            self.configure_plugins(self, PluginHost.create())
        text = super().format_help()
        if self.list_components:
            # Names come from the registries, so plugins' components show up too; the host is
            # only built when help is asked for.
            from evalfw.host.host import PluginHost

            host = PluginHost.create()
            lines = [f"  {kind}: {', '.join(host.registry(kind).names())}"
                     for kind in self.list_components]
            text += "\navailable components (evalfw plugins --all):\n" + "\n".join(lines) + "\n"
        return text

    def error(self, message: str) -> NoReturn:  # argparse's own usage errors: same one-line style
        from evalfw.names import shown  # the message may quote a value as it was typed

        self.print_usage(sys.stderr)
        sys.stderr.write(f"evalfw: error: {shown(message)}\n")
        raise SystemExit(2)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the program is (see :func:`evalfw.cli.entry.main`), so a
    run cleans up as on Ctrl-C: worker processes and clusters are stopped, nothing is stored."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def interrupted(exc: KeyboardInterrupt) -> int:
    """Say on stderr why the command stopped; the status is 128 + the signal's number, as a
    shell reports it: 130 for Ctrl-C (SIGINT), 143 for SIGTERM, 129 for SIGHUP."""
    signum = getattr(exc, "signum", signal.SIGINT)
    if signum == signal.SIGINT:
        sys.stderr.write("evalfw: interrupted\n")
    else:
        sys.stderr.write(f"evalfw: terminated by {signal.Signals(signum).name}\n")
    return 128 + int(signum)


#: global options that take a value (to find the command word without parsing everything)
_VALUE_OPTIONS = ("--disable-plugin",)


def command_word(argv: Sequence[str]) -> str | None:
    """The sub-command named in ``argv``, if it is one of ours (skipping global options)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _VALUE_OPTIONS:
            skip = True
        elif not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None


def build_parser(only: str | None = None) -> _Parser:
    """The full parser; with ``only``, just that sub-command is configured (the others are not
    imported: each command module may import much of evalfw, which costs start-up time)."""
    parser = _Parser(
        prog="evalfw",
        description="Config-driven, reproducible machine-translation evaluation.",
        epilog="examples:\n  evalfw run configs/wmt.yaml\n  evalfw score -r ref.txt -i hyp.txt\n"
        "  evalfw plugins --all\n\nRun 'evalfw COMMAND --help' for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"evalfw {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks for errors")
    parser.add_argument("--disable-plugin", action="append", default=[], metavar="NAME",
                        help="do not load plugin NAME (entry-point name, distribution or plugin "
                             "file stem); repeatable; also $EVALFW_DISABLE_PLUGINS=a,b")
    parser.add_argument("--no-plugin-autoload", action="store_true",
                        help="load no entry-point plugins (also $EVALFW_DISABLE_PLUGIN_AUTOLOAD=1)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        if only is not None and name != only:
            continue
        try:
            module = importlib.import_module(f"evalfw.cli.cmd_{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"evalfw.cli.cmd_{name}":
                raise
            continue
        p = sub.add_parser(
            name,
            help=module.HELP,
            description=module.HELP,
            epilog=getattr(module, "EPILOG", None),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show tracebacks for errors")
        module.configure(p)
        p.set_defaults(_execute=module.execute)
        p.configure_plugins = getattr(module, "configure_plugins", None)
        parser.commands[name] = p
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (argparse's own usage errors exit 2)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(command_word(argv))
    sub = parser.commands.get(command_word(argv) or "")
    host = None
    if sub is not None and sub.configure_plugins is not None:
        # The command's arguments depend on the loaded plugins (a metric's flags): build its
        # host from the plugin switches alone, add those arguments, then parse everything.
        switches = _plugin_switches(argv)
        configured: list[Any] = []
        status = _guarded(switches, lambda: configured.append(_configure_plugins(sub, switches)))
        if not configured:
            return status
        host = configured[0]
    args, extra = parser.parse_known_args(argv)
    if host is not None:
        args._host = host
    if extra:  # reported with the usage of the command they were given to
        parser.commands.get(getattr(args, "command", None) or "", parser).error(
            f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "_execute", None):
        parser.print_help()
        return 2
    if args.command in _COMPUTING:
        _note_missing_kernels()
    from evalfw.plugin.guard import check_threads, exits_refused

    def command() -> int:
        status = int(args._execute(args) or 0)
        check_threads()  # a thread plugin code left running would keep the process alive
        return status

    with exits_refused(), warnings.catch_warnings():
        warnings.showwarning = _one_line_warnings(warnings.showwarning)
        return _guarded(args, command)


def _one_line_warnings(previous: Any) -> Any:
    """``warnings.showwarning`` that prints evalfw's own warnings as one ``evalfw: warning:``
    line each (others as ``previous`` does)."""
    from evalfw.errors import EvalfwWarning

    def show(message: Any, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:
        if issubclass(category, EvalfwWarning):
            from evalfw.names import shown

            (file or sys.stderr).write(f"evalfw: warning: {shown(message)}\n")
            return
        previous(message, category, filename, lineno, file, line)

    return show


#: commands that compute scores, and so say when the compiled kernels are missing
_COMPUTING = ("score", "run", "verify", "compare")


def _note_missing_kernels() -> None:
    """One line on stderr when kernels were not built at install time (no C compiler): pip
    shows a build's warnings only with ``-v``, so the first command that computes says it.
    ``EVALFW_NATIVE=0`` (the fallback chosen on purpose) keeps it quiet."""
    from evalfw import kernels

    missing = kernels.missing()
    if not missing or kernels.switched_off():
        return
    names = ", ".join(k.computes for k in missing)
    sys.stderr.write(
        f"evalfw: note: compiled kernels not built ({names}); computing with the Python and "
        "numpy fallbacks (same numbers, slower). Reinstall evalfw where a C compiler is "
        "available to build them, or set EVALFW_NATIVE=0 to compute without them quietly; "
        "'evalfw plugins' lists them\n")


def _plugin_switches(argv: Sequence[str]) -> argparse.Namespace:
    """The switches that decide which plugins load, read before the full parse (whose
    arguments depend on the plugins); everything else is left for that parse."""
    pre = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    pre.add_argument("--debug", action="store_true")
    pre.add_argument("--disable-plugin", action="append", default=[])
    pre.add_argument("--no-plugin-autoload", action="store_true")
    pre.add_argument("--plugins-dir", action="append", default=[])
    args, _ = pre.parse_known_args(argv)
    args.command = command_word(argv)
    return args


def _configure_plugins(sub: Any, args: argparse.Namespace) -> Any:
    from evalfw.cli._options import host_for

    host = host_for(args)
    sub.configure_plugins(sub, host)
    return host


def _plugin_exit() -> type[BaseException]:
    """What ``os._exit`` in plugin code raises, once the guard is loaded (else nothing can)."""
    guard = sys.modules.get("evalfw.plugin.guard")
    return guard.PluginExit if guard is not None else SystemExit


def _guarded(args: argparse.Namespace, action: Any) -> int:
    """Run ``action``; user errors become one ``evalfw: error:`` line and their exit status."""
    try:
        return int(action() or 0)
    except EvalfwError as exc:
        if args.debug:
            raise
        from evalfw.names import shown  # a name in a message never drives the terminal

        sys.stderr.write(f"evalfw: error: {shown(exc)}\n")
        return exc.exit_code
    except KeyboardInterrupt as exc:
        return interrupted(exc)
    except BrokenPipeError:
        return 0
    except MemoryError:
        if args.debug:
            raise
        # the failed allocation is freed by now: one line can be written
        sys.stderr.write(f"evalfw: error: out of memory while running `evalfw {args.command}`"
                         " (an address-space limit such as ulimit -v, or the machine's "
                         "memory); give it more memory, or smaller inputs (input files are "
                         "refused beyond EVALFW_MAX_INPUT_BYTES)\n")
        return 2
    except (SystemExit, GeneratorExit, _plugin_exit()) as exc:
        # evalfw's commands never exit this way: plugin code did (see evalfw.plugin.guard)
        if args.debug:
            raise
        from evalfw.names import shown
        from evalfw.plugin.guard import escaped

        err = escaped(exc, f"running `evalfw {args.command}`")
        sys.stderr.write(f"evalfw: error: {shown(err)}\n")
        return err.exit_code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


__all__ = ["build_parser", "command_word", "COMMANDS", "interrupted", "main", "Terminated"]
