"""六人斗地主 multiplier and settlement (section 11: DDZ-81 … DDZ-90).

``bomb_increment`` is what one bomb adds to N (DDZ-83, DDZ-86, DDZ-87); ``settle`` the amount of
each seat once the hand has ended (DDZ-84, DDZ-88, DDZ-89, DDZ-90, DDZ-80). Both are pure
functions of small values, so the seed's worked examples are tested on them directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.games.ddz6.combos import BOMB, JOKER_BOMB, Combo

# DDZ-83: 3v3 joker bombs by ladder place; DDZ-86: 4-deck joker bombs by place.
JOKER_INC_3V3 = {"J3-4": 1, "J5": 3, "J6": 5}
JOKER_INC_4DECK = {"1a": 0, "1b": 0, "1c": 0, "2a": 3, "2b": 3, "2c": 3, "3": 9, "4": 6}
SHOW_INC = {1: 3, 2: 6}          # DDZ-39: one of two landlords shows, both show
SOLO_SHOW_INC = 9                # DDZ-39: the solo landlord shows
CASE_C_BASE = 2                  # DDZ-82
CASE_A_BASE = 3                  # DDZ-82


def bomb_increment(combo: Combo, four: bool, solo: bool) -> int:
    """What a played combination adds to N: DDZ-83 (3v3), DDZ-86 (4-deck), DDZ-87 (solo: 0)."""
    if combo.kind == JOKER_BOMB:
        if four:
            return 0 if solo else JOKER_INC_4DECK[combo.place]
        return JOKER_INC_3V3[combo.place]
    if combo.kind != BOMB:
        return 0
    if four:
        return 0 if solo or combo.size < 7 else combo.size - 6
    return 1 if combo.size >= 6 else 0


def show_increment(shown: int, solo: bool) -> int:
    """DDZ-39: N + 3 for one of two landlords shown, + 6 for both, + 9 for a solo landlord."""
    if not shown:
        return 0
    return SOLO_SHOW_INC if solo else SHOW_INC[shown]


def rule_of_n(four: bool, solo: bool) -> str:
    """The rule that fixes N after a play: DDZ-83 (3v3), DDZ-86, DDZ-87 (a solo hand)."""
    if not four:
        return "DDZ-83"
    return "DDZ-87" if solo else "DDZ-86"


class Settlement(NamedTuple):
    """The amounts of one hand: W and each seat's score (zero-sum)."""

    w: int
    scores: tuple[int, ...]


def units(variant: str, seat: int, landlords: Sequence[int], solo: bool) -> int:
    """How many W a seat wins or loses: farmers 1; 2v4 big landlord 3, second 1 (DDZ-88);
    zhengfan landlords 2 (DDZ-89); a solo landlord 5 (DDZ-84 case C, DDZ-88, DDZ-89)."""
    if seat not in landlords:
        return 1
    if solo:
        return 5
    if variant == "2v4":
        return 3 if seat == landlords[0] else 1
    if variant == "zhengfan":
        return 2
    return 1


def settle(variant: str, base: int, mult: int, sides: Sequence[int], win_side: int,
           landlords: Sequence[int], solo: bool, auto: bool) -> Settlement:
    """Each seat's amount (DDZ-84, DDZ-88 … DDZ-90): ±units × W for the seats of the winning
    and the losing side; W = S × N, or S for an auto-win and 3v3 case C; 0 when void."""
    if win_side < 0:
        return Settlement(0, (0,) * len(sides))                     # DDZ-80
    w = base if auto else base * mult                              # DDZ-84 C, DDZ-90
    scores = tuple((1 if side == win_side else -1) * units(variant, i, landlords, solo) * w
                   for i, side in enumerate(sides))
    return Settlement(w, scores)
