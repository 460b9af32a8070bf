"""够级 cards: the 196-card pack (GJ-2), rank strengths (GJ-11) and the 够级 thresholds (GJ-16)."""

from __future__ import annotations

from collections import Counter

from engine.cards import BLACK_JOKER, N_FACES, RED_JOKER, format_face, pack

BJ, RJ = BLACK_JOKER, RED_JOKER

# Strength values of GJ-11: 3 … K = 3 … 13, A = 14, 2 = 15, BJ = 16, RJ = 17.
THREE, FOUR, FIVE, TEN_S, ACE_S, TWO_S, BJ_S, RJ_S = 3, 4, 5, 10, 14, 15, 16, 17
STRENGTH_NAMES = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J",
                  12: "Q", 13: "K", 14: "A", 15: "2", 16: "BJ", 17: "RJ"}


def _strength(code: int) -> int:
    if code == BJ:
        return BJ_S
    if code == RJ:
        return RJ_S
    r = code % 13                      # 0 = A, 1 = 2, 2 = 3 … 12 = K
    return {0: ACE_S, 1: TWO_S}.get(r, r + 1)


STRENGTH = tuple(_strength(c) for c in range(N_FACES))
# Hands are kept sorted by strength, then face code.
SORT_KEY = tuple(STRENGTH[c] * 64 + c for c in range(N_FACES))

# GJ-16: minimum count of a 够级-shaped play by base rank (T, J, Q, K, A, 2).
GOUJI_MIN = {10: 5, 11: 4, 12: 3, 13: 2, 14: 2, 15: 1}
SHAPE_MIN = tuple(GOUJI_MIN.get(r, 99) for r in range(18))

# GJ-6: the value a cut card counts: A = 1, 2 = 2, 3-9, T = 10, J = 11, Q = 12, K = 13.
CUT_VALUE = tuple((c % 13) + 1 if c < 52 else 0 for c in range(N_FACES))


def _pack_copies() -> dict[int, int]:
    copies = {c: 4 for c in range(N_FACES)}
    for code in range(52):
        r, suit = code % 13, code // 13      # suits s h c d = 0 1 2 3
        if r in (2, 3):                      # the 3s and 4s (GJ-2)
            copies[code] = 2 if suit in (0, 2) else 1
    return copies


PACK = pack(_pack_copies())
assert len(PACK) == 196


def sort_hand(cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """A hand in the engine's order: by strength, then face code."""
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def pack_diff(cards: tuple[int, ...] | list[int], limit: int = 6) -> str:
    """How a multiset of faces differs from the pack (GJ-2), short: 'missing 1× 5s; extra
    1× 3h' (at most ``limit`` faces named on each side, then how many more)."""
    want, got = Counter(PACK), Counter(c for c in cards if isinstance(c, int) and 0 <= c < N_FACES)

    def side(name: str, diff: Counter[int]) -> str:
        items = sorted(diff.items())
        text = ", ".join(f"{k}× {format_face(c)}" for c, k in items[:limit])
        more = len(items) - limit
        return f"{name} {text}" + (f" and {more} more faces" if more > 0 else "")

    parts = []
    if want - got:
        parts.append(side("missing", want - got))
    if got - want:
        parts.append(side("extra", got - want))
    return "; ".join(parts) or "the same faces"
