"""The hand tests of the 4-deck auto-win (不打自贏, DDZ-78): whether a hand holds a bomb (a),
is all bombs or all bombs after one play (b), holds a bomb of 13 or more cards (c).

Which seats are tested, when, and what option ``no_bomb_autowin`` makes of (a) is the game's
part (DDZ-78, DDZ-79); these are the closed-form checks on one hand's rank counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.games.ddz6.cards import BJ_V, N_VALUES, RJ_V, THREE, TWO_V, VALUE
from engine.games.ddz6.combos import AIRPLANE, SEQ_KIND, combo_rules
from engine.games.ddz6.moves import Play, iter_lead_plays, iter_plays

BIG_BOMB = 13                     # DDZ-78 (c): 13張牌以上, inclusive (section 14 #26)
# DDZ-78 (b): joker counts (b, r) that split wholly into joker bombs.
_JOKER_SPLIT_EXTRA = ((3, 0), (0, 3), (4, 1), (1, 4))


def _counts(hand: tuple[int, ...] | list[int]) -> list[int]:
    c = [0] * N_VALUES
    for f in hand:
        c[VALUE[f]] += 1
    return c


def holds_bomb(hand: tuple[int, ...] | list[int]) -> bool:
    """DDZ-78 (a): the hand holds a bomb: a rank with 4 or more cards, or jokers with b ≥ 3,
    r ≥ 3 or b + r ≥ 4."""
    c = _counts(hand)
    b, r = c[BJ_V], c[RJ_V]
    return any(c[v] >= 4 for v in range(THREE, TWO_V + 1)) or b > 2 or r > 2 or b + r > 3


def bombs_only(c: list[int]) -> bool:
    """DDZ-78 (b): rank counts (by value) that split wholly into bombs: every rank 0 or ≥ 4
    cards, the jokers b + r = 0, 4, ≥ 6, or (3,0), (0,3), (4,1), (1,4)."""
    if any(0 < c[v] < 4 for v in range(THREE, TWO_V + 1)):
        return False
    b, r = c[BJ_V], c[RJ_V]
    return b + r in (0, 4) or b + r >= 6 or (b, r) in _JOKER_SPLIT_EXTRA


def bombs_after_one_play(hand: tuple[int, ...] | list[int], variant: str,
                         options: Any = None) -> bool:
    """DDZ-78 (b): the hand is one combination of the variant (a bomb included) plus zero or
    more bombs (所有的牌均為炸彈或者出掉一次牌後均為炸彈)."""
    c = _counts(hand)
    if bombs_only(c):
        return True
    for play in _candidates(hand, c, variant, options):
        rest = c[:]
        for f in play.cards:
            rest[VALUE[f]] -= 1
        if bombs_only(rest):
            return True
    return False


def _candidates(hand: tuple[int, ...] | list[int], c: list[int], variant: str,
                options: Any) -> Iterator[Play]:
    """The lead plays that can leave only bombs. A rank of 1-3 cards must go wholly into the
    play; with three such ranks or more only a sequence of their common width or an airplane
    holds them all (every other type holds at most two ranks), and no airplane takes a lone
    card of a rank (it takes 3, 2k or 3 + 2k). With fewer: every lead play."""
    short = [c[v] for v in range(THREE, TWO_V + 1) if 0 < c[v] < 4]
    if len(short) < 3:
        return iter_plays(hand, None, variant, options)
    widths = set(short)
    kinds: tuple[str, ...] = (SEQ_KIND[short[0]],) if len(widths) == 1 else ()
    if 1 not in widths:
        kinds += (AIRPLANE,)
    if not kinds:
        return iter(())
    if AIRPLANE not in kinds or combo_rules(variant, options).four:
        # Sequences take w cards of a rank, 4-deck airplanes 3 or 2 (never all of a longer
        # rank): a rank of 4 or more cards can only give cards it keeps 4 of. Only the ranks
        # that can be part of the play are kept (jokers too: a 4-deck wing).
        least = 2 if AIRPLANE in kinds else short[0]
        hand = [f for f in hand if (k := c[VALUE[f]]) < 4 or k >= 4 + least
                or VALUE[f] >= BJ_V]
    return iter_lead_plays(hand, kinds, variant, options)


def holds_big_bomb(hand: tuple[int, ...] | list[int]) -> bool:
    """DDZ-78 (c): the hand holds 13 or more cards of one rank."""
    c = _counts(hand)
    return any(c[v] >= BIG_BOMB for v in range(THREE, TWO_V + 1))
