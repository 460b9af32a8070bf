"""摸到爽's worlds for review (engine/games/modaoshuang/sample.py): before any draw every unseen
card lands in every other hand and in the stock; a seat that did not play in the 收到爽 phase
holds no card of the round suit in any world (MDS-29); worlds are found at every decision of
self-played games."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from engine.errors import EngineError
from engine.games import find_game
from engine.review import decision_points
from engine.sim import simulate

GAME = "modaoshuang"


def _points(players: int, games: int, seed: int):
    g = find_game(GAME)
    for sim in simulate(GAME, games, seed, policy_name="greedy",
                        options=g.Options(mds_players=players)):
        yield from decision_points(sim.events, range(players))


def test_before_any_draw_every_unseen_card_can_be_anywhere_hidden():
    g = find_game(GAME)
    seq, s, e, seen = next(p for p in _points(4, 1, 3) if p[1].round_no == 1)
    me = e.seat
    mine = set(s.hands[me])
    unseen = [c for c in range(54) if c not in mine and c not in s.table]
    where = defaultdict(set)
    rng = random.Random(1)
    for _ in range(300):
        w = g.sample_world(s, me, rng, seen)
        for k in range(4):
            for c in w.hands[k]:
                where[c].add(k)
        for c in w.stock:
            where[c].add("stock")
    others = {k for k in range(4) if k != me} | {"stock"}
    assert {c: where[c] for c in unseen} == {c: others for c in unseen}
    assert all(where[c] == {me} for c in mine)


def test_a_seat_that_did_not_play_holds_none_of_the_round_suit():
    g = find_game(GAME)
    found = 0
    for seq, s, e, seen in _points(5, 30, 8):
        passed = [x.seat for x in seen if x.kind == "NO_PLAY" and x.tag == "no_suit"
                  and x.seq > max(y.seq for y in seen if y.kind in ("ROUND_END", "SUIT_DRAW"))]
        passed = [j for j in passed if j != e.seat]
        if not passed or s.suit < 0 or s.stock:
            continue
        found += 1
        rng = random.Random(seq)
        for _ in range(20):
            w = g.sample_world(s, e.seat, rng, seen)
            for j in passed:
                assert all(c >= 52 or c // 13 != s.suit for c in w.hands[j]), (seq, j)
        if found == 5:
            break
    assert found >= 3


def _cycling_decision():
    """A decision of a greedy 4-seat game whose rollouts cycle in the 收到爽 phase: collectors
    take the cards back and nobody goes out (the rules have no end for it)."""
    g = find_game(GAME)
    sim = next(iter(simulate(GAME, 1, 9, policy_name="greedy",
                             options=g.Options(mds_players=4))))
    return g, next(p for p in decision_points(sim.events, range(4)) if p[0] == 26)


def test_a_rollout_that_cycles_plays_on_at_random(monkeypatch):
    import engine.review as review
    g, (seq, s, e, seen) = _cycling_decision()
    r = review.review_decision(g, s, e.seat, e, seen, review.Settings(max_worlds=16), seq)
    assert r is not None and r.worlds == 16
    monkeypatch.setattr(review, "CYCLE_BREAK", 10**9)        # without the break: no end
    monkeypatch.setattr(review, "MAX_ROLLOUT", 20_000)
    with pytest.raises(EngineError, match="did not end"):
        review.review_decision(g, s, e.seat, e, seen, review.Settings(max_worlds=16), seq)
