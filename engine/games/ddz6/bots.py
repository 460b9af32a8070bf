"""Self-play policies for 六人斗地主: uniformly random legal actions, and a simple greedy player.

A policy's ``choose(state, rng)`` returns the next action of whoever acts: the owed automatic
event (chance from rng) or the action of the seat to act. The greedy player bids and doubles
on strong hands, sheds its smallest combinations (the most cards among equals), keeps its bombs
for an opponent close to going out, and never beats a play of its own side as it knows it.
"""

from __future__ import annotations

import random

from engine.events import Event
from engine.games.ddz6.autowin import holds_bomb
from engine.games.ddz6.cards import BJ_V, RJ_V, TWO_V, VALUE, value_counts
from engine.games.ddz6.combos import read
from engine.games.ddz6.state import BID, DOUBLE, PLAY, SHOW, SIDE, DdzState

DANGER = 6            # an opponent with this few cards is worth a bomb


def _auto(s: DdzState, rng: random.Random) -> Event | None:
    from engine.games.ddz6.game import auto_event
    return auto_event(s, rng)


def _actions(s: DdzState) -> list[Event]:
    from engine.games.ddz6.game import legal_actions
    return legal_actions(s)


class RandomPolicy:
    """Uniform over the legal actions of the seat to act; in play it passes or plays with equal
    chance when it may pass, so that rounds end and hands are long enough to reach bombs."""

    name = "random"

    def choose(self, s: DdzState, rng: random.Random) -> Event:
        """The next action for whoever acts."""
        a = _auto(s, rng)
        if a is not None:
            return a
        actions = _actions(s)
        if s.phase == PLAY and actions[0].kind == "PASS" and len(actions) > 1:
            return actions[0] if rng.random() < 0.5 else rng.choice(actions[1:])
        return rng.choice(actions)


def strength(hand: tuple[int, ...]) -> int:
    """A rough hand strength: jokers, 2s and bombs."""
    c = value_counts(hand)
    bombs = sum(1 for v in range(3, TWO_V + 1) if c[v] >= 4)
    return c[BJ_V] + c[RJ_V] + c[TWO_V] + 2 * bombs


class GreedyPolicy:
    """Bids and doubles on strength; sheds small combinations, keeps bombs, does not bomb (or
    beat) its own side as the seat knows it."""

    name = "greedy"

    def choose(self, s: DdzState, rng: random.Random) -> Event:
        """The next action for whoever acts."""
        a = _auto(s, rng)
        if a is not None:
            return a
        actions = _actions(s)
        if s.phase == PLAY:
            return self._play(s, actions)
        hand = s.hands[actions[0].seat]
        st = strength(hand) * 27 // len(hand) if hand else 0
        if s.phase == BID:
            want = 3 if st >= 9 else 2 if st >= 7 else 1 if st >= 5 else 0
            ok = [x for x in actions if x.value <= want]
            return max(ok, key=lambda x: x.value)
        if s.phase in (DOUBLE, SHOW):
            yes = st >= (7 if s.phase == DOUBLE else 10) and holds_bomb(hand)
            return actions[int(yes)]
        if s.phase == SIDE:
            return actions[rng.randrange(2)]
        return rng.choice(actions)

    def _play(self, s: DdzState, actions: list[Event]) -> Event:
        seat = actions[0].seat
        hand = s.hands[seat]
        plays = [a for a in actions if a.kind == "PLAY"]
        finishing = [a for a in plays if len(a.cards) == len(hand)]
        if finishing:
            return finishing[0]
        passes = [a for a in actions if a.kind == "PASS"]
        if passes and _partner(s, seat, s.top_seat):
            return passes[0]
        small = [a for a in plays if not _is_bomb(s, a)]
        if small:
            return min(small, key=lambda a: (_key(s, a), -len(a.cards)))
        if passes and not self._bomb_now(s, seat):
            return passes[0]
        return min(plays, key=lambda a: _level(s, a)) if plays else passes[0]

    @staticmethod
    def _bomb_now(s: DdzState, seat: int) -> bool:
        """Bomb only an opponent who is close to going out."""
        return len(s.hands[s.top_seat]) <= DANGER and not _partner(s, seat, s.top_seat)


def _partner(s: DdzState, seat: int, other: int) -> bool:
    """True if the seat knows ``other`` is on its side."""
    from engine.games.ddz6.info import sides
    if other < 0:
        return False
    known = sides(s, seat)
    return known[seat] is not None and known[other] == known[seat]


def _combo(s: DdzState, a: Event):  # noqa: ANN202 - a Combo
    return read(a.cards, _rules(s))


def _rules(s: DdzState):  # noqa: ANN202 - ComboRules
    from engine.games.ddz6.combos import combo_rules
    return combo_rules(s.variant, s.options)


def _is_bomb(s: DdzState, a: Event) -> bool:
    return _combo(s, a).level > 0


def _key(s: DdzState, a: Event) -> int:
    c = _combo(s, a)
    return c.key if c.key else max(VALUE[x] for x in a.cards)


def _level(s: DdzState, a: Event) -> int:
    return _combo(s, a).level


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy}
