"""Helpers shared by the sub-commands: finding a game in logs, printing errors, progress."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.errors import LogIntegrityError
from engine.events import Event
from engine.log import log_files, read_log

OK, FOUND, USAGE = 0, 1, 2


def fail(message: str, code: int = USAGE) -> int:
    """Print an error line to stderr and return the exit code."""
    print(f"liujia: {message}", file=sys.stderr)
    return code


def existing_paths(paths: list[str]) -> list[Path] | str:
    """The log files under the given paths, or an error message naming the missing path."""
    for p in paths:
        if not Path(p).exists():
            return f"{p}: no such file or folder"
    files = log_files(paths)
    if not files:
        return f"no *.arrows log files under {', '.join(paths)}"
    return files


def load_game(paths: list[str], game_id: str) -> tuple[list[Event], str | None] | str:
    """The verified events of one game found in the logs and, for a damaged game, what is
    wrong (its events are then the intact prefix); or an error message."""
    found = existing_paths(paths)
    if isinstance(found, str):
        return found
    for f in found:
        try:
            log = read_log(f)
        except LogIntegrityError as exc:
            return str(exc)
        for g in log.games:
            if g.game_id == game_id:
                if g.error is not None:
                    if not g.events:
                        return f"game {game_id} in {f} is damaged: {g.error}"
                    return g.events, f"{f} is damaged after seq {len(g.events) - 1}: {g.error}"
                return g.events, None
    return f"game {game_id!r} is not in {', '.join(map(str, paths))}"
