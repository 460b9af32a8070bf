"""The greedy policy's fast choice (worked out from the hand, ``GreedyPolicy.choose``) is its
reference choice (every listed legal action scored, ``choose_listed``) in every state of
seeded self-play, with the same calls on the generator, under every conformance option set;
the kongs self-play seldom meets, on hand-built positions."""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_face
from engine.games import liuhu
from engine.games.liuhu.bots import GreedyPolicy, isolation, may_zimo, most_isolated
from engine.games.liuhu.cards import RJ, pack
from engine.games.liuhu.scoring import can_zimo

from ...policy_pairs import compare, decision_states
from .conftest import table

GREEDY = GreedyPolicy()
OPTION_SETS = liuhu.CONFORMANCE["option_sets"]


@pytest.mark.parametrize("driver", ["greedy", "random"])
@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_fast_greedy_choice_is_the_listed_one(k, driver):
    """Greedy self-play (the states rollouts meet) and random self-play (more claims, kongs
    and 吃 shapes): the same action and the same generator state after it, every time."""
    states = decision_states("liuhu", OPTION_SETS[k], driver, games=10, seed=400 + k)
    n = compare(GREEDY.choose, GREEDY.choose_listed, states, seed=k)
    assert n > 300


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_may_zimo_is_can_zimo(k):
    """The 自摸 read from the hand's winning faces before the draw is ``can_zimo`` in every
    post-draw state of greedy and random self-play (wins among them); the seat on turn is
    asked also with every other face near its cards as the card drawn, so that wins are
    many."""
    wins = asked = 0
    for driver in ("greedy", "random"):
        for s in decision_states("liuhu", OPTION_SETS[k], driver, games=3, seed=500 + k):
            if s.phase != "turn":
                continue
            seat = s.turn
            hand = s.hands[seat]
            rest = list(hand)
            if s.drawn >= 0:
                rest.remove(s.drawn)
            near = {13 * (c // 13) + r for c in rest if c != RJ
                    for r in range(c % 13 - 2, c % 13 + 3) if 0 <= r < 13}
            near |= {13 * u + c % 13 for c in rest if c != RJ for u in range(4)}
            for d in sorted(near - {s.drawn}) if s.drawn >= 0 else []:
                t = s.copy()
                t.hands = s.hands[:seat] + (tuple(sorted(rest + [d])),) + s.hands[seat + 1:]
                t.drawn = d
                got = may_zimo(t)
                assert got == can_zimo(t), (t.hands[seat], d)
                wins += got
                asked += 1
            assert may_zimo(s) == can_zimo(s)
    assert asked > 2000 and (wins > 0 or k == 2)     # set 2: five groups, wins are rare


def test_most_isolated_is_the_best_isolation():
    """``most_isolated`` (scored from the face counts) gives the faces of the highest
    ``isolation`` in ascending order, for random hands of 2-4 decks with and without the RJ."""
    rng = random.Random(3)
    for _ in range(10_000):
        cards = list(pack(rng.choice((2, 3, 4)), rng.randrange(2)))
        hand = tuple(sorted(rng.sample(cards, rng.randrange(1, 18))))
        faces = sorted(set(hand))
        scores = [isolation(hand, c) for c in faces]
        assert most_isolated(hand) == [c for c, v in zip(faces, scores, strict=True)
                                       if v == max(scores)], hand


def _both(s):
    """Both choosers in the state, from generators in the same state."""
    a, b = random.Random(0), random.Random(0)
    got, want = GREEDY.choose(s, a), GREEDY.choose_listed(s, b)
    assert got == want and a.getstate() == b.getstate()
    return got


def test_kongs_as_listed():
    """Two faces held four times: the last 暗杠 listed (the higher face); two 碰 with their
    fourth card in hand: the last 加杠 listed; with the wall empty neither (LH-25)."""
    s = table({0: "3s 3s 3s 3s 9h 9h 9h 9h Kd Kd Qc Qc Jd Js"})
    assert _both(s) == liuhu.legal_actions(s)[1] and _both(s).cards == (parse_face("9h"),)
    pengs = [("peng", "5s 5s 5s", 1, "5s"), ("peng", "8h 8h 8h", 2, "8h")]
    s = table({0: "5s 8h 2d 4c 6c Kd Td Js"}, melds={0: pengs})
    assert _both(s).kind == "JIA_GANG" and _both(s).cards == (parse_face("8h"),)
    s = table({0: "5s 8h 2d 4c 6c Kd Td Js"}, melds={0: pengs}, wall_size=0)
    assert _both(s).kind == "DISCARD"


def test_discard_ties_and_the_rj():
    """An RJ is never discarded while another card is held; equal scores are drawn from the
    generator in listed order, for several seeds."""
    s = table({0: "As 4h 7c Td Ks 4s 7h Tc Kd 2s 5h 8c Jd RJ"}, options={"hunzi": 1})
    for seed in range(8):
        a, b = random.Random(seed), random.Random(seed)
        got = GREEDY.choose(s, a)
        assert got == GREEDY.choose_listed(s, b) and a.getstate() == b.getstate()
        assert got.cards != (RJ,)
