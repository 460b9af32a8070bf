"""Replay: a game's state as a fold over its events, validated, with checkpoints for random access."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from engine.commit import engine_events, for_engine
from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import Event, payload_json
from engine.games import find_game
from engine.games.base import Game
from engine.games.frame import winning_side

CHECKPOINT_EVERY = 16
NO_TIME = -(1 << 63)          # a fold's clock before any event: every time is after it


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


class ObserverError(EngineError):
    """An observer of a fold failed on an event the engine accepted (a bug to report): the
    fold lets it through instead of reading it as the game's verdict."""


class _EveryKind:
    """Stands for an observer's ``after_kinds`` of None: every kind."""

    __slots__ = ()

    def __contains__(self, kind: object) -> bool:
        return True


_EVERY_KIND = _EveryKind()


class Observer:
    """What watches a fold (``fold``, ``Fold``): ``begin`` once with the game and its first
    state, then per event ``before(state, event)`` (the state before it is stepped) and
    ``after(state, event)`` (the state after it), then ``end(verdict)``. ``before`` and
    ``after`` are None when not wanted (a fold calls only what is set, read after ``begin``,
    so ``begin`` may bind them for its game); the state is the fold's own: copy it to keep
    it."""

    before: Callable[[Any, Event], None] | None = None
    after: Callable[[Any, Event], None] | None = None
    # the event kinds ``after`` needs (None: every kind): a fold may skip the call for others
    after_kinds: frozenset[str] | None = None

    def begin(self, game: Game, state: Any, start: Event) -> None:
        """The game starts: its engine game, the state after GAME_START and GAME_START."""

    def end(self, verdict: Verdict) -> None:
        """The fold ended with this verdict (ok, illegal or incomplete)."""


class Fold:
    """A game's state as a fold over its events: each event has its time checked (never
    before the previous one's, when ``clock``), is stepped by the game's rules and shown to
    the observers. ``feed`` takes any iterable of events (a stored log, a live request, the
    moves of self-play made as the state goes)."""

    __slots__ = ("game", "state", "events", "ts", "clock", "before", "after", "observers",
                 "game_id", "after_kinds")

    def __init__(self, game: Game, state: Any, *, events: int = 1, ts: int | None = None,
                 observers: Sequence[Observer] = (), clock: bool = True,
                 game_id: str = "") -> None:
        self.game, self.state, self.events = game, state, events
        self.ts = ts if ts is not None else NO_TIME     # the last event's time
        self.clock, self.observers, self.game_id = clock, tuple(observers), game_id
        self.before = [o.before for o in self.observers if o.before is not None]
        self.after = [o.after for o in self.observers if o.after is not None]
        self.after_kinds = [o.after_kinds for o in self.observers if o.after is not None]

    @classmethod
    def start(cls, start: Event, observers: Sequence[Observer] = (),
              clock: bool = True) -> Fold:
        """The fold of a game from its GAME_START (as the rules see it: ``for_engine``);
        raises the engine's error for a start it refuses."""
        start = for_engine(start)
        game = game_module(start)
        state = game.initial_state(start)
        for o in observers:
            o.begin(game, state, start)
        return cls(game, state, ts=start.ts, observers=observers, clock=clock,
                   game_id=start.game_id)

    def feed(self, events: Iterable[Event]) -> None:
        """Step every event in order; raises the engine's error of the first one refused (the
        state stays the one before it, ``events`` counts those accepted)."""
        step, s, n, ts, clock = self.game.step, self.state, self.events, self.ts, self.clock
        before, after = self.before, self.after
        try:
            if not before and not after:         # the hot loop of validated replay
                if clock:
                    for e in events:
                        if e.ts < ts:
                            raise backwards(e, ts)
                        ts = e.ts
                        step(s, e)
                        n += 1
                else:
                    for e in events:
                        step(s, e)
                        n += 1
            elif len(before) == 1 and not after:  # one observer of the state before (ingest)
                observe = before[0]
                for e in events:
                    if clock and e.ts < ts:
                        raise backwards(e, ts)
                    ts = e.ts
                    observe(s, e)
                    step(s, e)
                    n += 1
            elif len(before) == 1 and len(after) == 1:    # decisions and facts (ingest)
                observe, seen = before[0], after[0]
                wanted = self.after_kinds[0] or _EVERY_KIND
                for e in events:
                    if clock and e.ts < ts:
                        raise backwards(e, ts)
                    ts = e.ts
                    observe(s, e)
                    step(s, e)
                    n += 1
                    if e.kind in wanted:
                        seen(s, e)
            else:
                for e in events:
                    if clock and e.ts < ts:
                        raise backwards(e, ts)
                    ts = e.ts
                    for f in before:
                        f(s, e)
                    step(s, e)
                    n += 1
                    for f in after:
                        f(s, e)
        finally:
            self.events, self.ts = n, ts

    def push(self, event: Event) -> None:
        """Step one live event after GAME_START (a GAME_END without its reveal,
        ``for_engine``): the fold of a game being recorded, one request at a time."""
        self.feed((for_engine(event) if event.kind == "GAME_END" else event,))

    def verdict(self, error: EngineError | None = None) -> Verdict:
        """The verdict where the fold stands: illegal with the error that stopped it, else
        ok once the game is over, else incomplete (with what was owed next)."""
        gid, n, s, game = self.game_id, self.events, self.state, self.game
        if error is not None:
            return Verdict(gid, "illegal", n, error, s, game)
        if not game.is_over(s):
            return Verdict(gid, "incomplete", n, EngineError(
                f"game {gid} has no GAME_END: {n} events, next owed "
                f"{game.next_auto(s) or 'a player action'}"), s, game)
        return Verdict(gid, "ok", n, None, s, game)


def fold(events: Sequence[Event], observers: Sequence[Observer] = (),
         clock: bool = True) -> Verdict:
    """Replay a game's events (without the log's commitment keys) through its engine, showing
    them to the observers; never raises for bad events (an ``ObserverError`` goes through)."""
    gid = events[0].game_id if events else ""
    if not events:
        return Verdict(gid, "incomplete", 0, InvalidEvent("no events", game_id=gid))
    events = engine_events(events)          # without the log's commitment keys
    try:
        f = Fold.start(events[0], observers, clock)
    except ObserverError:
        raise
    except EngineError as exc:
        return Verdict(gid, "illegal", 0, exc)
    try:
        f.feed(events[1:])                  # a list: iterated faster than an islice
    except ObserverError:
        raise
    except EngineError as exc:
        v = f.verdict(exc)
    else:
        v = f.verdict()
    for o in observers:
        o.end(v)
    return v


def validate_events(events: Sequence[Event]) -> Verdict:
    """Replay a game's events through its engine; never raises for bad events."""
    return fold(events)


class _Checkpoints(Observer):
    """Keeps a copy of the state every CHECKPOINT_EVERY events (``Replay``)."""

    def __init__(self) -> None:
        self.saved: list[Any] = []
        self.n = 0

    def begin(self, game: Game, state: Any, start: Event) -> None:
        """The state after GAME_START is the first checkpoint."""
        self.saved.append(state.copy())

    def after(self, state: Any, event: Event) -> None:  # type: ignore[override]
        """A checkpoint after every CHECKPOINT_EVERY-th event after GAME_START."""
        self.n += 1
        if self.n % CHECKPOINT_EVERY == 0:
            self.saved.append(state.copy())


class Replay:
    """A validated game with checkpoints: the state after any seq in O(CHECKPOINT_EVERY) steps."""

    def __init__(self, events: Sequence[Event]) -> None:
        if not events:
            raise InvalidEvent("a replay needs at least the GAME_START event")
        self.events = list(events)
        self._engine = engine_events(self.events)      # without the log's commitment keys
        marks = _Checkpoints()
        f = Fold.start(self._engine[0], (marks,), clock=False)
        self.game = f.game
        self.game_type = self.game.GAME_ID
        f.feed(islice(self._engine, 1, None))
        self._checkpoints = marks.saved
        self.final = f.state

    def __len__(self) -> int:
        return len(self.events)

    def state_at(self, seq: int) -> Any:
        """The state right after the event with this seq (0 = after GAME_START)."""
        if not 0 <= seq < len(self.events):
            raise IndexError(f"seq {seq} is outside 0-{len(self.events) - 1}")
        if seq == len(self.events) - 1:
            return self.final.copy()
        f = Fold(self.game, self._checkpoints[seq // CHECKPOINT_EVERY].copy(), clock=False)
        f.feed(self._engine[seq - seq % CHECKPOINT_EVERY + 1: seq + 1])
        return f.state

    def states(self) -> Iterator[Any]:
        """Every state in order, one after each event (fresh objects, safe to keep)."""
        f = Fold.start(self._engine[0], clock=False)
        yield f.state.copy()
        for e in self._engine[1:]:
            f.feed((e,))
            yield f.state.copy()
