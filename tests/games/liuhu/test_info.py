"""Information (section 14, LH-69, LH-70): what each seat's view and each event as a seat saw
it show; the ring (LH-9) is the auditor's only."""

from __future__ import annotations

import json

from engine.cards import parse_face
from engine.events import NONE
from engine.games import liuhu as lh
from tests.games.liuhu.conftest import act, auto, legal, play, playout, start, table
from tests.games.liuhu.test_claims import FILL14
from tests.games.liuhu.test_scoring import _fangchong


def test_ring_recorded_and_seen_by_the_auditor_only_lh9_lh70():
    e0 = start(4)
    s = lh.initial_state(e0)
    assert s.ring == e0.cards and len(e0.cards) == 208            # LH-9: R in full
    assert lh.seen_event(e0, None) == e0
    for seat in range(6):
        assert lh.seen_event(e0, seat).cards == () and not lh.cards_visible(e0, seat)
        assert "ring" not in lh.view(s, seat) and "wall" not in lh.view(s, seat)
    assert lh.view(s, None)["ring"][0] == lh.view(s, None)["ring"][0]
    assert len(lh.view(s, None)["ring"]) == 208


def test_deal_and_draws_are_private_lh70():
    s = lh.initial_state(start(5))
    deal = lh.auto_event(s)
    s = lh.apply(s, deal)
    for seat in range(6):
        part = lh.seen_event(deal, seat).cards
        assert tuple(sorted(part)) == s.hands[seat]
        v = lh.view(s, seat)
        assert v["hands"][seat] == [lh_face for lh_face in v["hands"][seat]]
        assert all(isinstance(v["hands"][i], int) for i in range(6) if i != seat)
    events, _ = playout(3, {})
    draw = next(e for e in events if e.kind == "DRAW")
    assert lh.seen_event(draw, draw.seat) == draw
    other = (draw.seat + 1) % 6
    assert lh.seen_event(draw, other).cards == () and lh.seen_event(draw, other).tag == "front"


def test_eligibility_and_passes_hidden_calls_public_lh69_lh70():
    s = table({0: "9s " + FILL14[3:], 3: "9s 9s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d 3h"})
    s = lh.apply(s, act(s, "DISCARD", 0, "9s"))
    window = lh.auto_event(s)
    assert window.value == 1 << 3
    for seat in range(6):
        seen = lh.seen_event(window, seat)
        assert (seen.value, seen.payload, seen.cards) == (NONE, None, window.cards)
    s = lh.apply(s, window)
    assert "eligible" in lh.view(s, None)["window"]
    for seat in (0, 1, 2, 4, 5):
        v = lh.view(s, seat)
        assert "eligible" not in v["window"] and v["to_act"] is None and v["phase"] == "window"
    assert lh.view(s, 3)["to_act"] == 3
    answer = act(s, "RESPOND", 3, tag="pass")
    for seat in (0, 1, 2, 4, 5):
        seen = lh.seen_event(answer, seat)
        assert (seen.seat, seen.tag, seen.cards) == (NONE, "", ())
    assert lh.seen_event(answer, 3) == answer
    s = play(s, act(s, "RESPOND", 3, tag="peng"))
    assert lh.view(s, 1)["window"]["calls"] == ["3 peng"]        # public at the award
    s = play(s, legal(s)[0])
    assert lh.view(s, 1)["window"] is None                       # the 碰 is made
    assert lh.view(s, 1)["melds"][3][0]["cards"] == ["9s"] * 3   # melds are public


def test_an_gang_shows_one_card_lh69():
    s = table({0: "9h 9h 9h 9h 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"})
    e = act(s, "AN_GANG", 0, "9h")
    assert e.cards == (parse_face("9h"),) and all(lh.cards_visible(e, x) for x in range(6))


def test_winner_shown_losers_hidden_lh69_lh70():
    s = _fangchong()
    s = auto(lh.apply(s, legal(s)[0]))
    v = lh.view(s, 0)
    assert isinstance(v["hands"][4], list) and len(v["hands"][4]) == 8   # with the 8c
    assert all(isinstance(v["hands"][i], int) for i in (1, 2, 3, 5))
    assert v["wins"][0]["total"] == 21 and v["wins"][0]["split"]["total"] == 21
    assert v["result"]["changes"][1] == -21                               # payments public
    json.dumps(lh.view(s, None))


def test_after_liuju_all_hands_hidden_lh70():
    events, s = playout(1, {"decks": 2, "hands": 1, "min_hu": 99})
    assert lh.result(s)["reason"] == "liuju"
    for seat in range(6):
        v = lh.view(s, seat)
        assert all(isinstance(v["hands"][i], int) for i in range(6) if i != seat)
    assert lh.render(s, 2).count("cards]") == 5 and "liuju" in lh.render(s)
