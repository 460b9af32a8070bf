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

from engine.errors import EngineError
from engine.events import Event
from engine.games import find_game
from engine.games.base import Game


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
    """The decision's insight (None: fewer than two options, or no world could be drawn)."""
    from engine.review import (
        Settings,
        _sampler,
        candidates_for,
        in_world,
        rollout,
        seat_options,
        seat_value,
    )
    options = seat_options(game, state, seat)
    if len(options) < 2:
        return None
    policy = game.POLICIES[game.review_policy]()
    sampler = _sampler(game)
    worlds = [sampler(state, seat, random.Random(rng.getrandbits(64)), seen)
              for _ in range(depth.worlds)]
    settings = Settings(seed=rng.getrandbits(32), candidates=depth.candidates)
    cands = candidates_for(game, state, seat, chosen, options, policy, worlds, settings,
                           int(state.seq))
    dice = [rng.getrandbits(64) for _ in range(max(depth.worlds, depth.rollouts))]
    info, true = [], []
    for c in cands:
        info.append(sum(seat_value(game, rollout(game, w, in_world(game, w, c), policy,
                                                 random.Random(dice[i]))[0], seat)
                        for i, w in enumerate(worlds)))
        true.append(sum(seat_value(game, rollout(game, state, c, policy,
                                                 random.Random(dice[i]))[0], seat)
                        for i in range(depth.rollouts)))
    by_true, by_info = _best(true), _best(info)
    return Insight(str(chosen.game_id), int(chosen.seq), seat, not (by_true & by_info),
                   0 in by_true, 0 in by_info)


def game_insights(events: Sequence[Event], depth: Depth) -> Iterator[Insight]:
    """The insights of up to ``depth.per_seat`` decisions of each seat of a game, drawn with
    a generator seeded by the depth's seed and the game id (the same game, the same draw)."""
    from engine.review import decision_points
    game = find_game(_game_type(events))
    gid = events[0].game_id
    points = list(decision_points(events, range(len(_players(events)))))
    rng = random.Random(f"fairplay:{depth.seed}:{gid}")
    by_seat: dict[int, list[int]] = {}
    from engine.review import seat_options
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


def _game_type(events: Sequence[Event]) -> str:
    from engine.replay import game_type
    return game_type(events[0])


def _players(events: Sequence[Event]) -> list[str]:
    import json
    return list(json.loads(events[0].payload or "{}").get("players") or [])


def insights_list(events: Sequence[Event], depth: Depth) -> list[Insight]:
    """``game_insights`` as a list: one task of a worker process or a cluster."""
    return list(game_insights(events, depth))
