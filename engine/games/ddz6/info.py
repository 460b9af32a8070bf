"""What each seat knows (section 12, DDZ-91): sides as a viewer knows them, the seat's view of
the table, and each event as the seat saw it (marks record-only, DDZ-92).

Hidden things: the deck order (record only); a 3v3 hidden landlord (himself only, until his
reveal or the end: DDZ-26, DDZ-27); the 2v4 dark mark (nobody until the first landlord is
fixed: DDZ-12); kitty cards (the taker only: DDZ-30, DDZ-34); a zhengfan farmer's side (himself,
the landlords once side choosing ends: DDZ-36); doubling and show-hand choices until all are
made (DDZ-37, DDZ-38). Everything is public once the hand has ended (DDZ-27, DDZ-91).
"""

from __future__ import annotations

import json
from typing import Any

from engine.cards import format_face
from engine.events import NONE, Event
from engine.games.common import faces
from engine.games.ddz6 import setup
from engine.games.ddz6.combos import classify
from engine.games.ddz6.play import declare, side_code, side_names
from engine.games.ddz6.state import DOUBLE, END, OVER, SHOW, SIDE, DdzState

SEATS = setup.SEATS


def ended(s: DdzState) -> bool:
    """True once HAND_END has been applied: every identity and hand is public."""
    return s.phase in (END, OVER)


def open_landlords(s: DdzState) -> tuple[int, ...]:
    """The landlords known to every seat now (DDZ-25, DDZ-26, DDZ-28, DDZ-32)."""
    if s.variant == "3v3":
        return tuple(x for x in s.landlords if x not in s.hidden or x in s.revealed)
    return s.landlords


def _known_code(s: DdzState, seat: int, viewer: int) -> int:
    """The side code of ``seat`` as ``viewer`` knows it, -1 unknown."""
    true = side_code(s, seat)
    if true < 0 or seat == viewer:
        return true
    if s.variant == "zhengfan":
        if seat in s.landlords or s.solo:
            return true
        return true if s.sides_done and viewer in s.landlords else -1
    known = set(open_landlords(s))
    if viewer in s.landlords:
        known.add(viewer)
    if seat in known:
        return 0
    return 1 if s.fixed and len(known) == s.landlord_count() else -1


def known_code(s: DdzState, seat: int, viewer: int) -> int:
    """The side code of ``seat`` as ``viewer`` knows it (``sides``' entry as a code: 0, 1),
    -1 not formed or not known to him."""
    return side_code(s, seat) if ended(s) else _known_code(s, seat, viewer)


def sides(s: DdzState, viewer: int | None = None) -> tuple[str | None, ...]:
    """Each seat's side as the viewer knows it (None: not formed, or not known to him);
    the auditor (None) and everyone after the end see every formed side."""
    names = side_names(s)
    out = []
    for i in range(SEATS):
        k = side_code(s, i) if viewer is None or ended(s) else _known_code(s, i, viewer)
        out.append(None if k < 0 else names[k])
    return tuple(out)


# Roles (the ``roles`` of a view): 3v3 open / hidden landlord (DDZ-24 … DDZ-27), 2v4 big /
# second landlord (DDZ-19, DDZ-22), zhengfan 正 / 反 landlord (DDZ-32), a solo landlord (DDZ-24 C,
# DDZ-29, DDZ-33) and farmers.
OPEN_LORD, HIDDEN_LORD, BIG_LORD, SECOND_LORD = (
    "open_landlord", "hidden_landlord", "big_landlord", "second_landlord")
ZHENG_LORD, FAN_LORD, SOLO_LORD, FARMER_ROLE = (
    "zheng_landlord", "fan_landlord", "solo_landlord", "farmer")
ROLES = (OPEN_LORD, HIDDEN_LORD, BIG_LORD, SECOND_LORD, ZHENG_LORD, FAN_LORD, SOLO_LORD,
         FARMER_ROLE)


def roles(s: DdzState, viewer: int | None = None) -> tuple[str | None, ...]:
    """Each seat's role as the viewer knows it (None: not yet formed, or not known to him):
    the role follows the side he knows (``sides``), except that the zhengfan landlords and
    farmers are public from the LANDLORDS event while a farmer's side is not (DDZ-32, DDZ-36);
    a 3v3 hidden landlord is ``hidden_landlord`` to himself, to all once revealed and at the
    end (DDZ-26, DDZ-27)."""
    if s.variant == "zhengfan":
        if not s.landlords:
            return (None,) * SEATS
        lords = {x: SOLO_LORD for x in s.landlords} if s.solo else {
            s.landlords[0]: ZHENG_LORD, s.landlords[1]: FAN_LORD}
        return tuple(lords.get(i, FARMER_ROLE) for i in range(SEATS))
    out: list[str | None] = []
    for i, side in enumerate(sides(s, viewer)):
        if side is None or side == "farmer":
            out.append(None if side is None else FARMER_ROLE)
        elif s.solo:
            out.append(SOLO_LORD)
        elif s.variant == "2v4":
            out.append(BIG_LORD if i == s.landlords[0] else SECOND_LORD)
        else:
            out.append(HIDDEN_LORD if i in s.hidden else OPEN_LORD)
    return tuple(out)


# ---------------------------------------------------------------- the view

def _marks(s: DdzState, seat: int | None, auditor: bool) -> dict[str, Any]:
    if s.om < 0:
        return {}
    out: dict[str, Any] = {"open_mark": {"face": format_face(s.mark_face), "seat": s.om}}
    if s.four:
        dm_public = s.variant == "zhengfan" or bool(s.landlords)
        out["dark_mark_seat"] = s.dm if auditor or dm_public or ended(s) else None
    return out


def _bidding(s: DdzState) -> dict[str, Any]:
    return {"order": list(s.bid_order), "bids": list(s.bids),
            "winner": s.bid_winner if s.bid_winner >= 0 else None, "bid": s.bid_value or None}


def _choices(s: DdzState, seat: int | None, auditor: bool) -> dict[str, Any]:
    """Doubling (3v3) or show-hand choices: the seat's own, all once all are made."""
    made = s.doubles if s.variant == "3v3" else s.shows
    order = setup.chooser_order(s) if s.phase in (DOUBLE, SHOW) else (
        tuple((s.om + k) % SEATS for k in range(SEATS)) if s.variant == "3v3" else s.landlords)
    complete = len(made) == len(order) and bool(order)
    shown = {str(x): v for x, v in zip(order, made, strict=False)
             if auditor or complete or x == seat}
    return {"choices": shown, "complete": complete}


def _kitty(s: DdzState, seat: int | None, auditor: bool) -> list[Any]:
    return [faces(sh) if auditor or i == seat or ended(s) else len(sh)
            for i, sh in enumerate(s.shares)]


def _hand(s: DdzState, i: int, seat: int | None, auditor: bool) -> Any:
    h = s.hands[i]
    if auditor or i == seat or i in s.shown or ended(s):
        return faces(h)
    return len(h)


def _last_acts(s: DdzState) -> list[Any]:
    """Each seat's last act in this round (public, DDZ-91): None, "pass", or the cards and
    their declared combination."""
    out: list[Any] = []
    for a in s.acts:
        c = classify(a, s.variant, s.options) if a else None
        out.append(None if a is None else "pass" if not a else {
            "cards": faces(a), "combo": declare(c) if c is not None else None})
    return out


def n_parts(s: DdzState) -> dict[str, Any]:
    """What makes up N now, as every seat sees it (DDZ-81, DDZ-91): 1, the doubles (3v3,
    DDZ-37: counted once all six are shown together) or the show-hand increment (4-deck,
    DDZ-39, added at SHOW_END), and each bomb's increment in play order (DDZ-83, DDZ-86)."""
    bombs = sum(s.bomb_incs)
    parts: dict[str, Any] = {"start": 1, "bombs": list(s.bomb_incs)}
    key = "show_hand" if s.four else "doubles"
    parts[key] = s.mult - 1 - bombs
    return parts


def lock_seat(s: DdzState) -> int | None:
    """The seat holding the joker a 七星聚 locks (public: the LOCK event names it, DDZ-70)."""
    if s.locked < 0:
        return None
    return next((i for i, h in enumerate(s.hands) if s.locked in h), None)


def view(s: DdzState, seat: int | None) -> dict[str, Any]:
    """What a seat knew at this moment (section 12); seat None is the auditor."""
    from engine.games.ddz6.game import game_id_of, outcomes, to_move
    auditor = seat is None
    oc = outcomes(s)
    v: dict[str, Any] = {
        "game": game_id_of(s.variant), "game_id": s.game_id, "seq": s.seq, "phase": s.phase,
        "players": list(s.players), "perspective": "auditor" if auditor else seat,
        "hands": [_hand(s, i, seat, auditor) for i in range(SEATS)],
        "hand_sizes": [len(h) for h in s.hands],
        "to_act": _to_act(s, seat, to_move(s)),
        "sides": list(sides(s, seat)),
        "outcomes": None if oc is None else [o._asdict() for o in oc],
        "options": s.options.to_dict(), "S": s.base or None, "N": s.mult,
        "landlords": list(s.landlords if auditor or ended(s) else _landlords_seen(s, seat)),
        "solo": s.solo if s.fixed or s.landlords and s.four else None,
        **_marks(s, seat, auditor),
        "round": {"number": s.round_no, "leader": _seat(s.leader), "top": None if s.top is None
                  else {"seat": s.top_seat, "cards": faces(s.top_cards),
                        "combo": declare(s.top)}, "passes": s.passes,
                  "last": _last_acts(s)},
        "locked": format_face(s.locked) if s.locked >= 0 else None,
        "locked_seat": lock_seat(s),
        "roles": list(roles(s, seat)),
        "N_parts": n_parts(s),
        "kitty": {"left": len(s.kitty), "taken": _kitty(s, seat, auditor),
                  "cards": faces(s.kitty) if auditor else None},
        "shown": list(s.shown),
        "result": None if s.result is None else json.loads(s.result),
    }
    if s.variant == "3v3":
        v["case"] = s.case or None
        v["P"] = _seat(s.p_seat)
        v["revealed"] = list(s.revealed)
        v["doubling"] = _choices(s, seat, auditor)
    else:
        v["show_hand"] = _choices(s, seat, auditor)
    if s.variant != "zhengfan":
        v["bidding"] = _bidding(s)
    else:
        v["side_choosing"] = _side_view(s, seat, auditor)
    if auditor:
        v["hidden"] = list(s.hidden)
        v["next_auto"] = s.owed[0] if s.owed else None
        v["deck"] = faces(s.deck)
    return v


def _seat(x: int) -> int | None:
    return None if x < 0 else x


def _landlords_seen(s: DdzState, seat: int | None) -> tuple[int, ...]:
    known = open_landlords(s)
    if seat in s.landlords and seat not in known:
        known = (*known, seat)
    return known


def _to_act(s: DdzState, seat: int | None, mover: int) -> int | None:
    """The seat to act as this viewer sees it: in 3v3 bidding H's recorded pass looks like an
    ordinary turn (DDZ-16); who is asked to choose a side only the chooser and the auditor
    see (DDZ-36)."""
    if s.owed and s.owed[0] == "BID":
        return setup.bidder(s)
    if s.phase == SIDE and seat is not None and mover != seat:
        return None
    return _seat(mover)


def _side_view(s: DdzState, seat: int | None, auditor: bool) -> dict[str, Any]:
    landlord = seat in s.landlords
    sides_seen = {}
    for x in s.farmer_order:
        if auditor or ended(s) or x == seat or (landlord and s.sides_done):
            k = s.side_of[x]
            if k >= 0:
                sides_seen[str(x)] = setup.SIDE_WORDS[k]
    placed = [x for x in s.placed if auditor or ended(s) or x == seat
              or (landlord and s.sides_done)]
    return {"farmers": list(s.farmer_order), "sides": sides_seen, "placed": placed,
            "ended": s.sides_done}


# ---------------------------------------------------------------- events as seen

PRIVATE_CARDS = frozenset({"GAME_START", "DEAL", "KITTY"})


def cards_visible(e: Event, seat: int | None) -> bool:
    """True if the seat (None: auditor) may see all of this event's cards: the deck and the
    deal nobody whole (each seat its own hand), a kitty share its taker; all else is public."""
    if seat is None or not e.cards or e.kind not in PRIVATE_CARDS:
        return True
    return e.kind == "KITTY" and e.seat == seat


def _seen_deal(e: Event, seat: int, zhengfan: bool) -> Event:
    own = e.cards[seat::SEATS]
    marks = (e.cards[e.value],) if 0 <= e.value < len(e.cards) else ()
    if zhengfan and e.payload is not None:
        try:
            dark = json.loads(e.payload)["dark"]
            marks += (e.cards[dark],)
        except (ValueError, KeyError, TypeError, IndexError):
            pass
        return e._replace(cards=own + marks)
    return e._replace(cards=own + marks, payload=None)


def seen_event(e: Event, seat: int | None, variant: str = "") -> Event:
    """The event as the seat saw it: hidden cards, hidden choices and record-only marks
    (``default``, ``forced``) removed (DDZ-92, section 12); the auditor sees it whole."""
    if seat is None:
        return e
    k = e.kind
    if k == "GAME_START":
        return e._replace(cards=())
    if k == "DEAL":
        return _seen_deal(e, seat, variant == "zhengfan")
    if k == "KITTY" and e.seat != seat:
        return e._replace(cards=())
    if k == "CASE" and e.payload is not None:
        try:
            p = json.loads(e.payload)
            p["hidden"] = [x for x in p.get("hidden", []) if x == seat]
            return e._replace(payload=setup.json_text(p))
        except (ValueError, TypeError, AttributeError):
            return e._replace(payload=None)
    if k in ("BID", "PLAY", "PASS", "DOUBLE", "SHOW_HAND", "SIDE_CHOICE"):
        e = e._replace(target=NONE, tag="" if k == "BID" else e.tag)
        if k in ("DOUBLE", "SHOW_HAND", "SIDE_CHOICE") and e.seat != seat:
            return e._replace(value=NONE, tag="")
    if k == "SIDES_END" and variant == "zhengfan":
        return e if seat in (e.seat, e.target) else e._replace(value=NONE)
    return e
