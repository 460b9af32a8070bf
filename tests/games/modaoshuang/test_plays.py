"""Rounds and legal plays: jokers, rank order, turn order, leading, round winners, dead cards,
drawing, following, joker limits and violations, 诈摸 (MDS-3, MDS-4, MDS-11 to MDS-21)."""

from __future__ import annotations

import pytest

from engine.cards import parse_face, parse_faces
from engine.errors import InvalidEvent
from engine.games import modaoshuang as mds

from .conftest import auto, draw, gift, hand, kinds, no_play, play, pos, rejected, run, started

STOCK = "7c 9c Tc Jc Qc"


def _kinds_of(s):
    return sorted({(a.kind, a.tag) for a in mds.legal_actions(s)})


# ---------------------------------------------------------------- MDS-3 jokers

def test_mds_3_a_followers_joker_stands_for_the_round_suit():
    """MDS-3: a follower's joker keeps the round suit and names none."""
    s = pos(["2s 3s", "BJ 2d 3d", "4h 5d"], stock=STOCK, table=[(0, "5h")], leader=0)
    t = mds.apply(s, play(s, 1, "BJ"))
    assert t.suit == 1 and t.table == parse_faces("5h BJ")
    assert rejected(s, play(s, 1, "BJ", suit="d")).rule_id == "MDS-3"


def test_mds_3_a_led_joker_names_the_suit():
    """MDS-3 / MDS-12: a led joker stands for the suit its leader names."""
    s = pos(["BJ 2s 3s", "2d 3d 4s", "4h 5d"], stock=STOCK, leader=0)
    t = mds.apply(s, play(s, 0, "BJ", suit="d"))
    assert t.suit == 3
    assert {a.cards for a in mds.legal_actions(t) if a.kind == "PLAY"} == {(parse_face("2d"),),
                                                                          (parse_face("3d"),)}
    assert rejected(t, play(t, 1, "4s")).rule_id == "MDS-16"


# ---------------------------------------------------------------- MDS-4 rank order

def _winner(table, n=3):
    hands = ["2c 3c", "4c 5c", "6c 8c"][:n]
    s = pos(hands, stock=STOCK, table=table, leader=table[0][0],
            suit=None if table[0][1] not in ("BJ", "RJ") else "h")
    assert mds.next_auto(s) == "ROUND_END"
    return mds.auto_event(s).seat


def test_mds_4_rank_order_rj_a_k_down_to_2_and_bj():
    """MDS-4: RJ > A > K > … > 2 > BJ."""
    assert _winner([(0, "Kh"), (1, "Ah"), (2, "2h")]) == 1
    assert _winner([(0, "Th"), (1, "9h"), (2, "Jh")]) == 2
    assert _winner([(0, "Ah"), (1, "RJ"), (2, "Kh")]) == 1
    assert _winner([(0, "BJ"), (1, "2h"), (2, "3h")]) == 2
    assert _winner([(2, "2h"), (0, "BJ"), (1, "3h")]) == 1


# ---------------------------------------------------------------- MDS-11 turn order

def test_mds_11_every_seat_has_one_turn_then_the_round_ends():
    """MDS-11: leader, then L+1 … L+n-1; then ROUND_END is owed."""
    s = pos(["2h 3s", "4h 5d", "6h 9d"], stock=STOCK, leader=1)
    assert mds.to_move(s) == 1
    assert rejected(s, play(s, 2, "6h")).rule_id == "MDS-11"
    s = run(s, play(s, 1, "4h"))
    assert mds.to_move(s) == 2
    assert rejected(s, play(s, 0, "2h")).rule_id == "MDS-11"
    s = run(s, lambda t: play(t, 2, "6h"), lambda t: play(t, 0, "2h"))
    assert mds.next_auto(s) == "ROUND_END" and mds.to_move(s) == -1
    assert rejected(s, play(s, 1, "5d")).rule_id == "MDS-11"


def test_mds_11_a_play_is_one_card_of_the_own_hand():
    """MDS-11: exactly one card, held by the player."""
    s = pos(["2h 3h 4s", "4h 5d", "6h 9d"], stock=STOCK, leader=0)
    e = play(s, 0, "2h")
    assert rejected(s, e._replace(cards=parse_faces("2h 3h"))).rule_id == "MDS-11"
    assert rejected(s, e._replace(cards=())).rule_id == "MDS-11"
    assert rejected(s, play(s, 0, "4h")).rule_id == "MDS-11"


# ---------------------------------------------------------------- MDS-12 round suit

def test_mds_12_round_one_is_played_to_the_drawn_suit():
    """MDS-12: the first leader follows the suit draw exactly as a follower does: its suit, a
    joker naming nothing, or a draw."""
    s = started(11)
    assert mds.to_move(s) == s.first_leader and s.suit == s.first_suit
    assert all(a.value == -1 for a in mds.legal_actions(s) if a.kind == "PLAY")
    s = pos(["2s 5h BJ", "4h 5d", "6h 8d"], stock=STOCK, round_no=1, first_suit="s",
            suit="s")
    assert rejected(s, play(s, 0, "5h")).rule_id == "MDS-16"
    assert rejected(s, play(s, 0, "BJ", suit="h")).rule_id == "MDS-3"
    assert mds.apply(s, play(s, 0, "BJ")).suit == 0
    s = pos(["5h 6d", "4h 5d", "6h 8d"], stock=STOCK, round_no=1, first_suit="s", suit="s")
    assert rejected(s, play(s, 0, "5h")).rule_id == "MDS-16"     # lacking the suit: still MDS-16
    assert _kinds_of(s) == [("DRAW", "turn")]


def test_mds_12_a_later_leader_leads_any_card_and_sets_the_suit():
    """MDS-12: in later rounds the lead's card sets the suit; a led joker names it."""
    s = pos(["2h 3s RJ", "4h 5d", "6h 9d"], stock=STOCK, leader=0)
    acts = mds.legal_actions(s)
    assert {a.cards for a in acts if a.kind == "PLAY"} == {(c,) for c in s.hands[0]}
    assert sum(1 for a in acts if a.cards == (53,)) == 4      # RJ naming each suit
    assert mds.apply(s, play(s, 0, "3s")).suit == 0
    assert rejected(s, play(s, 0, "RJ")).rule_id == "MDS-12"
    assert rejected(s, play(s, 0, "RJ")._replace(value=7)).rule_id == "MDS-12"


# ---------------------------------------------------------------- MDS-13 round winner

def test_mds_13_the_round_winner_leads_the_next_round():
    """MDS-13: ROUND_END names the highest card's player, who leads next."""
    s = pos(["2c 3c", "4c 5c", "6c 8c"], stock=STOCK, table=[(0, "Th"), (1, "Qh"), (2, "2h")])
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.target, e.cards, e.value) == ("ROUND_END", 1, -1, (), 2)
    assert rejected(s, e._replace(seat=0)).rule_id == "MDS-13"
    t = mds.apply(s, e)
    assert (t.leader, t.round_no, t.suit, t.table, mds.to_move(t)) == (1, 3, -1, (), 1)


# ---------------------------------------------------------------- MDS-14 dead cards

def test_mds_14_played_cards_are_dead():
    """MDS-14: without a collector the round's cards are dead for the rest of the game."""
    s = pos(["2c 3c", "4c 5c", "6c 8c"], stock=STOCK, table=[(0, "Th"), (1, "Qh"), (2, "2h")])
    dead = len(s.dead)
    t = mds.apply(s, mds.auto_event(s))
    assert len(t.dead) == dead + 3 and set(parse_faces("Th Qh 2h")) <= set(t.dead)
    assert not set(parse_faces("Th Qh 2h")) & set(t.stock + sum(t.hands, ()))
    assert rejected(t, play(t, 1, "Qh")).rule_id == "MDS-11"


# ---------------------------------------------------------------- MDS-15 drawing

def test_mds_15_a_draw_takes_the_top_card():
    """MDS-15: from the top, one at a time; another card is refused."""
    s = pos(["2s 3s", "4c 5d", "6h 8d"], stock="Kh 9c Tc", table=[(0, "5h")])
    t = mds.apply(s, draw(s, 1))
    assert t.stock == parse_faces("9c Tc") and hand(t, 1) == "Kh 4c 5d"
    assert rejected(s, draw(s, 1)._replace(cards=parse_faces("9c"))).rule_id == "MDS-15"
    assert rejected(s, draw(s, 1)._replace(cards=())).rule_id == "MDS-15"


def test_mds_15_the_draw_that_empties_the_stock_starts_the_phase():
    """MDS-15 / MDS-28: the last card drawn owes PHASE_SHOUDAOSHUANG at once."""
    s = pos(["2s 3s", "4c 5d", "6h 8d"], stock="9c", table=[(0, "5h")])
    t = mds.apply(s, draw(s, 1))
    assert mds.next_auto(t) == "PHASE_SHOUDAOSHUANG"
    assert rejected(t, play(t, 1, "9c")).rule_id == "MDS-28"
    t = mds.apply(t, mds.auto_event(t))
    assert t.shou and _kinds_of(t) == [("NO_PLAY", "no_suit")]


# ---------------------------------------------------------------- MDS-16 / MDS-17 following

def test_mds_16_a_follower_holding_the_suit_plays_it_or_a_joker():
    """MDS-16: only round-suit cards or jokers."""
    s = pos(["2s 3s", "4h 5d BJ", "6h 8d"], stock=STOCK, table=[(0, "5h")],
            options={"mds_zhamo": False})
    assert {a.cards for a in mds.legal_actions(s)} == {parse_faces("4h"), parse_faces("BJ")}
    assert rejected(s, play(s, 1, "5d")).rule_id == "MDS-16"
    assert mds.apply(s, play(s, 1, "BJ")).suit == 1


def test_mds_17_a_follower_lacking_the_suit_must_draw():
    """MDS-17: no suit and no joker: only DRAW; NO_PLAY and off-suit cards are refused."""
    s = pos(["2s 3s", "4c 5d", "6h 8d"], stock="Kd 2c 7h 9c", table=[(0, "5h")])
    assert _kinds_of(s) == [("DRAW", "turn")]
    assert rejected(s, play(s, 1, "4c")).rule_id == "MDS-16"     # the follow rule, not the draw
    assert rejected(s, no_play(s, 1, "no_suit")).rule_id == "MDS-17"
    s = run(s, draw(s, 1, 0), lambda t: draw(t, 1, 0), lambda t: draw(t, 1, 0))
    assert hand(s, 1) == "7h 2c 4c 5d Kd"
    s = mds.apply(s, play(s, 1, "7h"))
    assert mds.to_move(s) == 2


def test_mds_17_lacking_the_suit_a_joker_may_be_played_or_a_card_drawn():
    """MDS-17: a joker it may play, or a draw; a card made legal by drawing may be played."""
    s = pos(["2s 3s", "RJ 5d", "6h 8d"], stock="2c 9d", table=[(0, "5h")],
            options={"mds_joker_violation": "illegal"})
    assert _kinds_of(s) == [("DRAW", "turn")]          # RJ needs three cards (MDS-19)
    s = mds.apply(s, draw(s, 1, 0))
    assert {a.kind for a in mds.legal_actions(s)} == {"PLAY", "DRAW"}
    t = mds.apply(s, play(s, 1, "RJ"))
    assert t.table == parse_faces("5h RJ") and hand(t, 1) == "2c 5d"


# ---------------------------------------------------------------- MDS-18 leaders

def test_mds_18_a_later_leader_does_not_draw():
    """MDS-18: a leader with a card it may lead must lead."""
    s = pos(["2h 3s", "4c 5d", "6h 8d"], stock=STOCK, leader=0)
    assert rejected(s, draw(s, 0)).rule_id == "MDS-18"
    assert rejected(s, no_play(s, 0, "no_lead")).rule_id == "MDS-12"   # MDS-32: the phase's


def test_mds_18_a_stuck_leader_draws_until_it_can_lead():
    """MDS-18: under ``illegal`` a lone joker cannot be led: the leader draws (value -1)."""
    s = pos(["BJ", "4c 5d", "6h 8d"], stock="RJ 9c", leader=0,
            options={"mds_joker_violation": "illegal"})
    assert _kinds_of(s) == [("DRAW", "turn")]
    assert rejected(s, no_play(s, 0, "no_lead")).rule_id == "MDS-18"
    assert rejected(s, play(s, 0, "BJ", suit="s")).rule_id == "MDS-19"
    s = mds.apply(s, draw(s, 0, -1))
    assert hand(s, 0) == "BJ RJ"
    assert {a.cards for a in mds.legal_actions(s) if a.kind == "PLAY"} == {parse_faces("BJ")}
    assert rejected(s, draw(s, 0, -1)).rule_id == "MDS-18"


# ---------------------------------------------------------------- MDS-19 / MDS-20 joker limits

def test_mds_19_joker_limits_under_illegal():
    """MDS-19: an RJ needs three cards in hand, a BJ two; ``illegal`` rejects the others."""
    opts = {"mds_joker_violation": "illegal"}
    s = pos(["2s 3s", "RJ 5h", "6h 8d"], stock=STOCK, table=[(0, "4h")], options=opts)
    assert rejected(s, play(s, 1, "RJ")).rule_id == "MDS-19"
    s = pos(["2s 3s", "RJ 5h 8c", "6h 8d"], stock=STOCK, table=[(0, "4h")], options=opts)
    assert mds.apply(s, play(s, 1, "RJ")).table == parse_faces("4h RJ")
    s = pos(["2s 3s", "BJ", "6h 8d"], stock=STOCK, table=[(0, "4h")], options=opts)
    assert rejected(s, play(s, 1, "BJ")).rule_id == "MDS-19"
    s = pos(["2s 3s", "BJ 8c", "6h 8d"], stock=STOCK, table=[(0, "4h")], options=opts)
    assert mds.apply(s, play(s, 1, "BJ")).table == parse_faces("4h BJ")
    s = pos(["RJ 2s", "4c", "6h 8d"], stock=STOCK, leader=0, options=opts)
    assert rejected(s, play(s, 0, "RJ", suit="h")).rule_id == "MDS-19"


def test_mds_20_a_violation_stands_and_is_punished_at_once():
    """MDS-20: under ``penalty`` an RJ from two cards counts in the round and costs the
    missed-report penalty (two draws while the stock lasts)."""
    s = pos(["2s 3s", "RJ 5d", "6h 8d"], stock=STOCK, table=[(0, "4h")])
    s = mds.apply(s, play(s, 1, "RJ"))
    assert s.table == parse_faces("4h RJ") and s.missed == ((1, "joker"),)
    s2, done = auto(s)
    assert kinds(done) == ["MISSED_REPORT", "DRAW", "DRAW"]
    assert (done[0].seat, done[0].tag) == (1, "joker")
    assert all(d.tag == "penalty" and d.seat == 1 for d in done[1:])
    assert hand(s2, 1) == "7c 9c 5d" and mds.to_move(s2) == 2


def test_mds_20_a_violation_emptying_the_hand_does_not_go_out_while_drawing():
    """MDS-20: the penalty comes first: after two draws the seat plays on."""
    s = pos(["2s 3s", "BJ", "6h 8d"], stock=STOCK, table=[(0, "4h")])
    s, done = auto(mds.apply(s, play(s, 1, "BJ")))
    assert kinds(done) == ["MISSED_REPORT", "DRAW", "DRAW"]
    assert s.winner == -1 and len(s.hands[1]) == 2 and s.out_pending == -1


def test_mds_20_a_violation_left_without_a_card_goes_out():
    """MDS-20 / MDS-33: in the 收到爽 phase, with no gift given, the violator has gone out."""
    s = pos(["2s 3s 4s 5s", "BJ", "6h 8d 9d Td"], table=[(0, "4h")])
    s = mds.apply(s, play(s, 1, "BJ"))
    s, done = auto(s)
    assert kinds(done) == ["MISSED_REPORT"] and s.pen_gifts == (2, 0)
    s = run(s, lambda t: gift(t, 2), lambda t: gift(t, 0))
    assert s.winner == 1 and s.dianpao == 0         # the leader set the suit (MDS-35)
    s = mds.apply(s, no_play(s, 2, "final"))
    assert mds.next_auto(s) == "ROUND_END"


def test_mds_20_a_gift_keeps_the_violator_in():
    """MDS-20: a gift leaves the violator a card: it has not gone out."""
    s = pos(["2s 3s 4s 5s", "BJ", "6h 8d 9d Td"], table=[(0, "4h")])
    s, _ = auto(mds.apply(s, play(s, 1, "BJ")))
    s = run(s, lambda t: gift(t, 2, "Td"), lambda t: gift(t, 0))
    assert s.winner == -1 and hand(s, 1) == "Td" and mds.to_move(s) == 2


# ---------------------------------------------------------------- MDS-21 诈摸

def test_mds_21_zhamo_on_a_follower_holding_the_suit_may_draw():
    """MDS-21: with mds_zhamo on a seat holding the suit may draw (value 1, auditors only)."""
    s = pos(["2s 3s", "4h 5d", "6h 8d"], stock=STOCK, table=[(0, "5h")])
    a = [x for x in mds.legal_actions(s) if x.kind == "DRAW"]
    assert a and a[0].value == 1
    t = mds.apply(s, a[0])
    assert hand(t, 1) == "4h 7c 5d" and mds.to_move(t) == 1
    with pytest.raises(InvalidEvent):
        mds.apply(s, draw(s, 1, held=0))        # the flag must be true


def test_mds_21_zhamo_off_a_follower_holding_the_suit_may_not_draw():
    """MDS-21: with mds_zhamo off such a draw is illegal."""
    s = pos(["2s 3s", "4h 5d", "6h 8d"], stock=STOCK, table=[(0, "5h")],
            options={"mds_zhamo": False})
    assert rejected(s, draw(s, 1)).rule_id == "MDS-21"
    assert not [x for x in mds.legal_actions(s) if x.kind == "DRAW"]


def test_mds_21_the_first_leader_may_zhamo_but_not_a_later_leader():
    """MDS-21: the round-1 first leader follows the drawn suit and may draw; a later leader
    may not."""
    s = pos(["2s 3s", "4h 5d", "6h 8d"], stock=STOCK, round_no=1, first_suit="s", suit="s")
    assert mds.apply(s, draw(s, 0, 1)).hands[0] == parse_faces("2s 3s 7c")
    s = pos(["2s 3s", "4h 5d", "6h 8d"], stock=STOCK, round_no=2, leader=0)
    assert rejected(s, draw(s, 0, -1)).rule_id == "MDS-18"
