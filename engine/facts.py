"""Game facts: what happened to each seat in a game — held or played a combination, a role or
side taken, a place, a special event — counted per seat per game with the seq where each first
happened, derived from the replay that validates the game (docs/facts.md).

Each registered game declares its catalog as the ``facts`` field of its ``Game``
(``FactHooks``): ``FACTS``, the catalog (``Fact``: name, readable label with the game's own
term, description citing rule ids), and ``after(state, event)``, called with the state *after*
each accepted event, returning the ``(seat, fact)`` pairs the event makes happen (a pair listed
twice counts twice). ``KINDS``, when given, names the event kinds ``after`` may return pairs
for: the collector calls it only for those.

``FactCollector`` is an observer of ``engine.replay.fold``: a game's rows are kept when it
replays to its end and dropped otherwise; ``table()`` gives the rows in ``FACTS_ARROW`` (game,
seat, player, fact, count, first seq). Ingest stores them in the warehouse's ``facts`` table;
``liujia find`` and the dashboard's Search page query it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import pyarrow as pa

from engine.decisions import _ints, _words
from engine.errors import EngineError
from engine.events import Event
from engine.games.base import Fact, FactHooks
from engine.replay import Observer, ObserverError, Verdict, fold

FACT_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")

FACTS_ARROW = pa.schema([
    pa.field("game_id", pa.string(), nullable=False),
    pa.field("game", pa.string(), nullable=False),
    pa.field("seat", pa.int8(), nullable=False),
    pa.field("player_id", pa.string(), nullable=False),
    pa.field("fact", pa.string(), nullable=False),
    pa.field("count", pa.int32(), nullable=False),
    pa.field("first_seq", pa.uint32(), nullable=False),
], metadata={"liujia.table": "facts"})


class _Every:
    """Stands for the KINDS of hooks that name none: every kind."""

    __slots__ = ()

    def __contains__(self, kind: object) -> bool:
        return True


class FactError(ObserverError):
    """A game's fact hook failed on an event the engine accepted, or returned a fact not in
    its catalog or a seat that is not one (a bug to report)."""


class FactCollector(Observer):
    """Fact rows of validated games: an observer of ``engine.replay.fold`` (``begin``, then
    ``after`` each accepted event, then ``end``); ``table()`` gives every kept row."""

    def __init__(self) -> None:
        # kept rows, one tuple each in the column order of FACTS_ARROW
        self._rows: list[tuple[str, str, int, str, str, int, int]] = []
        self._counts: dict[tuple[int, str], list[int]] = {}
        self._game_id = ""
        self._game = ""
        self._players: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self._rows)

    def begin(self, game: Any, state: Any, start: Event) -> None:
        """Start counting a game's facts (its ``facts`` hooks bound for the fold)."""
        hooks: FactHooks = game.facts
        self._game_id, self._game = start.game_id, game.GAME_ID
        self._players = tuple(str(p) for p in getattr(state, "players", ()))
        self._counts = {}
        known = frozenset(hooks.names())
        if not hooks.FACTS:
            self.after = None
            return
        self.after_kinds = hooks.KINDS
        counts, find, n = self._counts, hooks.after, len(self._players)
        kinds = hooks.KINDS if hooks.KINDS is not None else _Every()

        def after(state: Any, event: Event) -> None:
            """Count the facts this event makes happen."""
            if event.kind not in kinds:
                return
            try:
                for seat, fact in find(state, event):
                    c = counts.get((seat, fact))
                    if c is not None:
                        c[0] += 1
                    elif fact in known and 0 <= seat < n:
                        counts[(seat, fact)] = [1, event.seq]
                    else:
                        raise ValueError(f"({seat}, {fact!r}) is not a seat and a fact of "
                                         "the catalog")
            except Exception as exc:
                raise FactError(f"the fact hook of {self._game} failed on {event.describe()} "
                                f"of game {event.game_id}: {type(exc).__name__}: {exc}") from exc

        self.after = after

    def end(self, verdict: Verdict) -> None:
        """Keep the facts of a game that ended, drop the others."""
        if verdict.status == "ok":
            gid, game, players = self._game_id, self._game, self._players
            for (seat, fact), (count, first) in sorted(self._counts.items()):
                self._rows.append((gid, game, seat, players[seat], fact, count, first))
        self._counts = {}

    def table(self) -> pa.Table:
        """Every kept row as an Arrow table in ``FACTS_ARROW``."""
        if not self._rows:
            return FACTS_ARROW.empty_table()
        gid, game, seat, player, fact, count, first = zip(*self._rows, strict=True)
        arrays = [_words(gid), _words(game), _ints(pa.int8(), "b", seat), _words(player),
                  _words(fact), _ints(pa.int32(), "i", count), _ints(pa.uint32(), "I", first)]
        return pa.Table.from_arrays(arrays, schema=FACTS_ARROW)


def facts_table(games: Sequence[Sequence[Event]]) -> pa.Table:
    """The fact rows of whole games, each replayed (raises the engine's error of the first
    game that is not valid to its end)."""
    collector = FactCollector()
    for events in games:
        v = fold(events, (collector,))
        if v.status != "ok":
            raise cast(EngineError, v.error)
    return collector.table()


def check_catalog(hooks: FactHooks) -> list[str]:
    """What is wrong with a fact catalog (empty: nothing): names snake_case and unique,
    labels and descriptions given."""
    problems: list[str] = []
    seen: set[str] = set()
    for f in hooks.FACTS:
        if not f.name or set(f.name) - FACT_NAME_CHARS:
            problems.append(f"fact name {f.name!r} is not snake_case")
        if f.name in seen:
            problems.append(f"fact {f.name!r} is declared twice")
        seen.add(f.name)
        if not f.label.strip() or not f.description.strip():
            problems.append(f"fact {f.name!r} needs a label and a description")
    return problems


__all__ = ["FACTS_ARROW", "Fact", "FactCollector", "FactError", "FactHooks", "check_catalog",
           "facts_table"]
