"""What seeing hidden cards buys, decision by decision (docs/fair-play.md): the candidates of a
decision valued twice — by rollouts of worlds sampled from the seat's own information (as the
review does, ``engine.review``) and by rollouts of the true state (as an omniscient player
would) — and whether the seat's choice was among the best by either. Where the two
disagree (no candidate best by both: the hidden cards change the best choice), an honest
player chooses the true best only as often as luck and skill allow; a player who sees the
cards chooses it more often. The screen (``warehouse.fairscreen``) counts that per player.

Cheap by design, for screening rather than review: a few worlds, a few rollouts, a few
candidates, and at most ``Depth.per_seat`` decisions of each seat a game drawn at random.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cheats import true_values
from engine.errors import EngineError
from engine.events import Event, payload_json
from engine.games import find_game
from engine.games.base import Game
from engine.replay import game_type
from engine.review import (
    Settings,
    candidates_for,
    decision_points,
    in_world,
    rollout,
    seat_options,
    seat_value,
    world_sampler,
)


@dataclass(frozen=True)
class Depth:
    """How deep the screen looks: worlds and true-state rollouts per candidate, candidates
    per decision, decisions per seat and game (drawn at random among the seat's decisions,
    so that every player is looked at as often)."""

    worlds: int = 4
    rollouts: int = 4
    candidates: int = 4
    per_seat: int = 2
    seed: int = 0


@dataclass(frozen=True)
class Insight:
    """One decision: whether the hidden cards change its best choice (``sensitive``), and
    whether the seat chose a best one by the true state and by its own information."""

    game_id: str
    seq: int
    seat: int
    sensitive: bool
    chose_true: bool
    chose_info: bool


def _best(values: list[float]) -> set[int]:
    top = max(values)
    return {j for j, v in enumerate(values) if v >= top - 1e-9}


def insight(game: Game, state: Any, seat: int, chosen: Event, seen: Sequence[Event],
            depth: Depth, rng: random.Random) -> Insight | None:
    """The decision's insight (None: fewer than two options)."""
    options = seat_options(game, state, seat)
    if len(options) < 2:
        return None
    policy = game.POLICIES[game.review_policy]()
    sampler = world_sampler(game)
    worlds = [sampler(state, seat, random.Random(rng.getrandbits(64)), seen)
              for _ in range(depth.worlds)]
    settings = Settings(seed=rng.getrandbits(32), candidates=depth.candidates)
    cands = candidates_for(game, state, seat, chosen, options, policy, worlds, settings,
                           int(state.seq))
    dice = [rng.getrandbits(64) for _ in range(max(depth.worlds, depth.rollouts))]
    info = [sum(seat_value(game, rollout(game, w, in_world(game, w, c), policy,
                                         random.Random(dice[i]))[0], seat)
                for i, w in enumerate(worlds)) for c in cands]
    true = true_values(game, state, seat, cands, policy, dice[:depth.rollouts])
    by_true, by_info = _best(true), _best(info)
    return Insight(str(chosen.game_id), int(chosen.seq), seat, not (by_true & by_info),
                   0 in by_true, 0 in by_info)


def game_insights(events: Sequence[Event], depth: Depth) -> Iterator[Insight]:
    """The insights of up to ``depth.per_seat`` decisions of each seat of a game, drawn with
    a generator seeded by the depth's seed and the game id (the same game, the same draw)."""
    game = find_game(game_type(events[0]))
    gid = events[0].game_id
    seats = range(len(payload_json(events[0]).get("players") or ()))
    points = list(decision_points(events, seats))
    rng = random.Random(f"fairplay:{depth.seed}:{gid}")
    by_seat: dict[int, list[int]] = {}
    for i, (_seq, s, e, _seen) in enumerate(points):
        if len(seat_options(game, s, e.seat)) >= 2:
            by_seat.setdefault(e.seat, []).append(i)
    picked = sorted(i for seat in sorted(by_seat)
                    for i in rng.sample(by_seat[seat], min(depth.per_seat, len(by_seat[seat]))))
    for i in picked:
        seq, s, e, seen = points[i]
        try:
            got = insight(game, s, e.seat, e, seen, depth,
                          random.Random(f"fairplay:{depth.seed}:{gid}:{seq}"))
        except EngineError:              # a world or rollout the engine refused: skip it
            continue
        if got is not None:
            yield got


def insights_list(events: Sequence[Event], depth: Depth) -> list[Insight]:
    """``game_insights`` as a list: one task of a worker process or a cluster."""
    return list(game_insights(events, depth))
