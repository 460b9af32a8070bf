"""Self-play policies for 六人坑: uniformly random legal play, and a simple greedy player."""

from __future__ import annotations

import random

from engine.events import NONE, Event
from engine.games.keng import game
from engine.games.keng.actions import standing_actions
from engine.games.keng.cards import CLASS, IS_JOKER, SUIT, A, K
from engine.games.keng.plays import plays
from engine.games.keng.state import N_SEATS, PLAYING, KengState

_new_event = tuple.__new__


class RandomPolicy:
    """Uniform over the turn actions; reports, snatches and counts at random, now and then a
    false 抢 claim, so that every rule path occurs in self-play."""

    name = "random"
    report_prob = 0.9
    snatch_prob = 0.5
    count_prob = 0.01
    false_claim_prob = 0.003

    def choose(self, s: KengState, rng: random.Random) -> Event:
        """The next action for whoever acts (turn or out of turn)."""
        oot = game.out_of_turn_actions(s)
        reports = [a for a in oot if a.kind == "LAST_CARD"]
        if reports and rng.random() < self.report_prob:
            return reports[0]
        snatches = [a for a in oot if a.kind == "SNATCH"]
        if snatches and rng.random() < self.snatch_prob:
            return rng.choice(snatches)
        if rng.random() < self.count_prob:
            counts = [a for a in oot if a.kind == "COUNT"]
            if counts:
                return rng.choice(counts)
        if s.phase == "play" and rng.random() < self.false_claim_prob:
            seat = rng.randrange(N_SEATS)
            if seat != game.due_seat(s):
                hand = s.hands[seat]
                return game.claim(s, seat, rng.choice(hand) if hand else None)
        return rng.choice(game.turn_actions(s))


class GreedyPolicy:
    """Sheds as many cards as it can, punishes with K and RJ, keeps jokers for the end, names
    its longest suit, always reports its last card and snatches when it validly can.

    ``choose`` scores the plays straight from the hand (``plays``) and builds only the tied
    best actions; ``choose_listed``, which scores every listed legal action, is its definition
    and reference: both pick the same action with the same calls on rng in every state
    (``tests/games/keng/test_bots.py`` runs them side by side)."""

    name = "greedy"

    def choose(self, s: KengState, rng: random.Random) -> Event:
        """The next action for whoever acts (turn or out of turn)."""
        if s.phase != PLAYING or s.duel is not None or game.next_auto(s) is not None:
            return self.choose_listed(s, rng)
        standing = standing_actions(s)          # the reports and snatches, in listed order
        if standing:
            return standing[0]
        return rng.choice(_best_turn_actions(s))

    def choose_listed(self, s: KengState, rng: random.Random) -> Event:
        """The same choice from every listed legal action (the slow reference path)."""
        for a in game.out_of_turn_actions(s):
            if a.kind in ("LAST_CARD", "SNATCH"):
                return a
        actions = game.turn_actions(s)
        best = max(self._score(s, a) for a in actions)
        return rng.choice([a for a in actions if self._score(s, a) == best])

    @staticmethod
    def _score(s: KengState, a: Event) -> float:
        if a.kind in ("DRAW", "PASS", "ACCEPT"):
            return 0.0
        if a.kind == "START_CARD":
            return 1.0 + (_suit_len(s.hands[a.seat], a.value) if a.value >= 0 else 0)
        hand = s.hands[a.seat]
        f = a.cards[0]
        score = 10.0 + 2 * len(a.cards)
        cls = CLASS[f]
        if cls == K:
            score += 3
        if IS_JOKER[f]:
            score -= 0 if len(hand) <= 3 else 8
            score += 0.1 * _suit_len(hand, a.value)
        if cls == A and a.kind == "PLAY":
            score -= 2
        if a.kind == "DUEL_PLAY" and not IS_JOKER[f]:
            score += 0.1 * _suit_len(hand, SUIT[f])
        return score


def _play_score(f: int, n: int, hand_len: int, joker_suit: float) -> float:
    """A turn play's greedy score (``GreedyPolicy._score``'s arithmetic, in its order) from its
    first face, its size, the hand's size and, for a joker play, the named suit's length / 10."""
    score = 10.0 + 2 * n
    cls = CLASS[f]
    if cls == K:
        score += 3
    if IS_JOKER[f]:
        score -= 0 if hand_len <= 3 else 8
        score += joker_suit
    if cls == A:
        score -= 2
    return score


def _best_turn_actions(s: KengState) -> list[Event]:
    """The turn actions of the seat to act (no duel, in play) with the best greedy score, in
    ``turn_actions``' order, built without listing the others."""
    seat = s.to_act
    hand = s.hands[seat]
    n_hand = len(hand)
    tenths: list[float] = []     # a named suit's length / 10, once a joker play is met
    best = 0.0                   # ACCEPT, PASS and DRAW score 0, every play more
    tied: list[tuple[tuple[int, ...], int]] = []
    for cards in plays(s, seat):
        f = cards[0]
        if IS_JOKER[f] and not tenths:
            tenths = [0.1 * _suit_len(hand, suit) for suit in range(4)]
        for v in range(4) if IS_JOKER[f] else (NONE,):
            score = _play_score(f, len(cards), n_hand, tenths[v] if v >= 0 else 0.0)
            if score > best:
                best, tied = score, [(cards, v)]
            elif score == best:
                tied.append((cards, v))
    base = Event("PLAY", seat=seat, game_id=s.game_id, seq=s.seq)
    if tied:                     # base._replace(cards=cards, value=v), without its overhead
        gid, seq = s.game_id, s.seq
        return [_new_event(Event, ("PLAY", seat, cards, NONE, v, "", None, gid, seq, 0, b""))
                for cards, v in tied]
    if s.pending > 0:            # no play: the one other turn action (``turn_actions``)
        return [base._replace(kind="ACCEPT", cards=s.stock[:s.pending], value=s.pending)]
    if s.drawn:
        return [base._replace(kind="PASS")]
    return [base._replace(kind="DRAW", cards=s.stock[:2], value=2)]


def _suit_len(hand: tuple[int, ...], suit: int) -> int:
    return sum(1 for c in hand if SUIT[c] == suit)


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy}

# The self-play styles' roles (engine.styles.ROLES) as 六人坑's decision categories
# (docs/demo.md): attacks (坑, 叠加, 挑, the RJ), what a careful seat does (accept, draw, pass),
# the function cards a hoarder keeps (K, Q, J, A, jokers), the standing options (抢, report).
STYLE_CATEGORIES = {
    "aggressive": ("king", "big_joker", "stack_k", "stack_rj", "duel", "duel_ace"),
    "cautious": ("accept", "draw", "pass"),
    "special": ("king", "queen", "jack", "duel", "small_joker", "big_joker", "stack_k",
                "stack_rj", "duel_ace"),
    "claim": ("snatch", "report"),
}
