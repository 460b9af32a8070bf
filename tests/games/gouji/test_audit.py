"""Independent rules audit of the 够级 engine against rules/gouji.md (GJ-1 … GJ-49, §19).

Each test builds a focused scenario (a position from ``pos``), plays it through the engine and
compares the verdict, the derived events and the resulting state with the rules text. Where the
engine disagrees with the rules file the test asserts the RULES-FILE behaviour and is marked
``xfail(strict=True)`` with the reason until the engine is mended. The one found (GJ-26: a
yielder going out in his deferred place lost the turn-order anchor) is mended.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from typing import Any

import pytest

from engine.cards import format_face
from engine.errors import EngineError
from engine.events import NONE, Event
from engine.games import gouji
from engine.games.gouji.cards import STRENGTH
from engine.games.gouji.game import annotate
from engine.games.gouji.position import from_position, to_position, view
from engine.games.gouji.state import GoujiState

from .conftest import act, apply_play, dealt, do, illegal, play, pos, settle
from .late_helpers import fs, mask, options, payload

F = "finished"
NOT_JUDGED = options(judged_counts_as_out=False)
THREES_ONLY = options(men_scope="threes_only")
RECORD = options(kaidian_effect="record")


def steps(s: GoujiState, *moves: tuple[int, str]) -> tuple[GoujiState, list[Event]]:
    """Apply plays (seat, "cards"), passes (seat, "-") and yields (seat, "rang") in order;
    returns the state and the derived events of the last move."""
    derived: list[Event] = []
    for seat, what in moves:
        if what == "-":
            s, derived = do(s, "PASS", seat)
        elif what == "rang":
            s, derived = do(s, "RANG", seat)
        else:
            s, derived = apply_play(s, seat, what)
    return s, derived


# ---------------------------------------------------------------- brute-force legality

def _rank_key(cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(STRENGTH[c] for c in cards))


def _sub_multisets(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    by: dict[int, list[int]] = defaultdict(list)
    for c in hand:
        by[STRENGTH[c]].append(c)
    ranks = sorted(by)
    out = []
    for counts in itertools.product(*(range(len(by[r]) + 1) for r in ranks)):
        sub = tuple(c for r, k in zip(ranks, counts, strict=True) for c in by[r][:k])
        if sub:
            out.append(sub)
    return out


def _accepted(s: GoujiState, e: Event) -> bool:
    try:
        gouji.check(s, e)
    except EngineError:
        return False
    return True


def brute_force_legal(s: GoujiState) -> set[tuple[Any, ...]]:
    """Every PLAY / PASS / RANG / XUANDIAN / HEDIAN of any seat that ``check`` accepts, keyed
    by kind, seat, the ranks of the cards and the tag."""
    found: set[tuple[Any, ...]] = set()
    base = Event("PASS", game_id=s.game_id, seq=s.seq)
    for seat in range(6):
        cands = [base._replace(kind=k, seat=seat) for k in ("PASS", "RANG", "XUANDIAN")]
        cands += [base._replace(kind="HEDIAN", seat=seat, tag=t) for t in ("agree", "refuse")]
        for sub in _sub_multisets(s.hands[seat]):
            cands.append(annotate(s, base._replace(kind="PLAY", seat=seat, cards=sub)))
        for e in cands:
            if _accepted(s, e):
                found.add((e.kind, e.seat, _rank_key(e.cards), e.tag))
    return found


def listed_legal(s: GoujiState) -> set[tuple[Any, ...]]:
    return {(e.kind, e.seat, _rank_key(e.cards), e.tag) for e in gouji.legal_actions(s)}


def assert_legal_actions_exact(s: GoujiState) -> None:
    """legal_actions lists every accepted action (one per rank multiset) and only those."""
    listed = gouji.legal_actions(s)
    keys = [(e.kind, e.seat, _rank_key(e.cards), e.tag) for e in listed]
    assert len(keys) == len(set(keys)), "an action is listed twice"
    for e in listed:
        gouji.check(s, e)
    assert set(keys) == brute_force_legal(s)


# ================================================================ GJ-26 让牌

# Seat 0 led 5s 5h; seats 1 and 2 passed (locked); seat 3, its opposite, is to act.
RANG_HANDS = ["Ks 9d", "Kc 9c", "Kh 9h", "7s 7h", "6s 6h Qh", "8s 8h Qc"]


def rang_base(**changes: Any) -> GoujiState:
    kw: dict[str, Any] = dict(hands=RANG_HANDS, top=("5s 5h", 0), passed=[1, 2], to_act=3,
                              last=2)
    kw.update(changes)
    return pos(**kw)


def test_gj26_yielder_going_out_in_his_deferred_place_turn_continues_after_next_next():
    """GJ-26: "Then, whatever D did (a play by D included), the turn continues with the first
    responder after next(next(D))." Seat 3 yields, seat 4 answers, 5 passes, and 3 answers in
    its deferred place with its last cards (going out). The first responder after
    next(next(3)) = 5 is seat 0 (active, not locked) — not seat 4, the seat right after 3."""
    s, derived = steps(rang_base(), (3, "rang"), (4, "6s 6h"), (5, "-"), (3, "7s 7h"))
    assert fs(derived) == [("OUT", 3, NONE, 1, F)]
    assert s.to_act == 0


def test_gj26_yielder_answering_without_going_out_turn_continues_after_next_next():
    """GJ-26 control case of the test above: the same answer without emptying the hand sends
    the turn to seat 0, the first responder after next(next(3)) = 5."""
    hands = RANG_HANDS[:3] + ["7s 7h 9s"] + RANG_HANDS[4:]
    s, derived = steps(rang_base(hands=hands), (3, "rang"), (4, "6s 6h"), (5, "-"),
                       (3, "7s 7h"))
    assert derived == [] and s.to_act == 0


def test_gj26_open_phase_yielder_going_out_turn_continues_after_next_next():
    """GJ-26 in the open phase (yielding is allowed in both phases): seats 1 and 2 are out;
    3 yields on 0's play, 4 answers, 5 passes, 3 answers with its last cards. The turn
    continues after next(next(3)) = 5: seat 0 — not seat 4."""
    hands = ["8s 8h Ks", "", "", "7s 7h", "6s 6h Qh", "9s 9h Qc"]
    s = pos(hands=hands, top=("5s 5h", 0), out={1: (1, F), 2: (2, F)}, open_phase=True,
            passed=[], to_act=3, last=0)
    s, derived = steps(s, (3, "rang"), (4, "6s 6h"), (5, "-"), (3, "7s 7h"))
    assert fs(derived) == [("OUT", 3, NONE, 3, F)]
    assert s.to_act == 0


def test_gj26_gj15_big_joker_with_which_a_next_seat_goes_out_during_the_yield():
    """GJ-26 with GJ-15/GJ-27: seat 4 answers during 3's yield with RJ RJ, its last cards:
    OUT, then the round ends at once (big_joker), the yielder does not act, and the first
    active player after seat 4 catches the wind."""
    hands = RANG_HANDS[:4] + ["RJ RJ"] + RANG_HANDS[5:]
    s, derived = steps(rang_base(hands=hands), (3, "rang"), (4, "RJ RJ"))
    assert fs(derived) == [("OUT", 4, NONE, 1, F), ("ROUND_END", 4, 5, 1, "big_joker")]
    assert (s.to_act, s.rang_seat, s.rang_wait, s.passed) == (5, -1, (), 0)


def test_gj26_yield_on_a_play_with_which_the_opposite_went_out():
    """GJ-26 with GJ-27: the top play's maker (seat 0) went out with it; its opposite 3 may
    still yield. 4 and 5 pass, 3 passes; nobody is left (1, 2 locked), so the round ends and
    seat 1 catches the wind."""
    hands = [""] + RANG_HANDS[1:]
    s = rang_base(hands=hands, out={0: (1, F)})
    assert "RANG" in {a.kind for a in gouji.legal_actions(s)}
    s, _ = steps(s, (3, "rang"))
    assert s.to_act == 4
    s, derived = steps(s, (4, "-"), (5, "-"), (3, "-"))
    assert fs(derived) == [("ROUND_END", 0, 1, 1, "passes")]


def test_gj26_phase_opening_play_during_the_yield_unlocks_the_second_seat():
    """GJ-26 with GJ-22/GJ-25: seat 5 was locked when 3 yielded, but 4's answer (its last
    cards, the 2nd player out) opens the phase: 5 is a responder when its turn comes and acts;
    then 3, then the turn goes on after 5 with 0 (1 is no longer locked either)."""
    hands = ["Ks 9d", "Kc 9c", "", "7s 7h 9s", "6s 6h", "8s 8h Qc"]
    s = rang_base(hands=hands, out={2: (1, F)}, passed=[1, 5])
    s, derived = steps(s, (3, "rang"), (4, "6s 6h"))
    assert fs(derived) == [("OUT", 4, NONE, 2, F), ("PHASE_OPEN", -1, NONE, NONE, "")]
    assert s.to_act == 5 and s.passed == 0
    s, _ = steps(s, (5, "-"))
    assert s.to_act == 3
    s, _ = steps(s, (3, "-"))
    assert s.to_act == 0
    s, _ = steps(s, (0, "-"))
    assert s.to_act == 1


def test_gj26_gj35_yield_on_the_huiwu_skips_the_starters_teammate():
    """GJ-26 with GJ-35: seat 3 yields on the 会五 of its opposite, the starter 0. next(3) = 4
    is the starter's teammate, no responder of the 会五: skipped, not replaced; seat 5 acts,
    then 3; then the round ends and the starter leads again."""
    b = dealt(starter=0, huiwu_team="even")
    hands = ["Ks", "Kc 9c", "Kh 9h", "7s 7h 9s", "6s 6h Qh", "8s 8h Qc"]
    s = pos(b, hands=hands, top=("5s 5h", 0, True), passed=[1], to_act=3, last=1,
            huiwu_due=False)
    s, _ = steps(s, (3, "rang"))
    assert (s.to_act, s.rang_wait) == (5, (5,))
    s, _ = steps(s, (5, "-"))
    assert s.to_act == 3
    s, derived = steps(s, (3, "-"))
    assert fs(derived) == [("ROUND_END", 0, 0, 0, "passes")]


def test_gj26_gj35_next_seat_beats_the_huiwu_during_the_yield():
    """GJ-26 with GJ-35: during 3's yield seat 5 beats the 会五; then 3 acts in its deferred
    place; the turn goes on after next(next(3)) = 5 with the starter 0, and the starter's
    teammate 4 (skipped during the yield, never locked) is a responder of later plays."""
    b = dealt(starter=0, huiwu_team="even")
    hands = ["Ks", "Kc 9c", "Kh 9h", "7s 7h 9s", "6s 6h Qh", "8s 8h Qc"]
    s = pos(b, hands=hands, top=("5s 5h", 0, True), passed=[1], to_act=3, last=1,
            huiwu_due=False)
    s, _ = steps(s, (3, "rang"), (5, "8s 8h"))
    assert s.to_act == 3
    s, _ = steps(s, (3, "-"))
    assert s.to_act == 0
    s, _ = steps(s, (0, "-"))
    assert s.to_act == 2
    s, _ = steps(s, (2, "-"))
    assert s.to_act == 4


def test_gj26_legal_actions_during_a_yield_are_exactly_the_legal_ones():
    """GJ-26 with legal_actions: at next(D)'s turn and at D's deferred turn the listed actions
    are exactly those check accepts (no second yield for D; no yield for next(D))."""
    s, _ = steps(rang_base(), (3, "rang"))
    assert_legal_actions_exact(s)
    assert "RANG" not in {a.kind for a in gouji.legal_actions(s)}
    s, _ = steps(s, (4, "-"), (5, "-"))
    assert s.to_act == 3
    assert_legal_actions_exact(s)
    assert {a.kind for a in gouji.legal_actions(s)} == {"PLAY", "PASS"}


def test_gj26_gj30_meitou_yielder_ends_a_burn_started_during_his_yield():
    """GJ-26 with GJ-20 (b)/GJ-30/GJ-41 (c): the yielder's opposite (0) went out with the top
    play, so the yielder 3 is 没头. During the yield the opened seat 4 burns 0's 够级 play;
    in his deferred place 3 may answer it: a 没头 answer that ends the burn (no new burn)."""
    hands = ["", "Kc 9c", "Kh 9h", "As Ad Ac 9s", "Ks Kd Kc 6h", "8s 8h Qc"]
    s = rang_base(hands=hands, top=("Qs Qh Qd", 0), out={0: (1, F)}, opened=[4])
    s, derived = steps(s, (3, "rang"), (4, "Ks Kd Kc"))
    assert fs(derived) == [("BURN_START", 4, 0, NONE, "burn")]
    s, _ = steps(s, (5, "-"))
    assert s.to_act == 3
    assert_legal_actions_exact(s)
    s, derived = steps(s, (3, "As Ad Ac"))
    assert fs(derived) == [("BURN_END", 4, NONE, NONE, "meitou")]
    assert s.burner == -1 and s.to_act == 4


# ================================================================ GJ-19 / GJ-20 / GJ-30

# Seat 3 played 5s and holds a single 3; seats 4 and 5 passed; seat 0 (3's opposite) answers.
STIFLE_HANDS = ["2s 9d", "BJ 9c", "Kh 9h", "3s", "6s 6h", "8s 8h"]


def stifle_base(**changes: Any) -> GoujiState:
    kw: dict[str, Any] = dict(hands=STIFLE_HANDS, top=("5s", 3), passed=[4, 5], to_act=0,
                              last=5)
    kw.update(changes)
    return pos(**kw)


def test_gj19_gj44_answer_that_stifles_the_answerers_opposite_is_ordinary():
    """GJ-19 (evaluated after the play's consequences) with GJ-44/GJ-30: seat 0 answers its
    opposite's 5s with a single 2 (够级-shaped); 3 is stifled, so 0 is 没头 and its 2 is
    ordinary: the annotation has no 'gouji', and the unopened seat 1 may answer it with BJ
    without burning."""
    s = stifle_base()
    e = play(0, "2s", s)
    assert e.tag == "answer+shaped"
    s, derived = apply_play(s, 0, "2s")
    assert fs(derived) == [("OUT", 3, NONE, 6, "men")]
    assert view(s, None)["top_is_gouji"] is False and view(s, None)["meitou"] == [0]
    s, derived = apply_play(s, 1, "BJ")
    assert derived == [] and s.burner == -1


def test_gj18_gj19_option_judged_not_out_the_answer_stays_gouji():
    """GJ-18 option judged_counts_as_out = false: the stifled opposite is ignored for 没头, so
    seat 0's single 2 stays a 够级 play, and the unopened seat 1 may only pass (GJ-20)."""
    s = stifle_base(options=NOT_JUDGED)
    e = play(0, "2s", s)
    assert e.tag == "answer+shaped+gouji"
    s, derived = apply_play(s, 0, "2s")
    assert fs(derived) == [("OUT", 3, NONE, 6, "men")]
    assert view(s, None)["top_is_gouji"] is True and view(s, None)["meitou"] == []
    illegal(s, play(1, "BJ", s), "GJ-20")
    assert {a.kind for a in gouji.legal_actions(s)} == {"PASS"}


def test_gj18_option_judged_not_out_a_stifle_does_not_open_the_phase():
    """GJ-18: with judged_counts_as_out = false, a 闷 after one player went out does not open
    the phase (locks stay); with the default it does (PHASE_OPEN, locks freed)."""
    hands = ["2s 9d", "", "Kh 9h", "3s", "6s 6h", "8s 8h"]
    s = stifle_base(hands=hands, out={1: (1, F)}, options=NOT_JUDGED)
    s, derived = apply_play(s, 0, "2s")
    assert fs(derived) == [("OUT", 3, NONE, 6, "men")]
    assert not s.open_phase and s.passed == mask(4, 5)
    s = stifle_base(hands=hands, out={1: (1, F)})
    s, derived = apply_play(s, 0, "2s")
    assert fs(derived) == [("OUT", 3, NONE, 6, "men"), ("PHASE_OPEN", -1, NONE, NONE, "")]
    assert s.open_phase and s.passed == 0 and s.to_act == 2


def test_gj19_gj20_a_play_with_which_its_maker_went_out_stays_gouji_and_may_be_burnt():
    """GJ-19/GJ-20/GJ-39: seat 1 went out with Ks Kd (its opposite 4 active): still a 够级
    play; the opened seat 2 burns it (BURN_START taken from the out seat 1); unopened 3 may
    not answer it; 4 (the opposite) may."""
    hands = ["9s", "", "As Ac 7s", "Ah Ad 7h", "2s 2c 7d", "Qs Qc 8h"]
    s = pos(hands=hands, top=("Ks Kd", 1), out={1: (1, F)}, to_act=2, last=1, opened=[2])
    assert view(s, None)["top_is_gouji"] is True
    s2, derived = apply_play(s, 2, "As Ac")
    assert fs(derived) == [("BURN_START", 2, 1, NONE, "burn")]
    s3, _ = do(s, "PASS", 2)
    illegal(s3, play(3, "Ah Ad", s3), "GJ-20")
    s4, _ = do(s3, "PASS", 3)
    s4, derived = apply_play(s4, 4, "2s 2c")
    assert derived == [] and s4.burner == -1


def test_gj20_gj30_meitou_seat_legal_actions_include_answers_to_any_gouji_play():
    """GJ-20 (b)/GJ-30 (b): a 没头 responder's listed actions include every answer that beats
    a non-opposite's 够级 play, without being opened; listed = accepted."""
    hands = ["2h 2d 9s", "Ah Ad 9c", "6c", "", "6h", "8s 8c"]
    s = pos(hands=hands, out={3: (1, F)}, top=("Kh Kd", 1), to_act=0, last=5, passed=[5, 4])
    assert view(s, None)["meitou"] == [0] and view(s, None)["top_is_gouji"] is True
    assert_legal_actions_exact(s)
    assert any(a.kind == "PLAY" for a in gouji.legal_actions(s))


def test_gj25_open_phase_legal_actions_anyone_answers_shaped_plays():
    """GJ-25 with legal_actions: in the open phase an unopened non-opposite may answer a
    shaped play (nothing is 够级, no burn); listed = accepted."""
    hands = ["9s", "Ah Ad 7h", "", "", "2s 2c 7d", "Qs Qc 8h"]
    s = pos(hands=hands, top=("Ks Kd", 0), out={2: (1, F), 3: (2, F)}, open_phase=True,
            to_act=1, last=0)
    assert_legal_actions_exact(s)
    s, derived = apply_play(s, 1, "Ah Ad")
    assert derived == [] and s.burner == -1


# ================================================================ GJ-39 … GJ-43 burning


def test_gj41d_gj44_gj48_take_that_stifles_the_burnt_player_and_opens_the_phase():
    """GJ-41 (d)/GJ-44/GJ-48: seat 0 is out; seat 2 (opened) burns seat 1's Ks Kd, which left
    1 a single 3: BURN_START, then 1 is stifled (6th), the phase opens and the burn ends at
    once (open_phase) — in that order; the take is not 够级 any more."""
    hands = ["", "3s", "As Ac 7s", "Ah Ad 7h", "2s 2c 7d", "9s"]
    s = pos(hands=hands, top=("Ks Kd", 1), out={0: (1, F)}, to_act=2, last=1, opened=[2])
    assert play(2, "As Ac", s).tag == "answer+shaped+pure"
    s, derived = apply_play(s, 2, "As Ac")
    assert fs(derived) == [("BURN_START", 2, 1, NONE, "burn"), ("OUT", 1, NONE, 6, "men"),
                           ("PHASE_OPEN", -1, NONE, NONE, ""),
                           ("BURN_END", 2, NONE, NONE, "open_phase")]
    assert s.burner == -1 and s.to_act == 3


def test_gj40_gj15_burner_leading_a_big_joker_keeps_the_burn_and_leads_again():
    """GJ-40/GJ-15: the burner's lead RJ contains a joker: the round ends at once, he wins it,
    is still the burner and leads again (a joker-less lead would now be 诈烧)."""
    hands = ["9s 8s", "RJ 9c BJ", "6c 7c", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, burner=1, to_act=1, last=1)
    s, derived = apply_play(s, 1, "RJ")
    assert fs(derived) == [("ROUND_END", 1, 1, 0, "big_joker")]
    assert s.burner == 1 and s.to_act == 1
    assert play(1, "9c", s).tag == "lead+void"
    assert play(1, "9c BJ", s).tag == "lead+shaped+gouji"


def test_gj41b_the_burnt_player_counter_burns():
    """GJ-41 (b): the burner 1 took seat 0's play; 0 (opened, not 没头, not 1's opposite)
    answers the burner's lead: 反烧 — BURN_END countered, BURN_START counter taken from 1."""
    hands = ["Ts RJ 8s", "9c 9d", "6c 7c", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, top=("9s BJ", 1), burner=1, to_act=0, last=5, passed=[2, 3, 4, 5],
            opened=[0, 1])
    s, derived = apply_play(s, 0, "Ts RJ")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "countered"),
                           ("BURN_START", 0, 1, NONE, "counter"),
                           ("ROUND_END", 0, 0, 0, "big_joker")]
    assert s.burner == 0


def test_gj41b_counter_burn_needs_the_licence_for_the_burnt_player_too():
    """GJ-41 (b)/GJ-20: the same answer by an unopened burnt player is rejected (GJ-20)."""
    hands = ["Ts RJ 8s", "9c 9d", "6c 7c", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, top=("9s BJ", 1), burner=1, to_act=0, last=5, passed=[2, 3, 4, 5],
            opened=[1])
    illegal(s, play(0, "Ts RJ", s), "GJ-20")
    assert {a.kind for a in gouji.legal_actions(s)} == {"PASS"}


def test_gj43_false_burn_void_play_lowest_place_phase_and_next_leader_skips_out_seats():
    """GJ-43/GJ-45/GJ-48: the burner 1 leads 9s (no joker): 诈烧. BURN_END fake, OUT 6th
    (zhashao), the phase opens (2 is out), and the round ends with no winner; the play is void
    (never the top play); the first active seat after 1 — seat 3, as 2 is out — leads."""
    hands = ["9d 8s", "9s BJ 7s", "", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, out={2: (1, F)}, burner=1, to_act=1, last=1)
    e = play(1, "9s", s)
    assert e.tag == "lead+void"
    s, derived = settle(gouji.apply(s, e))
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "fake"), ("OUT", 1, NONE, 6, "zhashao"),
                           ("PHASE_OPEN", -1, NONE, NONE, ""),
                           ("ROUND_END", -1, 3, 0, "fake_burn")]
    assert (s.top_seat, s.to_act, s.burner) == (-1, 3, -1)


def test_gj43_option_judged_not_out_false_burn_does_not_open_the_phase():
    """GJ-18/GJ-43: with judged_counts_as_out = false the 诈烧 after one player went out does
    not open the phase, and the burner's opposite 4 is not 没头."""
    hands = ["9d 8s", "9s BJ 7s", "", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, out={2: (1, F)}, burner=1, to_act=1, last=1, options=NOT_JUDGED)
    s, derived = settle(gouji.apply(s, play(1, "9s", s)))
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "fake"), ("OUT", 1, NONE, 6, "zhashao"),
                           ("ROUND_END", -1, 3, 0, "fake_burn")]
    assert not s.open_phase and view(s, None)["meitou"] == [5]


def test_gj21_gj40_burner_lead_legal_actions_list_void_plays():
    """GJ-21/GJ-40/GJ-43: a burner's joker-less leads are not rejected: legal_actions lists
    them (tagged void) and exactly what check accepts."""
    hands = ["9d 8s", "9s 9h BJ 3s", "6c 7c", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, burner=1, to_act=1, last=1)
    assert_legal_actions_exact(s)
    tags = {tuple(format_face(c) for c in a.cards): a.tag for a in gouji.legal_actions(s)
            if a.kind == "PLAY"}
    assert tags[("9s",)] == "lead+void" and tags[("9s", "9h")] == "lead+void"
    assert tags[("9s", "BJ")] == "lead+shaped+gouji" and tags[("BJ",)] == "lead+shaped+gouji"


def test_gj26_gj41b_counter_burn_during_the_burners_opposites_yield():
    """GJ-26 with GJ-41 (b): the burner 1's take is top; 1's opposite 4 yields; 5 (opened)
    counter-burns; 0 passes; 4, in its deferred place, may only pass (5's play is 够级 and 4
    is not 5's opposite nor opened); the turn then goes on after next(next(4)) = 0: seat 1."""
    hands = ["9d 8s", "9c 9h", "6c 7c", "6d 7d", "2s 2c 6h", "Ah Ad 8c"]
    s = pos(hands=hands, top=("Ks Kd", 1), burner=1, to_act=4, last=3, passed=[2, 3],
            opened=[1, 5])
    s, derived = steps(s, (4, "rang"), (5, "Ah Ad"))
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "countered"),
                           ("BURN_START", 5, 1, NONE, "counter")]
    s, _ = steps(s, (0, "-"))
    assert s.to_act == 4 and {a.kind for a in gouji.legal_actions(s)} == {"PASS"}
    s, _ = steps(s, (4, "-"))
    assert s.to_act == 1


# ================================================================ GJ-44 / GJ-45 闷


def test_gj44_a_teammates_answer_stifles():
    """GJ-44: seat 0's 5s left it a single 3; its teammate 2 answers: 0 is stifled (6th)."""
    hands = ["3s", "9c 9h", "6c 7c", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, top=("5s", 0), passed=[1], to_act=2, last=1)
    s, derived = apply_play(s, 2, "6c")
    assert fs(derived) == [("OUT", 0, NONE, 6, "men")]


def test_gj44_threes_only_a_beaten_play_leaving_three_3s_stifles():
    """GJ-44 men_scope = threes_only: a hand of only 3s (three of them) is stifled; under the
    default single_three it is not."""
    hands = ["3s 3c 3h", "9c 9h", "6c 7c", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, top=("5s", 0), to_act=1, last=0, options=THREES_ONLY)
    s, derived = apply_play(s, 1, "9c")
    assert fs(derived) == [("OUT", 0, NONE, 6, "men")]
    s = pos(hands=hands, top=("5s", 0), to_act=1, last=0)
    s, derived = apply_play(s, 1, "9c")
    assert derived == []


def test_gj48_counter_burn_take_that_empties_stifles_and_opens_in_order():
    """GJ-48/GJ-41/GJ-45: the burner 1 led 9s BJ, keeping a single 3; the opened seat 2
    counter-burns with its last cards Ts RJ: BURN_END countered, BURN_START counter, OUT 2
    (1st), BURN_END success, OUT 1 (men, 6th), PHASE_OPEN, then ROUND_END (big joker, 2 is
    out so 3 catches the wind)."""
    hands = ["9d 8s", "3s", "Ts RJ", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, top=("9s BJ", 1), burner=1, to_act=2, last=1, opened=[1, 2])
    s, derived = apply_play(s, 2, "Ts RJ")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "countered"),
                           ("BURN_START", 2, 1, NONE, "counter"),
                           ("OUT", 2, NONE, 1, F), ("BURN_END", 2, NONE, NONE, "success"),
                           ("OUT", 1, NONE, 6, "men"), ("PHASE_OPEN", -1, NONE, NONE, ""),
                           ("ROUND_END", 2, 3, 1, "big_joker")]


# ================================================================ GJ-33 / GJ-34 the end


def test_gj34_gj45_sweep_and_stifle_in_one_play_then_the_designation():
    """GJ-45/GJ-33/GJ-34: seats 0 and 2 are 1st and 2nd; seat 4's last card beats seat 1's
    play that left 1 a single 3: 4 goes out 3rd (串三户), then 1 is stifled (6th); the odd team
    designates its two other members over positions 4 and 5; 1 keeps 6th and, judged, takes
    no part in the designation (GJ-46)."""
    hands = ["", "3s", "", "Js Jc", "6h", "Qs Qc"]
    s = pos(hands=hands, top=("5s", 1), out={0: (1, F), 2: (2, F)}, open_phase=True,
            to_act=4, last=3, passed=[])
    s, derived = apply_play(s, 4, "6h")
    assert fs(derived) == [("OUT", 4, NONE, 3, F), ("OUT", 1, NONE, 6, "men")]
    assert s.stage == "designate"
    with pytest.raises(EngineError):
        gouji.check(s, act(s, "DESIGNATE", 5, payload=json.dumps({"order": [1, 3, 5]})))
    assert gouji.due_seat(s) == 3                 # 1 is judged: no further part (GJ-46)
    illegal(s, act(s, "DESIGNATE", 1, payload=json.dumps({"order": [5, 3]})), "GJ-46")
    s, derived = do(s, "DESIGNATE", 3, payload=json.dumps({"order": [5, 3]}))
    p = payload(derived[0])
    assert p["positions"] == [1, 6, 2, 5, 3, 4]
    assert (p["chuansanhu"], p["next_starter"], p["next_huiwu_team"]) == ("even", 1, "odd")
    assert p["team_totals"] == {"even": 3, "odd": -3}


def test_gj34_third_member_placed_by_gj33_after_a_stifle_is_a_sweep():
    """GJ-34 (completion): seats 0 and 2 are 1st and 2nd, 1 and 3 judged; seat 4's answer
    stifles seat 5 (4th); 4 is left alone and takes 3rd by GJ-33: a 串三户 with nothing to
    designate: OUT men, OUT last, GAME_END; the next game opens with the odd team's 会五."""
    hands = ["", "", "", "", "6h 7h", "3s"]
    out = {0: (1, F), 2: (2, F), 1: (6, "men"), 3: (5, "men")}
    s = pos(hands=hands, top=("5s", 5), out=out, open_phase=True, to_act=4, last=5)
    s, derived = apply_play(s, 4, "6h")
    assert fs(derived)[:2] == [("OUT", 5, NONE, 4, "men"), ("OUT", 4, NONE, 3, "last")]
    assert derived[2].kind == "GAME_END" and len(derived) == 3
    p = payload(derived[2])
    assert (p["chuansanhu"], p["designation"], p["next_huiwu_team"], p["next_starter"]) == \
        ("even", None, "odd", 1)


# ================================================================ GJ-35 会五


def huiwu_after_play(**changes: Any) -> GoujiState:
    """Seat 1 (starter, odd team) played the 会五 5s 5h 5c; seat 2 is the first responder."""
    b = dealt(starter=1, huiwu_team="odd")
    kw: dict[str, Any] = dict(hands=["6s 6h 6c 9s", "9h", "8s 8c 8h 9c", "Th", "9d Td", "Jh"],
                              top=("5s 5h 5c", 1, True), huiwu_due=False, to_act=2, last=1)
    kw.update(changes)
    return pos(b, **kw)


def test_gj35_huiwu_responders_are_the_other_team_from_the_starter_and_listed_exactly():
    """GJ-35/GJ-22: the responders of the 会五 are the other team's players, from the
    starter in turn order (2, 4, 0); the starter's teammates 3 and 5 are neither responders
    nor locked; seat 2's listed actions are exactly the legal ones (it may not yield: the top
    is not its opposite's)."""
    s = huiwu_after_play()
    assert view(s, None)["responders"] == [0, 2, 4]
    assert_legal_actions_exact(s)
    s, _ = steps(s, (2, "-"), (4, "-"))
    assert s.to_act == 0 and s.passed == mask(2, 4)
    s, derived = steps(s, (0, "6s 6h 6c"))
    assert derived == [] and s.to_act == 1
    assert view(s, None)["responders"] == [1, 3, 5]


def test_gj35_gj26_the_starters_opposite_may_yield_on_the_huiwu():
    """GJ-35 with GJ-26: seat 4, the starter's opposite, may yield on the 会五: next(4) = 5 is
    the starter's teammate (no responder, skipped), next(next(4)) = 0 acts, then 4."""
    s = huiwu_after_play()
    s, _ = steps(s, (2, "-"))
    assert s.to_act == 4 and "RANG" in {a.kind for a in gouji.legal_actions(s)}
    s, _ = steps(s, (4, "rang"))
    assert (s.to_act, s.rang_wait) == (0, (0,))
    s, _ = steps(s, (0, "-"))
    assert s.to_act == 4
    s, derived = steps(s, (4, "-"))
    assert fs(derived) == [("ROUND_END", 1, 1, 0, "passes")]


# ================================================================ GJ-36 … GJ-38 开点


def test_gj36_pure_play_stands_after_a_yield_then_natural_4s_are_kaidian():
    """GJ-36 with GJ-26: seat 0's Ks Kd (pure 够级) stands after its opposite yielded and
    everyone passed; its next play, a lead of natural 4s, is 开点."""
    hands = ["4s 4c 9s", "9c", "9d", "Ts Tc", "Js Jc", "Qs Qc"]
    s = pos(hands=hands, top=("Ks Kd", 0), passed=[1, 2], to_act=3, last=2)
    s, derived = steps(s, (3, "rang"), (4, "-"), (5, "-"), (3, "-"))
    assert fs(derived) == [("ROUND_END", 0, 0, 0, "passes")]
    assert s.kd_cand == 0
    s, derived = steps(s, (0, "4s 4c"))
    assert fs(derived) == [("OPENED", 0, NONE, NONE, "kaidian")]


@pytest.mark.parametrize(("opts", "cand"), [(NOT_JUDGED, 0), (options(), -1)])
def test_gj36_gj18_pure_play_stands_while_the_makers_opposite_is_judged(opts, cand):
    """GJ-36 with GJ-18/GJ-19: seat 3 (0's opposite) was stifled. Under
    judged_counts_as_out = false seat 0's pure Ks Kd is still 够级 when it stands, so 0 is the
    开点 candidate; by default 0 is 没头, its play is ordinary and there is no candidate."""
    hands = ["4s 4c 9s", "9c", "9d", "Ts Tc", "Js Jc", "Qs Qc"]
    s = pos(hands=hands, top=("Ks Kd", 0), passed=[1, 2, 4], to_act=5, last=4,
            out={3: (6, "men")}, options=opts)
    s, derived = steps(s, (5, "-"))
    assert fs(derived) == [("ROUND_END", 0, 0, 0, "passes")]
    assert s.kd_cand == cand
    e = play(0, "4s 4c", s)
    assert e.tag == ("lead+kaidian" if cand == 0 else "lead")


def test_gj36_gj48_kaidian_with_the_last_cards_opened_before_out():
    """GJ-36/GJ-48: the candidate leads its last cards, natural 4s: 开点 (tag kaidian), and the
    derived events are OPENED, then OUT."""
    hands = ["4s 4c", "9c", "9d", "Ts Tc", "Js Jc", "Qs Qc"]
    s = pos(hands=hands, kaidian_candidate=0, to_act=0, last=0)
    assert play(0, "4s 4c", s).tag == "lead+kaidian"
    s, derived = steps(s, (0, "4s 4c"))
    assert fs(derived) == [("OPENED", 0, NONE, NONE, "kaidian"), ("OUT", 0, NONE, 1, F)]


def test_gj38_legal_actions_while_a_xuandian_awaits_its_answer():
    """GJ-38: while a 宣点 awaits its answer only the proposer's opposite acts (和点 agree or
    refuse); legal_actions lists exactly those; afterwards the other pairs may still declare
    and the starter leads."""
    s = pos(dealt(), window=True, to_act=0, last=0)
    s, _ = do(s, "XUANDIAN", 4)
    assert {(a.kind, a.seat, a.tag) for a in gouji.legal_actions(s)} == \
        {("HEDIAN", 1, "agree"), ("HEDIAN", 1, "refuse")}
    s, derived = do(s, "HEDIAN", 1, tag="agree")
    assert fs(derived) == [("OPENED", 4, NONE, NONE, "hedian"), ("OPENED", 1, NONE, NONE,
                                                                    "hedian")]
    decl = {a.seat for a in gouji.legal_actions(s) if a.kind == "XUANDIAN"}
    assert decl == {0, 2, 3, 5}


# ================================================================ GJ-47 / GJ-49


def test_gj46_gj47_judged_players_dead_cards_are_seen_by_the_auditor_only():
    """GJ-46/GJ-47: a stifled player's dead cards stay in the position (GJ-49) for the
    auditor; no other seat's view shows them or their count."""
    s, _ = apply_play(stifle_base(), 0, "2s")
    assert s.out_how[3] == "men" and s.hands[3]
    assert view(s, None)["hands"][3] == ["3s"]
    for seat in (0, 1, 2, 4, 5):
        assert view(s, seat)["hands"][3] is None


def test_gj49_nothing_else_is_needed_the_last_actor_field_does_not_change_the_game():
    """GJ-49: "Nothing else is needed to go on from a position": two positions that differ
    only in the engine's extra field `last` continue identically (legal actions and the
    turn after each of them), here during a yield."""
    s, _ = steps(rang_base(), (3, "rang"))
    p = to_position(s)
    other = from_position(dict(p, last=0))
    assert listed_legal(s) == listed_legal(other)
    for a in gouji.legal_actions(s):
        x, _ = settle(gouji.apply(s, a))
        y, _ = settle(gouji.apply(other, a._replace(seq=other.seq)))
        assert (x.to_act, x.rang_seat, x.rang_wait, x.top_seat) == \
            (y.to_act, y.rang_seat, y.rang_wait, y.top_seat)


def test_gj34_designation_legal_actions_are_every_order_by_every_swept_member():
    """GJ-34/GJ-48: in the designate stage the listed actions are exactly the accepted ones:
    every unplaced member of the swept team (not a judged one: GJ-46), every order of its
    unplaced seats; nothing for the sweeping team."""
    hands = ["", "Ts Tc", "", "Js Jc", "9h", "Qs Qc"]
    s = pos(hands=hands, out={0: (1, F), 2: (2, F), 5: (6, "men")}, open_phase=True,
            to_act=4, last=4)
    s, _ = apply_play(s, 4, "9h")
    assert s.stage == "designate"
    listed = {(a.seat, tuple(json.loads(a.payload)["order"])) for a in gouji.legal_actions(s)}
    assert listed == {(m, o) for m in (1, 3) for o in ((1, 3), (3, 1))}
    for seat in range(6):
        for order in itertools.permutations([1, 3, 5, 0], 2):
            e = act(s, "DESIGNATE", seat, payload=json.dumps({"order": list(order)}))
            assert _accepted(s, e) == ((seat, order) in listed)


def test_gj26_reading_a_yield_right_after_the_opposites_deferred_answer_is_allowed():
    """GJ-26 (ambiguity, engine reading): seat 0 gets the turn right after its opposite 3
    answered in a deferred place, before 4 (one of "the two players before him") has acted
    on that play; the engine still lets 0 yield, since the top play is its opposite's."""
    hands = ["9s 9d Ks", "8s 8d Kc", "", "7s 7h Ts", "6s 6h Qh", ""]
    s = pos(hands=hands, top=("5s 5h", 0), out={2: (1, F), 5: (2, F)}, open_phase=True,
            passed=[1], to_act=3, last=1)
    s, _ = steps(s, (3, "rang"), (4, "6s 6h"), (3, "7s 7h"))
    assert s.to_act == 0 and s.top_seat == 3
    assert "RANG" in {a.kind for a in gouji.legal_actions(s)}


@pytest.mark.parametrize(("opts", "opens"), [(options(), True), (NOT_JUDGED, False)])
def test_gj45_a_false_burn_after_a_stifle_takes_the_next_lowest_place(opts, opens):
    """GJ-45/GJ-43/GJ-18: seat 1 was stifled (6th); the burner 2 commits 诈烧 and takes the
    lowest free place, 5th. Two judged players open the phase by default, not under
    judged_counts_as_out = false; either way the first active seat after 2 (seat 3) leads."""
    hands = ["9d 8s", "3s", "9s BJ 7s", "6d 7d", "6h 7h", "8d 8c"]
    s = pos(hands=hands, out={1: (6, "men")}, burner=2, to_act=2, last=2, options=opts)
    s, derived = settle(gouji.apply(s, play(2, "7s", s)))
    want = [("BURN_END", 2, NONE, NONE, "fake"), ("OUT", 2, NONE, 5, "zhashao")]
    if opens:
        want.append(("PHASE_OPEN", -1, NONE, NONE, ""))
    want.append(("ROUND_END", -1, 3, 0, "fake_burn"))
    assert fs(derived) == want
    assert s.open_phase == opens
