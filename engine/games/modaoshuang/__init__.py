"""摸到爽 (modaoshuang): rules MDS-1 … MDS-42 of rules/modaoshuang.md, for 3 to 5 players."""

from engine.games.base import DecisionHooks, FactHooks, Game
from engine.games.frame import ReviewScale
from engine.games.modaoshuang import decisions as _decisions
from engine.games.modaoshuang import facts as _facts
from engine.games.modaoshuang import game as _g
from engine.games.modaoshuang import tendencies as _tendencies
from engine.games.modaoshuang.bots import POLICIES, STYLE_CATEGORIES, GreedyPolicy, RandomPolicy
from engine.games.modaoshuang.game import *  # noqa: F403
from engine.games.modaoshuang.game import __all__ as _game_all
from engine.games.modaoshuang.options import ModaoshuangOptions
from engine.games.modaoshuang.plays import report_actions
from engine.games.modaoshuang.position import (
    cards_visible,
    from_position,
    seen_event,
    to_position,
    view,
)
from engine.games.modaoshuang.sample import sample_world
from engine.games.modaoshuang.state import MdsState
from engine.games.modaoshuang.table import describe, table

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
    "hostile_start_key": "first_leader",     # a GAME_START key the game itself reads
    "decision_games": 10,
    "rare_decisions": ("joker_violation",),
    # a violation that empties the hand and whose penalty leaves no card (MDS-20, MDS-33):
    # not once in 4 500 random games; tests/games/modaoshuang/test_facts.py makes it happen
    "rare_facts": ("out_on_joker",),
    "required_kinds": ("GAME_START", "DEAL", "SUIT_DRAW", "PLAY", "DRAW", "NO_PLAY",
                       "PHASE_SHOUDAOSHUANG", "ROUND_END", "REPORT", "MISSED_REPORT", "GIFT",
                       "GAME_END"),
}


# Settled in points (MDS-37 to MDS-39): a seat's score under greedy play has a standard
# deviation of ~70 points (200 games each with 3, 4 and 5 seats); the steps are 10 / 20 / 30 %
# of it, as lichess's 5 / 10 / 15 points of win probability are of a coin's 50.
REVIEW_SCALE = ReviewScale("score", (7.0, 14.0, 21.0), "score in points",
                           "10, 20 and 30 % of the ~70-point spread of a seat's score, as "
                           "lichess's steps are of a coin toss's")

GAME = Game(
    GAME_ID=_g.GAME_ID, TITLE=_g.TITLE, RULE_PREFIX=_g.RULE_PREFIX, RULES_FILE=("engine", "rules/modaoshuang.md"),
    RULES_VERSION=_g.RULES_VERSION, SIDES=_g.SIDES, Options=ModaoshuangOptions, seat_count=_g.seat_count,
    sides=_g.sides, outcomes=_g.outcomes,
    start_event=_g.start_event, initial_state=_g.initial_state, step=_g.step, apply=_g.apply, check=_g.check,
    legal_actions=_g.legal_actions, auto_event=_g.auto_event, next_auto=_g.next_auto, to_move=_g.to_move,
    is_over=_g.is_over, session_start=_g.session_start, check_session=_g.check_session, result=_g.result,
    face_counts=_g.face_counts,
    view=view, cards_visible=cards_visible, seen_event=seen_event, to_position=to_position,
    from_position=from_position, table=table, describe=describe, decisions=DecisionHooks.of(_decisions),
    tendencies=_tendencies.TENDENCIES, key_tendencies=_tendencies.KEY_TENDENCIES,
    CHANCE_AUTO=frozenset({"SUIT_DRAW"}),
    POLICIES=POLICIES, DEMO=DEMO, CONFORMANCE=CONFORMANCE, sample_world=sample_world,
    style_categories=STYLE_CATEGORIES, standing_actions=report_actions,
    review_scale=REVIEW_SCALE, facts=FactHooks.of(_facts),
)

__all__ = ["GAME", *_game_all, "CONFORMANCE", "DEMO", "POLICIES", "GreedyPolicy", "MdsState",
           "ModaoshuangOptions", "Options", "RandomPolicy", "cards_visible", "describe",
           "from_position", "seen_event", "table", "to_position", "view"]
