"""The rules frame every game shares: outcomes, the state base, the options base, the checks
every event goes through (game id, seq, game over, seat), and the error builders.

A game's ``rules.step`` starts with ``check_frame`` and builds its rejections with ``illegal``
and ``invalid``, so every game words them the same way; its state class derives from
``SlotState`` (copy, equality, repr) and its options class from ``OptionsBase`` (allowed
ranges in messages, required options without defaults, options recorded in full).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, fields
from typing import Any, ClassVar, NamedTuple

from engine.cards import format_face
from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event

WIN, LOSS, DRAW = "win", "loss", "draw"
RESULTS = (WIN, LOSS, DRAW)

# How a game forms its sides (``SIDES`` of a game module).
NO_SIDES, FIXED_SIDES, FORMED_SIDES = "none", "fixed", "formed"


class ReviewScale(NamedTuple):
    """How a game's decisions are valued and graded in a review (``engine.review``): ``kind``
    "win" (the seat's win probability: a win 1, a draw 0.5, a loss 0) or "score" (its expected
    score); ``steps`` the losses that make an inaccuracy, a mistake and a blunder, in that
    unit; ``why`` the reason for the steps, shown in docs and reports."""

    kind: str
    steps: tuple[float, float, float]
    unit: str
    why: str


# lichess's steps: a loss of 5 / 10 / 15 points of win probability.
WIN_SCALE = ReviewScale("win", (0.05, 0.10, 0.15), "win probability",
                        "lichess's steps: 5, 10 and 15 points of win probability")


class RecordWords(NamedTuple):
    """How a player's record of a game is told (``Game.record_words``): what its games,
    wins, losses and draws are called, and the headline rate — ``rate_over`` "decided"
    (wins / (wins + losses): a draw counts neither way) or "games" (wins / games: where most
    seats of a game neither win nor lose, a rate over the decided ones reads far too high) —
    with its name and what it means."""

    games: str = "games"
    wins: str = "wins"
    losses: str = "losses"
    draws: str = "draws"
    rate_over: str = "decided"
    rate: str = "win rate"
    about: str = "wins / (wins + losses): a draw counts neither way"


GAME_RECORD = RecordWords()


class Outcome(NamedTuple):
    """One seat's outcome of a finished game: its place (1 = first; None where the game ranks
    no one), its score and whether it won, lost or drew."""

    place: int | None
    score: int
    result: str


def team_outcomes(scores: list[int], sides: tuple[str | None, ...],
                  winning_side: str | None) -> tuple[Outcome, ...]:
    """Outcomes of a game won or drawn by a side: its seats win, the others lose; no winning
    side is a draw for every seat."""
    if winning_side is None:
        return tuple(Outcome(None, x, DRAW) for x in scores)
    return tuple(Outcome(None, x, WIN if side == winning_side else LOSS)
                 for x, side in zip(scores, sides, strict=True))


def winning_side(outcomes: tuple[Outcome, ...] | None,
                 sides: tuple[str | None, ...]) -> str | None:
    """The side every winner belongs to, or None (no result, a draw, no sides, mixed sides)."""
    if not outcomes:
        return None
    won = {sides[i] for i, o in enumerate(outcomes) if o.result == WIN}
    return won.pop() if len(won) == 1 and None not in won else None


def outcome_text(outcomes: list[dict[str, Any]] | tuple[Outcome, ...] | None,
                 winning: str | None) -> str:
    """'even won', 'seat 2 won', 'seats 1, 4 won', 'draw' or 'no result', for people."""
    if not outcomes:
        return "no result"
    rows = [o if isinstance(o, dict) else o._asdict() for o in outcomes]
    if winning:
        return f"{winning} won"
    won = [i for i, o in enumerate(rows) if o.get("result") == WIN]
    if not won:
        return "draw" if all(o.get("result") == DRAW for o in rows) else "no winner"
    return f"seat{'s' * (len(won) > 1)} {', '.join(map(str, won))} won"


# ---------------------------------------------------------------- errors

def describe_action(e: Event) -> str:
    """'PLAY Th Td' or 'PASS': an event's kind and faces, for messages."""
    return f"{e.kind} {' '.join(format_face(c) for c in e.cards)}" if e.cards else e.kind


def illegal(s: Any, e: Event, rule: str, reason: str, *, also: tuple[str, ...] = (),
            legal: str = "") -> IllegalMove:
    """An IllegalMove naming the game, seq, seat, event and rule: 'seat 2 PLAY Th at seq 41:
    reason'; ``also`` the other rules broken, ``legal`` what was legal now (IllegalMove)."""
    who = f"seat {e.seat} " if e.seat >= 0 else ""
    return IllegalMove(rule, f"{who}{describe_action(e)} at seq {e.seq}: {reason}",
                       game_id=s.game_id, seq=e.seq, seat=e.seat, event=e, also=also,
                       legal=legal)


def _short(v: Any, limit: int = 60) -> str:
    """A JSON value in at most ``limit`` characters, for messages."""
    text = json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _diffs(want: Any, got: Any, path: str, out: list[str]) -> None:
    """Append 'path is X, event says Y' for every differing leaf-ish value (objects and
    equal-length lists are compared element by element)."""
    if want == got:
        return
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got), key=str):
            where = f"{path}.{k}" if path else str(k)
            if k not in got:
                out.append(f"{where} is missing (want {_short(want[k])})")
            elif k not in want:
                out.append(f"{where} is not part of the result")
            else:
                _diffs(want[k], got[k], where, out)
        return
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got) \
            and any(isinstance(x, (list, dict)) for x in want):
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            _diffs(a, b, f"{path}[{i}]", out)
        return
    out.append(f"{path or 'the result'} is {_short(want)}, event says {_short(got)}")


def result_diff(want: Any, got: Any, limit: int = 4) -> str:
    """What differs between the result payload the engine computed and the one an event
    carries, field by field, at most ``limit`` differences named: 'points is [2,1,0,0,-1,-2],
    event says [2,1,0,0,-2,-1]; result is "even", event says "draw"'."""
    if got is None:
        return "the event carries no result payload"
    out: list[str] = []
    _diffs(want, got, "", out)
    more = len(out) - limit
    return "; ".join(out[:limit]) + (f"; and {more} more" if more > 0 else "")


def invalid(s: Any, e: Event, reason: str, field: str) -> InvalidEvent:
    """An InvalidEvent naming the game, seq and the malformed field."""
    return InvalidEvent(f"{e.kind}: {reason}", game_id=s.game_id, seq=e.seq, field=field)


def check_frame(s: Any, e: Event, over: bool, over_rule: str) -> None:
    """The checks every event of every game goes through before its own rules: it belongs to
    this game, it carries the next seq, and the game is not over (``over_rule`` cited)."""
    if e.game_id != s.game_id:
        raise InvalidEvent(f"event of game {e.game_id!r} in game {s.game_id!r}",
                           game_id=s.game_id, seq=e.seq, field="game_id")
    if e.seq != s.seq:
        raise InvalidEvent(f"seq {e.seq} is out of order: the next event is seq {s.seq}",
                           game_id=s.game_id, seq=e.seq, field="seq")
    if over:
        raise illegal(s, e, over_rule, "the game is over")


def check_seat(s: Any, e: Event) -> None:
    """The event's seat is one of the game's seats (0 … n−1)."""
    n = len(s.players)
    if not 0 <= e.seat < n:
        raise invalid(s, e, f"seat {e.seat} is not a seat 0-{n - 1}", "seat")


def apply_with(step: Callable[[Any, Event], None], state: Any, event: Event) -> Any:
    """A game's ``apply``: the state after the event, stepped on a copy (the input is left as
    it was, also when the event is refused)."""
    new = state.copy()
    step(new, event)
    return new


def check_with(step: Callable[[Any, Event], None], state: Any, event: Event) -> None:
    """A game's ``check``: raise if the event is not legal in this state; changes nothing."""
    step(state.copy(), event)


# ---------------------------------------------------------------- state base

class SlotState:
    """Base of a game state: a slotted record whose fields hold only immutable values, so a
    shallow copy is a safe copy; equality compares every field; the repr names the game,
    the seq and the seat to act."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            names.extend(klass.__dict__.get("__slots__", ()))
        cls.FIELDS = tuple(names)

    def copy(self) -> Any:
        """A shallow copy: safe, since every field is immutable."""
        new = object.__new__(type(self))
        for name in self.FIELDS:
            object.__setattr__(new, name, getattr(self, name))
        return new

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(
            getattr(self, n) == getattr(other, n) for n in self.FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        bits = [f"{n}={getattr(self, n, None)!r}" for n in ("game_id", "seq")]
        for n in ("phase", "stage", "to_act"):
            if n in self.FIELDS:
                bits.append(f"{n}={getattr(self, n, None)!r}")
        return f"{type(self).__name__}({', '.join(bits)})"


class Record:
    """Base of a small immutable value inside a state (a duel, a play's shape): slotted, with
    equality, a hash and a repr over its slots."""

    __slots__: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(
            getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self.__slots__))

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({inner})"


# ---------------------------------------------------------------- options base

REQUIRED = object()   # the default of an option that has none (a game parameter)


def allowed_text(allowed: tuple[Any, ...]) -> str:
    """The allowed values of an option as people read them."""
    if isinstance(allowed[0], bool):
        return "on/off (true/false)"
    if isinstance(allowed[0], int) and len(allowed) == 2 and allowed[1] - allowed[0] > 1:
        return f"an integer from {allowed[0]} to {allowed[1]}"
    return " or ".join(repr(a) for a in allowed)


def value_allowed(v: Any, allowed: tuple[Any, ...]) -> bool:
    """True if v is one of the allowed values (an int range (lo, hi) of more than two values
    admits every int between)."""
    if isinstance(allowed[0], bool):
        return isinstance(v, bool)
    if isinstance(allowed[0], int):
        if not isinstance(v, int) or isinstance(v, bool):
            return False
        if len(allowed) == 2 and allowed[1] - allowed[0] > 1:
            return allowed[0] <= v <= allowed[1]
        return v in allowed
    return type(v) is type(allowed[0]) and v in allowed


class OptionsBase:
    """Base of a game's frozen options dataclass. The subclass sets ``RULE`` (the rule id cited
    by a bad option) and ``ALLOWED`` (option -> allowed values: a tuple of values, or an int
    range ``(lo, hi)``); a field whose default is ``REQUIRED`` has no default and must be
    given; a field whose default is None is filled by ``resolve_defaults`` (defaults that
    depend on other options)."""

    __slots__ = ()
    RULE: ClassVar[str] = ""
    ALLOWED: ClassVar[dict[str, tuple[Any, ...]]] = {}

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if v is REQUIRED:
                raise IllegalMove(self.RULE, f"option {f.name} is required: "
                                  f"{allowed_text(self.ALLOWED[f.name])}")
            if v is not None:
                self._check_value(f.name, v)
        self.resolve_defaults()     # only once every given value is known to be allowed
        for f in fields(self):  # type: ignore[arg-type]
            self._check_value(f.name, getattr(self, f.name))

    def _check_value(self, name: str, v: Any) -> None:
        allowed = self.ALLOWED[name]
        if not value_allowed(v, allowed):
            raise IllegalMove(self.RULE, f"option {name}={v!r} is not allowed: must be "
                              f"{allowed_text(allowed)}")

    def resolve_defaults(self) -> None:
        """Fill the defaults that depend on other options (None fields); none by default."""

    def set_default(self, name: str, value: Any) -> None:
        """Fill one default while the options are being built (frozen afterwards)."""
        if getattr(self, name) is None:
            object.__setattr__(self, name, value)

    def to_dict(self) -> dict[str, Any]:
        """All options, defaults written out."""
        return asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls, d: Any) -> Any:
        """Options from a recorded dict; unknown and missing names are errors."""
        if not isinstance(d, dict):
            raise IllegalMove(cls.RULE, "options must be a JSON object")
        names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        unknown = set(d) - set(names)
        if unknown:
            raise IllegalMove(cls.RULE, f"unknown option(s) {', '.join(sorted(unknown))}; "
                              f"known: {', '.join(names)}")
        missing = set(names) - set(d)
        if missing:
            raise IllegalMove(cls.RULE, f"option(s) {', '.join(sorted(missing))} are not "
                              "recorded in GAME_START")
        return cls(**d)
