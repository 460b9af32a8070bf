"""Every registered game that declares ``sample_world`` (engine.review) is held to the same
checks at the decision points of its conformance games: a sampled world shows the seat
exactly the view it had with every card still there, the hidden part is drawn again (not
copied), a world sampled from a world the seat cannot tell apart is the same world for the
same seed (the sampler draws nothing from the hidden part it was given), the same seed gives
the same world, the world is a position the game accepts and it can be played
to its end. Where each unseen card may land is the game's own knowledge: each game's tests
check that every unseen card lands everywhere it could be (tests/games/toygame/test_sample.py).
Games that declare none cannot be reviewed yet (listed by the skip)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.games import GAMES, find_game
from engine.review import decision_points, in_world, rollout
from engine.sim import simulate
from tests.options import options_for


def _points(gid: str, games: int = 2, per_game: int = 6):
    g = find_game(gid)
    opts = options_for(gid)
    out = []
    for sim in itertools.islice(simulate(gid, games, 11, policy_name="random", options=opts),
                                games):
        seats = range(g.seat_count(opts))
        pts = [p for p in decision_points(sim.events, seats)
               if len([a for a in g.legal_actions(p[1]) if a.seat == p[2].seat]) > 1]
        step = max(1, len(pts) // per_game)
        out.extend(pts[::step][:per_game])
    return g, out


@pytest.fixture(params=sorted(set(GAMES) | {"toy_tricks"}))
def sampling_game(request, toy_game):
    g = find_game(request.param)
    if g.sample_world is None:
        pytest.skip(f"{request.param} declares no sample_world (review not available yet)")
    return request.param


def test_a_world_shows_the_seat_its_own_view(sampling_game):
    g, points = _points(sampling_game)
    assert points
    redrawn = 0
    for seq, s, e, seen in points:
        w = g.sample_world(s, e.seat, random.Random(seq), seen)
        assert g.view(w, e.seat) == g.view(s, e.seat), f"seq {seq} seat {e.seat}"
        assert g.face_counts(w) == g.face_counts(s)
        redrawn += w != s
    assert redrawn >= len(points) // 2          # the hidden part is drawn again, not copied


def test_no_hidden_card_leaks_into_the_world(sampling_game):
    g, points = _points(sampling_game)
    for seq, s, e, seen in points:
        other = g.sample_world(s, e.seat, random.Random(1), seen)
        if other == s:
            continue
        for seed in (2, 3):
            assert g.sample_world(other, e.seat, random.Random(seed), seen) == \
                g.sample_world(s, e.seat, random.Random(seed), seen), f"seq {seq}"


def test_the_same_seed_gives_the_same_world_and_it_plays_on(sampling_game):
    g, points = _points(sampling_game)
    policy = g.POLICIES[g.review_policy]()
    for seq, s, e, seen in points:
        a = g.sample_world(s, e.seat, random.Random(5), seen)
        assert a == g.sample_world(s, e.seat, random.Random(5), seen)
        back = g.from_position(g.to_position(a))          # a position the game accepts
        assert back == a
        out, _ = rollout(g, a, in_world(g, a, e), policy, random.Random(seq))
        assert len(out) == len(s.players)
