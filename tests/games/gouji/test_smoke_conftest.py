"""The scenario helpers themselves work (a dealt game, a built position, one play)."""

from __future__ import annotations

from .conftest import apply_play, dealt, kinds, pos


def test_dealt_game_has_33_33_33_33_32_32():
    s = dealt(seed=4, starter=2, direction=-1)
    sizes = [len(s.hands[(2 - k) % 6]) for k in range(6)]
    assert sizes == [33, 33, 33, 33, 32, 32]


def test_pos_and_a_lead():
    s = pos(hands=["5s 5h 9c", "6s", "7s", "8s", "9s", "Ts"], to_act=0, last=0)
    s, derived = apply_play(s, 0, "5s 5h")
    assert s.top_seat == 0 and s.to_act == 1 and kinds(derived) == []
