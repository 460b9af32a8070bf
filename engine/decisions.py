"""Decision points: one row for every point where a seat chose between options of different
kinds, derived from a replay through the engine (docs/decisions.md).

Each registered game declares its categories as the ``decisions`` field of its ``Game``
(``engine.games.base.DecisionHooks``, built from the package's ``decisions`` module):

- ``DECISIONS``: ``(category, description)`` of every option category, rule ids named;
- ``TAGS`` and ``PHASES``: the game facts a row may carry and the game's phase words;
- ``STANDING``: ``{take: lapse}`` for the standing out-of-turn options (a 抢, a report) that a
  seat may take at any moment or let lapse: each is a decision of its own between the two;
- ``decision(state, event) -> Decision | None``, given the state *before* the event: None when
  the event is no seat's choice or the seat had options of one category only;
- ``lapsed(state, event) -> tuple[Decision, ...]``: the standing options this event ends
  unused (a 抢 let go when the window closes), one row per seat that had one;
- ``action_category(state, action) -> str | None``: the category of a listed legal action
  (None: no decision category, e.g. a 数牌 count or an automatic event); the test over seeded
  self-play of every game checks that ``decision`` agrees with ``legal_actions``;
- ``opposite_seat(seat, n_seats) -> int``: the seat opposite (对门 / 对头), -1 where the game
  has none;
- optionally, for speed, ``BY_KIND`` (event kind -> the function ``decision`` calls for it)
  and ``LAPSING`` (the kinds ``lapsed`` may return rows for): the collector then calls only
  what an event's kind needs.

``DecisionCollector`` turns decisions into rows of ``DECISIONS_ARROW`` while a game is
validated (``observe(state_before, event)`` before each step); ``Collecting`` makes it an
observer of ``engine.replay.fold``; ``decisions_table`` replays a whole game;
``validate_collecting`` is the fold feeding a collector.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import accumulate
from typing import Any, NamedTuple, cast

import pyarrow as pa

from engine.errors import EngineError
from engine.events import Event
from engine.games import GAMES, find_game
from engine.games.base import DecisionHooks, Game
from engine.replay import Observer, ObserverError, Verdict, fold, game_type

NONE, SELF, TEAMMATE, OPPOSITE, OPPONENT = "none", "self", "teammate", "opposite", "opponent"
RELATIONS = (NONE, SELF, TEAMMATE, OPPOSITE, OPPONENT)
FLUSH_ROWS = 4096


class Decision(NamedTuple):
    """One seat's choice at one point: the option categories it had and the one it chose,
    with the game facts stats condition on (``tags``) and the generic state facts."""

    seat: int
    options: frozenset[str]
    chosen: str
    tags: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()     # the cards chosen (a play, a snatch, a gift), else ()
    hand: int = -1                  # cards in hand before the choice
    phase: str = ""                 # the game's phase word (docs/decisions.md)
    can_answer: bool = False        # the seat could answer the top play (game's definition)
    top_seat: int = -1              # who made the top play, -1 none


DECISIONS_ARROW = pa.schema([
    pa.field("game_id", pa.string(), nullable=False),
    pa.field("game", pa.string(), nullable=False),
    pa.field("seq", pa.uint32(), nullable=False),
    pa.field("seat", pa.int8(), nullable=False),
    pa.field("player_id", pa.string(), nullable=False),
    pa.field("options", pa.list_(pa.string()), nullable=False),
    pa.field("chosen", pa.string(), nullable=False),
    pa.field("cards", pa.list_(pa.uint8()), nullable=False),
    pa.field("hand", pa.int16(), nullable=False),
    pa.field("phase", pa.string(), nullable=False),
    pa.field("side", pa.string(), nullable=True),
    pa.field("can_answer", pa.bool_(), nullable=False),
    pa.field("top_seat", pa.int8(), nullable=False),
    pa.field("top_relation", pa.string(), nullable=False),
    pa.field("tags", pa.list_(pa.string()), nullable=False),
], metadata={"liujia.table": "decisions"})
COLUMNS = tuple(DECISIONS_ARROW.names)


class OptionSets(dict):
    """A game's masks of category bits to the frozensets of their category names, each made
    once, on first use (``sets[mask]``; the games' decision hooks index it per event)."""

    def __init__(self, bits: dict[str, int]) -> None:
        super().__init__()
        self.bits = bits

    def __missing__(self, mask: int) -> frozenset[str]:
        found = self[mask] = frozenset(c for c, b in self.bits.items() if mask & b)
        return found


class DecisionError(ObserverError):
    """A game's decision hook failed on an event the engine accepted (a bug to report)."""


def decisions_module(game: str) -> DecisionHooks:
    """The decision hooks of a registered game id (the ``decisions`` of its ``Game``)."""
    return find_game(game).decisions


def categories(game: str) -> tuple[tuple[str, str], ...]:
    """A game's option categories with their descriptions (its ``DECISIONS``)."""
    return tuple(decisions_module(game).DECISIONS)


def relation(sides: Sequence[str | None], opposite: int, seat: int, other: int) -> str:
    """How ``other`` relates to ``seat``: none (-1), self, teammate (same side), opposite (the
    seat across, 对门), else opponent; ``opposite`` is seat's opposite seat or -1."""
    if other < 0:
        return NONE
    if other == seat:
        return SELF
    side = sides[seat]
    if side is not None and sides[other] == side:
        return TEAMMATE
    return OPPOSITE if other == opposite else OPPONENT


class _Everything:
    """A stand-in for BY_KIND / LAPSING of a decisions module without them: every kind."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def get(self, kind: str) -> Any:
        """The same value for every kind."""
        return self.value

    def __contains__(self, kind: object) -> bool:
        return True


_HOOKS: dict[str, tuple[Any, ...]] = {}
_RELATIONS: dict[tuple[Any, ...], list[list[str]]] = {}


def _hooks(game: str) -> tuple[Any, ...]:
    """(game module, decisions module, by kind, lapsing kinds, fixed sides) of a game id,
    found once per process."""
    found = _HOOKS.get(game)
    if found is None:
        module, hooks = find_game(game), decisions_module(game)
        found = _HOOKS[game] = (
            module, hooks, hooks.BY_KIND or _Everything(hooks.decision),
            hooks.LAPSING or _Everything(True),
            module.SIDES in ("none", "fixed"))
    return found


class _Game:
    """What the collector keeps about the game being observed."""

    __slots__ = ("id", "game", "module", "hooks", "by_kind", "lapsing", "lapsed", "fixed",
                 "sides", "relations", "players", "key", "codes", "pcodes")

    def __init__(self, start: Event, game: str | None, key: int, codes: dict[str, int]) -> None:
        self.id = start.game_id
        self.game = game if game is not None else game_type(start)
        self.key = key                   # the game's number in the collector (rows hold it)
        self.codes = codes               # the collector's player numbers
        self.pcodes: tuple[int, ...] = ()
        self.module, self.hooks, self.by_kind, self.lapsing, self.fixed = _hooks(self.game)
        self.lapsed = self.hooks.lapsed
        self.sides: tuple[str | None, ...] | None = None
        self.relations: list[list[str]] = []
        self.players: tuple[str, ...] = ()

    def table_facts(self, state: Any) -> None:
        """Players, and for fixed sides (or none) the sides and the relation of every pair of
        seats (``relations`` stays empty for sides formed during the game)."""
        self.players = tuple(state.players)
        codes = self.codes
        self.pcodes = tuple(codes.setdefault(p, len(codes)) for p in self.players)
        n = len(self.players)
        self.sides = tuple(self.module.sides(state, None))
        if not self.fixed:
            return
        key = (self.game, self.sides)
        rel = _RELATIONS.get(key)
        if rel is None:
            opp = self.hooks.opposite_seat
            # rel[seat][top], and rel[seat][-1] == NONE (no top play: top_seat -1)
            rel = _RELATIONS[key] = [[relation(self.sides, opp(a, n), a, b) for b in range(n)]
                                     + [NONE] for a in range(n)]
        self.relations = rel


class DecisionCollector:
    """Decision rows of validated games, fed one event at a time: ``begin(start)``, then
    ``observe(state_before, event)`` before each event is stepped, ``end()`` once the game is
    accepted or ``discard()`` when it is refused; ``table()`` gives every kept row."""

    def __init__(self) -> None:
        # one flat tuple per row, in the column order of DECISIONS_ARROW (the game id and the
        # game as the game's number in _games, the player as its number in _players, options
        # and tags as numbers, see _code);
        # the rows of ended games go to Arrow every FLUSH_ROWS, so that few Python objects
        # live long (the garbage collector would scan them again and again)
        self._rows: list[tuple[Any, ...]] = []
        self._batches: list[pa.RecordBatch] = []
        self._game: _Game | None = None
        self._mark = 0
        self._error: tuple[Event, BaseException] | None = None
        # option sets and tag tuples, each numbered once: rows hold their numbers
        self._codes: dict[Any, int] = {}
        self._values: list[list[str]] = []
        # rows hold numbers for the game (id and registry id) and the player, too
        self._games: list[tuple[str, str]] = []
        self._players: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._rows) + sum(b.num_rows for b in self._batches)

    def begin(self, start: Event, game: str | None = None) -> None:
        """Start collecting a game from its GAME_START (raises EngineError for an unknown
        game; ``game``, its registry id when the caller knows it, saves reading the start's
        payload); rows of a previous game not ended are dropped."""
        if self._game is not None:
            self.discard()
        self._game = g = _Game(start, game, len(self._games), self._players)
        self._games.append((g.id, g.game))
        self._mark = len(self._rows)
        self.observe = self._observer(self._game)          # type: ignore[method-assign]

    def observe(self, state: Any, event: Event) -> None:
        """Record the decisions of ``event`` in ``state`` (the state before it). A failure of
        the hook is held until the next call: if the engine accepted the event (the caller
        goes on), it is raised as DecisionError; a refused game is discarded with it.
        (``begin`` replaces this method by one made for its game.)"""
        raise EngineError("DecisionCollector.observe before begin")

    def _observer(self, g: _Game) -> Any:
        """``observe`` for one game: its hooks and the row list bound as local names (it runs
        for every event replayed)."""
        by_kind, lapsing, lapsed, rows = g.by_kind, g.lapsing, g.lapsed, self._rows
        add, code = self._add, self._code

        def observe(state: Any, event: Event) -> None:
            """DecisionCollector.observe for this game."""
            if self._error is not None:
                self._raise()
            kind = event.kind
            decide = by_kind.get(kind)
            try:
                d = None if decide is None else decide(state, event)
                more = lapsed(state, event) if kind in lapsing else ()
            except Exception as exc:          # noqa: BLE001 - held, see observe
                self._error = (event, exc)
                return
            if d is not None:
                if g.relations:
                    seat, options, chosen, tags, cards, hand, phase, can, top = d
                    rows.append((g.key, g.key, event.seq, seat, g.pcodes[seat],
                                 code(options), chosen, cards, hand, phase,
                                 g.sides[seat], can, top, g.relations[seat][top], code(tags)))  # type: ignore[index]  # set by table_facts
                else:
                    add(g, state, event, d)
            for x in more:
                add(g, state, event, x)
        return observe

    def end(self) -> None:
        """The game was accepted: keep its rows (raises DecisionError if a hook failed)."""
        if self._error is not None:
            self._raise()
        self._game = None
        self.__dict__.pop("observe", None)
        if len(self._rows) >= FLUSH_ROWS:
            self._batches.append(self._batch(self._rows))
            self._rows.clear()
        self._mark = len(self._rows)

    def discard(self) -> None:
        """The game was refused: drop its rows."""
        del self._rows[self._mark:]
        self._game = None
        self._error = None
        self.__dict__.pop("observe", None)

    def table(self) -> pa.Table:
        """Every kept row (of ended games) as an Arrow table in ``DECISIONS_ARROW``."""
        kept = self._rows[:self._mark]
        batches = self._batches + ([self._batch(kept)] if kept else [])
        return pa.Table.from_batches(batches, schema=DECISIONS_ARROW)

    def _raise(self) -> None:
        assert self._error is not None, "a hook failed"
        event, exc = self._error
        self._error = None
        raise DecisionError(f"the decision hook of {self._game.game if self._game else '?'} "
                            f"failed on {event.describe()} of game {event.game_id}: "
                            f"{type(exc).__name__}: {exc}") from exc

    def _code(self, value: frozenset[str] | tuple[str, ...]) -> int:
        """The number of an option set or a tag tuple (sorted into a list once)."""
        found = self._codes.get(value)
        if found is None:
            found = self._codes[value] = len(self._values)
            self._values.append(sorted(value))
        return found

    def _batch(self, rows: list[tuple[Any, ...]]) -> pa.RecordBatch:
        """Rows (tuples in the column order of ``DECISIONS_ARROW``, options and tags as
        numbers) as a record batch, built from buffers: ``pa.array`` would import pandas
        (~0.5 s in each process) and builds list values one by one."""
        (gid, _, seq, seat, player, options, chosen, cards, hand, phase, side, can, top,
         rel, tags) = zip(*rows, strict=True)
        games = _ints(pa.int32(), "i", gid)
        names = self._values
        faces = b"".join(map(bytes, cards))
        values = _list_array(pa.list_(pa.string()), map(len, names),
                             _words([w for v in names for w in v]))
        arrays = [
            _texts([i for i, _ in self._games]).take(games),
            _texts([k for _, k in self._games]).take(games),
            _ints(pa.uint32(), "I", seq), _ints(pa.int8(), "b", seat),
            _texts(list(self._players)).take(_ints(pa.int32(), "i", player)),
            values.take(_ints(pa.int32(), "i", options)), _words(chosen),
            _list_array(pa.list_(pa.uint8()), map(len, cards),
                        pa.Array.from_buffers(pa.uint8(), len(faces),
                                              [None, pa.py_buffer(faces)])),
            _ints(pa.int16(), "h", hand), _words(phase), _words(side),
            _ints(pa.uint8(), "B", can).cast(pa.bool_()), _ints(pa.int8(), "b", top), _words(rel),
            values.take(_ints(pa.int32(), "i", tags)),
        ]
        return pa.RecordBatch.from_arrays(arrays, schema=DECISIONS_ARROW)

    def _add(self, g: _Game, state: Any, e: Event, d: Decision) -> None:
        """Append a row: one flat tuple of strings, ints and tuples of them, which the
        garbage collector stops tracking (a row holding a set or an object would be scanned
        at every collection while the rows pile up)."""
        if g.sides is None:
            g.table_facts(state)
        seat, options, chosen, tags, cards, hand, phase, can, top = d
        if g.relations:
            side, rel = g.sides[seat], g.relations[seat][top]  # type: ignore[index]  # set by table_facts
        else:
            sides = tuple(g.module.sides(state, seat))
            side = sides[seat]
            rel = relation(sides, g.hooks.opposite_seat(seat, len(sides)), seat, top)
        self._rows.append((g.key, g.key, e.seq, seat, g.pcodes[seat], self._code(options),
                           chosen, cards, hand, phase, side, can, top, rel, self._code(tags)))


def _ints(type_: pa.DataType, code: str, col: Sequence[int]) -> pa.Array:
    """An integer column (``code``: the array.array typecode of ``type_``)."""
    return pa.Array.from_buffers(type_, len(col), [None, pa.py_buffer(array(code, col))])


def _list_array(type_: pa.DataType, lengths: Any, child: pa.Array) -> pa.Array:
    """A list array of the child's values cut at the lengths (no nulls)."""
    offsets = array("i", accumulate(lengths, initial=0))
    return pa.Array.from_buffers(type_, len(offsets) - 1, [None, pa.py_buffer(offsets)],
                                 children=[child])


def _texts(values: Sequence[str]) -> pa.Array:
    """A string array of the values, in order (no nulls)."""
    data = [v.encode() for v in values]
    return pa.Array.from_buffers(
        pa.string(), len(data),
        [None, pa.py_buffer(array("i", accumulate(map(len, data), initial=0))),
         pa.py_buffer(b"".join(data))])


def _words(col: Sequence[str | None]) -> pa.Array:
    """A string column of few distinct values (None: null): each value encoded once, then
    taken by index (the indices are looked up by ``map``, with no Python code per row)."""
    distinct = list(dict.fromkeys(col))
    codes = {v: i for i, v in enumerate(distinct)}
    index = array("i", map(codes.__getitem__, col))
    data = [b"" if v is None else v.encode() for v in distinct]
    nulls = None
    if None in codes:
        nulls = pa.py_buffer((((1 << len(distinct)) - 1) & ~(1 << codes[None])).to_bytes(
            (len(distinct) + 7) // 8, "little"))
    words = pa.Array.from_buffers(
        pa.string(), len(distinct),
        [nulls, pa.py_buffer(array("i", accumulate(map(len, data), initial=0))),
         pa.py_buffer(b"".join(data))])
    return words.take(pa.Array.from_buffers(pa.int32(), len(index),
                                            [None, pa.py_buffer(index)]))


class Collecting(Observer):
    """A DecisionCollector as an observer of ``engine.replay.fold``: the game's rows are kept
    when it replays to its end, discarded otherwise."""

    def __init__(self, collector: DecisionCollector) -> None:
        self.collector = collector

    def begin(self, game: Game, state: Any, start: Event) -> None:
        """Start the game's rows."""
        self.collector.begin(start, game.GAME_ID if game.GAME_ID in GAMES else None)
        self.before = self.collector.observe

    def end(self, verdict: Verdict) -> None:
        """Keep the rows of a game that ended, drop the others."""
        if verdict.status == "ok":
            self.collector.end()
        else:
            self.collector.discard()


def validate_collecting(events: Sequence[Event], collector: DecisionCollector) -> Verdict:
    """``engine.replay.validate_events`` that feeds the collector: the game's rows are kept
    when it replays to its end, discarded otherwise; never raises for bad events (a failing
    decision hook on an accepted event raises DecisionError: a bug)."""
    if not events:
        return Verdict("", "incomplete", 0, EngineError("no events"))
    try:
        return fold(events, (Collecting(collector),))
    except DecisionError:
        collector.discard()
        raise


def decisions_table(events: Sequence[Event]) -> pa.Table:
    """The decision rows of one whole game, by replaying it (raises the engine's error when
    the game is not valid to its end)."""
    collector = DecisionCollector()
    v = validate_collecting(events, collector)
    if v.status != "ok":
        raise cast(EngineError, v.error)
    return collector.table()


def decisions_of_games(games: Sequence[Sequence[Event]]) -> pa.Table:
    """The decision rows of several games (each replayed; raises on the first invalid one)."""
    collector = DecisionCollector()
    for events in games:
        v = validate_collecting(events, collector)
        if v.status != "ok":
            raise cast(EngineError, v.error)
    return collector.table()
