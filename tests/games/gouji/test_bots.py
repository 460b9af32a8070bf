"""The self-play policies: random is legal and varied; greedy plays like a sensible beginner
(small plays first, keeps jokers, answers its opposite's 够级 plays when it can, lets its
teammates' plays stand, never burns or commits 诈烧)."""

from __future__ import annotations

import collections
import itertools
import random

import pytest

from engine.games import gouji
from engine.games.gouji.bots import GreedyPolicy, RandomPolicy, _shape_cost, cheapest_answer
from engine.games.gouji.cards import BJ_S, RJ_S, TWO_S
from engine.games.gouji.plays import analyse, answer_shapes, make_info

from ...policy_pairs import compare, decision_states
from .conftest import pos

GREEDY = GreedyPolicy()


def _choose(s, seed=0):
    a = GREEDY.choose(s, random.Random(seed))
    gouji.check(s, a)
    return a


def test_greedy_leads_its_smallest_rank_whole_without_wilds():
    """GJ-12/GJ-21: the beginner leads all its lowest natural cards, no 2 or joker attached."""
    s = pos(hands=["5s 5h 9c 9d 2d BJ RJ", "6s", "7s", "8s", "9s", "Ts"], to_act=0, last=0)
    a = _choose(s)
    info = analyse(a.cards)
    assert (info.base, info.n, info.n2, info.nbj, info.nrj) == (5, 2, 0, 0, 0)


def test_greedy_keeps_3s_for_last_and_jokers_for_the_end():
    """GJ-28: with 3s in hand the beginner leads something else; jokers are not led early."""
    s = pos(hands=["3s 3c 8h BJ RJ", "6s", "7s", "8s", "9s", "Ts"], to_act=0, last=0)
    a = _choose(s)
    assert analyse(a.cards).base == 8 and len(a.cards) == 1


def test_greedy_answers_its_opposites_gouji_play_when_it_can():
    """GJ-20: a 够级 play may be answered by the opposite; the beginner does, cheaply."""
    s = pos(hands=["5s", "6s", "7s", "Ks Kh Ad Ac Ah", "9s", "Ts"], to_act=3, last=2,
            top=("Qs Qh Qd", 0))
    a = _choose(s)
    assert a.kind == "PLAY"
    info = analyse(a.cards)
    assert info.base == 14 and info.nbj + info.nrj == 0      # three aces, not kings + a wild


def test_greedy_never_burns_and_passes_on_others_gouji_plays():
    """GJ-39: burning is for experts; an opened non-opposite beginner passes."""
    s = pos(hands=["5s", "Ks Kh Kd Ac", "7s", "8s", "9s", "Ts"], to_act=1, last=0,
            top=("Qs Qh Qd", 0), opened=[1])
    assert any(a.kind == "PLAY" for a in gouji.legal_actions(s))     # it could burn
    assert _choose(s).kind == "PASS"


def test_greedy_lets_its_teammates_play_stand():
    """GJ-4: the beginner does not beat its teammate's play."""
    s = pos(hands=["5s", "6s", "9s 9h Kd", "8s", "7s 7h", "Ts"], to_act=2, last=1,
            top=("8h 8d", 0))
    assert _choose(s).kind == "PASS"


def test_greedy_keeps_2s_and_jokers_when_answering_an_ordinary_play():
    """A single 2 or joker spent on an ordinary single is a beginner's mistake it avoids."""
    s = pos(hands=["5s", "2s BJ 6s 6h 6c 6d 7s 7h 8s", "7c", "8c", "9c", "Tc"], to_act=1,
            last=0, top=("Ks", 0))
    assert _choose(s).kind == "PASS"


def test_greedy_never_commits_zhashao():
    """GJ-43: a burner's lead without a joker is 诈烧; the beginner, if burning, attaches one."""
    s = pos(hands=["5s 5h 7c BJ", "6s", "7s", "8s", "9s", "Ts"], to_act=0, last=0,
            burner=0)
    a = _choose(s)
    assert "void" not in a.tag and analyse(a.cards).nbj == 1


def test_random_policy_is_legal_and_varied():
    """Random self-play reaches plays, passes and 让牌 and only ever picks listed actions."""
    pol = RandomPolicy()
    rng = random.Random(5)
    e0 = gouji.start_event("g", [f"p{i}" for i in range(6)], rng)
    s = gouji.initial_state(e0)
    kinds = collections.Counter()
    while not gouji.is_over(s):
        a = gouji.auto_event(s, rng) or pol.choose(s, rng)
        s = gouji.apply(s, a)
        kinds[a.kind] += 1
    assert kinds["PLAY"] and kinds["PASS"] and kinds["RANG"]


OPTION_SETS = gouji.CONFORMANCE["option_sets"]


@pytest.mark.parametrize("driver", ["greedy", "random"])
@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_fast_greedy_choice_is_the_listed_one(k, driver):
    """The greedy play worked out from the hand (``choose``) is the one picked from every
    listed action (``choose_listed``) in every state of greedy self-play (the states rollouts
    meet) and of random self-play (burners, 诈烧, 闷, 会五, 宣点 and 和点), under every
    conformance option set; the generator is left alone by both."""
    states = decision_states("gouji", OPTION_SETS[k], driver, games=4, seed=200 + k)
    assert compare(GREEDY.choose, GREEDY.choose_listed, states, seed=k) > 500


def test_fast_greedy_choice_of_the_burner_and_a_hand_of_3s():
    """The leads a burner (GJ-39: without a joker its leads are void) and a hand of only 3s and
    wilds (GJ-28) may make: the same as the listed choice."""
    hands = ["3s 3c 3d", "3s 2d", "3s BJ", "2s 2d BJ RJ", "BJ BJ RJ", "RJ", "2s", "5s 5h 2d BJ",
             "3h 3d 2s RJ", "3h", "9c 2s", "Ks RJ RJ"]
    for hand in hands:
        for burner in (False, True):
            s = pos(hands=[hand, "6s", "7s", "8s", "9s", "Ts"], to_act=0, last=0)
            s.burner = 0 if burner else -1
            want = GREEDY.choose_listed(s, random.Random(0))
            assert GREEDY.choose(s, random.Random(0)) == want, (hand, burner)


def test_cheapest_answer_is_the_cheapest_listed_shape():
    """``cheapest_answer`` (worked out per family) is the shape of ``answer_shapes`` with the
    lowest cost, for every top up to six cards and hands of up to four 2s, two BJs, two RJs
    and natural groups of several sizes (only the counts matter)."""
    rng = random.Random(5)
    tops = [make_info(base, n, 0, nbj, nrj) for base in range(3, 18) for n in range(1, 7)
            for nbj in range(0, 3) for nrj in range(0, 2) if nbj + nrj <= n]
    checked = 0
    for n2, nbj, nrj in itertools.product(range(5), range(3), range(3)):
        for _ in range(6):
            g = [[0] * (rng.randrange(5) if 4 <= v < TWO_S else 0) for v in range(18)]
            g[TWO_S], g[BJ_S], g[RJ_S] = [0] * n2, [0] * nbj, [0] * nrj
            for t in tops:
                shapes = answer_shapes(g, t)
                want = min(shapes, key=_shape_cost) if shapes else None
                assert cheapest_answer(g, t) == want, (n2, nbj, nrj, [len(x) for x in g], t)
                checked += want is not None
    assert checked > 10_000
