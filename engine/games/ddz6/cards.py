"""六人斗地主 cards: the packs of the three variants (DDZ-4, DDZ-5), card values (DDZ-3), the
sequence positions of each variant (8.2: 3 … A; DDZ-55: A low or high, 2 at position 2) and
the run tables every sequence, airplane body and wing is checked against.

Faces are the shared one-byte codes (engine/cards.py); a card's value v is the rank order of
DDZ-3 (3 … K = 3 … 13, A 14, 2 15, BJ 16, RJ 17). Rank counts are kept as lists indexed by v.
"""

from __future__ import annotations

from engine.cards import BLACK_JOKER, N_FACES, RED_JOKER, pack

BJ, RJ = BLACK_JOKER, RED_JOKER

# Variants: the registry suffix (``ddz6_<variant>``) -> decks in the pack (DDZ-4, DDZ-5).
VARIANTS = ("3v3", "2v4", "zhengfan")
DECKS = {"3v3": 3, "2v4": 4, "zhengfan": 4}
HAND_SIZE = {"3v3": 27, "2v4": 34, "zhengfan": 34}     # dealt to each seat (section 2)
KITTY = {"3v3": 0, "2v4": 12, "zhengfan": 12}          # DDZ-5
MAX_HAND = {"3v3": 27, "2v4": 46, "zhengfan": 46}      # a solo landlord after the kitty

# DDZ-3 values.
THREE, KING_V, ACE_V, TWO_V, BJ_V, RJ_V = 3, 13, 14, 15, 16, 17
N_VALUES = 18                                  # count lists are indexed 0 … 17 (0-2 unused)
SUITED_VALUES = tuple(range(THREE, TWO_V + 1))  # 3 … 2: the ranks of pairs, trios and bombs
VALUE_NAMES = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J",
               12: "Q", 13: "K", 14: "A", 15: "2", 16: "BJ", 17: "RJ"}


def _value(code: int) -> int:
    if code == BJ:
        return BJ_V
    if code == RJ:
        return RJ_V
    r = code % 13                              # 0 = A, 1 = 2, 2 = 3 … 12 = K
    return {0: ACE_V, 1: TWO_V}.get(r, r + 1)


VALUE = tuple(_value(c) for c in range(N_FACES))
# Hands are kept in value order, then face code (so the suit order s h c d within a rank).
SORT_KEY = tuple(VALUE[c] * 64 + c for c in range(N_FACES))


def variant_name(variant: str) -> str:
    """The variant key ('3v3', '2v4', 'zhengfan') of a variant or game id ('ddz6_2v4')."""
    v = variant[5:] if variant.startswith("ddz6_") else variant
    if v not in DECKS:
        raise ValueError(f"unknown 六人斗地主 variant {variant!r}: one of "
                         f"{', '.join(VARIANTS)} (or ddz6_<variant>)")
    return v


def four_deck(variant: str) -> bool:
    """True for the 4-deck variants (ddz6_2v4, ddz6_zhengfan), which share section 8.3."""
    return DECKS[variant_name(variant)] == 4


def deck_copies(variant: str) -> dict[int, int]:
    """Face -> copies in the variant's pack: 3 of each of the 54 faces (DDZ-4) or 4 (DDZ-5)."""
    n = DECKS[variant_name(variant)]
    return {c: n for c in range(N_FACES)}


def deck(variant: str) -> tuple[int, ...]:
    """The unshuffled pack in face-code order: 162 cards (3v3) or 216 (4-deck)."""
    return pack(deck_copies(variant))


def sort_hand(cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Cards in the engine's order: by value, then face code."""
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def value_counts(cards: tuple[int, ...] | list[int]) -> list[int]:
    """How many cards of each value 0 … 17 (indexes 0-2 stay 0)."""
    c = [0] * N_VALUES
    for f in cards:
        c[VALUE[f]] += 1
    return c


# ---------------------------------------------------------------- sequence positions

# 8.2: 3v3 sequences use 3 … A only, A high: position = value 3 … 14.
POSITIONS_3V3 = {p: p for p in range(THREE, ACE_V + 1)}
# DDZ-55: A low = 1, 2 = 2, 3 … K = 3 … 13, A high = 14.
POSITIONS_4DECK = {1: ACE_V, 2: TWO_V, **{p: p for p in range(THREE, KING_V + 1)}, 14: ACE_V}


class Run:
    """A run of m consecutive positions: its values (in position order), start and top."""

    __slots__ = ("values", "start", "top", "mask")

    def __init__(self, values: tuple[int, ...], start: int, top: int) -> None:
        self.values = values
        self.start = start
        self.top = top
        self.mask = sum(1 << v for v in values)

    def __repr__(self) -> str:
        return f"Run({''.join(VALUE_NAMES[v] for v in self.values)}, top={self.top})"


def _runs(positions: dict[int, int]) -> dict[int, list[Run]]:
    """m -> every run of m ≥ 2 positions, each set of values once (the reading with the
    highest top: DDZ-40 (b), DDZ-55's 13-rank run reads 2 … A)."""
    lo, hi = min(positions), max(positions)
    by_mask: dict[int, Run] = {}
    for m in range(2, hi - lo + 2):
        for start in range(lo, hi - m + 2):
            values = tuple(positions[p] for p in range(start, start + m))
            if len(set(values)) < m:           # A at both ends (A23456789TJQKA)
                continue
            run = Run(values, start, start + m - 1)
            old = by_mask.get(run.mask)
            if old is None or run.top > old.top:
                by_mask[run.mask] = run
    out: dict[int, list[Run]] = {}
    for run in sorted(by_mask.values(), key=lambda r: (len(r.values), r.top)):
        out.setdefault(len(run.values), []).append(run)
    return out


RUNS_3V3 = _runs(POSITIONS_3V3)
RUNS_4DECK = _runs(POSITIONS_4DECK)
# The set of values of a run -> the run (its mask is the key).
RUN_OF_3V3 = {r.mask: r for rs in RUNS_3V3.values() for r in rs}
RUN_OF_4DECK = {r.mask: r for rs in RUNS_4DECK.values() for r in rs}
