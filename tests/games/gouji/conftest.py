"""Helpers for the 够级 rule tests: positions built from text, events, automatic steps.

A scenario starts from a dealt game (``dealt()``) or from ``pos(...)``, which replaces hands,
top play, outs and flags of a dealt position; the test then feeds one event and checks the
verdict. Test modules import these helpers with ``from .conftest import ...``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.cards import parse_faces
from engine.errors import IllegalMove
from engine.events import NONE, Event
from engine.games import gouji
from engine.games.gouji.game import annotate
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.position import from_position, to_position
from engine.games.gouji.state import GoujiState

GAME_ID = "gouji-test"
PLAYERS = [f"p{i}" for i in range(6)]


def settle(s: GoujiState, rng: random.Random | None = None) -> tuple[GoujiState, list[Event]]:
    """Apply every event the engine owes now (derived, cut, deal); returns state and events."""
    rng = rng or random.Random(0)
    done: list[Event] = []
    while (a := gouji.auto_event(s, rng)) is not None:
        s = gouji.apply(s, a)
        done.append(a)
        if s.stage == "direction":
            break
    return s, done


def dealt(seed: int = 1, options: GoujiOptions | None = None, *, direction: int = 1,
          starter: int = 0, game_no: int = 2, huiwu_team: str | None = None) -> GoujiState:
    """A seeded later game (no cut) right after the deal: the starter to lead, window open."""
    e0 = gouji.start_event(GAME_ID, PLAYERS, random.Random(seed), options, game_no=game_no,
                           direction=direction, starter=starter, huiwu_team=huiwu_team)
    s, _ = settle(gouji.initial_state(e0), random.Random(seed))
    assert s.stage == "play"
    return s


def pos(base: GoujiState | None = None, **changes: Any) -> GoujiState:
    """A position: a dealt game with fields of the position JSON replaced (docs/gouji.md).

    Hands may be given as strings ``"Th Td 2s"``; ``top=("Kh Kd", 3)`` sets the top play
    (cards, maker); ``out={seat: (position, how)}``. Unless given, the declaration window is
    closed, and played = every card not in a hand (so that the pack is conserved)."""
    s = base or dealt()
    p = to_position(s)
    p["window"] = False
    for key, value in changes.items():
        if key == "hands":
            p["hands"] = [v.split() if isinstance(v, str) else list(v) for v in value]
        elif key == "top":
            if value is None:
                p["top"] = None
            else:
                cards, seat = value[0], value[1]
                huiwu = value[2] if len(value) > 2 else False
                p["top"] = {"cards": cards.split() if isinstance(cards, str) else list(cards),
                            "seat": seat, "huiwu": huiwu}
        elif key == "out":
            p["out"] = [{"seat": k, "position": v[0], "how": v[1]} for k, v in value.items()]
        else:
            p[key] = value
    if "played" not in changes:
        from collections import Counter

        from engine.cards import format_face
        from engine.games.gouji.cards import PACK
        left = Counter(format_face(c) for c in PACK)
        for h in p["hands"]:
            left.subtract(h)
        p["played"] = sorted(left.elements())
    return from_position(p, scenario=True)


def play(seat: int, cards: str, s: GoujiState | None = None, **fields: Any) -> Event:
    """A PLAY event; annotated (base, tag) from the state when one is given."""
    e = Event("PLAY", seat=seat, cards=parse_faces(cards), **fields)
    if s is not None:
        e = annotate(s, e._replace(seq=s.seq, game_id=s.game_id))
    return e


def act(s: GoujiState, kind: str, seat: int = -1, cards: str = "", **fields: Any) -> Event:
    """Any action event with the state's game id and next seq."""
    return Event(kind, seat=seat, cards=parse_faces(cards) if cards else (), game_id=s.game_id,
                 seq=s.seq, **fields)


def apply_play(s: GoujiState, seat: int, cards: str) -> tuple[GoujiState, list[Event]]:
    """Apply an annotated play and settle the derived events; returns state and derived."""
    s = gouji.apply(s, play(seat, cards, s))
    return settle(s)


def do(s: GoujiState, kind: str, seat: int = -1, **fields: Any) -> tuple[GoujiState, list[Event]]:
    """Apply an action (PASS, RANG, XUANDIAN, …) and settle; returns state and derived events."""
    s = gouji.apply(s, act(s, kind, seat, **fields))
    return settle(s)


def illegal(s: GoujiState, e: Event, rule: str) -> IllegalMove:
    """Assert the event is rejected citing exactly this rule; returns the error."""
    if e.seq < 0:
        e = e._replace(seq=s.seq, game_id=s.game_id)
    with pytest.raises(IllegalMove) as info:
        gouji.check(s, e)
    assert info.value.rule_id == rule, f"{info.value} (expected {rule})"
    return info.value


def legal_plays(s: GoujiState) -> set[tuple[str, ...]]:
    """The legal PLAY events now, as sorted tuples of faces."""
    from engine.cards import format_face
    return {tuple(sorted(format_face(c) for c in a.cards)) for a in gouji.legal_actions(s)
            if a.kind == "PLAY"}


def kinds(events: list[Event]) -> list[str]:
    """The kinds of a list of events."""
    return [e.kind for e in events]


__all__ = ["GAME_ID", "PLAYERS", "NONE", "settle", "dealt", "pos", "play", "act", "apply_play",
           "do", "illegal", "legal_plays", "kinds"]
