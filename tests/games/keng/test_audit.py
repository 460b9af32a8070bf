"""An independent audit of the 六人坑 engine against keng.md: interactions between rules that the
per-section test files do not reach (automatic-event order, windows and bans across reshuffles
and skips, duels that end in a penalty, a reshuffle or a result), the field use of events
(docs/log-format.md), the listing of legal actions, and one open reading of KENG-48."""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_face, parse_faces
from engine.errors import InvalidEvent
from engine.games import keng

from .conftest import (
    accept,
    cards_of,
    count,
    draw,
    duel_play,
    ev,
    hand,
    kinds,
    owed,
    pass_,
    play,
    pos,
    rejected,
    run,
    settle,
    snatch,
    started,
)
from .test_setup import _flip, starting

BAN1 = [False, True, False, False, False, False]
BAN3 = [False, False, False, True, False, False]
# 17 cards with no heart and no 7 (so no legal play on 7h), for hand-limit scenarios at 18
HAND17 = "2s 3s 4s 6s 8s 9s Ts 2c 3c 4c 6c 8c 9c Tc 2d 3d 4d"


# ---------------------------------------------------------------- KENG-9 with KENG-30

def test_keng_9_a_start_card_opener_without_a_duel_card_loses_then_takes_the_first_turn():
    """KENG-9 (A row) and KENG-30 steps 3-5: the opener defends first; with no A and no number
    card of the A's suit it loses at once, draws the one duel card, and then still takes the
    first turn (the original next seat of a start card is the opener), against the A."""
    s = starting("As", opener=1, hands={1: "9d 2h 3h", 4: "2c 3c"})
    s, done = _flip(s)
    assert kinds(done) == ["DUEL_START", "DUEL_END"]
    assert (done[1].seat, done[1].value, len(done[1].cards)) == (1, 1, 1)
    assert s.duel is None and len(s.hands[1]) == 4
    assert (s.to_act, s.top, s.pending) == (1, cards_of("As"), 0)
    assert rejected(s, play(s, 2, hand(s, 2).split()[0])).rule_id == "KENG-30"  # seat 2 waits


# ---------------------------------------------------------------- KENG-30 around the duel

def test_keng_30_report_penalty_comes_before_the_duel_end_check():
    """Section 13 steps 4-5 with KENG-33 and KENG-30 step 3: the challenger's A leaves it one
    card; the defender's duel play ends that deadline. REPORT_PENALTY is drawn first, and only
    then is the challenger, now to act, judged: the penalty gave it 6h, a legal duel card, so
    no DUEL_END follows and it must play on."""
    s = pos({0: "Ah 2c", 3: "5h 9d 2d"}, top="5h", to_act=0, stock="6h 2s 3s 4s")
    s, done = settle(run(s, play(s, 0, "Ah")))
    assert kinds(done) == ["DUEL_START"] and s.report_seat == 0
    s, done = settle(run(s, duel_play(s, 3, "5h")))
    assert kinds(done) == ["REPORT_PENALTY"]
    assert s.hands[0] == cards_of("2c 6h 2s") and s.duel.to_act == 0
    assert [a.cards for a in keng.turn_actions(s)] == [cards_of("6h")]


def test_keng_30_duel_loser_over_the_hand_limit_loses_the_game():
    """KENG-30 step 4 with KENG-47 (section 13: DUEL_END is a draw followed by steps 1-4): the
    loser's draw that takes it over the limit ends the game; the original next seat never
    plays."""
    s = pos({0: "Ah 2c 3c", 3: HAND17 + " 7d"}, top="5h", to_act=0,
            options={"keng_hand_limit": 18})
    s, done = settle(run(s, play(s, 0, "Ah")))
    assert kinds(done) == ["DUEL_START", "DUEL_END", "GAME_END"]
    assert (done[-1].seat, done[-1].tag) == (3, "over_limit")
    assert s.result["winning_team"] == "even" and len(s.hands[3]) == 19


def test_keng_30_duel_end_split_by_a_reshuffle_of_the_duel_cards():
    """KENG-30 step 4 with KENG-43 and section 13 (draws across a reshuffle): the loser's draw
    empties the stock; the played cards under the top play, the earlier duel cards included,
    become the new stock; the draw continues from it; then the original next seat acts."""
    s = pos({0: "Ah 5s 2c", 3: "5h 9d 2d"}, top="5h", to_act=0, stock="2h", table="3h 4h")
    s, _ = settle(run(s, play(s, 0, "Ah")))
    s = run(s, duel_play(s, 3, "5h"), lambda t: duel_play(t, 0, "5s"))
    s, done = settle(s, random.Random(0))
    assert kinds(done) == ["DUEL_END", "RESHUFFLE", "DUEL_END"]
    assert (done[0].seat, done[0].value, done[0].cards) == (3, 3, cards_of("2h"))
    assert sorted(done[1].cards) == sorted(cards_of("3h 4h 5h Ah 5h"))
    assert (done[2].seat, done[2].value, done[2].tag) == (3, 2, "continued")
    assert len(s.hands[3]) == 5 and len(s.stock) == 3 and s.cycle == 2
    assert (s.to_act, s.top, s.duel) == (1, cards_of("5s"), None)


def test_keng_30_going_out_in_a_duel_lapses_the_other_duellists_report():
    """KENG-30 step 6, KENG-46 and section 13 step 1: the challenger's A leaves it one card,
    unreported; the defender goes out with its duel play, which would end that deadline, but
    GAME_END comes first and nothing follows it."""
    s = pos({0: "Ah 2c", 3: "5h"}, top="5h", to_act=0, cycle=2)
    s, _ = settle(run(s, play(s, 0, "Ah")))
    assert s.report_seat == 0
    s, done = settle(run(s, duel_play(s, 3, "5h")))
    assert kinds(done) == ["GAME_END"]
    assert s.result["deciding_seat"] == 3 and s.hands[0] == cards_of("2c")


# ---------------------------------------------------------------- KENG-35 where play goes on

def test_keng_35_snatch_hands_the_seat_that_drew_a_fresh_turn():
    """KENG-35/KENG-15 with KENG-12: seat 0's J reverses play to seat 5, which has drawn two
    when seat 4 snatches the J; the snatch reverses again, so seat 5 is the snatcher's next
    seat. It keeps the two cards but its turn is a new one: it may not pass on the strength of
    the earlier draw, and (holding no legal play) it draws two again."""
    s = pos({0: "Jh 2c 3c", 4: "Jh 7c 7d", 5: "2d 3d 4s"}, top="5h", to_act=0, cycle=2,
            window=False, stock="6s 8c 2s 3s 9c")
    s = run(s, play(s, 0, "Jh"))
    assert (s.direction, s.to_act) == (-1, 5)
    s = run(s, draw(s, 5))
    assert s.drawn and s.hands[5] == cards_of("2d 3d 4s 6s 8c")
    s = run(s, snatch(s, 4, "Jh", "valid"))
    assert (s.direction, s.to_act, s.drawn) == (1, 5, False)
    assert s.hands[5] == cards_of("2d 3d 4s 6s 8c")
    assert rejected(s, pass_(s, 5)).rule_id == "KENG-12"
    assert run(s, draw(s, 5)).hands[5] == cards_of("2d 3d 4s 6s 8c 2s 3s")


# ---------------------------------------------------------------- KENG-36 / KENG-37 / KENG-45

def test_keng_36_window_stays_open_across_a_reshuffle_and_case_3_is_judged_at_the_claim():
    """KENG-36: draws and the reshuffle they cause leave the window open. KENG-37 case 3 and
    KENG-38 ("judged when it is made"): in cycle 2 a seat holding one card cannot snatch (a
    false call); once the due seat's draw has started cycle 3, the same claim in the same
    window is valid and goes out (KENG-45, KENG-46)."""
    s = pos({0: "7h 2c 3c", 3: "7h", 1: "2d 3d"}, top="5h", to_act=0, cycle=2, window=False,
            stock="2s", table="4c 6c 8c")
    s = run(s, play(s, 0, "7h"))
    assert keng.claim(s, 3, parse_face("7h")).tag == "false"
    s, done = settle(run(s, draw(s, 1)), random.Random(1))
    assert kinds(done) == ["RESHUFFLE", "DRAW"]
    assert s.cycle == 3 and s.window
    s, done = settle(run(s, snatch(s, 3, "7h", "valid")))
    assert kinds(done) == ["GAME_END"] and s.result["deciding_seat"] == 3


# ---------------------------------------------------------------- KENG-39 bans

def test_keng_39_a_q_window_ends_the_ban_of_the_skipped_seat():
    """KENG-39 with KENG-23/KENG-37: after seat 0's Q the seat due to act is seat 2; seat 1,
    skipped, is not due and holds Qh, so but for its ban it could have snatched: the window
    ends its ban when it closes (at seat 2's play)."""
    s = pos({0: "Qh 2c 3c", 1: "Qh 2d 3d", 2: "9h 4c"}, top="5h", to_act=0, cycle=2,
            window=False, banned=BAN1)
    s = run(s, play(s, 0, "Qh"))
    assert s.to_act == 2 and s.ban_armed == tuple(BAN1)
    assert keng.claim(s, 1, parse_face("Qh")).tag == "refused"
    s, done = settle(run(s, play(s, 2, "9h")))
    assert kinds(done) == ["BAN_END"] and done[0].seat == 1 and not any(s.banned)


def test_keng_39_ban_ended_by_a_snatch_lets_the_seat_snatch_the_snatch():
    """KENG-39 with KENG-36/KENG-40: seat 5's valid snatch closes the window that ends seat 3's
    ban (BAN_END right after it) and opens a new one, opened after the ban ended: seat 3 may
    now snatch the snatch."""
    s = pos({0: "7h 2c 3c", 3: "7h 4s 6s", 5: "7h 4c 6c"}, top="5h", to_act=0, cycle=2,
            window=False, banned=BAN3)
    s = run(s, play(s, 0, "7h"))
    assert s.ban_armed[3]
    s, done = settle(run(s, snatch(s, 5, "7h", "valid")))
    assert kinds(done) == ["BAN_END"] and not s.banned[3] and not s.ban_armed[3]
    assert s.window and s.to_act == 0
    s = run(s, snatch(s, 3, "7h", "valid"))
    assert (s.top_seat, s.to_act) == (3, 4)


# ---------------------------------------------------------------- section 13 order

def test_section_13_deadline_draw_split_and_over_the_limit_brings_only_game_end():
    """Section 13 (a split draw is one draw; KENG-47 after the continuation; GAME_END first and
    nothing after it): seat 1's draw ends seat 0's report deadline, is split by a reshuffle and
    takes seat 1 over the limit with its continuation: no REPORT_PENALTY follows."""
    s = pos({0: "7h 2c", 1: HAND17}, top="5h", to_act=0, stock="4d", table="9d 8d 6d",
            options={"keng_hand_limit": 18})
    s = run(s, play(s, 0, "7h"))
    assert s.report_seat == 0
    s = run(s, draw(s, 1))
    assert owed(s) == "RESHUFFLE" and len(s.hands[1]) == 18
    s, done = settle(s, random.Random(0))
    assert kinds(done) == ["RESHUFFLE", "DRAW", "GAME_END"]
    assert (done[-1].seat, done[-1].tag) == (1, "over_limit") and len(s.hands[0]) == 1


def test_section_13_penalty_split_by_a_reshuffle_then_the_duel_starts():
    """Section 13 steps 4-5 (a penalty is a draw with its own steps 1-2): seat 1's A ends seat
    0's report deadline; the REPORT_PENALTY empties the stock, the reshuffle follows, the
    penalty continues, and only then the A's DUEL_START."""
    s = pos({0: "7h 2c", 1: "Ah 2d 3d", 4: "9h 4c"}, top="5h", to_act=0, stock="4d",
            table="9d 8d 6d")
    s = run(s, play(s, 0, "7h"), lambda t: play(t, 1, "Ah"))
    s, done = settle(s, random.Random(0))
    assert kinds(done) == ["REPORT_PENALTY", "RESHUFFLE", "REPORT_PENALTY", "DUEL_START"]
    assert [e.tag for e in done] == ["", "", "continued", ""]
    assert (done[0].value, done[2].value) == (2, 1)
    assert len(s.hands[0]) == 3 and s.duel.defender == 4


def test_keng_44_snatch_penalty_with_nothing_to_draw_still_bans():
    """KENG-38/KENG-44 and the SNATCH_PENALTY row of section 13: with the stock empty and no
    card under the top play, the false call's penalty draws no card, but the ban starts."""
    s = pos({3: "4s 6s"}, top="7h", cycle=2, stock="", table="")
    s, done = settle(run(s, keng.claim(s, 3, None)))
    assert kinds(done) == ["SNATCH_PENALTY"]
    assert (done[0].cards, done[0].value) == ((), 1)
    assert s.banned[3] and s.hands[3] == cards_of("4s 6s")


# ---------------------------------------------------------------- KENG-13

def test_keng_13_draw_when_able_also_after_accepting():
    """KENG-13: with keng_draw_when_able on, a seat that has accepted P (and holds a legal play
    against the same top) may draw two instead of playing, then pass."""
    s = pos({0: "9h 2c"}, top="Kh", pending=2, stock="3s 4s 6c 8c",
            options={"keng_draw_when_able": True})
    s = run(s, accept(s, 0))
    assert "DRAW" in [a.kind for a in keng.turn_actions(s)]
    s = run(s, draw(s, 0))
    assert s.hands[0] == cards_of("9h 2c 3s 4s 6c 8c")
    assert run(s, pass_(s, 0)).to_act == 1
    off = pos({0: "9h 2c"}, top="Kh", pending=2, stock="3s 4s 6c 8c")
    off = run(off, accept(off, 0))
    assert rejected(off, draw(off, 0)).rule_id == "KENG-13"


# ---------------------------------------------------------------- KENG-41 listed actions

def test_keng_41_counts_before_the_start_card_are_listed():
    """KENG-41 ("at any moment of the game"): a count is legal between the deal and the start
    card, so legal_actions lists the counts there too, next to the START_CARD (fixed: the
    out-of-turn actions were listed only once play had started)."""
    s = started(4)
    acts = keng.legal_actions(s)
    assert [a.kind for a in acts].count("START_CARD") >= 1
    counts = [a for a in acts if a.kind == "COUNT"]
    assert len(counts) == 18
    for a in counts:
        keng.check(s, a)


# ---------------------------------------------------------------- KENG-50 views

def test_keng_50_view_does_not_depend_on_the_stock_order_mid_draw():
    """KENG-50: the stock order is seen by no seat, also while a draw waits for its
    continuation after a reshuffle (the owed draw shows only its seat, kind and count)."""
    s = pos({0: "2c"}, top="Kh Kh", by=5, pending=4, to_act=0, stock="6d",
            table="2s 3s 4s 6s 7s")
    s = run(s, accept(s, 0))
    assert owed(s) == "RESHUFFLE"
    a, b = (keng.apply(s, keng.auto_event(s, random.Random(k))) for k in (1, 2))
    assert a.stock != b.stock and a.owed == b.owed == (0, "ACCEPT", 3)
    for seat in range(6):
        assert keng.view(a, seat) == keng.view(b, seat)
    assert keng.view(a, None) != keng.view(b, None)


# ---------------------------------------------------------------- field use (section 13)

def _report_penalty_state():
    s = pos({0: "7h 2c"}, top="5h", to_act=0)
    s = run(s, play(s, 0, "7h"), lambda t: draw(t, 1))
    assert owed(s) == "REPORT_PENALTY"
    return s


def _game_end_state():
    s = pos({0: "9h"}, top="5h")
    s = run(s, play(s, 0, "9h"))
    assert owed(s) == "GAME_END"
    return s


@pytest.mark.parametrize("case", [
    "count_cards", "draw_target", "accept_target", "last_card_target", "start_card_target",
    "penalty_target", "penalty_payload", "game_end_cards", "game_end_target"])
def test_section_13_events_carry_only_their_fields(case):
    """Section 13 and docs/log-format.md (field use): an event carrying a field its kind does
    not use is not a valid event (fixed: these were accepted and recorded as they came)."""
    if case == "count_cards":
        s = pos(top="5h")
        e = count(s, 2, 5)._replace(cards=parse_faces("2c"))
    elif case == "draw_target":
        s = pos(top="5h")
        e = draw(s, 0)._replace(target=3)
    elif case == "accept_target":
        s = pos({0: "2c"}, top="Kh", pending=2)
        e = accept(s, 0)._replace(target=3)
    elif case == "last_card_target":
        s = pos({0: "7h 2c"}, top="5h", to_act=0)
        s = run(s, play(s, 0, "7h"))
        e = ev(s, "LAST_CARD", 0, target=2)
    elif case == "start_card_target":
        s = starting("7c", opener=1)
        e = ev(s, "START_CARD", 4, "7c", target=2)
    elif case.startswith("penalty"):
        s = _report_penalty_state()
        e = keng.auto_event(s)
        e = e._replace(target=4) if case == "penalty_target" else e._replace(payload="{}")
    else:
        s = _game_end_state()
        e = keng.auto_event(s)
        e = e._replace(cards=parse_faces("2c")) if case == "game_end_cards" \
            else e._replace(target=1)
    before = keng.to_position(s)
    with pytest.raises(InvalidEvent):
        keng.apply(s, e)
    assert keng.to_position(s) == before


# ---------------------------------------------------------------- KENG-48 (open reading)

def test_keng_48_passes_after_drawing_cards_do_not_make_a_stalemate():
    """KENG-48 read with section 14 item 19: the six passes must be made with nothing to draw;
    a seat that drew a card in the streak may hold a legal play it must make next time."""
    s = pos(top="5h", stock="9h 2s", table="")
    s = run(s, draw(s, 0), lambda t: pass_(t, 0))
    assert s.stock == () and s.table == ()
    for seat in range(1, 6):
        s = run(s, draw(s, seat), lambda t, seat=seat: pass_(t, seat))
    assert owed(s) is None
    assert s.to_act == 0 and "9h" in " ".join(keng.to_position(s)["hands"][0])
    assert rejected(s, draw(s, 0)).rule_id == "KENG-13"
