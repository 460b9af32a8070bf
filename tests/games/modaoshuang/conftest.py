"""Helpers for the 摸到爽 rule tests: positions built from text, events, seeded playouts.

``pos(...)`` builds a playing position from the hands, stock and round given as text; every
card not placed anywhere is a dead card, so the 54 cards are always all there. A test then feeds
one event and checks the verdict (``rejected`` asserts the state is unchanged).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.cards import format_faces, parse_face, parse_faces
from engine.errors import IllegalMove
from engine.events import Event
from engine.games import modaoshuang as mds
from engine.games.modaoshuang.cards import SUITS
from engine.games.modaoshuang.game import _fresh
from engine.games.modaoshuang.scoring import dianpao_seat
from engine.games.modaoshuang.state import MdsState

GAME_ID = "mds-test"


def players(n: int) -> list[str]:
    """Player ids for n seats."""
    return [f"p{i}" for i in range(n)]


def options(n: int = 3, **kw: Any) -> mds.Options:
    """Options for n players (defaults otherwise)."""
    return mds.Options(mds_players=n, **kw)


def start(seed: int = 1, n: int = 3, first_leader: int | None = None, **kw: Any) -> Event:
    """A seeded GAME_START."""
    return mds.start_event(GAME_ID, players(n), random.Random(seed), options(n, **kw),
                           first_leader=first_leader)


def settle(s: MdsState, rng: random.Random | None = None) -> MdsState:
    """Apply every automatic event owed now."""
    rng = rng or random.Random(0)
    while (a := mds.auto_event(s, rng)) is not None:
        s = mds.apply(s, a)
    return s


def started(seed: int = 1, n: int = 3, first_leader: int | None = None, **kw: Any) -> MdsState:
    """A seeded game after the deal and the suit draw, round 1 about to start."""
    s = settle(mds.initial_state(start(seed, n, first_leader, **kw)))
    assert s.phase == "play" and s.round_no == 1
    return s


def pos(hands: list[str], *, stock: str = "", table: list[tuple[int, str]] = (),
        leader: int = 0, suit: str | None = None, round_no: int = 2, turns: int | None = None,
        collector: int | None = None, shou: bool | None = None, report: tuple | None = None,
        missed: list[tuple[int, str]] = (), penalty: dict | None = None,
        out_pending: int | None = None, winner: int | None = None, first_leader: int = 0,
        first_suit: str = "s", options: dict[str, Any] | None = None,
        phase: str = "play") -> MdsState:
    """A playing position for len(hands) seats; every card not placed is dead. ``table`` is
    the round's plays as (seat, face); ``turns`` defaults to the number of plays; the round
    suit defaults to the first play's suit; ``shou`` defaults to an empty stock."""
    n = len(hands)
    placed = [parse_face(f) for h in hands for f in h.split()] + list(parse_faces(stock)) + \
        [parse_face(f) for _, f in table]
    assert len(placed) == len(set(placed)), "a card is placed twice"
    dead = [c for c in range(54) if c not in placed]
    if suit is None and table:
        first = table[0][1]
        assert first not in ("BJ", "RJ"), "a joker lead needs suit="
        suit = first[1]
    suit_card = [c for c in range(54) if c // 13 == SUITS.index(first_suit)][0]
    opts = mds.Options(mds_players=n, **(options or {}))
    s = _fresh(GAME_ID, opts, tuple(players(n)), first_leader, "random", tuple(range(54)))
    p = mds.to_position(s)
    p.pop("to_act")
    p.update(phase=phase, hands=[h.split() for h in hands], stock=stock.split(),
             dead=format_faces(dead).split(), shoudaoshuang=not stock if shou is None else shou,
             suit_draw={"suit": first_suit, "cards": format_faces([suit_card]).split()},
             round={"number": round_no, "leader": leader, "suit": suit,
                    "plays": [{"seat": x, "card": f} for x, f in table],
                    "turns": len(table) if turns is None else turns, "collector": collector},
             report=None if report is None else {"seat": report[0], "count": report[1]},
             missed_reports=[{"seat": x, "cause": c} for x, c in missed],
             penalty=penalty, out_pending=out_pending, winner=winner)
    if winner is not None and phase == "play":
        d = dianpao_seat(tuple(x for x, _ in table), winner, round_no, opts.mds_dianpao)
        p["dianpao"] = None if d < 0 else d
    return mds.from_position(json.loads(json.dumps(p)))


def ev(s: MdsState, kind: str, seat: int = -1, cards: str = "", **kw: Any) -> Event:
    """An event for state s (its game id and next seq), cards as text."""
    return Event(kind, seat=seat, cards=parse_faces(cards), game_id=s.game_id, seq=s.seq, **kw)


def play(s: MdsState, seat: int, card: str, suit: str | None = None) -> Event:
    """A PLAY of one card; ``suit`` names the suit of a led joker."""
    return ev(s, "PLAY", seat, card, value=-1 if suit is None else SUITS.index(suit))


def draw(s: MdsState, seat: int, held: int | None = None) -> Event:
    """A turn DRAW of the stock's top card with its held-the-suit flag (computed if None)."""
    if held is None:
        hand = s.hands[seat]
        held = -1 if s.suit < 0 else int(any(c < 52 and c // 13 == s.suit for c in hand))
    return Event("DRAW", seat=seat, cards=s.stock[:1], value=held, tag="turn",
                 game_id=s.game_id, seq=s.seq)


def no_play(s: MdsState, seat: int, tag: str) -> Event:
    """A NO_PLAY with its reason."""
    return ev(s, "NO_PLAY", seat, tag=tag)


def report(s: MdsState, seat: int, count: int = 2) -> Event:
    """A REPORT of the count announced."""
    return ev(s, "REPORT", seat, value=count)


def gift(s: MdsState, seat: int, card: str = "") -> Event:
    """A GIFT of one card (or none) to the offender of the penalty in progress."""
    return ev(s, "GIFT", seat, card, target=s.pen_seat)


def run(s: MdsState, *events: Any) -> MdsState:
    """Apply events in order; an item may be a callable state -> Event (built on the spot)."""
    for e in events:
        s = mds.apply(s, e(s) if callable(e) else e)
    return s


def auto(s: MdsState, rng: random.Random | None = None) -> tuple[MdsState, list[Event]]:
    """Apply the owed automatic events; returns the state and those events."""
    rng = rng or random.Random(0)
    done = []
    while (a := mds.auto_event(s, rng)) is not None:
        s = mds.apply(s, a)
        done.append(a)
    return s, done


def rejected(s: MdsState, e: Event, rule: str | None = None) -> IllegalMove:
    """Assert the event is rejected as illegal (citing ``rule`` if given), the state unchanged."""
    before = mds.to_position(s)
    copy = s.copy()
    with pytest.raises(IllegalMove) as info:
        mds.apply(s, e)
    assert mds.to_position(s) == before and s == copy
    if rule is not None:
        assert info.value.rule_id == rule, info.value
    return info.value


def hand(s: MdsState, seat: int) -> str:
    """A seat's hand as text (sorted by face code)."""
    return format_faces(s.hands[seat])


def kinds(events: list[Event]) -> list[str]:
    """The kinds of a list of events."""
    return [e.kind for e in events]


def playout(seed: int, opts: dict[str, Any], policy: str = "random",
            first_leader: int | None = None, game_id: str | None = None,
            previous_game: str | None = None) -> tuple[list[Event], MdsState]:
    """One seeded self-play game: its events and final state."""
    rng = random.Random(seed)
    o = mds.Options(**opts)
    e0 = mds.start_event(game_id or f"{GAME_ID}-{seed}", players(o.mds_players), rng, o,
                         first_leader=first_leader, previous_game=previous_game)
    s = mds.initial_state(e0)
    events = [e0]
    pol = mds.POLICIES[policy]()
    while not mds.is_over(s):
        a = pol.choose(s, rng)
        mds.step(s, a)
        events.append(a)
        assert len(events) < 20000
    return events, s
