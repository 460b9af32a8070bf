"""House-rule options of 够级 (gouji.md section 4), validated with their allowed values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.games.frame import OptionsBase


@dataclass(frozen=True, slots=True)
class GoujiOptions(OptionsBase):
    """The house rules of one game; every field is recorded in GAME_START (GJ-48)."""

    RULE: ClassVar[str] = "GJ-48"
    ALLOWED: ClassVar[dict[str, tuple[Any, ...]]] = {
        "kaidian_effect": ("burn_licence", "record"),
        "men_scope": ("single_three", "threes_only"),
        "judged_counts_as_out": (True, False),
    }

    kaidian_effect: str = "burn_licence"
    men_scope: str = "single_three"
    judged_counts_as_out: bool = True

    @property
    def burn_licence(self) -> bool:
        """True when only opened players may burn (GJ-37)."""
        return self.kaidian_effect == "burn_licence"
