"""小墩 facts (engine.facts): the worked example of a fact catalog for a game's own package."""

from __future__ import annotations

from engine.cards import suit_of
from engine.events import Event
from tests.toygame.rules import STRENGTH, scores
from tests.toygame.state import ToyState

ACE = 12        # STRENGTH of an ace (TRICK-3)

FACTS = (
    ("held_ace", "held an ace", "the seat's DEAL held at least one ace, counted per ace "
     "(TRICK-3, TRICK-5)"),
    ("void_dealt", "dealt a void", "the seat's DEAL held no card of some suit (TRICK-5), "
     "counted per suit"),
    ("won_trick", "won a trick", "the seat won a trick (TRICK-9), counted per trick"),
    ("ruffed_off", "discarded off suit", "the seat played a card not of the led suit "
     "(TRICK-8: it held none)"),
    ("won_last_trick", "won the last trick", "the seat won the game's last trick (TRICK-11)"),
    ("top_score", "top score", "the seat's score was the highest, alone or tied (TRICK-12)"),
)
KINDS = ("DEAL", "PLAY", "TRICK_END", "GAME_END")


def after(s: ToyState, e: Event) -> tuple[tuple[int, str], ...]:
    """The facts this event makes happen, from the state after it."""
    kind = e.kind
    if kind == "DEAL":
        aces = sum(1 for c in e.cards if STRENGTH[c] == ACE)
        voids = 4 - len({suit_of(c) for c in e.cards})
        return ((e.seat, "held_ace"),) * aces + ((e.seat, "void_dealt"),) * voids
    if kind == "PLAY":
        # the state after: the card is the trick's last one; the first sets the suit
        if len(s.trick) > 1 and suit_of(s.trick[-1]) != suit_of(s.trick[0]):
            return ((e.seat, "ruffed_off"),)
        return ()
    if kind == "TRICK_END":
        last = not any(s.hands)
        return ((e.seat, "won_trick"),) + (((e.seat, "won_last_trick"),) if last else ())
    if kind == "GAME_END":
        return _top(s)
    return ()


def _top(s: ToyState) -> tuple[tuple[int, str], ...]:
    """Every seat with the highest score (TRICK-12)."""
    sc = scores(s)
    top = max(sc)
    return tuple((seat, "top_score") for seat, t in enumerate(sc) if t == top)
