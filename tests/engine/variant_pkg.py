"""A stand-in package registering two variants of one game (for the registry tests): each
variant is a declared ``Game`` with the 六人坑 parts and its own id and title."""

from __future__ import annotations

import dataclasses

from engine.games import keng
from engine.games.base import Game


def _variant(game_id: str, title: str) -> Game:
    return dataclasses.replace(keng.GAME, GAME_ID=game_id, TITLE=title)


VARIANTS = {"a": _variant("toy_a", "toy A"), "b": _variant("toy_b", "toy B")}
