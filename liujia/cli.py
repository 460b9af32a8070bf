"""The ``liujia`` command: one entry point, one module per sub-command in liujia/commands/.

Exit codes: 0 fine, 1 something illegal or corrupt was found, 2 usage or I/O error, 130
interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

import liujia.commands

OK, FOUND, USAGE = 0, 1, 2
INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """A usage error: one line on stderr (what is wrong, where the help is), exit 2."""
        print(f"{self.prog}: error: {message} (see `{self.prog} --help`)", file=sys.stderr)
        raise SystemExit(USAGE)


def _version() -> str:
    """The installed liujia's version ('unknown' when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("liujia")
    except PackageNotFoundError:
        return "unknown"


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked (it costs ~40 ms)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default,
                         help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        """Print the version and exit."""
        print(f"liujia {_version()}")
        parser.exit()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every sub-command found in liujia.commands (with ``only``, a
    command's name: that command alone, if its module is found, so that running one command
    imports only what it needs — `liujia record-server` not the warehouse's pandas)."""
    text = ("Record, replay, validate and analyse hand histories of Chinese card games played "
             "with several decks")
    from engine.games import BUILT_IN, GAMES, about, find_game
    if only is None:            # the whole help names every game (a built-in one unloaded)
        text += ": " + ", ".join(f"{about(g)[0]} ({g})" for g in GAMES)
    else:                       # a plug-in game that cannot be loaded is said here, at once
        for g in GAMES:
            if g not in BUILT_IN:
                find_game(g)
    parser = _Parser(prog="liujia", description=f"{text}.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    infos = sorted(pkgutil.iter_modules(liujia.commands.__path__), key=lambda m: m.name)
    if only is not None:
        infos = [i for i in infos if i.name == only.replace("-", "_")] or infos
    for info in infos:
        mod = importlib.import_module(f"liujia.commands.{info.name}")
        if hasattr(mod, "add_parser"):
            p = mod.add_parser(sub)
            p.set_defaults(run=mod.run)
    return parser


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    """The names of the sub-commands a parser knows."""
    return {name for a in parser._actions if isinstance(a, argparse._SubParsersAction)
            for name in a.choices}


def _tolerant_output() -> None:
    """Text the terminal's encoding cannot show is written as escapes, never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            pass


def _drop_stdout() -> None:
    """After stdout failed (a closed pipe, a full disk): send what is left to /dev/null, so
    that the interpreter's last flush does not print an error of its own."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def _error_line(message: str) -> int:
    from liujia.commands._common import fail
    return fail(message, USAGE)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code. Whatever goes wrong ends in one line on
    stderr, never a traceback: an I/O error (exit 2, ``liujia: PATH: reason``), running out
    of memory or of stack (exit 2), Ctrl-C (exit 130, quietly)."""
    try:
        _tolerant_output()
        args_in = list(sys.argv[1:] if argv is None else argv)
        if args_in == ["--version"]:        # answered before any command or game is loaded
            print(f"liujia {_version()}")
            raise SystemExit(OK)            # as argparse's version action ends
        first = args_in[0] if args_in and not args_in[0].startswith("-") else None
        try:
            parser = build_parser(first)
            if first is not None and first not in _commands(parser):
                parser = build_parser()     # not a module's name: every command
        except ValueError as exc:       # a bad plug-in game (engine.games, LIUJIA_GAMES)
            return _error_line(str(exc))
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return USAGE
        code = int(args.run(args) or 0)
        sys.stdout.flush()              # a full disk or closed pipe is an error here, not later
        return code
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        _drop_stdout()
        return OK
    except OSError as exc:
        from liujia.commands._common import os_error_text
        _drop_stdout()
        return _error_line(os_error_text(exc))
    except RecursionError:
        return _error_line("the input is nested too deeply to be read (recursion limit)")
    except MemoryError:
        return _error_line("out of memory")


if __name__ == "__main__":
    sys.exit(main())
