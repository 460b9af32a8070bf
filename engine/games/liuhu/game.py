"""扑克六湖 as an engine game: start events, initial state, check/apply, legal actions, sessions
(one log game is one hand; the game of ``hands`` hands is the session, LH-68) and results."""

from __future__ import annotations

import collections
import json
import random
from typing import Any

from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event, payload_json
from engine.games.frame import DRAW, LOSS, WIN, Outcome, apply_with, check_with
from engine.games.liuhu import rules
from engine.games.liuhu.cards import SEATS
from engine.games.liuhu.setup import GAME_ID, RULES_VERSION, initial_state, start_event
from engine.games.liuhu.state import OVER, ROB_WINDOW, LhState

TITLE = "扑克六湖"
RULE_PREFIX = "LH"
SIDES = "none"

step = rules.step
next_auto = rules.next_auto
to_move = rules.to_move
legal_actions = rules.legal_actions


def seat_count(options: Any = None) -> int:
    """Six seats, whatever the options (LH-1)."""
    return SEATS


def apply(state: LhState, event: Event) -> LhState:
    """The state after the event; raises IllegalMove/InvalidEvent and leaves the input as it
    was."""
    return apply_with(rules.step, state, event)


def check(state: LhState, event: Event) -> None:
    """Raise if the event is not legal in this state; changes nothing."""
    check_with(rules.step, state, event)


def auto_event(s: LhState, rng: random.Random | None = None) -> Event | None:
    """The automatic event owed now, or None (no chance after GAME_START: LH-71)."""
    return rules.auto_event(s)


def is_over(s: LhState) -> bool:
    """True once the hand's GAME_END has been applied."""
    return s.phase == OVER


# ---------------------------------------------------------------- sessions (LH-65 … LH-68)

def balances_after(s: LhState) -> tuple[int, ...]:
    """The chip balances after this hand (before its settlement: those carried in)."""
    ch = s.changes or (0,) * SEATS
    return tuple(b + c for b, c in zip(s.balances, ch, strict=True))


def session_start(prev_final: LhState) -> dict[str, Any]:
    """Keyword arguments of ``start_event`` for the next hand: its number, its dealer (LH-66,
    LH-67), the first dealer and the balances carried over; after the game's last hand a new
    game begins ({}: hand 1, a random first dealer, LH-65)."""
    if prev_final.hand_no >= prev_final.options.hands:
        return {}
    return {"hand": prev_final.hand_no + 1, "dealer": prev_final.next_dealer,
            "first_dealer": prev_final.first_dealer, "balances": balances_after(prev_final)}


def check_session(start: Event, prev_final: LhState) -> IllegalMove | None:
    """The rule a hand's GAME_START breaks against the previous hand it names (LH-8, LH-65 …
    LH-68), or None."""
    try:
        p = payload_json(start)
    except InvalidEvent:
        p = None

    def err(rule: str, reason: str) -> IllegalMove:
        return IllegalMove(rule, reason, game_id=start.game_id, seq=0, event=start)

    if not isinstance(p, dict):
        return err("LH-68", "GAME_START payload is not readable")
    prev_id = p.get("previous_game")
    if prev_id is None:
        return None
    if prev_id != getattr(prev_final, "game_id", None):
        return err("LH-68", f"the start names previous hand {prev_id!r}, but follows "
                   f"{prev_final.game_id!r}")
    if prev_final.result is None:
        return err("LH-68", f"the previous hand {prev_id} is not finished")
    want = session_start(prev_final)
    if not want:
        return None if p.get("hand") == 1 else err(
            "LH-68", "after the game's last hand a new game begins with hand 1")
    if p.get("options") != prev_final.options.to_dict():
        return err("LH-8", "options are fixed for a whole game")
    if p.get("players") != list(prev_final.players):
        return err("LH-1", "the players of a game stay in their seats")
    if p.get("hand") != want["hand"]:
        return err("LH-68", f"hand {want['hand']} follows hand {prev_final.hand_no}")
    if p.get("first_dealer") != want["first_dealer"]:
        return err("LH-65", "the first dealer is recorded once for the whole game")
    if p.get("dealer") != want["dealer"]:
        rule = "LH-66" if prev_final.hus else "LH-67"
        return err(rule, f"hand {want['hand']} is dealt by seat {want['dealer']} (after hand "
                   f"{prev_final.hand_no} of {prev_id}), but the start names dealer "
                   f"{p.get('dealer')!r}")
    if p.get("balances") != list(want["balances"]):
        return err("LH-68", f"the balances carried over from hand {prev_final.hand_no} "
                   f"({prev_id}) are {list(want['balances'])}, but the start records "
                   f"{p.get('balances')!r}")
    return None


# ---------------------------------------------------------------- results

def result(s: LhState) -> dict[str, Any] | None:
    """The hand's result (reason, wins, changes, balances, next dealer) once over."""
    return None if s.result is None else json.loads(s.result)


def outcomes(s: LhState) -> tuple[Outcome, ...] | None:
    """Each seat's outcome of the hand: the winners win, the seats that paid lose, a seat that
    neither won nor paid (a bystander of a 放铳 or 抢杠胡: LH-61, LH-62) draws; a 流局 is a
    draw for every seat (LH-64); the score is the hand's chip change."""
    if s.result is None:
        return None
    if not s.hus:
        return tuple(Outcome(None, 0, DRAW) for _ in range(SEATS))
    winners = {h[0] for h in s.hus}
    return tuple(Outcome(None, s.changes[i], WIN if i in winners else
                         LOSS if s.changes[i] < 0 else DRAW) for i in range(SEATS))


def sides(s: LhState, viewer: int | None = None) -> tuple[None, ...]:
    """Each plays for himself (LH-1): no sides."""
    return (None,) * SEATS


def face_counts(s: LhState) -> collections.Counter:
    """Every card where it lies: the wall, hands, melds, pool and a 加杠 card held in its
    robbing window."""
    c = collections.Counter(s.wall[s.front:s.tail + 1])
    for h in s.hands:
        c.update(h)
    for row in s.melds:
        for m in row:
            c.update(m[1])
    c.update(card for _, card in s.pool)
    if s.w_kind == ROB_WINDOW:
        c[s.w_card] += 1
    return c


__all__ = [
    "GAME_ID", "TITLE", "RULE_PREFIX", "RULES_VERSION", "SIDES", "seat_count", "start_event",
    "initial_state", "step", "apply", "check", "legal_actions", "auto_event", "next_auto",
    "to_move", "is_over", "session_start", "check_session", "result", "outcomes", "sides",
    "face_counts",
]
