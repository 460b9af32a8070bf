"""Self-play policies for 小墩: uniformly random legal play, and a simple greedy player."""

from __future__ import annotations

import random

from engine.cards import suit_of
from engine.events import Event
from tests.toygame.rules import STRENGTH
from tests.toygame.state import ToyState


def _auto(s: ToyState) -> Event | None:
    from tests.toygame.game import auto_event
    return auto_event(s)


def _plays(s: ToyState) -> list[Event]:
    from tests.toygame.game import turn_actions
    return turn_actions(s)


class RandomPolicy:
    """Uniform over the legal plays."""

    name = "random"

    def choose(self, s: ToyState, rng: random.Random) -> Event:
        """The next action: the owed automatic event, else a random legal play."""
        return _auto(s) or rng.choice(_plays(s))


class GreedyPolicy:
    """Leads its highest card; follows with the lowest card that takes the trick, else its
    lowest; sheds its lowest card when void."""

    name = "greedy"

    def choose(self, s: ToyState, rng: random.Random) -> Event:
        """The next action for whoever acts."""
        auto = _auto(s)
        if auto is not None:
            return auto
        plays = _plays(s)
        if not s.trick:
            return max(plays, key=lambda a: (STRENGTH[a.cards[0]], rng.random()))
        led = suit_of(s.trick[0])
        best = max(STRENGTH[c] for c in s.trick if suit_of(c) == led)
        takers = [a for a in plays if suit_of(a.cards[0]) == led and STRENGTH[a.cards[0]] > best]
        return min(takers or plays, key=lambda a: STRENGTH[a.cards[0]])


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy}
