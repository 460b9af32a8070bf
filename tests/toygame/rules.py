"""小墩 rules: checking and applying one event (``step``), and the automatic events the engine
owes (``next_auto``, ``auto_event``). ``step`` validates the event completely before it changes
anything; ``apply`` and ``check`` in game.py run it on a copy."""

from __future__ import annotations

import json
from typing import Any

from engine.cards import format_face, rank_of, suit_of
from engine.events import NONE, Event, payload_json
from engine.games.frame import check_frame, check_seat, illegal, invalid, result_diff
from tests.toygame.state import DEAL, END, OVER, PLAY, ToyState

DECK = tuple(range(52))            # one deck without jokers (TRICK-3)
# TRICK-3: within a suit 2 is lowest and A highest: strength 0 (2) … 12 (A)
STRENGTH = tuple((rank_of(c) - 1) % 13 for c in DECK)
AUTO_RULE = {"DEAL": "TRICK-5", "TRICK_END": "TRICK-9", "GAME_END": "TRICK-11"}


def canonical(obj: Any) -> str:
    """The canonical JSON text of a payload."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------- the automatic events

def next_auto(s: ToyState) -> str | None:
    """Kind of the automatic event the engine owes now, or None."""
    if s.phase == DEAL:
        return "DEAL"
    if s.phase == PLAY:
        return "TRICK_END" if len(s.trick) == s.n else None
    return "GAME_END" if s.phase == END else None


def dealt(s: ToyState) -> int:
    """How many seats have been dealt to (TRICK-5: seat 0 first)."""
    return sum(1 for h in s.hands if h)


def trick_winner(s: ToyState) -> int:
    """TRICK-9: the seat that played the highest card of the led suit to the current trick."""
    led = suit_of(s.trick[0])
    best = max((STRENGTH[c], i) for i, c in enumerate(s.trick) if suit_of(c) == led)
    return s.trick_seats[best[1]]


def scores(s: ToyState) -> list[int]:
    """TRICK-11: one point per trick taken, the last trick two with trick_last_bonus."""
    out = list(s.tricks)
    if s.options.trick_last_bonus and s.trick_no:
        out[s.leader] += 1          # the last trick's winner leads: s.leader
    return out


def result_payload(s: ToyState) -> str:
    """The canonical JSON of the result of a game whose hands are empty (TRICK-11, TRICK-12)."""
    sc = scores(s)
    top = max(sc)
    winners = [] if min(sc) == top else [i for i, x in enumerate(sc) if x == top]
    return canonical({"tricks": list(s.tricks), "scores": sc, "winners": winners,
                      "draw": not winners})


def auto_event(s: ToyState, kind: str) -> Event:
    """The automatic event of this kind owed now, field by field."""
    base = Event(kind, game_id=s.game_id, seq=s.seq)
    if kind == "DEAL":
        k, h = dealt(s), s.options.trick_hand_size
        return base._replace(seat=k, cards=s.deck[k * h:(k + 1) * h])
    if kind == "TRICK_END":
        return base._replace(seat=trick_winner(s), cards=s.trick, value=s.trick_no + 1)
    return base._replace(payload=result_payload(s))


# ---------------------------------------------------------------- checking

def _check_auto(s: ToyState, e: Event, due: str) -> None:
    rule = AUTO_RULE[due]
    if e.kind != due:
        raise illegal(s, e, rule, f"the engine owes {due} now (TRICK-6: nobody plays before "
                      "it)")
    want = auto_event(s, due)
    if due == "GAME_END":
        got = payload_json(e, default="null")
        if (e.seat, e.cards, e.target, e.value, e.tag) != (NONE, (), NONE, NONE, "") or \
                got != json.loads(want.payload or "null"):
            raise illegal(s, e, rule, "GAME_END must carry the result: "
                          f"{result_diff(json.loads(want.payload or 'null'), got)}")
        return
    if e[:6] != want[:6] or e.payload is not None:
        raise illegal(s, e, rule, f"the owed event is {want.describe()}")


def _check_play(s: ToyState, e: Event) -> int:
    check_seat(s, e)
    if (e.target, e.value, e.tag, e.payload) != (NONE, NONE, "", None):
        raise invalid(s, e, "a PLAY carries its seat and card only", "value")
    seat = s.turn_seat()
    if e.seat != seat and not s.trick and s.trick_no:
        raise illegal(s, e, "TRICK-10", f"seat {seat} won the last trick and leads this one")
    if e.seat != seat:
        raise illegal(s, e, "TRICK-6", f"seat {seat} is to play")
    if len(e.cards) != 1:
        raise illegal(s, e, "TRICK-7", f"a play is one card, not {len(e.cards)}")
    card = e.cards[0]
    hand = s.hands[seat]
    if card not in hand:
        raise illegal(s, e, "TRICK-7", f"seat {seat} does not hold that card")
    if s.trick:
        led = suit_of(s.trick[0])
        if suit_of(card) != led and any(suit_of(c) == led for c in hand):
            follow = " ".join(format_face(c) for c in hand if suit_of(c) == led)
            raise illegal(s, e, "TRICK-8", f"seat {seat} holds the led suit ({follow}) and "
                          "must follow it", legal=follow)
    return card


# ---------------------------------------------------------------- applying

def step(s: ToyState, e: Event) -> None:
    """Check the event against the state, then apply it in place."""
    check_frame(s, e, s.phase == OVER, "TRICK-14")
    due = next_auto(s)
    if due is not None:
        _check_auto(s, e, due)
    elif e.kind in AUTO_RULE:
        raise illegal(s, e, AUTO_RULE[e.kind], f"the engine owes no {e.kind} now")
    elif e.kind != "PLAY":
        raise invalid(s, e, "is not an event of 小墩 (PLAY, or the engine's DEAL, TRICK_END, "
                      "GAME_END)", "kind")
    else:
        card = _check_play(s, e)
        hands = list(s.hands)
        hands[e.seat] = tuple(c for c in hands[e.seat] if c != card)
        s.hands = tuple(hands)
        s.trick += (card,)
        s.trick_seats += (e.seat,)
    if due is not None:
        _evolve_auto(s, e, due)
    s.seq += 1


def _evolve_auto(s: ToyState, e: Event, due: str) -> None:
    if due == "DEAL":
        hands = list(s.hands)
        hands[e.seat] = tuple(sorted(e.cards))
        s.hands = tuple(hands)
        if e.seat == s.n - 1:
            s.stock = s.deck[s.n * s.options.trick_hand_size:]
            s.phase = PLAY
    elif due == "TRICK_END":
        tricks = list(s.tricks)
        tricks[e.seat] += 1
        s.tricks = tuple(tricks)
        s.taken += s.trick
        s.trick, s.trick_seats = (), ()
        s.leader = e.seat
        s.trick_no += 1
        if not any(s.hands):
            s.phase = END
    else:
        s.phase = OVER
        s.result = result_payload(s)
