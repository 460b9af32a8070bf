"""A stand-in package registering two variants of one game (for the registry tests): each
variant is an object with the game's names and its own options and id."""

from __future__ import annotations

from types import SimpleNamespace

from engine.games import INTERFACE, keng


def _variant(game_id: str, title: str) -> SimpleNamespace:
    names = {n: getattr(keng, n) for n in INTERFACE}
    names.update(GAME_ID=game_id, TITLE=title)
    return SimpleNamespace(**names)


VARIANTS = {"a": _variant("toy_a", "toy A"), "b": _variant("toy_b", "toy B")}
