"""Helpers of the ddz6 game tests (no tests here): decks arranged so that seats get given
cards, events at the next seq, refusals checked to change nothing, seeded playouts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.errors import IllegalMove
from engine.events import Event
from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.cards import HAND_SIZE, deck
from engine.games.ddz6.state import DdzState

from .reference import faces

PLAYERS = [f"p{i}" for i in range(6)]


def arrange(variant: str, seats: dict[int, str | tuple[int, ...]], kitty: str = "",
            seed: int = 0) -> tuple[int, ...]:
    """A deck order dealing each listed seat these cards first (rank text as in
    reference.faces, or face codes) and the kitty these first; the rest shuffled."""
    n_hand = HAND_SIZE[variant]
    dealt = 6 * n_hand
    pool = Counter(deck(variant))
    d: list[int | None] = [None] * len(deck(variant))
    for seat, cards in seats.items():
        cs = faces(cards) if isinstance(cards, str) else cards
        for j, c in enumerate(cs):
            d[6 * j + seat] = c
            pool[c] -= 1
    for j, c in enumerate(faces(kitty)):
        d[dealt + j] = c
        pool[c] -= 1
    assert all(v >= 0 for v in pool.values()), "more copies than the pack holds"
    rest = list(pool.elements())
    random.Random(seed).shuffle(rest)
    it = iter(rest)
    return tuple(c if c is not None else next(it) for c in d)


def position(d: tuple[int, ...], seat: int, card: int) -> int:
    """The first deck position dealing this card to this seat."""
    return next(i for i in range(seat, len(d), 6) if d[i] == card)


def start(variant: str, d: tuple[int, ...] | None = None, options: dict | None = None,
          seed: int = 0) -> DdzState:
    """The state after GAME_START with this deck order (default: seeded shuffle)."""
    g = VARIANTS[variant]
    e0 = g.start_event(f"g-{variant}-{seed}", PLAYERS, random.Random(seed),
                       g.Options(**(options or {})))
    if d is not None:
        e0 = e0._replace(cards=d)
    return g.initial_state(e0)


def ev(s: DdzState, kind: str, seat: int = -1, cards: tuple[int, ...] = (), target: int = -1,
       value: int = -1, tag: str = "", payload: str | None = None) -> Event:
    """An event at the state's next seq."""
    return Event(kind, seat, tuple(cards), target, value, tag, payload, s.game_id, s.seq)


def do(s: DdzState, e: Event) -> DdzState:
    """The state after the event (apply: the input is left as it was)."""
    return VARIANTS[s.variant].apply(s, e)


def auto(s: DdzState) -> DdzState:
    """Apply the owed automatic event."""
    g = VARIANTS[s.variant]
    return g.apply(s, g.auto_event(s))


def autos(s: DdzState) -> DdzState:
    """Apply automatic events while one is owed."""
    while s.owed:
        s = auto(s)
    return s


def deal(s: DdzState, pos: int, dark: int | None = None) -> DdzState:
    """Apply the DEAL with these mark positions, then every automatic event after it."""
    from engine.games.ddz6.setup import deal_event
    return autos(do(s, deal_event(s, pos, dark)))


def refused(s: DdzState, e: Event, rule: str) -> IllegalMove:
    """The event is refused citing this rule, and the state is unchanged (DDZ-92)."""
    before = s.copy()
    g = VARIANTS[s.variant]
    with pytest.raises(IllegalMove) as exc:
        g.step(s, e)
    assert exc.value.rule_id == rule, f"cited {exc.value.rule_id}: {exc.value}"
    assert s == before, "a rejected event changed the state"
    assert g.to_move(s) == g.to_move(before)
    return exc.value


def playout(variant: str, seed: int, policy: str, options: dict | None = None,
            limit: int = 5000) -> tuple[list[Event], DdzState]:
    """A seeded self-play hand: its events and its final state."""
    g = VARIANTS[variant]
    rng = random.Random(seed)
    e0 = g.start_event(f"sp-{variant}-{seed}", PLAYERS, rng, g.Options(**(options or {})))
    s = g.initial_state(e0)
    events = [e0]
    pol = g.POLICIES[policy]()
    while not g.is_over(s):
        a = g.auto_event(s, rng) or pol.choose(s, rng)
        a = a._replace(game_id=s.game_id, seq=s.seq)
        g.step(s, a)
        events.append(a)
        assert len(events) < limit, "the hand did not end"
    return events, s


def replay(variant: str, events: list[Event]) -> DdzState:
    """Fold the events through check-then-apply from GAME_START (no randomness)."""
    g = VARIANTS[variant]
    s = g.initial_state(events[0])
    for e in events[1:]:
        g.check(s, e)
        s = g.apply(s, e)
    return s
