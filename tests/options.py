"""Options a test can simulate any registered game with, read from the game's own data: its
defaults when it has them, else one of its conformance option sets (a game may have a
parameter without default, e.g. the number of players). No test names a game to choose them."""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.games import find_game


def option_dict(game: str, seats: int | None = None) -> dict[str, Any]:
    """{} when the game's defaults will do, else the first conformance option set (with
    ``seats`` seats when given) as keyword arguments."""
    g = find_game(game)
    try:
        g.Options()
        return {}
    except (EngineError, TypeError):
        pass
    for opts in g.CONFORMANCE["option_sets"]:
        if seats is None or g.seat_count(g.Options(**opts)) == seats:
            return dict(opts)
    raise AssertionError(f"{game}: no conformance option set with {seats} seats")


def options_for(game: str, seats: int | None = None) -> Any:
    """The game's Options to simulate with (None: its defaults), as ``option_dict``."""
    opts = option_dict(game, seats)
    return find_game(game).Options(**opts) if opts else None


def option_args(game: str, seats: int | None = None) -> list[str]:
    """The same options as ``liujia simulate`` arguments (``--option k=v`` …)."""
    return [a for k, v in option_dict(game, seats).items() for a in ("--option", f"{k}={v}")]
