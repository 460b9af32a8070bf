"""What each seat knows (section 14): the seat's view of the table (LH-69, LH-70) and each
event as the seat saw it.

Hidden: the ring and the wall order (the auditor only); other seats' concealed cards; the card
of another seat's draw; who was eligible in a window and who passed: a seat does not see that
another seat's RESPOND happened at all, nor an AWARD that executes nothing (``event_hidden``;
``seen_event`` still blanks such a RESPOND for a caller that lists it), WINDOW shows only
its card and discarder, and a window that closed with no claim looks open until the next
event every seat sees (a discard's until the DRAW, a 加杠's, its kong not yet made, until the
replacement DRAW). Public: discards, melds (a 暗杠's face), calls (at the AWARD), at a win
the winner's whole hand and split, payments.
"""

from __future__ import annotations

import json
from typing import Any

from engine.events import NONE, Event
from engine.games.common import faces
from engine.games.liuhu.cards import SEATS
from engine.games.liuhu.game import outcomes, to_move
from engine.games.liuhu.rules import next_auto
from engine.games.liuhu.state import (
    AWARD,
    CHI,
    DISCARD_WINDOW,
    DRAW,
    MING_GANG,
    PENG,
    RESPOND,
    ROB_WINDOW,
    WINDOW,
    LhState,
    Meld,
)
from engine.games.liuhu.window import eligible_json

HIDDEN_CARDS = frozenset({"GAME_START", "DEAL"})


def cards_visible(e: Event, seat: int | None) -> bool:
    """True if the seat (None: auditor) may see all of this event's cards: the ring and the
    deal nobody whole (each seat its own hand), a draw and a 吃 answer only their seat."""
    if seat is None or not e.cards:
        return True
    if e.kind in HIDDEN_CARDS:
        return False
    if e.kind in ("DRAW", "RESPOND"):
        return e.seat == seat
    return True


def event_hidden(e: Event, seat: int | None) -> bool:
    """True if the seat does not see that this event happened (LH-70): another seat's RESPOND
    (its number would tell how many seats were eligible), and an AWARD that executes nothing
    (it would tell that some seat was eligible and passed); the auditor (None) sees all."""
    if seat is None:
        return False
    kind = e.kind
    if kind == "RESPOND":
        return e.seat != seat
    return kind == "AWARD" and e.target < 0


def window_seats(s: LhState) -> tuple[int, ...]:
    """The seats that answer the open claim window together (LH-34: every eligible seat,
    its answer secret until all are in, logged in turn order), () when none is open; the
    audit's optional hook for who could act at a RESPOND."""
    return tuple(x for x, _ in s.eligible) if s.phase == RESPOND else ()


def deal_part(e: Event, seat: int) -> tuple[int, ...]:
    """The cards of a DEAL event that went to the seat (seat 0's first; the dealer, the
    GAME_START's target, holds one more)."""
    n = len(e.cards)
    h = (n - 1) // SEATS
    dealer = e.target if 0 <= e.target < SEATS else -1
    start = seat * h + (1 if 0 <= dealer < seat else 0)
    size = h + (1 if seat == dealer else 0)
    return e.cards[start:start + size]


def seen_event(e: Event, seat: int | None) -> Event:
    """The event as the seat saw it (LH-69, LH-70); the auditor sees it whole."""
    if seat is None:
        return e
    k = e.kind
    if k == "GAME_START":
        return e._replace(cards=())
    if k == "DEAL":
        return e._replace(cards=deal_part(e, seat))
    if k == "DRAW" and e.seat != seat:
        return e._replace(cards=())
    if k == "WINDOW":
        return e._replace(value=NONE, payload=None)
    if k == "RESPOND" and e.seat != seat:
        return e._replace(seat=NONE, cards=(), tag="")
    return e


def _before_kong(row: tuple[Meld, ...], card: int) -> tuple[Meld, ...]:
    """The seat's melds with the 明杠 its 加杠 of ``card`` made shown as the 碰 it was (the
    pack holds at most four of a face, LH-4: one meld of four of it)."""
    return tuple((PENG, cards[:3], frm, claimed)
                 if kind == MING_GANG and cards[0] == card else (kind, cards, frm, claimed)
                 for kind, cards, frm, claimed in row)


def _meld_view(m: tuple) -> dict[str, Any]:
    kind, cards, frm, card = m
    return {"kind": kind, "cards": faces(cards), "from": None if frm < 0 else frm,
            "card": faces((card,))[0] if card >= 0 else None}


def _hands(s: LhState, seat: int | None) -> list[Any]:
    winners = {h[0]: h[5] for h in s.hus}
    out: list[Any] = []
    for i, h in enumerate(s.hands):
        if seat is None or i == seat:
            out.append(faces(h))
        elif i in winners:
            out.append(faces(winners[i]))          # LH-69: the winner's whole hand
        else:
            out.append(len(h))
    return out


def _window(s: LhState, seat: int | None) -> dict[str, Any] | None:
    if not s.w_kind:
        return None
    w: dict[str, Any] = {"kind": s.w_kind, "card": faces((s.w_card,))[0], "from": s.w_from}
    if seat is None:
        w["eligible"] = eligible_json(s)
        w["answers"] = [[x, c[0], *faces(c[1])] if c[0] == CHI else [x, c[0]]
                        for x, c in s.answers]
    elif s.calls:
        w["calls"] = [f"{x} {c[0]}" for x, c in s.calls]
    return w


def view(s: LhState, seat: int | None) -> dict[str, Any]:
    """What a seat knew at this moment (section 14); seat None is the auditor."""
    auditor = seat is None
    oc = outcomes(s)
    mover = to_move(s)
    phase = s.phase
    window = _window(s, seat)
    melds = s.melds
    if not auditor and (phase in (WINDOW, RESPOND, AWARD, DRAW) or s.rob_closed >= 0):
        # LH-70: eligibility and answers are hidden, so a discard's window that closed with
        # no claim (DRAW: the next seat's draw is owed) looks open until that draw, as it
        # does while eligible seats answer; else a seat could tell whether anyone could claim
        if phase == DRAW and s.pool:
            frm, card = s.pool[-1]
            window = {"kind": DISCARD_WINDOW, "card": faces((card,))[0], "from": frm}
        elif s.rob_closed >= 0:
            # likewise a 加杠's robbing window that closed with no 胡 (LH-29; TAIL: the
            # replacement draw owed) looks open, the kong not yet made, until that draw
            seat_on, card = s.turn, s.rob_closed
            window = {"kind": ROB_WINDOW, "card": faces((card,))[0], "from": seat_on}
            melds = melds[:seat_on] + (_before_kong(melds[seat_on], card),) + \
                melds[seat_on + 1:]
        phase = "window"
        mover = mover if mover == seat else -1
    v: dict[str, Any] = {
        "game": "liuhu", "game_id": s.game_id, "seq": s.seen_seq(seat), "phase": phase,
        "players": list(s.players), "perspective": "auditor" if auditor else seat,
        "hands": _hands(s, seat), "hand_sizes": [len(h) for h in s.hands],
        "to_act": None if mover < 0 else mover, "sides": [None] * SEATS,
        "outcomes": None if oc is None else [o._asdict() for o in oc],
        "options": s.options.to_dict(), "hand": s.hand_no, "dealer": s.dealer,
        "first_dealer": s.first_dealer, "dice": list(s.dice), "wall_size": s.wall_size(),
        "turn": s.turn, "melds": [[_meld_view(m) for m in row] for row in melds],
        "pool": [{"seat": x, "card": faces((c,))[0]} for x, c in s.pool],
        "window": window,
        "wins": [{"seat": x, "type": kind, "card": faces((c,))[0] if c >= 0 else None,
                  "payer": None if p < 0 else p, "total": t, "concealed": faces(conc),
                  "split": json.loads(split)} for x, kind, c, p, t, conc, split in s.hus],
        "changes": list(s.changes) or None, "balances": list(s.balances),
        "next_dealer": None if s.next_dealer < 0 else s.next_dealer,
        "result": None if s.result is None else json.loads(s.result),
    }
    if s.drawn >= 0 and (auditor or seat == s.turn):
        v["drawn"] = faces((s.drawn,))[0]
    if auditor:
        v["next_auto"] = next_auto(s)
        v["break"] = s.brk
        v["wall"] = faces(s.wall[s.front:s.tail + 1])
        v["ring"] = faces(s.ring)
    return v
