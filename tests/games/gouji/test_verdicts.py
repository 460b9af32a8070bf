"""Verdicts that explain (issue 13): when a 够级 event breaks several rules, the error cites the
most specific one (why *this* seat may not do *this* now), names the others and says what was
legal; messages are one short line; ``replay --seat`` shows the public facts of the cut."""

from __future__ import annotations

import json
import random

from engine.cards import parse_face
from engine.events import NONE, Event
from engine.games import gouji
from engine.games.gouji.cards import PACK
from engine.games.gouji.position import view

from .conftest import GAME_ID, PLAYERS, act, apply_play, do, illegal, play, pos, settle

F = "finished"


def render(s: gouji.GoujiState, seat: int | None = None) -> str:
    """The table as ``liujia replay`` prints it."""
    return gouji.GAME.render(s, seat)


def _deal(s, cards, cut_index=NONE):
    return Event("DEAL", seat=s.starter, cards=tuple(cards), value=cut_index,
                 tag=f"{s.direction:+d}", game_id=s.game_id, seq=s.seq)


def _sweep(**changes):
    """Seats 0 and 2 went out 1st and 2nd; seat 4 leads its last card (a 串三户 follows)."""
    kw = dict(hands=["", "Ts Tc", "", "Js Jc", "9h", "Qs Qc"], out={0: (1, F), 2: (2, F)},
              open_phase=True, to_act=4, last=4)
    kw.update(changes)
    return pos(**kw)


# ---------------------------------------------------------------- GJ-23 locked seat

def test_gj23_a_locked_seat_is_told_it_may_not_answer_again_not_whose_turn_it_is():
    """GJ-23 (not GJ-22): seat 1 passed earlier in the round; its later answer is refused as
    a lock, GJ-22 is named as also broken, and the seat to act with its kinds is said."""
    s = pos(hands=["Kh Kd 9s", "Ah Ad 7h", "7s", "7c", "7d", "8h 8d"], top=("Qs Qc", 5),
            passed=[1, 2, 3, 4], to_act=0, last=5, opened=[1])
    s, _ = apply_play(s, 0, "Kh Kd")
    err = illegal(s, play(1, "Ah Ad", s), "GJ-23")
    assert err.also == ("GJ-22",)
    assert "may not answer again" in err.reason and "it is seat" not in err.reason
    assert err.legal == "seat 5: PASS"
    assert str(err).startswith("GJ-23: seat 1 PLAY Ah Ad at seq")
    assert "; also breaks GJ-22; legal now: seat 5: PASS" in str(err)


def test_gj22_an_unlocked_seat_out_of_turn_still_cites_the_turn():
    """GJ-22: a seat that has not passed, acting out of turn, is told whose turn it is (and
    what that seat may do)."""
    s = pos(hands=["Kh Kd 9s", "Ah Ad 7h", "7s", "7c", "7d", "8h 8d"], top=("Qs Qc", 5),
            to_act=0, last=5)
    err = illegal(s, play(2, "7s", s), "GJ-22")
    assert "it is seat 0's turn" in err.reason and err.legal.startswith("seat 0: PLAY")


# ---------------------------------------------------------------- GJ-15 big joker

def test_gj15_a_play_after_a_big_joker_cites_gj15_not_the_owed_round_end():
    """GJ-15 (not GJ-48): after a play with an RJ nobody may act on it; the owed ROUND_END
    is named as GJ-48 and the next leader is said."""
    s = pos(hands=["RJ 9s", "Ah Ad 7h", "7s", "7c", "7d", "8h 8d"], top=("Qs", 5),
            to_act=0, last=5)
    s = gouji.apply(s, play(0, "RJ", s))
    assert [x.kind for x in s.owed] == ["ROUND_END"]
    for e in (play(1, "Ah", s), act(s, "PASS", 1)):
        err = illegal(s, e, "GJ-15")
        assert err.also == ("GJ-48",) and "big joker" in err.reason
        assert err.legal == "the engine records ROUND_END, then seat 0 leads"
    err = illegal(s, act(s, "XUANDIAN", 1), "GJ-38")   # not an answer: the window is closed
    assert err.also == ("GJ-48",) and err.legal == "the engine records ROUND_END"


# ---------------------------------------------------------------- GJ-9 no cut in later games

def test_gj9_a_cut_in_a_later_game_cites_no_cut_not_the_stage():
    """GJ-9 (not GJ-10): game 2 has no cut; the stage rule is named, the deal is legal now;
    also once play has begun. A DIRECTION in a later game cites GJ-7 (first game only)."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=1,
                                              starter=4))
    e = act(s, "CUT", 4, cards="7s", value=1)
    err = illegal(s, e, "GJ-9")
    assert "no cut" in err.reason and err.also == ("GJ-10",)
    assert err.legal == "the DEAL, from seat 4"
    s, _ = settle(s)
    illegal(s, act(s, "CUT", 0, cards="7s", value=-1), "GJ-9")
    err = illegal(s, act(s, "DIRECTION", 4, value=-1), "GJ-7")
    assert err.also == ("GJ-5", "GJ-10") and "+1" in err.reason


def test_gj10_a_cut_out_of_stage_in_the_first_game_still_cites_the_sequence():
    """GJ-10: in the first game a second cut after a non-joker is out of sequence."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS))
    s = gouji.apply(s, act(s, "CUT", 0, cards="7h", value=1))
    illegal(s, act(s, "CUT", 0, cards="8h", value=1), "GJ-10")


# ---------------------------------------------------------------- GJ-34 designation

def test_gj34_a_play_during_the_designation_cites_the_sweep_not_the_stage():
    """GJ-34 (not GJ-10): after a 串三户 nobody plays; the swept team designates, and the
    members who may are named."""
    s, _ = apply_play(_sweep(), 4, "9h")
    assert s.stage == "designate"
    for e in (play(1, "Ts Tc", s), act(s, "PASS", 3)):
        err = illegal(s, e, "GJ-34")
        assert "串三户" in err.reason and "odd team designates" in err.reason
        assert err.also == ("GJ-10",) and err.legal == "seats 1, 3, 5: DESIGNATE"


def test_gj46_a_judged_member_does_not_designate_and_is_not_due():
    """GJ-46 with GJ-34: a stifled (闷) member of the swept team takes no further part: he is
    not the seat due to designate (nor listed, nor in the view), and his DESIGNATE is
    refused; an unplaced member designates."""
    s = _sweep(hands=["", "3s", "", "Js Jc", "6h", "Qs Qc"], top=("5s", 1), to_act=4, last=3,
               passed=[])
    s, _ = apply_play(s, 4, "6h")
    assert s.stage == "designate" and s.out_how[1] == "men"
    assert gouji.due_seat(s) == 3 and s.to_act == 3
    assert {a.seat for a in gouji.legal_actions(s)} == {3, 5}
    assert view(s, 1)["to_act"] == 3
    order = json.dumps({"order": [5, 3]})
    err = illegal(s, act(s, "DESIGNATE", 1, payload=order), "GJ-46")
    assert err.also == ("GJ-34",) and err.legal == "seats 3, 5: DESIGNATE"
    text = render(s, 1)
    assert "串三户 by team even: the odd team designates the order of seats 3, 5" in text
    assert "seat 3 to designate" in text
    s, derived = do(s, "DESIGNATE", 5, payload=order)
    assert derived[0].kind == "GAME_END"


# ---------------------------------------------------------------- GJ-2 deal

def test_gj2_a_wrong_deal_names_the_faces_missing_and_extra_briefly():
    """GJ-2: a deal that is not the pack says which faces are missing or extra (counts),
    without listing the 196 faces."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=1,
                                              starter=0))
    cards = list(PACK)
    cards[cards.index(parse_face("5s"))] = parse_face("3h")
    err = illegal(s, _deal(s, cards), "GJ-2")
    assert "missing 1× 5s" in err.reason and "extra 1× 3h" in err.reason
    assert len(str(err)) < 200, str(err)
    err = illegal(s, _deal(s, PACK[:-1]), "GJ-2")
    assert "195 cards" in err.reason and "missing 1× RJ" in err.reason and len(str(err)) < 200
    err = illegal(s, _deal(s, [parse_face("5s")] * 196), "GJ-2")
    assert "and" in err.reason and "more faces" in err.reason and len(str(err)) < 300


def test_gj6_a_wrong_cut_index_is_short_and_says_what_it_points_at():
    """GJ-6: the deal's cut_index must point at the shown card; the message says what it
    points at and does not list the deal."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS))
    s = gouji.apply(s, act(s, "CUT", 0, cards="7h", value=1))
    s = gouji.apply(s, act(s, "DIRECTION", s.first_player, value=1))
    cards = list(PACK)
    i = cards.index(parse_face("7h"))
    err = illegal(s, _deal(s, cards, cut_index=i + 1 if cards[i + 1] != cards[i] else 0),
                  "GJ-6")
    assert len(str(err)) < 200 and "7h" in err.reason


# ---------------------------------------------------------------- GJ-32 game end

def test_gj32_a_game_end_mismatch_names_only_the_differing_fields():
    """GJ-48 with GJ-32: a GAME_END that differs from the engine's says which fields differ
    and their values, not both payloads."""
    out = {0: (1, F), 1: (2, F), 3: (3, F), 5: (4, F)}
    s = pos(hands=["", "", "9h", "", "Ts Tc", ""], out=out, open_phase=True, to_act=2, last=2)
    s = gouji.apply(s, play(2, "9h", s))
    while s.owed[0].kind != "GAME_END":
        s = gouji.apply(s, s.owed[0]._replace(seq=s.seq))
    owed = s.owed[0]._replace(seq=s.seq)
    p = json.loads(owed.payload)
    bad = dict(p, points=[2, 1, 0, 0, -2, -1])
    err = illegal(s, owed._replace(payload=json.dumps(bad)), "GJ-32")
    assert "points is [2,1,-1,0,-2,0], event says [2,1,0,0,-2,-1]" in err.reason
    assert "positions" not in err.reason and "names" not in err.reason
    err = illegal(s, owed._replace(payload=json.dumps(dict(p, result="even", extra=1))), "GJ-32")
    assert 'result is "odd", event says "even"' in err.reason
    assert "extra is not part of the result" in err.reason
    err = illegal(s, owed._replace(tag="even"), "GJ-32")
    assert "tag (result) is 'odd', event says 'even'" in err.reason and "{" not in err.reason
    err = illegal(s, owed._replace(payload=None), "GJ-32")
    assert "no result payload" in err.reason


# ---------------------------------------------------------------- GJ-47 replay --seat

def _first_game(count_dir: int) -> gouji.GoujiState:
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS))
    s = gouji.apply(s, act(s, "CUT", 2, cards="BJ"))
    s = gouji.apply(s, act(s, "CUT", 2, cards="5h", value=count_dir))
    return s


def test_gj47_a_seat_view_shows_the_cut_its_direction_and_who_got_the_face_up_card():
    """GJ-47/GJ-6: the cut cards, the counting direction (−1 shown as backwards, not as
    "none"), the first player and who received the face-up cut card are public: a seat's
    rendering shows them."""
    s = _first_game(-1)
    assert s.first_player == (2 - 4) % 6
    text = render(s, 3)
    assert "seat 2 showed" in text and "counted backwards (-1)" in text
    assert "a joker: put back" in text and "→ seat 4 is first" in text
    s = gouji.apply(s, act(s, "DIRECTION", 4, value=1))
    cards = list(PACK)
    random.Random(5).shuffle(cards)
    i = cards.index(parse_face("5h"))
    s = gouji.apply(s, _deal(s, cards, cut_index=i))
    holder = (4 + i) % 6
    assert s.cut_holder == holder
    for seat in (None, 0, holder):
        assert f"the face-up 5♥ went to seat {holder}" in render(s, seat)
    assert "counted forwards (+1)" in render(_first_game(1), 0)


# ---------------------------------------------------------------- issue 24: the rule of this seat now

def test_gj20_a_seat_that_may_only_pass_on_a_gouji_play_cites_gj20_even_if_it_does_not_beat():
    """GJ-20 (not GJ-14): seat 4, not opposite, not 没头, not opened, may only pass on seat 0's
    够级 play, whatever its cards; a play that also fails to beat names GJ-14 too. An opened
    seat's play that does not beat still cites GJ-14 (it may answer, but not with that)."""
    s = pos(hands=["9s 9c 4s", "Qh Qd 7h", "As Ac 7s", "2h 2d 7c", "Qs Qc 7d", "8h"],
            top=("Kh Kd", 0), passed=[1, 2, 3], to_act=4, last=3, opened=[1])
    err = illegal(s, play(4, "Qs Qc", s), "GJ-20")
    assert err.also == ("GJ-14",)
    s = pos(hands=["9s 9c 4s", "Qh Qd 7h", "As Ac 7s", "2h 2d 7c", "Qs Qc 7d", "8h"],
            top=("Kh Kd", 0), to_act=1, last=0, opened=[1])
    illegal(s, play(1, "Qh Qd", s), "GJ-14")


def _yielded():
    """Seat 0 led 5s 5h; seats 1, 2 passed; seat 3 (its opposite) yielded: 4, 5 act first."""
    hands = ["Ks 9d", "Kc 9c", "Kh 9h", "7s 7h Qs", "6s 6h Qh", "8s 8h Qc"]
    s = pos(hands=hands, top=("5s 5h", 0), passed=[1, 2], to_act=3, last=2)
    s, _ = do(s, "RANG", 3)
    assert (s.to_act, s.rang_seat, s.rang_wait) == (4, 3, (4, 5))
    return s


def test_gj26_the_yielder_acting_before_his_two_next_seats_cites_the_yield():
    """GJ-26 (not GJ-22): while a yield is in progress the yielder, or a seat after the two
    next seats, acting out of turn breaks the yield's order; the seat that made the top play
    is no responder at all (GJ-22)."""
    s = _yielded()
    err = illegal(s, play(3, "7s 7h", s), "GJ-26")
    assert err.also == ("GJ-22",) and "seat 3 yielded" in err.reason
    assert "seats 4, 5 act first" in err.reason and err.legal == "seat 4: PLAY, PASS"
    illegal(s, act(s, "PASS", 3), "GJ-26")
    illegal(s, play(5, "8s 8h", s), "GJ-26")
    illegal(s, play(0, "Ks", s), "GJ-22")
    s, _ = do(s, "PASS", 4)
    s, _ = do(s, "PASS", 5)
    assert s.to_act == 3
    assert s.to_act == 3 and s.rang_seat == 3          # back to the yielder
    illegal(s, act(s, "PASS", 4), "GJ-23")              # 4 passed: its lock comes first


def test_gj34_a_declaration_or_huiwu_during_the_designation_cites_the_sweep():
    """GJ-34 (not GJ-38 / GJ-35): after a 串三户 the game has ended and only the designation
    remains; a 宣点, 和点 or 会五 sent then is refused under GJ-34."""
    s, _ = apply_play(_sweep(), 4, "9h")
    assert s.stage == "designate"
    for e in (act(s, "XUANDIAN", 1), act(s, "HEDIAN", 1, tag="agree"),
              act(s, "HUIWU", 1, cards="Ts", value=5, tag="lead",
                  payload=json.dumps({"1": ["Ts"]}))):
        err = illegal(s, e, "GJ-34")
        assert err.also == ("GJ-10",) and err.legal == "seats 1, 3, 5: DESIGNATE"


def test_gj34_an_action_after_a_swept_game_ended_cites_the_sweep_not_gj33():
    """GJ-34: once a 串三户 game is over (designation and GAME_END recorded), an action cites
    the rule that ended it; a game that ended otherwise cites GJ-33."""
    s, _ = apply_play(_sweep(), 4, "9h")
    s, _ = do(s, "DESIGNATE", 1, payload=json.dumps({"order": [1, 3, 5]}))
    assert gouji.is_over(s)
    illegal(s, play(3, "Js Jc", s), "GJ-34")
    out = {0: (1, F), 1: (2, F), 3: (3, F), 5: (4, F)}
    t = pos(hands=["", "", "9h", "", "Ts Tc", ""], out=out, open_phase=True, to_act=2, last=2)
    t, _ = apply_play(t, 2, "9h")
    assert gouji.is_over(t)
    illegal(t, act(t, "PASS", 4), "GJ-33")


def test_gj33_an_action_while_the_game_end_is_owed_cites_the_end_not_gj48():
    """GJ-33 (not GJ-48): the last play ended the game; while its OUT and GAME_END are still
    owed, a seat's action is refused because the game is over, GJ-48 named too."""
    out = {0: (1, F), 1: (2, F), 3: (3, F), 5: (4, F)}
    s = pos(hands=["", "", "9h", "", "Ts Tc", ""], out=out, open_phase=True, to_act=2, last=2)
    s = gouji.apply(s, play(2, "9h", s))
    assert [x.kind for x in s.owed][-1] == "GAME_END"
    for e in (play(4, "Ts Tc", s), act(s, "PASS", 4)):
        err = illegal(s, e, "GJ-33")
        assert err.also == ("GJ-48",) and "the game is over" in err.reason
