"""小墩's table as the neutral model (``engine.table``): each seat with its hand and the tricks
it took; in the centre the cards of the trick, the trick number, leader and stock, whose turn
(or the automatic event owed), the phase, a short stock's order for the auditor and, once over, the
result. Also what an event means in words (``describe``: the generic words, the game has no
others). Only reads the view (``tests.toygame.position.view``); player and game ids are made
safe for a terminal (``engine.text.safe_text``); nothing here draws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.events import Event
from engine.table import (
    MAX_CARDS,
    Faces,
    Line,
    Part,
    TableModel,
    as_dict,
    as_int,
    as_list,
    base_seat,
    faces_of,
    generic_describe,
    line,
    model,
    result_summary,
    seat_names,
    seat_or_none,
    to_act_seat,
)
from engine.table import turn_text as generic_turn_text
from engine.text import safe_text

TITLE = "小墩"


def trick_line(view: dict[str, Any]) -> Line:
    """The cards of the trick so far, each after the seat that played it (the top line)."""
    parts: list[Part] = []
    for p in as_list(view.get("trick")):
        seat = seat_or_none(view, p.get("seat")) if isinstance(p, dict) else None
        if seat is not None:
            parts += [f" seat {seat} " if parts else f"seat {seat} ", Faces((str(p["card"]),))]
    return Line(tuple(parts) or ("no card played yet",), kind="top", title="cards of the trick")


def turn_text(view: dict[str, Any], players: Sequence[str] | None = None) -> str:
    """Whose turn it is, the result once over, or the automatic event owed next."""
    auto = view.get("next_auto")
    if auto and to_act_seat(view) is None and not result_summary(view, players):
        return f"next: {auto}"
    return generic_turn_text(view, players)


def result_line(view: dict[str, Any]) -> list[Line]:
    """Once over: every seat's score and who won ('draw' when nobody did)."""
    r = as_dict(view.get("result"))
    if not r:
        return []
    scores = ", ".join(map(str, as_list(r.get("scores"))))
    won = "draw" if r.get("draw") else "won by seat(s) " + ", ".join(
        map(str, as_list(r.get("winners"))))
    return [line(f"result: scores {scores} · {won}")]


def centre(view: dict[str, Any], players: Sequence[str] | None = None) -> list[Line]:
    """The middle of the table: the trick, its number, leader and stock, the turn, the phase,
    the stock order (auditor) and the result."""
    trick = (as_int(view.get("trick_no")) or 0) + 1
    out = [trick_line(view),
           line(f"trick {trick} · leader seat {view.get('leader')} · stock "
                f"{as_int(view.get('stock_size')) or 0}"),
           line(turn_text(view, players), kind="turn"),
           line(f"phase: {view.get('phase', '?')}")]
    stock = faces_of(view.get("stock"))
    if 0 < len(stock) <= MAX_CARDS:      # a longer one: its size above is enough
        out.append(line("stock order: ", Faces(stock, counted=False)))
    return out + result_line(view)


def table(view: dict[str, Any], players: Sequence[str] | None = None) -> TableModel:
    """The 小墩 table of a view (``engine.table.TableModel``)."""
    names = [safe_text(p) for p in seat_names(view, players)]
    tricks = as_list(view.get("tricks"))
    seats = (base_seat(view, i, names[i],
                       notes=(line(f"tricks {tricks[i]}"),) if i < len(tricks) else ())
             for i in range(len(names)))
    m = model(TITLE, view, seats, centre(view, names))
    return replace(m, game_id=safe_text(m.game_id))


def describe(e: Event) -> str:
    """What a 小墩 event means beyond its cards: its generic fields in a few words."""
    return generic_describe(e)
