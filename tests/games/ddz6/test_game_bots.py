"""The ddz6 bots: the random bot plays legal actions; the greedy bot sheds its smallest
combination, keeps its bombs, never beats a play of its own side as it knows it, and bombs an
opponent close to going out; its fast choice is its listed (reference) choice."""

from __future__ import annotations

import random

import pytest

from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.bots import GreedyPolicy, RandomPolicy
from engine.games.ddz6.variants import CONFORMANCE

from ...policy_pairs import compare, decision_states
from .reference import faces
from .test_game_play import a_play_state, play, set_hands
from .test_game_support import do, ev


def test_greedy_leads_its_smallest_combination_not_a_bomb():
    s = set_hands(a_play_state(), {0: "33456666"})
    a = GreedyPolicy().choose(s, random.Random(1))
    assert a.kind == "PLAY" and sorted(a.cards) == sorted(faces("33"))


def test_greedy_does_not_beat_its_known_partner():
    s = a_play_state()                           # case A: M 0, H1 2, H2 4 (hidden)
    s = set_hands(s, {0: "3456", 1: "KK", 2: "TJ", 3: "QQ", 4: "A2", 5: "99"})
    s = do(s, play(s, 0, "3"))                    # M leads
    s = do(s, play(s, 1, "K"))                    # a farmer
    s = do(s, ev(s, "PASS", 2))
    s = do(s, ev(s, "PASS", 3))
    a = GreedyPolicy().choose(s, random.Random(1))   # seat 4 (H2) knows M, not seat 1's side
    assert a.kind == "PLAY"
    s2 = set_hands(a_play_state(), {0: "3456", 1: "78", 2: "9T"})
    s2 = do(s2, play(s2, 0, "3"))
    s2 = do(s2, ev(s2, "PASS", 1))
    a = GreedyPolicy().choose(s2, random.Random(1))  # seat 2 knows seat 0 is a landlord
    assert a.kind == "PASS"


def test_greedy_keeps_bombs_unless_an_opponent_is_close_to_out():
    s = set_hands(a_play_state(), {0: "2" + "3" * 10, 1: "5555" + "6789TJQKA" * 2})
    s = do(s, play(s, 0, "2"))
    a = GreedyPolicy().choose(s, random.Random(1))
    assert a.kind == "PASS"                       # seat 0 holds 10 cards: keep the bomb
    t = set_hands(a_play_state(), {0: "2333", 1: "5555" + "6789TJQKA"})
    t = do(t, play(t, 0, "2"))
    a = GreedyPolicy().choose(t, random.Random(1))
    assert a.kind == "PLAY" and sorted(a.cards) == sorted(faces("5555"))


def test_random_bot_plays_only_listed_actions():
    s = a_play_state()
    g = VARIANTS["3v3"]
    rng = random.Random(3)
    for _ in range(20):
        a = RandomPolicy().choose(s, rng)
        assert a in g.legal_actions(s)


GREEDY = GreedyPolicy()
OPTION_SETS = [(v, k, o) for v, d in CONFORMANCE.items() for k, o in enumerate(d["option_sets"])]


@pytest.mark.parametrize("driver", ["greedy", "random"])
@pytest.mark.parametrize(("variant", "k", "options"), OPTION_SETS,
                         ids=[f"{v}-{k}" for v, k, _ in OPTION_SETS])
def test_fast_greedy_choice_is_the_listed_one(variant, k, options, driver):
    """The greedy play found from the hand (``choose``: ``moves.HandPlays``) is the one picked
    from every listed action (``choose_listed``) in every state of greedy self-play (the
    states rollouts meet) and of random self-play (long hands, bombs, airplanes, 七星聚
    locks), under every conformance option set of every variant; the same action and the
    same generator state after it (bids, doubles and sides take the listed path)."""
    states = decision_states(f"ddz6_{variant}", options, driver, games=5, seed=400 + k)
    assert compare(GREEDY.choose, GREEDY.choose_listed, states, seed=k) > 600
