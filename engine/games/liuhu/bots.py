"""Self-play policies for 扑克六湖: random legal play, and a greedy beginner.

A policy's ``choose(state, rng)`` returns the next action of whoever acts: the owed automatic
event, else one of the legal actions of the seat the game waits for. Only the seeded ``rng``
decides, so the same seed gives the same log.
"""

from __future__ import annotations

import random

from engine.events import Event
from engine.games.liuhu.cards import RJ, rank, suit
from engine.games.liuhu.rules import auto_event, legal_actions
from engine.games.liuhu.state import LhState

CATEGORY = {"DISCARD": "discard", "AN_GANG": "kong", "JIA_GANG": "kong", "HU": "hu"}
LUCKY = frozenset({2, 5, 8, 10})     # pairs worth 6 (LH-54)


def _category(a: Event) -> str:
    return a.tag if a.kind == "RESPOND" else CATEGORY.get(a.kind, a.kind)


class RandomPolicy:
    """Random legal play, except that a 胡 is always taken (自摸 declared, 胡 claimed): a
    uniformly chosen kind of action (discard, kong; pass or a claim), then a uniformly chosen
    action of that kind."""

    name = "random"

    def choose(self, s: LhState, rng: random.Random) -> Event:
        """The next action for whoever acts."""
        a = auto_event(s)
        if a is not None:
            return a
        actions = legal_actions(s)
        kinds = sorted({_category(x) for x in actions})
        if "hu" in kinds:
            return next(x for x in actions if _category(x) == "hu")
        kind = rng.choice(kinds)
        return rng.choice([x for x in actions if _category(x) == kind])


def isolation(hand: tuple[int, ...], c: int) -> float:
    """How little the card does for the hand: copies, same-suit neighbours and special
    partners lower it; an RJ is never isolated."""
    if c == RJ:
        return -100.0
    r0, u = c % 13, c // 13          # rank(c) - 1 and suit(c), inline: rollouts ask this often
    same_rank = 2.0 if r0 + 1 in LUCKY else 1.0
    score = 10.0                     # every step below is a multiple of 0.5: exact in any order
    for x in hand:
        if x == c:
            score -= 4.0
        elif x != RJ:
            d = abs(x % 13 - r0)
            if x // 13 == u and d <= 2:
                score -= 3.0 if d == 1 else 1.5
            elif d == 0:
                score -= same_rank
    score += 4.0                     # the card itself was counted as a copy
    return score + 0.01 * (r0 + 1)


def in_sequence(hand: tuple[int, ...], c: int) -> bool:
    """True if the face sits in a same-suit run of three in the hand."""
    r, u = rank(c), suit(c)
    have = {rank(x) for x in hand if x != RJ and suit(x) == u}
    return any({lo, lo + 1, lo + 2} <= have for lo in (r - 2, r - 1, r) if lo >= 1)


class GreedyPolicy:
    """A beginner: 胡 whenever it may (自摸 too), declares kongs, 碰 a face not in a sequence
    of its hand, 吃 with two cards that are neither paired nor otherwise used, discards the
    most isolated card."""

    name = "greedy"

    def choose(self, s: LhState, rng: random.Random) -> Event:
        """The next action for whoever acts."""
        a = auto_event(s)
        if a is not None:
            return a
        actions = legal_actions(s)
        by_kind = {x.kind: x for x in actions}
        for kind in ("HU", "AN_GANG", "JIA_GANG", "CHI", "PENG", "MING_GANG"):
            if kind in by_kind:
                return by_kind[kind]
        if actions[0].kind == "RESPOND":
            return self._respond(s, actions)
        hand = s.hands[actions[0].seat]
        scores = [isolation(hand, x.cards[0]) for x in actions]     # each once
        best = max(scores)
        return rng.choice([x for x, v in zip(actions, scores, strict=True) if v == best])

    @staticmethod
    def _respond(s: LhState, actions: list[Event]) -> Event:
        hand = s.hands[actions[0].seat]
        card = s.w_card
        tags = {x.tag: x for x in actions}
        for tag in ("hu", "gang"):
            if tag in tags:
                return tags[tag]
        if "peng" in tags and not in_sequence(hand, card):
            return tags["peng"]
        for x in actions:
            if x.tag == "chi" and all(hand.count(c) == 1 and not in_sequence(hand, c)
                                      for c in x.cards):
                return x
        return tags["pass"]


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy}

# The self-play styles' roles (engine.styles.ROLES) as 扑克六湖's decision categories
# (docs/demo.md): 胡, 自摸 and kongs; letting a window go and discarding; the kongs a
# hoarder keeps concealed; the claims on a discard (胡, 杠, 碰, 吃).
STYLE_CATEGORIES = {
    "aggressive": ("hu", "zimo", "gang", "an_gang", "jia_gang"),
    "cautious": ("pass", "discard"),
    "special": ("gang", "an_gang", "jia_gang"),
    "claim": ("hu", "gang", "peng", "chi"),
}
