"""Reports and their penalties: the two-card report, its deadline, drawn and gifted penalties,
the one-card report, no penalty after going out (MDS-22 to MDS-27)."""

from __future__ import annotations

from engine.cards import parse_faces
from engine.games import modaoshuang as mds

from .conftest import auto, draw, gift, hand, kinds, play, pos, rejected, report, run

STOCK = "7c 9c Tc Jc Qc Kc"


def _two_left():
    """Seat 1 follows 4h leaving two cards; seat 2 to act."""
    s = pos(["2s 3s 4s", "4h 5d 6d", "6h 8h 8d"], stock=STOCK, table=[(0, "5h")])
    return mds.apply(s, play(s, 1, "4h"))


# ---------------------------------------------------------------- MDS-22 the two-card report

def test_mds_22_a_play_leaving_two_cards_must_be_reported():
    """MDS-22: the seat owes REPORT 2 (an out-of-turn action, listed) before the next card."""
    s = _two_left()
    assert (s.report_seat, s.report_count) == (1, 2)
    assert report(s, 1) in mds.legal_actions(s) and mds.to_move(s) == 2
    t = run(s, report(s, 1), lambda x: play(x, 2, "6h"))
    assert mds.next_auto(t) == "ROUND_END" and t.missed == ()


def test_mds_22_draws_do_not_end_the_deadline_a_played_card_does():
    """MDS-22: the next player's draws leave the report open; its card ends the deadline."""
    s = _two_left()
    s = mds.apply(s, draw(s, 2))                      # 诈摸 by seat 2
    assert s.report_seat == 1
    s = mds.apply(s, report(s, 1))
    assert s.report_seat == -1
    t = _two_left()
    t = run(t, draw(t, 2), lambda x: play(x, 2, "6h"))
    assert mds.next_auto(t) == "MISSED_REPORT" and t.missed == ((1, "report"),)


def test_mds_22_the_own_next_lead_ends_the_deadline():
    """MDS-22: the reporter's own next lead ends the deadline too."""
    s = pos(["2s 3s 4s", "Ah 5d 6d", "6h 8h 8d"], stock=STOCK, table=[(2, "5h"), (0, "7h")],
            leader=2)
    s = run(s, play(s, 1, "Ah"))
    s, done = auto(s)
    assert kinds(done) == ["ROUND_END"] and s.leader == 1 and s.report_seat == 1
    s = mds.apply(s, play(s, 1, "5d"))
    s, done = auto(s)
    assert kinds(done) == ["MISSED_REPORT", "DRAW", "DRAW"] and done[0].seat == 1
    assert hand(s, 1) == "7c 9c 6d"


def test_mds_22_only_the_seat_owing_the_report_makes_it():
    """MDS-22: another seat, a wrong count or a report after the deadline are refused."""
    s = _two_left()
    assert rejected(s, report(s, 2)).rule_id == "MDS-22"
    assert rejected(s, report(s, 1, 3)).rule_id == "MDS-22"
    t = run(s, report(s, 1))
    assert rejected(t, report(t, 1)).rule_id == "MDS-22"
    u = pos(["2s 3s 4s", "4h 5d 6d 7d", "6h 8h 8d"], stock=STOCK, table=[(0, "5h")])
    u = mds.apply(u, play(u, 1, "4h"))               # three left: nothing to report
    assert u.report_seat == -1 and rejected(u, report(u, 1)).rule_id == "MDS-22"


# ---------------------------------------------------------------- MDS-23 / MDS-24 drawn penalty

def test_mds_23_the_penalty_follows_the_card_that_ended_the_deadline():
    """MDS-23: PLAY, then MISSED_REPORT and its draws, then the next turn."""
    s = _two_left()
    s = mds.apply(s, play(s, 2, "6h"))
    assert mds.to_move(s) == -1
    assert rejected(s, play(s, 0, "2s")).rule_id == "MDS-23"
    s, done = auto(s)
    assert kinds(done) == ["MISSED_REPORT", "DRAW", "DRAW", "ROUND_END"]
    assert [d.seat for d in done[:3]] == [1, 1, 1] and done[0].tag == "report"


def test_mds_23_a_deadline_penalty_comes_before_a_violations_penalty():
    """MDS-23 / section 13: the deadline's MISSED_REPORT, then the violation's."""
    s = pos(["2s 3s 4s", "4h 5d 6d", "RJ 8d"], stock=STOCK, table=[(0, "5h")])
    s = run(s, play(s, 1, "4h"), lambda t: play(t, 2, "RJ"))
    s, done = auto(s)
    assert [(d.kind, d.seat, d.tag) for d in done] == [
        ("MISSED_REPORT", 1, "report"), ("DRAW", 1, "penalty"), ("DRAW", 1, "penalty"),
        ("MISSED_REPORT", 2, "joker"), ("DRAW", 2, "penalty"), ("DRAW", 2, "penalty"),
        ("ROUND_END", 2, "")]


def test_mds_24_the_penalty_draws_what_is_left_and_the_phase_begins():
    """MDS-24 / MDS-28: with one card left the offender draws it and 收到爽 begins."""
    s = pos(["2s 3s 4s", "4h 5d 6d", "6h 8h 8d"], stock="Kc", table=[(0, "5h")])
    s = run(s, play(s, 1, "4h"), lambda t: play(t, 2, "6h"))
    s, done = auto(s)
    assert kinds(done) == ["MISSED_REPORT", "DRAW", "PHASE_SHOUDAOSHUANG", "ROUND_END"]
    assert s.shou and hand(s, 1) == "Kc 5d 6d" and s.pen_seat == -1


def test_mds_24_a_penalty_draw_must_be_the_owed_one():
    """MDS-24: seat, card and reason of each penalty DRAW are owed; a turn draw then is not."""
    s = _two_left()
    s = mds.apply(s, play(s, 2, "6h"))
    s = mds.apply(s, mds.auto_event(s))                # MISSED_REPORT
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.tag) == ("DRAW", 1, "penalty")
    assert rejected(s, e._replace(seat=2)).rule_id == "MDS-24"
    assert rejected(s, e._replace(tag="turn")).rule_id == "MDS-24"
    assert rejected(s, e._replace(cards=parse_faces("Kc"))).rule_id == "MDS-24"
    u = _two_left()
    assert rejected(u, draw(u, 2)._replace(tag="penalty")).rule_id == "MDS-24"


# ---------------------------------------------------------------- MDS-25 gifts

def _gift_penalty():
    """收到爽: seat 1 (of 4) left two cards unreported; seat 2's card ends the deadline."""
    s = pos(["2s 3s 4s 5s 6s", "4h 5d 6d", "6h 8h 8d 9d Td", "7h 2c 3c"], table=[(0, "5h")])
    s = run(s, play(s, 1, "4h"), lambda t: play(t, 2, "6h"))
    s, done = auto(s)
    assert kinds(done) == ["MISSED_REPORT"]
    return s


def test_mds_25_seats_with_four_cards_may_give_in_turn_order():
    """MDS-25: eligible seats (four or more cards when the penalty applies) in turn order from
    the offender's next seat; each gives one card face down or declines."""
    s = _gift_penalty()
    assert s.pen_gifts == (2, 0) and mds.to_move(s) == 2      # seat 3 holds three cards
    acts = mds.legal_actions(s)
    assert {a.cards for a in acts} == {(c,) for c in s.hands[2]} | {()}
    assert all(a.kind == "GIFT" and a.target == 1 for a in acts)
    s = run(s, gift(s, 2, "9d"))
    assert hand(s, 1) == "5d 6d 9d" and hand(s, 2) == "8h 8d Td" and mds.to_move(s) == 0
    s = run(s, gift(s, 0))
    assert hand(s, 1) == "5d 6d 9d" and s.pen_seat == -1 and mds.to_move(s) == 3


def test_mds_25_a_gift_out_of_order_or_by_an_ineligible_seat_is_refused():
    """MDS-25: only the next eligible seat, to the offender, one card of its own hand."""
    s = _gift_penalty()
    assert rejected(s, gift(s, 0, "2s")).rule_id == "MDS-25"
    assert rejected(s, gift(s, 3, "2c")).rule_id == "MDS-25"
    assert rejected(s, gift(s, 2, "2s")).rule_id == "MDS-25"
    assert rejected(s, gift(s, 2, "8h")._replace(target=0)).rule_id == "MDS-25"
    assert rejected(s, gift(s, 2, "8h 8d")).rule_id == "MDS-25"
    assert rejected(s, play(s, 3, "7h")).rule_id == "MDS-25"
    t = run(s, gift(s, 2), lambda x: gift(x, 0))
    assert rejected(t, gift(t, 0, "2s")._replace(target=1)).rule_id == "MDS-25"


def test_mds_25_a_gift_is_seen_by_giver_and_receiver_only():
    """MDS-25 / MDS-41: a gift is face down; others learn that a gift was made."""
    s = _gift_penalty()
    e = gift(s, 2, "9d")
    assert [mds.cards_visible(e, k) for k in range(4)] == [False, True, True, False]
    t = mds.apply(s, e)
    v0 = mds.view(t, 0)
    assert v0["hands"][1] == 3 and v0["hands"][2] == 3 and "9d" not in str(v0)


def test_mds_25_no_eligible_seat_no_gift():
    """MDS-25: with nobody holding four cards the penalty gives nothing."""
    s = pos(["2s 3s 4s", "4h 5d 6d", "6h 8h 8d"], table=[(0, "5h")])
    s = run(s, play(s, 1, "4h"), lambda t: play(t, 2, "6h"))
    s, done = auto(s)
    assert kinds(done) == ["MISSED_REPORT", "ROUND_END"] and hand(s, 1) == "5d 6d"


# ---------------------------------------------------------------- MDS-26 one-card report

def test_mds_26_the_one_card_report_when_on():
    """MDS-26: on, a play leaving one card must be announced, same deadline and penalty."""
    opts = {"mds_one_card_report": True}
    s = pos(["2s 3s 4s", "4h 5d", "6h 8h 8d"], stock=STOCK, table=[(0, "5h")], options=opts)
    s = mds.apply(s, play(s, 1, "4h"))
    assert (s.report_seat, s.report_count) == (1, 1)
    assert report(s, 1, 1) in mds.legal_actions(s)
    t, done = auto(run(s, play(s, 2, "6h")))
    assert kinds(done)[:3] == ["MISSED_REPORT", "DRAW", "DRAW"]
    u = run(s, report(s, 1, 1), lambda x: play(x, 2, "6h"))
    assert u.missed == ()


def test_mds_26_the_one_card_report_when_off():
    """MDS-26: off (default), one card left owes nothing and REPORT 1 is refused."""
    s = pos(["2s 3s 4s", "4h 5d", "6h 8h 8d"], stock=STOCK, table=[(0, "5h")])
    s = mds.apply(s, play(s, 1, "4h"))
    assert s.report_seat == -1
    assert rejected(s, report(s, 1, 1)).rule_id == "MDS-26"


def test_mds_26_a_report_lapses_when_the_hand_changes_before_it():
    """MDS-26 / MDS-20 (docs reading): a violation leaving one card is punished at once; the
    drawn cards make the count to announce wrong, so the open report lapses."""
    opts = {"mds_one_card_report": True}
    s = pos(["2s 3s 4s", "RJ 5d", "6h 8h 8d"], stock=STOCK, table=[(0, "5h")], options=opts)
    s = mds.apply(s, play(s, 1, "RJ"))
    assert (s.report_seat, s.report_count) == (1, 1)
    s, done = auto(s)
    assert kinds(done) == ["MISSED_REPORT", "DRAW", "DRAW"] and s.report_seat == -1
    assert len(s.hands[1]) == 3


# ---------------------------------------------------------------- MDS-27 after going out

def test_mds_27_no_penalty_once_a_seat_has_gone_out():
    """MDS-27: a deadline ended by the winning card costs nothing; no report is due after."""
    s = pos(["2s 3s 4s", "4h 5d 6d", "6h", "7h 8d"], stock=STOCK, table=[(0, "5h")])
    s = run(s, play(s, 1, "4h"), lambda t: play(t, 2, "6h"))
    assert s.winner == 2 and s.missed == () and s.report_seat == -1
    assert mds.next_auto(s) is None and mds.to_move(s) == 3
    assert rejected(s, report(s, 1)).rule_id == "MDS-27"
    s, done = auto(run(s, play(s, 3, "7h")))
    assert kinds(done) == ["ROUND_END", "GAME_END"]


def test_mds_27_no_report_in_the_final_round():
    """MDS-27 / MDS-34: a final-round play leaving two cards owes no report."""
    s = pos(["2s 3s 4s", "", "4h 5h 6d"], stock=STOCK, table=[(0, "9h"), (1, "6h")],
            winner=1)
    s = mds.apply(s, play(s, 2, "4h"))
    assert s.report_seat == -1 and s.missed == ()
    assert mds.next_auto(s) == "ROUND_END"
