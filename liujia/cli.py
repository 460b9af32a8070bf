"""The ``liujia`` command: one entry point, one module per sub-command in liujia/commands/.

Exit codes: 0 fine, 1 something illegal or corrupt was found, 2 usage or I/O error.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import liujia.commands

OK, FOUND, USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command found in liujia.commands."""
    from importlib.metadata import PackageNotFoundError, version

    from engine.games import GAMES, find_game
    try:
        ver = version("liujia")
    except PackageNotFoundError:
        ver = "unknown"
    games = ", ".join(f"{find_game(g).TITLE} ({g})" for g in GAMES)
    parser = _Parser(prog="liujia", description="Record, replay, validate and analyse hand "
                     f"histories of Chinese card games played with several decks: {games}.")
    parser.add_argument("--version", action="version", version=f"liujia {ver}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for info in sorted(pkgutil.iter_modules(liujia.commands.__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"liujia.commands.{info.name}")
        if hasattr(mod, "add_parser"):
            p = mod.add_parser(sub)
            p.set_defaults(run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return USAGE
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return USAGE
    except BrokenPipeError:
        return OK


if __name__ == "__main__":
    sys.exit(main())
