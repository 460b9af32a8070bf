"""Positions: the full 扑克六湖 hand state as JSON and back (``liujia position``, ``liujia
check``).

Cards are text faces, seats 0 … 5. ``from_position`` reads every field with the shared codec
(each error names the dotted field) and checks the invariants the rules rely on: the cards of
the wall, hands, melds, pool and a held 加杠 card are exactly the options' pack (LH-4, LH-5),
the counts of LH-19, the window's eligibility and answers (LH-34), the wins, settlement and
result (LH-59 … LH-68). ``scenario`` is for hand-built rule tests: the hands need not be the
ring dealt and drawn in order; every other check stays.
"""

from __future__ import annotations

import json
from typing import Any

from engine.games.codec import MAX_SEQ, Fields, bad, check_pack, open_position
from engine.games.common import faces
from engine.games.liuhu import claims, scoring
from engine.games.liuhu.cards import RJ, SEATS, pack
from engine.games.liuhu.options import LiuhuOptions
from engine.games.liuhu.rules import to_move
from engine.games.liuhu.setup import break_index, wall_of
from engine.games.liuhu.state import (
    AWARD,
    CLAIM,
    CLAIM_KINDS,
    CLAIMED,
    DEAL,
    DISCARD_WINDOW,
    END,
    MELD_KINDS,
    MING_GANG,
    OVER,
    PASS,
    PHASES,
    RESPOND,
    ROB_WINDOW,
    SETTLE,
    TAIL,
    TURN,
    WIN_TYPES,
    WINDOW,
    ZIMO,
    LhState,
)

POSITION_FORMAT = "liujia.liuhu.position/1"
WINDOW_PHASES = (WINDOW, RESPOND, AWARD, CLAIM)


def _opt(x: int) -> int | None:
    return None if x < 0 else x


def _claim(c: tuple) -> list[Any]:
    return [c[0], *faces(c[1])]


def to_position(s: LhState) -> dict[str, Any]:
    """The full state as a JSON-ready dict."""
    window = None
    if s.w_kind:
        window = {"kind": s.w_kind, "card": faces((s.w_card,))[0], "from": s.w_from,
                  "eligible": [[x, [_claim(c) for c in cl]] for x, cl in s.eligible],
                  "answers": [[x, _claim(c)] for x, c in s.answers],
                  "calls": [[x, _claim(c)] for x, c in s.calls],
                  "pending": [[x, _claim(c)] for x, c in s.pending]}
    return {
        "format": POSITION_FORMAT, "game": "liuhu", "game_id": s.game_id, "seq": s.seq,
        "phase": s.phase, "options": s.options.to_dict(), "players": list(s.players),
        "previous_game": s.previous_game, "session": s.session, "hand": s.hand_no,
        "first_dealer": s.first_dealer, "dealer": s.dealer, "dice": list(s.dice),
        "ring": faces(s.ring), "break": s.brk, "wall": faces(s.wall), "front": s.front,
        "tail": s.tail, "balances": list(s.balances), "turn": s.turn,
        "drawn": faces((s.drawn,))[0] if s.drawn >= 0 else None,
        "hands": [faces(h) for h in s.hands],
        "melds": [[{"kind": k, "cards": faces(c), "from": _opt(f),
                    "card": faces((x,))[0] if x >= 0 else None} for k, c, f, x in row]
                  for row in s.melds],
        "pool": [[x, faces((c,))[0]] for x, c in s.pool],
        "window": window,
        "rob_closed": faces((s.rob_closed,))[0] if s.rob_closed >= 0 else None,
        "wins": [{"seat": x, "type": k, "card": faces((c,))[0] if c >= 0 else None,
                  "payer": _opt(p), "total": t, "concealed": faces(conc),
                  "split": json.loads(sp)} for x, k, c, p, t, conc, sp in s.hus],
        "changes": list(s.changes), "next_dealer": _opt(s.next_dealer),
        "to_act": _opt(to_move(s)),
        "result": None if s.result is None else json.loads(s.result),
        "unseen": list(s.unseen),
    }


# ---------------------------------------------------------------- reading

def _face(f: Fields, key: str, allow_none: bool = False) -> int:
    v = f.get(key)
    if v is None and allow_none:
        return -1
    if isinstance(v, list):
        raise bad(f.name(key), "must be one card face")
    return _faces([v], f.name(key))[0]


def _claim_value(f: Fields, v: Any, name: str) -> tuple:
    if not isinstance(v, list) or not v or v[0] not in (PASS, *CLAIM_KINDS):
        raise bad(name, "must be a claim [kind, faces…] (pass, hu, gang, peng, chi)")
    return (v[0], _faces(v[1:], name))


def _seat_claims(f: Fields, key: str) -> tuple:
    out = []
    for i, row in enumerate(f.list(key)):
        name = f"{f.name(key)}[{i}]"
        if not isinstance(row, list) or len(row) != 2:
            raise bad(name, "must be [seat, claim]")
        seat = f.seat_value(row[0], name)
        out.append((seat, row[1], name))
    return tuple(out)


def _read_window(v: dict[str, Any], f: Fields) -> None:
    w = f.optional_sub("window")
    if w is None:
        v["w_kind"], v["w_card"], v["w_from"] = "", -1, -1
        v["eligible"] = v["answers"] = v["calls"] = v["pending"] = ()
        return
    v["w_kind"] = w.choice("kind", (DISCARD_WINDOW, ROB_WINDOW))
    v["w_card"] = _face(w, "card")
    v["w_from"] = w.seat("from")
    elig = []
    for seat, cl, name in _seat_claims(w, "eligible"):
        if not isinstance(cl, list):
            raise bad(name, "must be [seat, [claims]]")
        elig.append((seat, tuple(_full(v, _claim_value(w, c, name), v["w_card"]) for c in cl)))
    v["eligible"] = tuple(elig)
    v["answers"], v["calls"], v["pending"] = (tuple(
        (seat, _full(v, _claim_value(w, c, name), v["w_card"]))
        for seat, c, name in _seat_claims(w, key)) for key in ("answers", "calls", "pending"))


def _full(v: dict[str, Any], c: tuple, card: int) -> tuple:
    """A claim with its concealed cards (peng two, gang three of the card)."""
    kind, with_ = c
    if kind == "peng":
        return (kind, (card,) * 2)
    if kind == "gang":
        return (kind, (card,) * 3)
    return (kind, tuple(sorted(with_)))


def _read_melds(f: Fields) -> tuple:
    rows = []
    for v, name in f.per_seat("melds", lambda v, name: (v, name)):
        if not isinstance(v, list):
            raise bad(name, "must be a list of melds")
        out = []
        for j, m in enumerate(v):
            mf = f.nested(m, f"{name}[{j}]")
            kind = mf.choice("kind", MELD_KINDS)
            cards = tuple(sorted(mf.faces("cards")))
            frm = mf.seat("from", allow_none=True)
            card = _face(mf, "card", allow_none=True)
            out.append((kind, cards, frm, card))
        rows.append(tuple(out))
    return tuple(rows)


def _read_wins(f: Fields) -> tuple:
    out = []
    for i, w in enumerate(f.list("wins")):
        wf = f.nested(w, f"wins[{i}]")
        split = wf.get("split")
        if not isinstance(split, dict):
            raise bad(wf.name("split"), "must be the recorded split object")
        out.append((wf.seat("seat"), wf.choice("type", WIN_TYPES),
                    _face(wf, "card", allow_none=True), wf.seat("payer", allow_none=True),
                    wf.int("total", 0, 999), tuple(sorted(wf.faces("concealed"))),
                    json.dumps(split, sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False)))
    return tuple(out)


def _read(p: dict[str, Any]) -> LhState:
    v: dict[str, Any] = {}     # the fields as read, in reading order (errors name the first)
    f = Fields(p, SEATS)
    f.choice("game", ("liuhu",))
    v["game_id"] = f.ident("game_id")
    v["seq"] = f.int("seq", 1, MAX_SEQ)
    v["phase"] = f.choice("phase", PHASES)
    v["options"] = f.options("options", LiuhuOptions)
    v["players"] = f.per_seat("players", _player)
    v["previous_game"] = f.ident("previous_game", allow_none=True)
    v["session"] = f.ident("session", allow_none=True)
    v["hand_no"] = f.int("hand", 1, v["options"].hands)
    v["first_dealer"] = f.seat("first_dealer")
    v["dealer"] = f.seat("dealer")
    dice = f.list("dice")
    if len(dice) != 2 or not all(isinstance(d, int) and not isinstance(d, bool)
                                 and 1 <= d <= 6 for d in dice):
        raise bad("dice", "must be two throws 1-6 (LH-10)")
    v["dice"] = tuple(dice)
    v["ring"] = f.faces("ring")
    v["brk"] = f.int("break", 0, MAX_SEQ)
    v["wall"] = f.faces("wall")
    n = len(v["wall"])
    v["front"] = f.int("front", 0, n)
    v["tail"] = f.int("tail", -1, n - 1)
    bal = f.list("balances")
    if len(bal) != SEATS or not all(isinstance(x, int) and not isinstance(x, bool)
                                    and abs(x) <= 10 ** 9 for x in bal) or sum(bal):
        raise bad("balances", "must be 6 integers summing to 0 (LH-68)")
    v["balances"] = tuple(bal)
    v["turn"] = f.seat("turn")
    v["drawn"] = _face(f, "drawn", allow_none=True)
    v["hands"] = f.per_seat("hands", lambda v, name: tuple(sorted(_faces(v, name))))
    v["melds"] = _read_melds(f)
    v["pool"] = tuple((f.seat_value(x[0] if isinstance(x, list) and len(x) == 2 else None,
                                    f"pool[{i}]"), _faces([x[1]], f"pool[{i}]")[0])
                      for i, x in enumerate(f.list("pool")))
    _read_window(v, f)
    # a position written before this field existed: no closed robbing window (its seats'
    # views show the kong made, as the engine then showed them)
    v["rob_closed"] = -1 if f.get("rob_closed", None) is None else _face(f, "rob_closed")
    v["hus"] = _read_wins(f)
    ch = f.list("changes")
    if ch and (len(ch) != SEATS or not all(isinstance(x, int) and not isinstance(x, bool)
                                           and abs(x) <= 10 ** 6 for x in ch)):
        raise bad("changes", "must be [] or 6 chip changes")
    v["changes"] = tuple(ch)
    v["next_dealer"] = f.seat("next_dealer", allow_none=True)
    res = f.get("result")
    if res is not None and not isinstance(res, dict):
        raise bad("result", "must be GAME_END's result object or null")
    v["result"] = None if res is None else json.dumps(res, sort_keys=True,
                                                      separators=(",", ":"), ensure_ascii=False)
    v["unseen"] = _read_unseen(f, v["seq"])
    f.done("format", "to_act")
    return LhState(**v)


def _read_unseen(f: Fields, seq: int) -> tuple[int, ...]:
    """Per seat, the events it did not see happen (LH-70); a position written before this
    field existed counts none."""
    v = f.get("unseen", None)
    if v is None:
        return (0,) * SEATS
    if not isinstance(v, list) or len(v) != SEATS or not all(isinstance(x, int) and not isinstance(x, bool)
                                  and 0 <= x < seq for x in v):
        raise bad("unseen", f"must be 6 counts 0-{seq - 1}: the events each seat did not see "
                  "happen (LH-70)")
    return tuple(v)


def _player(v: Any, name: str) -> str:
    from engine.games.codec import player_value
    return player_value(v, name)


def _faces(v: Any, name: str) -> tuple[int, ...]:
    from engine.games.codec import faces_value
    return faces_value(v, name)


def from_position(p: Any, *, scenario: bool = False) -> LhState:
    """A state from its JSON form; raises PositionError (an InvalidEvent) naming the bad field
    for anything no hand can reach."""
    open_position(p, POSITION_FORMAT, "liuhu")
    s = _read(p)
    _check(s, scenario)
    if "to_act" in p and p["to_act"] != _opt(to_move(s)):
        raise bad("to_act", f"must be {_opt(to_move(s))} in this position")
    return s


# ---------------------------------------------------------------- invariants

def _check(s: LhState, scenario: bool) -> None:
    """Invariants every reachable state has (module docstring)."""
    opts = s.options
    full = pack(opts.decks, opts.hunzi)
    n = len(full)
    if sorted(s.ring) != list(full):
        raise bad("ring", f"must be the {n}-card pack of the options (LH-4, LH-5)")
    if s.brk != break_index(n, sum(s.dice)):
        raise bad("break", f"must be {break_index(n, sum(s.dice))} for dice {list(s.dice)} "
                  "(LH-10)")
    if sorted(s.wall) != list(full) or (not scenario and s.wall != wall_of(s.ring, s.brk)):
        raise bad("wall", "must be the ring read from the break (LH-10)")
    if s.hand_no == 1 and s.dealer != s.first_dealer:
        raise bad("dealer", "the first hand is dealt by the first dealer (LH-65)")
    if s.phase == DEAL:
        if any(s.hands) or any(s.melds) or s.pool or s.w_kind or s.hus or s.changes or \
                (s.front, s.tail, s.drawn, s.turn) != (0, n - 1, -1, s.dealer):
            raise bad("phase", "before the deal the whole pack is the wall (LH-11, LH-12)")
        _check_end(s)
        return
    h = s.hand_size()
    if not 6 * h + 1 <= s.front <= s.tail + 1 or s.tail > n - 1:
        raise bad("front", f"the pointers satisfy {6 * h + 1} <= front <= tail + 1, tail < {n} "
                  "(LH-11, LH-12)")
    places = [("wall", s.wall[s.front:s.tail + 1])]
    places += [(f"hands[{i}]", x) for i, x in enumerate(s.hands)]
    places += [(f"melds[{i}]", tuple(c for m in row for c in m[1]))
               for i, row in enumerate(s.melds)]
    places.append(("pool", tuple(c for _, c in s.pool)))
    if s.w_kind == ROB_WINDOW:
        places.append(("window.card", (s.w_card,)))
    check_pack(places, full, "pack")
    _check_melds(s)
    _check_counts(s)
    _check_window(s)
    _check_rob_closed(s)
    _check_wins(s)
    _check_end(s)


def _check_melds(s: LhState) -> None:
    for seat, row in enumerate(s.melds):
        for j, (kind, cards, frm, card) in enumerate(row):
            name = f"melds[{seat}][{j}]"
            if RJ in cards:
                raise bad(name, "an RJ never sits in a meld (LH-32)")
            same = len(set(cards)) == 1
            size = 3 if kind in ("chi", "peng") else 4
            if len(cards) != size or (kind != "chi" and not same):
                raise bad(name, f"a {kind} is {size} cards" + ("" if kind == "chi" else
                                                               " of one face"))
            if kind == "an_gang":
                if frm >= 0 or card >= 0:
                    raise bad(name, "a 暗杠 is claimed from nobody (LH-23)")
                continue
            if frm < 0 or frm == seat or card not in cards:
                raise bad(name, "a claimed meld names the discarder and the claimed card")
            if kind == "chi" and (frm + 1) % SEATS != seat:
                raise bad(name, "吃 is claimed from the previous player only (LH-26)")
            if kind == "chi" and not _chi_ok(s, cards, card):
                raise bad(name, "not a sequence the claimed card may complete (LH-26)")


def _chi_ok(s: LhState, cards: tuple[int, ...], card: int) -> bool:
    rest = list(cards)
    rest.remove(card)
    probe = s.copy()
    probe.hands = ((tuple(rest),) + ((),) * (SEATS - 1))
    return tuple(sorted(rest)) in claims.chi_pairs(probe, 0, card)


def _expected_count(s: LhState, seat: int) -> int:
    g = s.options.groups
    if s.phase in (TURN, CLAIMED) and seat == s.turn:
        return 3 * g + 2
    if any(x == seat and k == ZIMO for x, k, *_ in s.hus):
        return 3 * g + 2
    return 3 * g + 1


def _check_counts(s: LhState) -> None:
    for seat in range(SEATS):
        k = len(s.hands[seat]) + 3 * len(s.melds[seat])
        want = _expected_count(s, seat)
        if k != want:
            raise bad(f"hands[{seat}]", f"concealed cards + 3 per meld are {k}, must be {want} "
                      "(LH-19)")
    zimo = any(k == ZIMO for _, k, *_ in s.hus)
    if s.drawn >= 0 and (s.phase != TURN and not zimo or s.drawn not in s.hands[s.turn]):
        raise bad("drawn", "the card just drawn is in the hand of the seat in its post-draw "
                  "phase")


def _check_window(s: LhState) -> None:
    claimed_win = any(k != ZIMO for _, k, *_ in s.hus)
    after = s.phase in (SETTLE, END, OVER)
    if (s.phase in WINDOW_PHASES or (after and claimed_win)) != bool(s.w_kind):
        raise bad("window", f"a claim window is open exactly in the phases "
                  f"{', '.join(WINDOW_PHASES)} and after a 胡 on its card (LH-34)")
    if not s.w_kind:
        return
    if s.turn != s.w_from:
        raise bad("turn", "during a window the turn stays with the discarder or declarer")
    if s.w_kind == DISCARD_WINDOW and (not s.pool or s.pool[-1] != (s.w_from, s.w_card)):
        raise bad("window.card", "a discard window is on the last discard of the pool")
    if s.w_kind == ROB_WINDOW and not any(
            m[0] == "peng" and m[1][0] == s.w_card for m in s.melds[s.w_from]):
        raise bad("window.card", "a robbing window is on a card added to a 碰 (LH-22, LH-29)")
    want = claims.eligible_of(s) if s.phase != WINDOW else ()
    if s.eligible != want or (s.phase != WINDOW and not want):
        raise bad("window.eligible", "must be the seats with a legal claim and their claims "
                  "(LH-34)")
    k = len(s.answers)
    if [x for x, _ in s.answers] != [x for x, _ in s.eligible[:k]] or \
            k > len(s.eligible) or (s.phase == RESPOND) != (k < len(s.eligible)):
        raise bad("window.answers", "each eligible seat answers once, in turn order (LH-34)")
    for (seat, c), (_, cl) in zip(s.answers, s.eligible, strict=False):
        if c[0] != PASS and c not in cl:
            raise bad("window.answers", f"seat {seat}'s answer is not one of its claims")
    closed = s.phase == CLAIM or after
    calls = tuple((x, c) for x, c in s.answers if c[0] != PASS) if closed else ()
    if s.calls != calls:
        raise bad("window.calls", "the calls are the non-pass answers, made public at the "
                  "award")
    done = claims.executed(s) if closed else ()
    pend = done[len(s.hus):] if s.phase == CLAIM else ()
    if s.pending != pend or (s.phase == CLAIM and not pend) or (
            after and tuple(x for x, *_ in s.hus) != tuple(x for x, _ in done)):
        raise bad("window.pending", "the awarded claims not yet made (LH-33, LH-35)")


def _check_rob_closed(s: LhState) -> None:
    """A 加杠's robbing window that closed with no 胡 is remembered only until the replacement
    draw (LH-24, LH-29, LH-70): phase tail, the 明杠 of its face the turn seat's."""
    if s.rob_closed < 0:
        return
    if s.phase != TAIL or not any(k == MING_GANG and cards[0] == s.rob_closed and frm >= 0
                                  for k, cards, frm, _ in s.melds[s.turn]):
        raise bad("rob_closed", "a 加杠 whose robbing window closed with no 胡 is remembered "
                  "only until its replacement draw: phase tail, a 明杠 of that face of the seat "
                  "on turn (LH-24, LH-29)")


def _check_wins(s: LhState) -> None:
    if s.hus and s.phase not in (CLAIM, SETTLE, END, OVER):
        raise bad("wins", "wins end the hand (LH-2)")
    if s.phase == SETTLE and not s.hus:
        raise bad("phase", "a settlement follows a win (LH-59)")
    for i, (seat, kind, card, payer, total, conc, split) in enumerate(s.hus):
        name = f"wins[{i}]"
        if kind == ZIMO:
            ok = payer < 0 and seat == s.turn and conc == s.hands[seat] and card == s.drawn
        else:
            ok = payer == s.w_from and card == s.w_card and \
                conc == tuple(sorted(s.hands[seat] + (card,)))
        if not ok:
            raise bad(name, "the win does not match the hands and the window (LH-73)")
        hm = claims.hand_module()
        try:
            sp = hm.Split.from_dict(json.loads(split))
        except Exception:  # noqa: BLE001 - any malformed split is refused as a field
            raise bad(f"{name}.split", "cannot be read as a split") from None
        rule = hm.check_split(sp, conc, claims.hand_melds(s, seat), claims.hand_rules(s),
                              win=kind, winning_card=None if card < 0 else card)
        if rule is not None or sp.total != total:
            raise bad(name, f"the split is not a valid best split worth total ({rule or 'LH-73'})")


def _check_end(s: LhState) -> None:
    ended = s.phase in (END, OVER)
    if not ended:
        if s.changes or s.next_dealer >= 0 or s.result is not None:
            raise bad("changes", "settlement, next dealer and result come at the end")
        return
    if s.hus:
        want, nd = scoring.settlement(s), s.hus[0][0]
    else:
        want = (0,) * SEATS
        nd = s.dealer if s.options.draw_dealer == "stay" else (s.dealer + 1) % SEATS
    if s.changes != want:
        raise bad("changes", f"must be {list(want)} (LH-59 … LH-64)")
    if s.next_dealer != nd:
        raise bad("next_dealer", f"must be {nd} (LH-66, LH-67)")
    if s.phase == OVER and s.result != scoring.end_event(s).payload:
        raise bad("result", "must be the hand's result (LH-68)")
    if s.phase == END and s.result is not None:
        raise bad("result", "only a finished hand has a result")
