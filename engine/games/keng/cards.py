"""六人坑 card classes, the deck composition (KENG-3) and the matching tables (KENG-17 to KENG-19)."""

from __future__ import annotations

from engine.cards import (
    ACE,
    BLACK_JOKER,
    JACK,
    KING,
    N_FACES,
    QUEEN,
    RED_JOKER,
    TEN,
    TWO,
    face_code,
    pack,
)
from engine.games.keng.options import KengOptions

# Card classes (KENG-4).
NUMBER, A, K, Q, J, BJ, RJ = "N", "A", "K", "Q", "J", "BJ", "RJ"

NUMBER_RANKS = tuple(range(TWO, TEN + 1))   # 2 … T
NUMBER_COPIES = 3
ACE_COPIES = 2
FACE_COPIES = 3                             # K, Q, J

SUIT = tuple(c // 13 if c < 52 else -1 for c in range(N_FACES))
RANK = tuple(c % 13 if c < 52 else -1 for c in range(N_FACES))


def _class(code: int) -> str:
    if code == BLACK_JOKER:
        return BJ
    if code == RED_JOKER:
        return RJ
    return {ACE: A, KING: K, QUEEN: Q, JACK: J}.get(code % 13, NUMBER)


CLASS = tuple(_class(c) for c in range(N_FACES))
IS_JOKER = tuple(c >= 52 for c in range(N_FACES))
IS_NUMBER = tuple(CLASS[c] == NUMBER for c in range(N_FACES))


def deck_copies(opts: KengOptions) -> dict[int, int]:
    """Face -> number of copies in the 六人坑 deck for these options (KENG-3)."""
    copies: dict[int, int] = {}
    for suit in range(4):
        for rank in NUMBER_RANKS:
            if rank == TEN and not opts.keng_tens:
                continue
            copies[face_code(rank, suit)] = NUMBER_COPIES
        copies[face_code(ACE, suit)] = ACE_COPIES
        for rank in (KING, QUEEN, JACK):
            copies[face_code(rank, suit)] = FACE_COPIES
    copies[BLACK_JOKER] = opts.keng_black_jokers
    copies[RED_JOKER] = opts.keng_red_jokers
    return copies


def deck(opts: KengOptions) -> tuple[int, ...]:
    """The unshuffled deck in face-code order (158 cards with the defaults)."""
    return pack(deck_copies(opts))
