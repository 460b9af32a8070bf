"""六人坑 (keng): rules KENG-1 … KENG-51 of engine/rules/keng.md (the shipped copy of the rules file)."""

from engine.games.base import DecisionHooks, FactHooks, Game
from engine.games.frame import WIN_SCALE
from engine.games.keng import decisions as _decisions
from engine.games.keng import facts as _facts
from engine.games.keng import game as _g
from engine.games.keng import tendencies as _tendencies
from engine.games.keng.actions import standing_actions
from engine.games.keng.bots import POLICIES, STYLE_CATEGORIES
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
from engine.games.keng.sample import sample_world
from engine.games.keng.table import describe, table

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
    "hostile_start_key": "opener",     # a GAME_START key the game itself reads
    "decision_games": 12,     # per option set in tests/engine/test_decisions.py
    "required_kinds": ("PLAY", "ACCEPT", "DRAW", "PASS", "DUEL_START", "DUEL_PLAY", "DUEL_END",
                       "SNATCH", "LAST_CARD", "REPORT_PENALTY", "COUNT", "RESHUFFLE"),
    # facts seeded self-play seldom makes happen, each made to happen in
    # tests/games/keng/test_facts.py: 抢出 needs cycle 3 (KENG-37, KENG-45)
    "rare_facts": ("snatched_out",),
}


GAME = Game(
    GAME_ID=_g.GAME_ID, TITLE=_g.TITLE, RULE_PREFIX=_g.RULE_PREFIX, RULES_FILE=("engine", "rules/keng.md"),
    RULES_VERSION=_g.RULES_VERSION, SIDES=_g.SIDES, Options=KengOptions, seat_count=_g.seat_count,
    sides=_g.sides, outcomes=_g.outcomes,
    start_event=_g.start_event, initial_state=_g.initial_state, step=_g.step, apply=_g.apply, check=_g.check,
    legal_actions=_g.legal_actions, auto_event=_g.auto_event, next_auto=_g.next_auto, to_move=_g.to_move,
    is_over=_g.is_over, session_start=_g.session_start, check_session=_g.check_session, result=_g.result,
    face_counts=_g.face_counts,
    view=view, cards_visible=cards_visible, seen_event=seen_event, to_position=to_position,
    from_position=from_position, table=table, describe=describe, decisions=DecisionHooks.of(_decisions),
    tendencies=_tendencies.TENDENCIES, key_tendencies=_tendencies.KEY_TENDENCIES,
    CHANCE_AUTO=frozenset({"RESHUFFLE"}),
    POLICIES=POLICIES, DEMO=DEMO, CONFORMANCE=CONFORMANCE, facts=FactHooks.of(_facts),
    style_categories=STYLE_CATEGORIES, standing_actions=standing_actions,
    # review (engine/review.py): a team win or loss, so the win probability (WIN_SCALE);
    # rollouts by the greedy policy
    sample_world=sample_world, review_scale=WIN_SCALE, review_policy="greedy",
)

__all__ = ["GAME", *_game_all, "KengOptions", "Options", "from_position", "to_position", "view",
           "cards_visible", "seen_event", "table", "describe", "DEMO", "CONFORMANCE", "POLICIES"]
