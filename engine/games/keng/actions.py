"""六人坑: what is legal now (KENG-8 … KENG-48): the automatic event owed, the seat the game
waits for, the turn and out-of-turn actions, and the "what was legal" text of refusals.

Below both ``rules`` (whose refusals name what was legal) and ``game`` (which lists the legal
actions), so that neither imports the other.
"""

from __future__ import annotations

from engine.events import Event
from engine.games.keng.cards import IS_JOKER
from engine.games.keng.plays import due_seat, duel_faces, plays, valid_snatch
from engine.games.keng.state import DEALING, N_SEATS, OVER, STARTING, KengState, team_of


def next_auto(s: KengState) -> str | None:
    """Kind of the automatic event the engine owes now, in the order of keng.md section 13."""
    if s.phase == OVER:
        return None
    if s.end_due is not None:
        return "GAME_END"
    if s.phase == DEALING:
        return "DEAL"
    if s.reshuffle_due:
        return "RESHUFFLE"
    if s.owed is not None:
        return s.owed[1]
    if s.ban_end_due:
        return "BAN_END"
    if s.penalty_due is not None:
        return s.penalty_due[0]
    if s.duel_due is not None:
        return "DUEL_START"
    if s.duel is not None and not duel_faces(s):
        return "DUEL_END"
    return None


def to_move(s: KengState) -> int:
    """The seat whose action the game waits for: the seat turning the start card (KENG-9),
    the duellist to act, else the seat to act; -1 when the engine owes an event or the game
    is over."""
    if s.phase == OVER or next_auto(s) is not None:
        return -1
    if s.phase == STARTING:
        return (s.opener + 3) % N_SEATS
    return due_seat(s)


def legal_now(s: KengState) -> str:
    """What would be legal now, for messages: 'seat 3: PLAY, ACCEPT', the automatic event the
    engine owes, or '' (the game is over)."""
    due = next_auto(s)
    if due is not None:
        return f"the engine's {due} (owed)"
    kinds: list[str] = []
    seat = -1
    for a in turn_actions(s):
        seat = a.seat
        if a.kind not in kinds:
            kinds.append(a.kind)
    return f"seat {seat}: {', '.join(kinds)}" if kinds else ""


def _named(e: Event, cards: tuple[int, ...]) -> list[Event]:
    if IS_JOKER[cards[0]]:
        return [e._replace(cards=cards, value=suit) for suit in range(4)]
    return [e._replace(cards=cards)]


def turn_actions(s: KengState) -> list[Event]:
    """Legal actions of the seat due to act (turn play, stack, accept, draw, pass, duel play)."""
    if s.phase == OVER or next_auto(s) is not None:
        return []
    base = Event("PLAY", game_id=s.game_id, seq=s.seq)
    if s.phase == STARTING:
        flipper = to_move(s)
        if not s.stock:
            return []
        return _named(base._replace(kind="START_CARD", seat=flipper), s.stock[:1])
    if s.duel is not None:
        seat = s.duel.to_act
        return [base._replace(kind="DUEL_PLAY", seat=seat, cards=(f,))
                for f in duel_faces(s)]
    seat = s.to_act
    base = base._replace(seat=seat)
    out: list[Event] = []
    for cards in plays(s, seat):
        out.extend(_named(base, cards))
    if s.pending > 0:
        out.append(base._replace(kind="ACCEPT", cards=s.stock[:s.pending], value=s.pending))
    elif s.drawn:
        out.append(base._replace(kind="PASS"))
    elif not out or s.options.keng_draw_when_able:
        out.append(base._replace(kind="DRAW", cards=s.stock[:2], value=2))
    return out


def standing_actions(s: KengState) -> list[Event]:
    """The standing options open now (docs/decisions.md, ``STANDING``): the last-card report
    (KENG-33) and the valid snatches (KENG-34 to KENG-37), by any seat."""
    if s.phase not in ("start", "play") or next_auto(s) is not None:
        return []
    return _standing(s, Event("LAST_CARD", game_id=s.game_id, seq=s.seq))


def _standing(s: KengState, base: Event) -> list[Event]:
    out: list[Event] = []
    r = s.report_seat
    if r >= 0 and len(s.hands[r]) == 1:
        out.append(base._replace(seat=r))
    if s.window and s.cycle >= 2:
        card = s.top[0]
        for seat in range(N_SEATS):
            if card in s.hands[seat] and valid_snatch(s, seat, card):
                out.append(base._replace(kind="SNATCH", seat=seat, cards=(card,), tag="valid"))
    return out


def out_of_turn_actions(s: KengState) -> list[Event]:
    """Legal out-of-turn actions: the last-card report, counts (KENG-41: at any moment, also
    before the start card) and valid snatches."""
    if s.phase not in ("start", "play") or next_auto(s) is not None:
        return []
    base = Event("LAST_CARD", game_id=s.game_id, seq=s.seq)
    out = _standing(s, base)
    for seat in range(N_SEATS):
        if not s.count_used[seat]:
            for t in range(1 - team_of(seat), N_SEATS, 2):
                out.append(base._replace(kind="COUNT", seat=seat, target=t,
                                         value=len(s.hands[t])))
    return out
