"""GJ-26 让牌 (yield): who may yield, the order after a yield, what a yield does not do."""

from __future__ import annotations

from .conftest import act, apply_play, dealt, do, illegal, play, pos
from .late_helpers import action_kinds, fs, mask

# Seat 0 led 5s 5h; seats 1 and 2 passed (locked); seat 3, its opposite, is to act.
HANDS = ["Ks 9d", "Kc 9c", "Kh 9h", "7s 7h Qs", "6s 6h Qh RJ", "8s 8h Qc"]


def base(**changes):
    kw = dict(hands=HANDS, top=("5s 5h", 0), passed=[1, 2], to_act=3, last=2)
    kw.update(changes)
    return pos(**kw)


def test_gj26_yield_lets_the_two_next_seats_act_first_then_the_yielder():
    """GJ-26: after 3 yields on its opposite's play, seats 4 and 5 act, then 3 again; the
    yield itself locks nobody and is no derived event."""
    s, derived = do(base(), "RANG", 3)
    assert derived == []
    assert (s.to_act, s.rang_seat, s.rang_wait) == (4, 3, (4, 5))
    assert s.passed == mask(1, 2)                      # 3 is not locked by yielding
    s, _ = do(s, "PASS", 4)
    assert s.to_act == 5
    s, _ = do(s, "PASS", 5)
    assert s.to_act == 3 and s.passed == mask(1, 2, 4, 5)
    # the yielder must now answer or pass: no second yield on the same play
    assert action_kinds(s) == {"PLAY", "PASS"}
    illegal(s, act(s, "RANG", 3), "GJ-26")
    s, derived = do(s, "PASS", 3)
    assert fs(derived) == [("ROUND_END", 0, 0, 0, "passes")]


def test_gj26_yield_only_on_the_opposites_play():
    """GJ-26: a player may yield only if the top play was made by his opposite."""
    s = pos(hands=HANDS, top=("5s 5h", 1), passed=[2], to_act=3, last=2)
    illegal(s, act(s, "RANG", 3), "GJ-26")
    assert "RANG" not in action_kinds(s)
    assert "RANG" in action_kinds(base())


def test_gj26_leader_may_not_yield():
    """GJ-26 with GJ-21: there is no yield on a lead (no top play)."""
    s = pos(hands=HANDS, to_act=3, last=3)
    illegal(s, act(s, "RANG", 3), "GJ-21")


def test_gj26_no_yield_when_neither_next_seat_can_act():
    """GJ-26 (completion): no yield if neither next(D) nor next(next(D)) is a responder —
    both locked, or one out and the other locked."""
    s = base(passed=[1, 2, 4, 5])
    illegal(s, act(s, "RANG", 3), "GJ-26")
    assert action_kinds(s) == {"PLAY", "PASS"}
    s = base(passed=[1, 2, 5], out={4: (1, "finished")},
             hands=HANDS[:4] + [""] + HANDS[5:])
    illegal(s, act(s, "RANG", 3), "GJ-26")


def test_gj26_a_locked_next_seat_is_skipped_not_replaced():
    """GJ-26: a locked seat among the two is skipped, and no later seat takes its place: only
    seat 5 acts before the yielder."""
    s, _ = do(base(passed=[1, 2, 4]), "RANG", 3)
    assert (s.to_act, s.rang_wait) == (5, (5,))
    s, _ = do(s, "PASS", 5)
    assert s.to_act == 3


def test_gj26_an_out_next_seat_is_skipped():
    """GJ-26: an out seat among the two is skipped: seat 4 is out, seat 5 acts, then 3."""
    s = base(out={4: (1, "finished")}, hands=HANDS[:4] + [""] + HANDS[5:])
    s, _ = do(s, "RANG", 3)
    assert s.to_act == 5
    s, _ = do(s, "PASS", 5)
    assert s.to_act == 3


def test_gj26_new_play_by_a_next_seat_then_the_yielder_acts_in_its_deferred_place():
    """GJ-26: seat 4 answers during the yield; 5 passes; the yielder 3, not having passed, is
    a responder of 4's play and acts now; after 3's play the turn continues after
    next(next(3)) = 5, i.e. with seat 0 — not with 4, the seat right after 3."""
    s, _ = do(base(), "RANG", 3)
    s, derived = apply_play(s, 4, "6s 6h")
    assert derived == [] and s.to_act == 5
    s, _ = do(s, "PASS", 5)
    assert s.to_act == 3 and s.top_seat == 4
    s, _ = apply_play(s, 3, "7s 7h")
    assert s.to_act == 0 and s.rang_seat == -1
    s, _ = do(s, "PASS", 0)
    assert s.to_act == 4
    s, derived = do(s, "PASS", 4)
    assert fs(derived) == [("ROUND_END", 3, 3, 0, "passes")]


def test_gj26_after_the_yielder_passes_the_turn_goes_on_after_next_next():
    """GJ-26: whatever D does, the turn continues with the first responder after
    next(next(D)): seat 4 played, 5 and then 3 pass, so seat 0 acts."""
    s, _ = do(base(), "RANG", 3)
    s, _ = apply_play(s, 4, "6s 6h")
    s, _ = do(s, "PASS", 5)
    s, _ = do(s, "PASS", 3)
    assert s.to_act == 0
    s, derived = do(s, "PASS", 0)
    assert fs(derived) == [("ROUND_END", 4, 4, 0, "passes")]


def test_gj26_big_joker_during_the_yield_ends_the_round_at_once():
    """GJ-26 with GJ-15: a play with an RJ by one of the two ends the round at once; the
    yielder does not act."""
    s, _ = do(base(), "RANG", 3)
    s, derived = apply_play(s, 4, "Qh RJ")
    assert fs(derived) == [("ROUND_END", 4, 4, 0, "big_joker")]
    assert (s.to_act, s.top_seat, s.rang_seat, s.passed) == (4, -1, -1, 0)


def test_gj26_direction_minus_one_the_next_seats_are_2_and_1():
    """GJ-26 with GJ-5: for d = −1 the two seats after 3 are 2 and 1."""
    b = dealt(direction=-1)
    s = pos(b, hands=HANDS, top=("5s 5h", 0), passed=[5, 4], to_act=3, last=4)
    s, _ = do(s, "RANG", 3)
    assert (s.to_act, s.rang_wait) == (2, (2, 1))
    s, _ = do(s, "PASS", 2)
    assert s.to_act == 1
    s, _ = do(s, "PASS", 1)
    assert s.to_act == 3


def test_gj26_direction_minus_one_turn_goes_on_after_seat_1():
    """GJ-26 with GJ-5: d = −1; seat 2 answers during 3's yield, 1 and 3 pass, and the turn
    continues after next(next(3)) = 1, with seat 0 (not with seat 2's successor order)."""
    b = dealt(direction=-1)
    hands = ["Ks 9d", "Kc 9c", "6s 6h Kh", "7s 7h Qs", "Qh 9s", "8s 8h Qc"]
    s = pos(b, hands=hands, top=("5s 5h", 0), passed=[5, 4], to_act=3, last=4)
    s, _ = do(s, "RANG", 3)
    s, _ = apply_play(s, 2, "6s 6h")
    assert s.to_act == 1
    s, _ = do(s, "PASS", 1)
    assert s.to_act == 3
    s, _ = apply_play(s, 3, "7s 7h")
    assert s.to_act == 0
    s, _ = do(s, "PASS", 0)
    assert s.to_act == 2
    s, derived = do(s, "PASS", 2)
    assert fs(derived) == [("ROUND_END", 3, 3, 0, "passes")]


def test_gj26_allowed_in_the_open_phase_and_again_on_a_new_play():
    """GJ-26 (completion): yielding is allowed in the open phase; the limit is once per play,
    so after the opposite makes a new play the same seat may yield again."""
    hands = ["8s 8h Ks", "", "", "7s 7h Qs", "6s 6h Qh", "9s 9h Qc"]
    s = pos(hands=hands, top=("5s 5h", 0), out={1: (1, "finished"), 2: (2, "finished")},
            open_phase=True, passed=[], to_act=3, last=0)
    s, _ = do(s, "RANG", 3)
    assert s.to_act == 4
    s, _ = apply_play(s, 4, "6s 6h")
    s, _ = do(s, "PASS", 5)
    s, _ = apply_play(s, 3, "7s 7h")
    assert s.to_act == 0
    s, _ = apply_play(s, 0, "8s 8h")
    assert s.to_act == 3 and s.top_seat == 0
    assert "RANG" in action_kinds(s)
    s, derived = do(s, "RANG", 3)
    assert derived == [] and (s.to_act, s.rang_wait) == (4, (4, 5))


def test_gj26_after_a_new_gouji_play_the_yielder_may_only_pass():
    """GJ-26 with GJ-20: seat 4 answers with Ks Kd (够级, and 4 is not 3's opposite); in his
    deferred place the unopened yielder 3 may only pass — no answer, no second yield."""
    hands = ["Ks 9d", "Kc 9c", "Kh 9h", "7s 7h As Ad", "6s Ks Kd", "8s 8h Qc"]
    s, _ = do(base(hands=hands), "RANG", 3)
    s, _ = apply_play(s, 4, "Ks Kd")
    s, _ = do(s, "PASS", 5)
    assert s.to_act == 3 and action_kinds(s) == {"PASS"}
    illegal(s, play(3, "As Ad", s), "GJ-20")
    illegal(s, act(s, "RANG", 3), "GJ-26")
