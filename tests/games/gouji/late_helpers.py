"""Small helpers of the GJ-26 … GJ-49 tests (the shared ones live in conftest.py)."""

from __future__ import annotations

import json
from typing import Any

from engine.events import Event
from engine.games import gouji
from engine.games.gouji.state import GoujiState

DEFAULT_OPTIONS = {"kaidian_effect": "burn_licence", "men_scope": "single_three",
                   "judged_counts_as_out": True}


def options(**changes: Any) -> dict[str, Any]:
    """The options of a position (every option written out), some changed."""
    return {**DEFAULT_OPTIONS, **changes}


def mask(*seats: int) -> int:
    """A seat mask (bit i = seat i)."""
    m = 0
    for i in seats:
        m |= 1 << i
    return m


def f(e: Event) -> tuple[str, int, int, int, str]:
    """The fields a derived event is judged by: (kind, seat, target, value, tag)."""
    return (e.kind, e.seat, e.target, e.value, e.tag)


def fs(events: list[Event]) -> list[tuple[str, int, int, int, str]]:
    """``f`` of every event."""
    return [f(e) for e in events]


def payload(e: Event) -> dict[str, Any]:
    """An event's JSON payload."""
    return json.loads(e.payload)


def action_kinds(s: GoujiState) -> set[str]:
    """The kinds of the legal actions now."""
    return {a.kind for a in gouji.legal_actions(s)}


def seat_to_act(s: GoujiState) -> int:
    """The seat whose decision the game waits for."""
    return gouji.due_seat(s)
