"""The duel (单挑) of keng.md KENG-30, started by an A (KENG-29)."""

from __future__ import annotations

import pytest

from engine.cards import parse_faces
from engine.games import keng

from .conftest import cards_of, count, draw, duel_play, ev, owed, play, pos, rejected, run, settle


def duel(hands: dict[int, str], challenger: int = 0, d: int = 1, a: str = "Ah", **kw):
    """A duel just started: ``challenger`` played ``a`` on 5h; DUEL_START applied."""
    s = pos(hands, top="5h", to_act=challenger, direction=d, **kw)
    s = run(s, play(s, challenger, a))
    assert owed(s) == "DUEL_START"
    return keng.apply(s, keng.auto_event(s))


def duel_faces(s) -> list[str]:
    return sorted(" ".join(str(c) for c in e.cards) for e in keng.turn_actions(s))


def test_keng_30_only_the_duellists_act_defender_first():
    """KENG-30: Only the duellists act defender first."""
    s = duel({0: "Ah 7s 2c", 3: "5h 9d 2d"})
    assert (s.duel.challenger, s.duel.defender, s.duel.to_act) == (0, 3, 3)
    assert rejected(s, duel_play(s, 0, "7s")).rule_id == "KENG-30"
    assert rejected(s, play(s, 1, "2c")).rule_id == "KENG-30"
    assert rejected(s, draw(s, 1)).rule_id == "KENG-30"
    assert rejected(s, play(s, 3, "5h")).rule_id == "KENG-30"      # PLAY, not DUEL_PLAY
    assert rejected(s, draw(s, 3)).rule_id == "KENG-30"            # no drawing
    assert rejected(s, ev(s, "PASS", 3)).rule_id == "KENG-30"      # no passing
    assert run(s, count(s, 1, 2)).count_used[1]                    # counting is allowed
    after = run(s, duel_play(s, 3, "5h"))
    assert after.duel.to_act == 0 and after.duel.cards == parse_faces("Ah 5h")


def test_keng_30_a_phase_any_a_or_a_number_of_the_last_a_suit():
    """KENG-30: A phase any A or a number card of the last A's suit."""
    s = duel({0: "Ah 7s 7h Ad 2c", 3: "As 5h 7d Kh Qh Jh BJ RJ 9h 9h"})
    # defender after Ah: any A, or a heart number card; no function card, no joker, no pair
    for bad in ("7d", "Kh", "Qh", "Jh", "BJ", "RJ"):
        assert rejected(s, duel_play(s, 3, bad)).rule_id == "KENG-30", bad
    assert rejected(s, duel_play(s, 3, "9h 9h")).rule_id == "KENG-30"
    assert duel_faces(s) == sorted([str(c) for c in cards_of("As 5h 9h")])
    s = run(s, duel_play(s, 3, "As"))              # the A changes the suit to spades
    assert rejected(s, duel_play(s, 0, "7h")).rule_id == "KENG-30"
    assert run(s, duel_play(s, 0, "Ad")).duel.cards == parse_faces("Ah As Ad")
    s = run(s, duel_play(s, 0, "7s"))
    assert s.duel.cards == parse_faces("Ah As 7s") and s.duel.to_act == 3


def test_keng_30_number_phase_suit_or_rank_of_the_last_card_and_no_more_a():
    """KENG-30: Number phase suit or rank of the last card and no more A."""
    s = duel({0: "Ah 7h 2c 3c", 3: "5h Ah Ac 7d 9h Kh 9c"})
    s = run(s, duel_play(s, 3, "5h"))
    s = run(s, duel_play(s, 0, "7h"))              # number phase from here
    assert rejected(s, duel_play(s, 3, "Ah")).rule_id == "KENG-30"   # even of the suit
    assert rejected(s, duel_play(s, 3, "Ac")).rule_id == "KENG-30"
    assert rejected(s, duel_play(s, 3, "Kh")).rule_id == "KENG-30"
    assert rejected(s, duel_play(s, 3, "9c")).rule_id == "KENG-30"
    assert run(s, duel_play(s, 3, "7d")).top == cards_of("7d")      # rank
    assert run(s, duel_play(s, 3, "9h")).top == cards_of("9h")      # suit


def test_keng_30_ten_is_a_number_card_in_the_duel():
    """KENG-30 with KENG-4: the number cards are 2-10, so a T may be played in the
    number phase, a J not."""
    s = duel({0: "Ah 9h 2c 3c", 3: "5h Th Jh 4d"})
    s = run(s, duel_play(s, 3, "5h"), lambda t: duel_play(t, 0, "9h"))
    assert rejected(s, duel_play(s, 3, "Jh")).rule_id == "KENG-30"
    assert run(s, duel_play(s, 3, "Th")).duel.cards[-1] == cards_of("Th")[0]


def test_keng_30_loser_draws_every_duel_card_and_original_next_seat_plays():
    """KENG-30: Loser draws every duel card and original next seat plays."""
    s = duel({0: "Ah 5s 2c 3c", 3: "5h 9d 2d", 1: "5d 8c 2h"},
             stock="2h 3h 4h 6h 7h 8h 9h")
    s = run(s, duel_play(s, 3, "5h"), lambda t: duel_play(t, 0, "5s"))
    # defender holds no spade and no 5: it loses and draws Ah 5h 5s = 3 cards
    assert owed(s) == "DUEL_END"
    e = keng.auto_event(s)
    assert (e.seat, e.value, e.cards) == (3, 3, cards_of("2h 3h 4h"))
    assert rejected(s, e._replace(value=2, cards=s.stock[:2])).rule_id == "KENG-30"
    assert rejected(s, e._replace(seat=0)).rule_id == "KENG-30"
    s = keng.apply(s, e)
    assert s.hands[3] == cards_of("9d 2d 2h 3h 4h")
    assert s.duel is None
    assert (s.to_act, s.pending, s.top) == (1, 0, cards_of("5s"))   # s+d of the challenger
    assert not s.window
    assert rejected(s, play(s, 1, "8c")).rule_id == "KENG-17"
    assert run(s, play(s, 1, "5d")).to_act == 2


def test_keng_30_challenger_can_lose():
    """KENG-30: Challenger can lose."""
    s = duel({0: "Ah 2c 3c", 3: "5h 9d 2d"})
    s, done = settle(run(s, duel_play(s, 3, "5h")))
    assert [e.kind for e in done] == ["DUEL_END"]
    assert (done[0].seat, done[0].value) == (0, 2)
    assert len(s.hands[0]) == 4 and s.to_act == 1


def test_keng_30_defender_without_a_legal_card_loses_at_once():
    """KENG-30: Defender without a legal card loses at once."""
    s = duel({0: "Ah 2c 3c", 3: "9d 2d Kh"})
    assert owed(s) == "DUEL_END"
    s, done = settle(s)
    assert (done[0].seat, done[0].value) == (3, 1)
    assert s.to_act == 1 and s.top == cards_of("Ah")


@pytest.mark.parametrize(("challenger", "d", "nxt"), [(0, -1, 5), (4, 1, 5), (2, -1, 1)])
def test_keng_30_next_seat_is_the_original_next_of_the_challenger(challenger, d, nxt):
    """KENG-30: Next seat is the original next of the challenger."""
    s = duel({challenger: "Ah 2c 3c", (challenger + 3) % 6: "9d 2d"}, challenger=challenger,
             d=d)
    assert s.duel.next_seat == nxt
    s, _ = settle(s)
    assert s.to_act == nxt and s.direction == d


def test_keng_30_duellist_able_to_play_must_play():
    """KENG-30: Duellist able to play must play."""
    s = duel({0: "Ah 2c 3c", 3: "5h 9d 2d"})
    assert owed(s) is None
    assert rejected(s, ev(s, "DUEL_END", 3, value=1)._replace(cards=s.stock[:1])
                    ).rule_id == "KENG-30"


def test_keng_30_going_out_in_a_duel_ends_the_game_nobody_draws():
    """KENG-30: Going out in a duel ends the game nobody draws."""
    s = duel({0: "Ah 7h 2c", 3: "5h"})
    s, done = settle(run(s, duel_play(s, 3, "5h")))
    assert [e.kind for e in done] == ["GAME_END"]
    assert s.result["deciding_seat"] == 3 and s.result["winning_team"] == "odd"
    assert len(s.hands[0]) == 2


def test_keng_30_no_duel_play_without_a_duel():
    """KENG-30: No duel play without a duel."""
    s = pos({0: "9h 2c"}, top="5h")
    assert rejected(s, duel_play(s, 0, "9h")).rule_id == "KENG-30"
