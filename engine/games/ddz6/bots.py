"""Self-play policies for 六人斗地主: uniformly random legal actions, and a simple greedy player.

A policy's ``choose(state, rng)`` returns the next action of whoever acts: the owed automatic
event (chance from rng) or the action of the seat to act. The greedy player bids and doubles
on strong hands, sheds its smallest combinations (the most cards among equals), keeps its bombs
for an opponent close to going out, and never beats a play of its own side as it knows it.
``random_timeouts`` and ``greedy_timeouts`` are the same players whose decisions sometimes time
out (``TimeoutPolicy``): the engine's marked default is recorded instead (DDZ-75), so that
self-play corpora hold defaults; ``random`` and ``greedy`` never time out.
"""

from __future__ import annotations

import random

from engine.events import Event
from engine.games.ddz6.autowin import holds_bomb
from engine.games.ddz6.cards import BJ_V, RJ_V, TWO_V, VALUE, value_counts
from engine.games.ddz6.combos import Combo
from engine.games.ddz6.info import known_code
from engine.games.ddz6.moves import HandPlays
from engine.games.ddz6.play import play_choices, play_event
from engine.games.ddz6.setup import action
from engine.games.ddz6.state import BID, DOUBLE, PLAY, SHOW, SIDE, DdzState

DANGER = 6            # an opponent with this few cards is worth a bomb
TIMEOUT_RATE = 0.04   # the chance that a decision of a TimeoutPolicy times out


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
        if s.phase == PLAY:
            return self._play(s, rng)
        return rng.choice(_actions(s))

    @staticmethod
    def _play(s: DdzState, rng: random.Random) -> Event:
        """The choice among [PASS, *plays] (plays alone on a lead), only the chosen play made
        an event."""
        from engine.games.ddz6.play import play_event, turn_plays
        plays = turn_plays(s)
        if s.top is not None:
            passed = action(s, "PASS", s.turn)
            if not plays:
                return rng.choice([passed])
            if rng.random() < 0.5:
                return passed
        p = rng.choice(plays)
        return play_event(s, s.turn, p.cards, p.combo)


def strength(hand: tuple[int, ...]) -> int:
    """A rough hand strength: jokers, 2s and bombs."""
    c = value_counts(hand)
    bombs = sum(1 for v in range(3, TWO_V + 1) if c[v] >= 4)
    return c[BJ_V] + c[RJ_V] + c[TWO_V] + 2 * bombs


class GreedyPolicy:
    """Bids and doubles on strength; sheds small combinations, keeps bombs, does not bomb (or
    beat) its own side as the seat knows it.

    In play ``choose`` finds the play from the grouped hand (``moves.HandPlays``: ``finishes``,
    ``shed``, ``least_bomb``) and builds that one event; ``choose_listed``, which picks from every listed
    legal action (thousands on a 4-deck lead), is its definition and reference, and the path
    outside play (bids, doubles, show hand, sides) and for a hand that goes out in one play.
    Both give the same action with the same calls on rng in every state
    (``tests/games/ddz6/test_game_bots.py`` runs them side by side)."""

    name = "greedy"

    def choose(self, s: DdzState, rng: random.Random) -> Event:
        """The next action for whoever acts."""
        a = _auto(s, rng)
        if a is not None:
            return a
        if s.phase != PLAY:
            return self._listed(s, rng)
        return self._fast_play(s)

    def choose_listed(self, s: DdzState, rng: random.Random) -> Event:
        """The same choice from every listed legal action (the slow reference path)."""
        a = _auto(s, rng)
        if a is not None:
            return a
        return self._listed(s, rng)

    def _listed(self, s: DdzState, rng: random.Random) -> Event:
        """The seat's decision from its listed legal actions."""
        if s.phase == PLAY:
            return self._play(s, *play_choices(s))
        actions = _actions(s)
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

    def _fast_play(self, s: DdzState) -> Event:
        """``_play``'s choice without listing: going out in one play (then the listed path: a
        short hand), a pass to a partner, the least non-bomb play by (key, -cards) (``_key``
        is the combination's key: non-zero for every non-bomb), else a pass unless an
        opponent is close to out, else the lowest bomb, else a pass."""
        seat, top = s.turn, s.top
        hand = s.hands[seat]
        plays = HandPlays(hand, top, s.variant, s.options, s.locked if s.locked >= 0 else None)
        if plays.finishes():
            return self._play(s, *play_choices(s))
        if top is not None and _known_partner(s, seat, s.top_seat):
            return action(s, "PASS", seat)
        p = plays.shed()
        if p is None:
            if top is not None and not self._bomb_now(s, seat):
                return action(s, "PASS", seat)
            p = plays.least_bomb()
        if p is not None:
            return play_event(s, seat, p.cards, p.combo)
        if top is not None:
            return action(s, "PASS", seat)                  # no play at all
        return self._play(s, *play_choices(s))              # a lead without one: as listed

    def _play(self, s: DdzState, actions: list[Event], combos: list[Combo]) -> Event:
        seat = actions[0].seat
        hand = s.hands[seat]
        plays = [a for a in actions if a.kind == "PLAY"]
        finishing = [a for a in plays if len(a.cards) == len(hand)]
        if finishing:
            return finishing[0]
        passes = [a for a in actions if a.kind == "PASS"]
        if passes and _partner(s, seat, s.top_seat):
            return passes[0]
        read_plays = list(zip(plays, combos, strict=True))
        small = [(a, c) for a, c in read_plays if not c.level]
        if small:
            return min(small, key=lambda ac: (_key(ac[0], ac[1]), -len(ac[0].cards)))[0]
        if passes and not self._bomb_now(s, seat):
            return passes[0]
        return min(read_plays, key=lambda ac: ac[1].level)[0] if plays else passes[0]

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


def _known_partner(s: DdzState, seat: int, other: int) -> bool:
    """``_partner`` from the two seats' known side codes alone."""
    if other < 0:
        return False
    mine = known_code(s, seat, seat)
    return mine >= 0 and known_code(s, other, seat) == mine


def _key(a: Event, c: Combo) -> int:
    """The key a play is shed by: its combination's, or its highest card's value."""
    return c.key if c.key else max(VALUE[x] for x in a.cards)


class TimeoutPolicy:
    """Another policy whose seat sometimes does not decide in time: with probability ``rate``
    (drawn from the game's rng before each decision) the engine's default is recorded, marked
    (DDZ-75: bid pass, no double, not shown, side zheng, pass or the lowest single card)."""

    def __init__(self, base: RandomPolicy | GreedyPolicy, rate: float = TIMEOUT_RATE) -> None:
        self.base = base
        self.rate = rate
        self.name = f"{base.name}_timeouts"

    def choose(self, s: DdzState, rng: random.Random) -> Event:
        """The next action for whoever acts: the owed automatic event, a timed-out default, or
        the wrapped policy's choice."""
        a = _auto(s, rng)
        if a is not None:
            return a
        if rng.random() < self.rate:
            from engine.games.ddz6.game import default_action
            d = default_action(s)
            if d is not None:
                return d
        return self.base.choose(s, rng)


def random_timeouts() -> TimeoutPolicy:
    """The random player whose decisions sometimes time out."""
    return TimeoutPolicy(RandomPolicy())


def greedy_timeouts() -> TimeoutPolicy:
    """The greedy player whose decisions sometimes time out."""
    return TimeoutPolicy(GreedyPolicy())


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy,
            "random_timeouts": random_timeouts, "greedy_timeouts": greedy_timeouts}

# The self-play styles' roles (engine.styles.ROLES) as 六人斗地主's decision categories, the
# same for the three variants (docs/demo.md): beating the top play; passing and declining;
# the bombs a hoarder keeps; bidding (叫分), doubling, showing the hand.
STYLE_CATEGORIES = {
    "aggressive": ("play", "bomb"),
    "cautious": ("pass", "no_bid", "no_double", "no_show"),
    "special": ("bomb",),
    "claim": ("bid", "double", "show"),
}
