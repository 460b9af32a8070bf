"""小墩 decision points (docs/decisions.md): the option categories of a seat's play, read off
the state before the event. There are no out-of-turn options (TRICK-6): every decision is the
turn seat's card, between a high and a low lead, taking or ducking under the trick's best card
of the led suit, or shedding a high or a low card when void (TRICK-7 to TRICK-9)."""

from __future__ import annotations

from engine.cards import suit_of
from engine.decisions import Decision
from engine.events import Event
from tests.toygame.rules import STRENGTH, next_auto
from tests.toygame.state import PLAY, ToyState

DECISIONS = (
    ("lead_high", "lead a card ranked T or above (TRICK-6, TRICK-7)"),
    ("lead_low", "lead a card ranked 9 or below (TRICK-6, TRICK-7)"),
    ("take", "follow suit above the trick's best card so far (TRICK-8, TRICK-9)"),
    ("duck", "follow suit under the trick's best card so far (TRICK-8, TRICK-9)"),
    ("shed_high", "lacking the led suit, play a card ranked T or above (TRICK-8)"),
    ("shed_low", "lacking the led suit, play a card ranked 9 or below (TRICK-8)"),
)
STANDING: dict[str, str] = {}
TAGS = (
    ("last", "the seat plays last to the trick (TRICK-6)"),
    ("first_trick", "the first trick of the game (TRICK-4)"),
)
PHASES = ("early", "late")        # late: the last two tricks
HIGH = 8                          # STRENGTH of T (TRICK-3)


def opposite_seat(seat: int, n_seats: int) -> int:
    """小墩 has no opposite seat: each plays for himself (TRICK-1)."""
    return -1


def _best(s: ToyState) -> tuple[int, int]:
    """The strength and seat of the trick's best card of the led suit so far."""
    led = suit_of(s.trick[0])
    return max((STRENGTH[c], x) for c, x in zip(s.trick, s.trick_seats, strict=True)
               if suit_of(c) == led)


def card_category(s: ToyState, card: int, hand: tuple[int, ...]) -> str:
    """The category of playing ``card`` from ``hand`` now."""
    high = STRENGTH[card] >= HIGH
    if not s.trick:
        return "lead_high" if high else "lead_low"
    led = suit_of(s.trick[0])
    if suit_of(card) == led:
        return "take" if STRENGTH[card] > _best(s)[0] else "duck"
    if any(suit_of(c) == led for c in hand):
        return "duck"          # not a legal play (TRICK-8); never listed
    return "shed_high" if high else "shed_low"


def turn_options(s: ToyState, hand: tuple[int, ...]) -> frozenset[str]:
    """The categories of the turn seat's legal plays."""
    if s.trick:
        led = suit_of(s.trick[0])
        hand = tuple(c for c in hand if suit_of(c) == led) or hand
    return frozenset(card_category(s, c, hand) for c in hand)


def decision(s: ToyState, e: Event) -> Decision | None:
    """The decision ``e`` makes in ``s`` (the state before it), or None."""
    if e.kind != "PLAY" or s.phase != PLAY or next_auto(s) is not None or \
            e.seat != s.turn_seat() or len(e.cards) != 1:
        return None
    hand = s.hands[e.seat]
    options = turn_options(s, hand)
    if len(options) < 2 or e.cards[0] not in hand:
        return None
    tags = (("last",) if len(s.trick) == s.n - 1 else ()) + (
        ("first_trick",) if s.trick_no == 0 else ())
    top, could = -1, False
    if s.trick:
        best, top = _best(s)
        led = suit_of(s.trick[0])
        could = any(suit_of(c) == led and STRENGTH[c] > best for c in hand)
    phase = "late" if s.options.trick_hand_size - s.trick_no <= 2 else "early"
    return Decision(e.seat, options, card_category(s, e.cards[0], hand), tags, e.cards,
                    len(hand), phase, could, top)


def lapsed(s: ToyState, e: Event) -> tuple[Decision, ...]:
    """小墩 has no standing options."""
    return ()


def action_category(s: ToyState, a: Event) -> str | None:
    """The category of a listed legal action, None for an automatic event."""
    if a.kind != "PLAY":
        return None
    return card_category(s, a.cards[0], s.hands[a.seat])
