"""The greedy policy's fast choice (scored from the hand, ``GreedyPolicy.choose``) is its
reference choice (every listed legal action scored, ``choose_listed``) in every state of
seeded self-play, with the same calls on the generator, under every conformance option set."""

from __future__ import annotations

import random

import pytest

from engine.games import keng
from engine.games.keng.bots import GreedyPolicy
from engine.games.keng.plays import play_rule, plays

from ...policy_pairs import compare, decision_states

GREEDY = GreedyPolicy()
OPTION_SETS = keng.CONFORMANCE["option_sets"]


@pytest.mark.parametrize("driver", ["greedy", "random"])
@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_fast_greedy_choice_is_the_listed_one(k, driver):
    """Greedy self-play (the states rollouts meet) and random self-play (bans, false claims,
    counts, duels): the same action and the same generator state after it, every time."""
    states = decision_states("keng", OPTION_SETS[k], driver, games=12, seed=100 + k)
    n = compare(GREEDY.choose, GREEDY.choose_listed, states, seed=k)
    assert n > 500


def test_ties_are_drawn_from_the_generator_in_listed_order():
    """A hand with two equal best plays: both paths draw the same one for every seed."""
    states = decision_states("keng", {}, "greedy", games=3, seed=7)
    tied = 0
    for s in states:
        for seed in range(5):
            a = GREEDY.choose(s, random.Random(seed))
            assert a == GREEDY.choose_listed(s, random.Random(seed))
        acts = keng.turn_actions(s)
        scores = [GREEDY._score(s, x) for x in acts]
        tied += scores.count(max(scores)) > 1 if acts else 0
    assert tied > 10


def _plays_by_rule(s, seat):
    """Every play form of the seat to act that ``play_rule`` allows, face by face in hand
    order (the listing as first written: the reference of ``plays``)."""
    hand = s.hands[seat]
    out = []
    for f in sorted(set(hand)):
        c = hand.count(f)
        forms = [(f,)] + [(f, f)] * (c >= 2) + [(f, f, f)] * (c >= 3 and f == 53)
        out += [cards for cards in forms if play_rule(s, cards, len(hand)) is None]
    return out


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_plays_lists_what_play_rule_allows(k):
    """``plays`` (the turn's play forms, one rule check a form) is the reference listing in
    every state of random self-play, pending draws and joker tops among them."""
    n = 0
    for s in decision_states("keng", OPTION_SETS[k], "random", games=8, seed=300 + k):
        if s.phase == "play" and s.duel is None:
            for seat in range(6):
                assert plays(s, seat) == _plays_by_rule(s, seat)
            n += 1
    assert n > 300
