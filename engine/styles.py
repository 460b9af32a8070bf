"""Playing styles for self-play: a few named ways to play that work for every registered game,
built from the game's own bots, legal actions and decision categories (docs/demo.md).

A ``Style`` is data: the game's policy it plays by (``base``: a ``POLICIES`` name, or
``"demo"`` for the policy of the game's ``DEMO``), a chance per decision of playing the
game's greedy policy instead (``mix``), and a bias: with chance ``rate`` at a decision, the
seat chooses among its legal actions of the categories it prefers (``prefer``) or among those
not of the categories it avoids (``avoid``, only while it holds more than ``late`` cards).
Which categories those are is the game's own table, ``Game.style_categories``
(``{role: categories}`` for the roles of ``ROLES``, in the game's ``bots``); a game without
an entry for a role plays that style by its base policy alone.

``StyledPolicy(game, style)`` is a policy (``choose(state, rng)``) of one seat;
``Table(game, policies)`` seats one policy per seat and is itself a policy: the seat the game
waits for decides by its own policy, and before it a seat whose style takes standing options
(``Style.standing``: a 抢, a report — the game's ``decisions.STANDING``) out of turn takes
them. Every choice comes from the game's one seeded generator, so a seed gives the same
events; the styles are recorded nowhere (the events are ordinary events).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.events import Event
from engine.games.base import Game

# The roles a game's ``style_categories`` fills in, each a tuple of its decision categories:
ROLES = (
    "aggressive",   # attacks, answers, plays rather than passing or accepting
    "cautious",     # passes, accepts, declines, draws: what a careful seat does when allowed
    "special",      # the special cards or plays a hoarder keeps (bombs, jokers, kongs)
    "claim",        # the options a seat may claim: standing options (抢, reports), bids, claims
)
LATE = 3            # a hoarder plays its specials once it holds this many cards or fewer


@dataclass(frozen=True, slots=True)
class Style:
    """A named way to play (module docstring): a base policy of the game, a greedy mix and a
    bias towards (``prefer``) or away from (``avoid``) a role's categories at ``rate``."""

    name: str
    description: str
    base: str = "demo"              # a POLICIES name, or "demo": the game's DEMO policy
    mix: float = 0.0                # per decision: the greedy policy instead of base
    prefer: str | None = None       # a role of ROLES whose categories the seat prefers
    avoid: str | None = None        # a role of ROLES whose categories the seat avoids
    rate: float = 0.0               # per decision: the chance the bias applies (when it can)
    late: int = 0                   # avoid only while the hand holds more than this
    standing: bool = False          # takes its preferred standing options out of turn too

    def __post_init__(self) -> None:
        for role in (self.prefer, self.avoid):
            if role is not None and role not in ROLES:
                raise ValueError(f"style {self.name}: unknown role {role!r}; roles are "
                                 f"{', '.join(ROLES)}")
        if not (0 <= self.mix <= 1 and 0 <= self.rate <= 1):
            raise ValueError(f"style {self.name}: mix and rate are chances in [0, 1]")


STYLES: dict[str, Style] = {s.name: s for s in (
    Style("strong", "the game's greedy bot at every decision", base="greedy"),
    Style("weak", "the game's random bot at every decision", base="random"),
    Style("mixed", "an ordinary player: at each decision the greedy bot or the demo's bot, "
          "even odds", mix=0.5),
    Style("aggressive", "the demo's bot, but 85% of the time it attacks, answers or plays "
          "(the game's aggressive categories) when it may also do something else",
          prefer="aggressive", rate=0.85),
    Style("cautious", "the demo's bot, but 85% of the time it passes, accepts, declines or "
          "draws (the game's cautious categories) when it may", prefer="cautious", rate=0.85),
    Style("hoarder", "the demo's bot, but it keeps its specials (bombs, jokers, function "
          f"cards, kongs: the game's special categories) 95% of the time until it holds {LATE} "
          "cards or fewer", avoid="special", rate=0.95, late=LATE),
    Style("claimer", "the demo's bot, but it takes every claim it may (抢, reports, bids, "
          "claims on a discard: the game's claim categories) 95% of the time, out of turn too",
          prefer="claim", rate=0.95, standing=True),
)}


def policy_of(game: Game, name: str) -> Any:
    """A game's policy by name: one of its ``POLICIES``, or a style of ``STYLES`` (a
    ``StyledPolicy``)."""
    if name in game.POLICIES:
        return game.POLICIES[name]()
    if name in STYLES:
        return StyledPolicy(game, STYLES[name])
    raise EngineError(f"unknown policy or style {name!r}; {game.GAME_ID} has the policies "
                      f"{', '.join(game.POLICIES)} and the styles {', '.join(STYLES)}")


def _base(game: Game, name: str) -> Any:
    """A style's base policy: a POLICIES name, "demo" the game's DEMO policy; a game without
    the one named (a plug-in game with no greedy bot) plays by its DEMO policy instead, so
    that every style works for every game."""
    demo = str(game.DEMO.get("policy", "random"))
    if name == "demo" or name not in game.POLICIES:
        name = demo
    try:
        return game.POLICIES[name]()
    except KeyError:
        raise EngineError(f"{game.GAME_ID} has no policy {name!r} for a style") from None


class StyledPolicy:
    """One seat's policy in a style (module docstring): the game's base policy (or its greedy
    one, at ``mix``), biased towards or away from the categories of the game's table."""

    def __init__(self, game: Game, style: Style) -> None:
        self.game = game
        self.style = style
        self.name = style.name
        self.base = _base(game, style.base)
        self.greedy = _base(game, "greedy") if style.mix else self.base
        table = game.style_categories
        self.prefer = frozenset(table.get(style.prefer, ())) if style.prefer else frozenset()
        self.avoid = frozenset(table.get(style.avoid, ())) if style.avoid else frozenset()
        # the standing options (抢, reports) this seat takes out of turn
        self.standing = (self.prefer & frozenset(game.decisions.STANDING)
                         if style.standing else frozenset())

    def __repr__(self) -> str:
        return f"<style {self.name} of {self.game.GAME_ID}>"

    def choose(self, s: Any, rng: random.Random) -> Event:
        """The next action of whoever acts (the owed automatic event first): the base
        policy's (or the greedy one's, at ``mix``), unless the bias replaces it."""
        g = self.game
        a = g.auto_event(s, rng)
        if a is not None:
            return a
        style = self.style
        base = self.greedy if style.mix and rng.random() < style.mix else self.base
        a = base.choose(s, rng)
        if self.prefer or self.avoid:
            return self._biased(s, a, rng) or a
        return a

    def _biased(self, s: Any, a: Event, rng: random.Random) -> Event | None:
        """Another legal action of the seat to move, of a category the bias wants, in place of
        the base policy's ``a`` (at ``rate``), or None: ``a`` is no decision of the seat to
        move, its category already suits the bias, or no other category does. The options
        come from the game's decision hook (closed form); the legal actions are listed only
        when the bias changes the choice."""
        g = self.game
        d = g.decisions.decision(s, a)
        if d is None or d.seat != g.to_move(s):
            return None
        if self.prefer:
            want = d.options & self.prefer
            if not want or d.chosen in want:
                return None
        else:
            want = d.options - self.avoid
            if d.chosen not in self.avoid or not want or d.hand <= self.style.late:
                return None
        if rng.random() >= self.style.rate:
            return None
        category = g.decisions.action_category
        by_cat: dict[str, list[Event]] = {}
        for x in g.legal_actions(s):
            if x.seat == d.seat:
                c = category(s, x)
                if c is not None and c in want:
                    by_cat.setdefault(c, []).append(x)
        if not by_cat:
            return None
        return rng.choice(by_cat[rng.choice(sorted(by_cat))])

    def take_standing(self, s: Any, seat: int, actions: Sequence[Event],
                      rng: random.Random) -> Event | None:
        """A standing option of ``seat`` among ``actions`` (the legal actions now) that this
        style takes now, or None."""
        category = self.game.decisions.action_category
        mine = [a for a in actions if a.seat == seat and category(s, a) in self.standing]
        if mine and rng.random() < self.style.rate:
            return rng.choice(mine)
        return None


class Table:
    """The policies of a table, one per seat, as one policy: the seat to move decides by its
    own; before it, each seat whose style takes standing options (its own turn or not) may
    take one, in seat order."""

    name = "table"

    def __init__(self, game: Game, policies: Sequence[Any]) -> None:
        self.game = game
        self.policies = list(policies)
        self.standing = [(i, p) for i, p in enumerate(self.policies)
                         if isinstance(p, StyledPolicy) and p.standing]

    def choose(self, s: Any, rng: random.Random) -> Event:
        """The next action of whoever acts."""
        g = self.game
        a = g.auto_event(s, rng)
        if a is not None:
            return a
        if self.standing:
            actions = (g.standing_actions or g.legal_actions)(s)
            for i, p in self.standing:
                taken = p.take_standing(s, i, actions, rng)
                if taken is not None:
                    return taken
        return self.policies[g.to_move(s)].choose(s, rng)


def seat_policies(game: Game, names: Sequence[str]) -> list[Any]:
    """The policies of a table's seats by name (``policy_of``), as the simulator seats them:
    each seat its own policy, or, when a style takes standing options out of turn, one
    ``Table`` for every seat."""
    pols = [policy_of(game, n) for n in names]
    if any(isinstance(p, StyledPolicy) and p.standing for p in pols):
        table = Table(game, pols)
        return [table] * len(pols)
    return pols
