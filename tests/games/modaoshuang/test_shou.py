"""The 收到爽 phase: its start, following without drawing, the collector, round winners among
the cards played, the stuck leader (MDS-28 to MDS-32)."""

from __future__ import annotations

import pytest

from engine.cards import parse_faces
from engine.errors import InvalidEvent
from engine.games import modaoshuang as mds

from .conftest import auto, draw, hand, kinds, no_play, play, pos, rejected, run


def _acts(s):
    return sorted((a.kind, a.tag, a.cards) for a in mds.legal_actions(s))


# ---------------------------------------------------------------- MDS-28 the phase begins

def test_mds_28_any_draw_emptying_the_stock_starts_the_phase_mid_turn():
    """MDS-28: a 诈摸 draw empties the stock: PHASE_SHOUDAOSHUANG is owed at once, and the
    same turn goes on under MDS-29; no further drawing."""
    s = pos(["2s 3s", "4h 5d", "6h 8d"], stock="Kc", table=[(0, "5h")])
    s = mds.apply(s, draw(s, 1, 1))
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.cards) == ("PHASE_SHOUDAOSHUANG", -1, ())
    assert rejected(s, e._replace(seat=1)).rule_id == "MDS-28"
    assert rejected(s, draw(s, 1)).rule_id == "MDS-28"
    s = mds.apply(s, e)
    assert s.shou and mds.to_move(s) == 1
    assert rejected(s, draw(s, 1)).rule_id == "MDS-28"
    assert _acts(s) == [("PLAY", "", parse_faces("4h"))]


def test_mds_28_a_stuck_leaders_draw_can_start_the_phase():
    """MDS-28 / MDS-18: a leader's draw empties the stock; with two cards it can lead."""
    s = pos(["BJ", "4c 5d", "6h 8d"], stock="RJ", leader=0,
            options={"mds_joker_violation": "illegal"})
    s, done = auto(mds.apply(s, draw(s, 0, -1)))
    assert kinds(done) == ["PHASE_SHOUDAOSHUANG"] and s.shou
    assert {a.cards for a in mds.legal_actions(s)} == {parse_faces("BJ")}


def test_mds_28_the_phase_event_is_owed_only_once():
    """MDS-28: it lasts to the end of the game; the event is not due again."""
    s = pos(["2s 3s", "4h 5d", "6h 8d"], table=[(0, "5h")])
    assert s.shou and mds.next_auto(s) is None
    e = mds.auto_event(pos(["2s 3s", "4h 5d", "6h 8d"], table=[(0, "5h")], shou=False))
    assert e.kind == "PHASE_SHOUDAOSHUANG"
    assert rejected(s, e).rule_id == "MDS-28"


# ---------------------------------------------------------------- MDS-29 following

def test_mds_29_a_follower_with_the_suit_must_play():
    """MDS-29: holding the suit: a suit card or a joker it may play; not playing is refused."""
    s = pos(["2s 3s", "4h 5d BJ", "6h 8d"], table=[(0, "5h")])
    assert _acts(s) == [("PLAY", "", parse_faces("4h")), ("PLAY", "", parse_faces("BJ"))]
    assert rejected(s, no_play(s, 1, "no_suit")).rule_id == "MDS-29"
    assert rejected(s, play(s, 1, "5d")).rule_id == "MDS-29"


def test_mds_29_a_follower_without_the_suit_may_keep_its_joker():
    """MDS-29: lacking the suit: play a joker it may play, or not play."""
    s = pos(["2s 3s", "RJ 5d 6d", "6h 8d"], table=[(0, "5h")])
    assert _acts(s) == [("NO_PLAY", "no_suit", ()), ("PLAY", "", parse_faces("RJ"))]
    assert rejected(s, play(s, 1, "5d")).rule_id == "MDS-29"
    assert mds.apply(s, no_play(s, 1, "no_suit")).collector == 1


# ---------------------------------------------------------------- MDS-30 the collector

def test_mds_30_the_first_seat_not_playing_collects_the_non_jokers():
    """MDS-30: the first non-player collects every non-joker card of the round, also those
    played after it; jokers stay dead; later non-players collect nothing."""
    s = pos(["5h 2s", "3d 4d", "BJ 8d 9d Td", "7h 2c"], leader=0)
    s = run(s, play(s, 0, "5h"), lambda t: no_play(t, 1, "no_suit"),
            lambda t: play(t, 2, "BJ"), lambda t: play(t, 3, "7h"))
    assert s.collector == 1
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.target, e.cards) == ("ROUND_END", 3, 1, parse_faces("5h 7h"))
    assert rejected(s, e._replace(cards=parse_faces("5h 7h BJ"))).rule_id == "MDS-30"
    assert rejected(s, e._replace(target=-1, cards=())).rule_id == "MDS-30"
    t = mds.apply(s, e)
    assert hand(t, 1) == "5h 7h 3d 4d" and 52 in t.dead and t.leader == 3


def test_mds_30_seats_after_the_collector_may_not_play_without_consequence():
    """MDS-30: a second non-player does not collect."""
    s = pos(["5h 2s", "3d 4d", "8d 9d", "7h 2c"], leader=0)
    s = run(s, play(s, 0, "5h"), lambda t: no_play(t, 1, "no_suit"),
            lambda t: no_play(t, 2, "no_suit"), lambda t: play(t, 3, "7h"))
    assert s.collector == 1
    t = mds.apply(s, mds.auto_event(s))
    assert hand(t, 2) == "8d 9d" and hand(t, 1) == "5h 7h 3d 4d"


def test_mds_30_a_round_in_which_every_seat_plays_has_no_collector():
    """MDS-30: no collector: the cards are dead."""
    s = pos(["5h 2s", "3h 4d", "8h 9d"], leader=0)
    s = run(s, play(s, 0, "5h"), lambda t: play(t, 1, "3h"), lambda t: play(t, 2, "8h"))
    e = mds.auto_event(s)
    assert (e.target, e.cards) == (-1, ())


# ---------------------------------------------------------------- MDS-31 round winner

def test_mds_31_the_round_winner_among_the_cards_played():
    """MDS-31: the highest card actually played wins, as in MDS-13."""
    s = pos(["5h 2s", "3d 4d", "BJ 8d 9d"], leader=0)
    s = run(s, play(s, 0, "5h"), lambda t: no_play(t, 1, "no_suit"),
            lambda t: play(t, 2, "BJ"))
    assert mds.auto_event(s).seat == 0
    t = mds.apply(s, mds.auto_event(s))
    assert t.leader == 0 and hand(t, 1) == "5h 3d 4d"


# ---------------------------------------------------------------- MDS-32 the stuck leader

def test_mds_32_a_stuck_leader_collects_and_the_lead_passes():
    """MDS-32: a leader with no card it may lead does not play (no_lead) and collects; a seat
    passed over does not play either, without consequence; the first seat that can lead sets
    the suit and the round goes on with the seats still to play."""
    opts = {"mds_joker_violation": "illegal"}
    s = pos(["BJ", "RJ", "5h 6s", "7h 2c"], leader=0, options=opts)
    assert _acts(s) == [("NO_PLAY", "no_lead", ())]
    assert rejected(s, play(s, 0, "BJ", suit="h")).rule_id == "MDS-19"
    s = run(s, no_play(s, 0, "no_lead"))
    assert s.collector == 0 and mds.to_move(s) == 1
    assert _acts(s) == [("NO_PLAY", "no_lead", ())]
    s = run(s, no_play(s, 1, "no_lead"))
    assert s.collector == 0 and s.suit == -1 and mds.to_move(s) == 2
    assert rejected(s, no_play(s, 2, "no_lead")).rule_id == "MDS-32"
    s = run(s, play(s, 2, "6s"))
    assert s.suit == 0 and mds.to_move(s) == 3
    assert _acts(s) == [("NO_PLAY", "no_suit", ())]
    s = run(s, no_play(s, 3, "no_suit"))
    e = mds.auto_event(s)
    assert (e.seat, e.target, e.cards) == (2, 0, parse_faces("6s"))
    t = mds.apply(s, e)
    assert hand(t, 0) == "6s BJ" and t.leader == 2 and t.turns == 0


def test_mds_32_a_no_lead_tag_is_checked():
    """MDS-32: the reason of a non-play is recorded exactly."""
    opts = {"mds_joker_violation": "illegal"}
    s = pos(["BJ", "RJ", "5h 6s", "7h 2c"], leader=0, options=opts)
    with pytest.raises(InvalidEvent):
        mds.apply(s, no_play(s, 0, "no_suit"))
