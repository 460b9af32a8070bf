"""Worlds for review (engine/review.py): a full 六人斗地主 state consistent with what one seat
knows (section 12, DDZ-91), built from the events as that seat saw them and checked by the
engine itself.

There is no draw and no reshuffle: every card is dealt once (DDZ-7), so what is hidden is
*which face lies at each deck position* — another seat's dealt cards, and in the 4-deck
variants the 12 kitty cards (DDZ-5) until a landlord takes them (each seen only by its taker,
DDZ-30, DDZ-34) — and the hidden identities: the 三打三 hidden landlords (DDZ-24 … DDZ-27), the
二打四 dark mark before the first landlord is fixed (DDZ-12, DDZ-28), the 正反 farmers' sides
(DDZ-35, DDZ-36), and the doubling and show-hand choices not yet shown together (DDZ-37,
DDZ-38). One pass over the seen events binds faces to positions:

- the seat's own dealt cards and its kitty share where the deal and the KITTY event put them;
  the open mark's face at its position (and 正反's dark mark, public there: DDZ-13);
- every card another seat plays to a position it still holds: one already bound to that face
  if any (the marked card), else a free one (the seat's positions are interchangeable: no
  rule of play depends on which copy of a face is which);
- a shown hand (SHOW_END, DDZ-38), the seat a 七星聚 locks (its joker, DDZ-70) and the hands
  HAND_END shows.

Each world then draws the hidden part again:

- 三打三: the hidden landlords not known to the seat, among the seats that may be one (not M,
  not P, not a seat that bid, DDZ-16; a revealed one is known, DDZ-26; the seat itself is one
  exactly when it holds a lone F card), each set weighted by the product of its seats' free
  positions (the number of deals that put the F cards there); the F cards still unseen go to
  M, P and the hidden landlords as the case says (c(M), c(P) = 2, one each), none elsewhere;
- 二打四: the dark mark's position, uniformly among the dealt positions other than the open
  mark's — among DM's once LANDLORDS has named DM (DDZ-28);
- 正反: the farmers' choices, one of the six ways DDZ-35 can go (each choice even), among those
  that agree with the seat's own choice or placing, its turn to choose, the sides SIDES_END
  showed a landlord and the sides HAND_END showed;
- another seat's doubling or show-hand choice: as shown once all are made (the view, SHOW_END),
  else even;
- the unseen faces dealt to the free positions at random.

The world's whole log — GAME_START with its deck, DEAL with its marks, the seen actions with
the hidden choices filled in, the automatic events the engine owes (the hidden landlord's
recorded pass, DDZ-16; the placed farmers, DDZ-35; the auto-win check, DDZ-79) — is then
**replayed by the engine**, and the world is kept only if every event is accepted, each event
as the seat sees it is the event it saw, and the seat's view of the world is its view now;
otherwise it is drawn again (``TRIES``). So a world never breaks a rule the seat could use: a
landlord that went on to play held a bomb (DDZ-78 (a), option ``landlord``) in every world.

Exact (every world satisfies it, by the replay): every card the seat sees where it sees it;
hand sizes and kitty shares; the case and the F cards; the sides the seat knows; bids, reveals,
locks, shown hands. Approximate: the choices of the others are drawn as if even (real players
double on strong hands and choose sides by their cards), and no play is read as evidence about
the hand it came from beyond the cards it shows (passing is always allowed, DDZ-72).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from engine.errors import EngineError
from engine.events import NONE, Event
from engine.games.ddz6 import game as _g
from engine.games.ddz6 import info, rules, setup
from engine.games.ddz6.cards import HAND_SIZE, deck
from engine.games.ddz6.state import (
    CASE_A,
    CASE_B1,
    CASE_B2,
    CASE_C,
    LANDLORD_SIDE,
    OTHER_SIDE,
    SIDE,
    DdzState,
)

TRIES = 200
SEATS = setup.SEATS
M_COPIES = {CASE_A: 1, CASE_B1: 2, CASE_B2: 1, CASE_C: 3}    # c(M) by case (DDZ-24)
P_COPIES = 2                                                # c(P) in case B2
HIDDEN_LORDS = {CASE_A: 2, CASE_B1: 1}                      # hidden landlords by case
CHOICES = ("DOUBLE", "SHOW_HAND", "SIDE_CHOICE")


class _Refused(Exception):
    """This draw of the hidden part cannot be the world (drawn again)."""


def _key(e: Event) -> tuple[Any, ...]:
    """An event without its time and digest (what a world's event must share with the seen)."""
    return tuple(e[:9])


class _Pass:
    """The pass over the seen events: each deck position's face (-1 free), its holder (-1 the
    kitty not yet taken), the positions each seat still holds, and the public identities."""

    def __init__(self, variant: str, me: int) -> None:
        self.variant, self.me = variant, me
        full = deck(variant)
        self.dealt = SEATS * HAND_SIZE[variant]
        self.face = [-1] * len(full)
        self.left = Counter(full)                 # faces not yet bound to a position
        self.hand: list[list[int]] = [list(range(x, self.dealt, SEATS)) for x in range(SEATS)]
        self.owned = [list(h) for h in self.hand]   # every position each seat was given
        self.kitty_at = self.dealt                # the next kitty position a KITTY event takes
        self.dealt_seen = False
        self.mark_pos = self.dark_pos = -1        # dark_pos: 正反 only (public, DDZ-13)
        self.mark_face = -1
        self.om = self.dm = -1                    # dm: once public
        self.case, self.p_seat, self.me_hidden = "", -1, False
        self.bidders: set[int] = set()            # seats that bid 1-3 (never H, DDZ-16)
        self.bid_winner = -1
        self.revealed: list[int] = []             # hidden landlords revealed (DDZ-26)
        self.landlords: tuple[int, ...] = ()      # 4-deck: LANDLORDS (first, DM) or (solo,)
        self.farmers: tuple[int, ...] = ()        # 正反: F1 … F4 (DDZ-35)
        self.side_events: list[Event] = []        # SIDE_CHOICE events as seen, in order
        self.sides_mask = NONE                    # SIDES_END as seen (a landlord: the mask)
        self.shown_mask = NONE                    # SHOW_END: the seats that showed
        self.end_sides: list[str | None] | None = None   # HAND_END: every side

    def bind(self, pos: int, face: int) -> None:
        """The position holds this face."""
        f = self.face[pos]
        if f >= 0:
            if f != face:
                raise _Refused
            return
        if self.left[face] <= 0:
            raise _Refused
        self.left[face] -= 1
        self.face[pos] = face

    def _slot(self, seat: int, face: int, skip: set[int]) -> int:
        """A position the seat still holds for this face: one bound to it, else a free one
        (bound now); ``skip``: positions already used by the same event."""
        free = -1
        for pos in self.hand[seat]:
            if pos in skip:
                continue
            f = self.face[pos]
            if f == face:
                return pos
            if f < 0 and free < 0:
                free = pos
        if free < 0:
            raise _Refused
        self.bind(free, face)
        return free

    def take(self, seat: int, cards: Sequence[int]) -> None:
        """The seat plays these cards from the positions it holds."""
        for c in cards:
            self.hand[seat].remove(self._slot(seat, c, set()))

    def hold(self, seat: int, cards: Sequence[int]) -> None:
        """The seat still holds these cards (each on a position of its own)."""
        used: set[int] = set()
        for c in cards:
            used.add(self._slot(seat, c, used))

    def see(self, e: Event) -> None:
        """Follow one seen event."""
        handler = _SEE.get(e.kind)
        if handler is not None:
            handler(self, e)


def _see_deal(ps: _Pass, e: Event) -> None:
    """DDZ-7: the seat's own cards in deck order, then the marks' faces (DDZ-8, DDZ-12, DDZ-13)."""
    n = HAND_SIZE[ps.variant]
    own, marks = e.cards[:n], e.cards[n:]
    for pos, c in zip(range(ps.me, ps.dealt, SEATS), own, strict=True):
        ps.bind(pos, c)
    ps.dealt_seen = True
    ps.mark_pos, ps.om, ps.mark_face = e.value, e.value % SEATS, marks[0]
    ps.bind(e.value, marks[0])
    if ps.variant == "zhengfan":
        ps.dark_pos = json.loads(e.payload or "{}")["dark"]
        ps.dm = ps.dark_pos % SEATS
        ps.bind(ps.dark_pos, marks[1])


def _see_case(ps: _Pass, e: Event) -> None:
    """DDZ-24: the case, P, and whether the seat itself is a hidden landlord."""
    ps.case, ps.p_seat = e.tag, e.target
    ps.me_hidden = ps.me in json.loads(e.payload or "{}").get("hidden", [])


def _see_bid(ps: _Pass, e: Event) -> None:
    """DDZ-16: a seat that bid is not the hidden landlord (his turn is a recorded pass)."""
    if e.value > 0:
        ps.bidders.add(e.seat)


def _see_bid_end(ps: _Pass, e: Event) -> None:
    """DDZ-17: the bid winner is an open landlord."""
    ps.bid_winner = e.seat


def _see_landlords(ps: _Pass, e: Event) -> None:
    """DDZ-28, DDZ-32: the first landlord, DM, solo; 正反's farmer order (DDZ-35)."""
    ps.dm = e.target
    ps.landlords = (e.seat,) if e.value == 1 else (e.seat, e.target)
    if ps.variant == "zhengfan" and e.value != 1:
        ps.farmers = tuple(x for x in ((ps.om + k) % SEATS for k in range(1, SEATS))
                           if x != ps.dm)


def _see_kitty(ps: _Pass, e: Event) -> None:
    """DDZ-29, DDZ-30, DDZ-33, DDZ-34: the next kitty positions go to the taker."""
    taken = list(range(ps.kitty_at, ps.kitty_at + e.value))
    ps.kitty_at += e.value
    ps.hand[e.seat].extend(taken)
    ps.owned[e.seat].extend(taken)
    if e.seat == ps.me:
        for pos, c in zip(taken, e.cards, strict=True):
            ps.bind(pos, c)


def _see_show_end(ps: _Pass, e: Event) -> None:
    """DDZ-38: each shown hand, whole, in landlord order."""
    ps.shown_mask = e.target
    at = 0
    for x in ps.landlords:
        if e.target >> x & 1:
            n = len(ps.hand[x])
            ps.hold(x, e.cards[at:at + n])
            at += n


def _see_hand_end(ps: _Pass, e: Event) -> None:
    """DDZ-91: every remaining hand and every side are shown."""
    p = json.loads(e.payload or "{}")
    at = 0
    for x, n in enumerate(p.get("hand_sizes", [])):
        ps.hold(x, e.cards[at:at + n])
        at += n
    ps.end_sides = p.get("sides")


_SEE = {
    "DEAL": _see_deal, "CASE": _see_case, "BID": _see_bid, "BID_END": _see_bid_end,
    "LANDLORDS": _see_landlords, "KITTY": _see_kitty,
    "SIDE_CHOICE": lambda ps, e: ps.side_events.append(e),
    "SIDES_END": lambda ps, e: setattr(ps, "sides_mask", e.value),
    "SHOW_END": _see_show_end, "PLAY": lambda ps, e: ps.take(e.seat, e.cards),
    "REVEAL": lambda ps, e: ps.revealed.append(e.seat),
    "LOCK": lambda ps, e: ps.hold(e.seat, e.cards), "HAND_END": _see_hand_end,
}


def seen_pass(variant: str, me: int, seen: Sequence[Event]) -> _Pass:
    """The bindings and public identities after the seen events (no random draw)."""
    ps = _Pass(variant, me)
    for e in seen[1:]:
        ps.see(e)
    return ps


# ---------------------------------------------------------------- 三打三: the F cards

def _known_hidden(ps: _Pass) -> list[int]:
    """The hidden landlords the seat knows: revealed ones, itself, and every one at the end."""
    known = list(ps.revealed)
    if ps.me_hidden and ps.me not in known:
        known.append(ps.me)
    if ps.end_sides is not None:
        open_ = {ps.om, ps.p_seat, ps.bid_winner}
        known += [x for x, side in enumerate(ps.end_sides)
                  if side == "landlord" and x not in open_ and x not in known]
    return known


def hidden_candidates(ps: _Pass) -> list[int]:
    """The seats that may be a hidden landlord the seat does not know (DDZ-16, DDZ-26,
    DDZ-27): not M, not P, not the seat, no bidder, none known, holding a free position."""
    known = _known_hidden(ps)
    out = []
    for x in range(SEATS):
        if x in (ps.om, ps.p_seat, ps.me) or x in ps.bidders or x in known:
            continue
        if any(ps.face[pos] < 0 for pos in ps.hand[x]):
            out.append(x)
    return out


def draw_hidden(ps: _Pass, rng: random.Random) -> list[int]:
    """Every hidden landlord of the world: the known ones and the rest drawn among the
    candidates, each set weighted by the product of its seats' free positions."""
    known = _known_hidden(ps)
    need = HIDDEN_LORDS.get(ps.case, 0) - len(known)
    if need <= 0:
        return known
    free = {x: sum(1 for pos in ps.hand[x] if ps.face[pos] < 0) for x in hidden_candidates(ps)}
    sets = list(combinations(sorted(free), need))
    if not sets:
        raise _Refused
    weights = []
    for group in sets:
        w = 1
        for x in group:
            w *= free[x]
        weights.append(w)
    return known + list(rng.choices(sets, weights)[0])


def _place_f(ps: _Pass, face: list[int], left: Counter[int], hidden: list[int]) -> None:
    """DDZ-24: the F cards still unseen to M, P and the hidden landlords, up to their counts
    (c(M) by case, c(P) = 2, one each); no other seat holds one."""
    f = ps.mark_face
    want = {ps.om: M_COPIES[ps.case]}
    if ps.case == CASE_B2:
        want[ps.p_seat] = P_COPIES
    for x in hidden:
        want[x] = 1
    for x, n in want.items():
        held = sum(1 for pos in ps.owned[x] if face[pos] == f)
        free = [pos for pos in ps.hand[x] if face[pos] < 0]
        if held > n or n - held > len(free) or left[f] < n - held:
            raise _Refused
        for pos in free[:n - held]:
            face[pos] = f
        left[f] -= n - held
    if left[f]:
        raise _Refused


# ---------------------------------------------------------------- 正反: the farmers' sides

Way = tuple[tuple[int, ...], tuple[bool, ...], float]


def _side_ways() -> list[Way]:
    """The six ways side choosing can go (DDZ-35): F1 … F4's sides, whether each was placed,
    and its chance when every choice is even."""
    out: list[Way] = []
    for a in (LANDLORD_SIDE, OTHER_SIDE):
        out.append(((a, a, 1 - a, 1 - a), (False, False, True, True), 0.25))
        for b in (LANDLORD_SIDE, OTHER_SIDE):
            out.append(((a, 1 - a, b, 1 - b), (False, False, False, True), 0.125))
    return out


SIDE_WAYS = _side_ways()


def side_fits(ps: _Pass, sides: tuple[int, ...], placed: tuple[bool, ...],
              view: dict[str, Any]) -> bool:
    """True if this way of side choosing agrees with what the seat saw (DDZ-36): its own
    choice or placing, whether it is asked to choose now, the sides SIDES_END showed it (a
    landlord) and the sides HAND_END showed."""
    order, me = ps.farmers, ps.me
    for k, e in enumerate(ps.side_events):
        if e.seat == me and (sides[k] != e.value or placed[k] != (e.tag == setup.PLACED)):
            return False
    k = len(ps.side_events)
    if view["phase"] == SIDE and k < len(order) and order[k] == me \
            and placed[k] == (view["to_act"] == me):
        return False
    if ps.sides_mask != NONE:
        mask = 1 << ps.dm
        mask |= sum(1 << x for x, side in zip(order, sides, strict=True) if side == OTHER_SIDE)
        if mask != ps.sides_mask:
            return False
    if ps.end_sides is not None:
        names = setup.SIDE_WORDS
        return all(ps.end_sides[x] == names[side] for x, side in zip(order, sides, strict=True))
    return True


def draw_sides(ps: _Pass, rng: random.Random, view: dict[str, Any]) -> dict[int, int]:
    """Each farmer's side in the world: a way of DDZ-35 that fits, drawn by its chance."""
    if len(ps.farmers) != 4:
        return {}
    ways = [(sides, w) for sides, placed, w in SIDE_WAYS if side_fits(ps, sides, placed, view)]
    if not ways:
        raise _Refused
    sides = rng.choices([s for s, _ in ways], [w for _, w in ways])[0]
    return dict(zip(ps.farmers, sides, strict=True))


# ---------------------------------------------------------------- one world

def draw_dark(ps: _Pass, rng: random.Random) -> int | None:
    """The dark mark's deck position: public in 正反 (DDZ-13); in 二打四 drawn among the dealt
    positions other than the open mark's, DM's once LANDLORDS named him (DDZ-12, DDZ-28)."""
    if ps.variant != "2v4" or not ps.dealt_seen:
        return ps.dark_pos if ps.variant == "zhengfan" else None
    pool = [p for p in range(ps.dealt)
            if p != ps.mark_pos and (ps.dm < 0 or p % SEATS == ps.dm)]
    return rng.choice(pool)


def deal_faces(ps: _Pass, rng: random.Random, hidden: list[int]) -> list[int]:
    """Every deck position's face: the bound ones, the F cards (三打三) where the case and the
    hidden landlords put them, the other unseen faces at random."""
    face, left = list(ps.face), ps.left.copy()
    if ps.variant == "3v3" and ps.case:
        _place_f(ps, face, left, hidden)
    rest = sorted(left.elements())
    rng.shuffle(rest)
    free = [p for p, f in enumerate(face) if f < 0]
    if len(rest) != len(free):
        raise _Refused
    for p, c in zip(free, rest, strict=True):
        face[p] = c
    return face


def draw_values(ps: _Pass, rng: random.Random, view: dict[str, Any]) -> dict[tuple[str, int], int]:
    """The value of each choice the seat did not see: a double (DDZ-37) as the view shows it
    once all six are made, a show hand (DDZ-38) as SHOW_END showed it, else even; a side
    (DDZ-35) by ``draw_sides``."""
    coin = [rng.randrange(2) for _ in range(SEATS)]
    made = view.get("doubling", {})
    shown = made.get("choices", {}) if made.get("complete") else {}
    values = {("DOUBLE", x): int(shown.get(str(x), coin[x])) for x in range(SEATS)}
    for x in range(SEATS):
        values["SHOW_HAND", x] = (ps.shown_mask >> x & 1 if ps.shown_mask != NONE
                                  else coin[x])
    for x, side in draw_sides(ps, rng, view).items():
        values["SIDE_CHOICE", x] = side
    return values


def _world_event(w: DdzState, e: Event, me: int, dark: int | None,
                 values: dict[tuple[str, int], int]) -> Event:
    """The world's version of a seen event: the owed automatic event (the deal with the
    world's marks), a hidden choice with the world's value, else the event itself."""
    due = rules.next_auto(w)
    if due == "DEAL":
        return setup.deal_event(w, e.value, dark)._replace(ts=e.ts)
    if due is not None:
        return rules.expected(w, due)._replace(ts=e.ts)
    if e.kind in CHOICES and e.seat != me:
        return e._replace(value=values[e.kind, e.seat])
    return e


def _world(s: DdzState, me: int, rng: random.Random, seen: Sequence[Event], ps: _Pass,
           view: dict[str, Any]) -> tuple[DdzState, list[Event]]:
    """One draw of a world and its log, refused (``_Refused``) when the engine or the view
    says no."""
    variant = s.variant
    hidden = draw_hidden(ps, rng) if ps.case in HIDDEN_LORDS else []
    face = deal_faces(ps, rng, hidden)
    dark = draw_dark(ps, rng)
    values = draw_values(ps, rng, view)
    start = seen[0]._replace(cards=tuple(face))
    log = [start]
    try:
        w = _g.initial_state(variant, start)
        for e in seen[1:]:
            we = _world_event(w, e, me, dark, values)
            if _key(info.seen_event(we, me, variant)) != _key(e):
                raise _Refused
            rules.step(w, we)
            log.append(we)
    except EngineError as exc:
        raise _Refused from exc
    if info.view(w, me) != view:
        raise _Refused
    return w, log


def sample_log(s: DdzState, seat: int, rng: random.Random, seen: Sequence[Event]
               ) -> tuple[DdzState, list[Event]]:
    """A world the seat cannot tell from this state (module docstring) and the log the engine
    replayed to reach it: GAME_START with the world's deck, DEAL with its marks, every hidden
    choice with the world's value."""
    if not seen or seen[0].kind != "GAME_START":
        raise EngineError("a 六人斗地主 world is sampled from the seen events from GAME_START on")
    view = info.view(s, seat)
    try:
        ps = seen_pass(s.variant, seat, seen)
    except (_Refused, KeyError, TypeError, ValueError, IndexError) as exc:
        raise EngineError(f"the events seat {seat} saw do not fit a 六人斗地主 deal "
                          f"({type(exc).__name__})") from exc
    for _ in range(TRIES):
        try:
            return _world(s, seat, rng, seen, ps, view)
        except _Refused:
            continue
    raise EngineError(f"no 六人斗地主 world consistent with seat {seat}'s view found in "
                      f"{TRIES} draws")


def sample_world(s: DdzState, seat: int, rng: random.Random, seen: Sequence[Event]
                 ) -> DdzState:
    """A full state the seat cannot tell from this one (module docstring)."""
    return sample_log(s, seat, rng, seen)[0]
