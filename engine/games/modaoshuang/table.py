"""摸到爽's table as the neutral model (``engine.table``): 3–5 seats, each for himself, and
what an event means in words (``describe``).

Each seat shows its hand (faces, or a hidden count), the card it played this round and its
flags (leader, collector, a report due, a missed report owed, a penalty in progress, a gift to
give, the winner, 点炮, what it pays) and, once over, its outcome with place and score. The
centre shows the cards played this round, the round (number, suit, leader, cards played, turns
taken, the final round), the collector and the duties in progress, whose turn it is, the phase
(摸牌, 收到爽 or the final round), the stock and the dead cards, the suit draw and, once over,
the settlement as a grid. Only reads the view (``engine.games.modaoshuang.position.view``);
player and game ids are made safe for a terminal (``engine.text.safe_text``); nothing here
draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.cards import SUIT_SYMBOLS, SUITS
from engine.events import NONE, Event
from engine.table import (
    Faces,
    Grid,
    Line,
    Part,
    Suit,
    TableModel,
    Text,
    as_dict,
    as_int,
    as_list,
    base_seat,
    event_payload,
    face_text,
    faces_of,
    generic_detail,
    line,
    model,
    result_summary,
    seat_count,
    seat_list,
    seat_names,
    seat_or_none,
    signed,
    to_act_seat,
)
from engine.text import safe_text

TITLE = "摸到爽"
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
    return as_dict(view.get("round"))


def _plays(view: dict[str, Any]) -> list[tuple[int, str]]:
    """The cards played this round, in order: (seat, face)."""
    out = []
    for p in as_list(_round(view).get("plays")):
        seat = seat_or_none(view, p.get("seat")) if isinstance(p, dict) else None
        if seat is not None:
            out.append((seat, str(p.get("card"))))
    return out


def _result_list(view: dict[str, Any], key: str) -> list[Any]:
    return as_list(as_dict(view.get("result")).get(key))


def _cause(cause: Any) -> str:
    return CAUSE_TEXT.get(cause, str(cause))


def penalty_what(pen: dict[str, Any]) -> str:
    """A penalty in progress in words: its cause, then the draws left or who may give."""
    if pen.get("kind") == "draws":
        return f"{_cause(pen.get('cause'))}, {pen.get('draws_left')} draw(s) left"
    givers = ", ".join(map(str, as_list(pen.get("gift_seats")))) or "none"
    return f"{_cause(pen.get('cause'))}, gifts from seats {givers}"


def _duty_flags(view: dict[str, Any], seat: int) -> list[str]:
    """A seat's part in the duties in progress: a report, missed reports, a penalty, a gift."""
    flags = []
    rep = as_dict(view.get("report"))
    if seat_or_none(view, rep.get("seat")) == seat:
        flags.append(f"must announce {rep.get('count')} cards left")
    for m in as_list(view.get("missed_reports")):
        if isinstance(m, dict) and seat_or_none(view, m.get("seat")) == seat:
            flags.append(f"penalty owed: {_cause(m.get('cause'))}")
    pen = as_dict(view.get("penalty"))
    if seat_or_none(view, pen.get("seat")) == seat:
        flags.append("penalty in progress: " + penalty_what(pen))
    if seat in seat_list(view, pen.get("gift_seats")):
        flags.append(f"may give a card to seat {pen.get('seat')}")
    return flags


def seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    """A seat's flags: leader, its card this round, collector, duties, winner, 点炮, payment."""
    flags = []
    r = _round(view)
    if seat_or_none(view, r.get("leader")) == seat and view.get("phase") == "play":
        flags.append("leads this round")
    flags += [f"played {face_text(face)} this round" for s, face in _plays(view) if s == seat]
    if seat_or_none(view, r.get("collector")) == seat:
        flags.append("collects this round's cards (收到爽)")
    flags += _duty_flags(view, seat)
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


# ---------------------------------------------------------------- centre

def round_lines(view: dict[str, Any]) -> list[Line]:
    """The cards played this round (the top line), the round's facts, the collector."""
    r = _round(view)
    number = as_int(r.get("number"))
    if view.get("phase") == "over":
        top = line("the game is over", kind="top")
    elif not number:
        return [line("no round yet", kind="top")]
    else:
        parts: list[Part] = []
        for s, face in _plays(view):
            parts += [" " if parts else "", Text(f"seat {s}", "small"), " ", Faces((face,))]
        top = Line(tuple(parts) or ("no card played yet",), kind="top",
                   title="cards played this round")
    if not number:
        return [top]
    suit = r.get("suit")
    suit_parts: tuple[Part, ...] = (("suit ", Suit(suit)) if suit in SUIT_SYMBOLS
                                     else ("suit set by the lead",))
    leader = seat_or_none(view, r.get("leader"))
    final = " · final round" if view.get("final_round") else ""
    out = [top, line(f"round {number} · ", *suit_parts,
                     f" · leader seat {leader if leader is not None else '?'}")]
    if view.get("phase") != "over":
        out.append(line(f"{len(_plays(view))} played, {as_int(r.get('turns')) or 0} turns "
                        f"taken{final}"))
    collector = seat_or_none(view, r.get("collector"))
    if collector is not None:
        out.append(line(f"seat {collector} collects this round's cards (收到爽)",
                        kind="pending"))
    return out


def duty_texts(view: dict[str, Any]) -> list[str]:
    """The duties in progress in words: a report due, missed reports owed, a penalty, a hand
    emptied with a violation, the winner gone out before the final round ends."""
    out = []
    rep = as_dict(view.get("report"))
    if rep:
        out.append(f"report due: seat {rep.get('seat')} must announce {rep.get('count')} cards "
                   "before the next card is played")
    for m in as_list(view.get("missed_reports")):
        if isinstance(m, dict):
            out.append(f"penalty owed by seat {m.get('seat')}: {_cause(m.get('cause'))}")
    pen = as_dict(view.get("penalty"))
    if pen:
        out.append(f"penalty in progress for seat {pen.get('seat')}: {penalty_what(pen)}")
    pending = seat_or_none(view, view.get("out_pending"))
    if pending is not None:
        out.append(f"seat {pending} emptied its hand with a violation: the penalty comes first")
    dp = seat_or_none(view, view.get("dianpao"))
    winner = seat_or_none(view, view.get("winner"))
    if winner is not None and view.get("phase") != "over":
        out.append(f"seat {winner} has gone out"
                   + (f", 点炮 seat {dp}" if dp is not None else "") + ": the final round")
    return out


def turn_text(view: dict[str, Any], players: Sequence[str] | None = None) -> str:
    """Whose turn it is, the automatic event owed, or the result: plain text."""
    summary = result_summary(view, players)
    if summary:
        return f"game over: {summary}"
    seat = to_act_seat(view)
    if seat is not None:
        giving = seat in seat_list(view, as_dict(view.get("penalty")).get("gift_seats"))
        return f"seat {seat} " + ("to give a card or not" if giving else "to act")
    auto = view.get("next_auto")
    if auto:
        return f"next: {AUTO_TEXT.get(auto, auto)}"
    return PHASE_TEXT.get(str(view.get("phase")), str(view.get("phase", "")))


def stage_text(view: dict[str, Any]) -> str:
    """The phase and the stage of play: 'phase: play (摸牌)', '… (收到爽)', '… (final round)'."""
    stage = "收到爽" if view.get("shoudaoshuang") else "摸牌"
    if view.get("final_round"):
        stage = "final round"
    return f"phase: {view.get('phase', '?')} ({stage})"


def stock_lines(view: dict[str, Any]) -> list[Line]:
    """The stage, the stock (or the 收到爽 phase) with the dead cards, and the suit draw."""
    stock = as_int(view.get("stock_size"))
    phase = "收到爽 phase: the stock is empty" if view.get("shoudaoshuang") else (
        f"stock {stock}" if stock is not None else "stock ?")
    out = [line(stage_text(view)),
           line(f"{phase} · dead cards {as_int(view.get('dead_count')) or 0}")]
    sd = as_dict(view.get("suit_draw"))
    if sd.get("suit") in SUIT_SYMBOLS:
        shown = faces_of(sd.get("cards"))
        out.append(line("round 1 suit ", Suit(sd["suit"]), f" drawn by seat {sd.get('drawer')}",
                        " (" if shown else None, shown or None,
                        ")" if shown else None))
    return out


def settlement(view: dict[str, Any]) -> list[Grid]:
    """Once over, the settlement: who went out, 点炮, and per seat the points left in hand,
    the payment and the score."""
    r = as_dict(view.get("result"))
    if not r:
        return []
    scores, payments, sums = (_result_list(view, k) for k in ("scores", "payments", "face_sums"))
    dp = r.get("dianpao")
    caption = (f"seat {r.get('winner')} went out"
               + (f", 点炮 seat {dp}" if isinstance(dp, int) else ", no 点炮")
               + f" · settlement {r.get('settlement')}")
    rows = tuple(((f"seat {i}",), (str(sums[i]),), (str(payments[i]),), (signed(scores[i]),))
                 for i in range(seat_count(view))
                 if i < min(len(scores), len(payments), len(sums)))
    return [Grid(caption, ("seat", "left", "pays", "score"), rows)]


def centre(view: dict[str, Any], players: Sequence[str] | None = None) -> list[Line | Grid]:
    """The middle of the table: the round, duties, the turn, the stock and the settlement."""
    return [*round_lines(view), *(line(t, kind="pending") for t in duty_texts(view)),
            line(turn_text(view, players), kind="turn"), *stock_lines(view),
            *settlement(view)]


def table(view: dict[str, Any], players: Sequence[str] | None = None) -> TableModel:
    """The 摸到爽 table of a view (``engine.table.TableModel``)."""
    names = [safe_text(p) for p in seat_names(view, players)]
    seats = (base_seat(view, i, names[i], flags=tuple(seat_flags(view, i)))
             for i in range(len(names)))
    m = model(TITLE, view, seats, centre(view, names))
    return replace(m, game_id=safe_text(m.game_id))


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


def _start_detail(e: Event) -> str:
    p = event_payload(e)
    players = p.get("players")
    n = len(players) if isinstance(players, list) else "?"
    return (f"摸到爽, {n} players, first leader seat {p.get('first_leader', e.value)} "
            f"({e.tag or p.get('first_leader_rule', '?')})")


def _round_end_detail(e: Event) -> str:
    text = f"round {e.value} won by seat {e.seat}"
    if e.target != NONE:
        n = len(e.cards)
        text += f", seat {e.target} collects {n} card{'s' * (n != 1)}"
    return text + (" (final round)" if e.tag == "final" else "")


def describe(e: Event) -> str:
    """What a 摸到爽 event means beyond its cards, in a few words (no hidden information: a
    DRAW's value, whether the seat held the round suit, is not shown)."""
    k = e.kind
    if k == "GAME_START":
        return _start_detail(e)
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
        return _round_end_detail(e)
    if k == "GAME_END":
        return _end_detail(e)
    return generic_detail(e)
