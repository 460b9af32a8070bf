"""Self-play policies for 够级: a random legal player and a greedy beginner."""

from __future__ import annotations

import random
from typing import cast

from engine.events import NONE, Event
from engine.games.gouji import game
from engine.games.gouji.actions import shape_event
from engine.games.gouji.cards import BJ_S, RJ_S, THREE, TWO_S
from engine.games.gouji.plays import analyse, groups
from engine.games.gouji.state import PLAY, GoujiState, PlayInfo, opposite, team_of
from engine.games.gouji.turns import gouji_now, may_answer_gouji

_new_event = tuple.__new__


class RandomPolicy:
    """Picks a kind of action uniformly (play, pass, 让牌, …), then one of that kind; declares
    宣点 now and then, so that every rule path occurs in self-play."""

    name = "random"
    declare_prob = 0.15

    def choose(self, s: GoujiState, rng: random.Random) -> Event:
        """The next action of whoever the game waits for."""
        oot = game.out_of_turn_actions(s)
        if oot and rng.random() < self.declare_prob:
            return rng.choice(oot)
        actions = game.turn_actions(s)
        by_kind: dict[str, list[Event]] = {}
        for a in actions:
            by_kind.setdefault(a.kind, []).append(a)
        kind = rng.choice(sorted(by_kind))
        return rng.choice(by_kind[kind])


def _info(a: Event) -> PlayInfo:
    """The shape of a legal play (analyse gives None only for cards that are no play)."""
    return cast(PlayInfo, analyse(a.cards))


def _wilds(a: Event) -> int:
    """2s and jokers in a play (a beginner keeps them)."""
    info = _info(a)
    return info.nrj + info.nbj + (info.n2 if info.base < 15 else info.n - info.nbj - info.nrj)


def _cost(a: Event) -> tuple[int, ...]:
    info = _info(a)
    return (info.nrj, info.nbj, _wilds(a), info.base, -info.n)


class GreedyPolicy:
    """A sensible beginner: leads its smallest rank whole and without wilds, keeps jokers and
    2s, answers its opposite's 够级 plays and opponents' plays cheaply when it can, lets its
    teammates' plays stand, never burns, never yields, agrees to 和点.

    ``choose`` works its play out from the grouped hand and the top play and builds that one
    event; ``choose_listed``, which picks from every listed legal action (hundreds on a lead),
    is its definition and reference: both give the same action in every state (the policy
    draws nothing from rng; ``tests/games/gouji/test_bots.py`` runs them side by side)."""

    name = "greedy"

    def choose(self, s: GoujiState, rng: random.Random) -> Event:
        """The next action of whoever the game waits for."""
        if s.stage != PLAY or s.owed or s.xd_pending >= 0 or s.huiwu_due:
            return self.choose_listed(s, rng)
        if s.top_seat < 0:
            g = groups(s.hands[s.to_act])
            return shape_event(s, g, _lead_shape(g, len(s.hands[s.to_act]),
                                                 s.burner == s.to_act))
        return _answer(s)

    def choose_listed(self, s: GoujiState, rng: random.Random) -> Event:
        """The same choice from every listed legal action (the slow reference path)."""
        actions = game.turn_actions(s)
        first = actions[0]
        if first.kind in ("DIRECTION", "DESIGNATE", "HUIWU"):
            return first
        if first.kind == "HEDIAN":
            return next(a for a in actions if a.tag == "agree")
        plays = [a for a in actions if a.kind == "PLAY" and "void" not in a.tag]
        if s.top_seat < 0:
            plays = plays or [a for a in actions if a.kind == "PLAY"]
            return min(plays, key=_lead_key)
        me, maker = s.to_act, s.top_seat
        pas = next(a for a in actions if a.kind == "PASS")
        if team_of(me) == team_of(maker) or not plays:
            return pas
        if gouji_now(s) and me != opposite(maker):
            return pas                   # a beginner does not burn
        cheap = min(plays, key=_cost)
        if gouji_now(s) or _wilds(cheap) == 0 or len(s.hands[me]) < 8:
            return cheap
        return pas


Shape = tuple[int, int, int, int, int]


def _lead_shape(g: list[list[int]], size: int, burner: bool) -> Shape:
    """The lead ``_lead_key`` puts first, as a shape (base, naturals, 2s, BJs, RJs) of
    ``answer_shapes``' form. Without wilds attached a lead's key is (0, 0, 0, base, -count),
    which the smallest natural rank below 2 led whole wins (3s, listed only when nothing but
    3s and wilds is left, only without wilds: with them attached they lose to the 2s or a
    joker); then all the 2s, one BJ, one RJ. The burner's leads without a joker are void
    (GJ-39): with a joker in hand the first non-void lead is the 2s with one joker (a BJ
    before an RJ), else that joker alone; without a joker every lead is void and the order
    is the usual one."""
    n2, nbj, nrj = len(g[TWO_S]), len(g[BJ_S]), len(g[RJ_S])
    if burner and nbj + nrj:
        if n2:
            return (TWO_S, n2, 0, 1, 0) if nbj else (TWO_S, n2, 0, 0, 1)
        return (BJ_S, 1, 0, 0, 0) if nbj else (RJ_S, 1, 0, 0, 0)
    for base in range(THREE + 1, TWO_S):
        if g[base]:
            return (base, len(g[base]), 0, 0, 0)
    n3 = len(g[THREE])
    if n3 and n3 == size:
        return (THREE, n3, 0, 0, 0)
    if n2:
        return (TWO_S, n2, 0, 0, 0)
    return (BJ_S, 1, 0, 0, 0) if nbj else (RJ_S, 1, 0, 0, 0)


def _answer(s: GoujiState) -> Event:
    """The greedy answer to the top play (``choose_listed``'s, without listing): pass on a
    teammate's play, on a 够级 play it may not or would burn to answer, with nothing that
    beats; else the cheapest play that beats, if it needs no wild, answers a 够级 play or the
    hand is short."""
    me, maker = s.to_act, s.top_seat
    pas = _new_event(Event, ("PASS", me, (), NONE, NONE, "", None, s.game_id, s.seq, 0, b""))
    if team_of(me) == team_of(maker):
        return pas
    gouji = gouji_now(s)
    if gouji and (me != opposite(maker) or not may_answer_gouji(s, me)):
        return pas
    g = groups(s.hands[me])
    cheap = cheapest_answer(g, cast(PlayInfo, s.top_info))
    if cheap is None:
        return pas
    if gouji or _shape_cost(cheap)[2] == 0 or len(s.hands[me]) < 8:
        return shape_event(s, g, cheap)
    return pas


def cheapest_answer(g: list[list[int]], t: PlayInfo) -> Shape | None:
    """The shape of ``answer_shapes(g, t)`` with the lowest ``_shape_cost``, worked out per
    family without listing them (None: nothing beats t). Every answer has t's count n and
    needs t's BJs in RJs (GJ-14); the cost puts fewer RJs first, then fewer BJs, fewer wilds,
    a lower base. A natural base takes as many naturals k as it can (n less the RJs needed):
    fewer of everything else; the RJs are those needed, or more when the 2s and BJs cannot
    fill the rest; then BJs where the 2s cannot. Likewise for a base of 2s (all the 2s it can)
    and of BJs (all the BJs it can); RJs alone cost n RJs."""
    if t.nrj:
        return None
    n, need = t.n, t.nbj
    n2, nbj, nrj = len(g[TWO_S]), len(g[BJ_S]), len(g[RJ_S])
    if nrj < need:
        return None
    best: Shape | None = None
    for base in range(max(t.base + 1, THREE + 1), TWO_S):
        k = min(len(g[base]), n - need)
        if k >= 1:
            best = _cheaper(best, _filled(base, k, n - k, n2, nbj, nrj, need))
    if t.base < TWO_S:
        a = min(n2, n - need)
        if a >= 1:
            best = _cheaper(best, _filled(TWO_S, a, n - a, 0, nbj, nrj, need))
    if t.base < BJ_S:
        b = min(nbj, n - need)
        if b >= 1 and n - b <= nrj:
            best = _cheaper(best, (BJ_S, b, 0, 0, n - b))
    if n <= nrj:
        best = _cheaper(best, (RJ_S, n, 0, 0, 0))
    return best


def _filled(base: int, k: int, rest: int, n2: int, nbj: int, nrj: int, need: int
            ) -> Shape | None:
    """k of the base and ``rest`` wilds: the fewest RJs (at least ``need``), then the fewest
    BJs, the rest in 2s (none for a base of 2s: n2 = 0); None when they do not suffice."""
    c = max(need, rest - n2 - nbj)
    if c > min(nrj, rest):
        return None
    b = max(0, rest - c - n2)
    return (base, k, rest - c - b, b, c) if base < TWO_S else (base, k, 0, b, c)


def _cheaper(best: Shape | None, shape: Shape | None) -> Shape | None:
    """The cheaper of two shapes (either may be None)."""
    if shape is None or (best is not None and _shape_cost(best) <= _shape_cost(shape)):
        return best
    return shape


def _shape_cost(shape: Shape) -> tuple[int, int, int, int, int]:
    """``_cost`` of the play of a shape, from the shape alone (its PlayInfo: ``shape_info``;
    2s, BJs and RJs are all wild in a play of base 2 or higher). A play has one shape and a
    shape one cost, so the cheapest shape is the cheapest play."""
    base, k, a, b, c = shape
    if base < TWO_S:
        return (c, b, a + b + c, base, -(k + a + b + c))
    if base == TWO_S:
        return (c, b, k + b + c, base, -(k + b + c))
    if base == BJ_S:
        return (c, k, k + c, base, -(k + c))
    return (k, 0, k, base, -k)


def _lead_key(a: Event) -> tuple[int, ...]:
    info = _info(a)
    wild = info.nrj + info.nbj + info.n2 if info.base < 15 else 0
    return (wild, info.nrj, info.nbj, info.base, -info.n)


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy}

# The self-play styles' roles (engine.styles.ROLES) as 够级's decision categories
# (docs/demo.md): answering, burning and 够级 leads; passing and 让牌; the 够级 plays and
# burns a hoarder keeps for late; 宣点 and 和点.
STYLE_CATEGORIES = {
    "aggressive": ("answer", "burn", "lead_gouji", "kaidian"),
    "cautious": ("pass", "rang"),
    "special": ("lead_gouji", "burn"),
    "claim": ("xuandian", "agree"),
}
