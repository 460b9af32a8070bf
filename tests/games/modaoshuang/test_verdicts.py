"""Verdicts that cite the rule forbidding *this* action by *this* seat now (issue 24): the
follow rule for an off-suit card (not the draw rule), the lead rule for a leader's NO_PLAY
before the 收到爽 phase, the final round's rule once it is over, the seats of the game."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalMove
from engine.games import modaoshuang as mds

from .conftest import auto, no_play, play, pos, rejected, run, start


def test_mds_16_a_follower_lacking_the_suit_who_plays_off_suit_breaks_the_follow_rule():
    """MDS-16 (not MDS-17, what it does instead): the message says it would draw."""
    s = pos(["2s 3s", "4c 5d", "6h 8d"], stock="Kd 2c 7h 9c", table=[(0, "5h")])
    err = rejected(s, play(s, 1, "4c"))
    assert err.rule_id == "MDS-16"
    assert "a follower plays a card of the round suit or a joker (suit h)" in err.reason
    assert "lacking the suit, it draws (MDS-17)" in err.reason
    s = pos(["2s 3s", "4h 5d", "6h 8d"], stock="Kd 2c 7h 9c", table=[(0, "5h")])
    err = rejected(s, play(s, 1, "5d"))
    assert err.rule_id == "MDS-16" and "lacking" not in err.reason


def test_mds_29_an_off_suit_card_in_the_shoudaoshuang_phase_breaks_its_follow_rule():
    """MDS-29: the 收到爽 phase's follow rule, whether or not the seat holds the suit."""
    s = pos(["2s 3s", "4c 5d", "6h 8d"], table=[(0, "5h")])
    assert rejected(s, play(s, 1, "4c")).rule_id == "MDS-29"


def test_mds_12_a_leader_not_playing_before_the_phase_breaks_the_lead_rule():
    """MDS-12 (not MDS-32, which is about the 收到爽 phase): a later round's leader leads."""
    s = pos(["2h 3s", "4c 5d", "6h 8d"], stock="Kd 2c 7h 9c", leader=0)
    err = rejected(s, no_play(s, 0, "no_lead"))
    assert err.rule_id == "MDS-12" and "the leader leads a card" in err.reason
    s = pos(["2h 3s", "4c 5d", "6h 8d"], leader=0)
    assert rejected(s, no_play(s, 0, "no_lead")).rule_id == "MDS-32"


def _final_over():
    """Seat 1 of 4 went out following 5h; seats 2 and 3 have had their final-round turns."""
    s = pos(["2s 3s", "4h", "6h 8d BJ", "9h Td"], stock="Kc Qc", table=[(0, "5h")])
    s = run(s, play(s, 1, "4h"), lambda t: no_play(t, 2, "final"),
            lambda t: no_play(t, 3, "final"))
    assert mds.next_auto(s) == "ROUND_END" and s.winner == 1
    return s


def test_mds_34_an_action_after_the_final_round_cites_the_final_round():
    """MDS-34 (not MDS-11, the ordinary round): after the final round the game is settled."""
    s = _final_over()
    err = rejected(s, play(s, 0, "2s"))
    assert err.rule_id == "MDS-34" and "the engine owes ROUND_END" in err.reason
    # an ordinary round's end still cites MDS-11
    t = pos(["2s 3s", "7h 9d", "6h 8d"], stock="Kc Qc", table=[(0, "5h"), (1, "4h")])
    t = run(t, play(t, 2, "6h"))
    assert mds.next_auto(t) == "ROUND_END"
    assert rejected(t, play(t, 0, "2s")).rule_id == "MDS-11"


def test_mds_34_a_final_rounds_end_that_collects_cites_the_final_round():
    """MDS-34 (not MDS-30, collection): nobody collects in the final round."""
    s = _final_over()
    exp = mds.auto_event(s)
    assert exp.tag == "final"
    bad = exp._replace(tag="", target=2)
    assert rejected(s, bad).rule_id == "MDS-34"
    s, done = auto(s)
    assert [e.kind for e in done] == ["ROUND_END", "GAME_END"]


def test_mds_6_a_start_whose_players_do_not_fill_the_seats_cites_the_seats():
    """MDS-6 (not MDS-7, the options): n players sit at seats 0 … n-1."""
    e0 = start(1)
    p = json.loads(e0.payload)
    p["players"] = ["a", "b"]
    with pytest.raises(IllegalMove) as info:
        mds.initial_state(e0._replace(payload=json.dumps(p)))
    assert info.value.rule_id == "MDS-6"
