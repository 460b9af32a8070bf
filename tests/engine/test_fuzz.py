"""Parsers are fuzzed: any input parses or raises a typed EngineError; nothing else escapes."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.events import Event, event_from_json, event_to_json
from engine.games import find_game
from engine.replay import Replay

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12,
)


@given(json_values)
def test_action_json_parses_or_raises_typed(obj):
    try:
        e = event_from_json(obj)
    except EngineError:
        return
    assert isinstance(e, Event)


@given(st.sampled_from(["PLAY", "DRAW", "SNATCH"]), st.integers(0, 5),
       st.lists(st.integers(0, 53), max_size=3), st.integers(-1, 3))
def test_action_json_round_trip(kind, seat, cards, value):
    e = Event(kind, seat=seat, cards=tuple(cards), value=value)
    assert event_from_json(json.loads(json.dumps(event_to_json(e)))) == e


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                   HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_positions_load_or_raise_typed(small_games, data):
    g = find_game("keng")
    rep = Replay(small_games[0])
    pos = g.to_position(rep.state_at(data.draw(st.integers(0, len(rep) - 1))))
    key = data.draw(st.sampled_from(sorted(pos)))
    pos[key] = data.draw(json_values)
    try:
        s = g.from_position(pos)
    except EngineError:
        return
    # a loaded position is usable: listing and checking actions raise only engine errors
    try:
        for a in g.legal_actions(s)[:5]:
            g.check(s, a)
    except EngineError:
        pass


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_events_are_judged_not_crashed(small_games, data):
    """Arbitrary events against real states: applied or rejected with a typed error."""
    g = find_game("keng")
    rep = Replay(small_games[1])
    s = rep.state_at(data.draw(st.integers(0, len(rep) - 2)))
    e = Event(
        data.draw(st.sampled_from(["PLAY", "ACCEPT", "DRAW", "PASS", "DUEL_PLAY", "SNATCH",
                                   "LAST_CARD", "COUNT", "START_CARD", "RESHUFFLE", "DEAL",
                                   "GAME_END", "BOGUS"])),
        seat=data.draw(st.integers(-2, 7)),
        cards=tuple(data.draw(st.lists(st.integers(0, 53), max_size=4))),
        target=data.draw(st.integers(-1, 6)),
        value=data.draw(st.integers(-1, 6)),
        tag=data.draw(st.sampled_from(["", "valid", "void", "false", "refused", "continued"])),
        game_id=s.game_id, seq=s.seq,
    )
    try:
        g.apply(s, e)
    except EngineError as exc:
        if hasattr(exc, "rule_id"):
            assert exc.rule_id.startswith("KENG-")
