"""Self-play policies for 够级: a random legal player and a greedy beginner."""

from __future__ import annotations

import random
from typing import cast

from engine.events import Event
from engine.games.gouji import game
from engine.games.gouji.plays import analyse
from engine.games.gouji.state import GoujiState, PlayInfo, opposite, team_of
from engine.games.gouji.turns import gouji_now


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
    teammates' plays stand, never burns, never yields, agrees to 和点."""

    name = "greedy"

    def choose(self, s: GoujiState, rng: random.Random) -> Event:
        """The next action of whoever the game waits for."""
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
