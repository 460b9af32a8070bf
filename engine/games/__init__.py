"""Registry of the games the engine knows: ``find_game("keng")`` returns the declared
``Game`` (``engine.games.base``) of a game id.

Every layer outside ``engine/games`` (self-play, replay, ingest, warehouse, dashboards, the
``liujia`` command, the conformance suite) reaches a game only through that object, so adding
a game is adding its package (which declares ``GAME``), its rules text and one entry to
``GAMES``. An entry is ``"package"`` (the package's ``GAME``) or ``"package:NAME"`` (a variant:
the package's ``VARIANTS[NAME]``, so that one package may register several variants sharing
its code). ``register`` adds a game at run time (a test's game, a plug-in).

Plug-in games: the environment variable ``LIUJIA_GAMES`` (``PLUGIN_ENV``) lists games to
register when this module is imported, ``id=module[:NAME]`` entries separated by commas, e.g.
``LIUJIA_GAMES="toy_tricks=tests.toygame"``, so that every process started with it (an ingest
worker, a ``liujia`` command) knows the same games; the module is imported only when the game
is first looked up (docs/engine.md, *Plug-in games*).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Sequence

from engine.errors import EngineError
from engine.events import Event
from engine.games.base import Game, never_hidden

GAMES = {
    "keng": "engine.games.keng",
    "gouji": "engine.games.gouji",
    "modaoshuang": "engine.games.modaoshuang",
    "ddz6_3v3": "engine.games.ddz6:3v3",
    "ddz6_2v4": "engine.games.ddz6:2v4",
    "ddz6_zhengfan": "engine.games.ddz6:zhengfan",
    "liuhu": "engine.games.liuhu",
}
# The games liujia ships (the entries above): what the shipped CJK font subset
# (tools/font_subset.py) covers; a plug-in game's characters outside it fall back to the
# system fonts.
BUILT_IN: tuple[str, ...] = tuple(GAMES)
# What must be known of a built-in game without loading it (the top-level help, `liujia rules`
# start in a fraction of a second): its title, rule-id prefix and rules text. A test checks
# each against the game's declared ``Game``; a plug-in game is loaded to be asked.
ABOUT: dict[str, tuple[str, str, tuple[str, str]]] = {
    "keng": ("六人坑", "KENG", ("engine", "rules/keng.md")),
    "gouji": ("够级", "GJ", ("engine", "rules/gouji.md")),
    "modaoshuang": ("摸到爽", "MDS", ("engine", "rules/modaoshuang.md")),
    "ddz6_3v3": ("六人斗地主 (三打三)", "DDZ", ("engine", "rules/ddz6.md")),
    "ddz6_2v4": ("新六人斗地主 (二打四)", "DDZ", ("engine", "rules/ddz6.md")),
    "ddz6_zhengfan": ("正反六人斗地主", "DDZ", ("engine", "rules/ddz6.md")),
    "liuhu": ("扑克六湖", "LH", ("engine", "rules/liuhu.md")),
}


_SHIPPED = dict(GAMES)
_CACHE: dict[str, Game] = {}
PLUGIN_ENV = "LIUJIA_GAMES"
_ENTRY = re.compile(r"([A-Za-z0-9_]+)=([A-Za-z_][A-Za-z0-9_.]*(?::[A-Za-z0-9_]+)?)")


def seen_numbers(game: Game, events: Sequence[Event], seat: int | None) -> list[int]:
    """Each event's number as the seat counts them (-1: it did not see it happen, the game's
    ``event_hidden``): the events it saw numbered 0, 1, 2, …; the auditor's (None) are the
    seqs."""
    hidden = game.event_hidden
    if seat is None or hidden is never_hidden:
        return [e.seq for e in events]
    out: list[int] = []
    n = 0
    for e in events:
        if hidden(e, seat):
            out.append(-1)
        else:
            out.append(n)
            n += 1
    return out


def about(game: str) -> tuple[str, str, tuple[str, str]]:
    """A game's (title, rule-id prefix, rules file): a built-in game's without loading it."""
    if game in ABOUT and GAMES.get(game) == _SHIPPED.get(game):
        return ABOUT[game]
    g = find_game(game)
    return g.TITLE, g.RULE_PREFIX, g.RULES_FILE


def find_game(game: str) -> Game:
    """The declared game of a game id, e.g. ``find_game("keng")``."""
    found = _CACHE.get(game)
    if found is not None:
        return found
    try:
        path = GAMES[game]
    except (KeyError, TypeError):
        raise EngineError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}") from None
    module_name, _, variant = path.partition(":")
    try:
        module = importlib.import_module(module_name)
        declared = module.VARIANTS[variant] if variant else module.GAME
    except (ImportError, AttributeError, KeyError, TypeError) as exc:
        raise EngineError(f"registry entry {game!r} ({path}) cannot be loaded: "
                          f"{type(exc).__name__}: {exc}") from None
    if not isinstance(declared, Game) or declared.GAME_ID != game:
        raise EngineError(f"registry entry {game!r} ({path}) is not the declared Game of "
                          f"{game!r}")
    _CACHE[game] = declared
    return declared


def register(game_id: str, path: str) -> None:
    """Add a game to the registry (``GAMES[game_id] = path``), as a test or plug-in does."""
    if game_id in GAMES and GAMES[game_id] != path:
        raise EngineError(f"game {game_id!r} is registered already ({GAMES[game_id]})")
    GAMES[game_id] = path
    _CACHE.pop(game_id, None)


def package_of(game: str) -> str:
    """The last part of a game's package name ('keng', 'ddz6'), for the tests' data files."""
    return GAMES[game].partition(":")[0].rsplit(".", 1)[-1]


def plugin_entries(spec: str) -> dict[str, str]:
    """The games a ``LIUJIA_GAMES`` value lists: ``"id=module[:NAME],..."`` -> {id: path};
    a malformed entry is an EngineError naming it."""
    out: dict[str, str] = {}
    for entry in (x.strip() for x in spec.split(",")):
        if not entry:
            continue
        m = _ENTRY.fullmatch(entry)
        if m is None:
            raise EngineError(f"{PLUGIN_ENV}: entry {entry[:80]!r} is not id=module[:NAME] "
                              "(e.g. toy_tricks=tests.toygame)")
        out[m.group(1)] = m.group(2)
    return out


def register_plugins(spec: str | None = None) -> list[str]:
    """Register the games of a ``LIUJIA_GAMES`` value (default: the environment's); returns
    their ids."""
    entries = plugin_entries(os.environ.get(PLUGIN_ENV, "") if spec is None else spec)
    for game_id, path in entries.items():
        register(game_id, path)
    return list(entries)


register_plugins()
