"""Setup of a 扑克六湖 hand (section 5): the recorded ring and dice, the break (LH-10), the wall
and its pointers (LH-11), the deal (LH-12), and the GAME_START that records them.

GAME_START (the rules file's ``game_start`` + ``hand_start``): cards the ring R; target the
dealer; value the hand number; tag ``first`` (hand 1: the dealer is the game's random
``first_dealer``, LH-65) or ``next`` (LH-66, LH-67); payload game, rules version, options,
players, hand, dealer, first_dealer, dice, break, balances (carried over), previous_game,
session. DEAL (system): cards every seat's cards, seat 0 first, each in the order received.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, TypeGuard

from engine.errors import InvalidEvent
from engine.events import NONE, Event, payload_json
from engine.games.common import start_error, start_options, start_payload, start_players
from engine.games.liuhu.cards import SEATS, pack
from engine.games.liuhu.options import LiuhuOptions, options_from
from engine.games.liuhu.state import DEAL, LhState

GAME_ID = "liuhu"
RULES_VERSION = "liuhu-1"
FIRST, NEXT = "first", "next"
_new = tuple.__new__


def json_text(obj: Any) -> str:
    """The canonical JSON text of a payload."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def action(s: LhState, kind: str, seat: int = NONE, cards: tuple[int, ...] = (),
           target: int = NONE, value: int = NONE, tag: str = "",
           payload: str | None = None) -> Event:
    """An event of this hand at its next seq."""
    return _new(Event, (kind, seat, cards, target, value, tag, payload, s.game_id, s.seq, 0,
                        b""))


def same_event(s: LhState, e: Event, exp: Event) -> bool:
    """True if the event carries what the owed one does; a payload that says the same in other
    JSON text is the same; an unreadable payload is an InvalidEvent (never a mismatch)."""
    if e[1:7] == exp[1:7]:
        return True
    if e.payload is None or exp.payload is None or e[1:6] != exp[1:6]:
        if e.payload is not None:
            payload_json(e)
        return False
    return payload_json(e) == json.loads(exp.payload)


# ---------------------------------------------------------------- the wall (LH-10, LH-11)

def break_index(n: int, d: int) -> int:
    """b = (2 × (S × k + d)) mod N with S = floor(N / 12), k = (d − 1) mod 6 (LH-10)."""
    stacks = n // 12
    k = (d - 1) % 6
    return (2 * (stacks * k + d)) % n


def wall_of(ring: Sequence[int], b: int) -> tuple[int, ...]:
    """W[i] = R[(b + i) mod N] (LH-10)."""
    n = len(ring)
    return tuple(ring[(b + i) % n] for i in range(n))


def deal_of(wall: Sequence[int], dealer: int, groups: int) -> tuple[tuple[int, ...], ...]:
    """Each seat's cards in the order received (LH-12): rounds of 4 from the dealer, one round
    of 1 when H mod 4 = 1, then the dealer's extra card W[6H]."""
    h = 3 * groups + 1
    got: list[list[int]] = [[] for _ in range(SEATS)]
    rounds = h // 4
    for j in range(rounds):
        for i in range(SEATS):
            got[(dealer + i) % SEATS].extend(wall[24 * j + 4 * i: 24 * j + 4 * i + 4])
    if h % 4 == 1:
        for i in range(SEATS):
            got[(dealer + i) % SEATS].append(wall[24 * rounds + i])
    got[dealer].append(wall[6 * h])
    return tuple(tuple(x) for x in got)


def deal_cards(s: LhState) -> tuple[int, ...]:
    """The cards of the DEAL event: every seat's cards, seat 0 first (LH-12)."""
    return tuple(c for cards in deal_of(s.wall, s.dealer, s.options.groups) for c in cards)


# ---------------------------------------------------------------- GAME_START

def start_event(game_id: str, players: Sequence[str], rng: random.Random,
                options: LiuhuOptions | dict | None = None, *, hand: int = 1,
                dealer: int | None = None, first_dealer: int | None = None,
                balances: Sequence[int] | None = None, previous_game: str | None = None,
                session: str | None = None, ts: int = 0) -> Event:
    """GAME_START of a hand: every option (LH-8), the players, the dealer (hand 1: drawn at
    random, LH-65), the dice and the shuffled ring (LH-9, LH-10), the break and the balances
    carried over; ``hand``, ``dealer``, ``first_dealer`` and ``balances`` come from
    ``session_start`` for a later hand."""
    opts = options_from(options)
    if len(players) != SEATS:
        raise InvalidEvent(f"扑克六湖 needs 6 players, got {len(players)}", field="players")
    if hand == 1 or dealer is None:
        hand, first_dealer = 1, rng.randrange(SEATS)
        dealer, balances = first_dealer, (0,) * SEATS
    ring = list(pack(opts.decks, opts.hunzi))
    rng.shuffle(ring)
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    payload = {
        "game": GAME_ID, "rules_version": RULES_VERSION, "options": opts.to_dict(),
        "players": list(players), "hand": hand, "dealer": dealer, "first_dealer": first_dealer,
        "dice": dice, "break": break_index(len(ring), sum(dice)),
        "balances": list(balances or (0,) * SEATS), "previous_game": previous_game,
        "session": session,
    }
    return Event("GAME_START", cards=tuple(ring), target=dealer, value=hand,
                 tag=FIRST if hand == 1 else NEXT, payload=json_text(payload),
                 game_id=game_id, seq=0, ts=ts)


def _int(v: Any, lo: int, hi: int) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def initial_state(e: Event) -> LhState:
    """The state right after GAME_START (LH-1, LH-8 … LH-10, LH-65 … LH-68), before the deal."""
    p = start_payload(e, GAME_ID, RULES_VERSION)
    raw = p.get("options")
    if isinstance(raw, dict) and any(v is None for v in raw.values()):
        raise start_error(e, "LH-8", "every option is recorded with its value")
    opts = start_options(e, p, LiuhuOptions, "LH-8")
    players = start_players(e, p, "LH-1", SEATS)
    hand, dealer, first = p.get("hand"), p.get("dealer"), p.get("first_dealer")
    if not _int(hand, 1, opts.hands) or e.value != hand:
        raise start_error(e, "LH-68", f"hand {hand!r} must be 1-{opts.hands} (= value)")
    if not _int(dealer, 0, 5) or not _int(first, 0, 5) or e.target != dealer:
        raise start_error(e, "LH-7", "dealer and first_dealer must be seats 0-5 (target = "
                          "dealer)")
    if e.tag != (FIRST if hand == 1 else NEXT):
        raise start_error(e, "LH-65", "tag must be 'first' for hand 1, else 'next'")
    if hand == 1 and dealer != first:
        raise start_error(e, "LH-65", "the first hand is dealt by the game's first dealer")
    if sorted(e.cards) != list(pack(opts.decks, opts.hunzi)):
        rule = "LH-5" if e.cards.count(53) != opts.hunzi else "LH-4"
        raise start_error(e, rule, f"the ring has {len(e.cards)} cards but not the "
                          f"{52 * opts.decks + opts.hunzi}-card pack of the options")
    dice = p.get("dice")
    if not isinstance(dice, list) or len(dice) != 2 or not all(_int(d, 1, 6) for d in dice):
        raise start_error(e, "LH-10", "dice must be two throws 1-6")
    b = break_index(len(e.cards), sum(dice))
    if p.get("break") != b:
        raise start_error(e, "LH-10", f"with dice {dice} the break is {b}, not "
                          f"{p.get('break')!r}")
    bal = p.get("balances")
    if not isinstance(bal, list) or len(bal) != SEATS or not all(
            _int(x, -10**9, 10**9) for x in bal) or sum(bal) != 0 or (hand == 1 and any(bal)):
        raise start_error(e, "LH-68", "balances are 6 integers summing to 0 (all 0 in hand 1)")
    if e.seat != NONE:
        raise InvalidEvent("GAME_START is the engine's: seat -1", game_id=e.game_id, seq=0,
                           field="seat")
    return fresh(e.game_id, opts, players, hand, first, dealer, tuple(dice), tuple(e.cards),
                 tuple(bal), p.get("previous_game"), p.get("session"))


def fresh(game_id: str, opts: LiuhuOptions, players: tuple[str, ...], hand: int, first: int,
          dealer: int, dice: tuple[int, int], ring: tuple[int, ...], balances: tuple[int, ...],
          previous_game: str | None, session: str | None) -> LhState:
    """A state before the deal."""
    brk = break_index(len(ring), sum(dice))
    return LhState(
        game_id=game_id, seq=1, players=players, options=opts,
        previous_game=previous_game, session=session,
        hand_no=hand, first_dealer=first, dealer=dealer,
        dice=dice, ring=ring,    # type: ignore[arg-type]  # two throws, checked by the caller
        brk=brk, wall=wall_of(ring, brk), front=0, tail=len(ring) - 1, balances=balances,
        phase=DEAL, turn=dealer, drawn=-1,
        hands=((),) * SEATS, melds=((),) * SEATS, pool=(),
        w_kind="", w_card=-1, w_from=-1,                    # no claim window: clear_window
        eligible=(), answers=(), calls=(), pending=(), rob_closed=-1,
        hus=(), changes=(), next_dealer=-1, result=None, unseen=(0,) * SEATS,
    )


def clear_window(s: LhState) -> None:
    """No claim window is open."""
    s.w_kind, s.w_card, s.w_from = "", -1, -1
    s.eligible = s.answers = s.calls = s.pending = ()
