"""Positions: every state round-trips through JSON, and ``from_position`` refuses what no hand
can reach with a PositionError naming the field (LH-4, LH-10, LH-19, LH-34, LH-59, LH-66)."""

from __future__ import annotations

import copy
import json

import pytest

from engine.cards import parse_face
from engine.errors import InvalidEvent
from engine.games import liuhu as lh
from engine.replay import Replay
from tests.games.liuhu.conftest import act, auto, playout, table
from tests.games.liuhu.test_claims import FILL14
from tests.games.liuhu.test_info import NO_ROB3, _jia_gang_events


@pytest.fixture(scope="module")
def states():
    events, _ = playout(4, {"hands": 2}, "greedy")
    rep = Replay(events)
    return [rep.state_at(i) for i in range(0, len(rep), 5)] + [rep.final]


def test_every_state_round_trips(states):
    phases = set()
    for s in states:
        p = json.loads(json.dumps(lh.to_position(s)))
        assert lh.from_position(p) == s
        phases.add(s.phase)
    assert {"deal", "turn", "over"} <= phases


def _refused(p, field):
    with pytest.raises(InvalidEvent) as info:
        lh.from_position(p)
    assert info.value.field.startswith(field), str(info.value)
    return str(info.value)


def test_refusals_name_the_field(states):
    s = next(x for x in states if x.phase == "turn")
    base = json.loads(json.dumps(lh.to_position(s)))
    p = copy.deepcopy(base)
    p["hands"][1] = p["hands"][1][:-1]
    assert "missing" in _refused(p, "wall")                       # LH-4: the pack
    p = copy.deepcopy(base)
    p["hands"][2].append(p["hands"][3][0])
    p["hands"][3] = p["hands"][3][1:]
    assert "LH-19" in _refused(p, "hands")
    p = copy.deepcopy(base)
    p["break"] = (p["break"] + 2) % 208
    assert "LH-10" in _refused(p, "break")
    p = copy.deepcopy(base)
    p["ring"] = p["ring"][1:] + ["RJ"]
    assert "LH-4" in _refused(p, "ring")
    p = copy.deepcopy(base)
    p["changes"] = [1, -1, 0, 0, 0, 0]
    _refused(p, "changes")
    p = copy.deepcopy(base)
    p["to_act"] = (p["to_act"] + 1) % 6
    _refused(p, "to_act")
    p = copy.deepcopy(base)
    p["colour"] = 1
    _refused(p, "colour")
    p = copy.deepcopy(base)
    p["window"] = {"kind": "discard", "card": "As", "from": 0, "eligible": [], "answers": [],
                   "calls": [], "pending": []}
    assert "LH-34" in _refused(p, "window")


def test_a_hand_built_position_needs_the_scenario_flag():
    s = table({0: FILL14})
    p = lh.to_position(s)
    with pytest.raises(InvalidEvent) as info:
        lh.from_position(p)
    assert info.value.field == "wall"
    assert lh.from_position(p, scenario=True) == s


def test_window_positions_are_checked_lh34():
    s = table({0: "9s " + FILL14[3:], 3: "9s 9s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d 3h"})
    s = auto(lh.apply(s, act(s, "DISCARD", 0, "9s")))
    p = json.loads(json.dumps(lh.to_position(s)))
    assert lh.from_position(p, scenario=True) == s
    bad = copy.deepcopy(p)
    bad["window"]["eligible"] = [[4, [["peng"]]]]
    with pytest.raises(InvalidEvent) as info:
        lh.from_position(bad, scenario=True)
    assert info.value.field == "window.eligible"
    bad = copy.deepcopy(p)
    bad["window"]["answers"] = [[3, ["gang"]]]
    with pytest.raises(InvalidEvent):
        lh.from_position(bad, scenario=True)


def test_a_closed_robbing_window_is_kept_until_the_replacement_draw_lh29_lh70():
    """A 加杠 nobody robbed (LH-29) keeps its card in ``rob_closed`` until the replacement
    draw (LH-24), so that the seats' views show the window open till then (LH-70); a position
    written before the field existed reads as none (its views show the 明杠, as then)."""
    _, states = _jia_gang_events(NO_ROB3)
    s = states[1]
    assert (s.phase, s.rob_closed, s.melds[0][0][0]) == ("tail", parse_face("As"), "ming_gang")
    assert states[0].rob_closed == states[-1].rob_closed == -1
    p = json.loads(json.dumps(lh.to_position(s)))
    assert p["rob_closed"] == "As" and lh.to_position(states[-1])["rob_closed"] is None
    assert lh.from_position(p, scenario=True) == s
    old = copy.deepcopy(p)
    del old["rob_closed"]
    was = lh.from_position(old, scenario=True)
    assert was.rob_closed == -1 and lh.view(was, 2)["melds"][0][0]["kind"] == "ming_gang"
    assert lh.view(was, 2)["phase"] == "tail"
    for key, value in (("rob_closed", "Ks"), ("rob_closed", ["As"])):
        bad = copy.deepcopy(p)
        bad[key] = value
        with pytest.raises(InvalidEvent) as info:
            lh.from_position(bad, scenario=True)
        assert info.value.field == "rob_closed", str(info.value)
    bad = json.loads(json.dumps(lh.to_position(states[-1])))
    bad["rob_closed"] = "As"                                    # after the draw: refused
    with pytest.raises(InvalidEvent) as info:
        lh.from_position(bad, scenario=True)
    assert info.value.field == "rob_closed" and "LH-29" in str(info.value)


def test_end_positions_check_settlement_and_next_dealer_lh59_lh66(states):
    final = states[-1]
    p = json.loads(json.dumps(lh.to_position(final)))
    bad = copy.deepcopy(p)
    bad["next_dealer"] = (bad["next_dealer"] + 1) % 6
    _refused(bad, "next_dealer")
    bad = copy.deepcopy(p)
    bad["result"]["balances"] = [5, -5, 0, 0, 0, 0]
    _refused(bad, "result")
