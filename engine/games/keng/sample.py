"""Worlds for review (engine/review.py): a full 六人坑 state consistent with what one seat
knows (KENG-50), built from the events as that seat saw them and checked by the engine itself.

The deck has several copies of most faces (KENG-3), so a card is not a token: what is hidden is
*where each copy is*. Every hidden card is a **slot** with the **pool** it was drawn from: the
first cycle's pool is the deck; each reshuffle (KENG-43) opens a new pool whose faces are
exactly the played cards then under the top play — public, so the new stock holds those faces
and no other — in an order nobody sees. A dry pass over the seen events binds the seat's own
cards (its deal and every draw, from whatever pool) and the start card, once per call; then
each draw of a world passes over the events again, moving the slots as they say (a hidden draw
moves the stock's next slots, as many as it could take, into the drawer's hand: short draws
KENG-44 and draws split by a reshuffle included) and

- binds every card another seat plays (turn play, stack, duel play, valid 抢) to one of the
  slots it holds then, drawn by how likely each is that face (its pool's copies left over the
  copies left of the faces the slot may be); when none can be, it mends an earlier binding:
  another seat's play that took the pool's last copy moves to a slot of another pool, or the
  seat's own earlier play that took the slot gives it back (``repair``);
- binds a card shown in a void, refused or false 抢 claim (KENG-34, KENG-38) to a slot of the
  claimant that stays in its hand;
- marks negative evidence on the slots a seat held then: with ``keng_draw_when_able`` off, a
  seat that drew two held no card it could have played alone (KENG-11, KENG-13: every face
  ``play_rule`` accepts on that top play with that hand size, KENG-32 included); a duellist
  whose DUEL_END came held no legal duel card (KENG-30 step 3); a banned seat that could have
  snatched a window's card and got no BAN_END when it closed did not hold it, and one that got
  it held it when the window opened (KENG-39);
- deals each pool's unbound faces to its free slots, the marked slots first, each face drawn
  with the weight of its copies left (``fill``); a marked slot that no face left may be takes
  one from the marked slots dealt before it along an alternating chain (``free_up``), else
  becomes the card of a later play of its seat made while it was held, whose own slot goes
  back to the hand (``reroute``: the plays were bound to slots before the marks after them
  were known, and a slot held long enough can be marked against every face).

The world's whole log — GAME_START with its deck, each RESHUFFLE in its order, the hidden
draws taken from its stock, the automatic events the engine owes — is then **replayed by the
engine**, and the world is kept only if every event is accepted, each event as the seat sees
it is the event it saw, and the seat's view of the world is its view now; otherwise it is drawn
again (``TRIES``). So a world never breaks a rule the seat could use.

Exact (every world satisfies it, by the replay): every card the seat sees where it sees it;
hand sizes, the stock size and each reshuffle's contents; draw-when-unable (KENG-13), also the
pair case on a pair top (KENG-19) that the slot marks leave out; the duel loser's lack of a
duel card; cards shown in claims; where each ban ended. Approximate: the distribution — a
played card is bound to a slot by its marginal likelihood, not by how many whole deals explain
it; repairs and refusals reweight worlds; faces are dealt to marked slots greedily. No play is
assumed beyond the rules: a seat that could have snatched and did not, or accepted a draw
holding a K, says nothing here. Not reviewable: the flipper's naming of a suit for a joker
start card (KENG-9) — the card is hidden from its view until turned, so worlds differ in it.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from engine.errors import EngineError
from engine.events import Event
from engine.games.keng import game as _g
from engine.games.keng import rules
from engine.games.keng.cards import CLASS, IS_JOKER, SUIT, A, J, Q, deck
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
    """The pass over the seen events: slots, their pools, where they are, their faces; and
    the public table it needs (top play, direction, cycle, bans)."""

    def __init__(self, me: int, rng: random.Random, opts: KengOptions, probe: _Probe,
                 mine: dict[int, int] | None) -> None:
        self.me, self.rng, self.opts, self.probe = me, rng, opts, probe
        # the dry pass (mine None) only follows the stock and binds the seat's own cards and
        # the start card, which every later pass binds from the start (``mine``): no copy of
        # a face the seat drew later is then bound to another seat's play first
        self.dry = mine is None
        self.mine: dict[int, int] = {} if mine is None else mine
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
        self.direction = 1
        self.cycle = 1
        self.banned = [False] * N_SEATS
        # KENG-39: the open window's card and, per banned seat that could have snatched it
        # but for holding the card, its hand when the window opened; then the same for the
        # window just closed, whose BAN_END events (or their absence) are still to be read
        self.window: tuple[int, dict[int, list[int]]] | None = None
        self.closed: tuple[int, dict[int, list[int]]] | None = None
        # for ``repair``: the number of the event followed, when each slot came into its hand,
        # each seat's plays (event, slot, face) and marks (event, mask)
        self.t = 0
        self.since: dict[int, int] = {}
        self.plays: list[list[tuple[int, int, int]]] = [[] for _ in range(N_SEATS)]
        self.marks: list[list[tuple[int, int]]] = [[] for _ in range(N_SEATS)]

    def new_pool(self, cycle: int, faces: Sequence[int]) -> list[int]:
        """Slots for a new stock holding these faces in an unknown order."""
        start = len(self.face)
        n = len(faces)
        self.face.extend([-1] * n)
        self.pool.extend([cycle] * n)
        self.forbid.extend([0] * n)
        self.avail[cycle] = Counter(faces)
        self.order[cycle] = list(range(start, start + n))
        if not self.dry:
            for slot in self.order[cycle]:
                if slot in self.mine:
                    self.bind(slot, self.mine[slot])
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
        if self.dry:
            self.mine[slot] = card

    def _weight(self, slot: int, card: int) -> float:
        """How likely a free slot is this face: its pool's copies of the face left over all
        the copies left of the faces the slot may be."""
        if self.forbid[slot] >> card & 1:
            return 0.0
        left = self.avail[self.pool[slot]]
        n = left[card]
        if not n:
            return 0.0
        ban = self.forbid[slot]
        total = sum(k for f, k in left.items() if not ban >> f & 1) if ban else left.total()
        return n / total

    def held(self, slots: Sequence[int], card: int) -> int:
        """One of these slots is this face: a bound one if any, else a free one drawn by how
        likely each is that face (bound now; in the dry pass any slot, unbound)."""
        for slot in slots:
            if self.face[slot] == card:
                return slot
        if self.dry:
            if not slots:
                raise _Refused
            return slots[0]
        free = [slot for slot in slots if self.face[slot] < 0]
        weights = [self._weight(slot, card) for slot in free]
        if not any(weights):
            raise _Refused
        slot = self.rng.choices(free, weights)[0]
        self.bind(slot, card)
        return slot

    def take(self, seat: int, card: int) -> None:
        """The seat plays this card from its hand (``repair`` when no slot of it can be)."""
        try:
            slot = self.held(self.hand[seat], card)
        except _Refused:
            if self.dry:
                raise
            slot = self.repair(seat, card)
        self.hand[seat].remove(slot)
        self.plays[seat].append((self.t, slot, card))

    def _after(self, seat: int, t0: int) -> int:
        """The marks set on the seat's hand after event t0."""
        after = 0
        for tm, m in self.marks[seat]:
            if tm > t0:
                after |= m
        return after

    def free_copy(self, seat: int, card: int) -> bool:
        """The seat holds a slot that may be this card but whose pool has no copy left:
        another seat's earlier play of the card took it. Move that play to a slot of another
        pool that its seat held then and still holds (its own slot goes back to its hand, with
        the marks set since); False when no play can be moved so."""
        pools = {self.pool[s] for s in self.hand[seat]
                 if self.face[s] < 0 and not self.forbid[s] >> card & 1}
        for z in range(N_SEATS):
            if z == self.me:
                continue
            for k, (t0, old, f) in enumerate(self.plays[z]):
                p_old = self.pool[old]
                if f != card or p_old not in pools:
                    continue
                ok = [s2 for s2 in self.hand[z] if self.face[s2] < 0 and self.since[s2] < t0
                      and self.pool[s2] != p_old and self._can(s2, card)]
                if not ok:
                    continue
                s2 = ok[self.rng.randrange(len(ok))]
                self.avail[p_old][card] += 1
                self.face[old] = -1
                self.forbid[old] |= self._after(z, t0)
                self.bind(s2, card)
                self.hand[z].remove(s2)
                self.hand[z].append(old)
                self.plays[z][k] = (t0, s2, card)
                return True
        return False

    def _can(self, slot: int, card: int) -> bool:
        return not self.forbid[slot] >> card & 1 and self.avail[self.pool[slot]][card] > 0

    def repair(self, seat: int, card: int) -> int:
        """No slot the seat holds can be this card. Either another seat's play took the last
        copy of its pool (``free_copy``), or an earlier play of the seat took the slot that
        could be it: give that play another slot the seat held then and still holds, and this
        play the slot it took (which then also bears the marks set since). The slot, or
        _Refused when neither mends it."""
        if self.free_copy(seat, card):
            return self.held(self.hand[seat], card)
        hand = self.hand[seat]
        for k in range(len(self.plays[seat]) - 1, max(-1, len(self.plays[seat]) - 13), -1):
            t0, old, y = self.plays[seat][k]
            if y == card:
                continue
            after = self._after(seat, t0)
            p_old = self.pool[old]
            if (self.forbid[old] | after) >> card & 1 or not self.avail[p_old][card]:
                continue
            ok = [s2 for s2 in hand if self.face[s2] < 0 and self.since[s2] < t0
                  and not self.forbid[s2] >> y & 1
                  and (self.avail[self.pool[s2]][y] or self.pool[s2] == p_old)]
            if not ok:
                continue
            s2 = ok[self.rng.randrange(len(ok))]
            self.avail[p_old][y] += 1                 # the earlier play moves to s2
            self.face[old] = -1
            self.bind(s2, y)
            hand.remove(s2)
            self.plays[seat][k] = (t0, s2, y)
            self.forbid[old] |= after                 # and its slot is this play's
            self.bind(old, card)
            hand.append(old)
            return old
        raise _Refused

    def mark(self, slots: Sequence[int], mask: int) -> None:
        """None of these slots is one of these faces (negative evidence)."""
        if self.dry:
            return
        for slot in slots:
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
        for slot in got:
            self.since[slot] = self.t
        if seat == self.me:
            if len(cards) != len(got):
                raise _Refused
            for slot, c in zip(got, cards, strict=True):
                self.bind(slot, c)
        self.hand[seat].extend(got)

    def played(self, e: Event) -> None:
        """A play (start card, turn play, stack, duel play, valid 抢) becomes the top play and
        the one it covers goes to the table; it closes the open window and may open one."""
        cards, c = e.cards, e.cards[0]
        self.table.extend(self.top)
        self.top, self.top_suit = cards, e.value if IS_JOKER[c] else SUIT[c]
        if e.kind == "START_CARD":
            if CLASS[c] == J:
                self.direction = -self.direction
            return
        self.close_window()
        if e.kind == "DUEL_PLAY":
            return                                  # a duel card arms no ban (KENG-37 case 1)
        n = len(cards) if self.opts.keng_pair_action == "each" else 1
        if CLASS[c] == J and n % 2:
            self.direction = -self.direction
        skip = n if CLASS[c] == Q else 0
        to_act = (e.seat + (1 + skip) * self.direction) % N_SEATS
        if self.cycle >= 2 and any(self.banned) and CLASS[c] != A and not IS_JOKER[c]:
            self.window = (c, {b: list(self.hand[b]) for b in range(N_SEATS)
                               if self.banned[b] and b not in (e.seat, to_act)
                               and not (self.cycle < 3 and len(self.hand[b]) == 1)})

    def close_window(self) -> None:
        """The open window closes (KENG-36); the one closed before is settled: a banned seat
        that could have snatched it and got no BAN_END did not hold its card (KENG-39)."""
        self.settle()
        self.closed, self.window = self.window, None

    def settle(self) -> None:
        """Mark the seats left in the window closed before: they did not hold its card."""
        if self.closed is not None:
            card, hands = self.closed
            for slots in hands.values():
                self.mark(slots, 1 << card)
            self.closed = None

    def ban_end(self, seat: int) -> None:
        """BAN_END: the seat held the card of the window just closed when it opened."""
        self.banned[seat] = False
        if self.window is not None:
            self.window[1].pop(seat, None)
        if self.closed is not None and seat in self.closed[1]:
            self.held(self.closed[1].pop(seat), self.closed[0])

    def see(self, e: Event) -> None:
        """Follow one event after the deal as the seat saw it."""
        k, seat = e.kind, e.seat
        self.t += 1
        if k in PLAYS or (k == "SNATCH" and e.tag == "valid"):
            for c in e.cards:
                self.take(seat, c)
            self.played(e)
        elif k == "SNATCH":
            if e.cards:                               # a card shown stays in hand (KENG-38)
                self.held(self.hand[seat], e.cards[0])
        elif k == "START_CARD":
            if not self.stock:
                raise _Refused
            self.bind(self.stock.pop(0), e.cards[0])
            self.played(e)
        elif k in DRAWS:
            if seat != self.me and e.tag != rules.CONTINUED:
                mask = 0
                if k == "DRAW" and not self.opts.keng_draw_when_able:
                    mask = self.probe.playable(self.top, self.top_suit, len(self.hand[seat]))
                elif k == "DUEL_END":
                    mask = self.probe.duel_cards(self.top[0])
                if mask:
                    self.mark(self.hand[seat], mask)
                    self.marks[seat].append((self.t, mask))
            if k == "DUEL_END" and e.tag != rules.CONTINUED:
                self.close_window()
            elif k == "SNATCH_PENALTY":
                self.banned[seat] = True
            self.draw(seat, e.value, e.cards)
        elif k == "PASS":
            self.close_window()
        elif k == "BAN_END":
            self.ban_end(seat)
        elif k == "RESHUFFLE":
            if self.stock:
                raise _Refused
            self.stock = list(self.new_pool(e.value, self.table))
            self.table = []
            self.cycle = e.value

    def fill(self) -> None:
        """Deal each pool's unbound faces to its free slots: the marked slots first (those
        that allow the fewest faces first), each face drawn with the weight of its copies
        left, then the rest at random."""
        rng = self.rng
        rerouted: set[tuple[int, int]] = set()        # plays moved by reroute in this fill
        marked = [slot for slot, f in enumerate(self.face) if f < 0 and self.forbid[slot]]
        rng.shuffle(marked)
        marked.sort(key=lambda slot: -self.forbid[slot].bit_count())
        i = 0
        while i < len(marked):
            slot = marked[i]
            left = self.avail[self.pool[slot]]
            ban = self.forbid[slot]
            ok = [c for c in sorted(left) if left[c] and not ban >> c & 1]
            total = sum(left[c] for c in ok)
            if not total:
                if self.free_up(slot, marked[:i]):
                    i += 1
                    continue
                back = self.reroute(slot, rerouted)
                if back is None:
                    raise _Refused
                i += 1
                if self.forbid[back]:
                    marked.append(back)
                continue
            pick = rng.randrange(total)
            for c in ok:
                pick -= left[c]
                if pick < 0:
                    self.bind(slot, c)
                    break
            i += 1
        self.deal_rest([slot for slot, f in enumerate(self.face) if f < 0])

    def reroute(self, slot: int, rerouted: set[tuple[int, int]]) -> int | None:
        """Give a free slot that can be no face left a face by having it be the card of an
        earlier play of its seat made while it was held (the latest that fits); the slot that
        play had goes back to the hand, with the marks set since, free. That slot, or None
        when no play fits; each play moves once a fill (``rerouted``: no cycle). (The world's
        replay still judges it.)"""
        seat = next((z for z in range(N_SEATS) if slot in self.hand[z]), None)
        if seat is None or seat == self.me:
            return None
        pool = self.pool[slot]
        for k in range(len(self.plays[seat]) - 1, -1, -1):
            t0, old, y = self.plays[seat][k]
            if t0 <= self.since[slot]:
                break
            if (seat, k) in rerouted:
                continue
            before = 0
            for tm, m in self.marks[seat]:
                if self.since[slot] < tm < t0:
                    before |= m
            after = self.forbid[old] | self._after(seat, t0)
            if before >> y & 1 or (pool != self.pool[old] and not self.avail[pool][y]):
                continue
            if not any(n and not after >> c & 1 for c, n in self.avail[self.pool[old]].items()
                       if c != y) and after >> y & 1:
                continue
            self.avail[self.pool[old]][y] += 1
            self.face[old] = -1
            self.forbid[old] = after
            self.avail[pool][y] -= 1            # the marks after t0 are not this slot's now
            self.face[slot] = y
            self.hand[seat].remove(slot)
            self.hand[seat].append(old)
            self.plays[seat][k] = (t0, slot, y)
            rerouted.add((seat, k))
            return old
        return None

    def free_up(self, slot: int, filled: Sequence[int]) -> bool:
        """Give the marked slot a face when every copy it may be went to slots filled before
        it: along the shortest chain of those slots, each takes the face of the next, and the
        last a face still left that it may be (an alternating path); False when none exists."""
        pool, left = self.pool[slot], self.avail[self.pool[slot]]
        holders: dict[int, list[int]] = {}
        for t in filled:
            if self.pool[t] == pool and self.face[t] >= 0:     # (not given back by reroute)
                holders.setdefault(self.face[t], []).append(t)
        parent: dict[int, int] = {slot: -1}
        queue = deque([slot])
        while queue:
            u = queue.popleft()
            for g in sorted(holders):
                if self.forbid[u] >> g & 1:
                    continue
                for t in holders[g]:
                    if t in parent:
                        continue
                    parent[t] = u
                    spare = [c for c in sorted(left) if left[c] and not self.forbid[t] >> c & 1]
                    if not spare:
                        queue.append(t)
                        continue
                    face = spare[self.rng.randrange(len(spare))]
                    left[face] -= 1
                    while t != -1:
                        self.face[t], face = face, self.face[t]
                        t = parent[t]
                    return True
        return False

    def deal_rest(self, free: Sequence[int]) -> None:
        """Deal each pool's faces still unbound to its slots still free, at random."""
        rng = self.rng
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


def _pass(s: KengState, me: int, rng: random.Random, seen: Sequence[Event],
          mine: dict[int, int] | None = None) -> _Slots:
    """The slots after the seen events, the cards played and shown bound, the marks set, the
    rest dealt (``fill``); with ``mine`` None the dry pass, which only binds the seat's own
    cards and the start card."""
    opts = s.options
    h = opts.keng_hand_size
    full = deck(opts)
    sl = _Slots(me, rng, opts, _Probe(s, sorted(set(full))), mine)
    slots = sl.new_pool(1, full)
    sl.stock = slots[6 * h:]
    opener = s.opener
    for e in seen[1:]:
        if e.kind == "DEAL":
            j = (e.seat - opener) % N_SEATS
            sl.hand[e.seat] = slots[j:6 * h:N_SEATS]
            sl.since.update((slot, 0) for slot in sl.hand[e.seat])
            if e.seat == me:
                for slot, c in zip(sl.hand[me], e.cards, strict=True):
                    sl.bind(slot, c)
        else:
            sl.see(e)
    sl.settle()
    if not sl.dry:
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


def _world(game: Any, s: KengState, me: int, rng: random.Random, seen: Sequence[Event],
           mine: dict[int, int]) -> tuple[KengState, list[Event]]:
    """One draw of a world and its log, refused (``_Refused``) when the engine or the view
    says no."""
    sl = _pass(s, me, rng, seen, mine)
    start = seen[0]._replace(cards=tuple(sl.face[slot] for slot in sl.order[1]))
    log = [start]
    try:
        w = game.initial_state(start)
        for e in seen[1:]:
            we = _world_event(game, w, e, me, sl)
            if _key(seen_event(we, me)) != _key(e):
                raise _Refused
            game.step(w, we)
            log.append(we)
    except EngineError as exc:
        raise _Refused from exc
    if game.view(w, me) != game.view(s, me):
        raise _Refused
    return w, log


def sample_log(s: KengState, seat: int, rng: random.Random, seen: Sequence[Event]
               ) -> tuple[KengState, list[Event]]:
    """A world the seat cannot tell from this state (module docstring) and the log the engine
    replayed to reach it: its GAME_START with the world's deck, each reshuffle in the world's
    order, each hidden draw with the world's cards."""
    if not seen or seen[0].kind != "GAME_START":
        raise EngineError("a 六人坑 world is sampled from the seen events from GAME_START on")
    try:
        mine = _pass(s, seat, rng, seen).mine
    except _Refused as exc:
        raise EngineError(f"seat {seat}'s own cards do not fit the 六人坑 deck") from exc
    for _ in range(TRIES):
        try:
            return _world(_ENGINE, s, seat, rng, seen, mine)
        except _Refused:
            continue
    raise EngineError(f"no 六人坑 world consistent with seat {seat}'s view found in {TRIES} "
                      "draws")


def sample_world(s: KengState, seat: int, rng: random.Random, seen: Sequence[Event]
                 ) -> KengState:
    """A full state the seat cannot tell from this one (module docstring)."""
    return sample_log(s, seat, rng, seen)[0]
