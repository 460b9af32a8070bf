"""小墩 rule by rule (tests/toygame/rules.md): one illegal or edge event per rule id, with the
verdict and the rule id it cites; the state it was checked against stays as it was."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import parse_face, suit_of
from engine.errors import IllegalMove, InvalidEvent
from engine.games import find_game
from engine.rules_text import rule_ids, rule_text
from engine.sim import simulate

GAME = "toy_tricks"


@pytest.fixture(scope="module")
def g():
    return find_game(GAME)


def _start(g, seed=1, **opts):
    o = g.Options(**opts)
    return g.start_event("toy-1", [f"p{i}" for i in range(o.trick_players)],
                         random.Random(seed), o)


def _dealt(g, seed=1, **opts):
    s = g.initial_state(_start(g, seed, **opts))
    while g.next_auto(s) == "DEAL":
        s = g.apply(s, g.auto_event(s))
    return s


def _refused(g, s, e, rule):
    before = s.copy()
    with pytest.raises(IllegalMove) as err:
        g.apply(s, e)
    assert err.value.rule_id == rule and s == before
    return err.value


def test_every_rule_has_its_text():
    ids = rule_ids("TRICK")
    assert ids == [f"TRICK-{i}" for i in range(1, 16)]
    assert all(rule_text(r) for r in ids)


def test_trick_1_seats_and_turn_order(g):
    assert [g.seat_count(g.Options(trick_players=n)) for n in (2, 3, 4)] == [2, 3, 4]
    with pytest.raises(InvalidEvent, match="needs that many players"):
        g.start_event("toy-1", ["a", "b"], random.Random(1), g.Options(trick_players=3))


def test_trick_2_options_are_checked_and_recorded(g):
    with pytest.raises(IllegalMove, match="TRICK-2.*trick_players=5"):
        g.Options(trick_players=5)
    p = json.loads(_start(g).payload)
    assert p["options"] == {"trick_players": 4, "trick_hand_size": 5, "trick_last_bonus": False}
    bad = _start(g)._replace(payload=_start(g).payload.replace('"trick_hand_size":5,', ""))
    with pytest.raises(IllegalMove) as err:
        g.initial_state(bad)
    assert err.value.rule_id == "TRICK-2"


def test_trick_3_one_deck(g):
    e = _start(g)
    with pytest.raises(IllegalMove) as err:
        g.initial_state(e._replace(cards=e.cards[:-1] + (52,)))
    assert err.value.rule_id == "TRICK-3"


def test_trick_4_leader_is_a_seat(g):
    e = _start(g)
    with pytest.raises(IllegalMove) as err:
        g.initial_state(e._replace(value=(e.value + 1) % 4))
    assert err.value.rule_id == "TRICK-4"


def test_trick_5_deal_in_deck_order(g):
    s = g.initial_state(_start(g))
    owed = g.auto_event(s)
    assert owed.seat == 0 and owed.cards == s.deck[:5]
    _refused(g, s, owed._replace(cards=s.deck[5:10]), "TRICK-5")
    s = _dealt(g)
    assert s.stock == s.deck[20:] and g.to_move(s) == s.leader


def test_trick_6_only_the_seat_to_act_plays(g):
    s = _dealt(g)
    other = (s.leader + 1) % 4
    e = g.legal_actions(s)[0]._replace(seat=other, cards=(s.hands[other][0],))
    _refused(g, s, e, "TRICK-6")


def test_trick_10_the_winner_of_a_trick_leads_the_next(g):
    s = _dealt(g)
    while s.trick_no == 0 or s.trick or g.next_auto(s) is not None:
        s = g.apply(s, g.legal_actions(s)[0])
    other = (s.leader + 1) % 4
    assert g.to_move(s) == s.leader and s.tricks[s.leader] >= 1   # the winner, to lead
    e = g.legal_actions(s)[0]._replace(seat=other, cards=(s.hands[other][0],))
    _refused(g, s, e, "TRICK-10")


def test_trick_7_one_card_held(g):
    s = _dealt(g)
    e = g.legal_actions(s)[0]
    _refused(g, s, e._replace(cards=s.hands[s.leader][:2]), "TRICK-7")
    missing = next(c for c in range(52) if c not in s.hands[s.leader])
    _refused(g, s, e._replace(cards=(missing,)), "TRICK-7")


def _void_case(g):
    """A seeded position where the seat to follow holds the led suit and another suit."""
    for seed in range(1, 200):
        s = _dealt(g, seed)
        for lead in g.legal_actions(s):
            t = g.apply(s, lead)
            hand = t.hands[t.turn_seat()]
            led = suit_of(lead.cards[0])
            if any(suit_of(c) == led for c in hand) and any(suit_of(c) != led for c in hand):
                return t, next(c for c in hand if suit_of(c) != led)
    raise AssertionError("no seeded position")


def test_trick_8_follow_suit(g):
    s, off = _void_case(g)
    e = g.legal_actions(s)[0]._replace(cards=(off,))
    err = _refused(g, s, e, "TRICK-8")
    assert "must follow" in str(err)
    assert all(suit_of(a.cards[0]) == suit_of(s.trick[0]) for a in g.legal_actions(s))


def test_trick_9_and_10_highest_of_the_led_suit_wins_and_leads(g):
    s = _dealt(g, 3, trick_players=2, trick_hand_size=1)
    s = g.apply(s, g.legal_actions(s)[0])
    s = g.apply(s, g.legal_actions(s)[0])
    owed = g.auto_event(s)
    assert owed.kind == "TRICK_END"
    led = suit_of(s.trick[0])
    from tests.toygame.rules import STRENGTH
    best = max((STRENGTH[c], x) for c, x in zip(s.trick, s.trick_seats, strict=True)
               if suit_of(c) == led)
    assert owed.seat == best[1]
    _refused(g, s, owed._replace(seat=1 - owed.seat), "TRICK-9")
    _refused(g, s, owed._replace(kind="PLAY"), "TRICK-9")
    after = g.apply(s, owed)
    assert after.leader == owed.seat and after.tricks[owed.seat] == 1


def test_trick_9_strength_order():
    from tests.toygame.rules import STRENGTH
    assert STRENGTH[parse_face("As")] > STRENGTH[parse_face("Ks")] > STRENGTH[parse_face("2s")]
    assert STRENGTH[parse_face("2s")] == 0


def test_trick_11_and_12_result(g):
    sim = next(simulate(GAME, 1, seed=4, options=g.Options(trick_players=3,
                                                              trick_last_bonus=True)))
    r = g.result(sim.final)
    assert sum(r["tricks"]) == 5 and sum(r["scores"]) == 6
    end = sim.events[-1]
    before = g.initial_state(sim.events[0])
    for e in sim.events[1:-1]:
        g.step(before, e)
    forged = json.loads(end.payload)
    forged["scores"] = forged["scores"][::-1] if forged["scores"] != forged["scores"][::-1] \
        else [x + 1 for x in forged["scores"]]
    err = _refused(g, before, end._replace(payload=json.dumps(forged)), "TRICK-11")
    assert "scores" in str(err)
    out = g.outcomes(sim.final)
    top = max(r["scores"])
    assert [o.result == "win" for o in out] == [x == top for x in r["scores"]]


def test_trick_12_all_equal_is_a_draw(g):
    from tests.toygame.game import outcomes
    s = _dealt(g, 1, trick_players=2, trick_hand_size=1)
    s.tricks, s.phase, s.result = (1, 1), "over", json.dumps(
        {"tricks": [1, 1], "scores": [1, 1], "winners": [], "draw": True})
    assert {o.result for o in outcomes(s)} == {"draw"}


def test_trick_13_sessions(g):
    games = list(simulate(GAME, 2, seed=9, session_games=2))
    first, second = games
    assert second.events[0].value == (first.events[0].value + 1) % 4
    assert g.check_session(second.events[0], first.final) is None
    wrong = second.events[0]._replace(payload=second.events[0].payload.replace(
        f'"leader":{second.events[0].value}', f'"leader":{first.events[0].value}'))
    assert g.check_session(wrong, first.final).rule_id == "TRICK-13"
    p = json.loads(second.events[0].payload)
    p["leader_rule"] = "random"
    with pytest.raises(IllegalMove) as err:
        g.initial_state(second.events[0]._replace(payload=json.dumps(p), tag="random"))
    assert err.value.rule_id == "TRICK-13"


def test_trick_14_nothing_after_the_end(g):
    sim = next(simulate(GAME, 1, seed=5))
    e = sim.events[5]._replace(seq=sim.final.seq)
    _refused(g, sim.final, e, "TRICK-14")


def test_trick_15_who_sees_what(g):
    sim = next(simulate(GAME, 1, seed=6))
    deal = sim.events[2]
    assert g.cards_visible(deal, deal.seat) and not g.cards_visible(deal, deal.seat + 1)
    assert g.seen_event(deal, 0).cards == () and g.seen_event(deal, None) == deal
    assert not g.cards_visible(sim.events[0], 0)
    play = next(e for e in sim.events if e.kind == "PLAY")
    assert all(g.cards_visible(play, k) for k in range(4))
    v = g.view(g.initial_state(sim.events[0]), 1)
    assert "stock" not in v and v["hands"] == [0, [], 0, 0]


def test_positions_round_trip_and_refuse_the_unreachable(g):
    sim = next(simulate(GAME, 1, seed=8))
    from engine.replay import Replay
    rep = Replay(sim.events)
    for i in range(len(rep)):
        s = rep.state_at(i)
        assert g.from_position(json.loads(json.dumps(g.to_position(s)))) == s
    pos = g.to_position(rep.state_at(10))
    pos["tricks"][0] += 1
    with pytest.raises(InvalidEvent, match="position field 'tricks'"):
        g.from_position(pos)
