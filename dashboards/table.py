"""The card table as HTML: six seats around the centre, from a game's ``view`` dict.

``table_html(game, view, players)`` and ``centre_html(game, view)`` dispatch to the game's
table module in ``dashboards/tables/`` (``TABLES``; a game without one gets the generic table),
which builds on the shared pieces here: card faces, hidden hands, seat panels, the layout.
Pure functions (no Streamlit), so the rendering is unit-tested on its own. Everything taken
from the view (player ids, faces, reasons) is escaped; red is hearts, diamonds and ``RJ``.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Sequence
from html import escape
from types import ModuleType
from typing import Any

from engine.cards import SUIT_SYMBOLS, is_red, parse_face, pretty_face
from engine.errors import InvalidEvent
from engine.events import Event

JOKER_NAMES = {"BJ": "小王 black joker", "RJ": "大王 red joker"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "c": "clubs", "d": "diamonds"}
N_SEATS = 6
# The dashboard's table module per game id (engine.games.GAMES); any other game gets GENERIC.
TABLES = {"keng": "dashboards.tables.keng", "gouji": "dashboards.tables.gouji"}
GENERIC = "dashboards.tables.generic"
# Where each seat sits, counting counter-clockwise from the bottom of the picture.
POSITIONS = ("bottom", "lower-right", "upper-right", "top", "upper-left", "lower-left")

TABLE_CSS = """
.lj-table{display:grid;gap:.45rem;grid-template-columns:1fr 1.35fr 1fr;
 grid-template-areas:". top ." "upper-left centre upper-right"
 "lower-left centre lower-right" ". bottom .";font-family:system-ui,sans-serif;
 font-size:.92rem;color:#1f2328}
.lj-seat{border:1px solid #c9ccd1;border-radius:.6rem;padding:.4rem .55rem;background:#f7f8fa}
.lj-seat.lj-act{border:2px solid #d97706;background:#fff7e6}
.lj-seat.lj-me{box-shadow:0 0 0 2px #2563eb inset}
.lj-seat.lj-won{background:#ecfdf3}
.lj-seat-head{display:flex;justify-content:space-between;gap:.4rem;flex-wrap:wrap}
.lj-name{font-weight:600}
.lj-team{font-size:.75rem;color:#57606a}
.lj-flags{font-size:.75rem;color:#9a3412;margin-top:.15rem}
.lj-centre{grid-area:centre;border:2px solid #166534;border-radius:50%/30%;
 background:#e9f5ec;padding:.8rem 1.2rem;text-align:center;display:flex;
 flex-direction:column;justify-content:center;gap:.3rem}
.lj-top{font-size:1.35rem}
.lj-info{font-size:.82rem;color:#24292f}
.lj-pending{font-weight:600;color:#b42318}
.lj-card{display:inline-block;min-width:1.9em;padding:.05em .25em;margin:.08em;
 border:1px solid #8c959f;border-radius:.25em;background:#fff;text-align:center;
 font-weight:600;font-family:ui-monospace,monospace;color:#111}
.lj-card.lj-red{color:#c8102e}
.lj-card.lj-joker{font-style:italic}
.lj-back{display:inline-block;padding:.05em .4em;border:1px solid #8c959f;
 border-radius:.25em;background:repeating-linear-gradient(45deg,#dbe4f3,#dbe4f3 4px,#c2d0ea 4px,
 #c2d0ea 8px);color:#1f2f55;font-weight:600}
.lj-suit-red{color:#c8102e}
.lj-perspective{font-size:.8rem;color:#57606a;text-align:right}
""".strip()


def card_html(face: str) -> str:
    """One card face as a span: 'Th' -> T♥ in red; jokers show BJ/RJ with their Chinese name."""
    try:
        code = parse_face(face)
    except InvalidEvent:
        return f'<span class="lj-card" title="unknown face">{escape(str(face))}</span>'
    classes = "lj-card"
    if is_red(code):
        classes += " lj-red"
    if code >= 52:
        classes += " lj-joker"
    title = JOKER_NAMES.get(face, face)
    return (f'<span class="{classes}" data-face="{escape(face)}" title="{escape(title)}">'
            f"{escape(pretty_face(code))}</span>")


def cards_html(faces: Iterable[str], empty: str = "–") -> str:
    """Several faces as card spans, or ``empty`` when there are none."""
    out = "".join(card_html(f) for f in faces)
    return out or f'<span class="lj-info">{escape(empty)}</span>'


def suit_html(suit: str | None) -> str:
    """A suit letter as its symbol, red for hearts and diamonds."""
    if suit not in SUIT_SYMBOLS:
        return ""
    cls = "lj-suit-red" if suit in ("h", "d") else "lj-suit"
    return f'<span class="{cls}" title="{SUIT_NAMES[suit]}">{SUIT_SYMBOLS[suit]}</span>'


def hidden_html(n: int) -> str:
    """A hidden hand: the card back and how many cards it holds."""
    return f'<span class="lj-back" title="{n} hidden cards">🂠 × {int(n)}</span>'


def perspective_label(view: dict[str, Any]) -> str:
    """Who is looking: 'auditor (all cards)' or 'seat 3 (own cards only)'."""
    p = view.get("perspective", "auditor")
    return "auditor (all cards)" if p == "auditor" else f"seat {p} (own cards only)"


def bottom_seat(view: dict[str, Any]) -> int:
    """The seat drawn at the bottom: the viewing seat, or seat 0 for the auditor."""
    persp = view.get("perspective", "auditor")
    return persp if isinstance(persp, int) and 0 <= persp < N_SEATS else 0


def seat_panel_html(seat: int, player: str, hand: Any, *, team: str | None = None,
                    flags: Sequence[str] = (), to_act: bool = False, me: bool = False,
                    won: bool = False, area: str = "") -> str:
    """One seat's panel: number, player, team, hand (faces, or a hidden count) and flags."""
    classes = ["lj-seat"] + ["lj-act"] * to_act + ["lj-me"] * me + ["lj-won"] * won
    if isinstance(hand, int):
        n, body = hand, hidden_html(hand)
    else:
        hand = list(hand or [])
        n, body = len(hand), cards_html(hand, empty="no cards")
    marker = "▶ " if to_act else ""
    team_text = f"team {escape(team)} · " if team else ""
    flag_html = (f'<div class="lj-flags">{escape(" · ".join(flags))}</div>' if flags else "")
    return (
        f'<div data-seat="{seat}" class="{" ".join(classes)}" style="grid-area:{area}">'
        f'<div class="lj-seat-head"><span class="lj-name">{marker}seat {seat} · '
        f"{escape(player)}</span>"
        f'<span class="lj-team">{team_text}{n} card{"s" * (n != 1)}'
        f'{" · to act" if to_act else ""}{" · won" if won else ""}</span></div>'
        f"<div>{body}</div>{flag_html}</div>"
    )


def seat_names(view: dict[str, Any], players: Sequence[str] | None) -> list[str]:
    """The six player names: the given ones, else the view's, padded with ''."""
    names = [str(p) for p in (players if players is not None else view.get("players") or [])]
    return names + [""] * (N_SEATS - len(names))


def layout_html(view: dict[str, Any], seats: Sequence[str], centre: str, *,
                style: bool = True) -> str:
    """The whole table: the perspective line, then the seat panels around the centre."""
    css = f"<style>{TABLE_CSS}</style>" if style else ""
    head = (f'<div class="lj-perspective">view: {escape(perspective_label(view))} · '
            f"{escape(str(view.get('game_id', '')))} · after seq {int(view.get('seq', 1)) - 1}</div>")
    return f'{css}{head}<div class="lj-table">{"".join(seats)}{centre}</div>'


def event_payload(e: Event) -> dict[str, Any]:
    """An event's JSON payload as a dict ({} when absent or not an object)."""
    try:
        obj = json.loads(e.payload or "{}")
    except json.JSONDecodeError:
        return {}
    return obj if isinstance(obj, dict) else {}


def table_module(game: str) -> ModuleType:
    """The table module of a game id (``TABLES``), else the generic one."""
    return importlib.import_module(TABLES.get(game, GENERIC))


def table_html(game: str, view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole table of a game as one HTML fragment: six seats around the centre, escaped."""
    return table_module(game).table_html(view, players, style=style)


def centre_html(game: str, view: dict[str, Any]) -> str:
    """The middle of a game's table (top play, pending effects, turn, result), escaped."""
    return table_module(game).centre_html(view)
