"""Helpers for the 六人坑 rule tests: positions built from text, events, automatic steps.

A scenario is a known playing position (from a seeded game) whose hands, stock, table, top
play and flags are replaced by ``pos(...)``; the test then feeds one event and checks the
verdict. Test modules import these helpers with ``from .conftest import ...``.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from typing import Any

import pytest

from engine.cards import format_faces, parse_faces
from engine.errors import IllegalMove
from engine.events import Event
from engine.games import keng
from engine.games.keng.state import KengState

GAME_ID = "keng-test"
PLAYERS = [f"p{i}" for i in range(6)]
SUITS = "shcd"

# Default hands: 24 different faces, no heart, no 5, no joker and no function card, so that
# on the default top play 5h nobody holds a legal play or a card another seat also holds.
DEFAULT_HANDS = (
    "2s 3c 4d 6s",
    "2c 3d 4s 6c",
    "2d 3s 4c 6d",
    "7s 8c 9d Ts",
    "7c 8d 9s Tc",
    "7d 8s 9c Td",
)
# A fixed stock (stock[0] is drawn first); tests that care set their own.
DEFAULT_STOCK = "Kd 2h 3h 7h 9h Qs Jc 6h 8h Th Ad 4h Kc Qd Js 2s 3c 4d 6s 7s 8c 9d Ts 2c"


def started(seed: int = 1, options: keng.KengOptions | None = None,
            opener: int | None = None) -> KengState:
    """A seeded game after GAME_START and the deal, before the start card."""
    e0 = keng.start_event(GAME_ID, PLAYERS, random.Random(seed), options, opener=opener)
    s = keng.initial_state(e0)
    s, _ = settle(s)
    assert s.phase == "start"
    return s


def settle(s: KengState, rng: random.Random | None = None) -> tuple[KengState, list[Event]]:
    """Apply every automatic event the engine owes now; returns the state and those events."""
    rng = rng or random.Random(0)
    done: list[Event] = []
    while (a := keng.auto_event(s, rng)) is not None:
        s = keng.apply(s, a)
        done.append(a)
    return s, done


def kinds(events: list[Event]) -> list[str]:
    """The kinds of a list of events."""
    return [e.kind for e in events]


@lru_cache(maxsize=1)
def _base_json() -> str:
    s = started(1)
    s = keng.apply(s, keng.turn_actions(s)[0])
    s, _ = settle(s)
    assert s.phase == "play"
    return json.dumps(keng.to_position(s))


def base_position() -> dict[str, Any]:
    """A fresh copy of the JSON position of a seeded game just after its start card."""
    return json.loads(_base_json())


def faces(text: str) -> list[str]:
    """Faces of a space-separated text as a list of strings (position format)."""
    return text.split()


def pos(hands: dict[int, str] | None = None, *, top: str = "5h", by: int | None = None,
        suit: str | None = None, covered: str = "", table: str = "", stock: str | None = None,
        to_act: int = 0, direction: int = 1, cycle: int = 1, pending: int = 0,
        window: bool | None = None, start_card: bool = False, duel_card: bool = False,
        options: dict[str, Any] | None = None, **fields: Any) -> KengState:
    """A playing position: default hands/stock overridden by text, top play ``top`` made by
    ``by`` (default: the seat before ``to_act``), named/active ``suit`` (default: the top card's
    suit), P = ``pending``; ``window`` defaults to open from cycle 2 on; other position fields
    (``banned``, ``duel``, ``drawn_two``, ``last_card_obligation``, …) are set as given."""
    p = base_position()
    hs = list(DEFAULT_HANDS)
    for seat, text in (hands or {}).items():
        hs[seat] = text
    p["hands"] = [faces(h) for h in hs]
    p["stock"] = faces(DEFAULT_STOCK if stock is None else stock)
    p["table"] = faces(table)
    top_faces = faces(top)
    if suit is None:
        assert top_faces[0] not in ("BJ", "RJ"), "a joker top play needs its named suit"
        suit = top_faces[0][1]
    p["top"] = {"cards": top_faces, "seat": (to_act - direction) % 6 if by is None else by,
                "suit": suit, "start_card": start_card, "duel_card": duel_card,
                "covered": faces(covered)}
    p["to_act"] = to_act
    p["direction"] = direction
    p["cycle"] = cycle
    p["pending_draw"] = pending
    p["snatch_window_open"] = cycle >= 2 if window is None else window
    if options:
        p["options"].update(options)
    for k, v in fields.items():
        assert k in p, f"unknown position field {k}"
        p[k] = v
    return keng.from_position(p, scenario=True)


def ev(s: KengState, kind: str, seat: int = -1, cards: str = "", **kw: Any) -> Event:
    """An event for state s (its game_id and next seq), cards as text."""
    return Event(kind, seat=seat, cards=parse_faces(cards), game_id=s.game_id, seq=s.seq, **kw)


def play(s: KengState, seat: int, cards: str, suit: str | None = None) -> Event:
    """A PLAY; ``suit`` names the suit of a joker play."""
    return ev(s, "PLAY", seat, cards, value=-1 if suit is None else SUITS.index(suit))


def duel_play(s: KengState, seat: int, card: str) -> Event:
    """A DUEL_PLAY of one card."""
    return ev(s, "DUEL_PLAY", seat, card)


def accept(s: KengState, seat: int) -> Event:
    """An ACCEPT of the pending draw with the stock's next cards."""
    return Event("ACCEPT", seat=seat, cards=s.stock[:s.pending], value=s.pending,
                 game_id=s.game_id, seq=s.seq)


def draw(s: KengState, seat: int) -> Event:
    """A DRAW of two with the stock's next cards (fewer if the stock is short)."""
    return Event("DRAW", seat=seat, cards=s.stock[:2], value=2, game_id=s.game_id, seq=s.seq)


def pass_(s: KengState, seat: int) -> Event:
    """A PASS."""
    return ev(s, "PASS", seat)


def snatch(s: KengState, seat: int, card: str | None, tag: str) -> Event:
    """A SNATCH claim showing card (or none) with the recorded outcome tag."""
    return ev(s, "SNATCH", seat, card or "", tag=tag)


def count(s: KengState, seat: int, target: int, value: int | None = None) -> Event:
    """A COUNT of target's hand (default: the true size)."""
    n = len(s.hands[target]) if value is None else value
    return ev(s, "COUNT", seat, target=target, value=n)


def run(s: KengState, *events: Event | Any) -> KengState:
    """Apply events in order; an item may be a callable state -> Event (built on the spot)."""
    for e in events:
        s = keng.apply(s, e(s) if callable(e) else e)
    return s


def rejected(s: KengState, e: Event) -> IllegalMove:
    """Assert that the event is rejected as illegal, leaving s unchanged; return the error."""
    before = keng.to_position(s)
    with pytest.raises(IllegalMove) as info:
        keng.apply(s, e)
    assert keng.to_position(s) == before
    return info.value


def hand(s: KengState, seat: int) -> str:
    """A seat's hand as sorted text."""
    return format_faces(sorted(s.hands[seat]))


def cards_of(text: str) -> tuple[int, ...]:
    """Sorted face codes of a text (to compare with a hand)."""
    return tuple(sorted(parse_faces(text)))


def owed(s: KengState) -> str | None:
    """The kind of the automatic event owed now."""
    return keng.next_auto(s)
