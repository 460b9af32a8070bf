"""扑克六湖 cards (LH-4 … LH-6): the pack of ``decks`` standard decks without jokers, plus one
``RJ`` wild card with ``hunzi`` = 1; ranks A = 1 … K = 13, colours as in the conventions."""

from __future__ import annotations

from engine.cards import RED_JOKER, format_face, is_red

RJ = RED_JOKER                  # the only joker that can occur (LH-5, LH-6)
SUITED = tuple(range(52))       # the 52 faces As … Kd
SEATS = 6                       # LH-1
FACE_TEXT = tuple(format_face(c) if c in SUITED or c == RJ else "" for c in range(54))


def rank(c: int) -> int:
    """A face's rank value 1 … 13 (A = 1, T = 10, K = 13; LH-6)."""
    return c % 13 + 1


def suit(c: int) -> int:
    """A face's suit index 0 … 3 (s h c d)."""
    return c // 13


def red(c: int) -> bool:
    """True for hearts and diamonds (LH-6)."""
    return is_red(c)


def face_of(r: int, u: int) -> int:
    """The face code of rank value r (1 … 13) in suit u."""
    return 13 * u + r - 1


def pack(decks: int, hunzi: int) -> tuple[int, ...]:
    """The sorted pack: every suited face ``decks`` times, plus ``hunzi`` RJ (LH-4, LH-5)."""
    return tuple(sorted(SUITED * decks)) + (RJ,) * hunzi


def pack_size(decks: int, hunzi: int) -> int:
    """N = 52 × decks + hunzi (LH-5)."""
    return 52 * decks + hunzi
