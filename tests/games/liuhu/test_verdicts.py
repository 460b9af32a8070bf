"""Verdicts that cite the rule forbidding *this* action by *this* seat now (issue 24): after a
win or an empty wall the hand has ended (LH-2, LH-64), an engine event out of place cites the
phase on (LH-13, LH-15, LH-18, LH-33, LH-34), a claim by the seat on turn its phase, the
replacement draw its own rule (LH-24), a seat acting before the dealer's first action LH-13."""

from __future__ import annotations

from engine.games import liuhu as lh
from tests.games.liuhu.conftest import act, auto, legal, play, rejected, table
from tests.games.liuhu.test_claims import FILL14
from tests.games.liuhu.test_scoring import _fangchong, _zimo

HAND0 = "9h 9h 9h 9h 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"


def test_lh_2_an_action_after_the_winning_hu_cites_the_hands_end():
    """LH-2 (not LH-59, the chips): after 胡 only settlement and the hand's end follow."""
    s = lh.apply(_zimo(), legal(_zimo())[0])
    assert lh.next_auto(s) == "SETTLE"
    rejected(s, act(s, "DISCARD", 3, "As"), "LH-2")
    s = lh.apply(s, lh.auto_event(s))
    assert lh.next_auto(s) == "GAME_END"
    rejected(s, act(s, "DISCARD", 3, "As"), "LH-2")                # not LH-68


def test_lh_64_an_action_after_an_exhaustive_draw_cites_the_liuju():
    """LH-64 (not LH-68): after 流局 the hand has ended without a winner."""
    s = table({0: FILL14}, wall_size=0)
    s = lh.apply(s, act(s, "DISCARD", 0, "As"))
    while lh.next_auto(s) != "GAME_END":
        s = lh.apply(s, lh.auto_event(s))
    rejected(s, act(s, "DISCARD", 1, "As"), "LH-64")


def test_lh_34_an_engine_draw_while_the_window_is_open_cites_the_window():
    """LH-34 (not LH-72): while eligible seats answer, nothing else happens."""
    s = table({1: "8c As 4h 7c Th Kd 2h 5c 8d Jh Qs 3c 6d 9h", 4: "4s 5s 6s 6c 7c 5h 5s"},
              melds={4: [("peng", "Qh Qh Qh", 2, "Qh"), ("chi", "2d 7h Td", 3, "7h")]},
              turn=1)
    s = auto(lh.apply(s, act(s, "DISCARD", 1, "8c")))
    assert s.phase == "respond"
    rejected(s, act(s, "DRAW", 2, (s.wall[s.front],), tag="front"), "LH-34")


def test_lh_33_an_engine_event_while_an_awarded_claim_is_owed_cites_the_award():
    """LH-33 (not LH-72): the executed claim is made next."""
    s = _fangchong()
    assert s.phase == "claim"
    rejected(s, act(s, "DRAW", 2, (s.wall[s.front],), tag="front"), "LH-33")


def _claimed():
    """Seat 1 has claimed 吃 on seat 0's 8s and must discard."""
    s = table({0: "2s 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s 9s Ah Th",
               1: "Ah 9h 9h 9h 5c 6c 7c 5d 5d Jd Qd 7s 9s"})
    s = play(s, act(s, "DISCARD", 0, "8s"))
    s = play(s, act(s, "RESPOND", 1, "7s 9s", tag="chi"))
    s = play(s, lh.legal_actions(s)[0])
    assert s.phase == "claimed" and s.turn == 1
    return s


def test_lh_18_an_engine_event_or_a_claim_after_a_chi_cites_discard_only():
    """LH-18 (not LH-72, LH-26): after 吃 or 碰 the claimer discards at once."""
    s = _claimed()
    rejected(s, act(s, "WINDOW", -1, "9s", target=1, value=0, tag="discard"), "LH-18")
    rejected(s, act(s, "CHI", 1, "9s 5c 7c", target=0), "LH-18")


def test_lh_15_a_claim_by_the_seat_on_turn_cites_the_post_draw_phase():
    """LH-15 (not LH-20): the seat on turn does one of its post-draw actions; another seat's
    碰 with no discard on offer still cites LH-20."""
    s = table({0: HAND0}, drawn="6s")
    rejected(s, act(s, "PENG", 0, "9h 9h 9h", target=5), "LH-15")
    rejected(s, act(s, "PENG", 3, "9h 9h 9h", target=0), "LH-20")


def test_lh_24_a_replacement_draw_by_another_seat_cites_the_replacement_rule():
    """LH-24 (not LH-17): the kong's declarer draws the replacement card."""
    s = table({0: HAND0}, tail="Ac")
    s = lh.apply(s, act(s, "AN_GANG", 0, "9h"))
    draw = lh.auto_event(s)
    assert draw.tag == "tail"
    rejected(s, draw._replace(seat=1), "LH-24")


def test_lh_13_a_seat_acting_before_the_dealers_first_action_cites_the_dealers_start():
    """LH-13 (not LH-17, which follows a discard): the hand opens with the dealer's turn."""
    s = table({0: HAND0})
    rejected(s, act(s, "DISCARD", 1, "As"), "LH-13")
    rejected(s, act(s, "DRAW", 0, (s.wall[s.front],), tag="front"), "LH-13")
