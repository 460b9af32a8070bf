"""Function cards of keng.md (KENG-22 to KENG-29): J, Q, K, BJ, RJ, stacking, K on RJ, A."""

from __future__ import annotations

import pytest

from engine.games import keng

from .conftest import accept, cards_of, draw, ev, owed, play, pos, rejected, run, settle

# ---------------------------------------------------------------- KENG-22 J


@pytest.mark.parametrize("d", [1, -1])
def test_keng_22_j_reverses_the_direction(d):
    """KENG-22: J reverses the direction."""
    s = pos({2: "Jh 2c 3c"}, top="5h", to_act=2, direction=d)
    after = run(s, play(s, 2, "Jh"))
    assert after.direction == -d
    assert after.to_act == (2 - d) % 6


@pytest.mark.parametrize(("mode", "d_after", "nxt"), [("each", 1, 3), ("once", -1, 1)])
def test_keng_22_j_pair_each_or_once(mode, d_after, nxt):
    """KENG-22: J pair each or once."""
    s = pos({2: "Jh Jh 2c"}, top="5h", to_act=2, options={"keng_pair_action": mode})
    after = run(s, play(s, 2, "Jh Jh"))
    assert (after.direction, after.to_act) == (d_after, nxt)


# ---------------------------------------------------------------- KENG-23 Q

@pytest.mark.parametrize(("d", "nxt"), [(1, 4), (-1, 0)])
def test_keng_23_q_skips_the_next_seat(d, nxt):
    """KENG-23: Q skips the next seat."""
    s = pos({2: "Qh 2c 3c"}, top="5h", to_act=2, direction=d)
    after = run(s, play(s, 2, "Qh"))
    assert after.to_act == nxt and after.direction == d
    skipped = (2 + d) % 6
    assert rejected(after, draw(after, skipped)).rule_id == "KENG-23"


@pytest.mark.parametrize(("mode", "d", "nxt"), [
    ("each", 1, 5), ("once", 1, 4), ("each", -1, 5), ("once", -1, 0)])
def test_keng_23_q_pair_each_skips_two_once_skips_one(mode, d, nxt):
    """KENG-23: Q pair each skips two once skips one."""
    s = pos({2: "Qh Qh 2c"}, top="5h", to_act=2, direction=d,
            options={"keng_pair_action": mode})
    after = run(s, play(s, 2, "Qh Qh"))
    assert after.to_act == nxt
    for skipped in range(1, 3 if mode == "each" else 2):
        seat = (2 + skipped * d) % 6
        assert rejected(after, draw(after, seat)).rule_id == "KENG-23"


# ---------------------------------------------------------------- KENG-24 K

def test_keng_24_k_makes_the_next_seat_draw_two():
    """KENG-24: K makes the next seat draw two."""
    s = pos({2: "Kh 2c 3c", 3: "9s 8c"}, top="5h", to_act=2, stock="2h 3h 4h 6h")
    s = run(s, play(s, 2, "Kh"))
    assert (s.pending, s.to_act) == (2, 3)
    # the next seat's ACCEPT must draw exactly 2: the stock's next two cards
    assert rejected(s, accept(s, 3)._replace(value=1, cards=s.stock[:1])).rule_id == "KENG-11"
    assert rejected(s, accept(s, 3)._replace(value=4, cards=s.stock[:4])).rule_id == "KENG-11"
    after = run(s, accept(s, 3))
    assert after.hands[3] == cards_of("9s 8c 2h 3h")
    assert after.stock == cards_of("4h 6h")
    assert (after.pending, after.to_act, after.accepted) == (0, 3, True)


def test_keng_24_k_pair_adds_four():
    """KENG-24: K pair adds four."""
    s = pos({2: "Kh Kh 2c"}, top="5h", to_act=2)
    after = run(s, play(s, 2, "Kh Kh"))
    assert (after.pending, after.to_act) == (4, 3)
    s = pos({2: "Kc Kc 2c"}, top="Kh", to_act=2, pending=2)
    assert run(s, play(s, 2, "Kc Kc")).pending == 6


# ---------------------------------------------------------------- KENG-25 BJ

def test_keng_25_bj_names_a_suit_and_makes_nobody_draw():
    """KENG-25: BJ names a suit and makes nobody draw."""
    s = pos({2: "BJ 2c", 3: "9s 9d"}, top="5h", to_act=2)
    after = run(s, play(s, 2, "BJ", "d"))
    assert (after.pending, after.to_act, after.top_suit) == (0, 3, 3)
    assert rejected(after, accept(after, 3)._replace(value=2, cards=after.stock[:2])
                    ).rule_id == "KENG-27"
    assert run(after, play(after, 3, "9d")).to_act == 4


def test_keng_25_bj_cannot_be_stacked():
    """KENG-25: BJ cannot be stacked."""
    s = pos({0: "BJ 2c"}, top="Kh", pending=2)
    assert rejected(s, play(s, 0, "BJ", "h")).rule_id == "KENG-27"


# ---------------------------------------------------------------- KENG-26 RJ

@pytest.mark.parametrize("v", [3, 4])
@pytest.mark.parametrize(("before", "n"), [(0, 1), (0, 2), (0, 3), (2, 1), (2, 2), (2, 3),
                                           (4, 1)])
def test_keng_26_rj_pending_draw_table(v, before, n):
    """KENG-26: one RJ on P = 0 makes 4; otherwise each RJ adds v = keng_rj_stack_value."""
    top = "5h" if before == 0 else ("Kh" if before == 2 else "RJ")
    s = pos({2: "RJ RJ RJ 2c"}, top=top, suit="h", to_act=2, pending=before,
            options={"keng_rj_stack_value": v})
    after = run(s, play(s, 2, " ".join(["RJ"] * n), "s"))
    expected = 4 if (before == 0 and n == 1) else before + v * n
    assert after.pending == expected
    assert (after.to_act, after.top_suit) == (3, 0)


def test_keng_26_rj_named_suit_binds_after_the_draw():
    """KENG-26: RJ named suit binds after the draw."""
    s = pos({2: "RJ 2c 3c", 3: "9h 9d"}, top="5h", to_act=2, stock="2s 3s 4s 6s 7s")
    s = run(s, play(s, 2, "RJ", "d"))
    s = run(s, accept(s, 3))
    assert len(s.hands[3]) == 6 and s.pending == 0
    assert rejected(s, play(s, 3, "9h")).rule_id == "KENG-20"
    assert run(s, play(s, 3, "9d")).to_act == 4


# ---------------------------------------------------------------- KENG-27 stacking

@pytest.mark.parametrize(("card", "rule"), [
    ("5h", "KENG-27"), ("9h", "KENG-27"), ("Qh", "KENG-27"), ("Jh", "KENG-27"),
    ("BJ", "KENG-27"), ("Ah", "KENG-29")])
def test_keng_27_only_k_or_rj_facing_a_pending_draw(card, rule):
    """KENG-27: Only K or RJ facing a pending draw."""
    s = pos({0: f"{card} 2c 3c"}, top="Kh", pending=2)
    e = rejected(s, play(s, 0, card, "h" if card == "BJ" else None))
    assert e.rule_id == rule


def test_keng_27_stack_k_or_rj_and_the_next_seat_faces_the_new_draw():
    """KENG-27: Stack K or RJ and the next seat faces the new draw."""
    s = pos({0: "Kc RJ 2c", 1: "Kd 9c", 2: "Kd 2d"}, top="Kh", pending=2)
    after = run(s, play(s, 0, "Kc"))
    assert (after.pending, after.to_act) == (4, 1)
    after = run(after, play(after, 1, "Kd"))
    assert (after.pending, after.to_act) == (6, 2)
    after = run(after, accept(after, 2))
    assert len(after.hands[2]) == 8 and after.pending == 0
    assert run(s, play(s, 0, "RJ", "c")).pending == 5


def test_keng_27_stacked_k_must_be_legal_on_the_top_play():
    """KENG-27: a stacked K must be legal under KENG-17 to KENG-19: on a K pair a single K of
    another suit breaks the pair restriction."""
    s = pos({0: "Ks Ks Kh 2c"}, top="Kh Kh", pending=4)
    assert rejected(s, play(s, 0, "Ks")).rule_id == "KENG-19"
    assert run(s, play(s, 0, "Ks Ks")).pending == 8
    assert run(s, play(s, 0, "Kh")).pending == 6


def test_keng_27_facing_a_draw_no_draw_two():
    """KENG-27: Facing a draw no draw two."""
    s = pos({0: "2c"}, top="Kh", pending=2)
    assert rejected(s, draw(s, 0)).rule_id == "KENG-27"
    assert [a.kind for a in keng.turn_actions(s)] == ["ACCEPT"]


def test_keng_27_accept_with_nothing_pending_is_rejected():
    """KENG-27: Accept with nothing pending is rejected."""
    s = pos(top="Kh", pending=0)
    e = ev(s, "ACCEPT", 0, value=2)._replace(cards=s.stock[:2])
    assert rejected(s, e).rule_id == "KENG-27"


# ---------------------------------------------------------------- KENG-28 K on RJ

def test_keng_28_k_may_not_be_stacked_on_rj_by_default():
    """KENG-28: K may not be stacked on RJ by default."""
    s = pos({0: "Kh Kh Ks"}, top="RJ", suit="h", pending=4)
    assert rejected(s, play(s, 0, "Kh")).rule_id == "KENG-28"
    assert rejected(s, play(s, 0, "Kh Kh")).rule_id == "KENG-28"


def test_keng_28_k_on_rj_option_allows_the_named_suit():
    """KENG-28: K on RJ option allows the named suit."""
    s = pos({0: "Kh Kh Ks"}, top="RJ", suit="h", pending=4, options={"keng_k_on_rj": True})
    assert run(s, play(s, 0, "Kh")).pending == 6
    assert run(s, play(s, 0, "Kh Kh")).pending == 8
    assert rejected(s, play(s, 0, "Ks")).rule_id == "KENG-28"


def test_keng_28_rj_on_k_and_rj_on_rj_always_allowed():
    """KENG-28: RJ on K and RJ on RJ always allowed."""
    for top, suit in (("Kh", "h"), ("RJ", "c")):
        s = pos({0: "RJ 2c"}, top=top, suit=suit, pending=2)
        assert run(s, play(s, 0, "RJ", "s")).pending == 5


# ---------------------------------------------------------------- KENG-29 A

def test_keng_29_a_starts_a_duel_with_the_opposite_seat():
    """KENG-29: A starts a duel with the opposite seat."""
    s = pos({1: "Ah 2c 3c", 4: "9h 2d"}, top="5h", to_act=1)
    s = run(s, play(s, 1, "Ah"))
    assert owed(s) == "DUEL_START"
    e = keng.auto_event(s)
    assert (e.seat, e.target) == (1, 4)
    assert rejected(s, e._replace(target=3)).rule_id == "KENG-29"
    assert rejected(s, draw(s, 2)).rule_id == "KENG-29"      # nothing else while it is owed
    s = keng.apply(s, e)
    assert (s.duel.challenger, s.duel.defender, s.duel.to_act, s.duel.next_seat) == (1, 4, 4, 2)
    assert s.duel.cards == cards_of("Ah")


def test_keng_29_a_pair_starts_one_duel_with_both_as_as_duel_cards():
    """KENG-29: A pair starts one duel with both A as duel cards."""
    s = pos({1: "Ah Ah 2c", 4: "2d 3d"}, top="5h", to_act=1)
    s, done = settle(run(s, play(s, 1, "Ah Ah")))
    assert [e.kind for e in done] == ["DUEL_START", "DUEL_END"]
    assert done[1].seat == 4 and done[1].value == 2          # both A count
    assert len(s.hands[4]) == 4


def test_keng_29_no_a_while_a_draw_is_pending():
    """KENG-29: No A while a draw is pending."""
    s = pos({0: "Ah Ah 2c"}, top="Kh", pending=2)
    assert rejected(s, play(s, 0, "Ah")).rule_id == "KENG-29"
    assert rejected(s, play(s, 0, "Ah Ah")).rule_id == "KENG-29"


def test_keng_29_duel_start_not_due_is_rejected():
    """KENG-29: Duel start not due is rejected."""
    s = pos(top="5h")
    assert rejected(s, ev(s, "DUEL_START", 0, target=3)).rule_id == "KENG-29"
