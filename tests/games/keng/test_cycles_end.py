"""Stock exhaustion and cycles (KENG-42 to KENG-45), end conditions and result (KENG-2,
KENG-46 to KENG-49)."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import parse_faces
from engine.errors import InvalidEvent
from engine.events import Event
from engine.games import keng

from .conftest import (
    accept,
    cards_of,
    draw,
    ev,
    kinds,
    owed,
    pass_,
    play,
    pos,
    rejected,
    run,
    settle,
)

# ---------------------------------------------------------------- KENG-42 cycles


def test_keng_42_cycle_1_lasts_until_the_stock_is_first_drawn_empty():
    """KENG-42: Cycle 1 lasts until the stock is first drawn empty."""
    s = pos(top="5h", stock="2s 3s 4s", table="2h 3h 4h")
    s = run(s, draw(s, 0))
    assert s.cycle == 1 and s.stock == cards_of("4s") and owed(s) is None
    s = run(s, pass_(s, 0), lambda t: draw(t, 1))
    assert owed(s) == "RESHUFFLE"
    e = keng.auto_event(s, random.Random(0))
    assert e.value == 2
    assert rejected(s, e._replace(value=3)).rule_id == "KENG-42"
    assert rejected(s, e._replace(value=1)).rule_id == "KENG-42"
    s = keng.apply(s, e)
    assert s.cycle == 2


def test_keng_42_later_cycles_run_until_the_stock_is_drawn_empty_again():
    """KENG-42: Later cycles run until the stock is drawn empty again."""
    s = pos(top="5h", stock="2s 3s", table="2h 3h", cycle=4, window=False)
    s, done = settle(run(s, draw(s, 0)), random.Random(0))
    assert kinds(done) == ["RESHUFFLE"] and done[0].value == 5 and s.cycle == 5


# ---------------------------------------------------------------- KENG-43 reshuffle

def test_keng_43_reshuffle_keeps_the_top_play_p_d_and_the_seat_to_act():
    """KENG-43: Reshuffle keeps the top play, P, d and the seat to act."""
    s = pos({0: "2c 3c"}, top="Kh Kh", by=1, pending=4, to_act=0, direction=-1,
            stock="2s", table="2h 3h 4h 6h")
    s = run(s, accept(s, 0))
    assert s.hands[0] == cards_of("2c 3c 2s")
    assert owed(s) == "RESHUFFLE"
    assert rejected(s, play(s, 0, "2c")).rule_id == "KENG-43"
    e = keng.auto_event(s, random.Random(5))
    assert sorted(e.cards) == sorted(cards_of("2h 3h 4h 6h"))
    bad = e._replace(cards=parse_faces("2h 3h 4h 7h"))
    assert rejected(s, bad).rule_id == "KENG-43"
    assert rejected(s, e._replace(cards=e.cards[:3])).rule_id == "KENG-43"
    with pytest.raises(InvalidEvent):
        keng.apply(s, e._replace(seat=0))
    before = s
    s = keng.apply(s, e)
    assert s.stock == e.cards and s.table == () and s.cycle == 2
    assert (s.top, s.top_suit, s.to_act, s.direction) == \
        (before.top, before.top_suit, before.to_act, before.direction)
    # the unfinished acceptance continues from the new stock
    assert owed(s) == "ACCEPT"
    cont = keng.auto_event(s)
    assert (cont.seat, cont.value, cont.tag, cont.cards) == (0, 3, "continued", e.cards[:3])
    with pytest.raises(InvalidEvent):
        keng.apply(s, cont._replace(tag=""))
    assert rejected(s, cont._replace(value=2, cards=e.cards[:2])).rule_id == "KENG-43"
    assert rejected(s, cont._replace(seat=1)).rule_id == "KENG-43"
    s = keng.apply(s, cont)
    assert len(s.hands[0]) == 6 and s.stock == e.cards[3:]
    assert (s.pending, s.to_act, s.cycle) == (0, 0, 2)


def test_keng_43_reshuffle_also_after_a_draw_that_exactly_empties_the_stock():
    """KENG-43: Reshuffle also after a draw that exactly empties the stock."""
    s = pos(top="5h", stock="2s 3s", table="9c 8d")
    s, done = settle(run(s, draw(s, 0)), random.Random(0))
    assert kinds(done) == ["RESHUFFLE"]
    assert sorted(s.stock) == sorted(cards_of("9c 8d")) and s.top == cards_of("5h")


def test_keng_43_draw_must_take_the_cards_there_are():
    """KENG-43: Draw must take the cards there are."""
    s = pos(top="5h", stock="2s", table="2h")
    too_many = Event("DRAW", seat=0, cards=parse_faces("2s 2h"), value=2,
                     game_id=s.game_id, seq=s.seq)
    assert rejected(s, too_many).rule_id == "KENG-43"


# ---------------------------------------------------------------- KENG-44 empty discard

def test_keng_44_no_played_card_besides_the_top_no_reshuffle():
    """KENG-44: No played card besides the top no reshuffle."""
    s = pos(top="5h", stock="2s", table="")
    s = run(s, draw(s, 0))
    assert s.hands[0] == cards_of("2s 3c 4d 6s 2s")
    assert (s.cycle, s.stock, owed(s)) == (1, (), None)
    s = run(s, pass_(s, 0))
    # a draw from the empty stock with nothing to reshuffle takes no card
    e = draw(s, 1)
    assert e.cards == () and e.value == 2
    s = run(s, e)
    assert len(s.hands[1]) == 4 and s.cycle == 1 and owed(s) is None


def test_keng_44_reshuffle_tried_again_when_a_card_must_be_drawn():
    """KENG-44: Reshuffle tried again when a card must be drawn."""
    s = pos({1: "9h 2d 3d"}, top="5h", stock="", table="")
    s = run(s, draw(s, 0), lambda t: pass_(t, 0))
    assert owed(s) is None and s.cycle == 1
    s = run(s, play(s, 1, "9h"))                      # now 5h lies under the top play
    assert s.table == cards_of("5h") and owed(s) is None and s.stock == ()
    s, done = settle(run(s, draw(s, 2)), random.Random(0))
    assert kinds(done) == ["RESHUFFLE", "DRAW"]
    assert done[1].cards == cards_of("5h") and done[1].tag == "continued"
    assert s.cycle == 2 and len(s.hands[2]) == 5 and s.stock == ()


# ---------------------------------------------------------------- KENG-2, KENG-46 going out

def test_keng_46_going_out_ends_the_game_at_once():
    """KENG-46: Going out ends the game at once."""
    s = pos({0: "Kh"}, top="5h", cycle=2)
    s = run(s, play(s, 0, "Kh"))
    assert owed(s) == "GAME_END"
    e = keng.auto_event(s)
    assert (e.seat, e.value, e.tag) == (0, 0, "out")
    p = json.loads(e.payload)
    assert p["reason"] == "out" and p["deciding_seat"] == 0 and p["winning_team"] == "even"
    # the pending draw lapses: nobody may accept it, nothing else happens first
    assert rejected(s, accept(s, 1)).rule_id == "KENG-46"
    assert rejected(s, e._replace(value=1)).rule_id == "KENG-46"
    assert rejected(s, e._replace(seat=1)).rule_id == "KENG-46"
    bad = json.loads(e.payload)
    bad["winning_team"] = "odd"
    assert rejected(s, e._replace(payload=json.dumps(bad))).rule_id == "KENG-46"
    s = keng.apply(s, e)
    assert s.is_over and s.result == p


def test_keng_2_no_event_after_the_end():
    """KENG-2: No event after the end."""
    s, _ = settle(run(pos({0: "9h"}, top="5h"), lambda t: play(t, 0, "9h")))
    assert s.is_over
    assert rejected(s, draw(s, 1)).rule_id == "KENG-2"
    assert rejected(s, ev(s, "COUNT", 1, target=0, value=0)).rule_id == "KENG-2"
    assert keng.legal_actions(s) == [] and keng.auto_event(s) is None


# ---------------------------------------------------------------- KENG-47 hand limit

def test_keng_47_more_than_the_limit_loses():
    """KENG-47: More than the limit loses."""
    twenty = "2s 3s 4s 6s 7s 8s 9s Ts 2c 3c 4c 6c 7c 8c 9c Tc 2d 3d"   # 18 cards
    s = pos({3: twenty[:-3]}, top="Kh", pending=2, to_act=3, options={"keng_hand_limit": 18})
    assert len(s.hands[3]) == 17
    s = run(s, accept(s, 3))                          # 19 > 18
    assert owed(s) == "GAME_END"
    e = keng.auto_event(s)
    assert (e.seat, e.value, e.tag) == (3, 0, "over_limit")
    assert json.loads(e.payload)["winning_team"] == "even"
    assert rejected(s, e._replace(value=1)).rule_id == "KENG-47"
    assert rejected(s, play(s, 3, "2s")).rule_id == "KENG-47"
    s = keng.apply(s, e)
    assert s.result["deciding_seat"] == 3 and keng.deciding_seat(s) == 3


def test_keng_47_exactly_the_limit_is_allowed():
    """KENG-47: Exactly the limit is allowed."""
    s = pos({3: "2s 3s 4s 6s 7s 8s 9s Ts 2c 3c 4c 6c 7c 8c 9c Tc"}, top="Kh", pending=2,
            to_act=3, options={"keng_hand_limit": 18})
    s = run(s, accept(s, 3))
    assert len(s.hands[3]) == 18 and owed(s) is None


def test_keng_47_checked_after_the_continued_draw():
    """KENG-47: Checked after the continued draw."""
    hand18 = "2s 3s 4s 6s 7s 8s 9s Ts 2c 3c 4c 6c 7c 8c 9c Tc 2d 3d"
    s = pos({3: hand18}, top="Kh Kh", by=2, pending=4, to_act=3, stock="4d",
            table="2h 3h 4h 6h", options={"keng_hand_limit": 18})
    s = run(s, accept(s, 3))
    assert len(s.hands[3]) == 19 and owed(s) == "RESHUFFLE"   # not over yet: draw unfinished
    s, done = settle(s, random.Random(0))
    assert kinds(done) == ["RESHUFFLE", "ACCEPT", "GAME_END"]
    assert done[-1].tag == "over_limit" and done[-1].seat == 3
    assert len(s.hands[3]) == 22


def test_keng_47_penalty_draws_count_too():
    """KENG-47: Penalty draws count too."""
    s = pos({0: "7h 2c", 5: "2s 3s 4s 6s 7s 8s 9s Ts 2c 3c 4c 6c 7c 8c 9c Tc 2d"},
            top="5h", to_act=0, options={"keng_hand_limit": 18})
    s = run(s, play(s, 0, "7h"), lambda t: draw(t, 1))
    s, done = settle(s)
    assert kinds(done) == ["REPORT_PENALTY"]
    s = pos({5: "2s 3s 4s 6s 7s 8s 9s Ts 2c 3c 4c 6c 7c 8c 9c Tc 2d 3d"}, top="5h",
            cycle=2, options={"keng_hand_limit": 18})
    s, done = settle(run(s, keng.claim(s, 5, None)))
    assert kinds(done) == ["SNATCH_PENALTY", "GAME_END"] and done[-1].seat == 5


# ---------------------------------------------------------------- KENG-48 stalemate

def _all_pass(s, seats):
    for seat in seats:
        s = run(s, draw(s, seat), lambda t, seat=seat: pass_(t, seat))
    return s


def test_keng_48_six_passes_with_nothing_to_draw_end_without_result():
    """KENG-48: Six passes with nothing to draw end without result."""
    s = pos(top="5h", stock="", table="")
    s = _all_pass(s, range(5))
    assert s.passes == 5 and owed(s) is None
    s = _all_pass(s, [5])
    assert owed(s) == "GAME_END"
    e = keng.auto_event(s)
    assert (e.seat, e.value, e.tag) == (-1, -1, "stalemate")
    assert rejected(s, e._replace(value=0)).rule_id == "KENG-48"
    s = keng.apply(s, e)
    assert s.result["winning_team"] is None and s.result["deciding_seat"] is None
    assert keng.deciding_seat(s) is None and keng.scores(s) == [0] * 6


def test_keng_48_a_play_resets_the_passes_and_a_possible_reshuffle_prevents_it():
    """KENG-48: A play resets the passes and a possible reshuffle prevents it."""
    s = pos({2: "9h 2d 3d"}, top="5h", stock="", table="")
    s = _all_pass(s, [0, 1])
    s = run(s, play(s, 2, "9h"))
    assert s.passes == 0
    # the sixth pass with a played card under the top play: a reshuffle is still possible
    for table, end in (("2h", None), ("", "GAME_END")):
        s = pos(top="5h", stock="", table=table, to_act=5, drawn_two=True, passes_in_a_row=5)
        assert owed(run(s, pass_(s, 5))) == end


# ---------------------------------------------------------------- KENG-49 result

@pytest.mark.parametrize(("seat", "team"), [(0, "even"), (3, "odd"), (4, "even")])
def test_keng_49_result_names_team_seat_and_reason(seat, team):
    """KENG-49: Result names team seat and reason."""
    s = pos({seat: "9h"}, top="5h", to_act=seat)
    s, done = settle(run(s, play(s, seat, "9h")))
    r = s.result
    assert (r["reason"], r["deciding_seat"], r["winning_team"]) == ("out", seat, team)
    assert r["final_hands"][seat] == [] and len(r["final_hands"]) == 6
    assert done[-1].value == (0 if team == "even" else 1)
    assert keng.scores(s) == [1 if (i % 2 == seat % 2) else -1 for i in range(6)]
