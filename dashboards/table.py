"""The card table as HTML: six seats around the top play, from a game's ``view`` dict.

Pure functions (no Streamlit), so the rendering is unit-tested on its own. Everything taken
from the view (player ids, faces, reasons) is escaped; red is hearts, diamonds and ``RJ``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from engine.cards import SUIT_SYMBOLS, is_red, parse_face, pretty_face
from engine.errors import InvalidEvent

JOKER_NAMES = {"BJ": "小王 black joker", "RJ": "大王 red joker"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "c": "clubs", "d": "diamonds"}
TEAM_OF_SEAT = ("even", "odd", "even", "odd", "even", "odd")
DIRECTION_TEXT = {
    1: ("↺", "0→1→2→3→4→5 (counter-clockwise)"),
    -1: ("↻", "0→5→4→3→2→1 (clockwise, reversed by J)"),
}
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


def _seat_to_act(view: dict[str, Any]) -> int | None:
    if view.get("phase") not in ("play", "start"):
        return None
    duel = view.get("duel")
    if duel:
        return int(duel["to_act"])
    return int(view.get("to_act", -1))


def _winning_team(view: dict[str, Any]) -> str | None:
    result = view.get("result") or {}
    return result.get("winning_team") if view.get("phase") == "over" else None


def _seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    flags = []
    duel = view.get("duel")
    if duel:
        if duel["challenger"] == seat:
            flags.append("duel: challenger")
        if duel["defender"] == seat:
            flags.append("duel: defender")
    if (view.get("banned") or [False] * 6)[seat]:
        flags.append("banned from 抢")
    if view.get("last_card_obligation") == seat:
        flags.append("must report last card")
    if (view.get("count_used") or [False] * 6)[seat]:
        flags.append("count right used")
    top = view.get("top") or {}
    if top.get("seat") == seat and top.get("cards"):
        flags.append("played the top card")
    result = view.get("result") or {}
    if view.get("phase") == "over" and result.get("deciding_seat") == seat:
        flags.append({"out": "went out", "over_limit": "over the hand limit"}.get(
            result.get("reason"), "decided the game"))
    return flags


def seat_html(view: dict[str, Any], seat: int, player: str, *, to_act: bool = False,
              me: bool = False, won: bool = False, area: str = "") -> str:
    """One seat's panel: number, player, team, hand (faces or a hidden count) and flags."""
    hand = view["hands"][seat]
    classes = ["lj-seat"] + ["lj-act"] * to_act + ["lj-me"] * me + ["lj-won"] * won
    if isinstance(hand, int):
        n, body = hand, hidden_html(hand)
    else:
        n, body = len(hand), cards_html(hand, empty="no cards")
    team = TEAM_OF_SEAT[seat]
    marker = "▶ " if to_act else ""
    flags = _seat_flags(view, seat)
    flag_html = (f'<div class="lj-flags">{escape(" · ".join(flags))}</div>' if flags else "")
    return (
        f'<div data-seat="{seat}" class="{" ".join(classes)}" style="grid-area:{area}">'
        f'<div class="lj-seat-head"><span class="lj-name">{marker}seat {seat} · '
        f"{escape(player)}</span>"
        f'<span class="lj-team">team {team} · {n} card{"s" * (n != 1)}'
        f'{" · to act" if to_act else ""}{" · won" if won else ""}</span></div>'
        f"<div>{body}</div>{flag_html}</div>"
    )


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
    if p:
        out.append(f"pending draw: {p} cards for seat {int(view.get('to_act', -1))}")
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
    if view.get("drawn_two") and view.get("phase") == "play":
        out.append(f"seat {int(view.get('to_act', -1))} has drawn two this turn")
    return [f'<div class="lj-pending">{line}</div>' for line in out]


def centre_html(view: dict[str, Any]) -> str:
    """The middle of the table: top play, pending effects, direction, stock, cycle, turn."""
    stock = view.get("stock")
    n_stock = stock if isinstance(stock, int) else len(stock or [])
    arrow, dir_text = DIRECTION_TEXT.get(int(view.get("direction", 1)), ("?", "unknown"))
    to_act = _seat_to_act(view)
    phase = str(view.get("phase", ""))
    parts = [_top_html(view), *_pending_lines(view)]
    turn = f"seat {to_act} to act" if to_act is not None else escape(phase)
    if phase == "over":
        result = view.get("result") or {}
        team = result.get("winning_team")
        turn = (f"game over: {escape(str(result.get('reason', '?')))}, "
                + (f"team {escape(str(team))} wins" if team else "no winner"))
    parts.append(f'<div class="lj-info"><b>{turn}</b></div>')
    window = "open" if view.get("snatch_window_open") else "closed"
    parts.append(
        f'<div class="lj-info" title="{escape(dir_text)}">direction {arrow} '
        f"{escape(dir_text)}</div>"
        f'<div class="lj-info">stock {n_stock} · played under top '
        f"{len(view.get('table') or [])} · cycle {int(view.get('cycle', 1))} · "
        f"snatch (抢) window {window} · passes in a row {int(view.get('passes_in_a_row', 0))}</div>"
    )
    return f'<div class="lj-centre">{"".join(parts)}</div>'


def perspective_label(view: dict[str, Any]) -> str:
    """Who is looking: 'auditor (all cards)' or 'seat 3 (own cards only)'."""
    p = view.get("perspective", "auditor")
    return "auditor (all cards)" if p == "auditor" else f"seat {p} (own cards only)"


def table_html(view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole table as one HTML fragment: six seats around the centre, escaped."""
    names = list(players) if players is not None else list(view.get("players") or [])
    names += [""] * (6 - len(names))
    persp = view.get("perspective", "auditor")
    bottom = persp if isinstance(persp, int) and 0 <= persp < 6 else 0
    to_act = _seat_to_act(view)
    won = _winning_team(view)
    seats = []
    for seat in range(6):
        area = POSITIONS[(seat - bottom) % 6]
        seats.append(seat_html(
            view, seat, str(names[seat]), to_act=seat == to_act, me=seat == persp,
            won=won is not None and TEAM_OF_SEAT[seat] == won, area=area))
    css = f"<style>{TABLE_CSS}</style>" if style else ""
    head = (f'<div class="lj-perspective">view: {escape(perspective_label(view))} · '
            f"{escape(str(view.get('game_id', '')))} · after seq {int(view.get('seq', 1)) - 1}</div>")
    return f'{css}{head}<div class="lj-table">{"".join(seats)}{centre_html(view)}</div>'
