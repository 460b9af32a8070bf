"""Replay: random access to any step equals the sequential fold; positions round-trip."""

from __future__ import annotations

import json
import random

from engine.games import find_game
from engine.replay import Replay, validate_events


def test_state_at_every_step_equals_the_fold(small_games):
    g = find_game("keng")
    for events in small_games:
        rep = Replay(events)
        seq_states = list(rep.states())
        assert len(seq_states) == len(events)
        for i in random.Random(1).sample(range(len(events)), 40) + [0, len(events) - 1]:
            assert rep.state_at(i) == seq_states[i]
            assert rep.state_at(i).seq == i + 1
        assert seq_states[-1] == rep.final
        assert g.is_over(rep.final)


def test_state_at_gives_fresh_objects(small_games):
    rep = Replay(small_games[0])
    a = rep.state_at(30)
    find_game("keng").step(a, rep.events[31])
    assert rep.state_at(30) != a


def test_positions_round_trip_and_continue(small_games):
    g = find_game("keng")
    events = small_games[1]
    rep = Replay(events)
    for i in range(0, len(events) - 1, 7):
        s = rep.state_at(i)
        loaded = g.from_position(json.loads(json.dumps(g.to_position(s))))
        assert loaded == s
        # play on from the loaded position: identical to the log
        for e in events[i + 1:]:
            loaded = g.apply(loaded, e)
        assert loaded == rep.final


def test_truncated_game_is_incomplete(small_games):
    v = validate_events(small_games[0][:-1])
    assert v.status == "incomplete" and "GAME_END" in str(v.error)


def test_illegal_event_is_located(small_games):
    events = list(small_games[0])
    i = next(k for k, e in enumerate(events) if e.kind == "PLAY" and k > 12)
    events[i] = events[i]._replace(seat=(events[i].seat + 2) % 6)
    v = validate_events(events)
    assert v.status == "illegal"
    assert v.error.seq == i and v.error.rule_id.startswith("KENG-")
    assert v.to_json()["rule_id"] == v.error.rule_id
