"""Worlds for review (engine/review.py): a full 摸到爽 state consistent with what one seat knows
(MDS-41), built from the events as that seat saw them and checked by the engine itself.

One deck, so every card is one token. The seat knows its own dealt and drawn cards, every
played card, the cards a collector takes in (MDS-30), the gifts it gave or got, and the suit
announced by the suit draw (MDS-10). Everything else is a *slot*: each other seat's dealt
cards and each position of the stock after the suit draw. A pass over the seen events moves
the slots as the events say (a hidden draw puts the stock's next slot in the drawer's hand, a
hidden gift moves one of the giver's cards) and binds each card another seat plays to one of
the slots it holds then, drawn at random; the unseen cards are then dealt to the free slots at
random. The world's log — its deck, its suit draw, its hidden draws and gifts, the automatic
events the engine owes — is replayed by the engine, which refuses any world that breaks a
rule (a seat that did not play holding the suit, MDS-29; a drawn flag, MDS-41); a world is
kept only if the engine accepts every event and the seat's view of it is its view now.
Refused worlds are drawn again (``TRIES``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from engine.errors import EngineError
from engine.events import Event
from engine.games.modaoshuang import game as _g
from engine.games.modaoshuang import rules
from engine.games.modaoshuang.cards import IS_JOKER, N_FACES, SUIT
from engine.games.modaoshuang.plays import held_flag
from engine.games.modaoshuang.position import view
from engine.games.modaoshuang.state import MdsState

TRIES = 400
# the engine the worlds are replayed by (the package's own functions, not its Game: no cycle)
_ENGINE = SimpleNamespace(initial_state=_g.initial_state, step=_g.step, next_auto=_g.next_auto,
                          auto_event=_g.auto_event, view=view)


class _Refused(Exception):
    """This draw of the hidden cards cannot be the world (drawn again)."""


class _Slots:
    """The pass over the seen events: slots, where they are, which cards are bound to them."""

    def __init__(self, n: int, me: int, rng: random.Random) -> None:
        self.me, self.rng = me, rng
        self.face: list[int | None] = []              # slot id -> bound card, or None
        self.free: list[list[int]] = [[] for _ in range(n)]   # unbound slots in each hand
        self.known: list[list[int]] = [[] for _ in range(n)]  # known cards in each hand
        self.deal: dict[int, list[int]] = {}          # seat -> its dealt slots, in order
        self.own_deal: tuple[int, ...] = ()
        self.stock: list[int] = []                    # stock slots after the suit draw
        self.drawn = 0                                # stock slots taken so far
        self.gifts: list[int | None] = []             # hidden gifts: the card's slot/face
        self.forbid: dict[int, set[int]] = {}         # slot -> suits it cannot hold (MDS-29)
        self.in_stock: tuple[int, ...] = ()           # the seat's own suit draw (MDS-10)
        self.suit = -1                                # the round suit

    def new(self) -> int:
        """A new unbound slot."""
        self.face.append(None)
        return len(self.face) - 1

    def card(self, slot: int) -> int:
        """The card of a slot once filled."""
        c = self.face[slot]
        if c is None:
            raise _Refused
        return c

    def take(self, seat: int, card: int) -> None:
        """The seat's hand loses this card: a known one, else one of its slots is bound."""
        if card in self.known[seat]:
            self.known[seat].remove(card)
            return
        free = self.free[seat]
        if not free:
            raise _Refused
        slot = free.pop(self.rng.randrange(len(free)))
        self.face[slot] = card

    def see(self, e: Event) -> None:
        """Follow one event of the play as the seat saw it (the deal and the suit draw are
        ``_pass``'s)."""
        me, k = self.me, e.kind
        if k == "PLAY":
            if self.suit < 0:
                c = e.cards[0]
                self.suit = SUIT[c] if not IS_JOKER[c] else e.value
            if e.seat != me:
                self.take(e.seat, e.cards[0])
        elif k == "NO_PLAY" and e.tag == "no_suit" and e.seat != me and self.suit >= 0:
            for slot in self.free[e.seat]:         # it held none of the round suit (MDS-29)
                self.forbid.setdefault(slot, set()).add(self.suit)
        elif k == "DRAW":
            slot = self.stock[self.drawn]
            self.drawn += 1
            if e.seat == me:
                self.face[slot] = e.cards[0]
            else:
                self.free[e.seat].append(slot)
        elif k == "ROUND_END":
            self.suit = -1
            if e.target >= 0 and e.target != me:
                self.known[e.target].extend(e.cards)
        elif k == "GIFT":
            self._gift(e)

    def _gift(self, e: Event) -> None:
        """A gift: seen (the seat gave or got it) or hidden (given or not, drawn at random)."""
        giver, to = e.seat, e.target
        if giver == self.me:
            if e.cards:
                self.known[to].append(e.cards[0])
        elif to == self.me:
            if e.cards:
                self.take(giver, e.cards[0])
        elif self.rng.random() < 0.5:
            self.gifts.append(None)
        else:
            items = [("known", c) for c in self.known[giver]] + \
                [("free", s) for s in self.free[giver]]
            if not items:
                self.gifts.append(None)
                return
            kind, x = items[self.rng.randrange(len(items))]
            if kind == "known":
                self.known[giver].remove(x)
                self.known[to].append(x)
                self.gifts.append(-1 - x)
            else:
                self.free[giver].remove(x)
                self.free[to].append(x)
                self.gifts.append(x)


def _pass(s: MdsState, me: int, rng: random.Random, seen: Sequence[Event]) -> _Slots:
    """The slots after the seen events, the played cards bound."""
    n, h = s.n, s.options.mds_hand_size
    sl = _Slots(n, me, rng)
    for e in seen:
        if e.kind == "DEAL" and e.seat != me:
            sl.deal[e.seat] = [sl.new() for _ in range(h)]
            sl.free[e.seat].extend(sl.deal[e.seat])
        elif e.kind == "DEAL":
            sl.own_deal = e.cards
        elif e.kind == "SUIT_DRAW":
            sl.stock = [sl.new() for _ in range(N_FACES - n * h)]
            sl.suit = e.value
            if e.seat == me:
                sl.in_stock = e.cards
        else:
            sl.see(e)
    return sl


def _fill(sl: _Slots, rng: random.Random) -> None:
    """Deal the cards nobody has seen to the free slots at random: first the seat's own suit
    draw to free stock slots, then the slots with a forbidden suit, then the rest."""
    bound = {f for f in sl.face if f is not None}
    unseen = [c for c in range(N_FACES) if c not in bound and c not in sl.own_deal]
    free = [i for i, f in enumerate(sl.face) if f is None]
    if len(unseen) != len(free):
        raise _Refused
    rng.shuffle(unseen)
    stock_free = [i for i in sl.stock if sl.face[i] is None]
    for c in sl.in_stock:
        if c in unseen:
            if not stock_free:
                raise _Refused
            sl.face[stock_free.pop(rng.randrange(len(stock_free)))] = c
            unseen.remove(c)
    for slot in sorted(sl.forbid, key=lambda x: -len(sl.forbid[x])):
        if sl.face[slot] is not None:
            continue
        ok = [i for i, c in enumerate(unseen) if IS_JOKER[c] or SUIT[c] not in sl.forbid[slot]]
        if not ok:
            raise _Refused
        sl.face[slot] = unseen.pop(ok[rng.randrange(len(ok))])
    rest = [i for i in free if sl.face[i] is None]
    for i, c in zip(rest, unseen, strict=True):
        sl.face[i] = c


def _deck(s: MdsState, me: int, sl: _Slots) -> tuple[int, ...]:
    """GAME_START's deck of the world: the dealt cards where MDS-9 deals them, then the stock."""
    n, h = s.n, s.options.mds_hand_size
    deck: list[int] = [0] * (n * h)
    for k in range(n):
        seat = (s.first_leader + k) % n
        cards = sl.own_deal if seat == me else [sl.card(i) for i in sl.deal[seat]]
        for j, c in enumerate(cards):
            deck[k + j * n] = c
    return (*deck, *(sl.card(i) for i in sl.stock))


def _suit_draw(w: MdsState, e: Event, me: int, sl: _Slots, rng: random.Random) -> Event:
    """The world's suit draw: the seat's own draw as it saw it, else a card of the announced
    suit from the world's stock; then the stock order of the slots."""
    order = tuple(sl.card(i) for i in sl.stock)
    if e.seat == me:
        drawn = e.cards
    else:
        suited = [c for c in order if SUIT[c] == e.value]
        if not suited:
            raise _Refused
        drawn = (suited[rng.randrange(len(suited))],)
    return rules.suit_draw_event(w, drawn, order)


def _world_event(game: Any, w: MdsState, e: Event, me: int, sl: _Slots, gifts: list[int | None],
                 rng: random.Random) -> Event:
    """The world's version of a seen event (its hidden parts from the slots)."""
    due = game.next_auto(w)
    if due == "SUIT_DRAW":
        return _suit_draw(w, e, me, sl, rng)
    if due is not None:
        return game.auto_event(w, rng)._replace(ts=e.ts)
    if e.kind == "DRAW" and e.seat != me:
        return e._replace(cards=w.stock[:1], value=held_flag(w, w.hands[e.seat]))
    if e.kind == "GIFT" and me not in (e.seat, e.target):
        g = gifts.pop(0)
        if g is None:
            return e._replace(cards=())
        return e._replace(cards=(-1 - g if g < 0 else sl.card(g),))
    return e


def _world(game: Any, s: MdsState, me: int, rng: random.Random, seen: Sequence[Event]
           ) -> MdsState:
    """One draw of a world, refused (``_Refused``) when the engine or the view says no."""
    sl = _pass(s, me, rng, seen)
    _fill(sl, rng)
    start = seen[0]._replace(cards=_deck(s, me, sl))
    try:
        w = game.initial_state(start)
        gifts = list(sl.gifts)
        for e in seen[1:]:
            game.step(w, _world_event(game, w, e, me, sl, gifts, rng))
    except EngineError as exc:
        raise _Refused from exc
    if game.view(w, me) != game.view(s, me):
        raise _Refused
    return w


def sample_world(s: MdsState, seat: int, rng: random.Random, seen: Sequence[Event]) -> MdsState:
    """A full state the seat cannot tell from this one (module docstring)."""
    for _ in range(TRIES):
        try:
            return _world(_ENGINE, s, seat, rng, seen)
        except _Refused:
            continue
    raise EngineError(f"no world consistent with seat {seat}'s view found in {TRIES} draws")
