"""Card faces per CONVENTIONS.md: text codes, the fixed one-byte face code, packs as face counts."""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import InvalidEvent

RANKS = "A23456789TJQK"
SUITS = "shcd"
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}
BLACK_JOKER = 52
RED_JOKER = 53
N_FACES = 54

# Rank indexes (0-12) in the order A 2 … T J Q K.
ACE, TWO, TEN, JACK, QUEEN, KING = 0, 1, 9, 10, 11, 12


def face_code(rank: int, suit: int) -> int:
    """The one-byte code of a suited face: 13 * suit + rank."""
    return 13 * suit + rank


def rank_of(code: int) -> int:
    """Rank index 0-12 of a suited face (undefined for jokers)."""
    return code % 13


def suit_of(code: int) -> int:
    """Suit index 0-3 (s h c d) of a suited face, -1 for a joker."""
    return code // 13 if code < 52 else -1


def is_joker(code: int) -> bool:
    """True for BJ and RJ."""
    return code >= 52


_TEXT = [RANKS[c % 13] + SUITS[c // 13] for c in range(52)] + ["BJ", "RJ"]
_CODE = {t: i for i, t in enumerate(_TEXT)}


def format_face(code: int) -> str:
    """Text of a face code: 0 -> 'As', 53 -> 'RJ'."""
    if not 0 <= code < N_FACES:
        raise InvalidEvent(f"face code {code} is outside 0-53", field="cards")
    return _TEXT[code]


def parse_face(text: str) -> int:
    """Face code of a text face: 'As' -> 0, 'Th' -> 22, 'RJ' -> 53."""
    try:
        return _CODE[text]
    except (KeyError, TypeError):
        raise InvalidEvent(
            f"{text!r} is not a card face (rank A23456789TJQK + suit shcd, or BJ/RJ)",
            field="cards",
        ) from None


def parse_faces(texts: Iterable[str] | str) -> tuple[int, ...]:
    """Face codes of several faces, given as a list or a space-separated string."""
    if isinstance(texts, str):
        texts = texts.split()
    return tuple(parse_face(t) for t in texts)


def format_faces(codes: Iterable[int]) -> str:
    """Space-separated text of several face codes."""
    return " ".join(format_face(c) for c in codes)


def pretty_face(code: int) -> str:
    """Face with a suit symbol for people: 'T♥', '小王'."""
    if code == BLACK_JOKER:
        return "BJ"
    if code == RED_JOKER:
        return "RJ"
    return RANKS[code % 13] + SUIT_SYMBOLS[SUITS[code // 13]]


def is_red(code: int) -> bool:
    """Hearts, diamonds and the red joker are red."""
    return code == RED_JOKER or (code < 52 and code // 13 in (1, 3))


def face_counts(codes: Iterable[int]) -> tuple[int, ...]:
    """A multiset of faces as a 54-tuple of counts."""
    counts = [0] * N_FACES
    for c in codes:
        counts[c] += 1
    return tuple(counts)


def pack(copies: dict[int, int]) -> tuple[int, ...]:
    """A multi-deck pack as a sorted tuple of face codes, from face -> number of copies."""
    out: list[int] = []
    for code in sorted(copies):
        out.extend([code] * copies[code])
    return tuple(out)
