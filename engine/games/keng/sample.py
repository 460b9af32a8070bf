"""Worlds for review (engine/review.py): a full 六人坑 state consistent with what one seat
knows (KENG-50), built from the events as that seat saw them and checked by the engine itself.

The deck has several copies of most faces (KENG-3), so a card is not a token: what is hidden is
*where each copy is*. Every hidden card is a **slot** with the **pool** it was drawn from: the
first cycle's pool is the deck (the seat's own dealt and drawn cards and the start card bound,
KENG-8, KENG-9); each reshuffle (KENG-43) opens a new pool whose faces are exactly the played
cards then under the top play — public, so the new stock holds those faces and no other — in an
order nobody sees. A pass over the seen events moves the slots as the events say (a hidden draw
moves the stock's next slots, as many as it could take, into the drawer's hand: KENG-44 short
draws and draws split by a reshuffle included) and

- binds every card another seat plays (turn play, stack, duel play, valid 抢) to one of the
  slots it holds then that may still be that face, at random;
- binds a card shown in a void, refused or false 抢 claim (KENG-38) to a slot of the claimant
  that stays in its hand (a claim shows a card held, KENG-34);
- marks negative evidence on the slots the seat held then: with ``keng_draw_when_able`` off a
  seat that drew two held no card it could have played alone (KENG-11, KENG-13: every face
  ``play_rule`` accepts on that top play, with that hand size, KENG-32 included); a duellist
  whose DUEL_END came held no legal duel card (KENG-30 step 3).

The unseen faces of each pool are then dealt to its free slots, the most constrained first,
each face drawn with the weight of its copies left. The world's whole log — its deck, each
reshuffle's order, the hidden draws taken from its stock, the automatic events the engine owes —
is **replayed by the engine**, and the world is kept only if every event is accepted, each
event as the seat would have seen it is the event it saw, and its view of the world is its view
now; otherwise it is drawn again (``TRIES``). So a world never breaks a rule the seat could use.

Exact (every kept world satisfies it, by the replay): every card the seat sees where it sees it;
hand sizes, the stock size and each reshuffle's contents; draw-when-unable (KENG-13) including
the pair case on a pair top (KENG-19) that the slot marks leave out; the duel loser's lack of a
duel card; cards shown in claims; each ban's end (KENG-39) — a banned seat's BAN_END came
exactly when it held the card of a window it could have snatched, which the pass does not
mark, so such worlds are found by rejection only. Approximate: the distribution. A played card
is bound to a slot drawn uniformly (not weighted by how many deals explain it), faces are dealt
to constrained slots greedily, and refusals reweight worlds; no rule of play is assumed beyond
the rules (a seat that could have snatched and did not, or accepted a draw holding a K, says
nothing here)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from engine.errors import EngineError
from engine.events import Event
from engine.games.keng import game as _g
from engine.games.keng import rules
from engine.games.keng.cards import IS_JOKER, SUIT, deck
from engine.games.keng.options import KengOptions
from engine.games.keng.plays import duel_ok, play_rule
from engine.games.keng.position import seen_event, view
from engine.games.keng.state import N_SEATS, Duel, KengState

TRIES = 400
# the engine the worlds are replayed by (the package's own functions, not its Game: no cycle)
_ENGINE = SimpleNamespace(initial_state=_g.initial_state, step=_g.step, next_auto=_g.next_auto,
                          auto_event=_g.auto_event, view=view)
DRAWS = ("ACCEPT", "DRAW", "DUEL_END", "REPORT_PENALTY", "SNATCH_PENALTY")
PLAYS = ("PLAY", "DUEL_PLAY")


class _Refused(Exception):
    """This draw of the hidden cards cannot be the world (drawn again)."""


def _key(e: Event) -> tuple[Any, ...]:
    """An event without its time and digest (what a world's event must share with the seen)."""
    return tuple(e[:9])


class _Probe:
    """The public part of a moment that the legality tests read (top play, its suit, P = 0,
    the duel's last card): masks of the faces a seat could have played there, cached."""

    def __init__(self, template: KengState, faces: Sequence[int]) -> None:
        self.s = template.copy()        # only public fields are set and read
        self.s.pending = 0
        self.faces = faces
        self.cache: dict[tuple[Any, ...], int] = {}

    def playable(self, top: tuple[int, ...], suit: int, hand_len: int) -> int:
        """Faces f a seat with hand_len cards could play alone on this top (KENG-17 to -20,
        KENG-32), as a bit mask."""
        k = ("play", top, suit, min(hand_len, 2))
        m = self.cache.get(k)
        if m is None:
            self.s.top, self.s.top_suit = top, suit
            m = 0
            for f in self.faces:
                if play_rule(self.s, (f,), hand_len) is None:
                    m |= 1 << f
            self.cache[k] = m
        return m

    def duel_cards(self, last: int) -> int:
        """Faces a duellist may play after the duel card ``last`` (KENG-30), as a bit mask."""
        k = ("duel", last)
        m = self.cache.get(k)
        if m is None:
            self.s.duel = Duel(0, 3, (last,), 3, 0)
            m = 0
            for f in self.faces:
                if duel_ok(self.s, f):
                    m |= 1 << f
            self.cache[k] = m
        return m


class _Slots:
    """The pass over the seen events: slots, their pools, where they are, their faces."""

    def __init__(self, me: int, rng: random.Random, opts: KengOptions, probe: _Probe) -> None:
        self.me, self.rng, self.opts, self.probe = me, rng, opts, probe
        self.face: list[int] = []                 # slot -> bound face, -1 free
        self.pool: list[int] = []                 # slot -> the cycle whose stock it was in
        self.forbid: list[int] = []               # slot -> mask of faces it cannot be
        self.avail: dict[int, Counter[int]] = {}  # cycle -> faces of its pool not yet bound
        self.order: dict[int, list[int]] = {}     # cycle -> its stock's slots, in order
        self.hand: list[list[int]] = [[] for _ in range(N_SEATS)]
        self.stock: list[int] = []
        self.top: tuple[int, ...] = ()
        self.top_suit = -1
        self.table: list[int] = []

    def new_pool(self, cycle: int, faces: Sequence[int]) -> list[int]:
        """Slots for a new stock holding these faces in an unknown order."""
        start = len(self.face)
        n = len(faces)
        self.face.extend([-1] * n)
        self.pool.extend([cycle] * n)
        self.forbid.extend([0] * n)
        self.avail[cycle] = Counter(faces)
        self.order[cycle] = list(range(start, start + n))
        return self.order[cycle]

    def bind(self, slot: int, card: int) -> None:
        """The slot holds this face."""
        f = self.face[slot]
        if f >= 0:
            if f != card:
                raise _Refused
            return
        left = self.avail[self.pool[slot]]
        if self.forbid[slot] >> card & 1 or not left[card]:
            raise _Refused
        left[card] -= 1
        self.face[slot] = card

    def _can(self, slot: int, card: int) -> bool:
        return not (self.forbid[slot] >> card & 1) and self.avail[self.pool[slot]][card] > 0

    def _slot_for(self, seat: int, card: int) -> int:
        """A slot of the seat's hand that is (or may be) this face: a bound one first."""
        hand = self.hand[seat]
        for slot in hand:
            if self.face[slot] == card:
                return slot
        free = [slot for slot in hand if self.face[slot] < 0 and self._can(slot, card)]
        if not free:
            raise _Refused
        slot = free[self.rng.randrange(len(free))]
        self.bind(slot, card)
        return slot

    def take(self, seat: int, card: int) -> None:
        """The seat plays this card from its hand."""
        self.hand[seat].remove(self._slot_for(seat, card))

    def mark(self, seat: int, mask: int) -> None:
        """The seat held none of these faces (negative evidence)."""
        for slot in self.hand[seat]:
            f = self.face[slot]
            if f >= 0:
                if mask >> f & 1:
                    raise _Refused
            else:
                self.forbid[slot] |= mask

    def draw(self, seat: int, n: int, cards: tuple[int, ...]) -> None:
        """A draw of n owed: the stock's next slots, as many as there are (KENG-43, KENG-44)."""
        got = self.stock[:n]
        del self.stock[:n]
        if seat == self.me:
            if len(cards) != len(got):
                raise _Refused
            for slot, c in zip(got, cards, strict=True):
                self.bind(slot, c)
        self.hand[seat].extend(got)

    def played(self, cards: tuple[int, ...], suit: int) -> None:
        """A play becomes the top play; the one it covers goes to the table."""
        self.table.extend(self.top)
        self.top, self.top_suit = cards, suit

    def see(self, e: Event) -> None:
        """Follow one event after the deal as the seat saw it."""
        k, seat = e.kind, e.seat
        if k in PLAYS or (k == "SNATCH" and e.tag == "valid"):
            for c in e.cards:
                self.take(seat, c)
            c = e.cards[0]
            self.played(e.cards, e.value if IS_JOKER[c] else SUIT[c])
        elif k == "SNATCH":
            if e.cards:                               # a card shown stays in hand (KENG-38)
                self._slot_for(seat, e.cards[0])
        elif k == "START_CARD":
            c = e.cards[0]
            if not self.stock:
                raise _Refused
            self.bind(self.stock.pop(0), c)
            self.played(e.cards, e.value if IS_JOKER[c] else SUIT[c])
        elif k in DRAWS:
            if seat != self.me and e.tag != rules.CONTINUED:
                if k == "DRAW" and not self.opts.keng_draw_when_able:
                    self.mark(seat, self.probe.playable(self.top, self.top_suit,
                                                        len(self.hand[seat])))
                elif k == "DUEL_END":
                    self.mark(seat, self.probe.duel_cards(self.top[0]))
            self.draw(seat, e.value, e.cards)
        elif k == "RESHUFFLE":
            if self.stock:
                raise _Refused
            self.stock = list(self.new_pool(e.value, self.table))
            self.table = []

    def fill(self) -> None:
        """Deal each pool's unbound faces to its free slots: the marked slots first (those
        that allow the fewest faces first), each face drawn with the weight of its copies
        left, then the rest at random."""
        rng = self.rng
        free = [slot for slot, f in enumerate(self.face) if f < 0]
        marked = [slot for slot in free if self.forbid[slot]]
        rng.shuffle(marked)
        marked.sort(key=lambda slot: -self.forbid[slot].bit_count())
        for slot in marked:
            left = self.avail[self.pool[slot]]
            ban = self.forbid[slot]
            ok = [c for c in sorted(left) if left[c] and not ban >> c & 1]
            total = sum(left[c] for c in ok)
            if not total:
                raise _Refused
            pick = rng.randrange(total)
            for c in ok:
                pick -= left[c]
                if pick < 0:
                    self.bind(slot, c)
                    break
        by_pool: dict[int, list[int]] = {}
        for slot in free:
            if self.face[slot] < 0:
                by_pool.setdefault(self.pool[slot], []).append(slot)
        for cycle, slots in sorted(by_pool.items()):
            faces = sorted(self.avail[cycle].elements())
            if len(faces) != len(slots):
                raise _Refused
            rng.shuffle(faces)
            for slot, c in zip(slots, faces, strict=True):
                self.face[slot] = c
            self.avail[cycle].clear()


def _pass(s: KengState, me: int, rng: random.Random, seen: Sequence[Event]) -> _Slots:
    """The slots after the seen events, the cards played and shown bound, the marks set."""
    opts = s.options
    h = opts.keng_hand_size
    full = deck(opts)
    sl = _Slots(me, rng, opts, _Probe(s, sorted(set(full))))
    slots = sl.new_pool(1, full)
    sl.stock = slots[6 * h:]
    opener = s.opener
    for e in seen[1:]:
        if e.kind == "DEAL":
            j = (e.seat - opener) % N_SEATS
            sl.hand[e.seat] = slots[j:6 * h:N_SEATS]
            if e.seat == me:
                for slot, c in zip(sl.hand[me], e.cards, strict=True):
                    sl.bind(slot, c)
        else:
            sl.see(e)
    sl.fill()
    return sl


def _world_event(game: Any, w: KengState, e: Event, me: int, sl: _Slots) -> Event:
    """The world's version of a seen event: the owed automatic event (a reshuffle in the
    world's order), a hidden draw's cards from the world's stock, else the event itself."""
    due = game.next_auto(w)
    if due == "RESHUFFLE":
        order = tuple(sl.face[slot] for slot in sl.order[w.cycle + 1])
        return rules.auto_event(w, due, order)._replace(ts=e.ts)
    if due is not None:
        return rules.auto_event(w, due)._replace(ts=e.ts)
    if e.kind in DRAWS and e.seat != me:
        return e._replace(cards=w.stock[:e.value])
    return e


def _world(game: Any, s: KengState, me: int, rng: random.Random, seen: Sequence[Event]
           ) -> KengState:
    """One draw of a world, refused (``_Refused``) when the engine or the view says no."""
    sl = _pass(s, me, rng, seen)
    start = seen[0]._replace(cards=tuple(sl.face[slot] for slot in sl.order[1]))
    try:
        w = game.initial_state(start)
        for e in seen[1:]:
            we = _world_event(game, w, e, me, sl)
            if _key(seen_event(we, me)) != _key(e):
                raise _Refused
            game.step(w, we)
    except EngineError as exc:
        raise _Refused from exc
    if game.view(w, me) != game.view(s, me):
        raise _Refused
    return w


def sample_world(s: KengState, seat: int, rng: random.Random, seen: Sequence[Event]
                 ) -> KengState:
    """A full state the seat cannot tell from this one (module docstring)."""
    if not seen or seen[0].kind != "GAME_START":
        raise EngineError("a 六人坑 world is sampled from the seen events from GAME_START on")
    for _ in range(TRIES):
        try:
            return _world(_ENGINE, s, seat, rng, seen)
        except _Refused:
            continue
    raise EngineError(f"no 六人坑 world consistent with seat {seat}'s view found in {TRIES} "
                      "draws")
