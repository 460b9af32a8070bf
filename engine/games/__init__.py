"""Registry of the games the engine knows: ``find_game("keng")``."""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.errors import EngineError

GAMES = {"keng": "engine.games.keng"}


def find_game(game: str) -> ModuleType:
    """The game module for a game id (see rules/CONVENTIONS.md), e.g. ``find_game("keng")``."""
    try:
        return importlib.import_module(GAMES[game])
    except KeyError:
        raise EngineError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}") from None
