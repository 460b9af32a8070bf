"""Reading positions, shared by every game: a ``Fields`` reader converts one JSON field at a
time (seats, faces, bounded integers, choices, per-seat lists, nested objects, ids, options)
and every error it raises has one style, a ``PositionError`` naming the field by its dotted
path in one line: ``position field 'top.seat': must be a seat 0-5 or null, got 7``.

A position is untrusted input (a file someone sent), so besides the reader this module holds
the checks every game makes before and after reading its fields: ``open_position`` (an object
of the game's format, nested no deeper than any position is, ``MAX_DEPTH``) and
``check_pack`` (the cards of all the position's places are exactly the game's pack). Values an
error quotes go through ``shown``: escaped, short, never the whole of a large value.

A game's ``from_position`` reads with it::

    open_position(p, POSITION_FORMAT, "keng")
    f = Fields(p, n_seats=6)
    s.to_act = f.seat("to_act")
    top = f.sub("top")
    s.top = top.faces("cards")
    f.done("format", "game")
    check_pack([("hands[0]", s.hands[0]), …, ("stock", s.stock)], deck(opts), "pack")
"""

from __future__ import annotations

import builtins
import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, overload

from engine.cards import format_face, parse_face
from engine.errors import EngineError, InvalidEvent
from engine.ids import id_problem, shown_id

MAX_DEPTH = 8               # objects and lists nested in a position (the deepest has 5)
MAX_SEQ = 2 ** 32 - 1       # the log's seq column is uint32 (docs/log-format.md)
SHOWN_DIGITS = 15           # an integer longer than this is quoted by its size only
SHOWN_FIELD = 80            # a longer field name (a foreign key) is cut in messages


class PositionError(InvalidEvent):
    """A refused position: the field (dotted path) and the reason, in one line."""

    def __init__(self, field: str, reason: str) -> None:
        named = field if len(field) <= SHOWN_FIELD else field[:SHOWN_FIELD] + "…"
        self.line = f"position field {named!r}: {reason}"
        super().__init__(self.line, field=field)

    def __str__(self) -> str:
        return self.line


def bad(field: str, reason: str) -> PositionError:
    """The one error of a position field: its dotted name and what is wrong."""
    return PositionError(field, reason)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def shown(v: Any) -> str:
    """An untrusted JSON value as an error message quotes it: strings escaped and cut, large
    integers by their size, lists and objects by their length (never their contents)."""
    if isinstance(v, str):
        return shown_id(v)
    if v is None or isinstance(v, bool):
        return {None: "null", True: "true", False: "false"}[v]
    if _is_int(v):
        if abs(v) < 10 ** SHOWN_DIGITS:
            return str(v)
        return f"an integer of {len(str(abs(v))) if v.bit_length() < 4000 else 'over 1000'} digits"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, list):
        return f"a list of {len(v)} item{'s' * (len(v) != 1)}"
    if isinstance(v, dict):
        return f"an object of {len(v)} field{'s' * (len(v) != 1)}"
    return f"a {type(v).__name__}"


def open_position(p: Any, fmt: str, game: str) -> None:
    """The first checks of every position: a JSON object with this format tag, nested no
    deeper than ``MAX_DEPTH`` (so that no later step can recurse without bound)."""
    if not isinstance(p, dict):
        raise bad("position", f"must be a JSON object, got {shown(p)}")
    if p.get("format") != fmt:
        raise bad("format", f"must be {fmt!r} for a {game} position, got "
                  f"{shown(p.get('format'))}")
    check_depth(p)


def check_depth(obj: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse lists and objects nested more than ``limit`` deep, naming the deepest field
    reached (walked without recursion, so any depth is refused cleanly)."""
    where = too_deep(obj, limit)
    if where is not None:
        raise bad(where or "position", f"is nested more than {limit} levels deep; no "
                  "position is")


def too_deep(obj: Any, limit: int = MAX_DEPTH) -> str | None:
    """The dotted path of the first list or object nested more than ``limit`` deep in a JSON
    value ('' for the value itself), or None; walked without recursion."""
    stack: list[tuple[Any, str, int]] = [(obj, "", 1)]
    while stack:
        v, name, depth = stack.pop()
        if depth > limit:
            return name
        if isinstance(v, dict):
            for k, x in v.items():
                if isinstance(x, (dict, list)):
                    stack.append((x, f"{name}.{k}" if name else str(k), depth + 1))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, (dict, list)):
                    stack.append((x, f"{name}[{i}]", depth + 1))
    return None


def check_pack(places: Sequence[tuple[str, Iterable[int]]], pack: Sequence[int], what: str,
               partial: bool = False, missing_field: str = "") -> None:
    """The cards of all the places (name, faces) are exactly the pack, as a multiset: a place
    holding a face more often than the pack has it is named; then (unless ``partial``: the
    places hold part of the pack, as during a deal) a face missing from all places is
    reported against ``missing_field`` (default: the first place)."""
    want = Counter(pack)
    seen: Counter[int] = Counter()
    names: list[str] = []
    for name, cards in places:
        here = Counter(cards)
        for face, k in here.items():
            if seen[face] + k > want[face]:
                before = f", and {seen[face]} are already in {', '.join(names)}" \
                    if seen[face] else ""
                raise bad(name, f"holds {k}× {format_face(face)}, but the {len(pack)}-card "
                          f"{what} has {want[face]} in all{before}")
        seen.update(here)
        names.append(name)
    if partial or seen == want:
        return
    face, k = next((f, k) for f, k in sorted((want - seen).items()))
    n = sum((want - seen).values())
    raise bad(missing_field or places[0][0],
              f"the cards of {', '.join(names)} are not the {len(pack)}-card {what}: "
              f"{n} card{'s' * (n != 1)} missing, first {k}× {format_face(face)}")


class Fields:
    """Typed reads of a position object's fields (``n_seats`` bounds every seat)."""

    __slots__ = ("obj", "prefix", "n_seats", "read", "children")

    def __init__(self, obj: Any, n_seats: int, prefix: str = "") -> None:
        if not isinstance(obj, dict):
            raise bad(prefix or "position", f"must be a JSON object, got {shown(obj)}")
        self.obj = obj
        self.prefix = prefix
        self.n_seats = n_seats
        self.read: set[str] = set()
        self.children: list[Fields] = []

    def nested(self, obj: Any, name: str) -> Fields:
        """Fields of an object inside this one (a list item), checked by ``done`` too."""
        child = Fields(obj, self.n_seats, name)
        self.children.append(child)
        return child

    def done(self, *ignored: str) -> None:
        """Refuse a field no reader asked for (a misspelt or foreign field would otherwise be
        dropped silently), here and in every nested object read."""
        extra = sorted(set(self.obj) - self.read - set(ignored))
        if extra:
            raise bad(self.name(extra[0]), "is not a field of this position")
        for child in self.children:
            child.done()

    def name(self, key: str) -> str:
        """The dotted name of a field of this object."""
        return f"{self.prefix}.{key}" if self.prefix else key

    def get(self, key: str, default: Any = ...) -> Any:
        """The raw value of a field; a missing field is an error unless a default is given."""
        self.read.add(key)
        if key not in self.obj:
            if default is ...:
                raise bad(self.name(key), "is missing")
            return default
        return self.obj[key]

    def sub(self, key: str) -> Fields:
        """A nested object's fields."""
        return self.nested(self.get(key), self.name(key))

    def optional_sub(self, key: str) -> Fields | None:
        """A nested object's fields, or None when the field is null."""
        v = self.get(key)
        return None if v is None else self.nested(v, self.name(key))

    # The methods int and bool shadow the builtins in the rest of the class body: annotations
    # below them say builtins.int and builtins.bool.
    def int(self, key: str, lo: int | None = None, hi: int | None = None,
            default: Any = ...) -> int:
        """An integer, within lo … hi when given."""
        return int_value(self.get(key, default), self.name(key), lo, hi)

    def bool(self, key: str, default: Any = ...) -> bool:
        """true or false."""
        return bool_value(self.get(key, default), self.name(key))

    def text(self, key: str, default: Any = ...) -> str:
        """A string."""
        v = self.get(key, default)
        if not isinstance(v, str):
            raise bad(self.name(key), f"must be a string, got {shown(v)}")
        return v

    @overload
    def ident(self, key: str, allow_none: Literal[False] = False,
              default: Any = ...) -> str: ...

    @overload
    def ident(self, key: str, allow_none: builtins.bool,
              default: Any = ...) -> str | None: ...

    def ident(self, key: str, allow_none: builtins.bool = False,
              default: Any = ...) -> str | None:
        """An id (game, session, player: engine.ids), or None when allowed."""
        return id_value(self.get(key, default), self.name(key), allow_none)

    def choice(self, key: str, choices: Sequence[Any], default: Any = ...) -> Any:
        """One of the given values."""
        v = self.get(key, default)
        kinds = {type(c) for c in choices}
        if type(v) not in kinds or v not in choices:
            raise bad(self.name(key), f"must be one of {', '.join(map(shown, choices))}, "
                      f"got {shown(v)}")
        return v

    def options(self, key: str, cls: Any) -> Any:
        """The game's options object (a frozen dataclass) from the recorded object of every
        option: known names, single short values, each in its allowed range."""
        v, name = self.get(key), self.name(key)
        if not isinstance(v, dict):
            raise bad(name, f"must be the object of every option, got {shown(v)}")
        known = [f.name for f in dataclasses.fields(cls)]
        for k, x in v.items():
            if k not in known:
                raise bad(f"{name}.{k}", f"is not an option; known: {', '.join(known)}")
            if not isinstance(x, (str, int)) or (isinstance(x, str) and len(x) > 40):
                raise bad(f"{name}.{k}", f"must be one option value, got {shown(x)}")
        try:
            return cls.from_dict(v)
        except EngineError as exc:
            raise bad(name, str(exc)) from None

    def seat(self, key: str, allow_none: builtins.bool = False,
             default: Any = ...) -> builtins.int:
        """A seat 0 … n−1 (null as -1 when allowed)."""
        return self.seat_value(self.get(key, default), self.name(key), allow_none)

    def seat_value(self, v: Any, name: str,
                   allow_none: builtins.bool = False) -> builtins.int:
        """A seat value read elsewhere, checked the same way."""
        if v is None and allow_none:
            return -1
        if not _is_int(v) or not 0 <= v < self.n_seats:
            extra = " or null" if allow_none else ""
            raise bad(name, f"must be a seat 0-{self.n_seats - 1}{extra}, got {shown(v)}")
        return v

    def seats(self, key: str, distinct: builtins.bool = True) -> tuple[builtins.int, ...]:
        """A list of seats (each at most once when ``distinct``)."""
        out = tuple(self.seat_value(x, f"{self.name(key)}[{i}]")
                    for i, x in enumerate(self.list(key)))
        if distinct and len(set(out)) != len(out):
            raise bad(self.name(key), f"names a seat twice: {list(out)}")
        return out

    def faces(self, key: str) -> tuple[builtins.int, ...]:
        """A list of card faces as face codes."""
        return faces_value(self.get(key), self.name(key))

    def per_seat(self, key: str, read: Callable[[Any, str], Any]) -> tuple[Any, ...]:
        """A list with one value per seat, each read by ``read(value, name)``."""
        v = self.get(key)
        if not isinstance(v, list) or len(v) != self.n_seats:
            raise bad(self.name(key), f"must be a list of {self.n_seats} values, one per seat, "
                      f"got {shown(v)}")
        return tuple(read(x, f"{self.name(key)}[{i}]") for i, x in enumerate(v))

    def list(self, key: str) -> list[Any]:
        """A JSON list."""
        v = self.get(key)
        if not isinstance(v, list):
            raise bad(self.name(key), f"must be a list, got {shown(v)}")
        return v


def int_value(v: Any, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer within lo … hi when given, or the field's error."""
    if not _is_int(v) or (lo is not None and v < lo) or (hi is not None and v > hi):
        what = (f"an integer from {lo} to {hi}" if lo is not None and hi is not None else
                f"an integer >= {lo}" if lo is not None else
                f"an integer <= {hi}" if hi is not None else "an integer")
        raise bad(name, f"must be {what}, got {shown(v)}")
    return v


def faces_value(v: Any, name: str) -> tuple[int, ...]:
    """A list of text faces as face codes, or the field's error naming the first bad item."""
    if not isinstance(v, list):
        raise bad(name, f"must be a list of card faces, got {shown(v)}")
    try:
        return tuple(parse_face(x) for x in v)
    except EngineError:
        i, x = next((i, x) for i, x in enumerate(v) if not _is_face(x))
        raise bad(name, f"item {i} is {shown(x)}, not a card face (rank A23456789TJQK and "
                  "suit shcd, or BJ/RJ)") from None


def _is_face(x: Any) -> bool:
    try:
        parse_face(x)
    except EngineError:
        return False
    return True


def bool_value(v: Any, name: str) -> bool:
    """true or false, or the field's error (for ``per_seat``)."""
    if not isinstance(v, bool):
        raise bad(name, f"must be true or false, got {shown(v)}")
    return v


def id_value(v: Any, name: str, allow_none: bool = False) -> str | None:
    """An id (engine.ids: what GAME_START accepts for game, session and player ids), or None
    when allowed, or the field's error (for ``per_seat``)."""
    if v is None and allow_none:
        return None
    problem = id_problem(v)
    if problem:
        raise bad(name, f"{shown(v)} is not an id: {problem}")
    return v


def player_value(v: Any, name: str) -> str:
    """A player id, or the field's error (for ``per_seat``)."""
    return id_value(v, name)  # type: ignore[return-value]
