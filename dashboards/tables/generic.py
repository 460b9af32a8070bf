"""The table of a game without a table module of its own, for any seat count: the seats with
their hands (or hidden counts), sides when the view gives them and outcomes once the game is
over; in the centre whose turn it is and the view's other fields as plain lines. Event details
are the event's target, value and tag."""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from dashboards.tables._legacy import (
    cards_html,
    layout_html,
    outcome_of,
    result_summary,
    seat_area,
    seat_count,
    seat_names,
    seat_or_none,
    seat_panel_html,
    side_of,
    to_act_seat,
)
from engine.cards import parse_face
from engine.errors import EngineError
from engine.events import NONE, Event

# View fields drawn elsewhere (the seats, the perspective line) or too bulky for the centre.
SHOWN_ELSEWHERE = frozenset({"format", "game", "game_id", "seq", "players", "hands",
                             "options", "perspective", "sides", "outcomes", "to_act"})
MAX_CARDS = 24      # longer card lists (a deck, a stock) are shown as a count
MAX_TEXT = 240


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


def turn_text(view: dict[str, Any], players: Sequence[str] | None = None) -> str:
    """Whose turn it is, or the result once over, or the phase: plain text."""
    summary = result_summary(view, players)
    if summary:
        return f"game over: {summary}"
    to_act = to_act_seat(view)
    if to_act is not None:
        return f"seat {to_act} to act"
    return str(view.get("phase", ""))


def centre_html(view: dict[str, Any]) -> str:
    """The middle of the table: whose turn (or the result), and every other field of the view."""
    parts = [f'<div class="lj-info"><b>{escape(turn_text(view))}</b></div>']
    for key, value in view.items():
        if key in SHOWN_ELSEWHERE or value is None or value == [] or value == {}:
            continue
        parts.append(f'<div class="lj-info">{escape(str(key))}: {_value_html(value)}</div>')
    return f'<div class="lj-centre">{"".join(parts)}</div>'


def table_html(view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole table as one HTML fragment: every seat around the centre, escaped."""
    names = seat_names(view, players)
    me = seat_or_none(view, view.get("perspective"))
    to_act = to_act_seat(view)
    hands = view.get("hands")
    seats = []
    for seat in range(seat_count(view, players)):
        hand = hands[seat] if isinstance(hands, list) and seat < len(hands) else []
        seats.append(seat_panel_html(
            seat, names[seat], hand, side=side_of(view, seat), outcome=outcome_of(view, seat),
            to_act=seat == to_act, me=seat == me, area=seat_area(view, seat)))
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
