"""抢 (snatching) of keng.md: KENG-34 to KENG-40 and the cycle rules of KENG-45."""

from __future__ import annotations

import pytest

from engine.cards import parse_face
from engine.errors import InvalidEvent
from engine.events import Event
from engine.games import keng

from .conftest import (
    accept,
    cards_of,
    count,
    draw,
    duel_play,
    ev,
    owed,
    pass_,
    play,
    pos,
    rejected,
    run,
    settle,
    snatch,
)


def window(hands: dict[int, str], card: str = "7h", player: int = 0, cycle: int = 2,
           top: str = "5h", suit: str | None = None, **kw):
    """Seat ``player`` has just played ``card`` on ``top`` in cycle ``cycle``."""
    hs = {player: f"{card} 2c 3c", **hands}
    s = pos(hs, top=top, to_act=player, cycle=cycle, window=False, **kw)
    return run(s, play(s, player, card, suit))


def same_but_seq(a, b) -> bool:
    pa, pb = keng.to_position(a), keng.to_position(b)
    pa.pop("seq")
    pb.pop("seq")
    return pa == pb


# ---------------------------------------------------------------- KENG-34

def test_keng_34_any_seat_holding_the_identical_card_snatches_out_of_turn():
    """KENG-34: Any seat holding the identical card snatches out of turn."""
    s = window({3: "7h 4s 6s", 2: "7h 4c 6d"})
    assert (s.to_act, s.window) == (1, True)
    listed = [(a.seat, a.cards) for a in keng.out_of_turn_actions(s) if a.kind == "SNATCH"]
    assert sorted(listed) == [(2, cards_of("7h")), (3, cards_of("7h"))]
    for seat in (2, 3):
        after = run(s, snatch(s, seat, "7h", "valid"))
        assert (after.top, after.top_seat, after.to_act) == (cards_of("7h"), seat, seat + 1)
        assert len(after.hands[seat]) == 2
        assert rejected(after, draw(after, 1)).rule_id == "KENG-35"   # seat 1 lost its turn


def test_keng_34_snatching_starts_in_cycle_2():
    """KENG-34: Snatching starts in cycle 2."""
    s = window({3: "7h 4s 6s"}, cycle=1)
    assert not s.window
    assert keng.claim(s, 3, parse_face("7h")).tag == "void"
    assert rejected(s, snatch(s, 3, "7h", "valid")).rule_id == "KENG-34"


# ---------------------------------------------------------------- KENG-35 effects

def test_keng_35_snatched_k_after_acceptance_makes_the_snatchers_next_draw_two():
    """KENG-35: Snatched K after acceptance makes the snatcher's next draw two."""
    s = window({1: "2d 3d", 4: "Kh 4c 6c"}, card="Kh", stock="2s 3s 4s 6s")
    assert (s.pending, s.to_act) == (2, 1)
    s = run(s, accept(s, 1))
    assert s.hands[1] == cards_of("2d 3d 2s 3s") and s.window     # a draw leaves it open
    s = run(s, snatch(s, 4, "Kh", "valid"))
    assert (s.pending, s.to_act, s.top_seat) == (2, 5, 4)
    assert s.hands[1] == cards_of("2d 3d 2s 3s")                  # seat 1 keeps its cards
    assert rejected(s, play(s, 1, "2d")).rule_id == "KENG-24"


def test_keng_35_snatched_k_before_acceptance_stacks():
    """KENG-35: Snatched K before acceptance stacks."""
    s = window({4: "Kh 4c 6c"}, card="Kh")
    s = run(s, snatch(s, 4, "Kh", "valid"))
    assert (s.pending, s.to_act) == (4, 5)


def test_keng_35_snatched_q_skips_the_snatchers_next():
    """KENG-35: Snatched Q skips the snatcher's next."""
    s = window({4: "Qh 4c 6c"}, card="Qh")
    assert s.to_act == 2
    s = run(s, snatch(s, 4, "Qh", "valid"))
    assert s.to_act == 0
    assert rejected(s, draw(s, 5)).rule_id == "KENG-23"


def test_keng_35_snatched_j_reverses_again_from_the_snatcher():
    """KENG-35: Snatched J reverses again from the snatcher."""
    s = window({3: "Jh 4c 6c"}, card="Jh")
    assert (s.direction, s.to_act) == (-1, 5)
    s = run(s, snatch(s, 3, "Jh", "valid"))
    assert (s.direction, s.to_act) == (1, 4)


def test_keng_35_seat_that_drew_two_loses_its_turn_and_keeps_the_cards():
    """KENG-35: Seat that drew two loses its turn and keeps the cards."""
    s = window({3: "7h 4s 6s"}, stock="2s 3s 4s")
    s = run(s, draw(s, 1))
    assert s.drawn and len(s.hands[1]) == 6
    s = run(s, snatch(s, 3, "7h", "valid"))
    assert (s.to_act, s.drawn, len(s.hands[1])) == (4, False, 6)


# ---------------------------------------------------------------- KENG-36 window

def test_keng_36_plays_in_cycle_1_open_no_window():
    """KENG-36: Plays in cycle 1 open no window."""
    assert not window({}, cycle=1).window
    assert window({}, cycle=2).window
    assert window({}, cycle=3).window


def test_keng_36_pass_by_the_seat_due_closes_the_window():
    """KENG-36: Pass by the seat due closes the window."""
    s = window({3: "7h 4s 6s"}, stock="2s 3s 4s")
    s = run(s, draw(s, 1))
    assert s.window and keng.claim(s, 3, parse_face("7h")).tag == "valid"
    s = run(s, pass_(s, 1))
    assert not s.window
    claim = keng.claim(s, 3, parse_face("7h"))
    assert claim.tag == "void"                                     # late (KENG-38 case 4)
    after = run(s, claim)
    assert after.hands[3] == cards_of("7h 4s 6s")
    assert rejected(s, snatch(s, 3, "7h", "valid")).rule_id == "KENG-36"


def test_keng_36_next_play_closes_it_only_the_top_play_can_be_snatched():
    """KENG-36: Next play closes it only the top play can be snatched."""
    s = window({1: "9h 2d 3d", 3: "7h 4s 6s"})
    s = run(s, play(s, 1, "9h"))
    assert s.covered == cards_of("7h")
    assert keng.claim(s, 3, parse_face("7h")).tag == "void"


def test_keng_36_draws_counts_and_reports_leave_the_window_open():
    """KENG-36: Draws counts and reports leave the window open."""
    s = window({0: "7h 2c", 3: "7h 4s 6s"})
    assert s.report_seat == 0
    s = run(s, ev(s, "LAST_CARD", 0))
    s = run(s, count(s, 2, 5))
    s = run(s, draw(s, 1))
    assert s.window
    assert run(s, snatch(s, 3, "7h", "valid")).top_seat == 3
    # a penalty draw leaves it open too
    s = window({0: "7h 2c", 3: "7h 4s 6s"})
    s, done = settle(run(s, draw(s, 1)))
    assert [e.kind for e in done] == ["REPORT_PENALTY"]
    assert s.window
    assert run(s, snatch(s, 3, "7h", "valid")).top_seat == 3


def test_keng_36_end_of_the_duel_closes_the_window():
    """KENG-36: End of the duel closes the window."""
    s = pos({0: "Ah 5s 2c", 3: "5h 9d 2d", 2: "5h 5s 4c"}, top="5h", to_act=0, cycle=2)
    s, _ = settle(run(s, play(s, 0, "Ah")))
    s = run(s, duel_play(s, 3, "5h"))
    assert s.window and keng.claim(s, 2, parse_face("5h")).tag == "false"   # a duel card
    s = run(s, duel_play(s, 0, "5s"))
    s, done = settle(s)
    assert [e.kind for e in done] == ["DUEL_END"]
    assert not s.window
    assert keng.claim(s, 2, parse_face("5s")).tag == "void"        # late, not false


# ---------------------------------------------------------------- KENG-37 validity

def test_keng_37_seat_due_to_act_does_not_snatch():
    """KENG-37: Seat due to act does not snatch."""
    s = window({1: "7h 2d 3d"})
    for tag in ("valid", "false", "void"):
        assert rejected(s, snatch(s, 1, "7h", tag)).rule_id == "KENG-37"
    assert run(s, play(s, 1, "7h")).top_seat == 1                  # its turn play instead


def test_keng_37_duellist_to_act_does_not_snatch():
    """KENG-37: Duellist to act does not snatch."""
    s = pos({0: "Ah 2c 3c", 3: "5h 9d"}, top="5h", to_act=0, cycle=2)
    s, _ = settle(run(s, play(s, 0, "Ah")))
    assert rejected(s, snatch(s, 3, None, "false")).rule_id == "KENG-37"


def test_keng_37_own_play_cannot_be_snatched():
    """KENG-37: Own play cannot be snatched."""
    s = window({0: "7h 7h 2c"})
    assert keng.claim(s, 0, parse_face("7h")).tag == "false"
    assert rejected(s, snatch(s, 0, "7h", "valid")).rule_id == "KENG-37"


def test_keng_37_card_must_be_identical():
    """KENG-37: Card must be identical."""
    s = window({3: "7d 7s 9h"})
    for card in ("7d", "7s", "9h"):
        assert keng.claim(s, 3, parse_face(card)).tag == "false"
    assert rejected(s, snatch(s, 3, "7d", "valid")).rule_id == "KENG-37"


def test_keng_37_exactly_one_card():
    """KENG-37: Exactly one card."""
    s = window({3: "7h 7h 6s"})
    with pytest.raises(InvalidEvent):
        keng.apply(s, snatch(s, 3, "7h 7h", "valid"))


def test_keng_37_forbidden_case_1_duel_cards_including_the_starting_a():
    """KENG-37: Forbidden case 1 duel cards including the starting A."""
    s = pos({0: "Ah 2c 3c", 3: "5h 9d 2d", 2: "Ah 5h 4c"}, top="5h", to_act=0, cycle=2)
    s, _ = settle(run(s, play(s, 0, "Ah")))
    assert s.window and s.top_duel
    assert keng.claim(s, 2, parse_face("Ah")).tag == "false"
    assert rejected(s, snatch(s, 2, "Ah", "valid")).rule_id == "KENG-37"
    s = run(s, duel_play(s, 3, "5h"))
    assert keng.claim(s, 2, parse_face("5h")).tag == "false"


@pytest.mark.parametrize("joker", ["BJ", "RJ"])
def test_keng_37_forbidden_case_2_joker_plays(joker):
    """KENG-37: Forbidden case 2 joker plays."""
    s = window({3: f"{joker} 4s 6s"}, card=joker, suit="h")
    assert s.window
    assert keng.claim(s, 3, parse_face(joker)).tag == "false"
    assert rejected(s, snatch(s, 3, joker, "valid")).rule_id == "KENG-37"


def test_keng_37_forbidden_case_3_last_card_before_cycle_3():
    """KENG-37 case 3 and KENG-45: with one card a seat may snatch only from cycle 3 on, and
    then goes out (KENG-46)."""
    s = window({3: "7h"}, cycle=2)
    assert keng.claim(s, 3, parse_face("7h")).tag == "false"
    assert rejected(s, snatch(s, 3, "7h", "valid")).rule_id == "KENG-37"
    s = window({3: "7h"}, cycle=3)
    s, done = settle(run(s, snatch(s, 3, "7h", "valid")))
    assert [e.kind for e in done] == ["GAME_END"]
    assert s.result["deciding_seat"] == 3 and s.result["winning_team"] == "odd"


def test_keng_37_snatching_one_card_of_a_pair():
    """KENG-37: Snatching one card of a pair."""
    s = window({0: "9h 9h 2c", 3: "9h 4s 6s"}, card="9h 9h")
    assert s.top == cards_of("9h 9h")
    s = run(s, snatch(s, 3, "9h", "valid"))
    assert (s.top, s.top_seat, s.to_act) == (cards_of("9h"), 3, 4)


# ---------------------------------------------------------------- KENG-38 judging

def test_keng_38_case_1_void_in_cycle_1_before_anything_else():
    """KENG-38: Case 1 void in cycle 1 before anything else."""
    banned = [False, False, False, True, False, False]
    s = window({3: "7h 4s 6s"}, cycle=1, banned=banned)
    for card in ("7h", None, "4s"):
        claim = keng.claim(s, 3, None if card is None else parse_face(card))
        assert claim.tag == "void"
        assert same_but_seq(s, run(s, claim))
    assert rejected(s, snatch(s, 3, None, "false")).rule_id == "KENG-38"
    assert rejected(s, snatch(s, 3, None, "refused")).rule_id == "KENG-38"


def test_keng_38_case_2_banned_seat_refused_without_penalty():
    """KENG-38: Case 2 banned seat refused without penalty."""
    banned = [False, False, False, True, False, False]
    s = window({3: "7h 4s 6s"}, banned=banned)
    for card in ("7h", None, "4s"):
        claim = keng.claim(s, 3, None if card is None else parse_face(card))
        assert claim.tag == "refused"
        after = run(s, claim)
        assert same_but_seq(s, after) and owed(after) is None
    assert rejected(s, snatch(s, 3, "7h", "valid")).rule_id == "KENG-39"


def test_keng_38_case_4_late_claims_are_void_and_the_card_stays():
    """KENG-38: Case 4 late claims are void and the card stays."""
    s = window({1: "9h 2d 3d", 3: "7h 9h 6s"})
    s = run(s, play(s, 1, "9h"))             # 7h is now the covered play
    claim = keng.claim(s, 3, parse_face("7h"))
    assert claim.tag == "void"
    after = run(s, claim)
    assert same_but_seq(s, after) and after.hands[3] == cards_of("7h 9h 6s")
    assert keng.claim(s, 3, parse_face("9h")).tag == "valid"


@pytest.mark.parametrize("card", [None, "4s", "9h"])
def test_keng_38_case_5_false_call_draws_one_and_bans(card):
    """KENG-38: Case 5 false call draws one and bans."""
    s = window({3: "4s 6s 9h", 0: "7h 2c"}, stock="Kd 2h 3h")
    assert s.report_seat == 0
    claim = keng.claim(s, 3, None if card is None else parse_face(card))
    assert claim.tag == "false"
    assert rejected(s, claim._replace(tag="void")).rule_id == "KENG-38"
    s = run(s, claim)
    assert owed(s) == "SNATCH_PENALTY"
    assert rejected(s, draw(s, 1)).rule_id == "KENG-38"       # owed first
    pen = keng.auto_event(s)
    assert (pen.seat, pen.value, pen.cards) == (3, 1, cards_of("Kd"))
    assert rejected(s, pen._replace(value=2, cards=s.stock[:2])).rule_id == "KENG-38"
    assert rejected(s, pen._replace(seat=4)).rule_id == "KENG-38"
    s = keng.apply(s, pen)
    assert s.hands[3] == cards_of("4s 6s 9h Kd") and s.banned[3]
    # a false claim closes neither the window nor the report deadline
    assert s.window and s.report_seat == 0
    assert owed(s) is None


def test_keng_38_wrong_recorded_outcome_is_rejected():
    """KENG-38: Wrong recorded outcome is rejected."""
    s = window({3: "7h 4s 6s"})
    for tag in ("void", "refused", "false", "", "won"):
        assert rejected(s, snatch(s, 3, "7h", tag)).rule_id == "KENG-38"
    assert run(s, snatch(s, 3, "7h", "valid")).top_seat == 3


# ---------------------------------------------------------------- KENG-39 ban

BAN3 = [False, False, False, True, False, False]


def test_keng_39_ban_ends_with_the_first_window_it_could_have_snatched():
    """KENG-39: Ban ends with the first window it could have snatched."""
    s = window({3: "7h 4s 6s", 1: "9h 2d 3d"}, banned=BAN3)
    assert s.ban_armed[3]
    assert keng.claim(s, 3, parse_face("7h")).tag == "refused"
    s = run(s, play(s, 1, "9h"))
    assert owed(s) == "BAN_END"
    e = keng.auto_event(s)
    assert e.seat == 3
    assert rejected(s, e._replace(seat=2)).rule_id == "KENG-39"
    assert rejected(s, draw(s, 2)).rule_id == "KENG-39"
    s = keng.apply(s, e)
    assert not s.banned[3] and owed(s) is None


def test_keng_39_ban_end_comes_before_the_report_penalty():
    """KENG-39: Ban end comes before the report penalty."""
    s = window({0: "7h 2c", 3: "7h 4s 6s", 1: "9h 2d 3d"}, banned=BAN3)
    s, done = settle(run(s, play(s, 1, "9h")))
    assert [e.kind for e in done] == ["BAN_END", "REPORT_PENALTY"]


@pytest.mark.parametrize("case", ["not_held", "due_to_act", "joker", "one_card"])
def test_keng_39_windows_it_could_not_have_snatched_do_not_end_the_ban(case):
    """KENG-39: Windows it could not have snatched do not end the ban."""
    seat = 3
    if case == "not_held":
        s = window({3: "4s 6s 8c", 1: "9h 2d 3d"}, banned=BAN3)
        closer = (1, "9h")
    elif case == "due_to_act":
        s = window({3: "7h 4s 6s"}, player=2, banned=BAN3)
        closer = (3, "7h")
    elif case == "joker":
        s = window({3: "BJ 4s 6s", 1: "9h 2d 3d"}, card="BJ", suit="h", banned=BAN3)
        closer = (1, "9h")
    else:
        s = window({3: "7h", 1: "9h 2d 3d"}, banned=BAN3)
        closer = (1, "9h")
    assert not s.ban_armed[seat]
    s = run(s, play(s, *closer))
    assert owed(s) is None and s.banned[seat]


def test_keng_39_window_open_when_the_ban_began_does_not_end_it():
    """KENG-39: Window open when the ban began does not end it."""
    s = window({3: "4s 6s 8c", 1: "9h 2d 3d"}, stock="7h 2s 3s")
    s, done = settle(run(s, keng.claim(s, 3, None)))
    assert [e.kind for e in done] == ["SNATCH_PENALTY"]
    assert s.banned[3] and s.hands[3] == cards_of("4s 6s 8c 7h")   # now holds 7h
    s = run(s, play(s, 1, "9h"))
    assert owed(s) is None and s.banned[3]


def test_keng_39_ban_end_not_due_is_rejected():
    """KENG-39: Ban end not due is rejected."""
    s = pos(top="5h", banned=BAN3)
    assert rejected(s, ev(s, "BAN_END", 3)).rule_id == "KENG-39"


# ---------------------------------------------------------------- KENG-40 several claims

def test_keng_40_a_later_claim_snatches_the_snatch():
    """KENG-40: A later claim snatches the snatch."""
    s = window({0: "7h 7h 2c", 3: "7h 7h 6s", 5: "7h 4c 6c", 1: "7h 2d"})
    s = run(s, snatch(s, 3, "7h", "valid"))
    assert (s.top_seat, s.to_act) == (3, 4)
    # its own play now, but identical to the covered play: case 4 (void) precedes case 5
    assert keng.claim(s, 3, parse_face("7h")).tag == "void"
    assert keng.claim(s, 1, parse_face("7h")).tag == "valid"     # no longer due to act
    assert keng.claim(s, 0, parse_face("7h")).tag == "valid"     # the first player, too
    s = run(s, snatch(s, 5, "7h", "valid"))
    assert (s.top_seat, s.to_act, s.covered) == (5, 0, cards_of("7h"))
    assert rejected(s, snatch(s, 0, "7h", "valid")).rule_id == "KENG-37"   # 0 is due now
    s = run(s, snatch(s, 3, "7h", "valid"))
    assert (s.top_seat, s.to_act, len(s.hands[3])) == (3, 4, 1)


def test_keng_40_claims_collected_together_are_ordered_from_the_seat_after_the_player():
    """KENG-40: claims collected together are ordered starting with the seat after the player
    of the top play, in direction d; each is then judged in turn, so the first valid one
    snatches and a later one with another identical card snatches the snatch."""
    s = pos({1: "7h 2c", 3: "7h 4d", 5: "7h 5d"}, top="7h", by=2, to_act=3, cycle=2,
            window=True)
    s = s.copy()
    s.direction = -1                      # after seat 2, in direction -1: 1, 0, 5, 4, 3
    claims = [Event("SNATCH", seat=seat, cards=cards_of("7h"), game_id=s.game_id)
              for seat in (5, 1)]
    ordered = keng.order_claims(s, claims)
    assert [c.seat for c in ordered] == [1, 5]
    assert [c.seq for c in ordered] == [s.seq, s.seq + 1]
    s.direction = 1                       # after seat 2, in direction +1: 3, 4, 5, 0, 1
    assert [c.seat for c in keng.order_claims(s, claims)] == [5, 1]
    # judged one at a time against the top play at that moment: seat 5 snatches, seat 1
    # snatches seat 5's snatch
    for c in keng.order_claims(s, claims):
        c = c._replace(seq=s.seq, tag=keng.claim(s, c.seat, c.cards[0]).tag)
        assert c.tag == "valid"
        s = keng.apply(s, c)
    assert s.top_seat == 1 and s.to_act == 2
