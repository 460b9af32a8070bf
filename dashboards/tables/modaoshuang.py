"""摸到爽 in the dashboard: its table (3–5 seats, each for himself) and its event details.

Only formats the view (``engine.games.modaoshuang.position.view``). Each seat shows its hand
(faces, or a hidden count), the card it played this round and its flags (leader, collector, a
report due, a missed report owed, a penalty in progress, a gift to give, the winner, 点炮) and,
once over, its outcome with score and payment. The centre shows the round (number, suit,
leader, the cards played so far, the collector), the stock (or the 收到爽 phase once it is
empty), the dead cards, the suit draw, the duties in progress, the turn and the settlement.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from dashboards.tables._legacy import (
    card_html,
    cards_html,
    event_payload,
    outcome_of,
    result_summary,
    seat_count,
    seat_list,
    seat_or_none,
    seat_panel_html,
    seats_table_html,
    side_of,
    signed,
    suit_html,
    to_act_seat,
)
from dashboards.tables.generic import generic_detail
from engine.cards import SUIT_SYMBOLS, SUITS, parse_face, pretty_face
from engine.errors import EngineError
from engine.events import NONE, Event

PHASE_TEXT = {
    "deal": "the deal", "suit_draw": "the suit draw", "play": "play",
    "end": "the game is being settled", "over": "game over",
}
CAUSE_TEXT = {"report": "missed report (漏报)", "joker": "joker violation"}
NO_PLAY_TEXT = {
    "no_suit": "plays no card: no card of the round suit (收到爽)",
    "no_lead": "has no card it may lead",
    "final": "plays no card in the final round",
}
AUTO_TEXT = {
    "DEAL": "the deal", "SUIT_DRAW": "the suit draw", "PHASE_SHOUDAOSHUANG": "the 收到爽 phase",
    "DRAW": "a penalty draw", "MISSED_REPORT": "a missed-report penalty",
    "ROUND_END": "the end of the round", "GAME_END": "the settlement",
}


def _round(view: dict[str, Any]) -> dict[str, Any]:
    r = view.get("round")
    return r if isinstance(r, dict) else {}


def _plays(view: dict[str, Any]) -> list[tuple[int, str]]:
    """The cards played this round, in order: (seat, face)."""
    out = []
    for p in _round(view).get("plays") or []:
        seat = seat_or_none(view, p.get("seat")) if isinstance(p, dict) else None
        if seat is not None:
            out.append((seat, str(p.get("card"))))
    return out


def _result_list(view: dict[str, Any], key: str) -> list[Any]:
    values = (view.get("result") or {}).get(key)
    return values if isinstance(values, list) else []


def _pretty(face: Any) -> str:
    """A face with its suit symbol ('T♥'), as plain text (flags are escaped); unknown as is."""
    try:
        return pretty_face(parse_face(str(face)))
    except EngineError:
        return str(face)


def _seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    flags = []
    r = _round(view)
    if seat_or_none(view, r.get("leader")) == seat and view.get("phase") == "play":
        flags.append("leads this round")
    for s, face in _plays(view):
        if s == seat:
            flags.append(f"played {_pretty(face)} this round")
    if seat_or_none(view, r.get("collector")) == seat:
        flags.append("collects this round's cards (收到爽)")
    rep = view.get("report") or {}
    if seat_or_none(view, rep.get("seat")) == seat:
        flags.append(f"must announce {rep.get('count')} cards left")
    for m in view.get("missed_reports") or []:
        if seat_or_none(view, m.get("seat")) == seat:
            flags.append(f"penalty owed: {CAUSE_TEXT.get(m.get('cause'), m.get('cause'))}")
    pen = view.get("penalty") or {}
    if seat_or_none(view, pen.get("seat")) == seat:
        flags.append("penalty in progress: " + _penalty_what(pen))
    if seat in seat_list(view, pen.get("gift_seats")):
        flags.append(f"may give a card to seat {pen.get('seat')}")
    if seat_or_none(view, view.get("out_pending")) == seat:
        flags.append("emptied its hand with a violation: out if the penalty leaves it no card")
    if seat_or_none(view, view.get("winner")) == seat:
        flags.append("went out (winner)")
    if seat_or_none(view, view.get("dianpao")) == seat:
        flags.append("点炮 (fed the winner)")
    payments = _result_list(view, "payments")
    if seat < len(payments) and payments[seat]:
        flags.append(f"pays {payments[seat]}")
    return flags


def _penalty_what(pen: dict[str, Any]) -> str:
    cause = CAUSE_TEXT.get(pen.get("cause"), str(pen.get("cause")))
    if pen.get("kind") == "draws":
        return f"{cause}, {pen.get('draws_left')} draw(s) left"
    givers = ", ".join(map(str, pen.get("gift_seats") or [])) or "none"
    return f"{cause}, gifts from seats {givers}"


def seat_html(view: dict[str, Any], seat: int, player: str, *, area: str = "") -> str:
    """One seat's panel: number, player, hand (faces or a hidden count), outcome and flags."""
    hands = view.get("hands")
    hand = hands[seat] if isinstance(hands, list) and seat < len(hands) else []
    return seat_panel_html(
        seat, player, hand, side=side_of(view, seat), outcome=outcome_of(view, seat),
        flags=_seat_flags(view, seat), to_act=to_act_seat(view) == seat,
        me=seat_or_none(view, view.get("perspective")) == seat, area=area)


# ---------------------------------------------------------------- centre

def _round_html(view: dict[str, Any]) -> str:
    r = _round(view)
    number = r.get("number")
    if view.get("phase") == "over":
        return '<div class="lj-top">the game is over</div>'
    if not number:
        return '<div class="lj-top">no round yet</div>'
    suit = r.get("suit")
    suit_text = (f"suit {suit_html(suit)}" if suit in SUIT_SYMBOLS else "suit set by the lead")
    leader = seat_or_none(view, r.get("leader"))
    plays = _plays(view)
    played = " ".join(f'<span class="lj-info">seat {s}</span> {card_html(face)}'
                      for s, face in plays)
    final = " · final round" if view.get("final_round") else ""
    lines = [f'<div class="lj-top" title="cards played this round">'
             f"{played or 'no card played yet'}</div>",
             f'<div class="lj-info">round {int(number)} · {suit_text} · leader seat '
             f"{leader if leader is not None else '?'} · {len(plays)} played, "
             f"{int(r.get('turns') or 0)} turns taken{final}</div>"]
    collector = seat_or_none(view, r.get("collector"))
    if collector is not None:
        lines.append(f'<div class="lj-pending">seat {collector} collects this round\'s cards '
                     "(收到爽)</div>")
    return "".join(lines)


def _duty_lines(view: dict[str, Any]) -> list[str]:
    out = []
    rep = view.get("report") or {}
    if rep:
        out.append(f"report due: seat {rep.get('seat')} must announce {rep.get('count')} cards "
                   "before the next card is played")
    for m in view.get("missed_reports") or []:
        out.append(f"penalty owed by seat {m.get('seat')}: "
                   f"{CAUSE_TEXT.get(m.get('cause'), m.get('cause'))}")
    pen = view.get("penalty") or {}
    if pen:
        out.append(f"penalty in progress for seat {pen.get('seat')}: {_penalty_what(pen)}")
    pending = seat_or_none(view, view.get("out_pending"))
    if pending is not None:
        out.append(f"seat {pending} emptied its hand with a violation: the penalty comes first")
    dp = seat_or_none(view, view.get("dianpao"))
    winner = seat_or_none(view, view.get("winner"))
    if winner is not None and view.get("phase") != "over":
        out.append(f"seat {winner} has gone out"
                   + (f", 点炮 seat {dp}" if dp is not None else "") + ": the final round")
    return [f'<div class="lj-pending">{escape(line)}</div>' for line in out]


def turn_text(view: dict[str, Any], players: Sequence[str] | None = None) -> str:
    """Whose turn it is, the automatic event owed, or the result: plain text."""
    summary = result_summary(view, players)
    if summary:
        return f"game over: {summary}"
    seat = to_act_seat(view)
    if seat is not None:
        pen = view.get("penalty") or {}
        giving = seat in seat_list(view, pen.get("gift_seats"))
        return f"seat {seat} " + ("to give a card or not" if giving else "to act")
    auto = view.get("next_auto")
    if auto:
        return f"next: {AUTO_TEXT.get(auto, auto)}"
    return PHASE_TEXT.get(str(view.get("phase")), str(view.get("phase", "")))


def _stock_line(view: dict[str, Any]) -> str:
    stock = view.get("stock_size")
    phase = "收到爽 phase: the stock is empty" if view.get("shoudaoshuang") else (
        f"stock {stock}" if stock is not None else "stock ?")
    sd = view.get("suit_draw") or {}
    draw = ""
    if sd.get("suit") in SUIT_SYMBOLS:
        shown = f" ({cards_html(sd['cards'])})" if sd.get("cards") else ""
        draw = (f" · round 1 suit {suit_html(sd['suit'])} drawn by seat "
                f"{escape(str(sd.get('drawer')))}{shown}")
    return (f'<div class="lj-info">{escape(phase)} · dead cards '
            f"{int(view.get('dead_count') or 0)}{draw}</div>")


def _settlement_lines(view: dict[str, Any]) -> list[str]:
    r = view.get("result") or {}
    if not r:
        return []
    n = seat_count(view)
    scores, payments, sums = (_result_list(view, k) for k in ("scores", "payments", "face_sums"))
    dp = r.get("dianpao")
    head = (f"seat {r.get('winner')} went out"
            + (f", 点炮 seat {dp}" if isinstance(dp, int) else ", no 点炮")
            + f" · settlement {r.get('settlement')}")
    rows = [f"seat {i}: left {sums[i]}, pays {payments[i]}, score {signed(scores[i])}"
            for i in range(n) if i < min(len(scores), len(payments), len(sums))]
    return [f'<div class="lj-info">{escape(line)}</div>' for line in [head, *rows]]


def centre_html(view: dict[str, Any]) -> str:
    """The middle of the table: the round, duties, the turn, the stock and the settlement."""
    parts = [_round_html(view), *_duty_lines(view),
             f'<div class="lj-info"><b>{escape(turn_text(view))}</b></div>',
             _stock_line(view), *_settlement_lines(view)]
    return f'<div class="lj-centre">{"".join(parts)}</div>'


def table_html(view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole 摸到爽 table as one HTML fragment: 3–5 seats around the centre, escaped."""
    return seats_table_html(view, players, seat_html, centre_html(view), style=style)


# ---------------------------------------------------------------- events

def _suit_name(value: int) -> str:
    return SUIT_SYMBOLS[SUITS[value]] if 0 <= value < len(SUITS) else "?"


def _end_detail(e: Event) -> str:
    p = event_payload(e)
    winner = p.get("winner", e.target)
    dp = p.get("dianpao")
    text = f"seat {winner} wins" + (f", 点炮 seat {dp}" if isinstance(dp, int) else "")
    scores = p.get("scores")
    if isinstance(scores, list):
        text += ", scores " + " ".join(signed(x) for x in scores)
    return text


def event_detail(e: Event) -> str:
    """What a 摸到爽 event means beyond its cards, in a few words (no hidden information: a
    DRAW's value, whether the seat held the round suit, is not shown)."""
    k = e.kind
    if k == "GAME_START":
        p = event_payload(e)
        players = p.get("players")
        n = len(players) if isinstance(players, list) else "?"
        return (f"摸到爽, {n} players, first leader seat {p.get('first_leader', e.value)} "
                f"({e.tag or p.get('first_leader_rule', '?')})")
    if k == "DEAL":
        return f"{len(e.cards)} cards dealt, stock {e.value}"
    if k == "SUIT_DRAW":
        return f"seat {e.seat} draws the suit of round 1: {_suit_name(e.value)}"
    if k == "PLAY":
        return f"names suit {_suit_name(e.value)}" if e.value != NONE else ""
    if k == "DRAW":
        return "penalty draw" if e.tag == "penalty" else "draws a card"
    if k == "NO_PLAY":
        return NO_PLAY_TEXT.get(e.tag, e.tag)
    if k == "REPORT":
        return f"announces {e.value} cards left"
    if k == "MISSED_REPORT":
        return f"penalty: {CAUSE_TEXT.get(e.tag, e.tag)}"
    if k == "GIFT":
        return f"gives a card to seat {e.target}"
    if k == "PHASE_SHOUDAOSHUANG":
        return "the stock is empty: 收到爽 phase"
    if k == "ROUND_END":
        text = f"round {e.value} won by seat {e.seat}"
        if e.target != NONE:
            n = len(e.cards)
            text += f", seat {e.target} collects {n} card{'s' * (n != 1)}"
        return text + (" (final round)" if e.tag == "final" else "")
    if k == "GAME_END":
        return _end_detail(e)
    return generic_detail(e)
