"""小墩's worlds for review (tests/toygame/sample.py): over many samples every unseen card lands
in every place where it could be — each other seat not known void in its suit (TRICK-8), and
the stock — and never anywhere else."""

from __future__ import annotations

import random
from collections import defaultdict

from engine.cards import suit_of
from engine.games import find_game
from engine.review import decision_points
from engine.sim import simulate
from tests.toygame.sample import knowledge

GAME = "toy_tricks"


def _with_a_void(g):
    for sim in simulate(GAME, 40, 5, policy_name="random", options=g.Options(trick_players=3)):
        for _seq, s, e, seen in decision_points(sim.events, range(3)):
            _, voids, _ = knowledge(seen, s.n)
            if any(voids[k] for k in range(s.n) if k != e.seat) and len(s.stock) > 0:
                return s, e.seat, seen, voids
    raise AssertionError("no decision with a known void among 40 games")


def test_every_unseen_card_lands_everywhere_it_could_be_and_nowhere_else():
    g = find_game(GAME)
    s, seat, seen, voids = _with_a_void(g)
    played, _, _ = knowledge(seen, s.n)
    gone = set(s.hands[seat]).union(*map(set, played))
    unseen = [c for c in range(52) if c not in gone]
    allowed = {c: {k for k in range(s.n) if k != seat and suit_of(c) not in voids[k]}
               | {"stock"} for c in unseen}
    where = defaultdict(set)
    rng = random.Random(3)
    for _ in range(600):
        w = g.sample_world(s, seat, rng, seen)
        for k in range(s.n):
            if k != seat:
                for c in w.hands[k]:
                    where[c].add(k)
        for c in w.stock:
            where[c].add("stock")
    assert set(where) == set(unseen)
    assert {c: where[c] for c in unseen} == allowed
    assert any(len(a) < s.n for a in allowed.values())      # a void did restrict some card
