"""Positions must be possible (GJ-49, issue 9): a 够级 position is refused, with one line
naming the field, unless a game could reach it — the 196 cards of the pack, the stage's setup,
the places taken, the declarations, the round, the seat to act and the derived events owed."""

from __future__ import annotations

import functools
import json

import pytest

from engine.games import gouji
from engine.games.codec import PositionError
from engine.games.gouji.position import from_position, to_position
from engine.sim import simulate


@functools.cache
def _played() -> tuple:
    """Every state of two seeded sessions of three games (the first with its cut)."""
    out = []
    for seed in (3, 7):
        for sim in simulate("gouji", 3, seed, session_games=3):
            s = gouji.initial_state(sim.events[0])
            out.append(s)
            for e in sim.events[1:]:
                s = gouji.apply(s, e)
                out.append(s)
    return tuple(out)


def _real(pick) -> dict:
    """The position JSON of the first played state for which pick(state) holds."""
    s = next(s for s in _played() if pick(s))
    return json.loads(json.dumps(to_position(s), ensure_ascii=False))


def _answering(s):
    return (s.stage == "play" and s.top_seat >= 0 and not s.owed and not s.open_phase
            and s.rang_seat < 0 and not s.top_huiwu and s.burner < 0 and s.kd_cand < 0
            and not any(s.out_pos))


def _someone_out(s):
    return (s.stage == "play" and not s.owed and 1 in s.out_pos and s.out_pos.count(0) >= 4
            and s.top_seat >= 0)


BASES = {
    "cut": lambda s: s.stage == "cut",
    "direction": lambda s: s.stage == "direction",
    "deal": lambda s: s.stage == "deal" and s.game_no == 1,
    "answer": _answering,
    "out": _someone_out,
    "open": lambda s: s.stage == "play" and s.open_phase and not s.owed,
    "rang": lambda s: s.rang_seat >= 0 and s.rang_wait and not s.owed,
    "later": lambda s: s.stage == "play" and s.game_no > 1 and not s.owed,
    "designate": lambda s: s.stage == "designate" and s.to_act >= 0,
    "over": lambda s: s.stage == "over",
}


def _more_than_dealt(p):
    seat = p["to_act"]
    while len(p["hands"][seat]) <= 33:
        p["hands"][seat].append(p["played"].pop(0))


def _top_not_played(p):
    once = next(c for c in p["played"] if p["played"].count(c) == 1 and c[0] not in "23"
                and c not in ("BJ", "RJ"))
    p["top"]["cards"] = [once, once]


def _finished_holding(p):
    seat = next(o["seat"] for o in p["out"] if o["how"] == "finished")
    p["hands"][seat].append(p["played"].pop(0))


def _rang_bad(p):
    p["rang"] = {"seat": p["rang"]["seat"], "waiting": [p["rang"]["seat"]]}


def _kd_elsewhere(p):
    p["kaidian_candidate"] = (p["to_act"] + 1) % 6


BREAKS = {   # (base, field named) -> how a possible position is made impossible
    ("answer", "hands[0]"): lambda p: p["hands"][0].extend(["RJ"] * 9),
    ("answer", "played"): lambda p: p["played"].pop(),
    ("answer", "to_act"): lambda p: p["passed"].append(p["to_act"]),
    ("answer", "passed"): lambda p: p["passed"].append(p["top"]["seat"]),
    ("answer", "top.cards"): lambda p: p["top"].update(cards=["9s", "Ts"]),
    ("answer", "open_phase"): lambda p: p.update(open_phase=True),
    ("answer", "window"): lambda p: p.update(window=True),
    ("answer", "xuandian_pending"): lambda p: p.update(xuandian_pending=1,
                                                       xuandian_used=[1]),
    ("answer", "huiwu_due"): lambda p: p.update(huiwu_due=True),
    ("answer", "out"): lambda p: p.update(out=[{"seat": p["to_act"], "position": 3,
                                                "how": "finished"}]),
    ("answer", "kaidian_candidate"): _kd_elsewhere,
    ("answer", "owed[0]"): lambda p: p.update(owed=[{"kind": "PHASE_OPEN"}]),
    ("answer", "owed[0].seat"): lambda p: p.update(owed=[{"kind": "OUT", "seat": "x"}]),
    ("answer", "owed[1]"): lambda p: p.update(owed=[
        {"kind": "BURN_END", "seat": 1, "tag": "fake"}, {"kind": "GAME_END"}]),
    ("answer", "players[0]"): lambda p: p["players"].__setitem__(0, 7),
    ("answer", "sweep"): lambda p: p.update(sweep="even"),
    ("answer", "designation"): lambda p: p.update(designation=[0, 1]),
    ("answer", "result"): lambda p: p.update(result={"a": 1}),
    ("answer", "last"): lambda p: p.update(last=None),
    ("answer", "seq"): lambda p: p.update(seq="eleven"),
    ("answer", "stage"): lambda p: p.update(stage="bidding"),
    ("answer", "rang"): lambda p: p.update(rang={"seat": 9, "waiting": []}),
    ("answer", "options.kaidian_effect"): lambda p: p["options"].update(kaidian_effect=[1]),
    ("answer", "top"): lambda p: p.update(top="garbage"),
    ("out", "hands"): _finished_holding,
    ("open", "burner"): lambda p: p.update(burner=p["to_act"]),
    ("open", "hands"): _more_than_dealt,
    ("rang", "rang"): _rang_bad,
    ("rang", "top.cards"): _top_not_played,
    ("later", "cuts"): lambda p: p.update(cuts=[{"seat": 0, "card": "7h", "count_dir": 1}]),
    ("later", "huiwu_team"): lambda p: p.update(huiwu_team="even" if p["starter"] % 2
                                                else "odd"),
    ("cut", "hands"): lambda p: p["hands"][0].append("7h"),
    ("cut", "direction"): lambda p: p.update(direction=1),
    ("direction", "first_player"): lambda p: p.update(first_player=(p["first_player"] + 1) % 6),
    ("deal", "to_act"): lambda p: p.update(to_act=2),
    ("designate", "to_act"): lambda p: p.update(to_act=(p["to_act"] + 1) % 6),
    ("over", "result"): lambda p: p["result"].update(result="draw" if p["result"]["result"]
                                                      != "draw" else "even"),
    ("over", "stage"): lambda p: p.update(owed=[{"kind": "PHASE_OPEN"}], open_phase=True),
}


@pytest.mark.parametrize(("base", "field"), sorted(BREAKS))
def test_gj49_an_impossible_position_is_refused_naming_the_field(base, field):
    p = _real(BASES[base])
    assert from_position(json.loads(json.dumps(p))) is not None
    BREAKS[(base, field)](p)
    with pytest.raises(PositionError) as info:
        from_position(p)
    assert info.value.field.startswith(field), info.value
    text = str(info.value)
    assert text.startswith("position field '") and "\n" not in text and "seq -1" not in text


def test_gj49_hostile_findings_are_refused():
    """The hostile tester's 够级 positions: a hand with 9 big jokers; a seat that is both locked
    (passed) and the seat to act, whose answer the old reader then called legal."""
    p = _real(_answering)
    q = json.loads(json.dumps(p))
    q["hands"][2] = q["hands"][2] + ["RJ"] * 9
    with pytest.raises(PositionError) as info:
        from_position(q)
    assert info.value.field == "hands[2]" and "× RJ" in str(info.value)
    q = json.loads(json.dumps(p))
    q["passed"] = sorted(set(q["passed"]) | {q["to_act"]})
    with pytest.raises(PositionError) as info:
        from_position(q)
    assert info.value.field == "to_act" and "has not passed" in str(info.value)


def test_gj49_every_state_of_seeded_sessions_is_possible():
    """Positions a game wrote always load: every stage, every game of a session."""
    stages = set()
    for s in _played():
        assert from_position(json.loads(json.dumps(to_position(s)))) == s
        stages.add(s.stage)
    assert stages == {"cut", "direction", "deal", "play", "designate", "over"}


def test_gj49_a_scenario_is_read_but_not_required_to_be_reachable():
    """``scenario=True`` (hand-built rule tests) keeps the reading checks, not the rest."""
    p = _real(_answering)
    p["hands"][0] = ["9s"]          # cards lost: not a real game
    with pytest.raises(PositionError):
        from_position(p)
    assert from_position(p, scenario=True).hands[0] == (8,)
    p["seq"] = -3
    with pytest.raises(PositionError):
        from_position(p, scenario=True)
