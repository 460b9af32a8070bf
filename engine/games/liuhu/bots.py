"""Self-play policies for 扑克六湖: random legal play, and a greedy beginner.

A policy's ``choose(state, rng)`` returns the next action of whoever acts: the owed automatic
event, else one of the legal actions of the seat the game waits for. Only the seeded ``rng``
decides, so the same seed gives the same log.
"""

from __future__ import annotations

import random

from engine.events import Event
from engine.games.liuhu import scoring
from engine.games.liuhu.cards import RJ, SUITED, rank, suit
from engine.games.liuhu.claims import win_faces_of
from engine.games.liuhu.rules import auto_event, legal_actions
from engine.games.liuhu.setup import action
from engine.games.liuhu.state import (
    CHI,
    CLAIMED,
    GANG,
    HU,
    PASS,
    PENG,
    RESPOND,
    TURN,
    ZIMO,
    LhState,
)
from engine.games.liuhu.window import respond_event, responder

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
    most isolated card.

    ``choose`` works the choice out from the hand (the discards scored from the hand's face
    counts, only the chosen action built); ``choose_listed``, which scores every listed legal
    action, is its definition and reference: both pick the same action with the same calls on
    rng in every state (``tests/games/liuhu/test_bots.py`` runs them side by side)."""

    name = "greedy"

    def choose(self, s: LhState, rng: random.Random) -> Event:
        """The next action for whoever acts."""
        ph = s.phase
        if ph == RESPOND:
            return _respond_choice(s)
        if (ph == TURN or ph == CLAIMED) and s.hands[s.turn]:     # nothing is owed in these
            return _turn_choice(s, rng)
        return self.choose_listed(s, rng)           # owed events, an awarded claim

    def choose_listed(self, s: LhState, rng: random.Random) -> Event:
        """The same choice from every listed legal action (the slow reference path)."""
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


# A suited face's cell in the padded face counts: 17 cells a suit, the 13 ranks between two
# empty cells each side, so that a neighbour past a suit's A or K reads 0; the RJ has none.
PAD = tuple(17 * (c // 13) + c % 13 + 2 for c in SUITED)
CELLS = 68
# a suited face's (cell, its rank's cell in the first suit, weight of a same-rank card,
# tie-break 0.01 × rank) for ``most_isolated``
_SCORING = tuple((PAD[c], c % 13 + 2, 2.0 if c % 13 + 1 in LUCKY else 1.0, 0.01 * (c % 13 + 1))
                 for c in SUITED)


def face_counts(hand: tuple[int, ...]) -> list[int]:
    """The hand's suited cards counted by face in the padded cells of ``PAD``."""
    cnt = [0] * CELLS
    for x in hand:
        if x != RJ:
            cnt[PAD[x]] += 1
    return cnt


def most_isolated(hand: tuple[int, ...], cnt: list[int] | None = None) -> list[int]:
    """The hand's faces of the highest ``isolation``, ascending, scored from its face counts
    (``face_counts``): the same terms summed in another order (each a multiple of 0.5, so
    exact in any order), the same tie-break added last (``most_isolated_sorted``)."""
    return most_isolated_sorted(tuple(sorted(hand)), face_counts(hand) if cnt is None else cnt)


def most_isolated_sorted(hand: tuple[int, ...], cnt: list[int]) -> list[int]:
    """``most_isolated`` of a sorted hand with its face counts: the faces taken in the hand's
    order, each once, without building the sorted set (the same terms, order and ties)."""
    best, tied = -1e9, []
    prev = -1
    for c in hand:
        if c == prev:
            continue
        prev = c
        if c == RJ:
            v = -100.0
        else:
            p, q, pair, tenth = _SCORING[c]
            k = cnt[p]
            v = (14.0 - 4.0 * k - 3.0 * (cnt[p - 1] + cnt[p + 1])
                 - 1.5 * (cnt[p - 2] + cnt[p + 2])
                 - pair * (cnt[q] + cnt[q + 17] + cnt[q + 34] + cnt[q + 51] - k) + tenth)
        if v > best:
            best, tied = v, [c]
        elif v == best:
            tied.append(c)
    return tied


def _kong(s: LhState, seat: int, hand: tuple[int, ...], cnt: list[int]) -> Event | None:
    """The kong ``choose_listed`` declares: the last 暗杠 ``turn_actions`` lists (the highest
    face held four times), else its last 加杠; None without either (the wall checked)."""
    if max(cnt) >= 4:
        for c in sorted(set(hand), reverse=True):
            if c != RJ and cnt[PAD[c]] >= 4:
                return action(s, "AN_GANG", seat, (c,))
    for kind, cards, _, _ in reversed(s.melds[seat]):
        if kind == PENG and cards[0] in hand:
            return action(s, "JIA_GANG", seat, (cards[0],))
    return None


def may_zimo(s: LhState) -> bool:
    """``scoring.can_zimo`` for the seat on turn (TURN), read as the drawn card among the
    winning faces of the hand before it (``hand.win_faces``, ``could_win_with``'s answer for
    every face, through the claim windows' memo: they have mostly searched that hand
    already); the dealer's first turn and a hand or draw with an RJ ask ``can_zimo``."""
    seat, d = s.turn, s.drawn
    held = s.hands[seat]
    if d < 0 or d == RJ or RJ in held:
        return scoring.can_zimo(s)
    i = held.index(d)
    faces = win_faces_of(s, seat, held[:i] + held[i + 1:], ZIMO)
    return faces is not None and d in faces

def _turn_choice(s: LhState, rng: random.Random) -> Event:
    """``choose_listed``'s action for the seat on turn (a non-empty hand): 自摸, a kong, else
    one of the most isolated discards drawn by ``rng.choice`` over as many as it was."""
    seat = s.turn
    hand = s.hands[seat]
    cnt = face_counts(hand)
    if s.phase == TURN:
        if may_zimo(s):
            return scoring.hu_event(s, seat)
        if s.wall_size() >= 1:                                  # LH-25
            kong = _kong(s, seat, hand, cnt)
            if kong is not None:
                return kong
    c = rng.choice(most_isolated_sorted(hand, cnt))   # rng.choice draws by the length alone
    return action(s, "DISCARD", seat, (c,))


def _respond_choice(s: LhState) -> Event:
    """``GreedyPolicy._respond``'s answer from the responder's claims, only it built."""
    seat = responder(s)
    claims = dict(s.eligible)[seat]
    hand, card = s.hands[seat], s.w_card
    kinds = {c[0]: c for c in claims}
    for kind in (HU, GANG):
        if kind in kinds:
            return respond_event(s, seat, kinds[kind])
    if PENG in kinds and not in_sequence(hand, card):
        return respond_event(s, seat, kinds[PENG])
    for c in claims:
        if c[0] == CHI and all(hand.count(x) == 1 and not in_sequence(hand, x) for x in c[1]):
            return respond_event(s, seat, c)
    return respond_event(s, seat, (PASS, ()))


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
