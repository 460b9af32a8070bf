"""六人坑 as an engine game: start events, initial state, check/apply, legal actions, chance."""

from __future__ import annotations

import collections
import json
import random
from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import NONE, Event, payload_json
from engine.games.common import start_error, start_options, start_payload, start_players
from engine.games.frame import FIXED_SIDES, Outcome, apply_with, check_with, team_outcomes
from engine.games.keng import plays as legality
from engine.games.keng import rules
from engine.games.keng.actions import out_of_turn_actions, to_move, turn_actions
from engine.games.keng.cards import deck
from engine.games.keng.options import KengOptions
from engine.games.keng.state import DEALING, N_SEATS, OVER, KengState
from engine.games.keng.state import team_of as team_index

GAME_ID = "keng"
TITLE = "六人坑"
RULE_PREFIX = "KENG"
RULES_VERSION = "keng-1"
TEAMS = ("even", "odd")
SIDES = FIXED_SIDES
SEAT_SIDES = tuple(TEAMS[team_index(seat)] for seat in range(N_SEATS))


def start_event(
    game_id: str,
    players: Sequence[str],
    rng: random.Random,
    options: KengOptions | None = None,
    *,
    opener: int | None = None,
    previous_game: str | None = None,
    session: str | None = None,
    ts: int = 0,
) -> Event:
    """GAME_START with options, players, opener (random draw unless given, KENG-7), deck order."""
    opts = options or KengOptions()
    if len(players) != N_SEATS:
        raise InvalidEvent(f"六人坑 needs 6 players, got {len(players)}", field="players")
    if opener is None:
        opener_rule = "random"
        opener = rng.randrange(N_SEATS)
    else:
        opener_rule = "previous"
    cards = list(deck(opts))
    rng.shuffle(cards)
    payload = {
        "game": GAME_ID,
        "rules_version": RULES_VERSION,
        "options": opts.to_dict(),
        "players": list(players),
        "opener": opener,
        "opener_rule": opener_rule,
        "previous_game": previous_game,
        "session": session,
    }
    return Event("GAME_START", seat=-1, cards=tuple(cards), value=opener, tag=opener_rule,
                 payload=json.dumps(payload, sort_keys=True, separators=(",", ":")),
                 game_id=game_id, seq=0, ts=ts)


def initial_state(e: Event) -> KengState:
    """The state right after GAME_START (KENG-6, KENG-7, KENG-3), before the deal."""
    p = start_payload(e, GAME_ID, RULES_VERSION)
    opts = start_options(e, p, KengOptions, "KENG-6")
    players = start_players(e, p, "KENG-5", N_SEATS)
    opener = p.get("opener")
    if opener != e.value or not isinstance(opener, int) or not 0 <= opener < N_SEATS:
        raise start_error(e, "KENG-7", f"opener {opener!r} must be a seat 0-5 equal to value")
    if p.get("opener_rule") not in ("random", "previous") or e.tag != p.get("opener_rule"):
        raise start_error(e, "KENG-7", "opener_rule must be 'random' or 'previous' (= tag)")
    if p.get("opener_rule") == "random" and p.get("previous_game") is not None:
        raise start_error(e, "KENG-7", _random_after_previous(p))
    if sorted(e.cards) != list(deck(opts)):
        raise start_error(e, "KENG-3", f"the deck order has {len(e.cards)} cards but not the "
                           f"composition of the {len(deck(opts))}-card 六人坑 deck")
    return KengState(
        game_id=e.game_id,
        options=opts,
        players=tuple(players),
        opener=opener,
        deck=tuple(e.cards),
        seq=1,
        phase=DEALING,
        hands=((),) * N_SEATS,
        stock=(),
        table=(),
        top=(),
        top_seat=-1,
        top_suit=-1,
        top_start=False,
        top_duel=False,
        covered=(),
        pending=0,
        direction=1,
        cycle=1,
        to_act=opener,
        turn_rule="KENG-8",
        drawn=False,
        accepted=False,
        drew_cards=False,
        owed=None,
        duel=None,
        duel_due=None,
        window=False,
        banned=(False,) * N_SEATS,
        ban_armed=(False,) * N_SEATS,
        ban_end_due=(),
        count_used=(False,) * N_SEATS,
        report_seat=-1,
        penalty_due=None,
        reshuffle_due=False,
        passes=0,
        end_due=None,
        result=None,
    )


step = rules.step
next_auto = rules.next_auto
due_seat = legality.due_seat


def seat_count(options: KengOptions | None = None) -> int:
    """六人坑 is played by six (KENG-5), whatever the options."""
    return N_SEATS


def apply(state: KengState, event: Event) -> KengState:
    """The state after the event; raises IllegalMove/InvalidEvent and leaves the input as it was."""
    return apply_with(rules.step, state, event)


def check(state: KengState, event: Event) -> None:
    """Raise if the event is not legal in this state; changes nothing."""
    check_with(rules.step, state, event)


def legal_actions(s: KengState) -> list[Event]:
    """Every legal action now: the owed automatic event (a chance outcome for RESHUFFLE), or the
    turn actions and the out-of-turn actions. False, void and refused 抢 claims are legal events
    too (they are judged and recorded) but are not listed: see ``claim``."""
    due = rules.next_auto(s)
    if due is not None:
        return [rules.auto_event(s, due)]
    return turn_actions(s) + out_of_turn_actions(s)


def claim(s: KengState, seat: int, card: int | None) -> Event:
    """A 抢 claim by seat showing card (or none), with its outcome judged by KENG-38."""
    return Event("SNATCH", seat=seat, cards=() if card is None else (card,),
                 tag=legality.judge_claim(s, seat, card), game_id=s.game_id, seq=s.seq)


def order_claims(s: KengState, claims: Sequence[Event]) -> list[Event]:
    """KENG-40: claims collected together are judged in seat order starting with the seat after
    the player of the top play, in direction d; returns them in that order, with seq numbers
    from the state's (each claim's outcome must then be judged as it is applied)."""
    first = (s.top_seat + s.direction) % N_SEATS if s.top_seat >= 0 else 0
    rank = {(first + k * s.direction) % N_SEATS: k for k in range(N_SEATS)}
    ordered = sorted(claims, key=lambda c: rank[c.seat])
    return [c._replace(seq=s.seq + i) for i, c in enumerate(ordered)]


def auto_event(s: KengState, rng: random.Random | None = None) -> Event | None:
    """The automatic event owed now, or None; a RESHUFFLE's order is drawn from rng (chance)."""
    due = rules.next_auto(s)
    if due is None:
        return None
    if due == "RESHUFFLE":
        if rng is None:
            raise EngineError("a RESHUFFLE is a chance event: pass a seeded generator")
        cards = list(s.table)
        rng.shuffle(cards)
        return rules.auto_event(s, due, tuple(cards))
    return rules.auto_event(s, due)


def is_over(s: KengState) -> bool:
    """True once GAME_END has been applied."""
    return s.phase == OVER


def result(s: KengState) -> dict[str, Any] | None:
    """The result of a finished game (KENG-49): reason, deciding seat, winning team, hands."""
    return s.result


def deciding_seat(s: KengState) -> int | None:
    """The seat that decided the game (opens the next one, KENG-7), or None."""
    return None if s.result is None else s.result.get("deciding_seat")


def _next_opener(prev_final: KengState) -> int:
    """KENG-7: the seat that decided the previous game, else (no result) its opener."""
    decider = deciding_seat(prev_final)
    return decider if decider is not None else prev_final.opener


def session_start(prev_final: KengState) -> dict[str, Any]:
    """Keyword arguments of ``start_event`` for the next game of a session (KENG-7: opened by
    the seat that decided this one, or by the same opener after a game without result)."""
    return {"opener": _next_opener(prev_final)}


def _random_after_previous(p: dict[str, Any]) -> str:
    return (f"opener_rule is 'random', but the game names previous game "
            f"{p.get('previous_game')!r} of its session: only a session's first game draws its "
            "opener; a later one is opened by the seat that decided the previous game "
            "(opener_rule 'previous')")


def check_session(start: Event, prev_final: KengState) -> IllegalMove | None:
    """KENG-7: a game that names a previous game of its session must be opened by the seat
    that decided it (the same opener after a game without result), whatever its start says
    about how the opener was chosen; None when it is (or when it names no previous game)."""
    p = payload_json(start, default="{}")
    opener = p.get("opener")
    seat = opener if isinstance(opener, int) else -1
    if p.get("opener_rule") != "previous":
        if p.get("previous_game") is None:
            return None     # a session's first game: its opener is a recorded random draw
        return IllegalMove("KENG-7", f"GAME_START at seq 0: {_random_after_previous(p)}",
                           game_id=start.game_id, seq=0, seat=seat, event=start)
    expected = _next_opener(prev_final)
    if opener == expected:
        return None
    return IllegalMove("KENG-7", f"seat {opener} opens, but seat {expected} decided the "
                       f"previous game {p.get('previous_game')}", game_id=start.game_id, seq=0,
                       seat=seat, event=start)


def team_of(seat: int) -> str:
    """The team of a seat (KENG-5): "even" (seats 0 2 4) or "odd" (1 3 5)."""
    return TEAMS[team_index(seat)]


def winning_team(s: KengState) -> str | None:
    """The winning team of a finished game, "even" or "odd"; None without result (KENG-48)."""
    return None if s.result is None else s.result.get("winning_team")


def scores(s: KengState) -> list[int]:
    """Per-seat score: +1 for the winning team, -1 for the losing team, 0 without result."""
    win = winning_team(s)
    if win is None:
        return [0] * N_SEATS
    return [1 if team_of(i) == win else -1 for i in range(N_SEATS)]


def sides(s: KengState, viewer: int | None = None) -> tuple[str | None, ...]:
    """The fixed teams (KENG-5), known to everyone: even seats and odd seats."""
    return SEAT_SIDES


def outcomes(s: KengState) -> tuple[Outcome, ...] | None:
    """Each seat's outcome once the game is over: its team won or lost; a game without result
    (KENG-48) is a draw for every seat."""
    if s.phase != OVER:
        return None
    return team_outcomes(scores(s), SEAT_SIDES, winning_team(s))


def face_counts(s: KengState) -> collections.Counter | None:
    """Every card's face in stock, table, top play and hands; None during the deal."""
    if s.phase == DEALING:
        return None
    c = collections.Counter(s.stock)
    c.update(s.table)
    c.update(s.top)
    for h in s.hands:
        c.update(h)
    return c


__all__ = [
    "SIDES", "seat_count", "sides", "outcomes", "face_counts", "to_move",
    "GAME_ID", "TITLE", "RULE_PREFIX", "RULES_VERSION", "TEAMS", "session_start", "team_of",
    "winning_team", "start_event", "initial_state", "apply", "check", "step",
    "legal_actions", "turn_actions", "out_of_turn_actions", "claim", "auto_event", "is_over",
    "result", "scores", "deciding_seat", "next_auto", "NONE", "check_session", "due_seat", "order_claims",
]
