"""House-rule options of 六人坑 (keng.md section 4), validated with their allowed ranges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.games.frame import OptionsBase


@dataclass(frozen=True, slots=True)
class KengOptions(OptionsBase):
    """The house rules of one game; every field is recorded in GAME_START (KENG-6)."""

    RULE: ClassVar[str] = "KENG-6"
    # option name -> allowed values, or an integer range (lo, hi)
    ALLOWED: ClassVar[dict[str, tuple[Any, ...]]] = {
        "keng_hand_size": (6, 8),
        "keng_hand_limit": (18, 32),
        "keng_tens": (True, False),
        "keng_black_jokers": (3, 6),
        "keng_red_jokers": (3, 6),
        "keng_rj_stack_value": (3, 4),
        "keng_k_on_rj": (True, False),
        "keng_pair_action": ("each", "once"),
        "keng_draw_when_able": (True, False),
    }

    keng_hand_size: int = 7
    keng_hand_limit: int = 25
    keng_tens: bool = True
    keng_black_jokers: int = 3
    keng_red_jokers: int = 3
    keng_rj_stack_value: int = 3
    keng_k_on_rj: bool = False
    keng_pair_action: str = "each"
    keng_draw_when_able: bool = False
