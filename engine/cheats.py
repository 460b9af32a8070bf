"""Planted cheaters for self-play: seats that play with knowledge or intent an honest player
lacks, to prove fair-play screening on (docs/fair-play.md). Nothing of it is recorded in the
logs: the events of a planted game are ordinary events; what was planted, and at which
decisions the cheat changed or could change the play, goes to a separate answer key
(``AnswerKey``), written apart by ``liujia simulate --plant … --answer-key FILE``.

Kinds (``KINDS``), each applied at a share ``rate`` of the cheater's decisions, drawn from the
game's one seeded generator (the same seed gives the same games and the same key):

- ``omniscient`` (one player): plays as if every hand and the stock were face up — the
  review's evaluation (``engine.review``: candidates, rollouts by the game's review policy)
  on the *true* state instead of sampled worlds; its honest play is its table's policy.
- ``soft`` (two players): never answers or attacks its accomplice when it could — at a
  decision where the accomplice made the top play and the seat can answer it (the game's
  ``Decision.top_seat`` and ``can_answer``) and the honest play answers, the seat takes a
  cautious option instead (a pass; the game's ``style_categories['cautious']``). Games whose
  decisions name no top play give it no opportunity (the key counts opportunities).

Planted players sit at every table of the run (the others drawn from the pool as usual).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from engine.errors import EngineError
from engine.events import Event
from engine.games.base import Game
from engine.review import (
    Settings,
    action_key,
    candidates_for,
    rollout,
    seat_options,
    seat_value,
)

KINDS = {"omniscient": 1, "soft": 2}        # kind -> players it takes
KEY_FORMAT = "liujia.answer_key/1"
ROLLOUTS = 8                                # true-state rollouts per candidate (omniscient)
CANDIDATES = 6                              # candidates per decision (omniscient)


@dataclass(frozen=True)
class Plant:
    """One planted cheat: its kind, its players (ids of the simulator's pool) and the share of
    the cheater's decisions it applies to."""

    kind: str
    players: tuple[str, ...]
    rate: float

    def describe(self) -> dict[str, Any]:
        """The plant as the answer key states it."""
        return {"kind": self.kind, "players": list(self.players), "rate": self.rate}


def parse_plant(spec: str, pool: Sequence[str]) -> Plant:
    """A plant from ``KIND:PLAYER[,PLAYER]:RATE`` (e.g. ``soft:player-03,player-07:0.3``);
    EngineError naming the part that is wrong."""
    parts = spec.split(":")
    if len(parts) != 3:
        raise EngineError(f"--plant {spec!r}: expected KIND:PLAYER[,PLAYER]:RATE")
    kind, who, rate_text = parts
    if kind not in KINDS:
        raise EngineError(f"--plant {spec!r}: unknown kind {kind!r}; kinds are "
                          f"{', '.join(KINDS)}")
    players = tuple(p for p in who.split(",") if p)
    if len(players) != KINDS[kind] or len(set(players)) != len(players):
        raise EngineError(f"--plant {spec!r}: {kind} takes {KINDS[kind]} distinct player(s)")
    unknown = [p for p in players if p not in pool]
    if unknown:
        raise EngineError(f"--plant {spec!r}: {unknown[0]!r} is not a player of the pool "
                          f"({pool[0]} … {pool[-1]})")
    try:
        rate = float(rate_text)
    except ValueError:
        rate = -1.0
    if not 0.0 < rate <= 1.0:
        raise EngineError(f"--plant {spec!r}: RATE must be a number in (0, 1]")
    return Plant(kind, players, rate)


@dataclass
class AnswerKey:
    """What was planted and where it acted: per cheater decision the cheat applied to, the
    game, seq, player, seat, kind, and whether the play differs from the honest one."""

    game: str
    seed: int
    plants: tuple[Plant, ...]
    records: list[dict[str, Any]] = field(default_factory=list)
    opportunities: dict[str, int] = field(default_factory=dict)   # player -> decisions open

    def opportunity(self, player: str) -> None:
        """Count a decision where the player's cheat could apply."""
        self.opportunities[player] = self.opportunities.get(player, 0) + 1

    def note(self, s: Any, seat: int, player: str, kind: str, honest: Event,
             played: Event) -> None:
        """Record a decision the cheat applied to."""
        self.records.append({"game_id": str(getattr(s, "game_id", "")), "seq": int(s.seq),
                             "player": player, "seat": seat, "kind": kind,
                             "changed": action_key(honest) != action_key(played)})

    def write(self, out: TextIO) -> None:
        """The key as JSON lines: a header, then one line per record."""
        head = {"format": KEY_FORMAT, "game": self.game, "seed": self.seed,
                "plants": [p.describe() for p in self.plants],
                "opportunities": dict(sorted(self.opportunities.items())),
                "records": len(self.records)}
        out.write(json.dumps(head, sort_keys=True, ensure_ascii=False) + "\n")
        for r in self.records:
            out.write(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n")


def seat_planted(plants: Sequence[Plant], pool: Sequence[str], n_seats: int,
                 rng: random.Random) -> list[str]:
    """A table's players: every planted player, the other seats drawn from the rest of the
    pool, in an order drawn at random."""
    planted = list(dict.fromkeys(p for plant in plants for p in plant.players))
    if len(planted) > n_seats:
        raise EngineError(f"{len(planted)} planted players do not fit {n_seats} seats")
    rest = [p for p in pool if p not in planted]
    players = planted + rng.sample(rest, n_seats - len(planted))
    rng.shuffle(players)
    return players


def wrap_table(game: Game, policies: Sequence[Any], players: Sequence[str],
               plants: Sequence[Plant], key: AnswerKey) -> list[Any]:
    """The seats' policies with each planted player's wrapped in its cheat."""
    out = list(policies)
    seat_of = {p: i for i, p in enumerate(players)}
    for plant in plants:
        seats = [seat_of[p] for p in plant.players]
        for i, player in enumerate(plant.players):
            seat = seats[i]
            if plant.kind == "omniscient":
                out[seat] = Omniscient(game, out[seat], plant.rate, key, player)
            else:
                out[seat] = SoftPlay(game, out[seat], plant.rate, key, player,
                                     accomplice=seats[1 - i])
    return out


class _Cheat:
    """A cheat around a seat's honest policy: the owed automatic event first, else the honest
    choice, which ``_cheat`` may replace."""

    kind = ""

    def __init__(self, game: Game, honest: Any, rate: float, key: AnswerKey,
                 player: str) -> None:
        self.game, self.honest, self.rate, self.key, self.player = game, honest, rate, key, player

    def choose(self, s: Any, rng: random.Random) -> Event:
        """The next action of whoever acts (a shared table policy may act for another seat)."""
        g = self.game
        a = g.auto_event(s, rng)
        if a is not None:
            return a
        a = self.honest.choose(s, rng)
        seat = g.to_move(s)
        if a.seat != seat:                  # a standing option of another seat, taken now
            return a
        played = self._cheat(s, seat, a, rng)
        return a if played is None else played

    def _cheat(self, s: Any, seat: int, honest: Event, rng: random.Random) -> Event | None:
        raise NotImplementedError


class Omniscient(_Cheat):
    """Plays with every card face up at ``rate`` of its decisions (module docstring)."""

    kind = "omniscient"

    def _cheat(self, s: Any, seat: int, honest: Event, rng: random.Random) -> Event | None:
        options = seat_options(self.game, s, seat)
        if len(options) < 2:
            return None
        self.key.opportunity(self.player)
        if rng.random() >= self.rate:
            return None
        played = true_best(self.game, s, seat, honest, options,
                           random.Random(rng.getrandbits(64)))
        self.key.note(s, seat, self.player, self.kind, honest, played)
        return played


def true_best(game: Game, s: Any, seat: int, honest: Event, options: list[Event],
              rng: random.Random, rollouts: int = ROLLOUTS) -> Event:
    """The candidate with the highest mean value for the seat over ``rollouts`` rollouts of
    the true state (the honest choice among the candidates, kept on a tie), each candidate
    on the same dice."""
    policy = game.POLICIES[game.review_policy]()
    settings = Settings(seed=rng.getrandbits(32), candidates=CANDIDATES)
    cands = candidates_for(game, s, seat, honest, options, policy, [s], settings, int(s.seq))
    values = true_values(game, s, seat, cands, policy,
                         [rng.getrandbits(64) for _ in range(rollouts)])
    best, top = honest, -float("inf")
    for c, total in zip(cands, values, strict=True):
        if total > top + 1e-9:
            best, top = c, total
    return best


def true_values(game: Game, s: Any, seat: int, cands: Sequence[Event], policy: Any,
                dice: Sequence[int]) -> list[float]:
    """Per candidate, the seat's summed value over one rollout of the true state per seed of
    ``dice`` (every candidate on the same dice)."""
    return [sum(seat_value(game, rollout(game, s, c, policy, random.Random(d))[0], seat)
                for d in dice) for c in cands]


class SoftPlay(_Cheat):
    """Never answers its accomplice's top play when it could, at ``rate`` (module
    docstring)."""

    kind = "soft"

    def __init__(self, game: Game, honest: Any, rate: float, key: AnswerKey, player: str,
                 accomplice: int) -> None:
        super().__init__(game, honest, rate, key, player)
        self.accomplice = accomplice
        self.aggressive = frozenset(game.style_categories.get("aggressive", ()))
        self.cautious = frozenset(game.style_categories.get("cautious", ()))

    def _cheat(self, s: Any, seat: int, honest: Event, rng: random.Random) -> Event | None:
        g = self.game
        d = g.decisions.decision(s, honest)
        if d is None or d.top_seat != self.accomplice or not d.can_answer \
                or d.chosen not in self.aggressive or not d.options & self.cautious:
            return None
        self.key.opportunity(self.player)
        if rng.random() >= self.rate:
            return None
        category = g.decisions.action_category
        soft = [a for a in g.legal_actions(s)
                if a.seat == seat and category(s, a) in self.cautious]
        if not soft:
            return None
        played = soft[0]
        self.key.note(s, seat, self.player, self.kind, honest, played)
        return played
