"""GJ-27 … GJ-35: who leads (接风), 3s last, going out, 没头, positions and points, the end of a
game, 串三户 with its designation, the session's next game, and the 会五."""

from __future__ import annotations

import json
import random

from engine.cards import format_face, parse_faces
from engine.errors import IllegalMove
from engine.events import NONE, Event
from engine.games import gouji
from engine.games.gouji.cards import PACK, STRENGTH

from .conftest import (
    GAME_ID,
    PLAYERS,
    act,
    apply_play,
    dealt,
    do,
    illegal,
    legal_plays,
    play,
    pos,
    settle,
)
from .late_helpers import fs, mask, options, payload

F = "finished"


# ---------------------------------------------------------------- GJ-27 who leads, 接风


def test_gj27_going_out_with_3s_unanswered_the_next_player_leads_jiefeng():
    """GJ-27: seat 0 goes out with its 3 and nobody answers: seat 1, the first active player
    after it, leads (接风, jiefeng = 1 in ROUND_END)."""
    s = pos(hands=["3s", "6s 7s", "6c 7c", "6d 7d", "6h 7h", "8s 8c"], to_act=0, last=0)
    s, derived = apply_play(s, 0, "3s")
    assert fs(derived) == [("OUT", 0, NONE, 1, F)]
    assert s.top_seat == 0 and s.to_act == 1           # the last play stays the top play
    for seat in (1, 2, 3, 4):
        s, derived = do(s, "PASS", seat)
        assert derived == []
    s, derived = do(s, "PASS", 5)
    assert fs(derived) == [("ROUND_END", 0, 1, 1, "passes")]
    assert (s.to_act, s.top) == (1, ())


def test_gj27_jiefeng_skips_out_players_and_holds_for_any_last_play():
    """GJ-27 (completion): the same for a last play that is not 3s, and out players after the
    winner are skipped: seat 1 is out, so seat 2 catches the wind."""
    s = pos(hands=["9h", "", "6c 7c", "6d 7d", "6h 7h", "8s 8c"], out={1: (1, F)},
            to_act=0, last=0)
    s, derived = apply_play(s, 0, "9h")
    assert fs(derived) == [("OUT", 0, NONE, 2, F), ("PHASE_OPEN", -1, NONE, NONE, "")]
    assert s.to_act == 2
    for seat in (2, 3, 4):
        s, _ = do(s, "PASS", seat)
    s, derived = do(s, "PASS", 5)
    assert fs(derived) == [("ROUND_END", 0, 2, 1, "passes")]
    assert s.to_act == 2


def test_gj27_the_round_winner_leads_the_next_round():
    """GJ-27: an active winner leads again himself (jiefeng 0)."""
    s = pos(hands=["9h Th", "6s 7s", "6c 7c", "6d 7d", "6h 7h", "8s 8c"], to_act=0, last=0)
    s, _ = apply_play(s, 0, "Th")
    for seat in (1, 2, 3, 4):
        s, _ = do(s, "PASS", seat)
    s, derived = do(s, "PASS", 5)
    assert fs(derived) == [("ROUND_END", 0, 0, 0, "passes")]
    assert s.to_act == 0 and s.passed == 0


def test_gj27_the_starter_leads_the_first_round():
    """GJ-27 with GJ-9: the first round is led by the starter; anyone else playing first is
    out of turn."""
    s = dealt(starter=3)
    assert s.to_act == 3 and gouji.due_seat(s) == 3
    card = next(c for c in s.hands[0] if STRENGTH[c] > 3)
    illegal(s, play(0, format_face(card)), "GJ-21")


# ---------------------------------------------------------------- GJ-28 3s last


def test_gj28_a_3_may_not_be_played_while_other_cards_remain():
    """GJ-28: a play with a 3 must leave only 3s in hand."""
    s = pos(hands=["3s 5h", "6s", "6c", "6d", "6h", "8s"], to_act=0, last=0)
    illegal(s, play(0, "3s", s), "GJ-28")
    assert legal_plays(s) == {("5h",)}


def test_gj28_with_wilds_the_wild_must_go_with_the_3s():
    """GJ-28 (resolution: a play with a 3 must leave only 3s): from 3s 3c 2h, the play 3s 3c
    leaves the 2 and is illegal; 3s 2h (leaves a 3) and 3s 3c 2h are legal, and so is the 2
    alone; every legal play listed keeps the rule."""
    s = pos(hands=["3s 3c 2h", "6s", "6c", "6d", "6h", "8s"], to_act=0, last=0)
    illegal(s, play(0, "3s 3c", s), "GJ-28")
    illegal(s, play(0, "3s", s), "GJ-28")
    assert legal_plays(s) == {("2h",), ("2h", "3s"), ("2h", "3c", "3s")}
    s2, _ = apply_play(s, 0, "3s 2h")
    assert [format_face(c) for c in s2.hands[0]] == ["3c"]


def test_gj28_a_hand_of_only_3s_may_be_played_in_several_plays():
    """GJ-28 (resolution) with GJ-21: a leader holding only 3s leads one of them."""
    s = pos(hands=["3s 3c", "6s", "6c", "6d", "6h", "8s"], to_act=0, last=0)
    assert legal_plays(s) == {("3s",), ("3c", "3s")}
    s, derived = apply_play(s, 0, "3c")
    assert derived == [] and [format_face(c) for c in s.hands[0]] == ["3s"]


# ---------------------------------------------------------------- GJ-29 going out


def test_gj29_going_out_takes_the_highest_free_position():
    """GJ-29 with GJ-31: seat 5 was judged 6th; seat 0 goes out 1st. With the judged player
    counted (default) that is the second out, so the phase opens (GJ-18)."""
    hands = ["9h", "6s 7s", "6c 7c", "6d 7d", "6h 7h", "3s"]
    s = pos(hands=hands, out={5: (6, "men")}, to_act=0, last=0)
    s, derived = apply_play(s, 0, "9h")
    assert fs(derived) == [("OUT", 0, NONE, 1, F), ("PHASE_OPEN", -1, NONE, NONE, "")]
    assert s.out_pos == (1, 0, 0, 0, 0, 6) and s.open_phase
    s = pos(hands=hands, out={5: (6, "men")}, to_act=0, last=0,
            options=options(judged_counts_as_out=False))
    s, derived = apply_play(s, 0, "9h")
    assert fs(derived) == [("OUT", 0, NONE, 1, F)] and not s.open_phase


def test_gj29_an_out_player_never_acts_again():
    """GJ-29 with GJ-18: after going out a seat is skipped and may not act."""
    s = pos(hands=["9h", "Ts 7s", "6c 7c", "6d 7d", "6h 7h", "8s 8c"], to_act=0, last=0)
    s, _ = apply_play(s, 0, "9h")
    illegal(s, play(0, "Th"), "GJ-18")
    s, _ = apply_play(s, 1, "Ts")
    for seat in (2, 3, 4, 5):
        s, _ = do(s, "PASS", seat)
    assert s.to_act == 1                               # seat 0 is not asked


def test_gj29_a_last_play_stays_gouji_while_the_opposite_is_active():
    """GJ-29 with GJ-19/GJ-20: seat 0 goes out with Kh Kd, a 够级 play as long as seat 3 is
    active: seat 1 (not opened) may not answer it; seat 3 may."""
    hands = ["Kh Kd", "Ah Ad 9s", "Ac As 9c", "2h 2d 9d", "2c 2s 9h", "8s 8c"]
    s = pos(hands=hands, to_act=0, last=0)
    s, derived = apply_play(s, 0, "Kh Kd")
    assert fs(derived) == [("OUT", 0, NONE, 1, F)]
    illegal(s, play(1, "Ah Ad", s), "GJ-20")
    assert legal_plays(s) == set()
    s, _ = do(s, "PASS", 1)
    s, _ = do(s, "PASS", 2)
    s, derived = apply_play(s, 3, "2h 2d")
    assert derived == [] and s.burner == -1


# ---------------------------------------------------------------- GJ-30 没头


def test_gj30a_a_meitou_players_plays_are_never_gouji():
    """GJ-30 (a): seat 3 is out, so seat 0 is 没头: its Kh Kd carries no '+gouji' and a
    non-opened seat 1 may answer it, without starting a burn."""
    hands = ["Kh Kd 9s", "Ah Ad 9c", "6c", "", "6h", "8s 8c"]
    s = pos(hands=hands, out={3: (1, F)}, to_act=0, last=0)
    e = play(0, "Kh Kd", s)
    assert e.tag == "lead+shaped+pure"
    illegal(s, e._replace(tag="lead+shaped+pure+gouji"), "GJ-19")
    s, _ = apply_play(s, 0, "Kh Kd")
    s, derived = apply_play(s, 1, "Ah Ad")
    assert derived == [] and s.burner == -1 and s.top_seat == 1


def test_gj30b_c_a_meitou_player_answers_any_gouji_play_without_burning():
    """GJ-30 (b), (c): 没头 seat 0 (not opened) answers seat 1's 够级 play; it is not a burn
    — even when seat 0 is opened, no burn starts and no duty follows."""
    for opened in ([], [0]):
        hands = ["Ah Ad 9s", "Kh Kd 9c", "6c", "", "6h", "8s 8c"]
        s = pos(hands=hands, out={3: (1, F)}, top=("Kh Kd", 1), to_act=0, last=5,
                passed=[5, 4], opened=opened)
        s, derived = apply_play(s, 0, "Ah Ad")
        assert derived == [] and s.burner == -1


def test_gj30d_a_meitou_answer_ends_a_burn_and_starts_none():
    """GJ-30 (d) with GJ-41 (c): 没头 seat 0 answers the burner's take: BURN_END meitou, and
    no BURN_START although seat 0 is opened."""
    hands = ["2h 2d 9s", "Ah Ad 9c", "6c", "", "6h", "8s 8c"]
    s = pos(hands=hands, out={3: (1, F)}, top=("Ah Ad", 1), burner=1, to_act=0, last=5,
            passed=[5, 4], opened=[0, 1])
    s, derived = apply_play(s, 0, "2h 2d")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "meitou")]
    assert s.burner == -1


# ---------------------------------------------------------------- GJ-31 … GJ-33 the end


def _ending(out, hands, leader):
    return pos(hands=hands, out=out, open_phase=True, to_act=leader, last=leader)


def finished_game():
    """A game ended by GJ-33: seat 2 goes out 5th, seat 4 is left alone and is 6th."""
    out = {0: (1, F), 1: (2, F), 3: (3, F), 5: (4, F)}
    s = _ending(out, ["", "", "9h", "", "Ts Tc", ""], 2)
    return apply_play(s, 2, "9h")


def test_gj31_gj32_gj33_positions_points_result_and_the_last_player():
    """GJ-31/GJ-32/GJ-33: the position table (names and +2 +1 0 0 −1 −2), team totals and the
    winning team; the player left alone takes the last place (OUT how=last) and the game
    ends; the next starter is the 拉客 (GJ-9)."""
    s, derived = finished_game()
    assert fs(derived)[:2] == [("OUT", 2, NONE, 5, F), ("OUT", 4, NONE, 6, "last")]
    end = derived[2]
    assert (end.kind, end.value, end.tag) == ("GAME_END", 4, "odd")
    p = payload(end)
    assert p["positions"] == [1, 2, 5, 3, 6, 4]
    assert p["names"] == ["头客", "二客", "小拉", "三客", "拉客", "四客"]
    assert p["points"] == [2, 1, -1, 0, -2, 0]
    assert p["team_totals"] == {"even": -1, "odd": 1}
    assert (p["result"], p["chuansanhu"], p["next_starter"]) == ("odd", None, 4)
    assert p["next_huiwu_team"] is None and p["designation"] is None
    assert s.is_over and gouji.scores(s) == p["points"] and gouji.winning_team(s) == "odd"
    illegal(s, act(s, "PASS", 4), "GJ-33")


def test_gj32_equal_totals_are_a_draw():
    """GJ-32: totals 0 and 0 are a draw (result 'draw', no winning team)."""
    out = {0: (1, F), 1: (2, F), 2: (3, F), 3: (4, F)}
    s = _ending(out, ["", "", "", "", "Ts Tc", "9h"], 5)
    s, derived = apply_play(s, 5, "9h")
    p = payload(derived[-1])
    assert p["positions"] == [1, 2, 3, 4, 6, 5]
    assert p["team_totals"] == {"even": 0, "odd": 0}
    assert derived[-1].tag == "draw" and gouji.winning_team(s) is None


def test_gj33_play_goes_on_when_all_active_players_are_teammates():
    """GJ-33 (completion): seats 2 and 4, both even, are the last two: no GAME_END; their
    order decides the 拉客."""
    out = {0: (1, F), 1: (2, F), 3: (3, F), 5: (4, F)}
    s = _ending(out, ["", "", "9h Th", "", "Ts Tc", ""], 2)
    s, derived = apply_play(s, 2, "9h")
    assert derived == [] and s.stage == "play" and s.to_act == 4


def test_gj33_gj45_no_one_left_after_going_out_and_stifling_in_one_play():
    """GJ-33 with GJ-45: seat 2's last card beats seat 3's play that left it a single 3: 2 goes
    out (5th), then 3 is stifled (6th); nobody is left, so no OUT 'last'."""
    out = {0: (1, F), 1: (2, F), 4: (3, F), 5: (4, F)}
    s = pos(hands=["", "", "6h", "3s", "", ""], out=out, open_phase=True, top=("5h", 3),
            to_act=2, last=3)
    s, derived = apply_play(s, 2, "6h")
    assert fs(derived)[:2] == [("OUT", 2, NONE, 5, F), ("OUT", 3, NONE, 6, "men")]
    assert derived[2].kind == "GAME_END" and len(derived) == 3
    assert payload(derived[2])["next_starter"] == 3


# ---------------------------------------------------------------- GJ-34 串三户


def sweep_position(**changes):
    """Seats 0 and 2 went out 1st and 2nd; seat 4 leads its last card."""
    kw = dict(hands=["", "Ts Tc", "", "Js Jc", "9h", "Qs Qc"], out={0: (1, F), 2: (2, F)},
              open_phase=True, to_act=4, last=4)
    kw.update(changes)
    return pos(**kw)


def test_gj34_sweep_ends_the_game_at_once_and_the_swept_team_designates():
    """GJ-34: the even team takes positions 1-3: the game ends at once (no more play) and the
    odd team designates the order of its members; the GAME_END follows the DESIGNATE, the
    designated players get no OUT, totals are +3/−3, the next starter is the designated
    拉客 and the next game opens with the odd team's 会五."""
    s, derived = apply_play(sweep_position(), 4, "9h")
    assert fs(derived) == [("OUT", 4, NONE, 3, F)]
    assert s.stage == "designate" and gouji.due_seat(s) in (1, 3, 5)
    illegal(s, play(1, "Ts Tc", s), "GJ-34")
    s, derived = do(s, "DESIGNATE", 3, payload=json.dumps({"order": [5, 1, 3]}))
    assert [e.kind for e in derived] == ["GAME_END"]
    p = payload(derived[0])
    assert p["positions"] == [1, 5, 2, 6, 3, 4]
    assert p["team_totals"] == {"even": 3, "odd": -3}
    assert (p["chuansanhu"], p["designation"], p["next_starter"], p["next_huiwu_team"]) == \
        ("even", [5, 1, 3], 3, "odd")
    assert derived[0].value == 3 and s.is_over


def test_gj34_designation_is_validated():
    """GJ-34: only a member of the swept team designates, and the order lists exactly its
    unplaced seats."""
    s, _ = apply_play(sweep_position(), 4, "9h")
    dz = lambda seat, order: act(s, "DESIGNATE", seat, payload=json.dumps({"order": order}))  # noqa: E731
    illegal(s, dz(0, [1, 3, 5]), "GJ-34")
    illegal(s, dz(1, [1, 3]), "GJ-34")
    illegal(s, dz(1, [1, 3, 3]), "GJ-34")
    illegal(s, dz(1, [1, 3, 0]), "GJ-34")
    gouji.check(s, dz(5, [1, 3, 5]))
    before = act(sweep_position(), "DESIGNATE", 1, payload=json.dumps({"order": [1, 3, 5]}))
    illegal(sweep_position(), before, "GJ-34")


def test_gj34_a_judged_member_keeps_his_position():
    """GJ-34 (completion): seat 5 was judged 6th before the sweep; the designation covers the
    free positions 4 and 5 only, and seat 5 remains the 拉客."""
    s = sweep_position(hands=["", "Ts Tc", "", "Js Jc", "9h", "3s"],
                       out={0: (1, F), 2: (2, F), 5: (6, "men")})
    s, _ = apply_play(s, 4, "9h")
    assert s.stage == "designate"
    illegal(s, act(s, "DESIGNATE", 1, payload=json.dumps({"order": [1, 3, 5]})), "GJ-34")
    s, derived = do(s, "DESIGNATE", 1, payload=json.dumps({"order": [3, 1]}))
    p = payload(derived[0])
    assert p["positions"] == [1, 5, 2, 4, 3, 6] and p["next_starter"] == 5


def test_gj34_third_member_placed_by_gj33_is_a_sweep_without_designation():
    """GJ-34 (completion): the odd team all judged (6th, 5th, then 4th by this 闷); seat 4 is
    left alone and placed 3rd by GJ-33: a 串三户 with nothing to designate, and the next game
    opens with the 会五 all the same."""
    s = pos(hands=["", "3c", "", "3h", "6h 7h", "3s"], open_phase=True,
            out={0: (1, F), 2: (2, F), 1: (6, "men"), 3: (5, "men")},
            top=("5h", 5), to_act=4, last=5)
    s, derived = apply_play(s, 4, "6h")
    assert fs(derived)[:2] == [("OUT", 5, NONE, 4, "men"), ("OUT", 4, NONE, 3, "last")]
    p = payload(derived[2])
    assert (p["chuansanhu"], p["designation"], p["next_starter"], p["next_huiwu_team"]) == \
        ("even", None, 1, "odd")
    assert s.is_over


# ---------------------------------------------------------------- next game of the session


def test_gj34_gj9_session_start_links_the_next_game():
    """GJ-9 / GJ-34 with GJ-5: the next game keeps the players and the direction, its starter
    is the previous 拉客; check_session rejects a start that breaks the link, citing the rule."""
    prev, _ = finished_game()
    kw = gouji.session_start(prev)
    assert kw == {"game_no": prev.game_no + 1, "direction": 1, "starter": 4, "huiwu_team": None}
    start = gouji.start_event("next", PLAYERS, None, **kw)
    assert gouji.check_session(start, prev) is None
    s = gouji.initial_state(start)
    assert (s.stage, s.starter, s.direction, s.huiwu_team) == ("deal", 4, 1, -1)
    for rule, change in (("GJ-9", {"starter": 0}), ("GJ-5", {"direction": -1}),
                         ("GJ-35", {"huiwu_team": "even", "starter": 4}),
                         ("GJ-9", {"game_no": prev.game_no + 2})):
        bad = gouji.start_event("next", PLAYERS, None, **{**kw, **change})
        err = gouji.check_session(bad, prev)
        assert isinstance(err, IllegalMove) and err.rule_id == rule, (rule, err)
    other = gouji.start_event("next", PLAYERS[::-1], None, **kw)
    assert gouji.check_session(other, prev).rule_id == "GJ-1"


def test_gj34_gj35_after_a_sweep_the_swept_lake_starts_with_the_huiwu():
    """GJ-34/GJ-35 with GJ-9: after a 串三户 the next game's starter is the swept team's 拉客
    and its first action is the 会五; a starter outside the swept team is rejected."""
    s, _ = apply_play(sweep_position(), 4, "9h")
    prev, _ = do(s, "DESIGNATE", 1, payload=json.dumps({"order": [1, 5, 3]}))
    kw = gouji.session_start(prev)
    assert (kw["starter"], kw["huiwu_team"]) == (3, "odd")
    start = gouji.start_event("next", PLAYERS, None, **kw)
    assert gouji.check_session(start, prev) is None
    nxt, _ = settle(gouji.initial_state(start), random.Random(3))
    assert nxt.huiwu_due and [a.kind for a in gouji.legal_actions(nxt)
                              if a.kind != "XUANDIAN"] == ["HUIWU"]
    wrong = gouji.start_event("next", PLAYERS, None, **{**kw, "starter": 2})
    try:
        gouji.initial_state(wrong)
    except IllegalMove as exc:
        assert exc.rule_id == "GJ-34"
    else:
        raise AssertionError("a starter outside the swept team was accepted")


# ---------------------------------------------------------------- GJ-35 会五


HW_HANDS = ["6s 6h 6c 9s", "5s 9h", "8s 9c", "5h 5c Th", "9d Td", "Jh"]
HW_CARDS = "5s 5h 5c"
HW_PAYLOAD = json.dumps({"1": ["5s"], "3": ["5h", "5c"], "5": []})


def huiwu_position(**changes):
    b = dealt(starter=1, huiwu_team="odd")
    assert b.huiwu_due
    kw = dict(hands=HW_HANDS, huiwu_due=True, to_act=1, last=1, window=True)
    kw.update(changes)
    return pos(b, **kw)


def huiwu(s, seat=1, cards=HW_CARDS, pl=HW_PAYLOAD, **fields):
    kw = dict(value=5, tag="lead", payload=pl)
    kw.update(fields)
    return act(s, "HUIWU", seat, cards, **kw)


def test_gj35_the_huiwu_comes_first_and_takes_every_5_of_the_team():
    """GJ-35: the first play is the 会五 by the starter with all 5s of his team; an ordinary
    play, a 会五 by another member or one missing a 5 is rejected."""
    s = huiwu_position()
    assert [a for a in gouji.legal_actions(s) if a.kind == "HUIWU"][0].cards == \
        parse_faces("5s 5h 5c")
    illegal(s, play(1, "9h", s), "GJ-35")
    illegal(s, huiwu(s, seat=3), "GJ-35")
    illegal(s, huiwu(s, cards="5s 5h", pl=json.dumps({"1": ["5s"], "3": ["5h"], "5": []})),
            "GJ-35")
    illegal(s, huiwu(s, value=6), "GJ-35")
    s, derived = settle(gouji.apply(s, huiwu(s)))
    assert derived == [] and not s.huiwu_due and not s.window
    assert s.hands[3] == parse_faces("Th") and s.top_huiwu


def test_gj35_only_the_other_team_responds_and_the_starter_leads_again():
    """GJ-35: only even seats respond, in turn order from the starter (2, 4, 0); the
    starter's teammates are neither asked nor locked; unanswered, the starter leads again."""
    s, _ = settle(gouji.apply(huiwu_position(), huiwu(huiwu_position())))
    assert s.to_act == 2
    err = illegal(s, play(3, "Th", s), "GJ-35")      # a teammate: GJ-35, not the turn
    assert err.also == ("GJ-22",) and "answered only by the even team" in err.reason
    s, _ = do(s, "PASS", 2)
    assert s.to_act == 4
    s, _ = do(s, "PASS", 4)
    assert s.to_act == 0
    s, derived = do(s, "PASS", 0)
    assert fs(derived) == [("ROUND_END", 1, 1, 0, "passes")]
    assert s.to_act == 1 and s.passed == 0


def test_gj35_once_beaten_the_starters_teammates_respond_to_later_plays():
    """GJ-35: seat 0 beats the 会五; the round goes on under GJ-22 and the starter's
    teammates (3, 5), never locked, are responders of seat 0's play."""
    s, _ = settle(gouji.apply(huiwu_position(), huiwu(huiwu_position())))
    s, _ = do(s, "PASS", 2)
    s, _ = do(s, "PASS", 4)
    s, derived = apply_play(s, 0, "6s 6h 6c")
    assert derived == [] and s.to_act == 1 and s.passed == mask(2, 4)
    s, _ = do(s, "PASS", 1)
    assert s.to_act == 3


def test_gj35_direction_minus_one_the_other_team_from_the_starter():
    """GJ-35 with GJ-5: with d = −1 the first responder of the 会五 of seat 1 is seat 0."""
    b = dealt(starter=1, huiwu_team="odd", direction=-1)
    s = pos(b, hands=HW_HANDS, huiwu_due=True, to_act=1, last=1)
    s, _ = settle(gouji.apply(s, huiwu(s)))
    assert s.to_act == 0


def test_gj35_no_huiwu_when_the_swept_team_holds_no_5():
    """GJ-35 (completion): a deal giving every 5 to the even team: no 会五 is due, the starter
    leads normally and a HUIWU is rejected."""
    start = gouji.start_event(GAME_ID, PLAYERS, None, game_no=2, direction=1, starter=1,
                              huiwu_team="odd")
    s = gouji.initial_state(start)
    fives = [c for c in PACK if STRENGTH[c] == 5]
    rest = [c for c in PACK if STRENGTH[c] != 5]
    seat_of = [(1 + k) % 6 for k in range(196)]         # card k goes to starter + k (GJ-8)
    cards: list[int | None] = [None] * 196
    even_slots = [k for k in range(196) if seat_of[k] % 2 == 0]
    for k, c in zip(even_slots, fives, strict=False):
        cards[k] = c
    it = iter(rest)
    cards = [c if c is not None else next(it) for c in cards]
    deal = Event("DEAL", 1, tuple(cards), NONE, NONE, "+1", None, GAME_ID, s.seq)
    s = gouji.apply(s, deal)
    assert not s.huiwu_due and s.to_act == 1
    assert not any(STRENGTH[c] == 5 for i in (1, 3, 5) for c in s.hands[i])
    illegal(s, act(s, "HUIWU", 1, value=5, tag="lead",
                   payload=json.dumps({"1": [], "3": [], "5": []})), "GJ-35")
    card = next(c for c in s.hands[1] if STRENGTH[c] > 3)
    gouji.check(s, play(1, format_face(card), s))


def test_gj27_going_out_with_a_big_joker_the_next_active_player_leads():
    """GJ-27 with GJ-15/GJ-29: seat 0 goes out with an RJ: OUT, then the round ends at once
    (big_joker) and seat 1 catches the wind."""
    s = pos(hands=["RJ", "6s 7s", "6c 7c", "6d 7d", "6h 7h", "8s 8c"], to_act=0, last=0)
    s, derived = apply_play(s, 0, "RJ")
    assert fs(derived) == [("OUT", 0, NONE, 1, F), ("ROUND_END", 0, 1, 1, "big_joker")]
    assert s.to_act == 1
