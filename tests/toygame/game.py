"""小墩 as an engine game: start events, initial state, check/apply, legal actions, sessions
and results (rules TRICK-1 … TRICK-15 of tests/toygame/rules.md)."""

from __future__ import annotations

import collections
import json
import random
from collections.abc import Sequence
from typing import Any

from engine.cards import suit_of
from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event, payload_json
from engine.games.common import start_error, start_options, start_payload, start_players
from engine.games.frame import DRAW, LOSS, NO_SIDES, WIN, Outcome, apply_with, check_with
from tests.toygame import rules
from tests.toygame.options import ToyOptions
from tests.toygame.rules import DECK
from tests.toygame.state import DEAL, OVER, PLAY, ToyState

GAME_ID = "toy_tricks"
TITLE = "小墩"
RULE_PREFIX = "TRICK"
RULES_VERSION = "toy_tricks-1"
SIDES = NO_SIDES
RANDOM, PREVIOUS = "random", "previous"

step = rules.step
next_auto = rules.next_auto


def seat_count(options: Any = None) -> int:
    """The number of seats of a game with these options (trick_players, TRICK-1)."""
    return (options or ToyOptions()).trick_players


def start_event(game_id: str, players: Sequence[str], rng: random.Random,
                options: ToyOptions | None = None, *, leader: int | None = None,
                previous_game: str | None = None, session: str | None = None,
                ts: int = 0) -> Event:
    """GAME_START with every option, the players, the first leader (drawn unless given by
    ``session_start``, TRICK-4, TRICK-13) and the shuffled deck (TRICK-3)."""
    opts = options or ToyOptions()
    n = opts.trick_players
    if len(players) != n:
        raise InvalidEvent(f"小墩 with trick_players={n} needs that many players, got "
                           f"{len(players)}", field="players")
    rule = RANDOM if leader is None else PREVIOUS
    if leader is None:
        leader = rng.randrange(n)
    cards = list(DECK)
    rng.shuffle(cards)
    payload = {"game": GAME_ID, "rules_version": RULES_VERSION, "options": opts.to_dict(),
               "players": list(players), "leader": leader, "leader_rule": rule,
               "previous_game": previous_game, "session": session}
    return Event("GAME_START", cards=tuple(cards), value=leader, tag=rule,
                 payload=rules.canonical(payload), game_id=game_id, seq=0, ts=ts)


def initial_state(e: Event) -> ToyState:
    """The state right after GAME_START, before the deal."""
    p = start_payload(e, GAME_ID, RULES_VERSION)
    opts = start_options(e, p, ToyOptions, "TRICK-2")
    n = opts.trick_players
    players = start_players(e, p, "TRICK-1", n)
    leader, rule = p.get("leader"), p.get("leader_rule")
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < n \
            or leader != e.value:
        raise start_error(e, "TRICK-4", f"leader {leader!r} must be a seat 0-{n - 1} equal "
                          "to value")
    if rule not in (RANDOM, PREVIOUS) or e.tag != rule:
        raise start_error(e, "TRICK-4", "leader_rule must be 'random' or 'previous' (= tag)")
    if rule == RANDOM and p.get("previous_game") is not None:
        raise start_error(e, "TRICK-13", "a later game of a session is led by the seat after "
                          "the previous first leader (leader_rule 'previous')")
    if sorted(e.cards) != list(DECK):
        raise start_error(e, "TRICK-3", f"the deck has {len(e.cards)} cards but not the 52 "
                          "faces of one deck without jokers")
    if e.seat != -1 or e.target != -1:
        raise InvalidEvent("GAME_START is the engine's: seat and target -1",
                           game_id=e.game_id, seq=0, field="seat")
    return ToyState(
        game_id=e.game_id, seq=1, players=players, options=opts, n=n, first_leader=leader,
        first_rule=rule, deck=tuple(e.cards), phase=DEAL, hands=((),) * n, stock=(),
        leader=leader, trick=(), trick_seats=(), trick_no=0, tricks=(0,) * n, taken=(),
        result=None)


def apply(state: ToyState, event: Event) -> ToyState:
    """The state after the event; raises IllegalMove/InvalidEvent, the input unchanged."""
    return apply_with(rules.step, state, event)


def check(state: ToyState, event: Event) -> None:
    """Raise if the event is not legal in this state; changes nothing."""
    check_with(rules.step, state, event)


def turn_actions(s: ToyState) -> list[Event]:
    """The plays of the seat to act (TRICK-6 to TRICK-8)."""
    if s.phase != PLAY or rules.next_auto(s) is not None:
        return []
    seat = s.turn_seat()
    hand = s.hands[seat]
    if s.trick:
        led = suit_of(s.trick[0])
        follow = tuple(c for c in hand if suit_of(c) == led)
        hand = follow or hand
    return [Event("PLAY", seat=seat, cards=(c,), game_id=s.game_id, seq=s.seq) for c in hand]


def legal_actions(s: ToyState) -> list[Event]:
    """Every legal action now: the owed automatic event, else the turn seat's plays."""
    due = rules.next_auto(s)
    if due is not None:
        return [rules.auto_event(s, due)]
    return turn_actions(s)


def auto_event(s: ToyState, rng: random.Random | None = None) -> Event | None:
    """The automatic event owed now, or None (小墩 has no chance after GAME_START)."""
    due = rules.next_auto(s)
    return None if due is None else rules.auto_event(s, due)


def to_move(s: ToyState) -> int:
    """The seat to play; -1 when an automatic event is owed or the game is over."""
    if s.phase != PLAY or rules.next_auto(s) is not None:
        return -1
    return s.turn_seat()


def is_over(s: ToyState) -> bool:
    """True once GAME_END has been applied."""
    return s.phase == OVER


def session_start(prev_final: ToyState) -> dict[str, Any]:
    """``start_event`` keywords of the next game of a session (TRICK-13)."""
    return {"leader": (prev_final.first_leader + 1) % prev_final.n}


def check_session(start: Event, prev_final: ToyState) -> IllegalMove | None:
    """TRICK-13: a start naming a previous game is led by the seat after that game's first
    leader and says so; None when it is, or names none."""
    try:
        p = payload_json(start)
    except InvalidEvent:
        p = None
    if not isinstance(p, dict):
        return IllegalMove("TRICK-13", "GAME_START payload is not readable",
                           game_id=start.game_id, seq=0, event=start)
    if p.get("previous_game") is None:
        return None
    want = (prev_final.first_leader + 1) % prev_final.n
    if p.get("leader") != want or p.get("leader_rule") != PREVIOUS:
        return IllegalMove("TRICK-13", f"seat {p.get('leader')!r} leads, but the seat after "
                           f"the previous first leader is {want} (leader_rule 'previous')",
                           game_id=start.game_id, seq=0, event=start)
    return None


def result(s: ToyState) -> dict[str, Any] | None:
    """The result of a finished game (TRICK-11): tricks, scores, winners."""
    return None if s.result is None else json.loads(s.result)


def outcomes(s: ToyState) -> tuple[Outcome, ...] | None:
    """Each seat's outcome once over (TRICK-12)."""
    r = result(s)
    if r is None:
        return None
    if r["draw"]:
        return tuple(Outcome(None, x, DRAW) for x in r["scores"])
    return tuple(Outcome(None, x, WIN if i in r["winners"] else LOSS)
                 for i, x in enumerate(r["scores"]))


def sides(s: ToyState, viewer: int | None = None) -> tuple[None, ...]:
    """小墩 has no sides (TRICK-1)."""
    return (None,) * s.n


def face_counts(s: ToyState) -> collections.Counter | None:
    """Every face where it lies (hands, stock, trick, taken); None during the deal."""
    if s.phase == DEAL:
        return None
    c = collections.Counter(s.stock)
    c.update(s.trick)
    c.update(s.taken)
    for h in s.hands:
        c.update(h)
    return c
