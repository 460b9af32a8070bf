"""够级 (gouji): rules GJ-1 … GJ-49 of rules/gouji.md."""

from engine.games.gouji.game import *  # noqa: F403
from engine.games.gouji.game import __all__ as _game_all
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.position import cards_visible, from_position, to_position, view
from engine.games.gouji.render import render
from engine.games.gouji.state import GoujiState, opposite
from engine.games.gouji.state import team_of as _team_index

Options = GoujiOptions


def team_of(seat: int) -> str:
    """'even' or 'odd' (GJ-4)."""
    return ("even", "odd")[_team_index(seat)]


__all__ = [*_game_all, "GoujiOptions", "GoujiState", "Options", "opposite", "team_of",
           "cards_visible", "from_position", "to_position", "view", "render"]
