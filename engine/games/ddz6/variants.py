"""The three 六人斗地主 variants as game objects (``ddz6_3v3``, ``ddz6_2v4``,
``ddz6_zhengfan``): one declared ``Game`` per variant, all
sharing the package's code; the registry entry ``"ddz6_2v4": "engine.games.ddz6:2v4"`` finds
``VARIANTS["2v4"]``."""

from __future__ import annotations

from functools import partial
from typing import TypedDict

from engine.games.base import DecisionHooks, Game
from engine.games.ddz6 import decisions, facts, game, info, position, tendencies
from engine.games.ddz6.bots import POLICIES, STYLE_CATEGORIES
from engine.games.ddz6.cards import VARIANTS as VARIANT_NAMES
from engine.games.ddz6.options import OPTIONS
from engine.games.ddz6.sample import sample_world
from engine.games.ddz6.table import describe, table
from engine.games.frame import FORMED_SIDES, ReviewScale

COMMON_KINDS = ("GAME_START", "DEAL", "PLAY", "PASS", "ROUND_END", "HAND_END", "GAME_END")


class _VariantConformance(TypedDict):
    """What differs between the variants in their conformance data."""

    option_sets: list[dict[str, str | int]]
    kinds: tuple[str, ...]
    rare: tuple[str, ...]
    rare_facts: tuple[str, ...]


CONFORMANCE: dict[str, _VariantConformance] = {
    "3v3": {"option_sets": [{}, {"wings_3v3": "no_bomb", "choice_seconds": 10}],
            "kinds": ("CASE", "BID", "BID_END", "DOUBLE", "REVEAL"),
            "rare": ("show", "no_show", "zheng", "fan"),
            "rare_facts": ("auto_win",)},
    "2v4": {"option_sets": [{}, {"no_bomb_autowin": "farmers", "airplane_order": "chain",
                                 "base_score": 2}],
            "kinds": ("BID", "BID_END", "LANDLORDS", "KITTY", "SHOW_HAND", "SHOW_END"),
            "rare": ("double", "no_double", "zheng", "fan"),
            "rare_facts": ("auto_win", "qixingju")},
    "zhengfan": {"option_sets": [{}, {"no_bomb_autowin": "off", "qixingju_lock": "off"}],
                 "kinds": ("LANDLORDS", "KITTY", "SIDE_CHOICE", "SIDES_END", "SHOW_HAND",
                           "SHOW_END"),
                 "rare": ("bid", "no_bid", "double", "no_double"),
                 "rare_facts": ("auto_win", "qixingju")},
}

# The demo corpus and the conformance suite also play with bots whose decisions sometimes time
# out, so that they hold the engine's marked defaults (DDZ-75; bots.TimeoutPolicy).
SIM_POLICY = "random_timeouts"
# Games per option set and policy in the fact conformance test (facts need more hands than
# decisions: joker bombs, reveals before round 3 and solo hands are not in every few hands).
FACT_GAMES = 24

# Review (engine/review.py): settled in points (S × N, DDZ-81 … DDZ-90), so the value is the
# expected score. A seat's score under greedy self-play has a standard deviation of ~10 points
# in 三打三 and 二打四 and ~7.5 in 正反 (1,000 games each, default options, docs/review.md);
# the steps are 10 / 20 / 30 % of it, as lichess's 5 / 10 / 15 points are of a coin's 50.
REVIEW_SCALES = {
    "3v3": ReviewScale("score", (1.0, 2.0, 3.0), "score in points",
                       "10, 20 and 30 % of the ~10-point spread of a seat's score"),
    "2v4": ReviewScale("score", (1.0, 2.0, 3.0), "score in points",
                       "10, 20 and 30 % of the ~10-point spread of a seat's score "
                       "(base_score 1)"),
    "zhengfan": ReviewScale("score", (0.75, 1.5, 2.25), "score in points",
                            "10, 20 and 30 % of the ~7.5-point spread of a seat's score "
                            "(base_score 1)"),
}

def _variant(variant: str) -> Game:
    """The declared game of one variant, built from the package's shared parts."""
    data = CONFORMANCE[variant]
    return Game(
        GAME_ID=game.game_id_of(variant), TITLE=game.TITLES[variant], RULE_PREFIX="DDZ",
        RULES_FILE=("engine", "rules/ddz6.md"), RULES_VERSION=game.RULES_VERSION,
        SIDES=FORMED_SIDES, Options=OPTIONS[variant], seat_count=game.seat_count,
        sides=info.sides, outcomes=game.outcomes,
        start_event=partial(game.start_event, variant),
        initial_state=partial(game.initial_state, variant), step=game.step, apply=game.apply,
        check=game.check, legal_actions=game.legal_actions, auto_event=game.auto_event,
        next_auto=game.next_auto, to_move=game.to_move, is_over=game.is_over,
        session_start=game.session_start, check_session=game.check_session,
        result=game.result, face_counts=game.face_counts,
        view=info.view, cards_visible=info.cards_visible,
        seen_event=partial(info.seen_event, variant=variant),
        to_position=position.to_position, from_position=position.from_position,
        table=table, describe=describe, decisions=DecisionHooks.of(decisions),
        facts=facts.hooks(variant),
        tendencies=tendencies.TENDENCIES[variant],
        key_tendencies=tendencies.KEY_TENDENCIES[variant],
        CHANCE_AUTO=frozenset({"DEAL"}),
        POLICIES=POLICIES, style_categories=STYLE_CATEGORIES,
        DEMO={"weight": 1, "option_sets": [{}], "session_games": 1, "policy": SIM_POLICY},
        CONFORMANCE={"option_sets": data["option_sets"], "games": 8,
                     "required_kinds": COMMON_KINDS + data["kinds"], "policies": (SIM_POLICY,),
                     "decision_games": 4, "rare_decisions": data["rare"],
                     "fact_games": FACT_GAMES, "rare_facts": data["rare_facts"],
                     "hostile_start_key": "options"},    # a GAME_START key the game reads
        sample_world=sample_world, review_scale=REVIEW_SCALES[variant], review_policy="greedy",
    )


VARIANTS: dict[str, Game] = {name: _variant(name) for name in VARIANT_NAMES}
