"""Positions: the full 小墩 state as JSON and back (``from_position`` checks every invariant
the rules rely on, so a loaded position can only be played on or refused with a typed error),
and what each seat sees (TRICK-15)."""

from __future__ import annotations

import json
from typing import Any

from engine.events import Event
from engine.games.codec import (
    MAX_SEQ,
    Fields,
    bad,
    check_pack,
    faces_value,
    open_position,
    player_value,
    shown,
)
from engine.games.common import faces
from tests.toygame import rules
from tests.toygame.game import outcomes, to_move
from tests.toygame.options import ToyOptions
from tests.toygame.state import DEAL, END, OVER, PHASES, PLAY, ToyState

POSITION_FORMAT = "liujia.toy_tricks.position/1"
GAME = "toy_tricks"


def _seat_or_none(v: int) -> int | None:
    return None if v < 0 else v


def to_position(s: ToyState) -> dict[str, Any]:
    """The full state as a JSON-ready dict."""
    return {
        "format": POSITION_FORMAT, "game": GAME, "game_id": s.game_id, "seq": s.seq,
        "phase": s.phase, "options": s.options.to_dict(), "players": list(s.players),
        "first_leader": s.first_leader, "first_leader_rule": s.first_rule,
        "deck": faces(s.deck), "hands": [faces(h) for h in s.hands], "stock": faces(s.stock),
        "leader": s.leader, "trick": faces(s.trick), "trick_seats": list(s.trick_seats),
        "trick_no": s.trick_no, "tricks": list(s.tricks), "taken": faces(s.taken),
        "to_act": _seat_or_none(to_move(s)),
        "result": None if s.result is None else json.loads(s.result),
    }


def from_position(p: Any) -> ToyState:
    """A state from its JSON form; raises a PositionError (an InvalidEvent) naming the bad
    field for anything no game can reach."""
    open_position(p, POSITION_FORMAT, GAME)
    f = Fields(p, 0)
    f.choice("game", (GAME,))
    opts = f.options("options", ToyOptions)
    n = f.n_seats = opts.trick_players
    res = f.get("result")
    if res is not None and not isinstance(res, dict):
        raise bad("result", f"must be GAME_END's result object or null, got {shown(res)}")
    s = ToyState(
        game_id=f.ident("game_id"), seq=f.int("seq", 1, MAX_SEQ),
        phase=f.choice("phase", PHASES), options=opts, n=n,
        players=f.per_seat("players", player_value),
        first_leader=f.seat("first_leader"),
        first_rule=f.choice("first_leader_rule", ("random", "previous")),
        deck=f.faces("deck"),
        hands=f.per_seat("hands", lambda v, name: tuple(sorted(faces_value(v, name)))),
        stock=f.faces("stock"), leader=f.seat("leader"), trick=f.faces("trick"),
        trick_seats=f.seats("trick_seats"), trick_no=f.int("trick_no", 0, 13),
        tricks=f.per_seat("tricks", lambda v, name: _count(v, name)), taken=f.faces("taken"),
        result=None if res is None else rules.canonical(res))
    f.done("format", "to_act")
    _check(s, p)
    return s


def _count(v: Any, name: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 13:
        raise bad(name, f"must be a number of tricks 0-13, got {shown(v)}")
    return v


def _check(s: ToyState, p: dict[str, Any]) -> None:
    """Invariants every reachable state has."""
    n, h = s.n, s.options.trick_hand_size
    if sorted(s.deck) != list(rules.DECK):
        raise bad("deck", "must be the 52 faces of one deck without jokers (TRICK-3)")
    places = [(f"hands[{i}]", x) for i, x in enumerate(s.hands)]
    places += [("stock", s.stock), ("trick", s.trick), ("taken", s.taken)]
    check_pack(places, rules.DECK, "deck", partial=s.phase == DEAL)
    if s.phase == DEAL:
        k = rules.dealt(s)
        if k >= n or s.seq != 1 + k or s.stock or s.trick or s.taken or s.trick_no \
                or any(s.tricks) or s.leader != s.first_leader:
            raise bad("seq", "during the deal, GAME_START and one DEAL per seat dealt so far "
                      "(TRICK-5); nothing played yet")
        if any(s.hands[i] != tuple(sorted(s.deck[i * h:(i + 1) * h])) for i in range(k)) or \
                any(s.hands[k:]):
            raise bad("hands", "the dealt hands are the deck's deal order (TRICK-5)")
        _check_end(s)
        return
    if s.stock != s.deck[n * h:]:
        raise bad("stock", "is the deck after the deal (TRICK-5)")
    if len(s.trick_seats) != len(s.trick) or len(s.trick) > n or \
            list(s.trick_seats) != [(s.leader + i) % n for i in range(len(s.trick))]:
        raise bad("trick_seats", "the seats of the trick's cards, from the leader in turn "
                  "order (TRICK-6)")
    if sum(s.tricks) != s.trick_no or len(s.taken) != n * s.trick_no or s.trick_no > h:
        raise bad("tricks", "one trick per n cards taken, at most the hand size (TRICK-9)")
    played = s.trick_no * n + len(s.trick)
    if s.seq != 1 + n + played + s.trick_no + (s.phase == OVER):
        raise bad("seq", f"must be {1 + n + played + s.trick_no + (s.phase == OVER)} after "
                  "the deal, the plays and the trick ends so far")
    for i, hand in enumerate(s.hands):
        if len(hand) != h - s.trick_no - (i in s.trick_seats):
            raise bad(f"hands[{i}]", "holds the hand size less the cards it played")
    if (s.phase in (END, OVER)) != (s.trick_no == h) or (s.phase != PLAY and s.trick):
        raise bad("phase", "the game ends when every trick is played (TRICK-11)")
    _check_end(s)
    if "to_act" in p and p["to_act"] != _seat_or_none(to_move(s)):
        raise bad("to_act", f"must be {_seat_or_none(to_move(s))} in this position")


def _check_end(s: ToyState) -> None:
    if s.phase == OVER:
        if s.result != rules.result_payload(s):
            raise bad("result", "must be the result of the tricks taken (TRICK-11)")
    elif s.result is not None:
        raise bad("result", "only a finished game has a result")


# ---------------------------------------------------------------- information (TRICK-15)

def cards_visible(e: Event, seat: int | None) -> bool:
    """True if the seat (None: auditor) may see all of this event's cards: a DEAL only its
    seat, the deck order of GAME_START nobody, everything else everyone (TRICK-15)."""
    if seat is None or not e.cards:
        return True
    if e.kind == "DEAL":
        return e.seat == seat
    return e.kind != "GAME_START"


def seen_event(e: Event, seat: int | None) -> Event:
    """The event as the seat saw it: without the cards it may not see."""
    if cards_visible(e, seat):
        return e
    return e._replace(cards=())


def view(s: ToyState, seat: int | None) -> dict[str, Any]:
    """What a seat knew at this moment (TRICK-15); seat None is the auditor, who sees all."""
    auditor = seat is None
    oc = outcomes(s)
    v: dict[str, Any] = {
        "game": GAME, "game_id": s.game_id, "seq": s.seq, "phase": s.phase,
        "players": list(s.players), "perspective": "auditor" if auditor else seat,
        "hands": [faces(h) if auditor or i == seat else len(h) for i, h in enumerate(s.hands)],
        "hand_sizes": [len(h) for h in s.hands],
        "to_act": _seat_or_none(to_move(s)), "next_auto": rules.next_auto(s),
        "sides": [None] * s.n,
        "outcomes": None if oc is None else [
            {"place": o.place, "score": o.score, "result": o.result} for o in oc],
        "options": s.options.to_dict(), "leader": s.leader, "trick_no": s.trick_no,
        "trick": [{"seat": x, "card": c} for x, c in zip(s.trick_seats, faces(s.trick),
                                                         strict=True)],
        "tricks": list(s.tricks), "stock_size": len(s.stock),
        "result": None if s.result is None else json.loads(s.result),
    }
    if auditor:
        v["stock"] = faces(s.stock)
    return v
