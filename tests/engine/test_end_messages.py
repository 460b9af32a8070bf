"""A GAME_END whose result differs from the engine's names what differs, not both payloads
(issue 13), in every game."""

from __future__ import annotations

import json

import pytest

from engine.games import GAMES
from engine.replay import validate_events
from engine.sim import simulate
from tests.options import options_for


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_changed_result_is_named_field_by_field(game):
    opts = options_for(game, seats=4)
    events = next(iter(simulate(game, 1, seed=2, options=opts))).events
    end = events[-1]
    p = json.loads(end.payload)
    key = next(k for k in sorted(p) if isinstance(p[k], list) and p[k] and all(
        isinstance(x, int) for x in p[k]) or type(p[k]) is int)
    p[key] = [x + 1 for x in p[key]] if isinstance(p[key], list) else p[key] + 1
    text = json.dumps(p, sort_keys=True, separators=(",", ":"))
    v = validate_events([*events[:-1], end._replace(payload=text)])
    assert v.status == "illegal"
    msg = str(v.error)
    assert f"{key} is " in msg and "event says" in msg, msg
    assert len(msg) < 400 and end.payload not in msg          # not the whole payload
