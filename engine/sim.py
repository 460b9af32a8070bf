"""Self-play: seeded games and sessions. Every random choice comes from one seeded generator, so
the same seed gives the same events, byte for byte."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

from engine.cheats import AnswerKey, Plant, seat_planted, wrap_table
from engine.commit import commit_game, new_salt
from engine.errors import EngineError
from engine.events import Event, seal_events
from engine.games import find_game
from engine.games.base import Game
from engine.replay import Fold
from engine.styles import STYLES, policy_of, seat_policies

BASE_TS = 1_767_225_600_000_000   # 2026-01-01T00:00:00Z in µs: simulated clocks start here
EVENT_US = 1_500_000             # simulated time between events
GAME_US = 3_600_000_000          # simulated time between games
MAX_EVENTS = 100_000
PLAYER_POOL = 24


def player_pool() -> list[str]:
    """The simulator's players, by id."""
    return [f"player-{i:02d}" for i in range(PLAYER_POOL)]


@dataclass
class SimGame:
    """One simulated game: its sealed events and its final state."""

    events: list[Event]
    final: Any


def policy(game: str, name: str) -> Any:
    """A self-play policy of a game by name: one of its ``POLICIES`` ('random', 'greedy', …)
    or a style of ``engine.styles.STYLES`` ('aggressive', …)."""
    g = find_game(game)
    if name not in g.POLICIES and name not in STYLES:
        raise EngineError(f"unknown policy {name!r}; known: {', '.join(g.POLICIES)}")
    return policy_of(g, name)


def options_tag(game: str, options: Any) -> str:
    """'' for a game's default options, else '-o' + 6 hex digits of the options recorded, so
    that games simulated with other options (a game played by 3 and by 5 seats) never share an
    id or a file name."""
    g = find_game(game)
    opts = options.to_dict() if options is not None else None
    try:
        default = g.Options().to_dict()
    except EngineError:          # a game parameter without default (a seat count)
        default = None
    if opts is None or opts == default:
        return ""
    text = json.dumps(opts, sort_keys=True, separators=(",", ":"))
    return "-o" + blake2b(text.encode(), digest_size=3).hexdigest()


def play_game(
    game: str, game_id: str, players: list[str], rng: random.Random, policies: list[Any],
    *, options: Any = None, previous_game: str | None = None, session: str | None = None,
    ts0: int = BASE_TS, salt: bytes | None = None, **session_kwargs: Any,
) -> SimGame:
    """Play one game to its end: seat i acts by policies[i]; returns the sealed events, the
    chance outcomes committed to in GAME_START under ``salt`` and the salt revealed in GAME_END
    when a salt is given (``engine.commit``). session_kwargs go to the game's ``start_event`` (from its
    ``session_start``)."""
    g = find_game(game)
    e0 = g.start_event(game_id, players, rng, options, previous_game=previous_game,
                       session=session, ts=ts0, **session_kwargs)
    fold = Fold(g, g.initial_state(e0), ts=ts0, clock=False, game_id=game_id)
    events = [e0]
    fold.feed(_moves(g, fold.state, events, rng, policies, ts0))
    s = fold.state
    if salt is not None:         # the dealer's commitment to the chance outcomes (engine.commit)
        events = commit_game(events, salt, g.CHANCE_KINDS)
    return SimGame(seal_events(events), s)


def _moves(g: Game, s: Any, events: list[Event], rng: random.Random, policies: list[Any],
           ts0: int) -> Iterator[Event]:
    """The events of self-play as the fold steps them: each chosen in the state the fold has
    reached (``s``, stepped in place), the automatic event owed else the seat's policy's move,
    kept in ``events``."""
    auto, to_move, is_over = g.auto_event, g.to_move, g.is_over
    seq = 1
    while not is_over(s):
        a = auto(s, rng)
        if a is None:
            a = policies[to_move(s)].choose(s, rng)
        a = a._replace(ts=ts0 + seq * EVENT_US)
        yield a
        events.append(a)
        seq += 1
        if seq > MAX_EVENTS:
            raise EngineError(f"game {events[0].game_id} did not end within {MAX_EVENTS} "
                              "events")


def simulate(
    game: str, n_games: int, seed: int, *, policy_name: str = "random", options: Any = None,
    session_games: int = 8, commit: bool = False, player_policies: Mapping[str, str] | None = None,
    plants: Sequence[Plant] = (), key: AnswerKey | None = None,
) -> Iterator[SimGame]:
    """n_games seeded games, in sessions of session_games with the same players (as many as the
    game's ``seat_count`` for these options); each later game of a session starts as the game's
    ``session_start`` says (e.g. KENG-7: opened by the seat that decided the previous one).
    ``commit``: each game's chance outcomes committed to (``engine.commit``), the salts from a
    generator of their own, so that play is the same with or without.
    ``player_policies``: {player id: policy or style name} (``policy``; styles in
    ``engine.styles``) for the players of the pool who do not play by ``policy_name``; each
    seat then plays by its player's (``engine.styles.seat_policies``). Nothing of it is
    recorded: the events are those of any game. ``plants``: planted cheaters
    (``engine.cheats``), seated at every table, their cheats noted in ``key`` only."""
    g = find_game(game)
    opts = options if options is not None else g.Options()
    n_seats = g.seat_count(opts)
    tag = options_tag(game, options)
    rng = random.Random(seed)
    salts = random.Random(f"liujia-salts/{seed}") if commit else None
    pool = player_pool()
    pols = [policy(game, policy_name) for _ in range(n_seats)]
    tables: dict[tuple[str, ...], list[Any]] = {}
    prev: SimGame | None = None
    players: list[str] = []
    seated: list[Any] = pols
    session = ""
    for i in range(n_games):
        if i % session_games == 0:
            players = seat_planted(plants, pool, n_seats, rng) if plants \
                else rng.sample(pool, n_seats)
            session = f"{game}{tag}-s{seed}-{i // session_games:05d}"
            prev = None
            if player_policies:
                names = tuple(player_policies.get(p, policy_name) for p in players)
                if names not in tables:
                    tables[names] = seat_policies(g, names)
                pols = tables[names]
            seated = pols
            if plants:
                if key is None:
                    raise EngineError("planted cheaters need an answer key")
                seated = wrap_table(g, pols, players, plants, key)
        kwargs = g.session_start(prev.final) if prev is not None else {}
        prev_id = prev.events[0].game_id if prev is not None else None
        gid = f"{game}{tag}-{seed}-{i:06d}"
        sim = play_game(game, gid, players, rng, seated, options=options,
                        previous_game=prev_id, session=session, ts0=BASE_TS + i * GAME_US,
                        salt=new_salt(salts) if salts is not None else None, **kwargs)
        prev = sim
        yield sim
