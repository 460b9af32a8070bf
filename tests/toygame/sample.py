"""Worlds for review: a full 小墩 state consistent with what one seat knows (TRICK-15).

The seat knows its own hand, every card played (tricks are public) and, from the plays, the
suits each other seat is void in (TRICK-8: a seat that did not follow the led suit held none,
and nothing is drawn later). The other seats' hands and the stock are a uniform draw of the
unseen cards among the deals that respect those voids (rejection sampling: exact); the deck
of GAME_START is rebuilt from the seats' dealt cards and the stock."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import suit_of
from engine.errors import EngineError
from engine.events import Event
from tests.toygame.rules import DECK
from tests.toygame.state import PLAY, ToyState

TRIES = 2000


def knowledge(seen: Sequence[Event], n: int) -> tuple[list[list[int]], list[set[int]],
                                                      tuple[int, ...]]:
    """From the events as a seat saw them: each seat's played cards, each seat's void suits,
    and the seat's own dealt cards in the order dealt (its DEAL)."""
    played: list[list[int]] = [[] for _ in range(n)]
    voids: list[set[int]] = [set() for _ in range(n)]
    own: tuple[int, ...] = ()
    led: int | None = None
    for e in seen:
        if e.kind == "DEAL" and e.cards:
            own = e.cards
        elif e.kind == "PLAY":
            card = e.cards[0]
            played[e.seat].append(card)
            if led is None:
                led = suit_of(card)
            elif suit_of(card) != led:
                voids[e.seat].add(led)
        elif e.kind == "TRICK_END":
            led = None
    return played, voids, own


def _deal(unseen: list[int], sizes: list[int], voids: list[set[int]], rng: random.Random
          ) -> list[list[int]] | None:
    """The unseen cards shuffled and cut by sizes (the last part is the stock), or None when a
    seat got a suit it is void in."""
    cards = unseen[:]
    rng.shuffle(cards)
    parts, at = [], 0
    for k, size in enumerate(sizes):
        part = cards[at: at + size]
        at += size
        if k < len(voids) and any(suit_of(c) in voids[k] for c in part):
            return None
        parts.append(part)
    return parts


def sample_world(s: ToyState, seat: int, rng: random.Random, seen: Sequence[Event]
                 ) -> ToyState:
    """A full state the seat cannot tell from this one: the same view, the hidden cards
    drawn again among the places they could be."""
    if s.phase != PLAY:
        raise EngineError(f"a world is sampled during play, not in phase {s.phase!r}")
    played, voids, own = knowledge(seen, s.n)
    hand = s.hands[seat]
    gone = set(hand).union(*map(set, played))
    unseen = [c for c in DECK if c not in gone]
    others = [k for k in range(s.n) if k != seat]
    sizes = [len(s.hands[k]) for k in others] + [len(s.stock)]
    void_of = [voids[k] for k in others]
    for _ in range(TRIES):
        parts = _deal(unseen, sizes, void_of, rng)
        if parts is not None:
            break
    else:
        raise EngineError(f"no deal respecting the voids found in {TRIES} tries")
    hands = list(s.hands)
    for k, part in zip(others, parts, strict=False):
        hands[k] = tuple(sorted(part))
    stock = tuple(parts[-1])
    blocks = []
    for k in range(s.n):
        dealt = list(own) if k == seat else [*played[k], *hands[k]]
        if k != seat:
            rng.shuffle(dealt)
        blocks.extend(dealt)
    w = s.copy()
    w.hands, w.stock, w.deck = tuple(hands), stock, (*blocks, *stock)
    return w
