"""Positions: the full 六人斗地主 state as JSON and back (``liujia position``, ``liujia check``).

Cards are text faces, seats 0 … 5. ``from_position`` reads every field with the shared codec
(each error names the dotted field), checks that hands, kitty and played cards are exactly the
variant's pack and that the recorded facts agree with each other where the rules tie them (the
marks and the deck, the top play and its cards, the settlement and the state), so a loaded
position can only be played on or rejected with a typed error.
"""

from __future__ import annotations

import json
from typing import Any

from engine.cards import format_face
from engine.errors import EngineError
from engine.games.codec import (
    MAX_SEQ,
    Fields,
    bad,
    check_pack,
    faces_value,
    open_position,
    shown,
)
from engine.games.common import faces
from engine.games.ddz6 import play
from engine.games.ddz6.cards import deck, sort_hand
from engine.games.ddz6.combos import classify
from engine.games.ddz6.options import OPTIONS
from engine.games.ddz6.reach import check_reachable
from engine.games.ddz6.state import CASES, PHASES, DdzState

POSITION_FORMAT = "liujia.ddz6.position/1"
OWED_KINDS = ("DEAL", "CASE", "BID", "BID_END", "LANDLORDS", "KITTY", "SIDE_CHOICE",
              "SIDES_END", "AUTO_END", "SHOW_END", "REVEAL", "LOCK", "ROUND_END", "HAND_END",
              "GAME_END")
AUTO_REASONS = ("case_c", "a", "b", "c", "void")
END_REASONS = ("", "out", "auto", "void")
TURN_RULES = ("DDZ-70", "DDZ-71", "DDZ-72", "DDZ-74")


def _seat(x: int) -> int | None:
    return None if x < 0 else x


def _act(a: tuple[int, ...] | None) -> Any:
    """A seat's last act of the round in JSON: null, "pass" or the faces it played."""
    return None if a is None else "pass" if not a else faces(a)


def _read_act(v: Any, name: str) -> tuple[int, ...] | None:
    if v is None or v == "pass":
        return None if v is None else ()
    cards = faces_value(v, name) if isinstance(v, list) else None
    if not cards:
        raise bad(name, f"must be null, \"pass\" or the faces the seat played, got {shown(v)}")
    return cards


def to_position(s: DdzState) -> dict[str, Any]:
    """The full state as a JSON-ready dict."""
    from engine.games.ddz6.game import game_id_of
    return {
        "format": POSITION_FORMAT, "game": game_id_of(s.variant), "game_id": s.game_id,
        "seq": s.seq, "phase": s.phase, "owed": list(s.owed), "options": s.options.to_dict(),
        "players": list(s.players), "deck": faces(s.deck),
        "hands": [faces(h) for h in s.hands], "kitty": faces(s.kitty),
        "shares": [faces(h) for h in s.shares], "played": faces(s.played),
        "marks": {"open": _seat(s.mark_pos), "dark": _seat(s.dark_pos)},
        "case": s.case or None, "p_seat": _seat(s.p_seat), "hidden": list(s.hidden),
        "revealed": list(s.revealed), "landlords": list(s.landlords), "fixed": s.fixed,
        "solo": s.solo,
        "bidding": {"order": list(s.bid_order), "bids": list(s.bids),
                    "winner": _seat(s.bid_winner), "bid": s.bid_value},
        "side_choosing": {"farmers": list(s.farmer_order), "sides": list(s.side_of),
                          "placed": list(s.placed), "ended": s.sides_done},
        "doubles": list(s.doubles), "shows": list(s.shows), "shown": list(s.shown),
        "auto": None if not s.auto else {"reason": s.auto[0], "seat": _seat(s.auto[1]),
                                         "side": s.auto[2]},
        "S": s.base, "N": s.mult, "bomb_increments": list(s.bomb_incs),
        "round": {"number": s.round_no, "leader": _seat(s.leader), "turn": _seat(s.turn),
                  "turn_rule": s.turn_rule, "top_seat": _seat(s.top_seat),
                  "top_cards": faces(s.top_cards), "passes": s.passes,
                  "last": [_act(a) for a in s.acts]},
        "locked": format_face(s.locked) if s.locked >= 0 else None,
        "end": {"out_seat": _seat(s.out_seat), "winning_side": s.win_side,
                "reason": s.end_reason},
        "result": None if s.result is None else json.loads(s.result),
    }


def _ints(f: Fields, key: str, lo: int, hi: int) -> tuple[int, ...]:
    out = []
    for i, x in enumerate(f.list(key)):
        if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
            raise bad(f"{f.name(key)}[{i}]", f"must be an integer from {lo} to {hi}")
        out.append(x)
    return tuple(out)


def from_position(pos: dict[str, Any], *, scenario: bool = False) -> DdzState:
    """A state from a position dict (raises PositionError naming the field); ``scenario`` is
    for hand-built rule tests: every field is read and typed, the top play and the events
    owed are checked, but not that the cards are the pack or that a hand reaches it."""
    from engine.games.ddz6.game import fresh, game_id_of
    game = pos.get("game") if isinstance(pos, dict) else None
    variant = next((v for v in OPTIONS if game_id_of(v) == game), None)
    if variant is None:
        raise bad("game", "must be ddz6_3v3, ddz6_2v4 or ddz6_zhengfan")
    open_position(pos, POSITION_FORMAT, game_id_of(variant))
    f = Fields(pos, n_seats=6)
    opts = f.options("options", OPTIONS[variant])
    players = tuple(f.per_seat("players", lambda v, n: _player(f, v, n)))
    cards = f.faces("deck")
    if sorted(cards) != sorted(deck(variant)):
        raise bad("deck", f"must be the {len(deck(variant))}-card pack of the variant")
    before = fresh(variant, f.ident("game_id"), opts, players, cards)  # type: ignore[arg-type]
    # the fields as read, in reading order (errors name the first), over those of the deal
    v: dict[str, Any] = {name: getattr(before, name) for name in DdzState.FIELDS}
    v["seq"] = f.int("seq", 1, MAX_SEQ)
    v["phase"] = f.choice("phase", PHASES)
    v["owed"] = tuple(_owed(f, x, i) for i, x in enumerate(f.list("owed")))
    v["hands"] = tuple(sort_hand(h) for h in f.per_seat("hands", faces_value))
    v["kitty"] = f.faces("kitty")
    v["shares"] = f.per_seat("shares", faces_value)
    v["played"] = f.faces("played")
    check_pack([(f"hands[{i}]", h) for i, h in enumerate(v["hands"])]
               + [("kitty", v["kitty"]), ("played", v["played"])], deck(variant), "pack",
               partial=scenario or not any(v["hands"]))
    _read_marks(f, v)
    _read_identities(f, v)
    _read_play(f, v)
    f.done("format", "game")
    s = DdzState(**v)
    _check_consistent(s, scenario, acts_known="last" in (pos.get("round") or {}))
    return s


def _check_consistent(s: DdzState, scenario: bool, acts_known: bool = True) -> None:
    """The facts the rules tie together: choices made by seats that decide, the landlords'
    count, a hand the deck and the recorded choices reach (``reach``, unless a scenario), and
    a state whose next events the engine can build (a safety net: any failure to build them
    is refused naming the field ``owed``)."""
    from engine.games.ddz6.game import legal_actions
    if not scenario:
        check_reachable(s, acts_known)
    if not any(s.hands) and (s.played or s.kitty or any(s.shares)):
        raise bad("played", "before the deal no card is played, kept back or taken")
    if (s.passes == 5) != (s.owed[:1] == ("ROUND_END",)):
        raise bad("round.passes", "five passes in succession owe ROUND_END, fewer do not")
    if len(s.shows) > len(s.landlords):
        raise bad("shows", "one choice per deciding landlord at most (DDZ-38)")
    if len(s.doubles) > 6:
        raise bad("doubles", "one choice per seat at most (DDZ-37)")
    if len(s.landlords) > (1 if s.solo else 3 if s.variant == "3v3" else 2):
        raise bad("landlords", "too many landlords for the variant")
    try:
        legal_actions(s)
    except EngineError:
        raise
    except (IndexError, KeyError, ValueError, TypeError) as exc:
        raise bad("owed", f"the next event cannot follow from this position "
                  f"({type(exc).__name__})") from None


def _player(f: Fields, v: Any, name: str) -> str:
    from engine.games.codec import id_value
    out = id_value(v, name)
    assert out is not None
    return out


def _owed(f: Fields, x: Any, i: int) -> str:
    if x not in OWED_KINDS:
        raise bad(f"owed[{i}]", f"must be one of {', '.join(OWED_KINDS)}")
    return x


def _read_marks(f: Fields, v: dict[str, Any]) -> None:
    m = f.sub("marks")
    v["mark_pos"] = m.int("open", 0, len(v["deck"]) - 1) if m.get("open") is not None else -1
    m.read.add("open")
    v["dark_pos"] = m.int("dark", 0, len(v["deck"]) - 1) if m.get("dark") is not None else -1
    if v["mark_pos"] >= 0:
        v["mark_face"], v["om"] = v["deck"][v["mark_pos"]], v["mark_pos"] % 6
    if v["dark_pos"] >= 0:
        if not v["four"]:
            raise bad("marks.dark", "3v3 has one marked card")
        v["dm"] = v["dark_pos"] % 6
    if (v["mark_pos"] < 0) != (not any(v["hands"])):
        raise bad("marks.open", "the mark is recorded exactly when the cards are dealt")


def _read_identities(f: Fields, v: dict[str, Any]) -> None:
    v["case"] = f.get("case") or ""
    if v["case"] and (v["four"] or v["case"] not in CASES):
        raise bad("case", "is A, B1, B2 or C, in 3v3 only")
    v["p_seat"] = f.seat("p_seat", allow_none=True)
    v["hidden"], v["revealed"] = f.seats("hidden"), f.seats("revealed")
    if not set(v["revealed"]) <= set(v["hidden"]):
        raise bad("revealed", "only a hidden landlord is revealed")
    v["landlords"], v["fixed"] = f.seats("landlords"), f.bool("fixed")
    v["solo"] = f.bool("solo")
    b = f.sub("bidding")
    v["bid_order"], v["bids"] = b.seats("order"), _ints(b, "bids", 0, 3)
    if len(v["bids"]) > len(v["bid_order"]):
        raise bad("bidding.bids", "one bid per seat of the order at most")
    v["bid_winner"], v["bid_value"] = b.seat("winner", allow_none=True), b.int("bid", 0, 3)
    sc = f.sub("side_choosing")
    v["farmer_order"], v["placed"] = sc.seats("farmers"), sc.seats("placed")
    v["side_of"] = _ints(sc, "sides", -1, 1)
    v["sides_done"] = sc.bool("ended")
    if v["side_of"] and len(v["side_of"]) != 6:
        raise bad("side_choosing.sides", "one side per seat, or none")
    v["doubles"], v["shows"] = _ints(f, "doubles", 0, 1), _ints(f, "shows", 0, 1)
    v["shown"] = f.seats("shown")
    a = f.optional_sub("auto")
    if a is not None:
        v["auto"] = (a.choice("reason", AUTO_REASONS), a.seat("seat", allow_none=True),
                  a.int("side", -1, 1))


def _known_acts(v: dict[str, Any]) -> tuple[tuple[int, ...] | None, ...]:
    """The last acts a position without ``round.last`` implies: the top play's, and the passes
    since it; the others are not known (None)."""
    acts: list[tuple[int, ...] | None] = [None] * 6
    if v["top_seat"] >= 0:
        acts[v["top_seat"]] = tuple(v["top_cards"])
        for j in range(1, v["passes"] + 1):
            acts[(v["top_seat"] + j) % 6] = ()
    return tuple(acts)


def _read_play(f: Fields, v: dict[str, Any]) -> None:
    v["base"], v["mult"] = f.int("S", 0, 10 ** 9), f.int("N", 1, 10 ** 6)
    v["bomb_incs"] = _ints(f, "bomb_increments", 0, 10)
    r = f.sub("round")
    v["round_no"], v["passes"] = r.int("number", 0, 10 ** 6), r.int("passes", 0, 5)
    v["leader"], v["turn"] = r.seat("leader", allow_none=True), r.seat("turn", allow_none=True)
    v["turn_rule"] = r.choice("turn_rule", TURN_RULES)
    v["top_seat"], v["top_cards"] = r.seat("top_seat", allow_none=True), r.faces("top_cards")
    if "last" in r.obj:
        v["acts"] = r.per_seat("last", _read_act)
    else:       # a position of liujia 0.2.0 (before round.last): what its fields tell
        v["acts"] = _known_acts(v)
    if v["top_cards"]:
        v["top"] = classify(v["top_cards"], v["variant"], v["options"])
        if v["top"] is None or v["top_seat"] < 0:
            raise bad("round.top_cards", "the top play is a combination with its seat")
    elif v["top_seat"] >= 0:
        raise bad("round.top_seat", "no top play, no top seat")
    locked = f.get("locked")
    v["locked"] = -1 if locked is None else faces_value([locked], "locked")[0]
    e = f.sub("end")
    v["out_seat"] = e.seat("out_seat", allow_none=True)
    v["win_side"] = e.int("winning_side", -1, 1)
    v["end_reason"] = e.choice("reason", END_REASONS)
    res = f.get("result")
    if v["phase"] == "over":
        want = play.result_payload(DdzState(**v))     # the state but its result
        if res != json.loads(want):
            raise bad("result", "must be the settlement of this state (DDZ-81 … DDZ-90)")
        v["result"] = want
    elif res is not None:
        raise bad("result", "only a finished hand has a result")
