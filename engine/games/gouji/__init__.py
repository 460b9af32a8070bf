"""够级 (gouji): rules GJ-1 … GJ-49 of rules/gouji.md."""

from engine.games.base import DecisionHooks, FactHooks, Game
from engine.games.frame import WIN_SCALE
from engine.games.gouji import decisions as _decisions
from engine.games.gouji import facts as _facts
from engine.games.gouji import game as _g
from engine.games.gouji import tendencies as _tendencies
from engine.games.gouji.bots import POLICIES, STYLE_CATEGORIES
from engine.games.gouji.describe import describe
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
from engine.games.gouji.sample import sample_world
from engine.games.gouji.state import GoujiState, opposite
from engine.games.gouji.state import team_of as _team_index
from engine.games.gouji.table import table

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
    "hostile_start_key": "game_no",     # a GAME_START key the game itself reads
    "decision_games": 3,
    # decision categories the bots rarely choose (checked on positions in tests/games/gouji)
    "rare_decisions": ("kaidian", "agree", "refuse", "xuandian"),
    # facts (facts.py): games per option set and policy, and the facts self-play rarely makes
    # (a burn that empties the burner's hand, 解烧), made to happen in tests/games/gouji
    "fact_games": 12,
    "rare_facts": ("burn_succeeded", "relieved_burn"),
    "required_kinds": ("CUT", "DIRECTION", "DEAL", "PLAY", "PASS", "RANG", "ROUND_END", "OUT",
                       "PHASE_OPEN", "GAME_END", "XUANDIAN", "HEDIAN"),
}


def team_of(seat: int) -> str:
    """'even' or 'odd' (GJ-4)."""
    return ("even", "odd")[_team_index(seat)]


GAME = Game(
    GAME_ID=_g.GAME_ID, TITLE=_g.TITLE, RULE_PREFIX=_g.RULE_PREFIX, RULES_FILE=("engine", "rules/gouji.md"),
    RULES_VERSION=_g.RULES_VERSION, SIDES=_g.SIDES, Options=GoujiOptions, seat_count=_g.seat_count,
    sides=_g.sides, outcomes=_g.outcomes,
    start_event=_g.start_event, initial_state=_g.initial_state, step=_g.step, apply=_g.apply, check=_g.check,
    legal_actions=_g.legal_actions, auto_event=_g.auto_event, next_auto=_g.next_auto, to_move=_g.to_move,
    is_over=_g.is_over, session_start=_g.session_start, check_session=_g.check_session, result=_g.result,
    face_counts=_g.face_counts,
    view=view, cards_visible=cards_visible, seen_event=seen_event, to_position=to_position,
    from_position=from_position, table=table, describe=describe, decisions=DecisionHooks.of(_decisions),
    tendencies=_tendencies.TENDENCIES, key_tendencies=_tendencies.KEY_TENDENCIES,
    CHANCE_AUTO=frozenset({"CUT", "DEAL"}),
    POLICIES=POLICIES, DEMO=DEMO, CONFORMANCE=CONFORMANCE,
    style_categories=STYLE_CATEGORIES, standing_actions=_g.out_of_turn_actions,
    annotate=_g.annotate, facts=FactHooks.of(_facts),
    # review (engine/review.py): a team win or loss (GJ-32), so the win probability
    # (WIN_SCALE); rollouts by the greedy policy
    sample_world=sample_world, review_scale=WIN_SCALE, review_policy="greedy",
)

__all__ = ["GAME", *_game_all, "GoujiOptions", "GoujiState", "Options", "opposite", "team_of",
           "cards_visible", "seen_event", "from_position", "to_position", "view", "table", "describe", "DEMO", "CONFORMANCE",
           "POLICIES"]
