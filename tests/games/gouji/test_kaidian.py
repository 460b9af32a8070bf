"""GJ-36 … GJ-38: a pure 够级 play that stands, 开点 with natural 4s, its effect (the burn
licence, or nothing under `kaidian_effect = record`), and the 宣点 / 和点 window."""

from __future__ import annotations

from engine.cards import format_face
from engine.events import NONE
from engine.games import gouji
from engine.games.gouji.position import to_position

from .conftest import act, apply_play, dealt, do, illegal, play, pos
from .late_helpers import fs, mask, options

# Seat 0 led Kh Kd (pure 够级); everyone but its opposite 3 has passed; 3 is to act.
HANDS = ["4s 4c 4h 6h 2s", "9c", "9d", "Ts Tc", "Js Jc", "Qs Qc"]


def stood(top="Kh Kd", hands=HANDS, **changes):
    """The round of seat 0's play ends with it on top (3 passes last)."""
    kw = dict(hands=hands, top=(top, 0), passed=[1, 2, 4, 5], to_act=3, last=2)
    kw.update(changes)
    s, derived = do(pos(**kw), "PASS", 3)
    assert fs(derived) == [("ROUND_END", 0, 0, 0, "passes")]
    return s


def test_gj36_pure_gouji_play_stands_then_a_lead_of_natural_4s_is_kaidian():
    """GJ-36: Kh Kd stood as a 够级 play; seat 0's next play, a lead of natural 4s, is 开点:
    tag '+kaidian' and OPENED (via kaidian)."""
    s = stood()
    assert s.kd_cand == 0
    e = play(0, "4s 4c", s)
    assert e.tag == "lead+kaidian"
    s, derived = apply_play(s, 0, "4s 4c")
    assert fs(derived) == [("OPENED", 0, NONE, NONE, "kaidian")]
    assert s.opened == mask(0) and s.kd_cand == -1


def test_gj36_a_single_natural_4_is_kaidian_too():
    """GJ-36 (resolution: one or more natural 4s)."""
    s, derived = apply_play(stood(), 0, "4h")
    assert fs(derived) == [("OPENED", 0, NONE, NONE, "kaidian")]


def test_gj36_a_4_with_a_wild_is_not_kaidian():
    """GJ-36: a 4 lead with an attached 2 is not 开点; claiming it is breaks GJ-36."""
    s = stood()
    e = play(0, "4s 2s", s)
    assert e.tag == "lead"
    illegal(s, e._replace(tag="lead+kaidian"), "GJ-36")
    s, derived = apply_play(s, 0, "4s 2s")
    assert derived == [] and s.opened == 0


def test_gj36_a_4_led_later_is_not_kaidian():
    """GJ-36: only the next play counts: after leading 6h (and winning that round), a 4 lead
    is no 开点."""
    s, _ = apply_play(stood(), 0, "6h")
    assert s.kd_cand == -1
    for seat in (1, 2, 3, 4):
        s, _ = do(s, "PASS", seat)
    s, derived = do(s, "PASS", 5)
    assert fs(derived) == [("ROUND_END", 0, 0, 0, "passes")]
    assert play(0, "4s", s).tag == "lead"
    s, derived = apply_play(s, 0, "4s")
    assert derived == [] and s.opened == 0


def test_gj36_a_non_pure_gouji_play_gives_no_kaidian():
    """GJ-36 with GJ-17: Kh 2d (two kings made with a 2) is 够级 but not pure."""
    s = stood(top="Kh 2d")
    assert s.kd_cand == -1
    s, derived = apply_play(s, 0, "4s")
    assert derived == [] and s.opened == 0


def test_gj36_a_pure_play_that_is_not_gouji_when_it_stands_gives_no_kaidian():
    """GJ-36: the play must still be 够级 when it stands: seat 0 is 没头 (seat 3 out), so its
    pure Kh Kd is ordinary."""
    hands = ["4s 4c 6h", "9c", "9d", "", "Js Jc", "Qs Qc"]
    s = pos(hands=hands, top=("Kh Kd", 0), passed=[1, 2, 4], to_act=5, last=4,
            out={3: (1, "finished")})
    s, derived = do(s, "PASS", 5)
    assert derived[-1].kind == "ROUND_END" and s.kd_cand == -1
    s, derived = apply_play(s, 0, "4s")
    assert derived == [] and s.opened == 0


def test_gj36_no_kaidian_in_the_open_phase():
    """GJ-36: no play is 够级 in the open phase, hence no 开点."""
    hands = ["4s 4c 6h", "", "", "Ts Tc", "Js Jc", "Qs Qc"]
    s = pos(hands=hands, top=("Kh Kd", 0), passed=[4, 5], to_act=3, last=5, open_phase=True,
            out={1: (1, "finished"), 2: (2, "finished")})
    s, _ = do(s, "PASS", 3)
    assert s.kd_cand == -1
    s, derived = apply_play(s, 0, "4s")
    assert derived == [] and s.opened == 0


def test_gj36_gj43_a_4_lead_voided_by_a_false_burn_is_not_kaidian():
    """GJ-36 with GJ-43: the burner's 4s lead without a joker is a 诈烧, not 开点."""
    s = stood()
    s = pos(s, burner=0)
    e = play(0, "4s 4c", s)
    assert e.tag == "lead+void"
    s, derived = apply_play(s, 0, "4s 4c")
    assert [x[0] for x in fs(derived)] == ["BURN_END", "OUT", "ROUND_END"]
    assert s.opened == 0


def test_gj36_gj37_kaidian_gives_the_burn_licence():
    """GJ-36/GJ-37 (burn_licence): before its 开点 seat 0 may not answer seat 4's 够级 play
    (GJ-20); after it, the same answer is a burn (GJ-39)."""
    hands = ["4s Ah Ad 7h", "9c", "9d", "Ts Tc", "8h", "Qs Qc"]
    before = stood(hands=hands)
    after, _ = apply_play(before, 0, "4s")
    assert after.opened == mask(0)
    kw = dict(top=("Kh Kd", 4), passed=[1, 2, 3, 5], to_act=0, last=5)
    b = pos(before, **kw)
    illegal(b, play(0, "Ah Ad", b), "GJ-20")
    a = pos(after, **kw)
    a, derived = apply_play(a, 0, "Ah Ad")
    assert fs(derived) == [("BURN_START", 0, 4, NONE, "burn")]


def test_gj37_without_licence_a_non_opposite_may_not_answer_a_gouji_play():
    """GJ-37 (burn_licence) with GJ-20: a seat that is neither opened, opposite nor 没头 may
    only pass on a 够级 play; under `record` the same answer is a burn."""
    hands = ["9s", "Ah Ad 9c", "Kh Kd 9d", "Ts Tc", "Js Jc", "Qs Qc"]
    kw = dict(hands=hands, top=("Kh Kd", 2), passed=[], to_act=3, last=2)
    s = pos(**kw)
    s, _ = do(s, "PASS", 3)
    s, _ = do(s, "PASS", 4)
    s, _ = do(s, "PASS", 5)
    s, _ = do(s, "PASS", 0)
    illegal(s, play(1, "Ah Ad", s), "GJ-20")
    r = pos(**kw, options=options(kaidian_effect="record"))
    for seat in (3, 4, 5, 0):
        r, _ = do(r, "PASS", seat)
    r, derived = apply_play(r, 1, "Ah Ad")
    assert fs(derived) == [("BURN_START", 1, 2, NONE, "burn")]
    assert r.burner == 1


def test_gj37_record_kaidian_is_still_recorded():
    """GJ-37 (`record`): 开点 is recorded (OPENED) but licenses nothing extra."""
    s = stood(options=options(kaidian_effect="record"))
    s, derived = apply_play(s, 0, "4s")
    assert fs(derived) == [("OPENED", 0, NONE, NONE, "kaidian")]


# ---------------------------------------------------------------- GJ-38 宣点 / 和点


def test_gj38_agreement_opens_both_proposer_first():
    """GJ-38: seat 4 declares 宣点, seat 1 agrees (和点): both are opened, OPENED events name
    the proposer first."""
    s = dealt()
    assert s.window
    s, derived = do(s, "XUANDIAN", 4)
    assert derived == [] and s.xd_pending == 4
    s, derived = do(s, "HEDIAN", 1, tag="agree")
    assert fs(derived) == [("OPENED", 4, NONE, NONE, "hedian"), ("OPENED", 1, NONE, NONE,
                                                                   "hedian")]
    assert s.opened == mask(1, 4) and s.xd_pending == -1


def test_gj38_refusal_opens_nobody():
    """GJ-38: a refusal leaves the pair unopened."""
    s, _ = do(dealt(), "XUANDIAN", 2)
    s, derived = do(s, "HEDIAN", 5, tag="refuse")
    assert derived == [] and s.opened == 0


def test_gj38_only_the_opposite_answers_and_nothing_else_happens_meanwhile():
    """GJ-38: while a 宣点 awaits its answer only the proposer's opposite may act: another
    seat's 和点, a second 宣点, or the starter's play are rejected."""
    s, _ = do(dealt(), "XUANDIAN", 2)
    illegal(s, act(s, "HEDIAN", 1, tag="agree"), "GJ-38")
    illegal(s, act(s, "XUANDIAN", 0), "GJ-38")
    card = s.hands[0][-1]
    illegal(s, play(0, format_face(card), s), "GJ-38")


def test_gj38_one_xuandian_per_pair():
    """GJ-38: at most one 宣点 per pair per game, whatever the answer; other pairs may still
    declare."""
    s, _ = do(dealt(), "XUANDIAN", 0)
    s, _ = do(s, "HEDIAN", 3, tag="refuse")
    illegal(s, act(s, "XUANDIAN", 3), "GJ-38")
    illegal(s, act(s, "XUANDIAN", 0), "GJ-38")
    s, _ = do(s, "XUANDIAN", 1)
    assert s.xd_pending == 1


def test_gj38_no_hedian_without_a_pending_xuandian():
    """GJ-38: a 和点 answers a 宣点 right after it."""
    s = dealt()
    illegal(s, act(s, "HEDIAN", 3, tag="agree"), "GJ-38")


def test_gj38_the_window_closes_with_the_first_play():
    """GJ-38: after the starter's first play no 宣点 is possible."""
    s = dealt()
    lead = next(a for a in gouji.legal_actions(s) if a.kind == "PLAY")
    s = gouji.apply(s, lead)
    assert not s.window
    illegal(s, act(s, "XUANDIAN", 1), "GJ-38")
    assert to_position(s)["window"] is False


def test_gj38_the_window_closes_with_the_huiwu():
    """GJ-38 with GJ-35: the 会五 is the first play and closes the window too."""
    s = dealt(starter=1, huiwu_team="odd")
    s, _ = do(s, "XUANDIAN", 0)
    s, _ = do(s, "HEDIAN", 3, tag="refuse")
    hw = next(a for a in gouji.legal_actions(s) if a.kind == "HUIWU")
    s = gouji.apply(s, hw)
    illegal(s, act(s, "XUANDIAN", 1), "GJ-38")


def test_gj36_gj48_kaidian_by_an_opened_player_owes_no_second_opened():
    """GJ-36 with GJ-48 (`opened` only when the player is not yet opened): seat 0, opened by
    和点, still makes 开点 (tag '+kaidian') but no OPENED event follows."""
    s = stood(opened=[0, 3])
    assert play(0, "4s", s).tag == "lead+kaidian"
    s, derived = apply_play(s, 0, "4s")
    assert derived == [] and s.opened == mask(0, 3)


def test_gj36_a_pure_play_that_stands_after_its_maker_went_out_gives_no_candidate():
    """GJ-36 ('its maker P, still active'): seat 0 went out with Kh Kd and it stands: no 开点
    candidate; seat 1 catches the wind."""
    hands = ["", "4c 9c", "9d", "Ts Tc", "Js Jc", "Qs Qc"]
    s = pos(hands=hands, top=("Kh Kd", 0), out={0: (1, "finished")}, passed=[1, 2, 4, 5],
            to_act=3, last=2)
    s, derived = do(s, "PASS", 3)
    assert fs(derived) == [("ROUND_END", 0, 1, 1, "passes")] and s.kd_cand == -1
    assert play(1, "4c", s).tag == "lead"
