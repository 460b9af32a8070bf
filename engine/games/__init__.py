"""Registry of the games the engine knows: ``find_game("keng")``.

Every layer outside ``engine/games`` (self-play, replay, ingest, warehouse, dashboards, the
``liujia`` command) reaches a game only through the module ``find_game`` returns, so adding a
game is adding its package and one line to ``GAMES``. The names that module must define are in
``INTERFACE`` (docs/engine.md describes each); ``missing_names`` lists the ones a module lacks.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.errors import EngineError

GAMES = {"keng": "engine.games.keng", "gouji": "engine.games.gouji"}

# What every game module provides (the conformance suite checks each registered game).
INTERFACE = (
    # identity
    "GAME_ID", "TITLE", "RULE_PREFIX", "Options",
    # events and rules
    "start_event", "initial_state", "step", "apply", "check", "legal_actions", "auto_event",
    "next_auto", "due_seat", "is_over",
    # sessions
    "session_start", "check_session",
    # results and teams
    "result", "scores", "winning_team", "team_of",
    # positions and views
    "view", "cards_visible", "to_position", "from_position", "render",
)


def find_game(game: str) -> ModuleType:
    """The game module for a game id (see rules/CONVENTIONS.md), e.g. ``find_game("keng")``."""
    try:
        return importlib.import_module(GAMES[game])
    except KeyError:
        raise EngineError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}") from None


def missing_names(module: ModuleType) -> list[str]:
    """The names of ``INTERFACE`` a game module does not define (empty when it is complete)."""
    return [name for name in INTERFACE if not hasattr(module, name)]
