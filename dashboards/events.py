"""A game's event list for people: one row per event, private cards hidden from a seat's view.

Pure functions (no Streamlit). The auditor sees every card. A seat sees the cards of public
actions (plays, the start card, snatches) and of its own draws, never another seat's dealt or
drawn cards, the shuffled deck or a new stock order (rules/keng.md KENG-50).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from dashboards.table import cards_html, hidden_html
from engine.cards import SUIT_SYMBOLS, SUITS, format_face, parse_face, pretty_face
from engine.events import NONE, Event
from engine.games.keng import cards_visible

AUDITOR = "auditor"


def can_see_cards(e: Event, perspective: int | str) -> bool:
    """True if this perspective (AUDITOR or a seat) may see the event's cards (the engine's
    KENG-50 rule, ``cards_visible``)."""
    return cards_visible(e, None if perspective == AUDITOR else int(perspective))


def _payload(e: Event) -> dict[str, Any]:
    try:
        obj = json.loads(e.payload or "{}")
    except json.JSONDecodeError:
        return {}
    return obj if isinstance(obj, dict) else {}


def _suit_name(value: int) -> str:
    return SUIT_SYMBOLS[SUITS[value]] if 0 <= value < 4 else "?"


def event_detail(e: Event) -> str:
    """What an event means beyond its cards, in a few words (no hidden information)."""
    k = e.kind
    if k == "GAME_START":
        p = _payload(e)
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
        p = _payload(e)
        team = p.get("winning_team")
        return f"{e.tag or p.get('reason', '?')}: " + (f"team {team} wins" if team else "no winner")
    bits = []
    if e.target != NONE:
        bits.append(f"target {e.target}")
    if e.value != NONE:
        bits.append(f"value {e.value}")
    if e.tag:
        bits.append(e.tag)
    return " ".join(bits)


def event_row(e: Event, perspective: int | str, players: Sequence[str] = ()) -> dict[str, Any]:
    """One event as a display row: seq, seat, player, kind, cards (faces or hidden), detail."""
    visible = can_see_cards(e, perspective)
    player = players[e.seat] if 0 <= e.seat < len(players) else ""
    return {
        "seq": e.seq,
        "seat": e.seat if e.seat >= 0 else None,
        "player": player,
        "kind": e.kind,
        "cards": [format_face(c) for c in e.cards] if visible else [],
        "hidden": 0 if visible else len(e.cards),
        "detail": event_detail(e),
    }


def event_rows(events: Sequence[Event], perspective: int | str = AUDITOR,
               players: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Display rows of a game's events as this perspective may see them."""
    return [event_row(e, perspective, players) for e in events]


def events_text_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with cards as one plain-text string with suit symbols (for a data frame)."""
    return [{**r, "cards": f"{r['hidden']} hidden" if r["hidden"]
             else " ".join(pretty_face(parse_face(f)) for f in r["cards"])} for r in rows]


def event_line_html(row: dict[str, Any], last: int) -> str:
    """The current event as one escaped line: 'seq 12 / 88 · seat 3 (p) PLAY T♥'."""
    cards = hidden_html(row["hidden"]) if row["hidden"] else cards_html(row["cards"], empty="")
    who = (f"seat {int(row['seat'])} ({escape(str(row['player']))}) "
           if row["seat"] is not None else "")
    return (f'<div class="lj-now-line" style="font-size:1.05rem"><b>seq {int(row["seq"])} / '
            f"{int(last)}</b> · {who}<b>{escape(str(row['kind']))}</b> {cards} "
            f"{escape(str(row['detail']))}</div>")


EVENTS_CSS = """
.lj-events{width:100%;border-collapse:collapse;font-family:system-ui,sans-serif;font-size:.85rem}
.lj-events td,.lj-events th{padding:.15rem .4rem;border-bottom:1px solid #e5e7eb;text-align:left}
.lj-events tr.lj-now{background:#fff3c4;font-weight:600}
.lj-events tr.lj-now td:first-child{border-left:4px solid #d97706}
.lj-events .lj-more{color:#57606a;font-style:italic}
""".strip()


def events_html(rows: Sequence[dict[str, Any]], current: int, before: int = 8,
                after: int = 12, *, style: bool = True) -> str:
    """A window of the event list around the current seq, that row highlighted, escaped."""
    lo = max(0, current - before)
    hi = min(len(rows), current + after + 1)
    out = [f"<style>{EVENTS_CSS}</style>" if style else "",
           '<table class="lj-events"><thead><tr><th>seq</th><th>seat</th><th>player</th>'
           "<th>event</th><th>cards</th><th>detail</th></tr></thead><tbody>"]
    if lo > 0:
        out.append(f'<tr><td colspan="6" class="lj-more">… {lo} earlier events</td></tr>')
    for r in rows[lo:hi]:
        now = r["seq"] == current
        cards = hidden_html(r["hidden"]) if r["hidden"] else cards_html(r["cards"], empty="")
        seat = "" if r["seat"] is None else str(int(r["seat"]))
        cls = ' class="lj-now"' if now else ""
        out.append(
            f'<tr{cls} data-seq="{int(r["seq"])}">'
            f"<td>{'▶ ' if now else ''}{int(r['seq'])}</td><td>{seat}</td>"
            f"<td>{escape(str(r['player']))}</td><td>{escape(str(r['kind']))}</td>"
            f"<td>{cards}</td><td>{escape(str(r['detail']))}</td></tr>")
    if hi < len(rows):
        out.append(f'<tr><td colspan="6" class="lj-more">… {len(rows) - hi} later events</td>'
                   "</tr>")
    out.append("</tbody></table>")
    return "".join(out)
