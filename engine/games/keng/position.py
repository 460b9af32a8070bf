"""Positions (KENG-51): the full 六人坑 state as JSON and back, and per-seat views (KENG-50).

The format is documented in docs/positions.md; cards are text faces, seats are 0-5.
"""

from __future__ import annotations

from typing import Any

from engine.errors import InvalidEvent
from engine.events import Event
from engine.games.common import codes as _codes
from engine.games.common import faces as _faces
from engine.games.common import seat_field
from engine.games.keng.options import KengOptions
from engine.games.keng.state import DEALING, N_SEATS, OVER, PLAYING, STARTING, Duel, KengState

POSITION_FORMAT = "liujia.keng.position/1"
SUITS = "shcd"


def _seat(v: Any, name: str, allow_none: bool = False) -> int:
    return seat_field(v, name, allow_none, n=N_SEATS)


def to_position(s: KengState) -> dict[str, Any]:
    """The full state as a JSON-ready dict (docs/positions.md)."""
    d = s.duel
    return {
        "format": POSITION_FORMAT,
        "game": "keng",
        "game_id": s.game_id,
        "seq": s.seq,
        "phase": s.phase,
        "options": s.options.to_dict(),
        "players": list(s.players),
        "opener": s.opener,
        "deck": _faces(s.deck),
        "hands": [_faces(h) for h in s.hands],
        "stock": _faces(s.stock),
        "table": _faces(s.table),
        "top": {
            "cards": _faces(s.top),
            "seat": s.top_seat,
            "suit": SUITS[s.top_suit] if s.top_suit >= 0 else None,
            "start_card": s.top_start,
            "duel_card": s.top_duel,
            "covered": _faces(s.covered),
        },
        "pending_draw": s.pending,
        "direction": s.direction,
        "cycle": s.cycle,
        "to_act": s.to_act,
        "turn_rule": s.turn_rule,
        "drawn_two": s.drawn,
        "accepted": s.accepted,
        "drew_cards": s.drew_cards,
        "owed_draw": None if s.owed is None else
        {"seat": s.owed[0], "kind": s.owed[1], "cards": s.owed[2]},
        "duel": None if d is None else {
            "challenger": d.challenger, "defender": d.defender, "cards": _faces(d.cards),
            "to_act": d.to_act, "next_seat": d.next_seat},
        "duel_start_due": None if s.duel_due is None else
        {"challenger": s.duel_due[0], "defender": s.duel_due[1], "next_seat": s.duel_due[2]},
        "snatch_window_open": s.window,
        "banned": list(s.banned),
        "ban_ends_with_window": list(s.ban_armed),
        "ban_end_due": list(s.ban_end_due),
        "count_used": list(s.count_used),
        "last_card_obligation": s.report_seat if s.report_seat >= 0 else None,
        "penalty_due": None if s.penalty_due is None else
        {"kind": s.penalty_due[0], "seat": s.penalty_due[1]},
        "reshuffle_due": s.reshuffle_due,
        "passes_in_a_row": s.passes,
        "end_due": None if s.end_due is None else
        {"reason": s.end_due[0], "seat": s.end_due[1], "team": s.end_due[2]},
        "result": s.result,
    }


def _bools(v: Any, name: str) -> tuple[bool, ...]:
    if not isinstance(v, list) or len(v) != 6 or not all(isinstance(x, bool) for x in v):
        raise InvalidEvent(f"position field {name!r} must be six true/false values", field=name)
    return tuple(v)


def from_position(p: dict[str, Any]) -> KengState:
    """A state from its JSON form; raises InvalidEvent naming the bad field."""
    if not isinstance(p, dict) or p.get("format") != POSITION_FORMAT:
        raise InvalidEvent(f"not a keng position (format must be {POSITION_FORMAT!r})",
                           field="format")
    try:
        s = KengState.__new__(KengState)
        s.game_id = str(p["game_id"])
        s.options = KengOptions.from_dict(p["options"])
        s.players = tuple(p["players"])
        s.opener = _seat(p["opener"], "opener")
        s.deck = _codes(p["deck"], "deck")
        s.seq = int(p["seq"])
        if p["phase"] not in (DEALING, STARTING, PLAYING, OVER):
            raise InvalidEvent(f"phase {p['phase']!r} is unknown", field="phase")
        s.phase = p["phase"]
        hands = p["hands"]
        if not isinstance(hands, list) or len(hands) != 6:
            raise InvalidEvent("hands must be six lists of faces", field="hands")
        s.hands = tuple(tuple(sorted(_codes(h, "hands"))) for h in hands)
        s.stock = _codes(p["stock"], "stock")
        s.table = _codes(p["table"], "table")
        top = p["top"]
        s.top = _codes(top["cards"], "top.cards")
        s.top_seat = _seat(top["seat"], "top.seat", allow_none=True) if top["seat"] != -1 else -1
        suit = top["suit"]
        if suit is not None and suit not in SUITS:
            raise InvalidEvent("top.suit must be one of s h c d or null", field="top.suit")
        s.top_suit = SUITS.index(suit) if suit else -1
        s.top_start = bool(top["start_card"])
        s.top_duel = bool(top["duel_card"])
        s.covered = _codes(top["covered"], "top.covered")
        s.pending = int(p["pending_draw"])
        if p["direction"] not in (1, -1):
            raise InvalidEvent("direction must be 1 or -1", field="direction")
        s.direction = p["direction"]
        s.cycle = int(p["cycle"])
        s.to_act = _seat(p["to_act"], "to_act")
        s.turn_rule = str(p.get("turn_rule", "KENG-15"))
        s.drawn = bool(p["drawn_two"])
        s.accepted = bool(p["accepted"])
        s.drew_cards = bool(p.get("drew_cards", False))
        o = p["owed_draw"]
        s.owed = None if o is None else (_seat(o["seat"], "owed_draw.seat"), str(o["kind"]),
                                         int(o["cards"]))
        d = p["duel"]
        s.duel = None if d is None else Duel(
            _seat(d["challenger"], "duel.challenger"), _seat(d["defender"], "duel.defender"),
            _codes(d["cards"], "duel.cards"), _seat(d["to_act"], "duel.to_act"),
            _seat(d["next_seat"], "duel.next_seat"))
        dd = p["duel_start_due"]
        s.duel_due = None if dd is None else (dd["challenger"], dd["defender"], dd["next_seat"])
        s.window = bool(p["snatch_window_open"])
        s.banned = _bools(p["banned"], "banned")
        s.ban_armed = _bools(p["ban_ends_with_window"], "ban_ends_with_window")
        s.ban_end_due = tuple(_seat(x, "ban_end_due") for x in p["ban_end_due"])
        s.count_used = _bools(p["count_used"], "count_used")
        r = p["last_card_obligation"]
        s.report_seat = -1 if r is None else _seat(r, "last_card_obligation")
        pd = p["penalty_due"]
        s.penalty_due = None if pd is None else (str(pd["kind"]), _seat(pd["seat"],
                                                                         "penalty_due.seat"))
        s.reshuffle_due = bool(p["reshuffle_due"])
        s.passes = int(p["passes_in_a_row"])
        ed = p["end_due"]
        s.end_due = None if ed is None else (str(ed["reason"]), int(ed["seat"]), int(ed["team"]))
        s.result = p["result"]
    except KeyError as exc:
        raise InvalidEvent(f"position lacks field {exc.args[0]!r}", field=str(exc.args[0])) from None
    except (TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, InvalidEvent):
            raise
        raise InvalidEvent(f"position is malformed: {exc}", field="position") from None
    if s.top_seat == -1 and top["seat"] not in (-1, None):
        raise InvalidEvent("top.seat must be a seat or -1", field="top.seat")
    _check_shape(s)
    return s


def _check_shape(s: KengState) -> None:
    """Invariants every reachable state has, so that a loaded position cannot crash the rules."""
    if s.phase in (PLAYING, OVER) and not 1 <= len(s.top) <= 3:
        raise InvalidEvent("a started game has a top play of 1-3 cards", field="top.cards")
    if s.top and s.top_suit < 0:
        raise InvalidEvent("the top play needs its active suit", field="top.suit")
    if s.duel is not None and not s.duel.cards:
        raise InvalidEvent("a duel has at least its starting A", field="duel.cards")
    if s.pending < 0 or s.cycle < 1 or s.seq < 1 or s.passes < 0:
        raise InvalidEvent("pending_draw, passes must be >= 0; cycle and seq >= 1",
                           field="pending_draw")
    if s.owed is not None and s.owed[1] not in ("ACCEPT", "DRAW", "DUEL_END", "REPORT_PENALTY",
                                                  "SNATCH_PENALTY"):
        raise InvalidEvent("owed_draw.kind must be a draw kind", field="owed_draw.kind")
    if s.penalty_due is not None and s.penalty_due[0] not in ("REPORT_PENALTY",
                                                              "SNATCH_PENALTY"):
        raise InvalidEvent("penalty_due.kind must be REPORT_PENALTY or SNATCH_PENALTY",
                           field="penalty_due.kind")
    if s.end_due is not None and s.end_due[0] not in ("out", "over_limit", "stalemate"):
        raise InvalidEvent("end_due.reason must be out, over_limit or stalemate",
                           field="end_due.reason")


# Events whose cards every seat sees (KENG-50: every play, the start card, claims' cards shown);
# the cards of draws and deals only their own seat sees; deck and stock orders nobody sees.
PUBLIC_CARD_KINDS = frozenset({
    "PLAY", "DUEL_PLAY", "START_CARD", "SNATCH", "PASS", "COUNT", "LAST_CARD", "DUEL_START",
    "BAN_END", "GAME_END",
})
SECRET_CARD_KINDS = frozenset({"GAME_START", "RESHUFFLE"})


def cards_visible(e: Event, seat: int | None) -> bool:
    """True if the seat (None: auditor) may see this event's cards (KENG-50)."""
    if seat is None or e.kind in PUBLIC_CARD_KINDS:
        return True
    if e.kind in SECRET_CARD_KINDS:
        return False
    return e.seat == seat


def seen_cards(e: Event, seat: int | None) -> tuple[int, ...]:
    """The cards of the event the seat sees: all of them or none (``cards_visible``)."""
    return e.cards if cards_visible(e, seat) else ()


def view(s: KengState, seat: int | None) -> dict[str, Any]:
    """What a seat knew at this moment (KENG-50); seat None is the auditor's full view. Both
    carry the table facts the dashboard draws (``_table_facts``: to_act, sides, outcomes …)."""
    pos = to_position(s)
    _table_facts(s, pos, seat)
    if seat is None:
        pos["perspective"] = "auditor"
        return pos
    pos["perspective"] = seat
    pos["hands"] = [h if i == seat else len(h) for i, h in enumerate(pos["hands"])]
    pos["stock"] = len(s.stock)
    pos["deck"] = len(s.deck)
    # whether a window will end a ban depends on the banned seat's cards (KENG-39): private
    pos["ban_ends_with_window"] = [a if i == seat else None
                                   for i, a in enumerate(s.ban_armed)]
    if pos["owed_draw"] is not None:
        pos["owed_draw"] = dict(pos["owed_draw"])
    if s.result is not None and s.phase != OVER:
        pos["result"] = None
    return pos


def _table_facts(s: KengState, pos: dict[str, Any], seat: int | None) -> None:
    """Add the common view keys and the derived facts of the table to a view.

    ``to_act`` becomes the seat the game waits for (the duellist to play in a duel, the
    flipper before the start card; None while an automatic event is owed or the game is
    over); the seat whose turn it is in the play order stays as ``turn_seat``. ``auto_due``
    names the owed automatic event — except, in a seat's view, a DUEL_END, which is owed
    because the duellist's hidden hand has no card to play. ``sides`` are the fixed teams
    (KENG-5), ``outcomes`` each seat's result once the game is over (no winning team: a draw
    for every seat), ``pending_draw_seat`` the seat facing P and ``turn_order`` the seats
    from seat 0 in the direction of play.
    """
    # late imports: the game module is built on this one's neighbours, not the reverse
    from engine.games.keng import game
    from engine.games.keng.plays import due_seat
    from engine.games.keng.rules import next_auto

    n = len(s.players)
    auto = next_auto(s)
    if seat is not None and auto == "DUEL_END":
        auto = None
    waiting = s.phase not in (OVER, DEALING) and auto is None
    pos["turn_seat"] = s.to_act
    pos["to_act"] = due_seat(s) if waiting else None
    pos["auto_due"] = auto
    pos["sides"] = list(game.sides(s, seat))
    outcomes = game.outcomes(s)
    pos["outcomes"] = None if outcomes is None else [o._asdict() for o in outcomes]
    pos["pending_draw_seat"] = s.to_act if s.pending else None
    pos["turn_order"] = [k * s.direction % n for k in range(n)]
