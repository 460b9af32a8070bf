"""The three 六人斗地主 variants as game objects (``ddz6_3v3``, ``ddz6_2v4``,
``ddz6_zhengfan``): one object per variant with the names of ``engine.games.GameModule``, all
sharing the package's code; the registry entry ``"ddz6_2v4": "engine.games.ddz6:2v4"`` finds
``VARIANTS["2v4"]``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import Any

from engine.events import Event
from engine.games.ddz6 import game, info, position, render
from engine.games.ddz6.bots import POLICIES
from engine.games.ddz6.cards import VARIANTS as VARIANT_NAMES
from engine.games.ddz6.options import OPTIONS
from engine.games.ddz6.state import DdzState
from engine.games.frame import FORMED_SIDES

COMMON_KINDS = ("GAME_START", "DEAL", "PLAY", "PASS", "ROUND_END", "HAND_END", "GAME_END")
CONFORMANCE = {
    "3v3": {"option_sets": [{}, {"wings_3v3": "no_bomb", "choice_seconds": 10}],
            "kinds": ("CASE", "BID", "BID_END", "DOUBLE", "REVEAL")},
    "2v4": {"option_sets": [{}, {"no_bomb_autowin": "farmers", "airplane_order": "chain",
                                 "base_score": 2}],
            "kinds": ("BID", "BID_END", "LANDLORDS", "KITTY", "SHOW_HAND", "SHOW_END")},
    "zhengfan": {"option_sets": [{}, {"no_bomb_autowin": "off", "qixingju_lock": "off"}],
                 "kinds": ("LANDLORDS", "KITTY", "SIDE_CHOICE", "SIDES_END", "SHOW_HAND",
                           "SHOW_END")},
}

# The demo corpus and the conformance suite also play with bots whose decisions sometimes time
# out, so that they hold the engine's marked defaults (DDZ-75; bots.TimeoutPolicy).
SIM_POLICY = "random_timeouts"

SHARED = ("seat_count", "step", "apply", "check", "legal_actions", "auto_event", "next_auto",
          "to_move", "is_over", "session_start", "check_session", "result", "outcomes",
          "face_counts")


class Variant:
    """One variant of 六人斗地主 as a registered game."""

    RULE_PREFIX = "DDZ"
    RULES_VERSION = game.RULES_VERSION
    SIDES = FORMED_SIDES
    POLICIES = POLICIES

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.GAME_ID = game.game_id_of(variant)
        self.TITLE = game.TITLES[variant]
        self.Options = OPTIONS[variant]
        self.DEMO: dict[str, Any] = {"weight": 1, "option_sets": [{}], "session_games": 1,
                                     "policy": SIM_POLICY}
        data = CONFORMANCE[variant]
        self.CONFORMANCE: dict[str, Any] = {
            "option_sets": data["option_sets"], "games": 8,
            "required_kinds": COMMON_KINDS + data["kinds"], "policies": (SIM_POLICY,)}
        for name in SHARED:
            setattr(self, name, getattr(game, name))
        self.sides = info.sides
        self.view = info.view
        self.cards_visible = info.cards_visible
        self.seen_event = partial(info.seen_event, variant=variant)
        self.to_position = position.to_position
        self.from_position = position.from_position
        self.render = render.render

    def start_event(self, game_id: str, players: Sequence[str], rng: random.Random,
                    options: Any = None, **kw: Any) -> Event:
        """GAME_START of this variant (DDZ-6, DDZ-7)."""
        return game.start_event(self.variant, game_id, players, rng, options, **kw)

    def initial_state(self, e0: Event) -> DdzState:
        """The state right after GAME_START."""
        return game.initial_state(self.variant, e0)

    def __repr__(self) -> str:
        return f"<六人斗地主 variant {self.GAME_ID}>"


VARIANTS = {name: Variant(name) for name in VARIANT_NAMES}
