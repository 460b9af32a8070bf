"""Self-play policies for 摸到爽: uniformly random legal play, and a simple greedy player.

A policy's ``choose(state, rng)`` returns the next action of whoever acts: the owed automatic
event (chance from rng), a report of the seat that owes one, a gift choice or the turn seat's
action.
"""

from __future__ import annotations

import random

from engine.events import Event
from engine.games.modaoshuang.cards import FACE_VALUE, IS_JOKER, STRENGTH, SUIT
from engine.games.modaoshuang.plays import (
    gift_actions,
    report_actions,
    turn_actions,
    violates,
)
from engine.games.modaoshuang.state import MdsState


def _auto(s: MdsState, rng: random.Random) -> Event | None:
    from engine.games.modaoshuang.game import auto_event
    return auto_event(s, rng)


class RandomPolicy:
    """Uniform over the turn (or gift) actions; reports with a fixed chance at each step, so
    that reports are made and missed in self-play."""

    name = "random"
    report_prob = 0.5

    def choose(self, s: MdsState, rng: random.Random) -> Event:
        """The next action for whoever acts."""
        a = _auto(s, rng)
        if a is not None:
            return a
        reports = report_actions(s)
        if reports and rng.random() < self.report_prob:
            return reports[0]
        return rng.choice(gift_actions(s) if s.pen_gifts else turn_actions(s))


class GreedyPolicy:
    """Always reports; follows with its lowest card of the suit, plays a joker rather than
    draw or collect (never against MDS-19, and keeps it when another seat already collects),
    never 诈摸s; leads the lowest card of its longest suit; sheds its highest-valued card in
    the final round and as a gift."""

    name = "greedy"

    def choose(self, s: MdsState, rng: random.Random) -> Event:
        """The next action for whoever acts."""
        a = _auto(s, rng)
        if a is not None:
            return a
        reports = report_actions(s)
        if reports:
            return reports[0]
        actions = gift_actions(s) if s.pen_gifts else turn_actions(s)
        scored = [(self._score(s, a), a) for a in actions]
        best = max(x for x, _ in scored)
        return rng.choice([a for x, a in scored if x == best])

    @staticmethod
    def _score(s: MdsState, a: Event) -> float:
        hand = s.hands[a.seat]
        if a.kind == "GIFT":
            return FACE_VALUE[a.cards[0]] if a.cards else 0.0
        if a.kind == "DRAW":
            return -5.0 if a.value == 1 else 0.0
        if a.kind == "NO_PLAY":
            if a.tag == "final":
                return 1.0
            return 5.0 if s.collector >= 0 else -1.0     # keep a joker when it costs nothing
        c = a.cards[0]
        if s.winner >= 0:
            return 10.0 + FACE_VALUE[c]
        if IS_JOKER[c]:
            if violates(c, len(hand)):
                return -10.0
            suit = a.value if a.value >= 0 else s.suit
            return 2.0 + 0.1 * sum(1 for x in hand if SUIT[x] == suit)
        if s.suit < 0:
            length = sum(1 for x in hand if SUIT[x] == SUIT[c])
            return 10.0 + length - 0.05 * STRENGTH[c]
        return 10.0 - 0.05 * STRENGTH[c]


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy}

# The self-play styles' roles (engine.styles.ROLES) as 摸到爽's decision categories
# (docs/demo.md): playing a card or a joker rather than drawing; drawing, not playing, not
# giving; the jokers (百搭) a hoarder keeps; the report (报双) and the gift (罚).
STYLE_CATEGORIES = {
    "aggressive": ("lead", "follow", "joker"),
    "cautious": ("draw", "no_play", "no_gift"),
    "special": ("joker", "joker_violation"),
    "claim": ("report", "gift"),
}
