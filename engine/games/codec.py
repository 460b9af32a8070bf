"""Reading positions, shared by every game: a ``Fields`` reader converts one JSON field at a
time (seats, faces, bounded integers, choices, per-seat lists, nested objects) and every error
it raises has one style, naming the field by its dotted path:
``position field 'top.seat': must be a seat 0-5 or null, got 7``.

A game's ``from_position`` reads with it::

    f = Fields(p, n_seats=6)
    s.to_act = f.seat("to_act")
    top = f.sub("top")
    s.top = top.faces("cards")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.cards import parse_face
from engine.errors import EngineError, InvalidEvent


def bad(field: str, reason: str) -> InvalidEvent:
    """The one error of a position field: its dotted name and what is wrong."""
    return InvalidEvent(f"position field {field!r}: {reason}", field=field)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Fields:
    """Typed reads of a position object's fields (``n_seats`` bounds every seat)."""

    __slots__ = ("obj", "prefix", "n_seats", "read", "children")

    def __init__(self, obj: Any, n_seats: int, prefix: str = "") -> None:
        if not isinstance(obj, dict):
            raise bad(prefix or "position", f"must be a JSON object, got {type(obj).__name__}")
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

    def int(self, key: str, lo: int | None = None, hi: int | None = None,
            default: Any = ...) -> int:
        """An integer, within lo … hi when given."""
        v = self.get(key, default)
        if not _is_int(v) or (lo is not None and v < lo) or (hi is not None and v > hi):
            what = (f"an integer from {lo} to {hi}" if lo is not None and hi is not None else
                    f"an integer >= {lo}" if lo is not None else "an integer")
            raise bad(self.name(key), f"must be {what}, got {v!r}")
        return v

    def bool(self, key: str, default: Any = ...) -> bool:
        """true or false."""
        v = self.get(key, default)
        if not isinstance(v, bool):
            raise bad(self.name(key), f"must be true or false, got {v!r}")
        return v

    def text(self, key: str, default: Any = ...) -> str:
        """A string."""
        v = self.get(key, default)
        if not isinstance(v, str):
            raise bad(self.name(key), f"must be a string, got {v!r}")
        return v

    def choice(self, key: str, choices: Sequence[Any], default: Any = ...) -> Any:
        """One of the given values."""
        v = self.get(key, default)
        if v not in choices or isinstance(v, bool) != isinstance(choices[0], bool):
            raise bad(self.name(key), f"must be one of {', '.join(map(repr, choices))}, "
                      f"got {v!r}")
        return v

    def seat(self, key: str, allow_none: bool = False, default: Any = ...) -> int:
        """A seat 0 … n−1 (null as -1 when allowed)."""
        return self.seat_value(self.get(key, default), self.name(key), allow_none)

    def seat_value(self, v: Any, name: str, allow_none: bool = False) -> int:
        """A seat value read elsewhere, checked the same way."""
        if v is None and allow_none:
            return -1
        if not _is_int(v) or not 0 <= v < self.n_seats:
            extra = " or null" if allow_none else ""
            raise bad(name, f"must be a seat 0-{self.n_seats - 1}{extra}, got {v!r}")
        return v

    def faces(self, key: str) -> tuple[int, ...]:
        """A list of card faces as face codes."""
        return faces_value(self.get(key), self.name(key))

    def per_seat(self, key: str, read: Callable[[Any, str], Any]) -> tuple[Any, ...]:
        """A list with one value per seat, each read by ``read(value, name)``."""
        v = self.get(key)
        if not isinstance(v, list) or len(v) != self.n_seats:
            raise bad(self.name(key), f"must be a list of {self.n_seats} values, one per seat")
        return tuple(read(x, f"{self.name(key)}[{i}]") for i, x in enumerate(v))

    def list(self, key: str) -> list[Any]:
        """A JSON list."""
        v = self.get(key)
        if not isinstance(v, list):
            raise bad(self.name(key), f"must be a list, got {type(v).__name__}")
        return v


def faces_value(v: Any, name: str) -> tuple[int, ...]:
    """A list of text faces as face codes, or the field's error."""
    if not isinstance(v, list):
        raise bad(name, "must be a list of card faces")
    try:
        return tuple(parse_face(x) for x in v)
    except EngineError:
        raise bad(name, f"holds something that is not a card face: {v!r}"[:200]) from None


def bool_value(v: Any, name: str) -> bool:
    """true or false, or the field's error (for ``per_seat``)."""
    if not isinstance(v, bool):
        raise bad(name, f"must be true or false, got {v!r}")
    return v
