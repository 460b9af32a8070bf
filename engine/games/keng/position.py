"""Positions (KENG-51): the full 六人坑 state as JSON and back, and per-seat views (KENG-50).

The format is documented in docs/positions.md; cards are text faces, seats are 0-5.
"""

from __future__ import annotations

from typing import Any, cast

from engine.cards import KING, RED_JOKER, face_code, format_face
from engine.events import Event
from engine.games.codec import (
    MAX_SEQ,
    Fields,
    bad,
    bool_value,
    check_pack,
    faces_value,
    open_position,
    player_value,
)
from engine.games.common import faces as _faces
from engine.games.keng.cards import (
    CLASS,
    IS_JOKER,
    NUMBER,
    RANK,
    RJ,
    SUIT,
    A,
    K,
    Q,
    deck,
    deck_copies,
)
from engine.games.keng.options import KengOptions
from engine.games.keng.plays import form_rule
from engine.games.keng.state import (
    DEALING,
    N_SEATS,
    OVER,
    PLAYING,
    STARTING,
    Duel,
    KengState,
    team_of,
)

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


def from_position(p: Any, *, scenario: bool = False) -> KengState:
    """A state from its JSON form; raises PositionError (an InvalidEvent) naming the bad field
    for anything no game can reach (docs/positions.md, "What is checked"). ``scenario`` is for
    hand-built rule tests: every field is still read and typed, but only the shape the rules
    need is checked, not that a game could reach the position (never for untrusted input)."""
    open_position(p, POSITION_FORMAT, "keng")
    f = Fields(p, N_SEATS)
    f.choice("game", ("keng",))
    v: dict[str, Any] = {}     # the fields as read, in reading order (errors name the first)
    v["game_id"] = f.ident("game_id")
    v["options"] = f.options("options", KengOptions)
    v["players"] = f.per_seat("players", player_value)
    v["opener"] = f.seat("opener")
    v["deck"] = f.faces("deck")
    v["seq"] = f.int("seq", 1, MAX_SEQ)
    v["phase"] = f.choice("phase", (DEALING, STARTING, PLAYING, OVER))
    v["hands"] = f.per_seat("hands", lambda v, name: tuple(sorted(faces_value(v, name))))
    v["stock"] = f.faces("stock")
    v["table"] = f.faces("table")
    _read_top(v, f.sub("top"))
    v["pending"] = f.int("pending_draw", 0, max_pending(v["options"]))
    v["direction"] = f.choice("direction", (1, -1))
    v["cycle"] = f.int("cycle", 1, MAX_SEQ)
    v["to_act"] = f.seat("to_act")
    v["turn_rule"] = f.choice("turn_rule", TURN_RULES, "KENG-15")
    v["drawn"] = f.bool("drawn_two")
    v["accepted"] = f.bool("accepted")
    v["drew_cards"] = f.bool("drew_cards", False)
    _read_flow(v, f)
    v["result"] = _read_result(f)
    f.done("format", "game")
    s = KengState(**v)
    if scenario:
        _check_shape(s)
    else:
        check_position(s)
    return s


def _read_flow(v: dict[str, Any], f: Fields) -> None:
    """The owed draw, the duel, windows, bans, counts, duties and the end owed."""
    n_cards = len(deck(v["options"]))
    o = f.optional_sub("owed_draw")
    v["owed"] = None if o is None else (o.seat("seat"), o.choice("kind", OWED_KINDS),
                                        o.int("cards", 1, n_cards))
    d = f.optional_sub("duel")
    v["duel"] = None if d is None else Duel(d.seat("challenger"), d.seat("defender"),
                                            d.faces("cards"), d.seat("to_act"),
                                            d.seat("next_seat"))
    dd = f.optional_sub("duel_start_due")
    v["duel_due"] = None if dd is None else (dd.seat("challenger"), dd.seat("defender"),
                                             dd.seat("next_seat"))
    v["window"] = f.bool("snatch_window_open")
    v["banned"] = f.per_seat("banned", bool_value)
    v["ban_armed"] = f.per_seat("ban_ends_with_window", bool_value)
    v["ban_end_due"] = f.seats("ban_end_due")
    v["count_used"] = f.per_seat("count_used", bool_value)
    v["report_seat"] = f.seat("last_card_obligation", allow_none=True)
    pd = f.optional_sub("penalty_due")
    v["penalty_due"] = None if pd is None else (pd.choice("kind", PENALTY_KINDS),
                                                pd.seat("seat"))
    v["reshuffle_due"] = f.bool("reshuffle_due")
    v["passes"] = f.int("passes_in_a_row", 0, MAX_SEQ)
    ed = f.optional_sub("end_due")
    v["end_due"] = None if ed is None else (ed.choice("reason", END_REASONS),
                                            ed.int("seat", -1, N_SEATS - 1),
                                            ed.int("team", -1, 1))


def _read_top(v: dict[str, Any], top: Fields) -> None:
    v["top"] = top.faces("cards")
    seat = top.get("seat")
    v["top_seat"] = -1 if seat == -1 and not isinstance(seat, bool) else \
        top.seat("seat", allow_none=True)
    suit = top.get("suit")
    v["top_suit"] = -1 if suit is None else SUITS.index(top.choice("suit", tuple(SUITS)))
    v["top_start"] = top.bool("start_card")
    v["top_duel"] = top.bool("duel_card")
    v["covered"] = top.faces("covered")


def _read_result(f: Fields) -> dict | None:
    """GAME_END's result (KENG-49): its four fields, checked against the state later."""
    r = f.optional_sub("result")
    if r is None:
        return None
    seat = r.seat("deciding_seat", allow_none=True)
    out = {"reason": r.choice("reason", END_REASONS),
           "deciding_seat": None if seat < 0 else seat,
           "winning_team": r.choice("winning_team", (None, *TEAM_NAMES)),
           "final_hands": r.get("final_hands")}
    r.per_seat("final_hands", faces_value)
    return out


OWED_KINDS = ("ACCEPT", "DRAW", "DUEL_END", "REPORT_PENALTY", "SNATCH_PENALTY")
PENALTY_KINDS = ("REPORT_PENALTY", "SNATCH_PENALTY")
END_REASONS = ("out", "over_limit", "stalemate")
TEAM_NAMES = ("even", "odd")
# The rules that make a seat the seat to act (rules.py, game.py): what turn_rule may cite.
TURN_RULES = ("KENG-8", "KENG-9", "KENG-14", "KENG-15", "KENG-22", "KENG-23", "KENG-24",
              "KENG-26", "KENG-30", "KENG-35")


def max_pending(opts: KengOptions) -> int:
    """The largest pending draw the pack allows: every K (2 each) and every RJ stacked."""
    copies = deck_copies(opts)
    ks = sum(copies[face_code(KING, suit)] for suit in range(4))
    return 2 * ks + max(4, opts.keng_rj_stack_value) * copies[RED_JOKER]


def _check_shape(s: KengState) -> None:
    """What the rules need of a scenario position so that they cannot crash on it."""
    if s.phase in (PLAYING, OVER) and not 1 <= len(s.top) <= 3:
        raise bad("top.cards", "a started game has a top play of 1-3 cards")
    if s.top and s.top_suit < 0:
        raise bad("top.suit", "the top play needs its active suit")
    if s.duel is not None and not s.duel.cards:
        raise bad("duel.cards", "a duel has at least its starting A")


def check_position(s: KengState) -> None:
    """Raise PositionError unless the state is one the rules can reach: the pack, the phase's
    fixed fields, the top play, the turn, the duel, windows and bans, and the end."""
    _check_cards(s)
    if s.phase in (DEALING, STARTING):
        _check_before_play(s)
        return
    _check_top(s)
    _check_turn(s)
    _check_duel(s)
    _check_snatch(s)
    _check_end(s)


def _check_cards(s: KengState) -> None:
    """The deck is the pack of the options (KENG-3); the cards of every place are that pack."""
    pack = deck(s.options)
    if sorted(s.deck) != list(pack):
        raise bad("deck", f"must be the {len(pack)}-card pack of these options (KENG-3) in "
                  f"its shuffled order, got {len(s.deck)} cards of another composition")
    places = [(f"hands[{i}]", h) for i, h in enumerate(s.hands)]
    places += [("stock", s.stock), ("table", s.table), ("top.cards", s.top)]
    check_pack(places, pack, "pack of these options (KENG-3)",
               partial=s.phase == DEALING, missing_field="stock")
    for name, cards in (("duel.cards", () if s.duel is None else s.duel.cards),
                        ("top.covered", s.covered)):
        check_pack([(name, cards)], pack, "pack of these options (KENG-3)", partial=True)
    if len(s.covered) > 3 or (s.covered and form_rule(s.covered)):
        raise bad("top.covered", "is the play the top play covered: one card, a pair or two "
                  "or three RJ (KENG-16), or none")


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


# ---------------------------------------------------------------- invariants (KENG-51)

def _fresh(s: KengState) -> dict[str, tuple[str, Any]]:
    """Position field -> (state attribute, value) of everything the deal and the start card
    leave untouched: a position before the start card has these values."""
    no = (False,) * N_SEATS
    return {"table": ("table", ()), "top.cards": ("top", ()), "top.seat": ("top_seat", -1),
            "top.suit": ("top_suit", -1), "top.start_card": ("top_start", False),
            "top.duel_card": ("top_duel", False), "top.covered": ("covered", ()),
            "pending_draw": ("pending", 0), "direction": ("direction", 1), "cycle": ("cycle", 1),
            "drawn_two": ("drawn", False), "accepted": ("accepted", False),
            "drew_cards": ("drew_cards", False), "owed_draw": ("owed", None),
            "duel": ("duel", None), "duel_start_due": ("duel_due", None),
            "snatch_window_open": ("window", False), "banned": ("banned", no),
            "ban_ends_with_window": ("ban_armed", no), "ban_end_due": ("ban_end_due", ()),
            "last_card_obligation": ("report_seat", -1), "penalty_due": ("penalty_due", None),
            "reshuffle_due": ("reshuffle_due", False), "passes_in_a_row": ("passes", 0),
            "end_due": ("end_due", None), "result": ("result", None)}


def _check_before_play(s: KengState) -> None:
    """KENG-8, KENG-9: during the deal each seat dealt so far holds its cards of the deck, in
    seat order from the opener; before the start card the stock is the rest of the deck,
    the flipper is to act and only count rights can have been used."""
    for name, (attr, value) in _fresh(s).items():
        if getattr(s, attr) != value:
            raise bad(name, f"must be {_json(value)} before the start card (KENG-8, KENG-9)")
    h = s.options.keng_hand_size
    flipper = (s.opener + 3) % N_SEATS
    dealt = (s.to_act - s.opener) % N_SEATS if s.phase == DEALING else N_SEATS
    if s.phase == DEALING:
        for name, wrong in (("seq", s.seq != 1 + dealt), ("stock", bool(s.stock)),
                            ("count_used", any(s.count_used)),
                            ("turn_rule", s.turn_rule != "KENG-8")):
            if wrong:
                raise bad(name, f"during the deal (seat {s.to_act} is dealt next) the next "
                          f"seq is {1 + dealt}, the stock is empty and nothing else has "
                          "happened (KENG-8)")
    elif s.to_act != flipper or s.turn_rule != "KENG-9" or s.seq < 7 + sum(s.count_used):
        raise bad("to_act", f"before the start card seat {flipper} (opposite the opener) "
                  "turns it (KENG-9), at seq 7 or later")
    for j in range(N_SEATS):
        seat = (s.opener + j) % N_SEATS
        want = tuple(sorted(s.deck[j:6 * h:6])) if j < dealt else ()
        if s.hands[seat] != want:
            raise bad(f"hands[{seat}]", "must be the seat's deal from the deck, one card at "
                      "a time from the opener (KENG-8)")
    if s.phase == STARTING and s.stock != s.deck[6 * h:]:
        raise bad("stock", "before the start card the stock is the deck after the deal "
                  "(KENG-8)")


def _json(v: Any) -> str:
    """A fresh value as the position writes it, for messages."""
    if v is None or isinstance(v, bool):
        return "null" if v is None else "false"
    if isinstance(v, tuple):
        return "[]" if not v else "false for every seat"
    return str(v)


def _check_top(s: KengState) -> None:
    """The top play of a started game: a play form (KENG-16) by a seat, its active suit
    (KENG-20), the start card only by the flipper, a duel card only an A or a number card."""
    top = s.top
    if not 1 <= len(top) <= 3 or form_rule(top):
        raise bad("top.cards", "a started game has a top play: one card, a pair, or two or "
                  "three RJ (KENG-16)")
    if s.top_seat < 0:
        raise bad("top.seat", "the top play of a started game has a player (KENG-9)")
    if s.top_suit < 0 or (not IS_JOKER[top[0]] and s.top_suit != SUIT[top[0]]):
        raise bad("top.suit", "is the top play's suit, or the suit named for a joker play "
                  "(KENG-20)")
    if s.top_start and (len(top) > 1 or s.top_seat != (s.opener + 3) % N_SEATS or s.table
                        or s.cycle != 1):
        raise bad("top.start_card", "the start card is one card turned by the flipper in "
                  "cycle 1, with nothing played under it (KENG-9)")
    if s.top_duel and CLASS[top[0]] not in (A, NUMBER):
        raise bad("top.duel_card", "a duel card is an A or a number card (KENG-30)")


def _check_turn(s: KengState) -> None:
    """P, the seat-to-act's draws this turn and the draw owed (KENG-11, KENG-12, KENG-27)."""
    cls = CLASS[s.top[0]]
    if s.pending and (cls not in (K, RJ) or s.drawn or s.accepted or s.duel is not None
                      or s.duel_due is not None):
        raise bad("pending_draw", "a pending draw follows a K or RJ play, before the seat "
                  "facing it has drawn (KENG-24, KENG-26, KENG-27)")
    if s.accepted and cls not in (K, RJ):
        raise bad("accepted", "a seat accepts the draw of a K or RJ play, still the top play "
                  "(KENG-11)")
    if s.drew_cards and not (s.drawn or s.accepted):
        raise bad("drew_cards", "only a seat that drew two or accepted this turn took cards")
    if s.passes and (s.pending or s.window or s.duel is not None or s.duel_due is not None):
        raise bad("passes_in_a_row", "passes follow a draw with no pending draw, and close the "
                  "snatch window (KENG-12, KENG-36)")
    if s.seq < 8:
        raise bad("seq", "a started game is at seq 8 or later: GAME_START, six DEALs and the "
                  "start card came first")
    for name, v in (("cycle", s.cycle), ("passes_in_a_row", s.passes)):
        if v > s.seq:
            raise bad(name, f"is {v}, more than the {s.seq} events so far (each new cycle is a "
                      "RESHUFFLE, each pass an event)")
    _check_to_act(s)
    if (s.drawn or s.accepted) and (s.duel is not None or s.duel_due is not None):
        raise bad("drawn_two" if s.drawn else "accepted", "nobody draws in a duel (KENG-30)")
    if s.window and s.cycle < 2:
        raise bad("snatch_window_open", "plays open a window only from cycle 2 (KENG-36)")
    if s.reshuffle_due and (s.stock or not s.table):
        raise bad("reshuffle_due", "a reshuffle is owed when the stock is empty and cards "
                  "lie under the top play (KENG-43, KENG-44)")
    if s.owed is None:
        return
    seat, kind, _ = s.owed
    if not (s.reshuffle_due or s.stock) or s.penalty_due is not None:
        raise bad("owed_draw", "a split draw continues from the reshuffled stock, before any "
                  "other penalty (keng.md section 13)")
    if kind in ("ACCEPT", "DRAW") and (seat != s.to_act or not (s.accepted if kind == "ACCEPT"
                                                               else s.drawn)):
        raise bad("owed_draw.seat", f"a {kind} is the seat to act's, made this turn")


def _check_to_act(s: KengState) -> None:
    """The seat to act follows from the top play and the rule that made it act (KENG-9,
    KENG-15, KENG-22 to KENG-24, KENG-26, KENG-35); in a duel it is the duel's next seat."""
    d, top, rule = s.direction, s.top, s.turn_rule
    if s.duel is not None or s.duel_due is not None:
        nxt = s.duel.next_seat if s.duel is not None else \
            cast(tuple[int, int, int], s.duel_due)[2]
        want = nxt if rule in ("KENG-9", "KENG-15") else -1
    elif rule == "KENG-9":
        skip = 1 if s.top_start and CLASS[top[0]] == Q else 0
        want = (s.opener + skip * d) % N_SEATS if s.top_start else -1
    elif rule == "KENG-23":
        skip = len(top) if s.options.keng_pair_action == "each" else 1
        want = (s.top_seat + (1 + skip) * d) % N_SEATS if CLASS[top[0]] == Q else -1
    elif rule in ("KENG-15", "KENG-22", "KENG-24", "KENG-26", "KENG-35") and not s.top_duel:
        want = (s.top_seat + d) % N_SEATS
    elif rule in ("KENG-14", "KENG-30"):
        return                  # after passes, or after a duel: any seat may be reached
    else:
        want = -1
    if s.to_act != want:
        raise bad("to_act", f"seat {s.to_act} is not the seat the top play of seat "
                  f"{s.top_seat} and turn rule {rule} give"
                  + (f" (seat {want})" if want >= 0 else ""))


def _duel_step_ok(last: int, f: int) -> bool:
    """KENG-30 step 2: may f follow the duel card last?"""
    if CLASS[last] == A:
        return CLASS[f] == A or (CLASS[f] == NUMBER and SUIT[f] == SUIT[last])
    return CLASS[f] == NUMBER and (SUIT[f] == SUIT[last] or RANK[f] == RANK[last])


def _check_duel(s: KengState) -> None:
    """A duel owed or under way: two opposite seats, an A (or A pair) then duel cards, the
    top play its last card, made by the duellist not to act (KENG-29, KENG-30)."""
    if s.duel_due is not None:
        ch, de, _ = s.duel_due
        if de != (ch + 3) % N_SEATS or CLASS[s.top[0]] != A or s.top_seat != ch \
                or not s.top_duel or s.duel is not None:
            raise bad("duel_start_due", "a duel is owed right after an A, between its player "
                      "and the opposite seat (KENG-29)")
    d = s.duel
    if d is None:
        return
    cards = d.cards
    if d.defender != (d.challenger + 3) % N_SEATS or d.to_act not in (d.challenger,
                                                                      d.defender):
        raise bad("duel", "a duel is between a seat and its opposite, one of them to act "
                  "(KENG-30)")
    if not cards or CLASS[cards[0]] != A or not all(
            _duel_step_ok(a, b) for a, b in zip(cards, cards[1:], strict=False)):
        raise bad("duel.cards", "an A (or A pair) then duel cards that follow it (KENG-30)")
    other = d.challenger + d.defender - d.to_act
    if cards[-len(s.top):] != s.top or not s.top_duel or s.top_seat != other:
        raise bad("top.cards", "in a duel the top play is the last duel card, by the duellist "
                  "not to act (KENG-30)")


def _check_snatch(s: KengState) -> None:
    """Bans (KENG-39) come from false claims (cycle 2 on); a ban armed to end with the open
    window, or owed to end, belongs to a banned seat; a last-card duty and penalties only in
    a started game."""
    if any(s.banned) and s.cycle < 2:
        raise bad("banned", "bans come from false claims, made from cycle 2 on (KENG-38)")
    for i in range(N_SEATS):
        if s.ban_armed[i] and not (s.banned[i] and s.window):
            raise bad(f"ban_ends_with_window[{i}]", "only a banned seat's ban ends with the "
                      "open snatch window (KENG-39)")
    for i in s.ban_end_due:
        if not s.banned[i] or s.ban_armed[i]:
            raise bad("ban_end_due", f"seat {i} is owed a BAN_END, so it is banned and its "
                      "ban is not armed again (KENG-39)")


def _check_end(s: KengState) -> None:
    """Empty hands and hands over the limit end the game (KENG-46, KENG-47, KENG-48); the
    end owed and the result agree with the hands (KENG-49)."""
    limit = s.options.keng_hand_limit
    owed_seat = -1 if s.owed is None else s.owed[0]
    for i, h in enumerate(s.hands):
        ended = s.phase == OVER or (s.end_due is not None and s.end_due[1] == i)
        if not h and not ended:
            raise bad(f"hands[{i}]", "a seat that played its last card has ended the game "
                      "(KENG-46)")
        if len(h) > limit and not ended and i != owed_seat:
            raise bad(f"hands[{i}]", f"holds {len(h)} cards, more than the hand limit "
                      f"{limit}: that ends the game (KENG-47)")
    if s.passes >= 6 and not s.stock and not s.table and s.phase == PLAYING \
            and s.end_due is None:
        raise bad("passes_in_a_row", "six passes with nothing to draw end the game (KENG-48)")
    if s.end_due is not None:
        if s.phase == OVER:
            raise bad("end_due", "a finished game owes no GAME_END")
        _check_reason(s, "end_due", *s.end_due)
    if (s.phase == OVER) != (s.result is not None):
        raise bad("result", "a finished game has its result, an unfinished one none")
    if s.result is not None:
        r = s.result
        seat = -1 if r["deciding_seat"] is None else r["deciding_seat"]
        team = -1 if r["winning_team"] is None else TEAM_NAMES.index(r["winning_team"])
        _check_reason(s, "result", r["reason"], seat, team)
        want = {"reason": r["reason"], "deciding_seat": r["deciding_seat"],
                "winning_team": r["winning_team"],
                "final_hands": [[format_face(c) for c in h] for h in s.hands]}
        if r != want:
            raise bad("result.final_hands", "are the hands the game ended with (KENG-49)")


def _check_reason(s: KengState, field: str, reason: str, seat: int, team: int) -> None:
    """How a game ends: a seat out (its team wins), over the limit (its team loses), or a
    stalemate (no seat, no winner)."""
    if reason == "stalemate":
        ok = seat == -1 and team == -1
    else:
        ok = seat >= 0 and team == (team_of(seat) if reason == "out" else 1 - team_of(seat))
        ok = ok and (not s.hands[seat] if reason == "out"
                     else len(s.hands[seat]) > s.options.keng_hand_limit)
    if not ok:
        raise bad(field, f"{reason!r} is not how this game ended: 'out' names the seat whose "
                  "hand is empty and its team, 'over_limit' the seat over the hand limit and "
                  "the other team, 'stalemate' neither (KENG-46 to KENG-49)")
