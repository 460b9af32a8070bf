"""Positions (KENG-51): the full 六人坑 state as JSON and back, and per-seat views (KENG-50).

The format is documented in docs/positions.md; cards are text faces, seats are 0-5.
"""

from __future__ import annotations

from typing import Any

from engine.errors import InvalidEvent
from engine.events import Event
from engine.games.codec import Fields, bad, bool_value, faces_value
from engine.games.common import faces as _faces
from engine.games.keng.options import KengOptions
from engine.games.keng.state import DEALING, N_SEATS, OVER, PLAYING, STARTING, Duel, KengState

POSITION_FORMAT = "liujia.keng.position/1"
SUITS = "shcd"




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


def from_position(p: dict[str, Any]) -> KengState:
    """A state from its JSON form; raises InvalidEvent naming the bad field."""
    if not isinstance(p, dict) or p.get("format") != POSITION_FORMAT:
        raise InvalidEvent(f"not a keng position (format must be {POSITION_FORMAT!r})",
                           field="format")
    f = Fields(p, N_SEATS)
    s = KengState.__new__(KengState)
    s.game_id = f.text("game_id")
    s.options = KengOptions.from_dict(f.get("options"))
    s.players = f.per_seat("players", _player)
    s.opener = f.seat("opener")
    s.deck = f.faces("deck")
    s.seq = f.int("seq", 1)
    s.phase = f.choice("phase", (DEALING, STARTING, PLAYING, OVER))
    s.hands = f.per_seat("hands", lambda v, name: tuple(sorted(faces_value(v, name))))
    s.stock = f.faces("stock")
    s.table = f.faces("table")
    _read_top(s, f.sub("top"))
    s.pending = f.int("pending_draw", 0)
    s.direction = f.choice("direction", (1, -1))
    s.cycle = f.int("cycle", 1)
    s.to_act = f.seat("to_act")
    s.turn_rule = f.text("turn_rule", "KENG-15")
    s.drawn = f.bool("drawn_two")
    s.accepted = f.bool("accepted")
    s.drew_cards = f.bool("drew_cards", False)
    o = f.optional_sub("owed_draw")
    s.owed = None if o is None else (o.seat("seat"), o.choice("kind", OWED_KINDS),
                                     o.int("cards", 0))
    d = f.optional_sub("duel")
    s.duel = None if d is None else Duel(d.seat("challenger"), d.seat("defender"),
                                         d.faces("cards"), d.seat("to_act"), d.seat("next_seat"))
    dd = f.optional_sub("duel_start_due")
    s.duel_due = None if dd is None else (dd.seat("challenger"), dd.seat("defender"),
                                          dd.seat("next_seat"))
    s.window = f.bool("snatch_window_open")
    s.banned = f.per_seat("banned", bool_value)
    s.ban_armed = f.per_seat("ban_ends_with_window", bool_value)
    s.ban_end_due = tuple(f.seat_value(x, "ban_end_due") for x in f.list("ban_end_due"))
    s.count_used = f.per_seat("count_used", bool_value)
    s.report_seat = f.seat("last_card_obligation", allow_none=True)
    pd = f.optional_sub("penalty_due")
    s.penalty_due = None if pd is None else (pd.choice("kind", PENALTY_KINDS), pd.seat("seat"))
    s.reshuffle_due = f.bool("reshuffle_due")
    s.passes = f.int("passes_in_a_row", 0)
    ed = f.optional_sub("end_due")
    s.end_due = None if ed is None else (ed.choice("reason", END_REASONS),
                                         ed.int("seat", -1, N_SEATS - 1),
                                         ed.int("team", -1, 1))
    result = f.get("result")
    if result is not None and not isinstance(result, dict):
        raise bad("result", "must be an object or null")
    s.result = result
    f.done("format", "game")
    _check_shape(s)
    return s


def _player(v: Any, name: str) -> str:
    if not isinstance(v, str) or not v:
        raise bad(name, f"must be a player id, got {v!r}")
    return v


def _read_top(s: KengState, top: Fields) -> None:
    s.top = top.faces("cards")
    seat = top.get("seat")
    s.top_seat = -1 if seat == -1 else top.seat("seat", allow_none=True)
    suit = top.get("suit")
    s.top_suit = -1 if suit is None else SUITS.index(top.choice("suit", tuple(SUITS)))
    s.top_start = top.bool("start_card")
    s.top_duel = top.bool("duel_card")
    s.covered = top.faces("covered")


OWED_KINDS = ("ACCEPT", "DRAW", "DUEL_END", "REPORT_PENALTY", "SNATCH_PENALTY")
PENALTY_KINDS = ("REPORT_PENALTY", "SNATCH_PENALTY")
END_REASONS = ("out", "over_limit", "stalemate")


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


def seen_event(e: Event, seat: int | None) -> Event:
    """The event as the seat saw it: its cards only where ``cards_visible``."""
    return e if cards_visible(e, seat) else e._replace(cards=())


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
