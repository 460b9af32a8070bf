"""摸到爽 cards: the 54-card deck (MDS-2), rank order (MDS-4), face values (MDS-5), joker limits
(MDS-19) as tables indexed by face code."""

from __future__ import annotations

from engine.cards import ACE, BLACK_JOKER, JACK, KING, N_FACES, QUEEN, RED_JOKER, format_face

BJ, RJ = BLACK_JOKER, RED_JOKER
DECK = tuple(range(N_FACES))          # one deck: 52 suited cards and the two jokers (MDS-2)
SUITS = "shcd"
NO_SUIT = -1

FACE_TEXT = tuple(format_face(c) for c in range(N_FACES))   # 'As' … 'Kd', 'BJ', 'RJ'
SUIT = tuple(c // 13 if c < 52 else NO_SUIT for c in range(N_FACES))
IS_JOKER = tuple(c >= 52 for c in range(N_FACES))

# MDS-4: RJ > A > K > Q > J > T > 9 > … > 2 > BJ, as a strength (higher beats lower).
RANK_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ACE)   # ranks 2 … K, A (low to high)


def _strength(code: int) -> int:
    if code == BJ:
        return 0
    if code == RJ:
        return 14
    return RANK_ORDER.index(code % 13) + 1


STRENGTH = tuple(_strength(c) for c in range(N_FACES))


# MDS-5: face values used in settlement.
def _value(code: int) -> int:
    if code == RJ:
        return 40
    if code == BJ:
        return 20
    rank = code % 13
    return {ACE: 20, KING: 13, QUEEN: 12, JACK: 11}.get(rank, rank + 1)


FACE_VALUE = tuple(_value(c) for c in range(N_FACES))

# MDS-19: the least number of cards a seat must hold before playing each face.
MIN_HOLD = tuple(3 if c == RJ else 2 if c == BJ else 1 for c in range(N_FACES))


def suit_cards(hand: tuple[int, ...], suit: int) -> tuple[int, ...]:
    """The cards of a hand in a suit."""
    lo = 13 * suit
    return tuple(c for c in hand if lo <= c < lo + 13)


def has_suit(hand: tuple[int, ...], suit: int) -> bool:
    """True if the hand holds a card of the suit (jokers are no suit's cards)."""
    lo = 13 * suit
    for c in hand:
        if lo <= c < lo + 13:
            return True
    return False


def hand_value(hand: tuple[int, ...]) -> int:
    """The sum of the face values of a hand (MDS-5, MDS-37)."""
    return sum(map(FACE_VALUE.__getitem__, hand))
