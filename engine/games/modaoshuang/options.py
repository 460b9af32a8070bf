"""House-rule options of 摸到爽 (modaoshuang.md section 4), validated with their allowed ranges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.games.frame import REQUIRED, OptionsBase

DEFAULT_HAND_SIZE = {3: 6, 4: 5, 5: 5}   # MDS-9: 6 cards with 3 players, 5 with 4 or 5


@dataclass(frozen=True, slots=True)
class ModaoshuangOptions(OptionsBase):
    """The options of one game; every field is recorded in GAME_START (MDS-7). The number of
    players is a game parameter without default."""

    RULE = "MDS-7"
    ALLOWED = {
        "mds_players": (3, 4, 5),
        "mds_hand_size": (3, 8),
        "mds_zhamo": (True, False),
        "mds_settlement": ("negative", "chips"),
        "mds_joker_violation": ("penalty", "illegal"),
        "mds_one_card_report": (True, False),
        "mds_dianpao": ("leader", "preceding"),
    }

    mds_players: int = REQUIRED  # type: ignore[assignment]
    # None only while the options are built: resolve_defaults fills it in (MDS-9).
    mds_hand_size: int = None  # type: ignore[assignment]
    mds_zhamo: bool = True
    mds_settlement: str = "negative"
    mds_joker_violation: str = "penalty"
    mds_one_card_report: bool = False
    mds_dianpao: str = "leader"

    def resolve_defaults(self) -> None:
        """The hand size defaults to 6 with 3 players and 5 with 4 or 5 (MDS-9)."""
        self.set_default("mds_hand_size", DEFAULT_HAND_SIZE.get(self.mds_players, 5))


def options_from(value: Any, players: int) -> ModaoshuangOptions:
    """Options given as None (defaults for this many players), a dict or an options object."""
    if value is None:
        return ModaoshuangOptions(mds_players=players)
    if isinstance(value, dict):
        return ModaoshuangOptions(**{"mds_players": players, **value})
    return value
