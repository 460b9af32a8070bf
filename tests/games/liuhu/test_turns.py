"""The turn (section 6): draws, discards, kongs and their replacement draws, the order of play,
the hand's end on an empty wall (LH-2, LH-3, LH-11, LH-14 … LH-25, LH-32, LH-64, LH-72)."""

from __future__ import annotations

from engine.cards import parse_face
from engine.games import liuhu as lh
from tests.games.liuhu.conftest import act, auto, legal, play, rejected, table

# seat 0 on turn holding 14 cards: four 9h, a pair, sequences
HAND0 = "9h 9h 9h 9h 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"


def _turn(**kw):
    return table({0: HAND0}, **kw)


def test_discard_then_next_seat_draws_from_front_lh3_lh14_lh17():
    s = _turn(front="Qc")
    s = play(s, act(s, "DISCARD", 0, "6s"))        # nobody can claim a 6s here
    assert s.phase == "turn" and s.turn == 1        # LH-3: seat 0 -> 1
    assert parse_face("Qc") in s.hands[1] and s.drawn == parse_face("Qc")   # LH-14


def test_discard_must_be_held_lh16_and_any_card_may_go():
    s = _turn()
    rejected(s, act(s, "DISCARD", 0, "Ah"), "LH-16")
    assert {e.cards[0] for e in legal(s) if e.kind == "DISCARD"} == set(s.hands[0])


def test_out_of_turn_lh17_and_one_action_lh15():
    s = _turn()
    rejected(s, act(s, "DISCARD", 1, "As"), "LH-13")      # the dealer's first turn (LH-13)
    rejected(_turn(drawn="6s"), act(s, "DISCARD", 1, "As"), "LH-17")
    s2 = play(s, act(s, "DISCARD", 0, "6s"))
    assert s2.turn == 1
    rejected(s2, act(s2, "DISCARD", 2, "As"), "LH-17")
    rejected(s2, act(s2, "DRAW", 1, (s2.wall[s2.front],), tag="front"), "LH-15")


def test_an_gang_and_tail_draw_lh23_lh24():
    s = _turn(tail="Ac")
    assert any(e.kind == "AN_GANG" for e in legal(s))
    rejected(s, act(s, "AN_GANG", 0, "5d"), "LH-23")
    s = lh.apply(s, act(s, "AN_GANG", 0, "9h"))
    assert s.melds[0][-1][0] == "an_gang" and s.phase == "tail"
    draw = lh.auto_event(s)
    assert draw.tag == "tail" and draw.cards == (parse_face("Ac"),)     # LH-11 W[t]
    rejected(s, draw._replace(tag="front", cards=(s.wall[s.front],)), "LH-24")
    tail = s.tail
    s = lh.apply(s, draw)
    assert s.tail == tail - 1 and s.phase == "turn" and s.turn == 0     # LH-24 post-draw
    assert len(s.hands[0]) + 3 * len(s.melds[0]) == 14                  # LH-19


def test_four_identical_need_not_be_declared_lh23():
    s = _turn()
    s = play(s, act(s, "DISCARD", 0, "9h"))
    assert s.hands[0].count(parse_face("9h")) == 3 and not s.melds[0]


def test_jia_gang_needs_a_peng_and_the_fourth_lh22():
    s = table({0: "9h 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"},
              melds={0: [("peng", "As As As", 3, "As")]})
    rejected(s, act(s, "JIA_GANG", 0, "9h"), "LH-22")
    assert [e.cards for e in legal(s) if e.kind == "JIA_GANG"] == []
    s = table({0: "As 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"},
              melds={0: [("peng", "As As As", 3, "As")]})
    s = auto(lh.apply(s, act(s, "JIA_GANG", 0, "As")))       # nobody robs: the kong stands
    assert s.melds[0][0][0] == "ming_gang" and len(s.melds[0][0][1]) == 4
    assert len(s.hands[0]) == 11 and s.phase == "turn"        # the tail card was drawn


def test_kong_needs_a_card_in_the_wall_lh25():
    s = _turn(wall_size=0)
    rejected(s, act(s, "AN_GANG", 0, "9h"), "LH-25")
    assert not any(e.kind == "AN_GANG" for e in legal(s))


def test_after_a_claim_only_a_discard_lh18():
    s = table({0: "2s 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s 9s Ah Th",
               1: "Ah 9h 9h 9h 5c 6c 7c 5d 5d Jd Qd 7s 9s"})
    s = play(s, act(s, "DISCARD", 0, "8s"))
    assert s.phase == "respond" and lh.to_move(s) == 1
    s = play(s, act(s, "RESPOND", 1, "7s 9s", tag="chi"))
    s = play(s, lh.legal_actions(s)[0])                       # the CHI
    assert s.phase == "claimed" and s.turn == 1
    rejected(s, act(s, "AN_GANG", 1, "9h"), "LH-18")
    rejected(s, act(s, "DRAW", 1, (s.wall[s.front],), tag="front"), "LH-18")
    assert {e.kind for e in legal(s)} == {"DISCARD"}
    s = play(s, act(s, "DISCARD", 1, "Ah"))
    assert s.turn == 2 or s.phase in ("respond", "claim")     # LH-17: the claimer's next


def test_rj_never_in_a_kong_and_its_discard_not_claimable_lh32():
    opts = {"hunzi": 1}
    s = table({0: "RJ 9h 9h 9h 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s",
               1: "5s 7s 9s Ah 2h 3h Th 5c 6c 8c Tc Jc Qc"}, options=opts)
    rejected(s, act(s, "AN_GANG", 0, "RJ"), "LH-32")
    s = lh.apply(s, act(s, "DISCARD", 0, "RJ"))               # LH-16: an RJ may go
    w = lh.auto_event(s)
    assert w.kind == "WINDOW" and w.value == 0 and w.payload is None


def test_empty_wall_ends_the_hand_lh64_lh2():
    s = _turn(wall_size=0)
    s = lh.apply(s, act(s, "DISCARD", 0, "6s"))
    s = auto(s)
    assert s.phase == "over" and lh.result(s)["reason"] == "liuju"
    assert lh.result(s)["changes"] == [0] * 6                 # LH-64: nobody pays
    rejected(s, act(s, "DISCARD", 1, "As"), "LH-2")


def test_liuju_is_owed_not_a_draw_lh64():
    s = _turn(wall_size=0)
    s = lh.apply(s, act(s, "DISCARD", 0, "6s"))
    s = lh.apply(s, lh.auto_event(s))                         # the empty window
    assert lh.next_auto(s) == "LIUJU"
    rejected(s, act(s, "DRAW", 1, (s.wall[-1],), tag="front"), "LH-64")


def test_engine_events_out_of_place_lh72():
    """LH-72 for a second GAME_START; an engine event out of place in the post-draw phase
    cites that phase's rule (LH-15: the seat on turn does one of its actions)."""
    s = _turn()
    rejected(s, act(s, "GAME_START", -1), "LH-72")
    rejected(s, act(s, "SETTLE", -1, payload='{"changes":[0,0,0,0,0,0]}'), "LH-15")
    rejected(s, act(s, "WINDOW", -1, "6s", target=0, value=0, tag="discard"), "LH-15")
