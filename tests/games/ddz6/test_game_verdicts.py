"""Verdicts cite the rule that forbids *this* action by *this* seat now (issue 24): an action
sent while the engine owes an event cites the rule it breaks once the engine's events are
recorded (the end of the hand, the round's new leader, a play that does not beat), DDZ-92
named too; after the hand has ended, the rule that ended it; a side choice in a variant or
hand without side choosing the rule that forms its sides."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import IllegalMove
from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.setup import deal_event

from .reference import faces
from .test_game_play import a_play_state, passes, play, set_hands
from .test_game_setup import F, case_state, zhengfan_after_kitty
from .test_game_support import arrange, auto, autos, deal, do, ev, position, refused, start

# ---------------------------------------------------------------- owed events (DDZ-92 named)

def test_ddz74_a_play_while_the_round_end_is_owed_cites_the_new_leader():
    """DDZ-74 (not DDZ-92): five passes ended the round; before ROUND_END is recorded, a
    seat other than the round's winner plays: the winner leads the next round. The winner's
    own lead is refused for the owed event alone (DDZ-92); his pass breaks DDZ-72."""
    s = set_hands(a_play_state(), {0: "3456", 1: "9T", 2: "JQ"})
    s = do(s, play(s, 0, "3"))
    s = do(s, play(s, 1, "9"))
    s = passes(s, [2, 3, 4, 5, 0])
    assert s.owed == ("ROUND_END",)
    err = refused(s, play(s, 2, "J"), "DDZ-74")
    assert err.also == ("DDZ-92",) and "seat 1 is to act" in err.reason
    refused(s, play(s, 1, "T"), "DDZ-92")
    assert refused(s, ev(s, "PASS", 1), "DDZ-72").also == ("DDZ-92",)


def test_ddz41_a_play_that_does_not_beat_while_a_reveal_is_owed_cites_ddz41():
    """DDZ-41 (not DDZ-92): the hidden landlord's F play owes REVEAL; the next seat's play
    that would not beat it anyway is refused for that, DDZ-92 named too."""
    s = set_hands(a_play_state(), {0: "34", 1: "45", 2: (F, *faces("9")), 3: "6K"})
    s = do(s, play(s, 0, "3"))
    s = passes(s, [1])
    s = do(s, play(s, 2, (F,)))
    assert s.owed == ("REVEAL",)
    err = refused(s, play(s, 3, "6"), "DDZ-41")
    assert err.also == ("DDZ-92",)


def test_ddz77_a_double_while_case_c_owes_its_auto_end_cites_ddz77():
    """DDZ-77 (not DDZ-92): M holds all three F cards; once the case is found the hand ends
    without play, so a doubling sent before AUTO_END breaks DDZ-77 — and after the end too."""
    d = arrange("3v3", {0: (F, F, F)})
    s = start("3v3", d)
    s = auto(do(s, deal_event(s, position(d, 0, F), None)))
    assert s.case == "C" and s.owed == ("AUTO_END",)
    err = refused(s, ev(s, "DOUBLE", 1, value=1), "DDZ-77")
    assert err.also == ("DDZ-92",) and "without play" in err.reason
    s = autos(s)
    assert VARIANTS["3v3"].is_over(s)
    refused(s, play(s, 0, "3"), "DDZ-77")


def test_ddz18_a_play_in_a_void_hand_cites_ddz18():
    """DDZ-18 (not DDZ-92): nobody bid in a 3v3 hand: it is void; an action before or after
    its end is refused under DDZ-18; a wrong BID_END for it cites DDZ-18 too."""
    s = case_state({0: 1, 3: 2})
    for seat in s.bid_order:
        s = do(s, ev(s, "BID", seat, value=0))
    assert s.owed == ("BID_END",)
    refused(s, ev(s, "BID_END", 1, value=1), "DDZ-18")
    err = refused(s, ev(s, "DOUBLE", 1, value=0), "DDZ-18")
    assert err.also == ("DDZ-92",) and "void" in err.reason
    s = autos(s)
    refused(s, ev(s, "PASS", 2), "DDZ-18")


def test_ddz20_a_wrong_bid_end_when_nobody_bid_in_2v4_cites_ddz20():
    """DDZ-20 (not DDZ-14): nobody bid in 2v4; a BID_END naming a winner breaks DDZ-20."""
    s = deal(start("2v4", seed=10), 2, 9)
    for seat in s.bid_order:
        s = do(s, ev(s, "BID", seat, value=0))
    assert s.owed == ("BID_END",)
    refused(s, ev(s, "BID_END", 2, value=1), "DDZ-20")


def test_ddz78_a_show_hand_while_an_auto_win_is_owed_cites_ddz78():
    """DDZ-78 (not DDZ-92): the big landlord's hand holds no bomb, so the hand ends without
    play; a show-hand decision sent before AUTO_END breaks DDZ-78."""
    d = arrange("2v4", {0: "333444555666777888999TTTJJJQQQKKKA"}, kitty="AA222B")
    s = deal(start("2v4", d), 0, 3)
    s = do(s, ev(s, "BID", 0, value=3))
    while s.owed and s.owed[0] != "AUTO_END":
        s = auto(s)
    assert s.owed == ("AUTO_END",)
    err = refused(s, ev(s, "SHOW_HAND", 0, value=1), "DDZ-78")
    assert err.also == ("DDZ-92",)


# ---------------------------------------------------------------- side choice without choosing

def test_ddz24_ddz31_a_side_choice_where_sides_need_none_cites_the_sides_rule():
    """DDZ-24 (3v3) and DDZ-31 (2v4), not zhengfan's DDZ-35: their sides come from the marks
    and the bidding, nobody chooses one."""
    s = a_play_state()
    refused(s, ev(s, "SIDE_CHOICE", 1, value=0), "DDZ-24")
    t = deal(start("2v4", seed=9), 3, 10)
    refused(t, ev(t, "SIDE_CHOICE", 1, value=0), "DDZ-31")
    z = zhengfan_after_kitty()
    assert z.phase == "side"
    refused(z, ev(z, "SIDE_CHOICE", 2, value=0), "DDZ-35")


def test_ddz33_a_side_choice_in_a_zhengfan_solo_hand_cites_ddz33():
    """DDZ-33 (not DDZ-35): one seat holds both marks: there is no side choosing."""
    for seed in range(13, 40):
        s = zhengfan_after_kitty(om=2, dm=2, seed=seed)
        if s.phase == "show":
            break
    assert s.solo and s.phase == "show"
    refused(s, ev(s, "SIDE_CHOICE", 1, value=0), "DDZ-33")


# ---------------------------------------------------------------- the start

def test_ddz1_a_start_without_six_players_cites_the_seats():
    """DDZ-1 (not DDZ-6, which is about options): the hand's players are seats 0-5."""
    g = VARIANTS["3v3"]
    e0 = g.start_event("g1", [f"p{i}" for i in range(6)], random.Random(1))
    p = json.loads(e0.payload)
    p["players"] = p["players"][:5]
    with pytest.raises(IllegalMove) as exc:
        g.initial_state(e0._replace(payload=json.dumps(p)))
    assert exc.value.rule_id == "DDZ-1"
