"""Sections 9-10 of gouji.md: out players, phases and 没头, 够级 status against the current state,
who may answer, leading, responders and turn order, passing and locks, the big joker, the end of
a round and the open phase (GJ-15, GJ-18 to GJ-25)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import format_face
from engine.events import Event
from engine.games import gouji
from engine.games.gouji.state import GoujiState

from .conftest import (
    act,
    apply_play,
    dealt,
    do,
    illegal,
    kinds,
    legal_plays,
    play,
    pos,
    settle,
)

FILL = "6s 6h"
RECORD = {"kaidian_effect": "record", "men_scope": "single_three", "judged_counts_as_out": True}
NOT_JUDGED = {"kaidian_effect": "burn_licence", "men_scope": "single_three",
              "judged_counts_as_out": False}
T5, J5, Q5, K5 = "Ts Th Tc Td Ts", "Js Jh Jc Jd Js", "Qs Qh Qc Qd Qs", "Ks Kh Kc Kd Ks"


def _table(hands: dict[int, str], to_act: int = 0, **kw: Any) -> GoujiState:
    """A position with the given hands (others hold a pair of 6s; out seats hold nothing);
    `to_act` leads unless a top play is given."""
    out = kw.get("out", {})
    full = [hands.get(i, "" if i in out else FILL) for i in range(6)]
    kw.setdefault("last", kw["top"][1] if kw.get("top") else to_act)
    return pos(hands=full, to_act=to_act, **kw)


def _run(s: GoujiState, *steps: tuple[int, str]) -> tuple[GoujiState, list[Event]]:
    """Apply plays (seat, "cards") and passes (seat, "-") in order; returns the derived events
    of all of them together (action events are not included)."""
    derived: list[Event] = []
    for seat, cards in steps:
        if cards == "-":
            s, d = do(s, "PASS", seat)
        else:
            s, d = apply_play(s, seat, cards)
        derived += d
    return s, derived


def _responders(s: GoujiState) -> list[int]:
    return gouji.view(s, None)["responders"]


def _round_end(events: list[Event]) -> Event:
    ends = [e for e in events if e.kind == "ROUND_END"]
    assert len(ends) == 1, kinds(events)
    return ends[0]


# ---------------------------------------------------------------- GJ-18 out, phases, 没头

@pytest.mark.parametrize("d,skipped,nxt", [(1, 1, 2), (-1, 5, 4)])
def test_gj18_out_players_are_skipped_in_turn_order(d, skipped, nxt):
    """GJ-18: an out player never acts again and is skipped in turn order (either direction);
    an action by him is rejected citing GJ-18."""
    s = _table({0: "5s 9s"}, out={skipped: (1, "finished")}, direction=d)
    s, _ = apply_play(s, 0, "5s")
    assert s.to_act == nxt
    assert skipped not in _responders(s)
    illegal(s, act(s, "PASS", skipped), "GJ-18")
    illegal(s, act(s, "PLAY", skipped, cards="7s"), "GJ-18")


def test_gj18_the_second_player_out_opens_the_phase():
    """GJ-18: restricted while fewer than two are out; open from the moment the second player
    is out: OUT then PHASE_OPEN follow the play."""
    s = _table({0: "9s", 2: "Ts Jd"}, out={1: (1, "finished")})
    assert not s.open_phase
    s, derived = apply_play(s, 0, "9s")
    assert kinds(derived) == ["OUT", "PHASE_OPEN"]
    out = derived[0]
    assert (out.seat, out.value, out.tag) == (0, 2, "finished")
    assert s.open_phase and s.to_act == 2


def test_gj18_first_player_out_keeps_the_restricted_phase():
    """GJ-18: one player out is not enough: the phase stays restricted (no PHASE_OPEN)."""
    s = _table({0: "9s"})
    s, derived = apply_play(s, 0, "9s")
    assert kinds(derived) == ["OUT"] and not s.open_phase


def test_gj18_headless_is_an_active_player_whose_opposite_is_out():
    """GJ-18: 没头 = active player whose opposite is out, in the restricted phase only."""
    s = _table({}, out={3: (1, "finished")})
    assert gouji.view(s, None)["meitou"] == [0]
    s2 = _table({}, out={3: (1, "finished"), 4: (2, "finished")}, open_phase=True)
    assert gouji.view(s2, None)["meitou"] == []


def test_gj18_judged_players_count_as_out_by_default():
    """GJ-18: with judged_counts_as_out = true (default) a judged player counts for the
    two-out rule and for 没头."""
    s = _table({0: "9s"}, out={1: (6, "men")})
    assert gouji.view(s, None)["meitou"] == [4]
    s, derived = apply_play(s, 0, "9s")
    assert kinds(derived) == ["OUT", "PHASE_OPEN"]


def test_gj18_option_judged_not_out_ignores_them_for_phase_and_headless_but_skips_them():
    """GJ-18: with judged_counts_as_out = false a judged player is ignored for the phase and
    for 没头, but still skipped in turn order."""
    s = _table({0: "9s", 2: "Ts Td"}, out={1: (6, "men")}, options=NOT_JUDGED)
    assert gouji.view(s, None)["meitou"] == []
    s, derived = apply_play(s, 0, "9s")
    assert kinds(derived) == ["OUT"] and not s.open_phase
    assert s.to_act == 2
    illegal(s, act(s, "PASS", 1), "GJ-46")   # judged: no further part


def test_gj18_option_judged_not_out_keeps_the_opposites_plays_gouji():
    """GJ-18/GJ-19: with judged_counts_as_out = false, a player whose opposite was judged is
    not 没头: his shaped plays stay 够级 and he may not answer others' 够级 plays."""
    s = _table({0: T5 + " 9s", 3: "7s"}, out={3: (6, "men")}, options=NOT_JUDGED)
    assert play(0, T5, s).tag == "lead+shaped+pure+gouji"
    s = _table({1: J5 + " 9s"}, out={4: (6, "men")}, options=NOT_JUDGED, top=(T5, 0),
               to_act=1)
    illegal(s, play(1, J5, s), "GJ-20")


# ---------------------------------------------------------------- GJ-19 够级 play

def test_gj19_a_shaped_play_is_gouji_while_restricted_and_opposite_active():
    """GJ-19: shaped + restricted phase + maker's opposite not out → 够级 (annotation
    '+gouji'); a record that omits or invents the flag is rejected citing GJ-19."""
    s = _table({0: T5 + " 9s 9h 9c 2s"})
    e = play(0, T5, s)
    assert e.tag == "lead+shaped+pure+gouji"
    illegal(s, e._replace(tag="lead+shaped+pure"), "GJ-19")
    e2 = play(0, "9s 9h 9c 2s", s)
    assert e2.tag == "lead"
    illegal(s, e2._replace(tag="lead+gouji"), "GJ-19")


def test_gj19_a_headless_players_plays_are_ordinary():
    """GJ-19/GJ-30: a player whose opposite is out makes ordinary plays: no '+gouji', and a
    non-opposite answers without burning."""
    s = _table({0: T5 + " 9s", 1: J5 + " 9h"}, out={3: (1, "finished")})
    s, _ = apply_play(s, 0, T5)
    assert s.to_act == 1
    s, derived = apply_play(s, 1, J5)
    assert kinds(derived) == [] and s.burner == -1 and s.top_seat == 1


def test_gj19_status_is_evaluated_when_someone_acts_opposite_gone_out_since():
    """GJ-19: 够级 is evaluated against the current state: a top play made as 够级 becomes
    ordinary once its maker's opposite is out, and any responder may then answer it."""
    s = _table({1: J5 + " 9h"}, out={3: (1, "finished")}, top=(T5, 0), to_act=1)
    assert not gouji.view(s, None)["top_is_gouji"]
    s, derived = apply_play(s, 1, J5)
    assert kinds(derived) == [] and s.burner == -1


def test_gj19_status_is_evaluated_when_someone_acts_phase_opened_since():
    """GJ-19/GJ-25: once the phase is open the same top play is no longer 够级."""
    s = _table({1: J5 + " 9h"}, out={2: (1, "finished"), 4: (2, "finished")},
               open_phase=True, top=(T5, 0), to_act=1)
    e = play(1, J5, s)
    assert e.tag == "answer+shaped+pure"
    s, derived = apply_play(s, 1, J5)
    assert kinds(derived) == [] and s.top_seat == 1


def test_gj19_a_play_with_which_its_maker_went_out_stays_gouji():
    """GJ-19: a play with which its maker went out stays 够级 as long as his opposite is
    active: the next players may not answer it, the (now 没头) opposite may."""
    s = _table({0: T5, 1: J5 + " 9h", 2: Q5 + " 9c", 3: K5 + " 9d"})
    s, derived = apply_play(s, 0, T5)
    assert kinds(derived) == ["OUT"] and s.to_act == 1
    assert gouji.view(s, None)["top_is_gouji"]
    illegal(s, play(1, J5, s), "GJ-20")
    s, _ = do(s, "PASS", 1)
    illegal(s, play(2, Q5, s), "GJ-20")
    s, _ = do(s, "PASS", 2)
    s, derived = apply_play(s, 3, K5)
    assert s.top_seat == 3 and "BURN_START" not in kinds(derived)


def test_gj19_the_play_that_opens_the_phase_is_not_gouji():
    """GJ-19: the play whose maker goes out as the second player is not 够级 (the phase is open
    once its consequences are applied): no '+gouji', and anyone may answer it."""
    s = _table({0: T5, 2: J5 + " 9c"}, out={1: (1, "finished")})
    assert play(0, T5, s).tag == "lead+shaped+pure"
    s, derived = apply_play(s, 0, T5)
    assert kinds(derived) == ["OUT", "PHASE_OPEN"] and s.to_act == 2
    s, derived = apply_play(s, 2, J5)
    assert s.top_seat == 2 and kinds(derived) == []


# ---------------------------------------------------------------- GJ-20 who may answer

def test_gj20_seed_five_tens_then_only_the_opposites_answer():
    """GJ-20 seed: five tens; then only the opposite answers (five J or five Q); then only the
    first player again; everyone else can only pass."""
    s = _table({0: T5 + " As Ah Ac Ad As 9s", 1: J5 + " 9h", 2: Q5 + " 9c",
                3: J5 + " Qs Qh Qc Qd Qh 9d", 4: K5 + " 8h", 5: "Ks Kh Kc Kd Kh 8c"})
    s, _ = apply_play(s, 0, T5)
    for seat, cards in ((1, J5), (2, Q5)):
        assert s.to_act == seat
        illegal(s, play(seat, cards, s), "GJ-20")
        assert legal_plays(s) == set()
        s, _ = do(s, "PASS", seat)
    assert s.to_act == 3
    assert legal_plays(s)
    s, _ = apply_play(s, 3, "Qs Qh Qc Qd Qh")
    assert gouji.view(s, None)["top_is_gouji"]
    for seat, cards in ((4, K5), (5, "Ks Kh Kc Kd Kh")):
        assert s.to_act == seat
        illegal(s, play(seat, cards, s), "GJ-20")
        s, _ = do(s, "PASS", seat)
    assert s.to_act == 0
    s, derived = apply_play(s, 0, "As Ah Ac Ad As")
    assert s.top_seat == 0 and "BURN_START" not in kinds(derived)


def test_gj20_unopened_would_be_burner_is_rejected_under_burn_licence():
    """GJ-20: an answer to a 够级 play by a non-opposite who is not 没头 and not opened breaks
    GJ-20 (also when the licence is the only condition of GJ-39 it misses) — a teammate of the
    maker included."""
    s = _table({1: J5 + " 9h"}, top=(T5, 0), to_act=1)
    illegal(s, play(1, J5, s), "GJ-20")
    s2 = _table({2: Q5 + " 9c"}, top=(T5, 0), to_act=2, passed=[1])
    illegal(s2, play(2, Q5, s2), "GJ-20")
    assert legal_plays(s2) == set()
    assert [a.kind for a in gouji.turn_actions(s2)] == ["PASS"]


def test_gj20_opened_non_opposite_may_answer_by_burning():
    """GJ-20 (c): an opened responder may answer a non-opposite's 够级 play: a burn."""
    s = _table({1: J5 + " 9h"}, top=(T5, 0), to_act=1, opened=[1])
    s, derived = apply_play(s, 1, J5)
    assert kinds(derived) == ["BURN_START"] and derived[0].seat == 1 and s.burner == 1


def test_gj20_under_kaidian_record_anyone_may_answer_by_burning():
    """GJ-20/GJ-37: with kaidian_effect = record no licence is needed: an un-opened
    non-opposite may answer a 够级 play (a burn)."""
    s = _table({1: J5 + " 9h"}, top=(T5, 0), to_act=1, options=RECORD)
    assert legal_plays(s)
    s, derived = apply_play(s, 1, J5)
    assert kinds(derived) == ["BURN_START"] and s.burner == 1


def test_gj20_headless_responder_may_answer_a_gouji_play():
    """GJ-20 (b): a 没头 responder may answer another player's 够级 play; it is no burn."""
    s = _table({1: J5 + " 9h"}, out={4: (1, "finished")}, top=(T5, 0), to_act=1)
    assert gouji.view(s, None)["top_is_gouji"]
    s, derived = apply_play(s, 1, J5)
    assert kinds(derived) == [] and s.burner == -1


def test_gj20_anyone_may_answer_an_ordinary_play():
    """GJ-20: any responder may answer an ordinary play (9 9 9 2 is not 够级)."""
    s = _table({1: "Ts Th Tc Td 9h"}, top=("9s 9h 9c 2s", 0), to_act=1)
    s, derived = apply_play(s, 1, "Ts Th Tc Td")
    assert kinds(derived) == [] and s.top_seat == 1


def test_gj20_the_answer_to_a_gouji_play_is_itself_gouji():
    """GJ-20: a play that beats a 够级 play is itself 够级-shaped, so the opposite's answer is
    annotated '+gouji' too."""
    s = _table({3: "Js Jh Jc Jd 2s 9h"}, top=(T5, 0), to_act=3)
    assert play(3, "Js Jh Jc Jd 2s", s).tag == "answer+shaped+gouji"


# ---------------------------------------------------------------- GJ-21 leading

def test_gj21_the_leader_must_play_and_may_not_pass_or_yield():
    """GJ-21: a round begins with a lead by its leader, who must make a play: a PASS or a RANG
    by him is rejected; nobody else may act."""
    s = _table({0: "5s 9s"})
    illegal(s, act(s, "PASS", 0), "GJ-21")
    illegal(s, act(s, "RANG", 0), "GJ-21")
    illegal(s, act(s, "PLAY", 1, cards="6s"), "GJ-21")
    assert {a.kind for a in gouji.turn_actions(s)} == {"PLAY"}


def test_gj21_any_play_may_lead():
    """GJ-21: any play may lead, 够级 or not, a lone 2 or joker included."""
    for cards in ("5s", "9s 9h 9c 2s", T5, "2s", "BJ", "Ks RJ", "As Ah BJ"):
        s = _table({0: cards + " 8d"})
        gouji.check(s, play(0, cards, s))


def test_gj21_leader_with_threes_leads_another_card_or_only_threes():
    """GJ-21/GJ-28: a leader always has a legal play: any single card other than a 3, or his
    3s when only 3s are left."""
    s = _table({0: "3s 3h 9s"})
    assert legal_plays(s) == {("9s",)}
    illegal(s, play(0, "3s", s), "GJ-28")
    s = _table({0: "3s 3h"})
    assert legal_plays(s) == {("3s",), ("3h", "3s")}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["3s", "3h", "4s", "7c", "Kd", "2s", "BJ", "RJ"]), min_size=1,
                max_size=8, unique=True))
def test_gj21_a_leader_always_has_a_single_card_or_his_threes(hand):
    """GJ-21: whatever the hand, the leader's legal plays include every single non-3 card, or,
    with only 3s left, the 3s."""
    s = _table({0: " ".join(hand)})
    singles = {(c,) for c in hand if c[0] != "3"}
    plays = legal_plays(s)
    assert plays
    if singles:
        assert singles <= plays
    else:
        assert all(c.startswith("3") for p in plays for c in p)


# ---------------------------------------------------------------- GJ-22 responders, turn order

@pytest.mark.parametrize("d", [1, -1])
def test_gj22_turn_goes_to_the_next_responder_after_the_last_actor(d):
    """GJ-22: after each play or pass the turn goes to the first responder after the seat that
    acted last, in turn order (direction d); the leader is a responder of the answer."""
    n = lambda k: (k * d) % 6  # noqa: E731
    s = _table({0: "5s 9s", n(1): "7s 8s"}, direction=d)
    s, _ = apply_play(s, 0, "5s")
    assert s.to_act == n(1)
    assert _responders(s) == sorted(n(k) for k in range(1, 6))
    s, _ = apply_play(s, n(1), "7s")
    order = []
    for _ in range(5):
        order.append(s.to_act)
        s, derived = do(s, "PASS", s.to_act)
    assert order == [n(2), n(3), n(4), n(5), 0]
    end = _round_end(derived)
    assert (end.seat, end.target, end.value, end.tag) == (n(1), n(1), 0, "passes")


def test_gj22_only_the_responder_whose_turn_it_is_may_act():
    """GJ-22: a responder acts on his turn only; another seat's play or pass is rejected."""
    s = _table({0: "5s 9s", 3: "7s 8s"})
    s, _ = apply_play(s, 0, "5s")
    illegal(s, play(3, "7s", s), "GJ-22")
    illegal(s, act(s, "PASS", 3), "GJ-22")
    illegal(s, act(s, "PASS", 0), "GJ-22")


def test_gj22_an_answer_must_beat_the_top_play():
    """GJ-22/GJ-14: an answer is a play that beats T; anything else is rejected."""
    s = _table({1: "4s 5h 5c 9h"}, top=("5s", 0), to_act=1)
    illegal(s, play(1, "4s", s), "GJ-14")
    illegal(s, play(1, "5h", s), "GJ-14")
    illegal(s, play(1, "5h 5c", s), "GJ-14")
    gouji.check(s, play(1, "9h", s))


def test_gj22_a_responder_without_an_answer_can_only_pass():
    """GJ-22: a responder with no legal answer must pass (the only legal action here: the top
    play is not his opposite's, so he may not yield)."""
    s = _table({1: "4s 5h"}, top=("Ks", 0), to_act=1)
    assert [a.kind for a in gouji.turn_actions(s)] == ["PASS"]


def test_gj22_responders_are_computed_after_the_maker_goes_out():
    """GJ-22: responders are computed after the play's consequences: a maker who went out is
    no responder of anything and never gets the turn again."""
    s = _table({0: "5s 9s", 1: "7s"})
    s, _ = apply_play(s, 0, "5s")
    s, derived = apply_play(s, 1, "7s")
    assert kinds(derived) == ["OUT"]
    assert _responders(s) == [0, 2, 3, 4, 5]
    seen = []
    for _ in range(5):
        seen.append(s.to_act)
        s, derived = do(s, "PASS", s.to_act)
    assert seen == [2, 3, 4, 5, 0]
    end = _round_end(derived)
    assert (end.seat, end.target, end.value) == (1, 2, 1)   # 接风 (GJ-27)


# ---------------------------------------------------------------- GJ-23 passing is final

def test_gj23_a_pass_locks_the_player_for_the_rest_of_the_round():
    """GJ-23: in the restricted phase a player who passed may not answer any later play of the
    round: he is skipped when his turn would come."""
    s = _table({0: "5s Ts Js", 1: "7s 8s Qs", 2: "9s 9h"})
    s, _ = _run(s, (0, "5s"), (1, "-"), (2, "9s"), (3, "-"), (4, "-"), (5, "-"), (0, "Ts"))
    assert s.to_act == 2                            # seat 1 is skipped
    assert 1 not in _responders(s)
    illegal(s, play(1, "Qs", s), "GJ-23")   # locked, not merely out of turn
    s, derived = do(s, "PASS", 2)
    end = _round_end(derived)
    assert end.seat == 0 and s.to_act == 0


def test_gj23_locks_end_with_the_round():
    """GJ-23: all locks end when the round ends: in the next round the seat that passed is a
    responder again."""
    s = _table({0: "5s 9s Ts", 1: "7s Js"})
    s, derived = _run(s, (0, "5s"), (1, "-"), (2, "-"), (3, "-"), (4, "-"), (5, "-"))
    assert _round_end(derived).seat == 0 and s.passed == 0
    s, _ = apply_play(s, 0, "9s")
    assert s.to_act == 1 and 1 in _responders(s)
    s, _ = apply_play(s, 1, "Js")
    assert s.top_seat == 1


def test_gj23_25_locks_end_when_the_phase_becomes_open():
    """GJ-23/GJ-25: all locks end when the phase becomes open (走2个人后): a seat that passed in
    the restricted phase answers a later play of the same round."""
    s = _table({0: "5s 9s", 1: "7s Ks", 2: "8s"}, out={5: (1, "finished")})
    s, _ = _run(s, (0, "5s"), (1, "-"))
    assert s.passed == 0b10
    s, derived = apply_play(s, 2, "8s")
    assert kinds(derived) == ["OUT", "PHASE_OPEN"]
    assert s.open_phase and s.passed == 0
    s, _ = _run(s, (3, "-"), (4, "-"), (0, "9s"))
    assert s.to_act == 1
    s, _ = apply_play(s, 1, "Ks")
    assert s.top_seat == 1


# ---------------------------------------------------------------- GJ-24 end of a round

def test_gj24_round_ends_when_every_other_active_player_has_passed():
    """GJ-24: the round ends when the top play has no responder left; its maker wins and
    leads; ROUND_END carries winner, next leader, jiefeng 0 and reason 'passes'."""
    s = _table({0: "5s 9s", 2: "Ks 4s"})
    s, derived = _run(s, (0, "5s"), (1, "-"), (2, "Ks"), (3, "-"), (4, "-"), (5, "-"))
    assert kinds(derived) == []
    s, derived = do(s, "PASS", 0)
    end = _round_end(derived)
    assert (end.seat, end.target, end.value, end.tag) == (2, 2, 0, "passes")
    assert s.top_seat == -1 and s.top == () and s.to_act == 2 and s.passed == 0


def test_gj24_locked_players_do_not_hold_the_round_open():
    """GJ-24: in the restricted phase the round ends when every other active player has
    passed or is locked (seat 1 passed earlier and is not asked again)."""
    s = _table({0: "5s 9s", 2: "7s 4s"})
    s, derived = _run(s, (0, "5s"), (1, "-"), (2, "7s"), (3, "-"), (4, "-"), (5, "-"),
                      (0, "-"))
    end = _round_end(derived)
    assert end.seat == 2 and end.target == 2


# ---------------------------------------------------------------- GJ-15 big joker

def test_gj15_a_big_joker_lead_ends_the_round_at_once():
    """GJ-15: a play containing an RJ: everyone passes at once, no PASS is recorded, nobody is
    locked, the round ends (reason big_joker) and its maker leads again."""
    s = _table({0: "RJ 9s"})
    s, derived = apply_play(s, 0, "RJ")
    assert kinds(derived) == ["ROUND_END"]
    end = derived[0]
    assert (end.seat, end.target, end.value, end.tag) == (0, 0, 0, "big_joker")
    assert s.to_act == 0 and s.top_seat == -1 and s.passed == 0


def test_gj15_an_attached_big_joker_answer_ends_the_round_mid_way():
    """GJ-15: an answer with an attached RJ wins the round at once; the other seats get no
    turn and no PASS event appears."""
    s = _table({0: "5s 5h 9s", 2: "Ks RJ 4s"})
    s, _ = _run(s, (0, "5s 5h"), (1, "-"))
    s, derived = apply_play(s, 2, "Ks RJ")
    assert kinds(derived) == ["ROUND_END"] and "PASS" not in kinds(derived)
    assert (derived[0].seat, derived[0].target, derived[0].tag) == (2, 2, "big_joker")
    assert s.to_act == 2 and s.passed == 0


def test_gj15_big_joker_as_last_card_passes_the_lead_on():
    """GJ-15/GJ-27: a maker who goes out with an RJ still wins the round; the next active
    player leads (接风)."""
    s = _table({1: "RJ"}, top=("Ks", 0), to_act=1)
    s, derived = apply_play(s, 1, "RJ")
    assert kinds(derived) == ["OUT", "ROUND_END"]
    end = derived[1]
    assert (end.seat, end.target, end.value, end.tag) == (1, 2, 1, "big_joker")


def test_gj15_a_big_joker_does_not_bypass_gj20():
    """GJ-15/GJ-20: an RJ answer to another's 够级 play is still subject to GJ-20."""
    s = _table({1: "RJ 9h"}, top=("2s", 0), to_act=1)
    illegal(s, play(1, "RJ", s), "GJ-20")


# ---------------------------------------------------------------- GJ-25 open phase

OPEN = {"out": {1: (1, "finished"), 2: (2, "finished")}, "open_phase": True}


def test_gj25_passing_does_not_lock_in_the_open_phase():
    """GJ-25: in the open phase a player who passed may answer a later play of the same round
    (过牌之后也可以继续要)."""
    s = _table({0: "5s 9s Ks", 3: "7s Ts", 4: "6d 8s", 5: "4s 4h"}, **OPEN)
    s, _ = _run(s, (0, "5s"), (3, "-"), (4, "8s"), (5, "-"), (0, "9s"))
    assert s.to_act == 3 and 3 in _responders(s)
    s, derived = apply_play(s, 3, "Ts")
    assert s.top_seat == 3 and kinds(derived) == []


def test_gj25_round_ends_when_all_others_passed_since_the_play():
    """GJ-25/GJ-24: in the open phase the round ends once every other active player has passed
    since the top play; earlier passes do not count."""
    s = _table({0: "5s 9s", 3: "7s Ts", 4: "6d 8s", 5: "4s 4h"}, **OPEN)
    s, derived = _run(s, (0, "5s"), (3, "-"), (4, "8s"), (5, "-"), (0, "-"))
    assert "ROUND_END" not in kinds(derived)
    assert s.to_act == 3
    s, derived = do(s, "PASS", 3)
    end = _round_end(derived)
    assert (end.seat, end.target, end.tag) == (4, 4, "passes")


def test_gj25_anyone_may_answer_a_shaped_play_and_nothing_is_a_burn():
    """GJ-25: no play is 够级 in the open phase: a non-opposite answers a shaped play, with
    no burn and no '+gouji'."""
    s = _table({0: T5 + " 9s", 4: J5 + " 8s"}, **OPEN)
    assert play(0, T5, s).tag == "lead+shaped+pure"
    s, _ = _run(s, (0, T5), (3, "-"))
    assert s.to_act == 4
    e = play(4, J5, s)
    assert e.tag == "answer+shaped+pure"
    s, derived = apply_play(s, 4, J5)
    assert kinds(derived) == [] and s.burner == -1


def test_gj25_responders_are_all_active_players_but_the_maker():
    """GJ-25: the responders of every new play are all active players other than its maker —
    including players who passed on the previous play."""
    s = _table({0: "5s 9s", 3: "7s Ts", 4: "6d 8s", 5: "4s 4h"}, **OPEN)
    s, _ = _run(s, (0, "5s"), (3, "-"))
    assert _responders(s) == [4, 5]
    s, _ = apply_play(s, 4, "8s")
    assert _responders(s) == [0, 3, 5]


# ---------------------------------------------------------------- whole games against an oracle

_VALUE = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12,
          "K": 13, "A": 14, "2": 15}
_MIN = {10: 5, 11: 4, 12: 3, 13: 2, 14: 2, 15: 1}


def _v(code: int) -> int:
    f = format_face(code)
    return {"BJ": 16, "RJ": 17}.get(f) or _VALUE[f[0]]


def _prof(vals: list[int]) -> list[int]:
    b = min(vals)
    return sorted((v if v >= 16 else b for v in vals), reverse=True)


def _shape(vals: list[int]) -> bool:
    return any(v >= 16 for v in vals) or len(vals) >= _MIN.get(min(vals), 99)


def _oracle_game(seed: int, d: int) -> int:
    """Play a random game (plays and passes only; no 让牌, no declarations) and check every
    action against an independent model of GJ-14 to GJ-25; stop at the first burn (GJ-39 on)
    or at the end. Returns the number of actions checked."""
    rng = random.Random(seed)
    s = dealt(seed, direction=d, starter=seed % 6)
    out: set[int] = set()
    top: tuple[list[int], int] | None = None
    locked: set[int] = set()
    opened_phase = False
    checked = 0

    def after(seat: int, among: set[int]) -> int:
        """The first seat of `among` after `seat` in turn order."""
        return next(((seat + k * d) % 6 for k in range(1, 7) if (seat + k * d) % 6 in among),
                    -1)

    for _ in range(3000):
        offered = [a for a in gouji.turn_actions(s) if a.kind in ("PLAY", "PASS")]
        has_pass = any(a.kind == "PASS" for a in offered)
        assert has_pass == (top is not None), "GJ-21/GJ-22: pass offered iff responding"
        plays = [a for a in offered if a.kind == "PLAY"]
        if plays and (top is None or rng.random() < 0.45):
            a = rng.choice(plays)
        else:
            a = next(x for x in offered if x.kind == "PASS")
        seat = a.seat
        assert seat == s.to_act
        if a.kind == "PLAY":
            vals = [_v(c) for c in a.cards]
            flags = a.tag.split("+")
            assert a.value == min(vals)                                     # GJ-13
            assert flags[0] == ("lead" if top is None else "answer")        # GJ-21/22
            assert ("shaped" in flags) == _shape(vals)                      # GJ-16
            assert ("pure" in flags) == (_shape(vals) and max(vals) < 15)   # GJ-17
            if top is not None:
                tv, maker = top
                pa, pt = _prof(vals), _prof(tv)
                assert len(pa) == len(pt) and all(x > y for x, y in zip(pa, pt, strict=True))
                gouji_top = _shape(tv) and not opened_phase and (maker + 3) % 6 not in out
                allowed = seat == (maker + 3) % 6 or (seat + 3) % 6 in out   # GJ-20 (a), (b)
                burn = gouji_top and not allowed
        s = gouji.apply(s, a)
        s, derived = settle(s)
        k = kinds(derived)
        if a.kind == "PLAY" and top is not None and burn:
            assert "BURN_START" in k                                        # GJ-20 (c)
        if "BURN_START" in k or "BURN_END" in k or s.stage != "play":
            return checked
        checked += 1
        for e in derived:
            if e.kind == "OUT":
                out.add(e.seat)                                             # GJ-18
        now_open = len(out) >= 2
        assert ("PHASE_OPEN" in k) == (now_open and not opened_phase)       # GJ-18
        if now_open and not opened_phase:
            locked.clear()                                                  # GJ-23/25
        opened_phase = now_open
        if a.kind == "PLAY":
            gouji_flag = _shape(vals) and not opened_phase and (seat + 3) % 6 not in out
            assert ("gouji" in a.tag.split("+")) == gouji_flag              # GJ-19
            top = (vals, seat)
            if opened_phase:
                locked.clear()                                              # GJ-25
        else:
            locked.add(seat)                                                # GJ-23
        assert top is not None
        tv, maker = top
        resp = {i for i in range(6) if i not in out and i != maker and i not in locked}
        if 17 in tv:
            end = "big_joker"                                               # GJ-15
            assert a.kind == "PLAY"
        elif not resp:
            end = "passes"                                                  # GJ-24
        else:
            end = None
        if end is None:
            assert "ROUND_END" not in k
            assert s.to_act == after(seat, resp)             # GJ-22
            continue
        assert "PASS" not in k
        e = _round_end(derived)
        leader = maker if maker not in out else after(maker, set(range(6)) - out)
        assert (e.seat, e.target, e.value, e.tag) == (maker, leader, int(leader != maker), end)
        assert s.to_act == leader and s.passed == 0
        top = None
        locked.clear()
    raise AssertionError("the game does not end")


@pytest.mark.parametrize("seed", range(1, 13))
def test_gj22_whole_random_games_follow_the_turn_rules(seed):
    """GJ-14 to GJ-25 on whole games: every action of a random game (both directions) is
    checked against an independent model: annotations (GJ-13, GJ-16, GJ-17, GJ-19), beating
    (GJ-14), who may answer (GJ-20), big joker (GJ-15), out/phase (GJ-18), responders and turn
    order (GJ-22), locks (GJ-23, GJ-25) and the end of each round (GJ-24)."""
    d = 1 if seed % 2 else -1
    assert _oracle_game(seed, d) > 30
