"""ddz6 positions: every state round-trips through JSON; a position that breaks the pack or
the facts the rules tie together is refused naming the field; the terminal table."""

from __future__ import annotations

import copy
import json

import pytest

from engine.games.codec import PositionError
from engine.games.ddz6 import VARIANTS

from .test_game_support import playout


@pytest.fixture(scope="module")
def finals():
    return {v: playout(v, 2, "greedy") for v in VARIANTS}


def test_positions_round_trip_at_every_step(finals):
    for v, (events, _) in finals.items():
        g = VARIANTS[v]
        s = g.initial_state(events[0])
        for e in events[1:]:
            assert g.from_position(json.loads(json.dumps(g.to_position(s)))) == s
            g.step(s, e)
        assert g.from_position(g.to_position(s)) == s


def _refused(v, pos, field):
    with pytest.raises(PositionError) as exc:
        VARIANTS[v].from_position(pos)
    assert exc.value.field.startswith(field), exc.value     # field: a prefix or a tuple


def test_broken_positions_are_refused_naming_the_field(finals):
    v = "2v4"
    g = VARIANTS[v]
    events, final = finals[v]
    mid = g.initial_state(events[0])
    for e in events[1:len(events) // 2]:
        g.step(mid, e)
    pos = g.to_position(mid)
    p = copy.deepcopy(pos)
    p["hands"][0] = p["hands"][0] + [p["hands"][1][0]]
    _refused(v, p, ("hands", "played"))           # the pack's count is exceeded
    p = copy.deepcopy(pos)
    p["deck"] = p["deck"][1:]
    _refused(v, p, "deck")
    p = copy.deepcopy(pos)
    p["case"] = "B1"
    _refused(v, p, "case")
    p = copy.deepcopy(pos)
    p["round"]["passes"] = 5
    _refused(v, p, "round.passes")
    p = copy.deepcopy(pos)
    p["surprise"] = 1
    _refused(v, p, "surprise")
    p = copy.deepcopy(pos)
    p["game"] = "ddz6_3v3"
    with pytest.raises(PositionError):
        g.from_position(p)
    over = g.to_position(final)
    over["result"]["scores"][0] += 1
    _refused(v, over, "result")


def test_render_shows_the_table_as_a_seat_saw_it(finals):
    events, final = finals["3v3"]
    g = VARIANTS["3v3"]
    s = g.initial_state(events[0])
    for e in events[1:10]:
        g.step(s, e)
    text = g.render(s, 2)
    assert "seat 2" in text and "cards]" in text
    assert "result:" in g.render(final)
