"""Positions (MDS-42): the full 摸到爽 state as JSON and back, and what each seat sees (MDS-41).

The format is documented in docs/modaoshuang.md; cards are text faces, seats are 0 … n−1.
``from_position`` checks every invariant the rules rely on, so a loaded position can only be
played on or rejected with a typed error.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from engine.events import NONE, Event
from engine.games.codec import (
    MAX_SEQ,
    Fields,
    bad,
    faces_value,
    open_position,
    player_value,
    shown,
)
from engine.games.common import faces
from engine.games.modaoshuang import rules
from engine.games.modaoshuang.cards import DECK, IS_JOKER, SUIT, SUITS
from engine.games.modaoshuang.game import outcomes, to_move
from engine.games.modaoshuang.options import ModaoshuangOptions
from engine.games.modaoshuang.scoring import dianpao_seat
from engine.games.modaoshuang.state import (
    DEAL,
    END,
    JOKER,
    OVER,
    PHASES,
    PLAY,
    REPORT,
    SUIT_DRAW,
    MdsState,
)

POSITION_FORMAT = "liujia.modaoshuang.position/1"


def _opt_seat(v: int) -> int | None:
    return None if v < 0 else v


def _suit(v: int) -> str | None:
    return None if v < 0 else SUITS[v]


def to_position(s: MdsState) -> dict[str, Any]:
    """The full state as a JSON-ready dict (docs/modaoshuang.md)."""
    return {
        "format": POSITION_FORMAT, "game": "modaoshuang", "game_id": s.game_id, "seq": s.seq,
        "phase": s.phase, "options": s.options.to_dict(), "players": list(s.players),
        "first_leader": s.first_leader, "first_leader_rule": s.first_rule,
        "deck": faces(s.deck), "shoudaoshuang": s.shou,
        "hands": [faces(h) for h in s.hands], "stock": faces(s.stock), "dead": faces(s.dead),
        "suit_draw": {"suit": _suit(s.first_suit), "cards": faces(s.suit_cards)},
        "round": {
            "number": s.round_no, "leader": s.leader, "suit": _suit(s.suit),
            "plays": [{"seat": p, "card": f} for p, f in zip(s.table_seats, faces(s.table),
                                                             strict=True)],
            "turns": s.turns, "collector": _opt_seat(s.collector),
        },
        "to_act": _opt_seat(to_move(s)),
        "report": None if s.report_seat < 0 else {"seat": s.report_seat,
                                                  "count": s.report_count},
        "missed_reports": [{"seat": p, "cause": c} for p, c in s.missed],
        "penalty": None if s.pen_seat < 0 else {
            "seat": s.pen_seat, "cause": s.pen_cause, "draws": s.pen_draws,
            "gift_seats": list(s.pen_gifts)},
        "out_pending": _opt_seat(s.out_pending),
        "winner": _opt_seat(s.winner),
        "dianpao": _opt_seat(s.dianpao),
        "result": None if s.result is None else json.loads(s.result),
    }


# ---------------------------------------------------------------- reading a position

def _read_suit(f: Fields, key: str) -> int:
    return -1 if f.get(key) is None else SUITS.index(f.choice(key, tuple(SUITS)))


def from_position(p: Any, *, scenario: bool = False) -> MdsState:
    """A state from its JSON form; raises PositionError (an InvalidEvent) naming the bad field
    for anything no game can reach (docs/modaoshuang.md, positions). ``scenario`` is for
    hand-built rule tests: the cards need not be the deck dealt and played in order; every
    other check stays (the rules rely on them)."""
    open_position(p, POSITION_FORMAT, "modaoshuang")
    s = _read(p)
    _check(s, p, scenario)
    return s


def _read(p: dict[str, Any]) -> MdsState:
    v: dict[str, Any] = {}     # the fields as read, in reading order (errors name the first)
    f = Fields(p, 0)
    f.choice("game", ("modaoshuang",))
    v["game_id"] = f.ident("game_id")
    v["seq"] = f.int("seq", 1, MAX_SEQ)
    v["phase"] = f.choice("phase", PHASES)
    v["options"] = f.options("options", ModaoshuangOptions)
    n = v["n"] = f.n_seats = v["options"].mds_players
    v["players"] = f.per_seat("players", player_value)
    v["first_leader"] = f.seat("first_leader")
    v["first_rule"] = f.choice("first_leader_rule", ("random", "previous"))
    v["deck"] = f.faces("deck")
    v["shou"] = f.bool("shoudaoshuang")
    v["hands"] = f.per_seat("hands", lambda v, name: tuple(sorted(faces_value(v, name))))
    v["stock"] = f.faces("stock")
    v["dead"] = f.faces("dead")
    sd = f.sub("suit_draw")
    v["first_suit"] = _read_suit(sd, "suit")
    v["suit_cards"] = sd.faces("cards")
    _read_round(v, f.sub("round"), n)
    _read_duties(v, f)
    f.done("format", "to_act")     # to_act is optional and checked against the state
    return MdsState(**v)


def _read_round(v: dict[str, Any], r: Fields, n: int) -> None:
    v["round_no"] = r.int("number", 0, MAX_SEQ)
    v["leader"] = r.seat("leader")
    v["suit"] = _read_suit(r, "suit")
    seats: list[int] = []
    cards: list[int] = []
    for i, x in enumerate(r.list("plays")):
        x = r.nested(x, f"round.plays[{i}]")
        seats.append(x.seat("seat"))
        cards.extend(faces_value([x.get("card")], x.name("card")))
    v["table_seats"], v["table"] = tuple(seats), tuple(cards)
    v["turns"] = r.int("turns", 0, n)
    v["collector"] = r.seat("collector", allow_none=True)


def _read_duties(v: dict[str, Any], f: Fields) -> None:
    rep = f.optional_sub("report")
    v["report_seat"] = -1 if rep is None else rep.seat("seat")
    v["report_count"] = 0 if rep is None else rep.int("count", 1, 2)
    missed = []
    for i, m in enumerate(f.list("missed_reports")):
        m = f.nested(m, f"missed_reports[{i}]")
        missed.append((m.seat("seat"), m.choice("cause", (REPORT, JOKER))))
    v["missed"] = tuple(missed)
    pen = f.optional_sub("penalty")
    if pen is None:
        v["pen_seat"], v["pen_cause"], v["pen_draws"], v["pen_gifts"] = -1, "", 0, ()
    else:
        v["pen_seat"] = pen.seat("seat")
        v["pen_cause"] = pen.choice("cause", (REPORT, JOKER))
        v["pen_draws"] = pen.int("draws", 0, 2)
        v["pen_gifts"] = tuple(pen.seat_value(g, "penalty.gift_seats")
                            for g in pen.list("gift_seats"))
    v["out_pending"] = f.seat("out_pending", allow_none=True)
    v["winner"] = f.seat("winner", allow_none=True)
    v["dianpao"] = f.seat("dianpao", allow_none=True)
    res = f.get("result")
    if res is not None and not isinstance(res, dict):
        raise bad("result", f"must be GAME_END's result object or null, got {shown(res)}")
    v["result"] = None if res is None else json.dumps(res, sort_keys=True,
                                                      separators=(",", ":"), ensure_ascii=False)


def _check(s: MdsState, p: dict[str, Any], scenario: bool = False) -> None:
    """Invariants every reachable state has (docs/modaoshuang.md, positions)."""
    if sorted(s.deck) != list(DECK):
        raise bad("deck", "must be the 54 faces of one deck (MDS-2)")
    if s.phase in (DEAL, SUIT_DRAW):
        _check_deal(s, scenario)
    else:
        if not scenario:
            _check_cards(s)
        _check_round(s)
        _check_duties(s)
        _check_end(s)
    if "to_act" in p and p["to_act"] != _opt_seat(to_move(s)):
        raise bad("to_act", f"must be {_opt_seat(to_move(s))} in this position")


def _check_deal(s: MdsState, scenario: bool) -> None:
    h, n = s.options.mds_hand_size, s.n
    dealt = sum(1 for x in s.hands if x) if s.phase == DEAL else n
    if s.seq != 1 + dealt:
        raise bad("seq", f"before round 1 the events are GAME_START and {dealt} DEAL(s): the "
                  f"next seq is {1 + dealt} (MDS-9)")
    for k in range(n if not scenario else 0):
        seat = (s.first_leader + k) % n
        want = tuple(sorted(s.deck[k:n * h:n])) if k < dealt else ()
        if s.hands[seat] != want:
            raise bad("hands", "the dealt hands are the deck's deal order (MDS-9)")
    stock = () if s.phase == DEAL else s.deck[n * h:]
    if (s.stock != stock and not scenario) or s.dead or s.suit_cards or s.first_suit >= 0 or s.shou:
        raise bad("stock", "before the suit draw the stock is the deck after the deal; there "
                   "is no dead card or suit yet")
    _check_before_play(s)


def _check_before_play(s: MdsState) -> None:
    if (s.round_no, s.turns, s.table, s.collector, s.report_seat, s.missed, s.pen_seat,
            s.out_pending, s.winner, s.dianpao, s.result) != (0, 0, (), -1, -1, (), -1, -1,
                                                               -1, -1, None):
        raise bad("round", "before round 1 there are no plays, duties or results")
    if s.leader != s.first_leader or s.suit >= 0:
        raise bad("round.leader", "before round 1 the leader is the first leader")


def _check_cards(s: MdsState) -> None:
    c = Counter(s.stock)
    c.update(s.dead)
    c.update(s.table)
    for h in s.hands:
        c.update(h)
    if c != Counter(DECK):
        raise bad("hands", "hands, stock, dead cards and the round's plays must hold the 54 "
                   "cards exactly once")
    if s.shou and s.stock:
        raise bad("shoudaoshuang", "the 收到爽 phase has an empty stock (MDS-28)")
    if not all(c in s.stock or c in s.dead or c in s.table or any(c in h for h in s.hands)
               for c in s.suit_cards):
        raise bad("suit_draw.cards", "must be cards of the deck")


def _check_round(s: MdsState) -> None:
    n = s.n
    if s.round_no < 1 or (s.first_suit < 0) or not s.suit_cards:
        raise bad("round.number", "a game in play is in round 1 or later, after the suit draw")
    sc = s.suit_cards
    if IS_JOKER[sc[-1]] or not all(IS_JOKER[c] for c in sc[:-1]) or SUIT[sc[-1]] != s.first_suit:
        raise bad("suit_draw.cards", "jokers then one card of the announced suit (MDS-10)")
    order = [(s.leader + k) % n for k in range(s.turns)]
    if list(s.table_seats) != [x for x in order if x in s.table_seats] or \
            len(set(s.table_seats)) != len(s.table_seats):
        raise bad("round.plays", "the plays come from seats that had their turn, in order")
    if s.round_no == 1 and s.phase == PLAY and (s.suit != s.first_suit
                                                 or s.leader != s.first_leader):
        raise bad("round.suit", "round 1 is led by the first leader in the drawn suit")
    if s.table and (s.suit < 0 or any(not IS_JOKER[c] and SUIT[c] != s.suit for c in s.table)):
        raise bad("round.suit", "the cards of a round are of its suit, or jokers (MDS-13)")
    if (s.round_no > 1 or s.phase != PLAY) and not s.table and s.suit >= 0:
        raise bad("round.suit", "a later round's suit is set by its lead (MDS-12)")
    idle = [x for x in order if x not in s.table_seats]
    if s.winner < 0 and not s.shou and idle:
        raise bad("round.plays", "before the 收到爽 phase every seat that had its turn played")
    if (s.collector >= 0 and (not s.shou or idle[:1] != [s.collector])) or (
            s.collector < 0 and s.winner < 0 and idle):
        raise bad("round.collector", "the collector is the first seat of the round that did "
                   "not play, in the 收到爽 phase (MDS-30)")
    if s.turns == n and not s.table:
        raise bad("round.plays", "a round in which nobody played cannot end")


def _check_duties(s: MdsState) -> None:
    if s.report_seat >= 0:
        k = s.report_count
        if len(s.hands[s.report_seat]) != k or (k == 1 and not s.options.mds_one_card_report):
            raise bad("report", "an open report is of the seat's card count, 2 (or 1, "
                       "MDS-26)")
    busy = s.pen_seat >= 0
    if busy and (bool(s.pen_draws) == bool(s.pen_gifts) or (s.pen_draws and not s.stock)):
        raise bad("penalty", "a penalty in progress owes draws (stock not empty) or gifts")
    if s.pen_draws and s.pen_seat < 0:
        raise bad("penalty", "draws are owed by an offender")
    g = s.pen_gifts
    if g and (not s.shou or s.pen_seat in g or len(set(g)) != len(g)
              or any(len(s.hands[x]) < 4 for x in g)
              or sorted(g, key=lambda x: (x - s.pen_seat) % s.n) != list(g)):
        raise bad("penalty.gift_seats", "givers are other seats holding four cards or more, "
                   "in turn order from the offender (MDS-25)")
    if len(s.missed) > 2:
        raise bad("missed_reports", "at most two MISSED_REPORTs are owed at once")
    empty = [i for i, h in enumerate(s.hands) if not h]
    if s.out_pending >= 0 and not (s.pen_seat == s.out_pending
                                   or (s.out_pending, JOKER) in s.missed):
        raise bad("out_pending", "a violation that emptied a hand awaits its penalty (MDS-20)")
    if s.winner < 0 and any(i != s.out_pending for i in empty):
        raise bad("hands", "only the winner (or a violator awaiting its penalty) holds no card")
    if s.phase == PLAY and s.winner < 0 and s.turns < s.n and not s.pen_gifts and \
            not s.missed and not s.pen_draws and not s.hands[s.turn_seat()]:
        raise bad("hands", "the seat to act holds no card")


def _check_end(s: MdsState) -> None:
    w = s.winner
    if w < 0:
        if s.phase in (END, OVER) or s.dianpao >= 0:
            raise bad("winner", "a game ends only once a seat has gone out (MDS-33)")
        if s.result is not None:
            raise bad("result", "only a finished game has a result")
        return
    if s.hands[w] or s.report_seat >= 0 or s.missed or s.pen_seat >= 0 or s.out_pending >= 0:
        raise bad("winner", "the winner holds no card; no report or penalty is due after it "
                   "(MDS-27)")
    if s.phase == PLAY:
        if w not in s.table_seats:
            raise bad("winner", "the winner's last card is in the final round (MDS-34)")
        want = dianpao_seat(s.table_seats, w, s.round_no, s.options.mds_dianpao)
        if s.dianpao != want:
            raise bad("dianpao", f"must be {want} (MDS-35)")
    elif s.table or s.turns:
        raise bad("round.plays", "after the final round the table is cleared")
    if s.phase == OVER:
        if s.result != rules.result_payload(s):
            raise bad("result", "must be the settlement of the final hands (MDS-37 to MDS-39)")
    elif s.result is not None:
        raise bad("result", "only a finished game has a result")


# ---------------------------------------------------------------- information (MDS-41)

PUBLIC_CARD_KINDS = frozenset({"PLAY", "ROUND_END", "NO_PLAY", "REPORT", "MISSED_REPORT",
                               "PHASE_SHOUDAOSHUANG", "GAME_END"})


def cards_visible(e: Event, seat: int | None) -> bool:
    """True if the seat (None: auditor) may see all of this event's cards (MDS-41): plays and
    collected cards are public; a deal or draw only its seat sees, a gift its giver and
    receiver; the deck and the suit draw (it carries the stock order) nobody."""
    if seat is None or e.kind in PUBLIC_CARD_KINDS or not e.cards:
        return True
    if e.kind in ("DEAL", "DRAW"):
        return e.seat == seat
    if e.kind == "GIFT":
        return seat in (e.seat, e.target)
    return False


def view(s: MdsState, seat: int | None) -> dict[str, Any]:
    """What a seat knew at this moment (MDS-41); seat None is the auditor, who sees all."""
    auditor = seat is None
    n = s.n
    drawer = (s.first_leader - 1) % n
    suit_draw: dict[str, Any] = {"drawer": drawer, "suit": _suit(s.first_suit)}
    if auditor or seat == drawer:
        suit_draw["cards"] = faces(s.suit_cards)
    to_act = to_move(s)
    oc = outcomes(s)
    v: dict[str, Any] = {
        "game": "modaoshuang", "game_id": s.game_id, "seq": s.seq, "phase": s.phase,
        "players": list(s.players), "perspective": "auditor" if auditor else seat,
        "hands": [faces(h) if auditor or i == seat else len(h) for i, h in enumerate(s.hands)],
        "hand_sizes": [len(h) for h in s.hands],
        "to_act": _opt_seat(to_act), "next_auto": rules.next_auto(s),
        "sides": [None] * n,
        "outcomes": None if oc is None else [
            {"place": o.place, "score": o.score, "result": o.result} for o in oc],
        "options": s.options.to_dict(), "first_leader": s.first_leader,
        "first_leader_rule": s.first_rule,
        "shoudaoshuang": s.shou, "stock_size": len(s.stock),
        "dead": faces(s.dead), "dead_count": len(s.dead),
        "suit_draw": suit_draw,
        "round": {
            "number": s.round_no, "leader": s.leader, "suit": _suit(s.suit),
            "lead_seat": s.table_seats[0] if s.table and s.round_no > 1 else None,
            "plays": [{"seat": p, "card": f} for p, f in zip(s.table_seats, faces(s.table),
                                                             strict=True)],
            "turns": s.turns, "collector": _opt_seat(s.collector),
        },
        "report": None if s.report_seat < 0 else {"seat": s.report_seat,
                                                  "count": s.report_count},
        "missed_reports": [{"seat": p, "cause": c} for p, c in s.missed],
        "penalty": None if s.pen_seat < 0 else {
            "seat": s.pen_seat, "cause": s.pen_cause,
            "kind": "draws" if s.pen_draws else "gifts", "draws_left": s.pen_draws,
            "gift_seats": list(s.pen_gifts)},
        "out_pending": _opt_seat(s.out_pending),
        "winner": _opt_seat(s.winner), "final_round": s.winner >= 0 and s.phase == PLAY,
        "dianpao": _opt_seat(s.dianpao),
        "result": None if s.result is None else json.loads(s.result),
    }
    if auditor:
        v["stock"] = faces(s.stock)
        v["deck"] = faces(s.deck)
    return v


def _seen_cards(e: Event, seat: int | None) -> tuple[int, ...]:
    """The cards of this event the seat sees: all (``cards_visible``), none, or for the suit
    drawer the cards it drew (jokers then the suited card), not the stock order after them."""
    if cards_visible(e, seat):
        return e.cards
    if e.kind == "SUIT_DRAW" and e.seat == seat:
        for i, c in enumerate(e.cards):
            if not IS_JOKER[c]:
                return e.cards[:i + 1]
    return ()


def seen_event(e: Event, seat: int | None) -> Event:
    """The event as the seat saw it (MDS-41): the cards it could see, and for another seat's
    turn DRAW not whether the drawer held the round suit (that would give a 诈摸 away)."""
    if seat is None:
        return e
    seen = e._replace(cards=_seen_cards(e, seat))
    if e.kind == "DRAW" and e.seat != seat and e.value != NONE:
        seen = seen._replace(value=NONE)
    return seen
