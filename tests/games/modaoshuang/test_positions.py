"""Positions must be possible (MDS-42, issue 9): what the position reader refuses beyond the
checks of test_info_positions.py — ids, bounds, nesting, the seat count of the options, the
seq of the deal — always with one line naming the field."""

from __future__ import annotations

import functools
import json

import pytest

from engine.games import modaoshuang as mds
from engine.games.codec import PositionError
from engine.sim import simulate


@functools.cache
def _played() -> tuple:
    """Every state of seeded games with 3, 4 and 5 players."""
    out = []
    for n in (3, 4, 5):
        for sim in simulate("modaoshuang", 2, 40 + n, options=mds.Options(mds_players=n)):
            s = mds.initial_state(sim.events[0])
            for e in sim.events[1:]:
                s = mds.apply(s, e)
                out.append(s)
    return tuple(out)


def _real(pick) -> dict:
    s = next(s for s in _played() if pick(s))
    return json.loads(json.dumps(mds.to_position(s)))


def _play(s):
    return s.phase == "play" and s.n == 4 and s.round_no > 2


BREAKS = {   # (base, field named) -> how a possible position is made impossible
    ("play", "players"): lambda p: p.update(players=p["players"][:2], hands=p["hands"][:2]),
    ("play", "options"): lambda p: p["options"].update(mds_players=2),
    ("play", "options.mds_hand_size"): lambda p: p["options"].update(mds_hand_size="x" * 99),
    ("play", "players[1]"): lambda p: p["players"].__setitem__(1, "a b"),
    ("play", "game_id"): lambda p: p.update(game_id="x" * 65),
    ("play", "seq"): lambda p: p.update(seq=10 ** 30),
    ("play", "round.number"): lambda p: p["round"].update(number=-1),
    ("play", "hands"): lambda p: p["hands"][0].append("RJ"),
    ("play", "result.x.x.x.x.x.x.x"): lambda p: p.update(result=functools.reduce(
        lambda v, _: {"x": v}, range(2000), 0)),
    ("play", "game"): lambda p: p.update(game="keng"),
    ("deal", "seq"): lambda p: p.update(seq=p["seq"] + 2),
    ("suit_draw", "seq"): lambda p: p.update(seq=p["seq"] - 1),
}
BASES = {
    "play": _play,
    "deal": lambda s: s.phase == "deal" and s.seq == 2,
    "suit_draw": lambda s: s.phase == "suit_draw",
}


@pytest.mark.parametrize(("base", "field"), sorted(BREAKS))
def test_mds_42_an_impossible_position_is_refused_naming_the_field(base, field):
    p = _real(BASES[base])
    assert mds.from_position(json.loads(json.dumps(p))) is not None
    BREAKS[(base, field)](p)
    with pytest.raises(PositionError) as info:
        mds.from_position(p)
    assert info.value.field.startswith(field), info.value
    text = str(info.value)
    assert text.startswith("position field '") and "\n" not in text and "seq -1" not in text
    assert len(text) < 400


def test_mds_42_every_state_of_seeded_games_is_possible():
    for s in _played():
        assert mds.from_position(json.loads(json.dumps(mds.to_position(s)))) == s


def test_mds_42_a_scenario_may_hold_other_cards_but_is_still_read():
    p = _real(_play)
    p["dead"] = p["dead"][1:]                    # a card lost: no game
    with pytest.raises(PositionError):
        mds.from_position(p)
    assert mds.from_position(p, scenario=True) is not None
    p["seq"] = "eleven"
    with pytest.raises(PositionError) as info:
        mds.from_position(p, scenario=True)
    assert info.value.field == "seq"
