"""The table of a game without a table module of its own: seats with their hands (or hidden
counts) and teams, and in the centre the view's other fields as plain lines. Event details are
the event's target, value and tag."""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from dashboards.table import (
    N_SEATS,
    POSITIONS,
    bottom_seat,
    cards_html,
    layout_html,
    seat_names,
    seat_panel_html,
)
from engine.cards import parse_face
from engine.errors import EngineError
from engine.events import NONE, Event
from engine.games import find_game

# View fields drawn elsewhere (the seats, the perspective line) or too bulky for the centre.
SHOWN_ELSEWHERE = frozenset({"format", "game", "game_id", "seq", "players", "hands",
                             "options", "perspective"})
MAX_CARDS = 24      # longer card lists (a deck, a stock) are shown as a count
MAX_TEXT = 240


def _team_of(view: dict[str, Any]) -> Any:
    try:
        return find_game(str(view.get("game", ""))).team_of
    except EngineError:
        return None


def _is_faces(v: Any) -> bool:
    if not isinstance(v, list) or not all(isinstance(f, str) for f in v):
        return False
    try:
        for f in v:
            parse_face(f)
    except EngineError:
        return False
    return True


def _value_html(v: Any) -> str:
    if _is_faces(v) and v:
        return cards_html(v) if len(v) <= MAX_CARDS else f"{len(v)} cards"
    text = json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT] + " …"
    return escape(text)


def _seat_to_act(view: dict[str, Any]) -> int | None:
    seat = view.get("to_act")
    ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < N_SEATS
    return seat if ok and view.get("phase") != "over" else None


def centre_html(view: dict[str, Any]) -> str:
    """The middle of the table: the phase, whose turn, and every other field of the view."""
    to_act = _seat_to_act(view)
    turn = f"seat {to_act} to act" if to_act is not None else escape(str(view.get("phase", "")))
    parts = [f'<div class="lj-info"><b>{turn}</b></div>']
    for key, value in view.items():
        if key in SHOWN_ELSEWHERE or value is None or value == [] or value == {}:
            continue
        parts.append(f'<div class="lj-info">{escape(str(key))}: {_value_html(value)}</div>')
    return f'<div class="lj-centre">{"".join(parts)}</div>'


def table_html(view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole table as one HTML fragment: six seats around the centre, escaped."""
    names = seat_names(view, players)
    persp = view.get("perspective", "auditor")
    bottom = bottom_seat(view)
    to_act = _seat_to_act(view)
    team_of = _team_of(view)
    hands = view.get("hands")
    seats = []
    for seat in range(N_SEATS):
        hand = hands[seat] if isinstance(hands, list) and seat < len(hands) else []
        seats.append(seat_panel_html(
            seat, names[seat], hand, team=team_of(seat) if team_of else None,
            to_act=seat == to_act, me=seat == persp,
            area=POSITIONS[(seat - bottom) % N_SEATS]))
    return layout_html(view, seats, centre_html(view), style=style)


def generic_detail(e: Event) -> str:
    """An event's target, value and tag in a few words (for kinds without a description)."""
    bits = []
    if e.target != NONE:
        bits.append(f"target {e.target}")
    if e.value != NONE:
        bits.append(f"value {e.value}")
    if e.tag:
        bits.append(e.tag)
    return " ".join(bits)


def event_detail(e: Event) -> str:
    """What an event means beyond its cards, from its generic fields only."""
    if e.kind == "GAME_START":
        n = len(e.cards)
        return f"game start, {n} card{'s' * (n != 1)}"
    if e.kind == "GAME_END":
        bits = generic_detail(e)
        return f"game over: {bits}" if bits else "game over"
    return generic_detail(e)
