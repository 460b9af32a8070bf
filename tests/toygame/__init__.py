"""小墩 (toy_tricks): a test-only trick-taking game for 2-4 players, rules TRICK-1 … TRICK-15 of
tests/toygame/rules.md. The tests register it (tests/conftest.py) to show that a game is its
package, its registry entry, its rules text and its test data (tests/games/toygame/)."""

from engine.games.base import DecisionHooks, FactHooks, Game
from tests.toygame import decisions as _decisions
from tests.toygame import facts as _facts
from tests.toygame import game as _g
from tests.toygame import tendencies as _tendencies
from tests.toygame.bots import POLICIES
from tests.toygame.options import ToyOptions
from tests.toygame.position import cards_visible, from_position, seen_event, to_position, view
from tests.toygame.sample import sample_world
from tests.toygame.table import describe, table

DEMO = {"weight": 1, "option_sets": [{"trick_players": 2}, {}], "session_games": 4}
CONFORMANCE = {
    "option_sets": [
        {},
        {"trick_players": 2, "trick_hand_size": 13},
        {"trick_players": 3, "trick_hand_size": 7, "trick_last_bonus": True},
        {"trick_players": 4, "trick_hand_size": 1},
    ],
    "games": 20,
    "decision_games": 10,
    "hostile_start_key": "leader",     # a GAME_START key the game itself reads
    "required_kinds": ("GAME_START", "DEAL", "PLAY", "TRICK_END", "GAME_END"),
}

GAME = Game(
    GAME_ID=_g.GAME_ID, TITLE=_g.TITLE, RULE_PREFIX=_g.RULE_PREFIX,
    RULES_FILE=("tests.toygame", "rules.md"), RULES_VERSION=_g.RULES_VERSION, SIDES=_g.SIDES,
    Options=ToyOptions, seat_count=_g.seat_count, sides=_g.sides, outcomes=_g.outcomes,
    start_event=_g.start_event, initial_state=_g.initial_state, step=_g.step, apply=_g.apply,
    check=_g.check, legal_actions=_g.legal_actions, auto_event=_g.auto_event,
    next_auto=_g.next_auto, to_move=_g.to_move, is_over=_g.is_over,
    session_start=_g.session_start, check_session=_g.check_session, result=_g.result,
    face_counts=_g.face_counts,
    view=view, cards_visible=cards_visible, seen_event=seen_event, to_position=to_position,
    from_position=from_position, table=table, describe=describe,
    decisions=DecisionHooks.of(_decisions),
    tendencies=_tendencies.TENDENCIES, key_tendencies=_tendencies.KEY_TENDENCIES,
    POLICIES=POLICIES, DEMO=DEMO, CONFORMANCE=CONFORMANCE, sample_world=sample_world,
    facts=FactHooks.of(_facts),
)

__all__ = ["CONFORMANCE", "DEMO", "GAME", "POLICIES", "ToyOptions"]
