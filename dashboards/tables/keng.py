"""六人坑 in the dashboard: its table (seats with duel, ban, report and count flags; the top
play, pending draws and duels, direction, stock, cycle, 抢 window) and its event details.

Only formats the view (``engine.games.keng.position.view``): the seat to act, the sides, the
outcomes, the seat facing a pending draw and the turn order are the view's."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from dashboards.table import (
    cards_html,
    event_payload,
    layout_html,
    outcome_of,
    result_summary,
    seat_area,
    seat_count,
    seat_names,
    seat_or_none,
    seat_panel_html,
    side_of,
    suit_html,
    to_act_seat,
)
from dashboards.tables.generic import generic_detail
from engine.cards import SUIT_SYMBOLS, SUITS
from engine.events import NONE, Event

DIRECTION_WORDS = {1: ("↺", "counter-clockwise"), -1: ("↻", "clockwise, reversed by J")}


def direction_text(view: dict[str, Any]) -> tuple[str, str]:
    """The direction of play as (arrow, '0→1→2→3→4→5 (counter-clockwise)'), from the view's
    direction and turn order."""
    arrow, words = DIRECTION_WORDS.get(view.get("direction"), ("?", "unknown"))
    order = [str(i) for i in view.get("turn_order") or []]
    return arrow, f"{'→'.join(order)} ({words})" if order else words


def _flag(view: dict[str, Any], key: str, seat: int) -> bool:
    v = view.get(key)
    return isinstance(v, list) and seat < len(v) and bool(v[seat])


def _seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    flags = []
    duel = view.get("duel")
    if duel:
        if duel["challenger"] == seat:
            flags.append("duel: challenger")
        if duel["defender"] == seat:
            flags.append("duel: defender")
    if _flag(view, "banned", seat):
        flags.append("banned from 抢")
    if view.get("last_card_obligation") == seat:
        flags.append("must report last card")
    if _flag(view, "count_used", seat):
        flags.append("count right used")
    top = view.get("top") or {}
    if top.get("seat") == seat and top.get("cards"):
        flags.append("played the top card")
    result = view.get("result") or {}
    if view.get("outcomes") and result.get("deciding_seat") == seat:
        flags.append({"out": "went out", "over_limit": "over the hand limit"}.get(
            result.get("reason"), "decided the game"))
    return flags


def seat_html(view: dict[str, Any], seat: int, player: str, *, to_act: bool = False,
              me: bool = False, area: str = "") -> str:
    """One seat's panel: number, player, side, hand (faces or a hidden count), outcome, flags."""
    return seat_panel_html(seat, player, view["hands"][seat], side=side_of(view, seat),
                           outcome=outcome_of(view, seat), flags=_seat_flags(view, seat),
                           to_act=to_act, me=me, area=area)


def _top_html(view: dict[str, Any]) -> str:
    top = view.get("top") or {}
    faces = top.get("cards") or []
    if not faces:
        return '<div class="lj-top">no card on the table yet</div>'
    bits = [cards_html(faces)]
    joker_or_pair = len(faces) > 1 or faces[0] in ("BJ", "RJ")
    if top.get("suit") and joker_or_pair:
        bits.append(f'<span class="lj-info">suit {suit_html(top["suit"])}</span>')
    who = []
    if top.get("seat", -1) is not None and top.get("seat", -1) >= 0:
        who.append(f"by seat {int(top['seat'])}")
    if top.get("start_card"):
        who.append("start card")
    if top.get("duel_card"):
        who.append("duel card")
    line = f'<div class="lj-top" title="top play">{" ".join(bits)}</div>'
    if who:
        line += f'<div class="lj-info">top play {escape(", ".join(who))}</div>'
    return line


def _pending_lines(view: dict[str, Any]) -> list[str]:
    """Pending effects, as escaped HTML lines."""
    out = []
    p = int(view.get("pending_draw") or 0)
    facing = seat_or_none(view, view.get("pending_draw_seat"))
    if p:
        out.append(f"pending draw: {p} cards" + (f" for seat {facing}" if facing is not None
                                                 else ""))
    duel = view.get("duel")
    if duel:
        out.append(f"duel: seat {int(duel['challenger'])} (challenger) vs seat "
                   f"{int(duel['defender'])} (defender), seat {int(duel['to_act'])} to play")
    due = view.get("duel_start_due")
    if due:
        out.append(f"duel about to start: seat {int(due['challenger'])} vs seat "
                   f"{int(due['defender'])}")
    owed = view.get("owed_draw")
    if owed:
        out.append(f"seat {int(owed['seat'])} still owed {int(owed['cards'])} cards "
                   f"({escape(str(owed['kind']))})")
    pen = view.get("penalty_due")
    if pen:
        out.append(f"penalty due: {escape(str(pen['kind']))} for seat {int(pen['seat'])}")
    if view.get("reshuffle_due"):
        out.append("reshuffle due")
    turn = seat_or_none(view, view.get("turn_seat"))
    if view.get("drawn_two") and view.get("phase") == "play" and turn is not None:
        out.append(f"seat {turn} has drawn two this turn")
    return [f'<div class="lj-pending">{line}</div>' for line in out]


def turn_text(view: dict[str, Any]) -> str:
    """Whose turn it is, or the result once over ('game over: out, even won'), or the phase."""
    summary = result_summary(view)
    if summary:
        reason = (view.get("result") or {}).get("reason", "?")
        return f"game over: {reason}, {summary}"
    to_act = to_act_seat(view)
    return f"seat {to_act} to act" if to_act is not None else str(view.get("phase", ""))


def centre_html(view: dict[str, Any]) -> str:
    """The middle of the table: top play, pending effects, direction, stock, cycle, turn."""
    stock = view.get("stock")
    n_stock = stock if isinstance(stock, int) else len(stock or [])
    arrow, dir_text = direction_text(view)
    parts = [_top_html(view), *_pending_lines(view),
             f'<div class="lj-info"><b>{escape(turn_text(view))}</b></div>']
    window = "open" if view.get("snatch_window_open") else "closed"
    parts.append(
        f'<div class="lj-info" title="{escape(dir_text)}">direction {arrow} '
        f"{escape(dir_text)}</div>"
        f'<div class="lj-info">stock {n_stock} · played under top '
        f"{len(view.get('table') or [])} · cycle {int(view.get('cycle', 1))} · "
        f"snatch (抢) window {window} · passes in a row {int(view.get('passes_in_a_row', 0))}</div>"
    )
    return f'<div class="lj-centre">{"".join(parts)}</div>'


def table_html(view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole 六人坑 table as one HTML fragment: the seats around the centre, escaped."""
    names = seat_names(view, players)
    me = seat_or_none(view, view.get("perspective"))
    to_act = to_act_seat(view)
    seats = [seat_html(view, seat, names[seat], to_act=seat == to_act, me=seat == me,
                       area=seat_area(view, seat))
             for seat in range(seat_count(view, players))]
    return layout_html(view, seats, centre_html(view), style=style)


def _suit_name(value: int) -> str:
    return SUIT_SYMBOLS[SUITS[value]] if 0 <= value < 4 else "?"


def event_detail(e: Event) -> str:
    """What a 六人坑 event means beyond its cards, in a few words (no hidden information)."""
    k = e.kind
    if k == "GAME_START":
        p = event_payload(e)
        return (f"{p.get('game', '?')} game, deck of {len(e.cards)} cards, opener seat "
                f"{p.get('opener', e.value)} ({e.tag or p.get('opener_rule', '?')})")
    if k == "DEAL":
        return f"{len(e.cards)} cards dealt, stock {e.value}"
    if k in ("PLAY", "START_CARD") and e.value != NONE:
        return f"names suit {_suit_name(e.value)}"
    if k in ("DRAW", "ACCEPT", "REPORT_PENALTY", "SNATCH_PENALTY", "DUEL_END"):
        what = {"ACCEPT": "accepts the pending draw", "DUEL_END": "loses the duel",
                "REPORT_PENALTY": "forgot to report the last card",
                "SNATCH_PENALTY": "false 抢 call"}.get(k, "draws")
        n = len(e.cards)
        extra = ", continued after the reshuffle" if e.tag == "continued" else ""
        return f"{what}: {n} card{'s' * (n != 1)}{extra}"
    if k == "SNATCH":
        return f"抢 claim: {e.tag or '?'}"
    if k == "COUNT":
        return f"counts seat {e.target}: {e.value} cards"
    if k == "DUEL_START":
        return f"duel: seat {e.seat} challenges seat {e.target}"
    if k == "RESHUFFLE":
        return f"new stock of {len(e.cards)} cards, cycle {e.value}"
    if k == "LAST_CARD":
        return "reports the last card"
    if k == "BAN_END":
        return "抢 ban ends"
    if k == "GAME_END":
        p = event_payload(e)
        team = p.get("winning_team")
        return f"{e.tag or p.get('reason', '?')}: " + (f"team {team} wins" if team else "draw")
    return generic_detail(e)
