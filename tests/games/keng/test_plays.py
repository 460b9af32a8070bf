"""Sections 6-7 of keng.md: turn structure, order, legal plays, going out, jokers last."""

from __future__ import annotations

import pytest

from engine.errors import InvalidEvent
from engine.events import Event
from engine.games import keng

from .conftest import (
    accept,
    cards_of,
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
)

# ---------------------------------------------------------------- KENG-11 a turn


def test_keng_11_facing_a_pending_draw_stack_or_accept_only():
    """KENG-11: Facing a pending draw stack or accept only."""
    s = pos({0: "5h 9h Kc"}, top="Kh", pending=2)
    assert rejected(s, play(s, 0, "5h")).rule_id == "KENG-27"
    assert rejected(s, draw(s, 0)).rule_id == "KENG-27"
    assert rejected(s, pass_(s, 0)).rule_id == "KENG-27"     # stack or accept, not KENG-12
    assert run(s, play(s, 0, "Kc")).pending == 4


def test_keng_11_after_accepting_the_seat_plays_on_against_the_same_top():
    """KENG-11 step 1 then step 2: the K's victim draws, then takes its turn."""
    s = pos({0: "9h 2c"}, top="Kh", pending=2, stock="3s 4s 7c 8c")
    s = run(s, accept(s, 0))
    assert s.hands[0] == cards_of("9h 2c 3s 4s")
    assert (s.to_act, s.pending, s.top) == (0, 0, cards_of("Kh"))
    # step 2: it holds a legal play, so it must play (no draw, no pass)
    assert rejected(s, draw(s, 0)).rule_id == "KENG-13"
    assert rejected(s, pass_(s, 0)).rule_id == "KENG-11"     # it did draw: it must play
    assert rejected(s, play(s, 0, "2c")).rule_id == "KENG-17"
    assert run(s, play(s, 0, "9h")).to_act == 1


def test_keng_11_accept_must_draw_exactly_p_cards():
    """KENG-11: Accept must draw exactly P cards."""
    s = pos(top="Kh", pending=2)
    short = Event("ACCEPT", seat=0, cards=s.stock[:1], value=1, game_id=s.game_id, seq=s.seq)
    assert rejected(s, short).rule_id == "KENG-11"
    extra = Event("ACCEPT", seat=0, cards=s.stock[:3], value=2, game_id=s.game_id, seq=s.seq)
    assert rejected(s, extra).rule_id == "KENG-11"
    wrong = Event("ACCEPT", seat=0, cards=s.stock[1:3], value=2, game_id=s.game_id, seq=s.seq)
    assert rejected(s, wrong).rule_id == "KENG-11"


def test_keng_11_no_legal_play_draws_two_then_plays_or_passes():
    """KENG-11: No legal play draws two then plays or passes."""
    s = pos(top="5h", stock="9h 2c 3c")
    assert rejected(s, pass_(s, 0)).rule_id == "KENG-12"
    s = run(s, draw(s, 0))
    assert len(s.hands[0]) == 6 and s.drawn
    assert run(s, play(s, 0, "9h")).to_act == 1
    assert run(s, pass_(s, 0)).to_act == 1


# ---------------------------------------------------------------- KENG-12 draw two

def test_keng_12_draw_two_then_any_legal_play_or_pass():
    """KENG-12: Draw two then any legal play or pass."""
    s = pos(top="5h", stock="5d 8h 3c")
    s = run(s, draw(s, 0))
    assert s.hands[0] == cards_of("2s 3c 4d 6s 5d 8h")
    assert s.stock == cards_of("3c")
    # any legal play from the whole hand
    assert run(s, play(s, 0, "5d")).top == cards_of("5d")
    assert run(s, play(s, 0, "8h")).top == cards_of("8h")
    assert rejected(s, play(s, 0, "6s")).rule_id == "KENG-17"
    # or pass, although it now holds a legal play
    after = run(s, pass_(s, 0))
    assert after.to_act == 1 and after.hands[0] == s.hands[0]


def test_keng_12_only_one_draw_and_pass_needs_a_draw():
    """KENG-12: Only one draw and pass needs a draw."""
    s = pos(top="5h", stock="2c 3c 4c 6c")
    assert rejected(s, pass_(s, 0)).rule_id == "KENG-12"
    s = run(s, draw(s, 0))
    assert rejected(s, draw(s, 0)).rule_id == "KENG-12"


def test_keng_12_draw_is_exactly_two_cards():
    """KENG-12: Draw is exactly two cards."""
    s = pos(top="5h")
    three = Event("DRAW", seat=0, cards=s.stock[:3], value=3, game_id=s.game_id, seq=s.seq)
    assert rejected(s, three).rule_id == "KENG-12"
    one = Event("DRAW", seat=0, cards=s.stock[:1], value=2, game_id=s.game_id, seq=s.seq)
    assert rejected(s, one).rule_id == "KENG-12"      # the draw-two rule, not the turn's


# ---------------------------------------------------------------- KENG-13 draw when able

def test_keng_13_seat_with_a_legal_play_may_not_draw():
    """KENG-13: Seat with a legal play may not draw."""
    s = pos({0: "9h 2c"}, top="5h")
    assert rejected(s, draw(s, 0)).rule_id == "KENG-13"
    assert [a.kind for a in keng.turn_actions(s)] == ["PLAY"]


def test_keng_13_draw_when_able_option_allows_drawing_then_play_or_pass():
    """KENG-13: Draw when able option allows drawing then play or pass."""
    s = pos({0: "9h 2c"}, top="5h", options={"keng_draw_when_able": True}, stock="3c 4c 6c")
    assert "DRAW" in [a.kind for a in keng.turn_actions(s)]
    s = run(s, draw(s, 0))
    assert s.hands[0] == cards_of("9h 2c 3c 4c")
    assert run(s, pass_(s, 0)).to_act == 1
    assert run(s, play(s, 0, "9h")).to_act == 1
    # still not instead of facing a pending draw
    p = pos({0: "9h 2c"}, top="Kh", pending=2, options={"keng_draw_when_able": True})
    assert rejected(p, draw(p, 0)).rule_id == "KENG-27"


# ---------------------------------------------------------------- KENG-14 pass

def test_keng_14_pass_keeps_the_top_play_and_does_not_reapply_a_skip():
    """KENG-14: Pass keeps the top play and does not reapply a skip."""
    s = pos({1: "2c 3c 9h"}, top="Qh", by=4, to_act=0, stock="2s 3s 4s 6s")
    s = run(s, draw(s, 0), lambda t: pass_(t, 0))
    # passes_in_a_row stays 0: this pass followed a draw that took cards (KENG-48, 14.19)
    assert (s.to_act, s.top, s.top_seat, s.passes) == (1, cards_of("Qh"), 4, 0)
    assert run(s, play(s, 1, "9h")).to_act == 2     # seat 1 is not skipped again


def test_keng_14_pass_does_not_reapply_a_draw():
    """KENG-14: Pass does not reapply a draw."""
    s = pos({0: "2c 3c", 1: "9h 2d"}, top="Kh", pending=2, stock="4c 6c 7c 8c")
    s = run(s, accept(s, 0))
    s = run(s, draw(s, 0))
    s = run(s, pass_(s, 0))
    assert (s.to_act, s.pending, s.top) == (1, 0, cards_of("Kh"))
    assert rejected(s, accept(s, 1)._replace(value=2, cards=s.stock[:2])).rule_id == "KENG-27"
    assert run(s, play(s, 1, "9h")).to_act == 2


def test_keng_14_pass_keeps_pair_restriction_and_named_suit():
    """KENG-14: Pass keeps pair restriction and named suit."""
    s = pos({1: "9s 2c 3c"}, top="9h 9h", to_act=0)
    s = run(s, draw(s, 0), lambda t: pass_(t, 0))
    assert rejected(s, play(s, 1, "9s")).rule_id == "KENG-19"
    s = pos({0: "2s 4d 6s 7d", 1: "9s 2c 3c"}, top="BJ", suit="c", to_act=0)
    s = run(s, draw(s, 0), lambda t: pass_(t, 0))
    assert rejected(s, play(s, 1, "9s")).rule_id == "KENG-20"
    assert run(s, play(s, 1, "2c")).to_act == 2


def test_keng_14_pass_after_reversal_goes_on_in_the_new_direction():
    """KENG-14: Pass after reversal goes on in the new direction."""
    s = pos(top="Jh", to_act=0, direction=-1)
    s = run(s, draw(s, 0), lambda t: pass_(t, 0))
    assert s.to_act == 5
    assert rejected(s, pass_(s, 1)).rule_id == "KENG-14"


# ---------------------------------------------------------------- KENG-15 next seat

@pytest.mark.parametrize(("seat", "d", "nxt"), [(0, 1, 1), (5, 1, 0), (0, -1, 5), (3, -1, 2)])
def test_keng_15_next_seat_is_s_plus_d(seat, d, nxt):
    """KENG-15: Next seat is s+d."""
    s = pos({seat: "9h 2c 3c"}, top="5h", to_act=seat, direction=d)
    after = run(s, play(s, seat, "9h"))
    assert after.to_act == nxt
    other = (nxt + 1) % 6
    assert rejected(after, draw(after, other)).rule_id == "KENG-15"
    assert rejected(after, play(after, seat, "2c")).rule_id == "KENG-15"


# ---------------------------------------------------------------- KENG-16 play forms

@pytest.mark.parametrize("cards", ["9h 9d", "9h 9h 9h", "9h 9h 9h 9h", "RJ RJ BJ", "RJ BJ"])
def test_keng_16_not_a_play_form(cards):
    """KENG-16: Not a play form."""
    s = pos({0: "9h 9h 9h 9h 9d RJ RJ BJ"}, top="5h")
    assert rejected(s, play(s, 0, cards, "h" if "J" in cards else None)).rule_id == "KENG-16"


def test_keng_16_play_forms():
    """KENG-16: Play forms."""
    s = pos({0: "9h 9h 9h RJ RJ RJ BJ BJ 2c"}, top="5h")
    assert run(s, play(s, 0, "9h")).top == cards_of("9h")
    assert run(s, play(s, 0, "9h 9h")).top == cards_of("9h 9h")
    assert run(s, play(s, 0, "RJ RJ RJ", "h")).top == cards_of("RJ RJ RJ")
    assert run(s, play(s, 0, "RJ RJ", "h")).top == cards_of("RJ RJ")
    assert run(s, play(s, 0, "BJ BJ", "s")).top == cards_of("BJ BJ")


def test_keng_11_cards_must_be_held():
    """KENG-11 (a turn is played from the seat's own hand), not KENG-16: cards must be held;
    a play of no card is no play form (KENG-16)."""
    s = pos({0: "9h 2c"}, top="5h")
    assert rejected(s, play(s, 0, "8h")).rule_id == "KENG-11"
    assert rejected(s, play(s, 0, "9h 9h")).rule_id == "KENG-11"
    assert rejected(s, ev(s, "PLAY", 0)).rule_id == "KENG-16"


# ---------------------------------------------------------------- KENG-17 single on single

def test_keng_17_single_matches_suit_or_rank_jokers_anything():
    """KENG-17: Single matches suit or rank jokers anything."""
    s = pos({0: "9h 5s 9c BJ RJ"}, top="5h")
    assert run(s, play(s, 0, "9h")).top == cards_of("9h")
    assert run(s, play(s, 0, "5s")).top_suit == 0
    assert run(s, play(s, 0, "BJ", "c")).top_suit == 2
    assert run(s, play(s, 0, "RJ", "c")).pending == 4
    assert rejected(s, play(s, 0, "9c")).rule_id == "KENG-17"


def test_keng_17_on_a_joker_only_the_named_suit_or_a_joker():
    """KENG-17: On a joker only the named suit or a joker."""
    s = pos({0: "9h 9c 5c BJ"}, top="BJ", suit="c")
    assert run(s, play(s, 0, "9c")).to_act == 1
    assert run(s, play(s, 0, "BJ", "h")).top_suit == 1
    e = rejected(s, play(s, 0, "9h"))
    assert e.rule_id == "KENG-20"      # KENG-17 third case: the named suit (KENG-20)


# ---------------------------------------------------------------- KENG-18 pairs on a single

def test_keng_18_pair_where_one_of_its_cards_could_go():
    """KENG-18: Pair where one of its cards could go."""
    s = pos({0: "9h 9h 5s 5s 8c 8c RJ RJ"}, top="5h")
    assert run(s, play(s, 0, "9h 9h")).top == cards_of("9h 9h")
    assert run(s, play(s, 0, "5s 5s")).top_suit == 0
    assert run(s, play(s, 0, "RJ RJ", "d")).top == cards_of("RJ RJ")
    assert rejected(s, play(s, 0, "8c 8c")).rule_id == "KENG-18"


# ---------------------------------------------------------------- KENG-19 on a pair

def test_keng_19_on_a_pair_suit_joker_or_pair_of_its_rank():
    """KENG-19: On a pair suit joker or pair of its rank."""
    s = pos({0: "2h 2h 9s 9s 2s 2s BJ"}, top="9h 9h")
    assert run(s, play(s, 0, "2h")).to_act == 1
    assert run(s, play(s, 0, "2h 2h")).to_act == 1
    assert run(s, play(s, 0, "BJ", "s")).to_act == 1
    after = run(s, play(s, 0, "9s 9s"))
    assert after.top == cards_of("9s 9s") and after.top_suit == 0
    assert rejected(s, play(s, 0, "9s")).rule_id == "KENG-19"   # same rank, single
    assert rejected(s, play(s, 0, "2s 2s")).rule_id == "KENG-19"
    assert rejected(s, play(s, 0, "2s")).rule_id == "KENG-19"


def test_keng_19_single_of_its_rank_allowed_as_the_last_card():
    """KENG-19: Single of its rank allowed as the last card."""
    s = pos({0: "9s"}, top="9h 9h")
    s = run(s, play(s, 0, "9s"))
    assert s.hands[0] == ()
    assert owed(s) == "GAME_END"


def test_keng_19_binds_the_seat_after_passes_too():
    """KENG-19 Resolution: the restriction is tied to the top play, also after passes."""
    s = pos({1: "9s 3c 4c", 2: "9s 9s 3d"}, top="9h 9h", by=5, to_act=0,
            stock="2c 3c 4c 6c 7c 8c")
    s = run(s, draw(s, 0), lambda t: pass_(t, 0))
    assert rejected(s, play(s, 1, "9s")).rule_id == "KENG-19"
    s = run(s, draw(s, 1), lambda t: pass_(t, 1))
    assert rejected(s, play(s, 2, "9s")).rule_id == "KENG-19"
    assert run(s, play(s, 2, "9s 9s")).to_act == 3


def test_keng_19_on_a_joker_pair_the_named_suit():
    """KENG-19: On a joker pair the named suit."""
    s = pos({0: "9s 2h 2h"}, top="BJ BJ", suit="h")
    assert run(s, play(s, 0, "2h")).to_act == 1
    assert rejected(s, play(s, 0, "9s")).rule_id == "KENG-20"


# ---------------------------------------------------------------- KENG-20 naming a suit

def test_keng_20_joker_play_must_name_a_suit():
    """KENG-20: Joker play must name a suit."""
    s = pos({0: "BJ RJ 2c"}, top="5h")
    assert rejected(s, play(s, 0, "BJ")).rule_id == "KENG-20"
    assert rejected(s, ev(s, "PLAY", 0, "RJ", value=4)).rule_id == "KENG-20"
    for i, suit in enumerate("shcd"):
        assert run(s, play(s, 0, "BJ", suit)).top_suit == i


def test_keng_20_only_a_joker_play_names_a_suit():
    """KENG-20: Only a joker play names a suit."""
    s = pos({0: "9h 2c"}, top="5h")
    with pytest.raises(InvalidEvent):
        keng.apply(s, ev(s, "PLAY", 0, "9h", value=2))


def test_keng_20_next_card_must_have_the_named_suit():
    """KENG-20: Next card must have the named suit."""
    s = pos({0: "BJ 2c", 1: "5d 2c 9d RJ"}, top="5h", to_act=0)
    s = run(s, play(s, 0, "BJ", "c"))
    assert (s.to_act, s.top_suit, s.pending) == (1, 2, 0)
    assert rejected(s, play(s, 1, "9d")).rule_id == "KENG-20"
    assert rejected(s, play(s, 1, "5d")).rule_id == "KENG-20"
    assert run(s, play(s, 1, "2c")).to_act == 2
    assert run(s, play(s, 1, "RJ", "s")).top_suit == 0


# ---------------------------------------------------------------- KENG-21 further restrictions

def test_keng_21_plays_restricted_by_draw_duel_and_going_out():
    """KENG-21: a card that matches the top play may still be barred by a pending draw
    (KENG-27), a duel (KENG-30) or going out with a joker (KENG-32)."""
    s = pos({0: "9h 2c"}, top="Kh", pending=2)
    assert rejected(s, play(s, 0, "9h")).rule_id == "KENG-27"
    s = pos({0: "Ah 2c 3c", 3: "Kh 9h 2d"}, top="5h")
    s, _ = settle(run(s, play(s, 0, "Ah")))
    assert rejected(s, duel_play(s, 3, "Kh")).rule_id == "KENG-30"
    s = pos({0: "RJ"}, top="5h")
    assert rejected(s, play(s, 0, "RJ", "h")).rule_id == "KENG-32"


# ---------------------------------------------------------------- KENG-31 last card

@pytest.mark.parametrize("last", ["Kh", "Qh", "Jh", "Ah", "9h", "5s"])
def test_keng_31_any_legal_last_card_goes_out(last):
    """KENG-31: Any legal last card goes out."""
    s = pos({0: last}, top="5h")
    s, done = settle(run(s, play(s, 0, last)))
    assert [e.kind for e in done] == ["GAME_END"]    # no draw, skip, duel applied first
    assert s.result["reason"] == "out" and s.result["deciding_seat"] == 0
    assert s.result["winning_team"] == "even"


def test_keng_31_last_card_must_still_be_legal():
    """KENG-31: Last card must still be legal."""
    s = pos({0: "9c"}, top="5h")
    assert rejected(s, play(s, 0, "9c")).rule_id == "KENG-17"


# ---------------------------------------------------------------- KENG-32 jokers last

def test_keng_32_red_joker_last_only_on_a_red_joker_play():
    """KENG-32: Red joker last only on a red joker play."""
    s = pos({0: "RJ"}, top="5h")
    assert rejected(s, play(s, 0, "RJ", "h")).rule_id == "KENG-32"
    s = pos({0: "RJ"}, top="BJ", suit="h")
    assert rejected(s, play(s, 0, "RJ", "h")).rule_id == "KENG-32"
    s = pos({0: "RJ"}, top="Kh", pending=2)
    assert rejected(s, play(s, 0, "RJ", "h")).rule_id == "KENG-32"
    s = pos({0: "RJ"}, top="RJ", suit="d", pending=4)
    assert owed(run(s, play(s, 0, "RJ", "h"))) == "GAME_END"
    s = pos({0: "RJ"}, top="RJ RJ", suit="d", pending=6)
    assert owed(run(s, play(s, 0, "RJ", "h"))) == "GAME_END"


def test_keng_32_black_joker_last_only_on_a_black_joker_play():
    """KENG-32: Black joker last only on a black joker play."""
    s = pos({0: "BJ"}, top="RJ", suit="h")
    assert rejected(s, play(s, 0, "BJ", "h")).rule_id == "KENG-32"
    s = pos({0: "BJ"}, top="5h")
    assert rejected(s, play(s, 0, "BJ", "h")).rule_id == "KENG-32"
    s = pos({0: "BJ"}, top="BJ", suit="s")
    assert owed(run(s, play(s, 0, "BJ", "h"))) == "GAME_END"


def test_keng_32_holds_for_joker_pairs_and_triples_and_not_before_the_last():
    """KENG-32: Holds for joker pairs and triples and not before the last."""
    s = pos({0: "RJ RJ"}, top="5h")
    assert rejected(s, play(s, 0, "RJ RJ", "h")).rule_id == "KENG-32"
    s = pos({0: "RJ RJ RJ"}, top="Kh", pending=2)
    assert rejected(s, play(s, 0, "RJ RJ RJ", "h")).rule_id == "KENG-32"
    s = pos({0: "BJ BJ"}, top="BJ", suit="c")
    assert owed(run(s, play(s, 0, "BJ BJ", "h"))) == "GAME_END"
    s = pos({0: "RJ RJ"}, top="5h")
    after = run(s, play(s, 0, "RJ", "h"))          # not the last card: fine
    assert after.hands[0] == cards_of("RJ") and after.pending == 4
