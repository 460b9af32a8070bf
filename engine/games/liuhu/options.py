"""House-rule options of 扑克六湖 (liuhu.md section 4, LH-8), validated with their allowed
values; every option is recorded in GAME_START with its value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalMove
from engine.games.frame import OptionsBase

TRIPLET_HU = (3, 6)             # concealed_triplet_hu: two values, not a range (LH-48)


@dataclass(frozen=True, slots=True)
class LiuhuOptions(OptionsBase):
    """The options of a liuhu game (LH-8); fixed for all its hands."""

    RULE = "LH-8"
    ALLOWED = {
        "decks": (2, 3, 4),
        "hunzi": (0, 1),
        "groups": (4, 5),
        "pair_match": ("rank", "face"),
        "special_sequence": ("any_suits", "same_colour", "same_suit"),
        "chi_card": ("middle", "end", "any"),
        "concealed_triplet_hu": TRIPLET_HU,
        "min_hu": (0, 99),
        "zimo_bonus_counts": ("yes", "no"),
        "multi_win": ("nearest", "all"),
        "draw_dealer": ("stay", "next"),
        "hands": (1, 99),
    }

    decks: int = 4
    hunzi: int = 0
    groups: int = 4
    pair_match: str = "rank"
    special_sequence: str = "any_suits"
    chi_card: str = "middle"
    concealed_triplet_hu: int = 3
    min_hu: int = 15
    zimo_bonus_counts: str = "yes"
    multi_win: str = "nearest"
    draw_dealer: str = "stay"
    hands: int = 6

    def _check_value(self, name: str, v: Any) -> None:
        if name == "concealed_triplet_hu":      # (3, 6) would read as the range 3 … 6
            if type(v) is not int or v not in TRIPLET_HU:
                raise IllegalMove(self.RULE, f"option {name}={v!r} is not allowed: must be "
                                  "3 or 6")
            return
        OptionsBase._check_value(self, name, v)


def options_from(value: Any) -> LiuhuOptions:
    """Options given as None (the defaults), a dict or an options object."""
    if value is None:
        return LiuhuOptions()
    if isinstance(value, dict):
        return LiuhuOptions(**value)
    if not isinstance(value, LiuhuOptions):
        raise TypeError("liuhu options must be LiuhuOptions")
    return value
