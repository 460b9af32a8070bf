"""六人坑 (keng): rules KENG-1 … KENG-51 of docs/rules/keng.md."""

from engine.games.keng.bots import POLICIES
from engine.games.keng.game import *  # noqa: F403
from engine.games.keng.game import __all__ as _game_all
from engine.games.keng.options import KengOptions
from engine.games.keng.position import (
    cards_visible,
    from_position,
    seen_event,
    to_position,
    view,
)
from engine.games.keng.render import render

Options = KengOptions
# The demo corpus (liujia demo): weight among the games, option sets, session length.
DEMO = {"weight": 10, "option_sets": [{}], "session_games": 8}
# The conformance suite's data: option sets tried, random-bot games per set (greedy plays
# half as many), event kinds random self-play must produce.
CONFORMANCE = {
    "option_sets": [
        {},
        {"keng_hand_size": 8, "keng_hand_limit": 18, "keng_tens": False,
         "keng_black_jokers": 6, "keng_red_jokers": 6, "keng_rj_stack_value": 4,
         "keng_k_on_rj": True, "keng_pair_action": "once", "keng_draw_when_able": True},
        {"keng_hand_size": 6, "keng_hand_limit": 32, "keng_black_jokers": 4,
         "keng_red_jokers": 5},
    ],
    "games": 50,
    "required_kinds": ("PLAY", "ACCEPT", "DRAW", "PASS", "DUEL_START", "DUEL_PLAY", "DUEL_END",
                       "SNATCH", "LAST_CARD", "REPORT_PENALTY", "COUNT", "RESHUFFLE"),
}
__all__ = [*_game_all, "KengOptions", "Options", "from_position", "to_position", "view",
           "cards_visible", "seen_event", "render", "DEMO", "CONFORMANCE", "POLICIES"]
