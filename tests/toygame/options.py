"""House-rule options of 小墩 (TRICK-2), validated with their allowed ranges."""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.frame import OptionsBase


@dataclass(frozen=True, slots=True)
class ToyOptions(OptionsBase):
    """The options of one game; every field is recorded in GAME_START (TRICK-2)."""

    RULE = "TRICK-2"
    ALLOWED = {
        "trick_players": (2, 4),
        "trick_hand_size": (1, 13),
        "trick_last_bonus": (True, False),
    }

    trick_players: int = 4
    trick_hand_size: int = 5
    trick_last_bonus: bool = False
