"""Replay: a game's state as a fold over its events, validated, with checkpoints for random access."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.commit import engine_events
from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import Event, payload_json
from engine.games import find_game
from engine.games.base import Game
from engine.games.frame import winning_side

CHECKPOINT_EVERY = 16


def game_type(start: Event) -> str:
    """The registry id (a ``GAMES`` key) of the game a GAME_START belongs to."""
    if start.kind != "GAME_START":
        raise InvalidEvent("the first event of a game must be GAME_START", game_id=start.game_id,
                           seq=start.seq, field="kind")
    payload = payload_json(start)
    return str(payload.get("game", ""))


def game_module(start: Event) -> Game:
    """The engine game a GAME_START belongs to."""
    try:
        return find_game(game_type(start))
    except InvalidEvent:
        raise
    except EngineError as exc:
        raise InvalidEvent(str(exc), game_id=start.game_id, seq=0, field="payload") from None


@dataclass
class Verdict:
    """The outcome of replaying one game: ok, illegal or incomplete, and where it stopped."""

    game_id: str
    status: str                      # "ok" | "illegal" | "incomplete"
    events: int                      # events applied
    error: EngineError | None = None
    state: Any = None                # the last state reached
    game: Game | None = field(default=None, repr=False, compare=False)  # its engine game

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the verdict."""
        out: dict[str, Any] = {"game_id": self.game_id, "status": self.status,
                               "events": self.events}
        err = self.error
        if isinstance(err, IllegalMove):
            out.update(seq=err.seq, seat=err.seat, rule_id=err.rule_id, reason=err.reason)
        elif isinstance(err, InvalidEvent):
            out.update(seq=err.seq, field=err.field, reason=str(err))
        elif err is not None:
            out.update(reason=str(err))
        if self.state is not None and self.status == "ok" and self.game is not None:
            g, st = self.game, self.state
            outcomes = g.outcomes(st)
            out["result"] = g.result(st)
            out["outcomes"] = [o._asdict() for o in outcomes or ()]
            out["winning_side"] = winning_side(outcomes, g.sides(st))
        return out


def backwards(e: Event, before: int) -> InvalidEvent:
    """The error of an event stamped before the event it follows: time never goes back
    within a game (a log whose clock runs backwards cannot have been recorded as it
    happened)."""
    return InvalidEvent(f"its timestamp {_when(e.ts)} is {_span(before - e.ts)} before the "
                        f"previous event's ({_when(before)}): time never goes back within a game",
                        game_id=e.game_id, seq=e.seq, field="ts")


def _when(us: int) -> str:
    from datetime import UTC, datetime, timedelta
    try:
        return (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=us)).isoformat(
            timespec="milliseconds").replace("+00:00", "Z")
    except OverflowError:
        return f"{us} µs"


def _span(us: int) -> str:
    s = us / 1e6
    return f"{s:.3f} s" if s < 120 else f"{s / 60:.1f} min" if s < 7200 else f"{s / 3600:.1f} h"


def validate_events(events: Sequence[Event]) -> Verdict:
    """Replay a game's events through its engine; never raises for bad events."""
    gid = events[0].game_id if events else ""
    if not events:
        return Verdict(gid, "incomplete", 0, InvalidEvent("no events", game_id=gid))
    events = engine_events(events)          # without the log's commitment keys
    try:
        game = game_module(events[0])
        s = game.initial_state(events[0])
    except EngineError as exc:
        return Verdict(gid, "illegal", 0, exc)
    step = game.step
    n = 1
    ts = events[0].ts
    try:
        for e in events[1:]:
            if e.ts < ts:
                raise backwards(e, ts)
            ts = e.ts
            step(s, e)
            n += 1
    except EngineError as exc:
        return Verdict(gid, "illegal", n, exc, s, game)
    if not game.is_over(s):
        return Verdict(gid, "incomplete", n, EngineError(
            f"game {gid} has no GAME_END: {n} events, next owed "
            f"{game.next_auto(s) or 'a player action'}"), s, game)
    return Verdict(gid, "ok", n, None, s, game)


class Replay:
    """A validated game with checkpoints: the state after any seq in O(CHECKPOINT_EVERY) steps."""

    def __init__(self, events: Sequence[Event]) -> None:
        if not events:
            raise InvalidEvent("a replay needs at least the GAME_START event")
        self.events = list(events)
        self._engine = engine_events(self.events)      # without the log's commitment keys
        self.game = game_module(self.events[0])
        self.game_type = self.game.GAME_ID
        s = self.game.initial_state(self._engine[0])
        self._checkpoints = [s.copy()]
        step = self.game.step
        for i, e in enumerate(self._engine[1:], start=1):
            step(s, e)
            if i % CHECKPOINT_EVERY == 0:
                self._checkpoints.append(s.copy())
        self.final = s

    def __len__(self) -> int:
        return len(self.events)

    def state_at(self, seq: int) -> Any:
        """The state right after the event with this seq (0 = after GAME_START)."""
        if not 0 <= seq < len(self.events):
            raise IndexError(f"seq {seq} is outside 0-{len(self.events) - 1}")
        if seq == len(self.events) - 1:
            return self.final.copy()
        s = self._checkpoints[seq // CHECKPOINT_EVERY].copy()
        step = self.game.step
        for e in self._engine[seq - seq % CHECKPOINT_EVERY + 1: seq + 1]:
            step(s, e)
        return s

    def states(self) -> Iterator[Any]:
        """Every state in order, one after each event (fresh objects, safe to keep)."""
        s = self.game.initial_state(self._engine[0])
        yield s.copy()
        for e in self._engine[1:]:
            self.game.step(s, e)
            yield s.copy()
