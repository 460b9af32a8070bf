"""GJ-39 … GJ-46: starting a burn, the burner's duty, 诈烧, the ends of a burn (解烧, 反烧,
没头, open phase, success), 闷 and the order of judgements, judged players' dead cards."""

from __future__ import annotations

import pytest

from engine.cards import format_face, parse_faces
from engine.events import NONE
from engine.games.gouji.position import view

from .conftest import act, apply_play, do, illegal, legal_plays, play, pos
from .late_helpers import fs, mask, options

F = "finished"

# Seat 0 led Kh Kd, a pure 够级 play; seat 1 (opened) is to act.
HANDS = ["9s 9c 4s", "Ah Ad 7h", "As Ac 7s", "2h 2d 7c", "2s 2c 7d", "Qs Qc 8h"]


def on_gouji(**changes):
    kw = dict(hands=HANDS, top=("Kh Kd", 0), to_act=1, last=0, opened=[1, 2, 5])
    kw.update(changes)
    return pos(**kw)


# ---------------------------------------------------------------- GJ-39 starting a burn


def test_gj39_an_opened_non_opposite_answer_to_a_gouji_play_is_a_burn():
    """GJ-39: seat 1 (opened) answers seat 0's 够级 play: BURN_START seat 1 taken from 0."""
    s = on_gouji()
    e = play(1, "Ah Ad", s)
    assert e.tag == "answer+shaped+pure+gouji"
    s, derived = apply_play(s, 1, "Ah Ad")
    assert fs(derived) == [("BURN_START", 1, 0, NONE, "burn")]
    assert s.burner == 1 and s.top_seat == 1


def test_gj39_a_teammate_may_be_burnt():
    """GJ-39: 烧牌可以烧队友 — seat 2 burns its teammate 0's 够级 play."""
    s = on_gouji(passed=[1], to_act=2, last=1)
    s, derived = apply_play(s, 2, "As Ac")
    assert fs(derived) == [("BURN_START", 2, 0, NONE, "burn")]


def test_gj39_the_opposites_answer_is_no_burn():
    """GJ-39 with GJ-20 (a): the maker's opposite answers normally."""
    s = on_gouji(passed=[1, 2], to_act=3, last=2)
    s, derived = apply_play(s, 3, "2h 2d")
    assert derived == [] and s.burner == -1


def test_gj39_gj37_a_non_opened_responder_may_not_burn():
    """GJ-39 with GJ-37/GJ-20: under burn_licence an unopened seat 4 can only pass; its legal
    plays are none."""
    s = on_gouji(passed=[1, 2, 3], to_act=4, last=3)
    illegal(s, play(4, "2s 2c", s), "GJ-20")
    assert legal_plays(s) == set()


def test_gj39_after_passing_no_burn():
    """GJ-39 (过牌之后则不能烧牌) with GJ-22/GJ-23: seat 1 passed earlier in the round; seat 0's
    later 够级 play skips it (only seat 5 is asked), and it may not answer."""
    hands = ["Kh Kd 9s", "Ah Ad 7h", "7s", "7c", "7d", "8h 8d"]
    s = pos(hands=hands, top=("Qs Qc", 5), passed=[1, 2, 3, 4], to_act=0, last=5,
            opened=[1])
    s, derived = apply_play(s, 0, "Kh Kd")
    assert derived == [] and s.to_act == 5
    illegal(s, play(1, "Ah Ad", s), "GJ-23")
    s, derived = do(s, "PASS", 5)
    assert fs(derived) == [("ROUND_END", 0, 0, 0, "passes")] and s.burner == -1


def test_gj39_the_take_needs_no_joker_and_must_beat():
    """GJ-39: the take needs no joker, but must beat the 够级 play (GJ-14)."""
    s = on_gouji(hands=["9s 9c 4s", "Qh Qd Ah Ad", "As 7s", "2h 7c", "2s 7d", "8h"])
    illegal(s, play(1, "Qh Qd", s), "GJ-14")
    s, derived = apply_play(s, 1, "Ah Ad")
    assert derived[0].kind == "BURN_START"


# ---------------------------------------------------------------- GJ-40 duty, GJ-43 诈烧


def burner_leads(hands, **changes):
    kw = dict(hands=hands, burner=1, to_act=1, last=1, opened=[1])
    kw.update(changes)
    return pos(**kw)


def test_gj40_a_burner_lead_with_a_joker_keeps_the_burn():
    """GJ-40: the burner's later play contains a joker: the burn goes on; it is 够级."""
    s = burner_leads(["9s", "6h BJ 8s", "7s", "7c", "7d", "8h"])
    assert play(1, "6h BJ", s).tag == "lead+shaped+gouji"
    s, derived = apply_play(s, 1, "6h BJ")
    assert derived == [] and s.burner == 1


def test_gj40_gj43_a_burner_lead_without_a_joker_is_a_false_burn():
    """GJ-40/GJ-43: a lead without a joker is 诈烧: the play is void (never the top play),
    BURN_END fake then OUT zhashao at the lowest free position; the round ends without a
    winner and the next active seat after the burner leads."""
    s = burner_leads(["9s", "6h 8s", "7s", "7c", "7d", "8h"])
    e = play(1, "6h", s)
    assert e.tag == "lead+void"
    illegal(s, e._replace(tag="lead"), "GJ-43")
    s, derived = apply_play(s, 1, "6h")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "fake"),
                           ("OUT", 1, NONE, 6, "zhashao"),
                           ("ROUND_END", -1, 2, 0, "fake_burn")]
    assert (s.top, s.top_seat, s.to_act, s.burner) == ((), -1, 2, -1)
    assert s.out_how[1] == "zhashao"


def test_gj43_false_burn_after_a_judgement_takes_the_next_lowest_place_and_opens_the_phase():
    """GJ-43/GJ-45 with GJ-48's order: seat 5 was stifled (6th); the false burn takes 5th,
    which is the second out: PHASE_OPEN follows the OUT; seat 2 is out, so seat 3 leads."""
    s = burner_leads(["9s", "6h 8s", "", "7c", "7d", "3s"],
                     out={2: (1, F), 5: (6, "men")})
    s, derived = apply_play(s, 1, "6h")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "fake"),
                           ("OUT", 1, NONE, 5, "zhashao"),
                           ("PHASE_OPEN", -1, NONE, NONE, ""),
                           ("ROUND_END", -1, 3, 0, "fake_burn")]
    assert s.to_act == 3 and s.open_phase


def test_gj40_a_final_single_3_is_exempt_and_the_burn_succeeds():
    """GJ-40/GJ-42: the burner's last card, one 3, needs no joker: he goes out, then the burn
    succeeds (OUT before BURN_END success)."""
    s = burner_leads(["9s", "3s", "7s", "7c", "7d", "8h"])
    assert play(1, "3s", s).tag == "lead"
    s, derived = apply_play(s, 1, "3s")
    assert fs(derived) == [("OUT", 1, NONE, 1, F), ("BURN_END", 1, NONE, NONE, "success")]
    assert s.burner == -1


@pytest.mark.parametrize("hand,cards", [("3s 3c", "3s 3c"), ("3s 3c", "3s")])
def test_gj40_only_exactly_one_final_3_is_exempt(hand, cards):
    """GJ-40 (resolution: only a final play of exactly one 3): two 3s at once, or one 3 that
    leaves another, are 诈烧."""
    s = burner_leads(["9s", hand, "7s", "7c", "7d", "8h"])
    assert play(1, cards, s).tag == "lead+void"
    s, derived = apply_play(s, 1, cards)
    assert [x[4] for x in fs(derived)[:2]] == ["fake", "zhashao"]


# ---------------------------------------------------------------- GJ-41 ends of a burn


def burnt(**changes):
    """Seat 1 took seat 0's Kh Kd with Ah Ad and is the burner; the take is the top play."""
    kw = dict(hands=["9s 9c", "7h 8s", "7s", "7c", "7d", "8h"], top=("Ah Ad", 1), burner=1,
              opened=[1, 2, 5])
    kw.update(changes)
    return pos(**kw)


def test_gj41a_relieved_by_the_burners_opposite():
    """GJ-41 (a) 解烧: seat 4, the burner's opposite, answers: BURN_END relieved, no new burn;
    the former burner has no duty."""
    s = burnt(hands=["9s 9c", "7h 8s", "7s", "7c", "2h 2d 7d", "8h"], passed=[2, 3],
              to_act=4, last=3)
    s, derived = apply_play(s, 4, "2h 2d")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "relieved")]
    assert s.burner == -1


def test_gj41b_countered_by_another_opened_responder():
    """GJ-41 (b) 反烧: opened seat 2 answers the burner: BURN_END countered, then BURN_START
    counter (seat 2, taken from 1)."""
    s = burnt(hands=["9s 9c", "7h 8s", "2s 2c 7s", "7c", "7d", "8h"], to_act=2, last=1)
    s, derived = apply_play(s, 2, "2s 2c")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "countered"),
                           ("BURN_START", 2, 1, NONE, "counter")]
    assert s.burner == 2


def test_gj41b_a_counter_burn_needs_the_licence():
    """GJ-41 (b) with GJ-37: an unopened seat 3 may not counter-burn (GJ-20)."""
    s = burnt(hands=["9s 9c", "7h 8s", "7s", "2h 2d 7c", "7d", "8h"], passed=[2], to_act=3,
              last=2)
    illegal(s, play(3, "2h 2d", s), "GJ-20")


def test_gj41c_meitou_answer_ends_the_burn():
    """GJ-41 (c): seat 0 is 没头 (seat 3 out); its answer ends the burn, none starts."""
    s = burnt(hands=["2h 2d 9s", "7h 8s", "7s", "", "7d", "8h"], out={3: (1, F)},
              passed=[2, 4, 5], to_act=0, last=5, opened=[0, 1])
    s, derived = apply_play(s, 0, "2h 2d")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "meitou")]
    assert s.burner == -1


def test_gj41d_a_take_that_opens_the_phase_ends_at_once():
    """GJ-41 (d) with GJ-44/GJ-48: seat 5 is out; seat 1's take beats seat 0's play that left
    it a single 3: BURN_START, OUT men (the second out), PHASE_OPEN, BURN_END open_phase; the
    take is then not 够级."""
    s = on_gouji(hands=["3s", "Ah Ad 7h", "As 7s", "2h 7c", "2s 7d", ""], out={5: (1, F)})
    e = play(1, "Ah Ad", s)
    assert e.tag == "answer+shaped+pure"
    s, derived = apply_play(s, 1, "Ah Ad")
    assert fs(derived) == [("BURN_START", 1, 0, NONE, "burn"),
                           ("OUT", 0, NONE, 6, "men"),
                           ("PHASE_OPEN", -1, NONE, NONE, ""),
                           ("BURN_END", 1, NONE, NONE, "open_phase")]
    assert s.burner == -1 and s.open_phase


def test_gj41_gj42_a_take_that_empties_the_hand_succeeds_at_once():
    """GJ-41/GJ-42: a take with the taker's last cards: BURN_START, OUT, BURN_END success."""
    s = on_gouji(hands=["9s 9c 4s", "Ah Ad", "As 7s", "2h 7c", "2s 7d", "8h"])
    s, derived = apply_play(s, 1, "Ah Ad")
    assert fs(derived) == [("BURN_START", 1, 0, NONE, "burn"), ("OUT", 1, NONE, 1, F),
                           ("BURN_END", 1, NONE, NONE, "success")]


def test_gj42_success_has_no_penalty_for_the_burnt_player():
    """GJ-42: after a successful burn the burnt seat 0 is neither out nor judged."""
    s = on_gouji(hands=["9s 9c 4s", "Ah Ad", "As 7s", "2h 7c", "2s 7d", "8h"])
    s, _ = apply_play(s, 1, "Ah Ad")
    assert s.out_pos == (0, 1, 0, 0, 0, 0) and s.out_how[0] == ""


def test_gj40_the_burners_later_plays_are_gouji_so_any_answer_ends_the_burn():
    """GJ-40: the burner's joker lead is 够级 (not opened seat 3 may not answer it);
    its opposite 4 may, ending the burn (解烧)."""
    s = burner_leads(["9s", "6h BJ 8s", "7s", "2h RJ 7c", "2s RJ 7d", "8h"])
    s, _ = apply_play(s, 1, "6h BJ")
    s, _ = do(s, "PASS", 2)
    illegal(s, play(3, "2h RJ", s), "GJ-20")
    s, _ = do(s, "PASS", 3)
    s, derived = apply_play(s, 4, "2s RJ")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "relieved"),
                           ("ROUND_END", 4, 4, 0, "big_joker")]


# ---------------------------------------------------------------- GJ-44 … GJ-46 闷


def test_gj44_a_beaten_play_that_left_a_single_3_stifles_its_maker():
    """GJ-44: seat 0's 5h left it 3s; seat 2, a teammate, beats it: seat 0 is judged 拉客
    (OUT men, position 6) and is out."""
    s = pos(hands=["3s", "8s", "7h 9h", "8c", "8d", "8h"], top=("5h", 0), passed=[1],
            to_act=2, last=1)
    s, derived = apply_play(s, 2, "7h")
    assert fs(derived) == [("OUT", 0, NONE, 6, "men")]
    assert s.out_pos[0] == 6 and s.to_act == 3


def test_gj44_not_beaten_the_maker_wins_and_leads_his_3():
    """GJ-44: unbeaten, seat 0 wins the round and leads its 3 (going out, not stifled)."""
    s = pos(hands=["3s", "8s", "8c 9h", "8d", "8h", "9s"], top=("Ah", 0), to_act=1, last=0)
    for seat in (1, 2, 3, 4):
        s, _ = do(s, "PASS", seat)
    s, derived = do(s, "PASS", 5)
    assert fs(derived) == [("ROUND_END", 0, 0, 0, "passes")]
    s, derived = apply_play(s, 0, "3s")
    assert fs(derived) == [("OUT", 0, NONE, 1, F)]


def test_gj44_men_scope_two_3s_are_stifled_only_under_threes_only():
    """GJ-44 option men_scope: a hand of two 3s is not stifled by default, but is under
    `threes_only`."""
    kw = dict(hands=["3s 3c", "8s", "7h 9h", "8c", "8d", "8h"], top=("5h", 0), passed=[1],
              to_act=2, last=1)
    s, derived = apply_play(pos(**kw), 2, "7h")
    assert derived == [] and s.out_pos[0] == 0
    s, derived = apply_play(pos(**kw, options=options(men_scope="threes_only")), 2, "7h")
    assert fs(derived) == [("OUT", 0, NONE, 6, "men")]


def test_gj44_a_burn_answer_stifles_too():
    """GJ-44: any answer stifles, a burn included (the seed's 烧牌 + 闷)."""
    s = on_gouji(hands=["3s", "Ah Ad 7h", "As 7s", "2h 7c", "2s 7d", "8h"])
    s, derived = apply_play(s, 1, "Ah Ad")
    assert fs(derived) == [("BURN_START", 1, 0, NONE, "burn"), ("OUT", 0, NONE, 6, "men")]
    assert s.burner == 1


def test_gj45_three_players_stifled_are_lake_erla_and_sike_in_that_order():
    """GJ-45 (seed: three players stifled are 拉客, 二拉 and 四客 in that order): seats 0, 1, 2
    each leave a single 3 and are beaten in turn: positions 6, 5, 4."""
    s = pos(hands=["5h 3s", "6h 3c", "7h 3h", "8h 9s", "9c", "9d"], to_act=0, last=0)
    s, _ = apply_play(s, 0, "5h")
    s, d1 = apply_play(s, 1, "6h")
    s, d2 = apply_play(s, 2, "7h")
    s, d3 = apply_play(s, 3, "8h")
    assert fs(d1) == [("OUT", 0, NONE, 6, "men")]
    assert fs(d2) == [("OUT", 1, NONE, 5, "men"), ("PHASE_OPEN", -1, NONE, NONE, "")]
    assert fs(d3) == [("OUT", 2, NONE, 4, "men")]
    from engine.games.gouji.rules import POSITION_NAMES
    assert [POSITION_NAMES[s.out_pos[i]] for i in (0, 1, 2)] == ["拉客", "小拉", "四客"]


def test_gj45_going_out_comes_before_the_stifle():
    """GJ-45: seat 2 goes out with the card that stifles seat 1: OUT finished (1st) comes
    first, then OUT men (6th)."""
    s = pos(hands=["9s", "3c", "7h", "8c", "8d", "8h"], top=("6h", 1), to_act=2, last=1)
    s, derived = apply_play(s, 2, "7h")
    assert fs(derived) == [("OUT", 2, NONE, 1, F), ("OUT", 1, NONE, 6, "men"),
                           ("PHASE_OPEN", -1, NONE, NONE, "")]


def test_gj46_a_judged_players_cards_are_dead_and_he_is_skipped():
    """GJ-46: a stifled seat keeps its dead cards (auditor view only, hidden from every
    player's view), is skipped in turn order and takes no further part (GJ-46, not only
    GJ-18)."""
    s = pos(hands=["3s", "8s", "7h 9h", "8c", "8d", "Th 9s"], top=("5h", 0), passed=[1],
            to_act=2, last=1)
    s, _ = apply_play(s, 2, "7h")
    assert s.hands[0] == parse_faces("3s")
    assert view(s, None)["hands"][0] == ["3s"]
    assert all(view(s, seat)["hands"][0] is None for seat in range(1, 6))
    illegal(s, play(0, "3s"), "GJ-46")
    s, _ = do(s, "PASS", 3)
    s, _ = do(s, "PASS", 4)
    s, _ = apply_play(s, 5, "Th")
    assert s.to_act == 2                      # 0 judged, 1 locked: 2 answers next
    s, derived = do(s, "PASS", 2)
    assert fs(derived) == [("ROUND_END", 5, 5, 0, "passes")]


def test_gj46_judged_players_cards_never_return():
    """GJ-46: dead cards are out of play — the judged seat never acts, even when it would be
    the 接风 seat: the first *active* seat after it leads."""
    s = burner_leads(["9s", "6h 8s", "7s", "7c", "7d", "8h"])
    s, _ = apply_play(s, 1, "6h")
    assert s.to_act == 2 and format_face(s.hands[1][0]) == "8s"
    illegal(s, act(s, "PASS", 1), "GJ-46")
    assert mask(1) & s.passed == 0


def test_gj41_gj44_relieving_answer_that_stifles_the_former_burner():
    """GJ-41 (completion) with GJ-44/GJ-48: the take left the burner a single 3; his opposite's
    answer ends the burn first (BURN_END relieved), then stifles him (OUT men, 6th)."""
    s = burnt(hands=["9s 9c", "3s", "7s", "7c", "2h 2d 7d", "8h"], passed=[2, 3], to_act=4,
              last=3)
    s, derived = apply_play(s, 4, "2h 2d")
    assert fs(derived) == [("BURN_END", 1, NONE, NONE, "relieved"), ("OUT", 1, NONE, 6, "men")]


def test_gj43_gj33_a_false_burn_that_leaves_one_player_ends_the_game_without_round_end():
    """GJ-43 with GJ-33/GJ-48 and judged_counts_as_out = false (judged players do not open the
    phase, so a burn is possible with four judged): the 诈烧 takes 2nd place, seat 0 is left
    alone (OUT last, 1st) and GAME_END follows — no ROUND_END, no PHASE_OPEN."""
    s = burner_leads(["9s", "6h 8s", "3s", "3c", "3h", "3d"],
                     out={2: (6, "men"), 3: (5, "men"), 4: (4, "zhashao"), 5: (3, "men")},
                     options=options(judged_counts_as_out=False))
    assert not s.open_phase
    s, derived = apply_play(s, 1, "6h")
    assert fs(derived)[:3] == [("BURN_END", 1, NONE, NONE, "fake"),
                               ("OUT", 1, NONE, 2, "zhashao"), ("OUT", 0, NONE, 1, "last")]
    assert [e.kind for e in derived] == ["BURN_END", "OUT", "OUT", "GAME_END"]
    assert s.is_over and s.result["positions"] == [1, 2, 6, 5, 4, 3]
