"""摸到爽 (modaoshuang): rules MDS-1 … MDS-42 of rules/modaoshuang.md, for 3 to 5 players."""

from engine.games.modaoshuang.bots import POLICIES, GreedyPolicy, RandomPolicy
from engine.games.modaoshuang.game import *  # noqa: F403
from engine.games.modaoshuang.game import __all__ as _game_all
from engine.games.modaoshuang.options import ModaoshuangOptions
from engine.games.modaoshuang.position import (
    cards_visible,
    from_position,
    seen_event,
    to_position,
    view,
)
from engine.games.modaoshuang.render import render
from engine.games.modaoshuang.state import MdsState

Options = ModaoshuangOptions

DEMO = {"weight": 2, "option_sets": [{"mds_players": 3}, {"mds_players": 4},
                                     {"mds_players": 5}], "session_games": 8}

CONFORMANCE = {
    "option_sets": [
        {"mds_players": 3},
        {"mds_players": 4},
        {"mds_players": 5},
        {"mds_players": 3, "mds_hand_size": 3, "mds_zhamo": False, "mds_settlement": "chips",
         "mds_joker_violation": "illegal", "mds_one_card_report": True,
         "mds_dianpao": "preceding"},
        {"mds_players": 4, "mds_hand_size": 4, "mds_settlement": "chips",
         "mds_one_card_report": True, "mds_dianpao": "preceding"},
        {"mds_players": 5, "mds_hand_size": 7, "mds_zhamo": False,
         "mds_joker_violation": "illegal"},
        {"mds_players": 5, "mds_hand_size": 8, "mds_one_card_report": True},
    ],
    "games": 12,
    "required_kinds": ("GAME_START", "DEAL", "SUIT_DRAW", "PLAY", "DRAW", "NO_PLAY",
                       "PHASE_SHOUDAOSHUANG", "ROUND_END", "REPORT", "MISSED_REPORT", "GIFT",
                       "GAME_END"),
}

__all__ = [*_game_all, "CONFORMANCE", "DEMO", "POLICIES", "GreedyPolicy", "MdsState",
           "ModaoshuangOptions", "Options", "RandomPolicy", "cards_visible", "from_position",
           "render", "seen_event", "to_position", "view"]
