"""够级 (gouji): rules GJ-1 … GJ-49 of rules/gouji.md."""

from engine.games.gouji.bots import POLICIES
from engine.games.gouji.game import *  # noqa: F403
from engine.games.gouji.game import __all__ as _game_all
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.position import (
    cards_visible,
    from_position,
    seen_event,
    to_position,
    view,
)
from engine.games.gouji.render import render
from engine.games.gouji.state import GoujiState, opposite
from engine.games.gouji.state import team_of as _team_index

Options = GoujiOptions
# The demo corpus (liujia demo): weight among the games, option sets, session length.
DEMO = {"weight": 1, "option_sets": [{}], "session_games": 8}
# The conformance suite's data. 够级 games are long and a lead lists hundreds of plays, each
# checked there: its sessions are covered at length in tests/games/gouji.
CONFORMANCE = {
    "option_sets": [
        {},
        {"kaidian_effect": "record", "men_scope": "threes_only", "judged_counts_as_out": False},
        {"kaidian_effect": "record"},
    ],
    "games": 10,
    "required_kinds": ("CUT", "DIRECTION", "DEAL", "PLAY", "PASS", "RANG", "ROUND_END", "OUT",
                       "PHASE_OPEN", "GAME_END", "XUANDIAN", "HEDIAN"),
}


def team_of(seat: int) -> str:
    """'even' or 'odd' (GJ-4)."""
    return ("even", "odd")[_team_index(seat)]


__all__ = [*_game_all, "GoujiOptions", "GoujiState", "Options", "opposite", "team_of",
           "cards_visible", "seen_event", "from_position", "to_position", "view", "render", "DEMO", "CONFORMANCE",
           "POLICIES"]
