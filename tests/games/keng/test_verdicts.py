"""Verdicts that explain (issue 13): when a 六人坑 event breaks several rules, the error cites
the most specific one (why *this* seat may not do *this* now), names the others and says what
was legal; every message is one line a player understands."""

from __future__ import annotations

import json
import random

from engine.cards import parse_faces
from engine.games import keng

from .conftest import (
    accept,
    draw,
    duel_play,
    owed,
    pass_,
    play,
    pos,
    rejected,
    run,
    settle,
    snatch,
)

# ---------------------------------------------------------------- passing (KENG-27, 11, 12)


def test_keng_27_a_pass_facing_a_pending_draw_cites_stack_or_accept_not_draw_two():
    """KENG-27 (not KENG-12): facing a pending draw the seat stacks or accepts; KENG-12 is
    named as also broken and the legal kinds are said."""
    s = pos({0: "5h 9h Kc"}, top="Kh", pending=2)
    err = rejected(s, pass_(s, 0))
    assert err.rule_id == "KENG-27" and err.also == ("KENG-12",)
    assert "pending draw of 2" in err.reason and "ACCEPT" in err.reason
    assert err.legal == "seat 0: PLAY, ACCEPT"
    assert "only after drawing two" not in str(err)


def test_keng_11_a_pass_after_accepting_says_the_seat_did_draw_and_must_play():
    """KENG-11 step 2 (not KENG-12's "pass only after drawing two"): the seat accepted the
    draw and holds a legal play: it must play."""
    s = pos({0: "9h 2c"}, top="Kh", pending=2, stock="3s 4s 7c 8c")
    s = run(s, accept(s, 0))
    err = rejected(s, pass_(s, 0))
    assert err.rule_id == "KENG-11" and err.also == ("KENG-12",)
    assert "has accepted the draw" in err.reason and "must play" in err.reason
    assert err.legal == "seat 0: PLAY"


def test_keng_12_a_pass_after_accepting_with_no_play_says_draw_two_first():
    """KENG-12: after accepting, a seat with no legal play draws two first, then plays or
    passes; the message says it accepted and what is legal."""
    s = pos({0: "2c 3d"}, top="Kh", pending=2, stock="3s 4s 7c 8c 6d 6c")
    s = run(s, accept(s, 0))
    err = rejected(s, pass_(s, 0))
    assert err.rule_id == "KENG-12" and err.also == ()
    assert "has accepted the draw and has no legal play: it draws two first" in err.reason
    assert err.legal == "seat 0: DRAW"


def test_keng_11_a_pass_with_a_legal_play_and_no_draw_says_must_play():
    """KENG-11: with P = 0 and a legal play, the seat must play (not draw two and pass)."""
    s = pos({0: "9h 2c"}, top="5h")
    err = rejected(s, pass_(s, 0))
    assert err.rule_id == "KENG-11" and "holds a legal play: it must play" in err.reason
    assert "accepted" not in err.reason


# ---------------------------------------------------------------- the duel (KENG-30)

def test_keng_30_a_duellist_without_a_duel_card_is_told_he_has_lost_the_duel():
    """KENG-30 step 3: the defender has no legal duel card; his DUEL_PLAY is refused saying
    he has lost the duel (not that the engine "owes DUEL_END")."""
    s = pos({0: "Ah 7s 2c", 3: "9d Kh 2d"}, top="5h", to_act=0)
    s = run(s, play(s, 0, "Ah"))
    s = keng.apply(s, keng.auto_event(s))           # DUEL_START
    assert owed(s) == "DUEL_END"
    err = rejected(s, duel_play(s, 3, "9d"))
    assert err.rule_id == "KENG-30"
    assert "has lost the duel" in err.reason and "after Ah" in err.reason
    assert "draws 1 card, one for each duel card" in err.reason
    assert "owes DUEL_END" not in err.reason
    assert err.legal == "the engine's DUEL_END (owed)"
    err = rejected(s, duel_play(s, 0, "7s"))
    assert "seat 3, to act, has no legal duel card" in err.reason


def test_keng_30_a_duellist_playing_a_card_he_lacks_cites_the_duel():
    """KENG-30 (not KENG-16): a duel play of a card the duellist does not hold."""
    s = pos({0: "Ah 7s 2c", 3: "5h 9d 2d"}, top="5h", to_act=0)
    s = run(s, play(s, 0, "Ah"))
    s = keng.apply(s, keng.auto_event(s))
    err = rejected(s, duel_play(s, 3, "9h"))
    assert err.rule_id == "KENG-30" and "does not hold 9h" in err.reason
    assert err.legal == "seat 3: DUEL_PLAY"


# ---------------------------------------------------------------- holding the cards

def test_keng_11_a_play_of_cards_not_held_cites_the_turn_not_the_play_forms():
    """KENG-11 (not KENG-16, the forms of play): a turn is played from the seat's own hand;
    the missing faces and what is legal are said."""
    s = pos({0: "9h 2c"}, top="5h")
    err = rejected(s, play(s, 0, "8h"))
    assert err.rule_id == "KENG-11" and "does not hold 8h" in err.reason
    assert err.legal == "seat 0: PLAY"
    err = rejected(s, play(s, 0, "9h 9h"))
    assert err.rule_id == "KENG-11" and "does not hold 9h" in err.reason


def test_keng_34_a_snatch_of_a_card_not_held_cites_the_snatch_rule():
    """KENG-34 (not KENG-16): a 抢 claim shows a card the seat holds."""
    hs = {0: "7h 2c 3c", 3: "4s 6s 8d"}
    s = pos(hs, top="5h", to_act=0, cycle=2, window=False)
    s = run(s, play(s, 0, "7h"))
    assert s.window
    err = rejected(s, snatch(s, 3, "7h", "valid"))
    assert err.rule_id == "KENG-34" and "does not hold 7h" in err.reason
    assert "抢" in err.reason


# ---------------------------------------------------------------- KENG-20 named suit

def test_keng_20_says_the_offered_card_lacks_the_named_suit():
    """KENG-20: the message names the offered card, the named suit and what would match."""
    s = pos({0: "9s 9h"}, top="BJ", suit="h")
    err = rejected(s, play(s, 0, "9s"))
    assert err.rule_id == "KENG-20"
    assert "9s lacks the suit h named for the joker play BJ" in err.reason
    assert "play a card of suit h or a joker" in err.reason and err.legal == "seat 0: PLAY"


# ---------------------------------------------------------------- GAME_END (KENG-46)

def test_keng_46_a_game_end_mismatch_names_only_the_differing_fields():
    """KENG-46/KENG-49: a GAME_END that differs from the engine's names the differing fields
    and values only, not both payloads."""
    s = pos({0: "9h"}, top="5h")
    s = run(s, play(s, 0, "9h"))
    assert owed(s) == "GAME_END"
    exp = keng.auto_event(s)
    p = json.loads(exp.payload)
    bad = dict(p, winning_team="odd")
    err = rejected(s, exp._replace(payload=json.dumps(bad)))
    assert err.rule_id == "KENG-46"
    assert 'winning_team is "even", event says "odd"' in err.reason
    assert "final_hands" not in err.reason and "deciding_seat" not in err.reason
    hands = [list(h) for h in p["final_hands"]]
    hands[3] = hands[3][:-1]
    err = rejected(s, exp._replace(payload=json.dumps(dict(p, final_hands=hands))))
    assert "final_hands[3] is" in err.reason and "final_hands[2]" not in err.reason
    err = rejected(s, exp._replace(tag="over_limit"))
    assert "tag (reason) is 'out', event says 'over_limit'" in err.reason
    assert "{" not in err.reason
    settle(s)


# ---------------------------------------------------------------- draws: the draw's own rule

def test_keng_12_a_draw_of_other_cards_than_the_stocks_cites_the_draw_two_rule():
    """KENG-12 (not KENG-11, the turn): drawing two takes the stock's next two cards."""
    s = pos(top="5h")
    wrong = draw(s, 0)._replace(cards=s.stock[1:3])
    err = rejected(s, wrong)
    assert err.rule_id == "KENG-12" and "the stock's next 2 cards are" in err.reason


def test_keng_44_a_short_draw_with_nothing_to_reshuffle_cites_the_empty_discard_rule():
    """KENG-44 (not KENG-43, the reshuffle): with no played card besides the top play the draw
    takes only the card there is; KENG-43 still applies when a reshuffle can follow."""
    s = pos(top="5h", stock="2s", table="")
    err = rejected(s, draw(s, 0)._replace(cards=parse_faces("2s 3s")))
    assert err.rule_id == "KENG-44" and "the stock's next 1 cards are 2s" in err.reason
    s = pos(top="5h", stock="2s", table="2h")
    assert rejected(s, draw(s, 0)._replace(cards=parse_faces("2s 2h"))).rule_id == "KENG-43"


def test_keng_30_a_duel_losers_draw_of_other_cards_cites_the_duel():
    """KENG-30 step 4 (not KENG-11): the duel loser draws the stock's next cards."""
    s = pos({0: "Ah 7s 2c", 3: "9d Kh 2d"}, top="5h", to_act=0, stock="3s 4s 6s")
    s = run(s, play(s, 0, "Ah"))
    s = keng.apply(s, keng.auto_event(s))           # DUEL_START
    exp = keng.auto_event(s)
    assert exp.kind == "DUEL_END"
    assert rejected(s, exp._replace(cards=parse_faces("4s"))).rule_id == "KENG-30"


def test_keng_33_a_report_penalty_of_other_cards_cites_the_report_rule():
    """KENG-33 (not KENG-11): the forgotten report's two cards are the stock's next two."""
    s = pos({0: "9h 2c", 1: "2d 3d"}, top="5h", stock="3s 4s 6s 7s")
    s = run(s, play(s, 0, "9h"), lambda t: draw(t, 1))
    assert owed(s) == "REPORT_PENALTY"
    exp = keng.auto_event(s)
    assert rejected(s, exp._replace(cards=parse_faces("7s 6s"))).rule_id == "KENG-33"


def test_keng_38_a_false_call_penalty_of_other_cards_cites_the_claim_rule():
    """KENG-38 (not KENG-11): a false call's one card is the stock's next card."""
    s = pos({0: "7h 2c 3c", 3: "4s 6s 9h"}, top="5h", to_act=0, cycle=2, window=False,
            stock="Kd 2h 3h")
    s = run(s, play(s, 0, "7h"))
    s = run(s, keng.claim(s, 3, None))
    assert owed(s) == "SNATCH_PENALTY"
    exp = keng.auto_event(s)
    assert rejected(s, exp._replace(cards=parse_faces("2h"))).rule_id == "KENG-38"


# ---------------------------------------------------------------- the rest of a split draw

def test_keng_43_an_action_while_the_rest_of_the_duel_losers_draw_is_owed():
    """KENG-43 (not KENG-30, and no crash): once the duel has ended, the rest of the loser's
    draw continues from the new stock before anything else."""
    s = pos({0: "Ah 7s 2c", 3: "Ad 9d 2d"}, top="5h", to_act=0, stock="3s", table="6h 7h")
    s = run(s, play(s, 0, "Ah"))
    s = keng.apply(s, keng.auto_event(s))           # DUEL_START
    s = run(s, duel_play(s, 3, "Ad"))
    s = keng.apply(s, keng.auto_event(s))           # DUEL_END: one card, the stock is empty
    s = keng.apply(s, keng.auto_event(s, random.Random(0)))       # RESHUFFLE
    assert owed(s) == "DUEL_END" and s.duel is None
    for e in (duel_play(s, 3, "9d"), play(s, 1, "2d"), pass_(s, 1)):
        err = rejected(s, e)
        assert err.rule_id == "KENG-43"
        assert "the rest of the draw, after the reshuffle" in err.reason
    rest = keng.auto_event(s)
    assert rest.tag == "continued"
    assert rejected(s, rest._replace(seat=3)).rule_id == "KENG-43"


# ---------------------------------------------------------------- a claim recorded as a snatch

def test_keng_37_a_claim_recorded_valid_cites_the_condition_it_fails():
    """KENG-37 (not KENG-38, the judging): a SNATCH recorded 'valid' that is no valid snatch
    cites the rule that forbids this snatch; KENG-38 is named as also broken."""
    s = pos({0: "7h 7h 2c", 3: "7d 4s 6s"}, top="5h", to_act=0, cycle=2, window=False)
    s = run(s, play(s, 0, "7h"))
    err = rejected(s, snatch(s, 0, "7h", "valid"))
    assert err.rule_id == "KENG-37" and err.also == ("KENG-38",)
    assert "a seat cannot snatch its own play: the claim is judged 'false'" in err.reason
    err = rejected(s, snatch(s, 3, "7d", "valid"))
    assert err.rule_id == "KENG-37" and "identical to the top play's card" in err.reason


def test_keng_36_a_claim_recorded_valid_on_the_covered_play_cites_the_window_rule():
    """KENG-36 (not KENG-38): only the current top play can be snatched; a card identical to
    the covered play is late."""
    s = pos({0: "7h 2c 3c", 1: "9h 2d 3d", 3: "7h 4s 6s"}, top="5h", to_act=0, cycle=2,
            window=False)
    s = run(s, play(s, 0, "7h"), lambda t: play(t, 1, "9h"))
    err = rejected(s, snatch(s, 3, "7h", "valid"))
    assert err.rule_id == "KENG-36" and "judged 'void'" in err.reason
    assert rejected(s, snatch(s, 3, "7h", "false")).rule_id == "KENG-38"
