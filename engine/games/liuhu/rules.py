"""扑克六湖 rules: checking and applying one event, the automatic events the engine owes, and the
legal actions of the seat it waits for.

``step(state, event)`` validates the event completely before it changes anything, then
evolves the state in place; ``apply`` and ``check`` in game.py run it on a copy. Automatic
events (DEAL, DRAW, WINDOW, AWARD, SETTLE, LIUJU, GAME_END) are owed (``next_auto``) and
checked field by field against the one the engine builds (LH-73).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.events import Event
from engine.games.frame import check_frame, check_seat, illegal, invalid
from engine.games.liuhu import scoring, turns, window
from engine.games.liuhu.cards import RJ, SEATS
from engine.games.liuhu.state import (
    AWARD,
    CLAIM,
    CLAIMED,
    DEAL,
    DRAW,
    END,
    HU,
    OVER,
    PASS,
    RESPOND,
    SETTLE,
    TAIL,
    TURN,
    WINDOW,
    LhState,
)

Step = Callable[[LhState, Event], None]

AUTO_RULE = {"DEAL": "LH-12", "DRAW": "LH-14", "WINDOW": "LH-34", "AWARD": "LH-34",
             "SETTLE": "LH-59", "LIUJU": "LH-64", "GAME_END": "LH-68"}
AUTO_STEP: dict[str, Step] = {
    "DEAL": turns.step_deal, "DRAW": turns.step_draw, "WINDOW": window.step_window,
    "AWARD": window.step_award, "SETTLE": scoring.step_settle, "LIUJU": scoring.step_liuju,
    "GAME_END": scoring.step_end,
}
AUTO_BUILD: dict[str, Callable[[LhState], Event]] = {
    "DEAL": turns.deal_event, "DRAW": turns.draw_event, "WINDOW": window.window_event,
    "AWARD": window.award_event, "SETTLE": scoring.settle_event,
    "LIUJU": scoring.liuju_event, "GAME_END": scoring.end_event,
}
TURN_STEP: dict[str, Step] = {
    "DISCARD": turns.step_discard, "AN_GANG": turns.step_an_gang,
    "JIA_GANG": turns.step_jia_gang, "HU": scoring.step_hu,
}
CLAIM_STEP: dict[str, Step] = {"CHI": window.step_meld_claim, "PENG": window.step_meld_claim,
                               "MING_GANG": window.step_meld_claim, "HU": scoring.step_hu}
SEAT_KINDS = frozenset(TURN_STEP) | frozenset(CLAIM_STEP) | {"RESPOND"}
ENGINE_KINDS = frozenset(AUTO_STEP) | {"GAME_START"}


def next_auto(s: LhState) -> str | None:
    """The kind of the automatic event the engine owes now, or None."""
    ph = s.phase
    if ph == DRAW:
        return "DRAW" if s.tail >= s.front else "LIUJU"        # wall_size() >= 1
    return _AUTO_OF.get(ph)


_AUTO_OF = {DEAL: "DEAL", TAIL: "DRAW", WINDOW: "WINDOW", AWARD: "AWARD", SETTLE: "SETTLE",
            END: "GAME_END"}


def auto_event(s: LhState) -> Event | None:
    """The automatic event owed now as the engine builds it, or None."""
    due = next_auto(s)
    return None if due is None else AUTO_BUILD[due](s)


def to_move(s: LhState) -> int:
    """The seat the game waits for: the seat on turn, the next eligible seat to answer a
    window (LH-34), the awarded claimer; -1 when an automatic event is owed or it is over."""
    ph = s.phase
    if ph in (TURN, CLAIMED):
        return s.turn
    if ph == RESPOND:
        return window.responder(s)
    if ph == CLAIM:
        return s.pending[0][0]
    return -1


def turn_actions(s: LhState) -> list[Event]:
    """The post-draw (自摸, 暗杠, 加杠, discard: LH-15) or post-claim (discard: LH-18)
    actions of the seat on turn."""
    seat, hand = s.turn, s.hands[s.turn]
    out: list[Event] = []
    act = window.action
    if s.phase == TURN:
        if scoring.can_zimo(s):
            out.append(scoring.hu_event(s, seat))
        if s.wall_size() >= 1:                                  # LH-25
            for c in sorted(set(hand)):
                if c != RJ and hand.count(c) >= 4:
                    out.append(act(s, "AN_GANG", seat, (c,)))
            for _, cards, _, _ in (m for m in s.melds[seat] if m[0] == "peng"):
                if cards[0] in hand:
                    out.append(act(s, "JIA_GANG", seat, (cards[0],)))
    out.extend(act(s, "DISCARD", seat, (c,)) for c in sorted(set(hand)))
    return out


def legal_actions(s: LhState) -> list[Event]:
    """Every legal action now: the owed automatic event, else the actions of the seat the game
    waits for (a responder: pass and each of its claims, LH-34)."""
    due = next_auto(s)
    if due is not None:
        return [AUTO_BUILD[due](s)]
    ph = s.phase
    if ph in (TURN, CLAIMED):
        return turn_actions(s)
    if ph == RESPOND:
        seat = window.responder(s)
        claims = dict(s.eligible)[seat]
        return [window.respond_event(s, seat, (PASS, ()))] + [
            window.respond_event(s, seat, c) for c in claims]
    if ph == CLAIM:
        seat, claim = s.pending[0]
        return [scoring.hu_event(s, seat) if claim[0] == HU else window.claim_event(s)]
    return []


# the rule of the phase a seat is in while nothing is owed: what it may do now
PHASE_RULE = {TURN: "LH-15", CLAIMED: "LH-18", RESPOND: "LH-34", CLAIM: "LH-33"}


def _not_due_rule(s: LhState, kind: str) -> str:
    """The rule an engine event breaks when it is not owed: that of the phase on (a draw on
    the dealer's first turn LH-13, the post-draw phase LH-15, after a claim LH-18, a window
    LH-34, an awarded claim LH-33); a second GAME_START LH-72."""
    if kind == "GAME_START":
        return "LH-72"
    if kind == "DRAW" and turns.dealer_first_turn(s):
        return "LH-13"
    return PHASE_RULE.get(s.phase, "LH-72")


def _phase_rule(s: LhState, e: Event) -> str:
    """The rule an action breaks when its phase is not on: that of the phase on for the seats
    in it (the window's, the awarded claim's, the seat on turn's), else the action's own."""
    ph, kind = s.phase, e.kind
    if ph in (RESPOND, CLAIM) or e.seat == s.turn:
        return PHASE_RULE.get(ph, "LH-72")
    if kind == "RESPOND":
        return "LH-34"
    if kind in ("CHI", "PENG", "MING_GANG"):
        return {"CHI": "LH-26", "PENG": "LH-20", "MING_GANG": "LH-21"}[kind]
    return "LH-72"


def _owed_rule(s: LhState, due: str) -> str:
    """The rule of the automatic event owed now; once the hand has ended (a win, LH-2, or an
    empty wall, LH-64) only its settlement and end follow."""
    if due == "DRAW" and s.phase == TAIL:
        return "LH-24"
    if due == "SETTLE":
        return "LH-2"
    if due == "GAME_END":
        return "LH-2" if s.hus else "LH-64"
    return AUTO_RULE[due]


def step(s: LhState, e: Event) -> None:
    """Check one event against the state (raises, changing nothing), then apply it in place."""
    ph = s.phase
    if e.seq != s.seq or e.game_id != s.game_id or ph == OVER:
        check_frame(s, e, ph == OVER, "LH-2")                   # raises
    due = next_auto(s)
    if due is not None:
        if e.kind != due:
            raise illegal(s, e, _owed_rule(s, due), f"the engine owes {due} before any other "
                          "event")
        AUTO_STEP[due](s, e)
    else:
        kind = e.kind
        if kind not in SEAT_KINDS:
            if kind in ENGINE_KINDS:
                raise illegal(s, e, _not_due_rule(s, kind), f"{kind} is not due now")
            raise invalid(s, e, f"unknown event kind {kind!r} for liuhu", "kind")
        if not 0 <= e.seat < SEATS:
            check_seat(s, e)                                    # raises
        if e.payload is not None and kind != "HU":
            raise invalid(s, e, "only HU among the seats' events carries a payload", "payload")
        handler = (TURN_STEP.get(kind) if ph in (TURN, CLAIMED) else
                   window.step_respond if ph == RESPOND and kind == "RESPOND" else
                   CLAIM_STEP.get(kind) if ph == CLAIM else None)
        if handler is None:
            raise illegal(s, e, _phase_rule(s, e), f"{kind} is not legal now (phase {ph})")
        handler(s, e)
    s.seq += 1

