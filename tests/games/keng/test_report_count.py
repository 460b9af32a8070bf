"""The last-card report (KENG-33) and counting a hand (KENG-41, renewal by KENG-45)."""

from __future__ import annotations

import random

from engine.cards import parse_face, parse_faces
from engine.games import keng

from .conftest import (
    accept,
    cards_of,
    count,
    draw,
    duel_play,
    ev,
    kinds,
    owed,
    play,
    pos,
    rejected,
    run,
    settle,
    snatch,
    started,
)


def one_left(hands: dict[int, str] | None = None, card: str = "7h", **kw):
    """Seat 0 has just played ``card`` on 5h and holds one card, not yet reported."""
    s = pos({0: f"{card} 2c", **(hands or {})}, top="5h", to_act=0, **kw)
    s = run(s, play(s, 0, card))
    assert s.report_seat == 0 and len(s.hands[0]) == 1
    return s


# ---------------------------------------------------------------- KENG-33

def test_keng_33_report_in_time_no_penalty():
    """KENG-33: Report in time no penalty."""
    s = one_left()
    s = run(s, ev(s, "LAST_CARD", 0))
    assert s.report_seat == -1
    s = run(s, draw(s, 1))
    assert owed(s) is None and len(s.hands[0]) == 1


def test_keng_33_forgotten_report_draw_two_after_the_next_turn_draw():
    """KENG-33: Forgotten report draw two after the next turn draw."""
    s = one_left(stock="2s 3s Kd 9c 4d")
    s = run(s, draw(s, 1))
    assert owed(s) == "REPORT_PENALTY"
    assert rejected(s, ev(s, "LAST_CARD", 0)).rule_id == "KENG-33"   # too late
    assert rejected(s, count(s, 2, 5)).rule_id == "KENG-33"          # penalty owed first
    pen = keng.auto_event(s)
    assert (pen.seat, pen.value, pen.cards) == (0, 2, parse_faces("Kd 9c"))
    assert rejected(s, pen._replace(value=1, cards=s.stock[:1])).rule_id == "KENG-33"
    s = keng.apply(s, pen)
    assert s.hands[0] == cards_of("2c Kd 9c") and s.report_seat == -1
    assert s.hands[1] == cards_of("2c 3d 4s 6c 2s 3s")


def test_keng_33_deadline_by_a_play_an_acceptance_a_snatch_or_a_duel_play():
    """KENG-33: Deadline by a play an acceptance a snatch or a duel play."""
    s = one_left({1: "9h 2d 3d"})
    assert kinds(settle(run(s, play(s, 1, "9h")))[1]) == ["REPORT_PENALTY"]
    s = one_left(card="Kh")
    assert kinds(settle(run(s, accept(s, 1)))[1]) == ["REPORT_PENALTY"]
    s = one_left({3: "7h 4s 6s"}, cycle=2)
    assert kinds(settle(run(s, snatch(s, 3, "7h", "valid")))[1]) == ["REPORT_PENALTY"]
    s = one_left({3: "5h 9d 2d"}, card="Ah", stock="2s 3s 4s 6s 7s 8s")
    s, done = settle(s)
    assert kinds(done) == ["DUEL_START"]
    s, done = settle(run(s, duel_play(s, 3, "5h")))
    assert kinds(done) == ["REPORT_PENALTY", "DUEL_END"]


def test_keng_33_duel_loser_draw_does_not_end_the_deadline():
    """KENG-33: Duel loser draw does not end the deadline."""
    s = one_left({3: "9d 2d 4c"}, card="Ah")
    s, done = settle(s)
    assert kinds(done) == ["DUEL_START", "DUEL_END"]     # defender loses, draws the A
    assert s.report_seat == 0 and s.penalty_due is None
    s = run(s, ev(s, "LAST_CARD", 0))                     # still in time
    assert s.report_seat == -1


def test_keng_33_penalty_draws_counts_claims_and_own_actions_do_not_end_it():
    """KENG-33: Penalty draws counts claims and own actions do not end it."""
    s = one_left({3: "4s 6s 9c"}, cycle=2)
    s, done = settle(run(s, keng.claim(s, 3, None)))      # false claim -> SNATCH_PENALTY
    assert kinds(done) == ["SNATCH_PENALTY"]
    s = run(s, count(s, 2, 5), lambda t: count(t, 0, 1))
    s, done = settle(run(s, keng.claim(s, 5, parse_face("7d"))))   # another false claim
    assert kinds(done) == ["SNATCH_PENALTY"]
    assert s.report_seat == 0 and s.penalty_due is None
    assert run(s, ev(s, "LAST_CARD", 0)).report_seat == -1


def test_keng_33_continued_draw_ends_the_deadline_once():
    """KENG-33: Continued draw ends the deadline once."""
    s = one_left(stock="2s", table="2h 3h 4h")
    s, done = settle(run(s, draw(s, 1)), random.Random(3))
    assert kinds(done) == ["RESHUFFLE", "DRAW", "REPORT_PENALTY"]
    assert done[1].tag == "continued" and done[1].value == 1
    # seat 1 drew 2s, then one card of the reshuffled 2h 3h 4h 5h; seat 0 drew two of them
    assert len(s.hands[1]) == 6 and len(s.hands[0]) == 3
    assert len(s.stock) == 1 and s.cycle == 2 and owed(s) is None


def test_keng_33_no_report_without_obligation():
    """KENG-33: No report without obligation."""
    s = pos({0: "9h"}, top="5h")
    assert rejected(s, ev(s, "LAST_CARD", 0)).rule_id == "KENG-33"
    s = one_left()
    assert rejected(s, ev(s, "LAST_CARD", 1)).rule_id == "KENG-33"


def test_keng_33_going_out_brings_no_penalty():
    """KENG-33: Going out brings no penalty."""
    s = one_left({1: "9h"})
    s, done = settle(run(s, play(s, 1, "9h")))
    assert kinds(done) == ["GAME_END"]
    assert s.result["deciding_seat"] == 1 and len(s.hands[0]) == 1


def test_keng_33_snatch_to_one_card_opens_an_obligation():
    """KENG-33: Snatch to one card opens an obligation."""
    s = pos({0: "7h 2c 3c", 3: "7h 4s"}, top="5h", to_act=0, cycle=2)
    s = run(s, play(s, 0, "7h"), lambda t: snatch(t, 3, "7h", "valid"))
    assert s.report_seat == 3
    assert [a.seat for a in keng.out_of_turn_actions(s) if a.kind == "LAST_CARD"] == [3]


# ---------------------------------------------------------------- KENG-41

def test_keng_41_count_reports_the_true_size_of_an_opponent():
    """KENG-41: Count reports the true size of an opponent."""
    s = pos({5: "2h 3h 4h 6h 7h 8h 9h"}, top="5h")
    after = run(s, count(s, 2, 5))
    assert after.count_used[2]
    assert rejected(s, count(s, 2, 5, value=6)).rule_id == "KENG-41"
    assert rejected(s, count(s, 2, 4)).rule_id == "KENG-41"          # own team
    assert rejected(s, count(s, 2, 2)).rule_id == "KENG-41"
    assert rejected(s, ev(s, "COUNT", 2, target=7, value=4)).rule_id == "KENG-41"


def test_keng_41_one_right_per_cycle_renewed_at_the_reshuffle():
    """KENG-41/KENG-45: a count right is used up for the cycle, each new cycle renews it, and
    unused rights do not accumulate."""
    s = pos(top="5h", stock="2s", table="2h 3h 4h")
    s = run(s, count(s, 2, 5))
    assert rejected(s, count(s, 2, 3)).rule_id == "KENG-41"
    s, done = settle(run(s, draw(s, 0)), random.Random(1))
    assert kinds(done) == ["RESHUFFLE", "DRAW"] and s.cycle == 2
    assert s.count_used == (False,) * 6
    s = run(s, count(s, 2, 3))
    assert rejected(s, count(s, 2, 5)).rule_id == "KENG-41"
    s = run(s, count(s, 1, 0))                                     # seat 1 unused: still one
    assert rejected(s, count(s, 1, 2)).rule_id == "KENG-41"


def test_keng_41_count_any_time_changes_nothing_else():
    """KENG-41: Count any time changes nothing else."""
    s = pos({0: "7h 2c", 3: "7h 4s 6s"}, top="5h", to_act=0, cycle=2)
    s = run(s, play(s, 0, "7h"))
    before = keng.to_position(s)
    after = run(s, count(s, 3, 0))                                  # out of turn
    a = keng.to_position(after)
    assert a.pop("count_used") != before.pop("count_used")
    a.pop("seq")
    before.pop("seq")
    assert a == before                                              # window, deadline, turn
    # also during a duel
    d = pos({0: "Ah 2c 3c", 3: "5h 9d 2d"}, top="5h", to_act=0)
    d, _ = settle(run(d, play(d, 0, "Ah")))
    assert d.duel is not None
    assert run(d, count(d, 4, 3)).duel == d.duel


def test_keng_41_count_also_before_the_start_card():
    """KENG-41: "at any moment of the game" includes the moment between the deal and the start
    card; turn actions still wait for the start card (KENG-9)."""
    s = started(4)
    seat = (s.opener + 1) % 6
    target = (seat + 1) % 6
    after = run(s, count(s, seat, target))
    assert after.count_used[seat] and after.phase == "start"
    assert rejected(s, count(s, seat, target, value=8)).rule_id == "KENG-41"
    assert rejected(s, draw(s, (s.opener + 3) % 6)).rule_id == "KENG-9"
    claim = keng.claim(s, seat, s.hands[seat][0])
    assert claim.tag == "void"                       # KENG-38 case 1: cycle 1
    assert run(s, claim).seq == s.seq + 1


def test_keng_33_report_needs_exactly_one_card_in_hand():
    """KENG-33: LAST_CARD is for a seat holding one card; a seat whose obligation is open but
    which drew a penalty card (false claim) cannot report it and is penalised at the deadline."""
    s = one_left(cycle=2, stock="Kd 2s 3s 4s 6s 7s")
    s, done = settle(run(s, keng.claim(s, 0, None)))
    assert kinds(done) == ["SNATCH_PENALTY"] and len(s.hands[0]) == 2
    assert rejected(s, ev(s, "LAST_CARD", 0)).rule_id == "KENG-33"
    s, done = settle(run(s, draw(s, 1)))
    assert kinds(done) == ["REPORT_PENALTY"] and len(s.hands[0]) == 4
