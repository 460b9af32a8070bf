"""House-rule options of 六人斗地主 (ddz6.md section 3), one options class per deck count.

``ddz6_3v3`` has ``wings_3v3`` and ``choice_seconds``; the 4-deck variants have ``base_score``,
``airplane_order``, ``no_bomb_autowin``, ``qixingju_lock`` and ``choice_seconds``. Every option
is recorded in GAME_START with its value, defaults written out (DDZ-6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.games.frame import OptionsBase

MAX_BASE_SCORE = 1_000_000       # "integer ≥ 1": a bound so that amounts stay plain integers


@dataclass(frozen=True, slots=True)
class Options3v3(OptionsBase):
    """The options of a ddz6_3v3 hand (DDZ-6)."""

    RULE = "DDZ-6"
    ALLOWED = {
        "wings_3v3": ("any", "no_bomb"),
        "choice_seconds": (1, 60),
    }

    wings_3v3: str = "any"
    choice_seconds: int = 5


@dataclass(frozen=True, slots=True)
class Options4Deck(OptionsBase):
    """The options of a ddz6_2v4 or ddz6_zhengfan hand (DDZ-6)."""

    RULE = "DDZ-6"
    ALLOWED = {
        "base_score": (1, MAX_BASE_SCORE),
        "airplane_order": ("seed", "chain"),
        "no_bomb_autowin": ("landlord", "farmers", "off"),
        "qixingju_lock": ("on", "off"),
        "choice_seconds": (1, 60),
    }

    base_score: int = 1
    airplane_order: str = "seed"
    no_bomb_autowin: str = "landlord"
    qixingju_lock: str = "on"
    choice_seconds: int = 5


OPTIONS = {"3v3": Options3v3, "2v4": Options4Deck, "zhengfan": Options4Deck}


def options_from(variant: str, value: Any) -> Any:
    """A variant's options given as None (the defaults), a dict or an options object."""
    cls = OPTIONS[variant]
    if value is None:
        return cls()
    if isinstance(value, dict):
        return cls(**value)
    if not isinstance(value, cls):
        raise TypeError(f"options for ddz6_{variant} must be {cls.__name__}")
    return value
