"""Helpers for the 扑克六湖 rule tests: hand-built positions, events, seeded playouts.

``table(...)`` builds a position from the hands (text faces) of some seats; the other seats are
filled with cards that make no sequence, no pair of one face and no special sequence, so that
they are never eligible for a claim; the wall holds the rest (``front`` cards drawn first,
``tail`` cards drawn first from the tail). A test feeds one event and checks the verdict
(``rejected`` asserts the rule id and that the state did not change).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from engine.cards import parse_face, parse_faces
from engine.errors import IllegalMove
from engine.events import NONE, Event
from engine.games import liuhu as lh
from engine.games.liuhu.cards import pack
from engine.games.liuhu.state import LhState

GAME_ID = "lh-test"
PLAYERS = [f"p{i}" for i in range(6)]
JUNK_RANKS = "A47TK"          # no two within 2 ranks: no sequence, no 贰柒拾 (no 2), no 壹贰叁


def start(seed: int = 1, **opts: Any) -> Event:
    """A seeded GAME_START of hand 1."""
    return lh.start_event(GAME_ID, PLAYERS, random.Random(seed), lh.Options(**opts))


def auto(s: LhState) -> LhState:
    """Apply every automatic event owed now."""
    while (a := lh.auto_event(s)) is not None:
        s = lh.apply(s, a)
    return s


def started(seed: int = 1, **opts: Any) -> LhState:
    """A seeded hand right after the deal: the dealer to act."""
    return auto(lh.initial_state(start(seed, **opts)))


def act(s: LhState, kind: str, seat: int, cards: str | tuple = (), *, target: int = NONE,
        value: int = NONE, tag: str = "", payload: str | None = None) -> Event:
    """A seat's event at the state's next seq."""
    faces = parse_faces(cards) if isinstance(cards, str) else tuple(cards)
    return Event(kind, seat, faces, target, value, tag, payload, s.game_id, s.seq)


def play(s: LhState, *events: Event) -> LhState:
    """Apply the events (each renumbered to the next seq), the owed automatic events after
    each."""
    for e in events:
        s = auto(lh.apply(s, e._replace(seq=s.seq, game_id=s.game_id)))
    return s


def rejected(s: LhState, e: Event, rule: str) -> IllegalMove:
    """Assert that the event is refused citing ``rule`` and that the state is unchanged."""
    before = json.dumps(lh.to_position(s), sort_keys=True)
    copy = s.copy()
    with pytest.raises(IllegalMove) as info:
        lh.apply(s, e._replace(seq=s.seq, game_id=s.game_id))
    assert info.value.rule_id == rule, str(info.value)
    with pytest.raises(IllegalMove):
        lh.check(s, e._replace(seq=s.seq, game_id=s.game_id))
    assert s == copy and json.dumps(lh.to_position(s), sort_keys=True) == before
    return info.value


def legal(s: LhState) -> list[Event]:
    """The legal actions now."""
    return lh.legal_actions(s)


def _junk(counts: Counter, n: int) -> list[int]:
    """n cards from counts making no claimable shape (distinct faces of ranks A 4 7 T K)."""
    junk = [parse_face(r + u) for r in JUNK_RANKS for u in "shcd"]
    junk.sort(key=lambda c: -counts[c])          # the most plentiful first: seats share them
    out = [c for c in junk if counts[c] > 0][:n]
    for c in out:
        counts[c] -= 1
    assert len(out) == n, "not enough filler cards"
    return out


def table(hands: dict[int, str], *, melds: dict[int, list[tuple]] | None = None,
          pool: list[tuple[int, str]] = (), turn: int = 0, dealer: int = 0,
          phase: str = "turn", drawn: str | None = None, front: str = "", tail: str = "",
          wall_size: int | None = None, options: dict[str, Any] | None = None, hand: int = 1,
          balances: list[int] | None = None) -> LhState:
    """A hand-built position (``from_position(..., scenario=True)``). ``melds[seat]`` are
    (kind, faces, from seat or None, claimed face or None); ``front``/``tail`` the next cards
    drawn from the wall's front / tail (the first listed is drawn first); ``wall_size`` cuts
    the live wall to that many cards (the rest count as drawn)."""
    opts = lh.Options(**(options or {}))
    g = opts.groups
    counts = Counter(pack(opts.decks, opts.hunzi))
    melds = melds or {}

    def take(text: str) -> list[int]:
        cards = list(parse_faces(text))
        for c in cards:
            assert counts[c] > 0, f"no {text} left in the pack"
            counts[c] -= 1
        return cards

    given = {seat: take(h) for seat, h in hands.items()}
    meld_rows: list[list[dict]] = [[] for _ in range(6)]
    for seat, row in melds.items():
        for kind, text, frm, card in row:
            meld_rows[seat].append({"kind": kind, "cards": [lh_face(c) for c in take(text)],
                                    "from": frm, "card": card})
    pool_cards = [(x, take(f)[0]) for x, f in pool]
    front_cards, tail_cards = take(front), take(tail)
    full_hands = []
    for seat in range(6):
        want = 3 * g + (2 if seat == turn and phase in ("turn", "claimed") else 1)
        want -= 3 * len(meld_rows[seat])
        h = given.get(seat)
        if h is None:
            h = _junk(counts, want)
        assert len(h) == want, f"seat {seat} needs {want} concealed cards, got {len(h)}"
        full_hands.append(sorted(h))
    rest = sorted(counts.elements())
    live = front_cards + rest + tail_cards[::-1]
    used = [c for h in full_hands for c in h] + [c for _, c in pool_cards] + [
        parse_face(x) for row in meld_rows for m in row for x in m["cards"]]
    if wall_size is not None:                  # the cards drawn meanwhile lie in the pool
        cut = len(live) - wall_size
        assert 0 <= cut and len(front_cards) == 0, "wall_size cuts from the front"
        pool_cards = [((turn + 3) % 6, c) for c in live[:cut]] + pool_cards
        used, live = used + live[:cut], live[cut:]
    wall = used + live
    base = lh.to_position(started(1, **(options or {})))
    base.update({
        "phase": phase, "hand": hand, "dealer": dealer, "first_dealer": dealer, "turn": turn,
        "ring": [lh_face(c) for c in wall], "wall": [lh_face(c) for c in wall],
        "front": len(used), "tail": len(wall) - 1,
        "balances": balances or [0] * 6, "drawn": drawn,
        "hands": [[lh_face(c) for c in h] for h in full_hands], "melds": meld_rows,
        "pool": [[x, lh_face(c)] for x, c in pool_cards], "window": None, "wins": [],
        "changes": [], "next_dealer": None, "result": None, "seq": 100,
    })
    del base["to_act"]
    return lh.from_position(base, scenario=True)


def lh_face(c: int) -> str:
    """A face code as text."""
    from engine.cards import format_face
    return format_face(c)


def playout(seed: int, options: dict[str, Any], policy: str = "random",
            game_id: str = GAME_ID) -> tuple[list[Event], LhState]:
    """A seeded self-played hand: its events and final state."""
    rng = random.Random(seed)
    e0 = lh.start_event(game_id, PLAYERS, rng, lh.Options(**options))
    s = lh.initial_state(e0)
    events = [e0]
    bot = lh.POLICIES[policy]()
    while not lh.is_over(s):
        a = bot.choose(s, rng)._replace(game_id=game_id, seq=s.seq)
        s = lh.apply(s, a)
        events.append(a)
    return events, s
