"""How people play: the ``decisions`` table, the games' tendency catalogs compiled to SQL, and
the per-player figures over them in DuckDB SQL; docs/decisions.md.

Each game declares its catalog as data (``Game.tendencies``, in the engine's vocabulary
``engine.tendency``): an *opportunity* predicate (the rows where it could happen) and a
*success* predicate over the rows of ``decisions`` (derived from the engine at ingest:
``engine.decisions``) or, for outcomes such as going out first, over ``results`` (one row per
seat of a game, from ``seats`` and ``games``: ``results_sql``). ``sql`` compiles a predicate;
the warehouse knows no game's words. (The Polars twins of these figures, the tests' oracle,
are in tests/warehouse/tendencies_lazy.py.) Per player and tendency: n (opportunities),
k (successes), the rate, its 95% Wilson interval, the population rate (all players pooled) and
the player's percentile among players with at least ``MIN_OPPORTUNITIES`` opportunities (none
when fewer than ``MIN_QUALIFIED`` players qualify: "p83 of 3" says nothing). A
``Scope`` (a date range, a seat, "before game X") limits every figure to a slice of the
warehouse; ``as_of`` gives each seat of a game its player's key tendencies before that game.
Only code writes SQL text here; the player, the game and the scope reach the queries as
parameters.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import duckdb
import pyarrow as pa

from engine.games import GAMES, find_game
from engine.tendency import Pred, walk, word
from engine.tendency import Tendency as GameTendency
from warehouse.limits import MIN_OPPORTUNITIES, MIN_QUALIFIED  # noqa: F401  (re-exported)

Z95 = 1.96
BY = ("relation", "side", "teammate", "opposite")     # the dimensions of tendencies_by
MAX_SEATS = 8


# ---------------------------------------------------------------- the catalog compiled

def _word(w: object) -> str:
    return f"'{word(str(w))}'"


def _any(column: str, words: tuple[object, ...]) -> str:
    # an OR of list_contains: the same rows as list_has_any, about ten times faster in DuckDB
    if len(words) == 1:
        return f"list_contains({column}, {_word(words[0])})"
    return "(" + " OR ".join(f"list_contains({column}, {_word(w)})" for w in words) + ")"


def _in(column: str, words: tuple[object, ...]) -> str:
    if len(words) == 1:
        return f"{column} = {_word(words[0])}"
    return f"{column} IN ({', '.join(map(_word, words))})"


def sql(p: Pred) -> str:
    """A predicate of the engine's tendency vocabulary (``engine.tendency``) as DuckDB SQL
    over a decisions or results row (words quoted after ``engine.tendency.word`` checked
    them)."""
    a = p.args
    if p.op == "and" or p.op == "or":
        return f"({sql(a[0])} {p.op.upper()} {sql(a[1])})"        # type: ignore[arg-type]
    if p.op == "not":
        return f"(NOT {sql(a[0])})"                                # type: ignore[arg-type]
    if p.op == "option":
        return _any("options", a)
    if p.op == "chosen":
        return _in("chosen", a)
    if p.op == "tag":
        return f"list_contains(tags, {_word(a[0])})"
    if p.op == "phase":
        return f"phase IN ({', '.join(map(_word, a))})"
    if p.op == "place":
        return f"place = {int(a[0])}"                              # type: ignore[call-overload]
    if p.op == "result_seat":
        return word(str(a[1]))
    if p.op == "always":
        return "true"
    column = _COLUMNS.get(p.op)
    if column is None:
        raise ValueError(f"not a tendency predicate: {p.op!r}")
    return f"{column} = {_word(a[0])}"


_COLUMNS = {"relation": "top_relation", "side": "side", "outcome": "result",
            "reason": "reason"}


@dataclass(frozen=True)
class Tendency:
    """A named tendency of one game (its catalog entry, ``engine.tendency.Tendency``), named
    ``game.name``, with its predicates compiled to SQL and the label people read for it
    (the name stays the id: figures, ``--json``, tooltips)."""

    name: str
    game: str
    description: str
    opportunity: Pred
    success: Pred
    source: str = "decisions"          # or "results" (one row per seat of a game)
    opportunity_sql: str = ""
    success_sql: str = ""
    label: str = ""                    # "stacks a draw (叠加)"; not in catalog_key

    @classmethod
    def of(cls, game: str, t: GameTendency) -> Tendency:
        """A game's catalog entry, compiled."""
        return cls(f"{game}.{t.name}", game, t.description, t.opportunity, t.success,
                   t.source, sql(t.opportunity), sql(t.success), t.label)


def _catalog() -> tuple[Tendency, ...]:
    """Every registered game's catalog, compiled once per registry (a game registered later,
    ``engine.games.register``, is in the next call's)."""
    return _catalog_of(tuple(GAMES.items()))


@functools.cache
def _catalog_of(registry: tuple[tuple[str, str], ...]) -> tuple[Tendency, ...]:
    return tuple(Tendency.of(game, t) for game, _ in registry
                 for t in find_game(game).tendencies)


def catalog(game: str | None = None) -> tuple[Tendency, ...]:
    """The tendencies of one game (or of all, in registry order), in catalog order."""
    return tuple(t for t in _catalog() if game is None or t.game == game)


def labels(game: str | None = None) -> dict[str, str]:
    """Tendency name (``game.name``) -> its label, for one game's catalog (or every game's);
    what tables, charts and text show in place of the id."""
    return {t.name: t.label for t in catalog(game)}


def key_tendencies(game: str) -> tuple[str, ...]:
    """The tendencies the replay page shows for each seat "as of" a game (``as_of``): the
    few a strong player glances at before playing someone (the game's ``key_tendencies``)."""
    if game not in GAMES:
        return ()
    return tuple(f"{game}.{name}" for name in find_game(game).key_tendencies)


def __getattr__(name: str) -> Any:
    if name == "CATALOG":                       # every game's catalog, in registry order
        return _catalog()
    if name == "KEY_TENDENCIES":                # game -> its key tendencies' names
        return {game: key_tendencies(game) for game in GAMES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def results_sql() -> str:
    """One row per seat of a game with the outcome facts results-based tendencies need: the
    seat's side, place, result and score, the game's reason, and each fact a catalog's
    ``result_seat`` names (the game's result names this seat in a field)."""
    return _results_sql(tuple(GAMES.items()))


def result_seats() -> dict[str, str]:
    """column -> result field of every ``result_seat`` the registered catalogs use (the
    seats a game's result names, as columns of the results rows)."""
    return dict(_result_seats(tuple(GAMES.items())))


@functools.cache
def _result_seats(registry: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    fields: dict[str, str] = {}
    for t in _catalog_of(registry):
        for node in walk(t.opportunity) + walk(t.success):
            if node.op == "result_seat":
                fields[word(str(node.args[1]))] = word(str(node.args[0]))
    return tuple(fields.items())


@functools.cache
def _results_sql(registry: tuple[tuple[str, str], ...]) -> str:
    facts = "".join(
        f",\n        coalesce(TRY_CAST(json_extract(g.result, '$.{field}') AS INTEGER) = "
        f"s.seat, false) AS {column}" for column, field in _result_seats(registry))
    return ("SELECT s.game_id, g.game, g.seats, s.seat, s.player_id, s.side, s.place,\n"
            f"        s.result, s.score, g.reason{facts}\n"
            "    FROM seats s JOIN games g ON g.game_id = s.game_id")


# ---------------------------------------------------------------- the scope

@dataclass(frozen=True)
class Scope:
    """Which games count: those started in [since, until], the rows at one seat, the games
    that started strictly before one game (by start, then game id). None: no limit.

    ``since`` and ``until`` are dates (whole days, UTC) or datetimes (to the microsecond;
    naive ones are UTC). A scope limits the whole slice of the warehouse a figure is computed
    on — the player's rows and the population's alike (docs/decisions.md, *Scope*)."""

    since: date | datetime | None = None
    until: date | datetime | None = None
    seat: int | None = None
    before: str | None = None

    def __post_init__(self) -> None:
        for name in ("since", "until"):
            if not isinstance(getattr(self, name), date | None):
                raise ValueError(f"{name} must be a date or datetime, not "
                                 f"{getattr(self, name)!r}")
        if self.seat is not None and (isinstance(self.seat, bool) or
                                      not isinstance(self.seat, int) or self.seat < 0):
            raise ValueError(f"seat must be a whole number >= 0, not {self.seat!r}")
        if self.before is not None and not isinstance(self.before, str):
            raise ValueError(f"before must be a game id, not {self.before!r}")

    def bounds(self) -> tuple[int | None, int | None]:
        """The date range as epoch microseconds [low, high): since's first microsecond (a
        date: its midnight, UTC) and the one after until (a date: the next midnight)."""
        return _us(self.since), None if self.until is None else _us(self.until, after=True)

    def is_all(self) -> bool:
        """True when the scope limits nothing."""
        return self == Scope()


def _us(when: date | datetime | None, after: bool = False) -> int | None:
    if when is None:
        return None
    if isinstance(when, datetime):
        moment = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
        step = timedelta(microseconds=1)
    else:
        moment, step = datetime(when.year, when.month, when.day, tzinfo=UTC), timedelta(days=1)
    if after:
        moment += step
    return (moment - EPOCH) // timedelta(microseconds=1)


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def scope_sql(scope: Scope | None, games: str = "g",
              seat: str | None = None) -> tuple[str, dict[str, Any]]:
    """The scope as one SQL condition (``true`` when it limits nothing) over the ``games``
    row aliased ``games`` and, when named, the seat column ``seat``, with its named
    parameters (``$since_us``, ``$until_us``, ``$before``, ``$seat``)."""
    if scope is None:
        return "true", {}
    conds: list[str] = []
    params: dict[str, Any] = {}
    low, high = scope.bounds()
    if low is not None:
        conds.append(f"epoch_us({games}.started) >= $since_us")
        params["since_us"] = low
    if high is not None:
        conds.append(f"epoch_us({games}.started) < $until_us")
        params["until_us"] = high
    if scope.before is not None:
        conds.append(f"EXISTS (SELECT 1 FROM games x WHERE x.game_id = $before AND "
                     f"(x.started > {games}.started OR (x.started = {games}.started "
                     f"AND x.game_id > {games}.game_id)))")
        params["before"] = scope.before
    if scope.seat is not None and seat is not None:
        conds.append(f"{seat} = $seat")
        params["seat"] = scope.seat
    return " AND ".join(conds) or "true", params


def _sources_sql(scope: Scope | None) -> tuple[str, dict[str, Any]]:
    """The CTEs the tendency queries read, limited to the scope: ``results`` (as
    RESULTS_SQL) and ``dec`` (the decisions rows)."""
    cond, params = scope_sql(scope, "g", "s.seat")
    games_only, _ = scope_sql(None if scope is None else Scope(scope.since, scope.until,
                                                                before=scope.before), "g")
    dec = []
    if games_only != "true":
        dec.append(f"d.game_id IN (SELECT g.game_id FROM games g WHERE {games_only})")
    if scope is not None and scope.seat is not None:
        dec.append("d.seat = $seat")
    where = f" WHERE {' AND '.join(dec)}" if dec else ""
    return (f"results AS ({results_sql()} WHERE {cond}),\n"
            f"dec AS (SELECT d.* FROM decisions d{where})"), params


# ---------------------------------------------------------------- shared pieces

def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials (z = 1.96: 95%)."""
    if n <= 0:
        return math.nan, math.nan
    p, z2 = k / n, z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _f(x: float) -> str:
    return f"{x!r}::DOUBLE"


def wilson_sql(k: str, n: str, z: float = Z95) -> tuple[str, str]:
    """SQL of the Wilson bounds of the columns k and n (the operations of ``wilson``, in the
    same order); n must be > 0."""
    z2 = z * z
    p = f"({k}::DOUBLE / {n}::DOUBLE)"
    denom = f"({_f(1.0)} + {_f(z2)} / {n}::DOUBLE)"
    centre = f"(({p} + {_f(z2)} / ({_f(2.0)} * {n}::DOUBLE)) / {denom})"
    half = (f"({_f(z)} * sqrt({p} * ({_f(1.0)} - {p}) / {n}::DOUBLE + {_f(z2)} / "
            f"({_f(4.0)} * {n}::DOUBLE * {n}::DOUBLE)) / {denom})")
    return f"greatest({_f(0.0)}, {centre} - {half})", f"least({_f(1.0)}, {centre} + {half})"


_wilson_sql = wilson_sql


def opposite_pairs() -> list[tuple[str, int, int, int]]:
    """(game, seats, seat, opposite seat) for every registered game and seat count up to
    MAX_SEATS where the game has an opposite (its decisions module's ``opposite_seat``)."""
    out = []
    for game in sorted(GAMES):
        opp = find_game(game).decisions.opposite_seat
        for n in range(2, MAX_SEATS + 1):
            out += [(game, n, seat, opp(seat, n)) for seat in range(n) if opp(seat, n) >= 0]
    return out


def _opposites_sql() -> str:
    rows = opposite_pairs() or [("", 0, -1, -1)]
    values = ", ".join(f"({_word(g)}, {n}, {a}, {b})" for g, n, a, b in rows)
    return f"SELECT * FROM (VALUES {values}) AS o(game, seats, seat, other)"


def games_of(game: str | None) -> tuple[Tendency, ...]:
    """The tendencies of one game (or all); ValueError for a game without a catalog."""
    found = catalog(game)
    if game is not None and not found:
        raise ValueError(f"no tendencies for game {game!r}; known: "
                         f"{', '.join(sorted({t.game for t in catalog()}))}")
    return found


_games = games_of


# ---------------------------------------------------------------- DuckDB

def _counts_sql(tendencies: Sequence[Tendency]) -> str:
    """Per-tendency counts of every player: player_id, ord, tendency, game, n, k. One scan per
    source (``dec`` or ``results``) and game, every tendency of it counted in that scan, its
    counts then unnested into a row per tendency (also 0 where the player had no chance)."""
    batches: dict[tuple[str, str], list[tuple[int, Tendency]]] = {}
    for i, t in enumerate(tendencies):
        batches.setdefault(("dec" if t.source == "decisions" else "results", t.game),
                           []).append((i, t))
    parts = []
    for (src, game), items in batches.items():
        aggs = ", ".join(
            f"count(*) FILTER (WHERE {t.opportunity_sql})::BIGINT AS n{i}, "
            f"count(*) FILTER (WHERE {t.opportunity_sql} AND {t.success_sql})::BIGINT AS k{i}"
            for i, t in items)
        rows = ", ".join(f"{{'ord': {i}, 'tendency': '{t.name}', 'game': '{t.game}', "
                         f"'n': n{i}, 'k': k{i}}}" for i, t in items)
        parts.append(f"SELECT player_id, unnest([{rows}], recursive := true) FROM "
                     f"(SELECT player_id, {aggs} FROM {src} WHERE game = {_word(game)} "
                     "GROUP BY player_id)")
    return "\nUNION ALL\n".join(parts)


# ---------------------------------------------------------------- stored counts

CATALOG_META = "tendency_catalog"       # the meta key holding the catalog the counts are of
# everyone's results per game and seat, and per game and side (result_counts; the seat as text)
RESULT_COUNTS_SQL = " UNION ALL ".join(
    f"SELECT g.game, '{dim}' AS dimension, s.{dim}::VARCHAR AS grp, "
    "count(*) FILTER (WHERE s.result = 'win')::BIGINT AS wins, "
    "count(*) FILTER (WHERE s.result IN ('win', 'loss'))::BIGINT AS decided "
    "FROM seats s JOIN games g ON g.game_id = s.game_id GROUP BY ALL" for dim in ("seat", "side"))


def catalog_key() -> str:
    """A fingerprint of the whole catalog (names, games, sources, predicates): stored counts
    are used only while it is the one they were written with."""
    return _catalog_key(tuple(GAMES.items()))


@functools.cache
def _catalog_key(registry: tuple[tuple[str, str], ...]) -> str:
    h = hashlib.sha256(RESULT_COUNTS_SQL.encode())
    for t in _catalog_of(registry):
        for part in (t.name, t.game, t.source, t.opportunity_sql, t.success_sql):
            h.update(part.encode() + b"\0")
    return h.hexdigest()


def write_counts(con: duckdb.DuckDBPyConnection) -> int:
    """Recount every player's tendencies over the whole warehouse into ``tendency_counts``
    (what an unscoped profile reads instead of scanning ``decisions``) and record the
    catalog's fingerprint; the number of rows. Ingest calls it in the run's transaction."""
    sources, params = _sources_sql(None)
    con.execute("DELETE FROM tendency_counts")
    con.execute(f"INSERT INTO tendency_counts WITH {sources} SELECT game, tendency, player_id, "
                f"n, k FROM ({_counts_sql(catalog())})", params)
    con.execute("DELETE FROM result_counts")
    con.execute(f"INSERT INTO result_counts {RESULT_COUNTS_SQL}")
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [CATALOG_META, catalog_key()])
    return con.execute("SELECT count(*) FROM tendency_counts").fetchall()[0][0]


def counts_stored(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``tendency_counts`` holds the counts of this catalog (written since the last
    change of the warehouse by an ingest run of this liujia)."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [CATALOG_META]).fetchall()
    return bool(row) and row[0][0] == catalog_key()


def _stored_counts_sql(tendencies: Sequence[Tendency]) -> str:
    """``_counts_sql`` read from ``tendency_counts`` (same columns and rows)."""
    order = ", ".join(f"({i}, '{t.name}')" for i, t in enumerate(tendencies))   # our names
    return (f"SELECT c.player_id, o.ord, c.tendency, c.game, c.n, c.k FROM tendency_counts c "
            f"JOIN (VALUES {order}) o(ord, tendency) ON o.tendency = c.tendency")


def _rated_sql(tendencies: Sequence[Tendency], scope: Scope | None,
               stored: bool = False) -> tuple[str, dict]:
    """The CTEs counts (per tendency and player), rated (with the rate) and pop (the
    population rate per tendency) over the scope, and their parameters; ``stored``: the
    counts come from ``tendency_counts`` (only for a scope that limits nothing)."""
    params: dict[str, Any]
    if stored and (scope is None or scope.is_all()):
        sources, params, counts = "", {}, _stored_counts_sql(tendencies)
    else:
        sources, params = _sources_sql(scope)
        sources, counts = sources + ",\n", _counts_sql(tendencies)
    return f"""WITH {sources}
counts AS ({counts}),
rated AS (SELECT *, CASE WHEN n > 0 THEN k::DOUBLE / n::DOUBLE END AS rate FROM counts),
pop AS (SELECT ord, sum(k)::DOUBLE / sum(n)::DOUBLE AS population_rate FROM counts
        GROUP BY ord HAVING sum(n) > 0)""", params


def figures(con: duckdb.DuckDBPyConnection, players: Sequence[str],
            tendencies: Sequence[Tendency], scope: Scope | None = None,
            min_opportunities: int = MIN_OPPORTUNITIES,
            min_qualified: int = MIN_QUALIFIED) -> pa.Table:
    """The ``player_tendencies`` figures of several players at once, with a player_id column
    first; ordered by player, then the order of ``tendencies``."""
    ctes, params = _rated_sql(tendencies, scope, counts_stored(con))
    low, high = wilson_sql("m.k", "m.n")
    sql = f"""{ctes},
mine AS (SELECT * FROM rated WHERE list_contains($players::VARCHAR[], player_id) AND n > 0),
ranks AS (SELECT m.player_id, m.ord, count(q.rate)::BIGINT AS qualified,
                 count(*) FILTER (WHERE q.rate < m.rate)::BIGINT AS below,
                 count(*) FILTER (WHERE q.rate = m.rate)::BIGINT AS equal
          FROM mine m LEFT JOIN rated q ON q.ord = m.ord AND q.n >= $min
          GROUP BY m.player_id, m.ord)
SELECT m.player_id, m.game, m.tendency, m.n, m.k, m.rate, {low} AS low, {high} AS high,
       p.population_rate,
       CASE WHEN m.n >= $min AND r.qualified >= $qualified THEN {_f(100.0)} * (r.below::DOUBLE + {_f(0.5)} * r.equal::DOUBLE)
            / r.qualified::DOUBLE END AS percentile, r.qualified
FROM mine m JOIN pop p ON p.ord = m.ord JOIN ranks r ON r.ord = m.ord
     AND r.player_id = m.player_id
ORDER BY m.player_id, m.ord"""
    params |= {"players": [str(p) for p in players], "min": int(min_opportunities),
               "qualified": int(min_qualified)}
    return con.sql(sql, params=params).to_arrow_table()


def population(con: duckdb.DuckDBPyConnection, tendencies: Sequence[Tendency],
               scope: Scope | None = None) -> dict[str, float]:
    """Tendency name -> the population rate (all players pooled: sum k / sum n) over the
    scope; tendencies nobody had the chance of are left out."""
    if not tendencies:
        return {}
    ctes, params = _rated_sql(tendencies, scope, counts_stored(con))
    rows = con.sql(f"{ctes} SELECT ord, population_rate FROM pop", params=params).fetchall()
    return {tendencies[i].name: rate for i, rate in rows}


def player_tendencies(con: duckdb.DuckDBPyConnection, player: str, game: str | None = None,
                      min_opportunities: int = MIN_OPPORTUNITIES,
                      scope: Scope | None = None,
                      min_qualified: int = MIN_QUALIFIED) -> pa.Table:
    """One player's tendencies (of one game, or every game): game, tendency, n, k, rate,
    low, high (Wilson 95%), population_rate, percentile (among the players with at least
    ``min_opportunities``; null below it, and while fewer than ``min_qualified`` players have
    that many), qualified (how many such players); rows where the
    player had an opportunity, in catalog order. Every figure, the population's too, is over
    the ``scope``'s games and seat only."""
    ts = games_of(game)
    return figures(con, [player], ts, scope, min_opportunities,
                   min_qualified).drop_columns(["player_id"])


def _dimension_sql(by: str) -> tuple[str, str]:
    """(join, group expression) that split a source row ``r`` by a dimension of ``BY``."""
    if by == "relation":
        return "", "r.top_relation"
    if by == "side":
        return "", "r.side"
    if by == "teammate":
        return ("JOIN seats s2 ON s2.game_id = r.game_id AND s2.side = r.side "
                "AND s2.seat <> r.seat", "s2.player_id")
    if by == "opposite":
        return ("JOIN games g2 ON g2.game_id = r.game_id "
                f"JOIN ({_opposites_sql()}) o ON o.game = r.game AND o.seats = g2.seats "
                "AND o.seat = r.seat JOIN seats s2 ON s2.game_id = r.game_id "
                "AND s2.seat = o.other", "s2.player_id")
    raise ValueError(f"by must be one of {', '.join(BY)}, not {by!r}")


def tendencies_by(con: duckdb.DuckDBPyConnection, player: str, game: str | None = None,
                  by: str = "relation", scope: Scope | None = None) -> pa.Table:
    """One player's tendencies split by a dimension (``BY``): the top play's relation
    (none/self/teammate/opposite/opponent), the player's side, each teammate, each opposite
    (对门) player: game, tendency, grp, n, k, rate, low, high; groups with n > 0, in
    catalog order then group; the player's rows of the ``scope`` only. Results-based
    tendencies have no top play and are left out of the relation split."""
    join, grp = _dimension_sql(by)
    ts = [t for t in games_of(game) if not (by == "relation" and t.source == "results")]
    parts = []
    for i, t in enumerate(ts):
        src = "dec" if t.source == "decisions" else "results"
        parts.append(
            f"SELECT {i} AS ord, '{t.name}' AS tendency, '{t.game}' AS game, {grp} AS grp, "
            f"count(*) FILTER (WHERE r._o)::BIGINT AS n, "
            f"count(*) FILTER (WHERE r._o AND r._s)::BIGINT AS k "
            f"FROM (SELECT *, {t.opportunity_sql} AS _o, {t.success_sql} AS _s FROM {src} "
            f"WHERE game = '{t.game}' AND player_id = $player) r {join} GROUP BY ALL")
    sources, params = _sources_sql(scope)
    low, high = wilson_sql("k", "n")
    sql = f"""WITH {sources},
counts AS ({' UNION ALL '.join(parts)})
SELECT game, tendency, grp, n, k, k::DOUBLE / n::DOUBLE AS rate, {low} AS low, {high} AS high
FROM counts WHERE n > 0 ORDER BY ord, grp NULLS FIRST"""
    return con.sql(sql, params=params | {"player": str(player)}).to_arrow_table()


def tendencies_by_relation(con: duckdb.DuckDBPyConnection, player: str,
                           game: str | None = None, scope: Scope | None = None) -> pa.Table:
    """One player's tendencies split by who made the top play: none, self, teammate,
    opposite (对门), opponent (``tendencies_by(..., by="relation")``)."""
    return tendencies_by(con, player, game, "relation", scope)


def partnerships(con: duckdb.DuckDBPyConnection, player: str, game: str | None = None,
                 scope: Scope | None = None, tables: Any = None) -> pa.Table:
    """How the player does with each other player as a teammate (same side) and as the
    opposite (对门 / 对头): game, partner, relation, games, wins, losses, draws, decided,
    win_rate (wins / decided: a draw counts neither way; null when none was decided), low,
    high; by game, relation, games (most first), partner; the ``scope``'s games only.
    ``tables``: the player's slice (warehouse.slices.Tables) for his own rows, or None."""
    seats, games = tables or ("seats", "games")
    cond, params = scope_sql(scope, "g", "s.seat")
    low, high = wilson_sql("wins", "decided")
    sql = f"""WITH me AS (
    SELECT s.game_id, g.game, g.seats, s.seat, s.side, s.result FROM {seats} s
    JOIN {games} g ON g.game_id = s.game_id
    WHERE s.player_id = $player AND ($game::VARCHAR IS NULL OR g.game = $game) AND {cond}),
others AS MATERIALIZED (
    SELECT me.*, s2.player_id AS partner, s2.seat AS other, s2.side AS other_side FROM me
    JOIN seats s2 ON s2.game_id = me.game_id AND s2.seat <> me.seat),
pairs AS (
    SELECT game, partner, 'teammate' AS relation, result FROM others WHERE other_side = side
    UNION ALL
    SELECT x.game, x.partner, 'opposite' AS relation, x.result FROM others x
    JOIN ({_opposites_sql()}) o ON o.game = x.game AND o.seats = x.seats AND o.seat = x.seat
         AND o.other = x.other),
counted AS (SELECT game, partner, relation, count(*)::BIGINT AS games,
                   count(*) FILTER (WHERE result = 'win')::BIGINT AS wins,
                   count(*) FILTER (WHERE result = 'loss')::BIGINT AS losses,
                   count(*) FILTER (WHERE result = 'draw')::BIGINT AS draws,
                   count(*) FILTER (WHERE result IN ('win', 'loss'))::BIGINT AS decided
            FROM pairs GROUP BY ALL)
SELECT game, partner, relation, games, wins, losses, draws, decided,
       CASE WHEN decided > 0 THEN wins::DOUBLE / decided::DOUBLE END AS win_rate,
       CASE WHEN decided > 0 THEN {low} END AS low, CASE WHEN decided > 0 THEN {high} END AS high
FROM counted ORDER BY game, relation, games DESC, partner"""
    return con.sql(sql, params=params | {"player": str(player), "game": game}).to_arrow_table()


# ---------------------------------------------------------------- as of a game

AS_OF_SCHEMA = pa.schema([
    ("seat", pa.int8()), ("player_id", pa.string()), ("games", pa.int64()),
    ("tendency", pa.string()), ("n", pa.int64()), ("k", pa.int64()), ("rate", pa.float64()),
    ("low", pa.float64()), ("high", pa.float64()), ("population_rate", pa.float64()),
    ("percentile", pa.float64()),
])


def as_of(con: duckdb.DuckDBPyConnection, game_id: str, names: Sequence[str] | None = None,
          min_opportunities: int = MIN_OPPORTUNITIES) -> pa.Table:
    """Each seat of a game with its player's key tendencies (``KEY_TENDENCIES`` of the game,
    or ``names``, in that order) from the games of that game type that started before this one only
    (``Scope(before=game_id)``; the game itself and every later one left out, the
    population's figures too): seat, player_id, games (the player's earlier games), tendency,
    n, k, rate, low, high, population_rate, percentile; a tendency the player never had the
    chance of has n = 0 and null rates. Empty for an unknown game."""
    seats = con.sql("SELECT s.seat, s.player_id, g.game FROM seats s JOIN games g "
                    "ON g.game_id = s.game_id WHERE s.game_id = $g ORDER BY s.seat",
                    params={"g": str(game_id)}).fetchall()
    if not seats:
        return AS_OF_SCHEMA.empty_table()
    game = seats[0][2]
    known = {t.name: t for t in catalog(game)}
    wanted = list(names if names is not None else key_tendencies(game))
    if not set(wanted) <= set(known):
        raise ValueError(f"not tendencies of {game!r}: {sorted(set(wanted) - set(known))}")
    ts = [known[name] for name in wanted]
    scope = Scope(before=str(game_id))
    players = sorted({p for _, p, _ in seats})
    cond, params = scope_sql(scope, "g")
    earlier = dict(con.sql(
        "SELECT s.player_id, count(*)::BIGINT FROM seats s JOIN games g ON g.game_id = "
        f"s.game_id WHERE g.game = $game AND list_contains($players::VARCHAR[], s.player_id) "
        f"AND {cond} GROUP BY 1", params=params | {"game": game, "players": players}
    ).fetchall())
    got = {(r["player_id"], r["tendency"]): r for r in
           (figures(con, players, ts, scope, min_opportunities).to_pylist() if ts else [])}
    pop = population(con, ts, scope)
    rows = []
    for seat, player, _ in seats:
        for t in ts:
            r = got.get((player, t.name), {})
            rows.append({"seat": seat, "player_id": player, "games": earlier.get(player, 0),
                         "tendency": t.name, "n": r.get("n", 0), "k": r.get("k", 0),
                         "population_rate": pop.get(t.name),
                         **{c: r.get(c) for c in ("rate", "low", "high", "percentile")}})
    return pa.Table.from_pylist(rows, schema=AS_OF_SCHEMA)
