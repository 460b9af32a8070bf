"""六人坑 (keng): rules KENG-1 … KENG-51 of docs/rules/keng.md."""

from engine.games.keng.game import *  # noqa: F403
from engine.games.keng.game import __all__ as _game_all
from engine.games.keng.options import KengOptions
from engine.games.keng.position import cards_visible, from_position, to_position, view
from engine.games.keng.render import render

Options = KengOptions
__all__ = [*_game_all, "KengOptions", "Options", "from_position", "to_position", "view", "cards_visible",
           "render"]
