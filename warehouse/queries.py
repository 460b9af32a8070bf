"""Named warehouse queries: SQL through an explicit DuckDB connection, user input only as ``?``
parameters, results as Arrow tables (``game_events`` gives engine Events, ``counts`` a dict).

Open the connection with ``warehouse.db.reader()`` (short-lived, read-only) and run every query
of one page or report on that one connection: it sees one version of the warehouse throughout.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from engine.events import Event
from warehouse import sessions as _sessions
from warehouse.slices import FULL, Tables
from warehouse.tendencies import Scope, counts_stored, scope_sql, wilson_sql


def _limit(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"limit must be a whole number >= 0, got {limit!r}")
    return limit


def _table(con: duckdb.DuckDBPyConnection, sql: str,
           params: list[Any] | dict[str, Any] | None = None) -> pa.Table:
    return con.sql(sql, params=params or []).to_arrow_table()


def games_by_type(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Games and events per game/variant id: game, games, events."""
    return _table(con, "SELECT game, count(*)::BIGINT AS games, sum(events)::BIGINT AS events "
                       "FROM games GROUP BY game ORDER BY game")


# How a game ended, in one word: the winning side, 'draw' (nobody won), 'player' (seats of a
# game without sides won).
OUTCOME_SQL = ("CASE WHEN winning_side IS NOT NULL THEN winning_side "
               "WHEN len(winners) = 0 THEN 'draw' ELSE 'player' END")
GAME_COLUMNS = "game_id, game, started, ended, events, seats, reason, winning_side, winners"


def results_by_side(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Games per game and outcome: game, outcome (the winning side, 'draw', or 'player' when a
    seat of a game without sides won), games."""
    return _table(con, f"SELECT game, {OUTCOME_SQL} AS outcome, count(*)::BIGINT AS games "
                       "FROM games GROUP BY ALL ORDER BY game, outcome")


def recent_games(con: duckdb.DuckDBPyConnection, limit: int = 20) -> pa.Table:
    """The latest games by start time: game_id, game, started, ended, events, seats, reason,
    winning_side (null: no side won), winners (the seats that won; empty: a draw)."""
    return _table(con, f"SELECT {GAME_COLUMNS} FROM games "
                       "ORDER BY started DESC, game_id DESC LIMIT ?", [_limit(limit)])


def recent_by_type(con: duckdb.DuckDBPyConnection, per_type: int = 5) -> pa.Table:
    """The latest ``per_type`` games of each game type (so that a type played less, or loaded
    first, is not crowded out), latest first; the columns of recent_games."""
    return _table(con, f"SELECT {GAME_COLUMNS} FROM (SELECT *, row_number() OVER (PARTITION BY "
                       "game ORDER BY started DESC, game_id DESC) AS rank_in_type FROM games) "
                       "WHERE rank_in_type <= ? ORDER BY started DESC, game_id DESC",
                  [_limit(per_type)])


def find_games(con: duckdb.DuckDBPyConnection, text: str = "", limit: int = 100,
               game: str | None = None) -> pa.Table:
    """Games (of one game type, if given) whose id or one of whose player ids contains text
    (case-insensitive), latest first; the columns of recent_games."""
    return _table(
        con,
        f"SELECT {GAME_COLUMNS} FROM games "
        "WHERE (? IS NULL OR game = ?) AND (contains(lower(game_id), lower(?)) OR game_id IN "
        "(SELECT game_id FROM seats WHERE contains(lower(player_id), lower(?)))) "
        "ORDER BY started DESC, game_id DESC LIMIT ?",
        [game, game, str(text), str(text), _limit(limit)])


def game_players(con: duckdb.DuckDBPyConnection, game_id: str) -> pa.Table:
    """The seats of one game: seat, player_id, side, place, result (win/loss/draw), score."""
    return _table(con, "SELECT seat, player_id, side, place, result, score FROM seats "
                       "WHERE game_id = ? ORDER BY seat", [game_id])


def game_info(con: duckdb.DuckDBPyConnection, game_id: str) -> dict[str, Any] | None:
    """Every ``games`` column of one game as a dict, or None if it is not loaded."""
    rows = _table(con, "SELECT * FROM games WHERE game_id = ?", [game_id]).to_pylist()
    return rows[0] if rows else None


def game_events(con: duckdb.DuckDBPyConnection, game_id: str) -> list[Event]:
    """The stored events of one game in seq order, digests included (replayable)."""
    rows = con.execute(
        "SELECT kind, seat, cards, target, value, tag, payload, game_id, seq, epoch_us(ts), "
        "digest FROM events WHERE game_id = ? ORDER BY seq", [game_id]).fetchall()
    return [Event(k, s, tuple(c), t, v, tag, p, g, q, ts, bytes(d))
            for k, s, c, t, v, tag, p, g, q, ts, d in rows]


def quarantine(con: duckdb.DuckDBPyConnection, limit: int = 200) -> pa.Table:
    """Quarantined games and files, newest first: file, game_id, seq, stage, code, rule_id,
    reason, run_id, first_seen."""
    return _table(con, "SELECT file, game_id, seq, stage, code, rule_id, reason, run_id, "
                       "first_seen FROM quarantine "
                       "ORDER BY first_seen DESC, run_id DESC, file, game_id NULLS FIRST, seq "
                       "LIMIT ?", [_limit(limit)])


def ingest_runs(con: duckdb.DuckDBPyConnection, limit: int = 50) -> pa.Table:
    """Ingest and rebuild runs, newest first: run_id, started, finished, files, games_read,
    loaded, already_present, quarantined, events_loaded."""
    return _table(con, "SELECT run_id, started, finished, files, games_read, loaded, "
                       "already_present, quarantined, events_loaded FROM ingest_runs "
                       "ORDER BY run_id DESC LIMIT ?", [_limit(limit)])


def player_results(con: duckdb.DuckDBPyConnection, player_id: str,
                   scope: Scope | None = None, tables: Tables = FULL) -> pa.Table:
    """One player's record by game, seat and side: game, seat, side, games, wins, losses,
    draws; the games of the ``scope`` only (warehouse.tendencies.Scope). ``tables``: the
    player's slice (warehouse.slices), or the whole warehouse."""
    cond, params = scope_sql(scope, "g", "s.seat")
    return _table(con, "SELECT g.game, s.seat, s.side, count(*)::BIGINT AS games, "
                       "count(*) FILTER (WHERE s.result = 'win')::BIGINT AS wins, "
                       "count(*) FILTER (WHERE s.result = 'loss')::BIGINT AS losses, "
                       "count(*) FILTER (WHERE s.result = 'draw')::BIGINT AS draws "
                       f"FROM {tables.seats} s JOIN {tables.games} g ON g.game_id = s.game_id "
                       f"WHERE s.player_id = $player AND {cond} GROUP BY g.game, s.seat, s.side "
                       "ORDER BY g.game, s.seat, s.side NULLS FIRST",
                  params | {"player": str(player_id)})


def _record_sql() -> tuple[str, str]:
    """(counts, rates): the aggregates games, wins, losses, draws, decided (wins + losses) over
    rows with a ``result`` column, and, over those, win_rate = wins / decided and its 95%
    Wilson bounds low, high (null when nothing was decided)."""
    low, high = wilson_sql("wins", "decided")
    counts = ("count(*)::BIGINT AS games, "
              "count(*) FILTER (WHERE result = 'win')::BIGINT AS wins, "
              "count(*) FILTER (WHERE result = 'loss')::BIGINT AS losses, "
              "count(*) FILTER (WHERE result = 'draw')::BIGINT AS draws, "
              "count(*) FILTER (WHERE result IN ('win', 'loss'))::BIGINT AS decided")
    rates = ("CASE WHEN decided > 0 THEN wins::DOUBLE / decided::DOUBLE END AS win_rate, "
             f"CASE WHEN decided > 0 THEN {low} END AS low, "
             f"CASE WHEN decided > 0 THEN {high} END AS high")
    return counts, rates


RESULT_DIMENSIONS = ("seat", "side")


def results_by(con: duckdb.DuckDBPyConnection, player_id: str, by: str = "seat",
               game: str | None = None, scope: Scope | None = None,
               tables: Tables = FULL) -> pa.Table:
    """One player's results by seat or by side (``RESULT_DIMENSIONS``) per game: game, seat
    (or side), games, wins, losses, draws, decided, win_rate (wins / decided), low, high (its
    95% Wilson interval), population_rate (the win rate of every player at that seat or side,
    over decided games); the ``scope``'s games only, the population's too. ``tables`` (the
    player's slice) serves only where the population comes from ``result_counts``."""
    if by not in RESULT_DIMENSIONS:
        raise ValueError(f"by must be one of {', '.join(RESULT_DIMENSIONS)}, not {by!r}")
    cond, params = scope_sql(scope, "g", "s.seat")
    counts, rates = _record_sql()
    rate = ("CASE WHEN sum(decided) > 0 THEN sum(wins)::DOUBLE / sum(decided)::DOUBLE END "
            "AS population_rate")
    if (scope is None or scope.is_all()) and counts_stored(con):   # written by ingest
        pop = (f"SELECT game, grp, {rate} FROM result_counts WHERE dimension = '{by}' "
               "AND ($game::VARCHAR IS NULL OR game = $game) GROUP BY ALL")
    else:
        tables = FULL                   # the population is counted from every seat
        pop = (f"SELECT game, grp, {rate} FROM (SELECT game, grp, (result = 'win')::BIGINT AS "
               "wins, (result IN ('win', 'loss'))::BIGINT AS decided FROM base) GROUP BY ALL")
    sql = f"""WITH base AS (
    SELECT g.game, s.{by}::VARCHAR AS grp, s.player_id, s.result FROM {tables.seats} s
    JOIN {tables.games} g ON g.game_id = s.game_id
    WHERE ($game::VARCHAR IS NULL OR g.game = $game) AND {cond}),
pop AS ({pop}),
mine AS (SELECT game, grp, {counts} FROM base WHERE player_id = $player GROUP BY ALL)
SELECT m.game, m.grp{'::TINYINT' if by == 'seat' else ''} AS {by}, m.games, m.wins, m.losses,
       m.draws, m.decided, {rates}, p.population_rate
FROM mine m LEFT JOIN pop p ON p.game = m.game AND p.grp IS NOT DISTINCT FROM m.grp
ORDER BY m.game, m.grp{'::TINYINT' if by == 'seat' else ''} NULLS FIRST"""
    return _table(con, sql, params | {"player": str(player_id), "game": game})


def results_over_time(con: duckdb.DuckDBPyConnection, player_id: str, game: str | None = None,
                      scope: Scope | None = None, block: int = 20,
                      tables: Tables = FULL) -> pa.Table:
    """One player's results over time, per game type (win rates of different games do not
    mix: one winner of five is not one side of two), in blocks of ``block`` games of that
    type in the order they started (start, then game id; the last block may be shorter):
    game, block (0, 1, …), first and last (the start of its first and last game), games,
    wins, losses, draws, decided, win_rate, low, high (95% Wilson, over decided games); the
    ``scope``'s games only; by game, then block."""
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise ValueError(f"block must be a whole number >= 1, got {block!r}")
    cond, params = scope_sql(scope, "g", "s.seat")
    counts, rates = _record_sql()
    sql = f"""WITH mine AS (
    SELECT g.game, g.started, s.result,
           row_number() OVER (PARTITION BY g.game ORDER BY g.started, g.game_id) - 1 AS i
    FROM {tables.seats} s JOIN {tables.games} g ON g.game_id = s.game_id
    WHERE s.player_id = $player AND ($game::VARCHAR IS NULL OR g.game = $game) AND {cond}),
blocks AS (SELECT game, i // $block AS block, min(started) AS first, max(started) AS last,
                  {counts}
           FROM mine GROUP BY 1, 2)
SELECT game, block, first, last, games, wins, losses, draws, decided, {rates}
FROM blocks ORDER BY game, block"""
    return _table(con, sql, params | {"player": str(player_id), "game": game, "block": block})


def player_games(con: duckdb.DuckDBPyConnection, player_id: str, game: str | None = None,
                 scope: Scope | None = None, limit: int = 500,
                 tables: Tables = FULL) -> pa.Table:
    """One player's games (of one game type, if given; of the ``scope``), latest first: the
    columns of recent_games, then the player's seat, side, result and score."""
    cond, params = scope_sql(scope, "g", "s.seat")
    cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
    return _table(con, f"SELECT {cols}, s.seat, s.side, s.result, s.score FROM {tables.seats} s "
                       f"JOIN {tables.games} g ON g.game_id = s.game_id WHERE s.player_id = $player "
                       f"AND ($game::VARCHAR IS NULL OR g.game = $game) AND {cond} "
                       "ORDER BY g.started DESC, g.game_id DESC LIMIT $limit",
                  params | {"player": str(player_id), "game": game, "limit": _limit(limit)})


def player_span(con: duckdb.DuckDBPyConnection, player_id: str,
                game: str | None = None, tables: Tables = FULL) -> dict[str, Any]:
    """When a player played (of one game type, if given): games, first and last (the start
    of the first and of the latest game; None without games)."""
    (row,) = con.execute(
        f"SELECT count(*), min(g.started), max(g.started) FROM {tables.seats} s "
        f"JOIN {tables.games} g ON g.game_id = s.game_id WHERE s.player_id = $player "
        "AND ($game::VARCHAR IS NULL OR g.game = $game)",
        {"player": str(player_id), "game": game}).fetchall()
    return {"games": int(row[0]), "first": row[1], "last": row[2]}




def counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Totals: games, events, quarantined (rows), players (distinct player ids)."""
    (row,) = con.execute(
        "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events), "
        "(SELECT count(*) FROM quarantine), (SELECT count(DISTINCT player_id) FROM seats)"
    ).fetchall()
    return dict(zip(("games", "events", "quarantined", "players"), map(int, row), strict=True))


def players_list(con: duckdb.DuckDBPyConnection, game: str | None = None,
                 search: str = "", player: str | None = None) -> pa.Table:
    """Every player's record per game type (of one game type, or all; whose id contains
    ``search``, case-insensitive) — win rates and scores of unlike games never pool:
    player_id, game, games, wins, losses, draws, decided (wins + losses), win_rate (wins /
    decided, null when no game was decided), score (the net of the seat's scores), score_mean
    and score_sd (per game; sd null under two games), last_seen (the latest games.started);
    most games first, then player id and game; ``player``: that one player's rows only.
    ``warehouse.records`` gives each row its game's headline rate and the score's
    interval."""
    return _table(
        con,
        "SELECT s.player_id, g.game, count(*)::BIGINT AS games, "
        "count(*) FILTER (WHERE s.result = 'win')::BIGINT AS wins, "
        "count(*) FILTER (WHERE s.result = 'loss')::BIGINT AS losses, "
        "count(*) FILTER (WHERE s.result = 'draw')::BIGINT AS draws, "
        "count(*) FILTER (WHERE s.result IN ('win', 'loss'))::BIGINT AS decided, "
        "CASE WHEN count(*) FILTER (WHERE s.result IN ('win', 'loss')) > 0 THEN "
        "(count(*) FILTER (WHERE s.result = 'win'))::DOUBLE / "
        "(count(*) FILTER (WHERE s.result IN ('win', 'loss')))::DOUBLE END AS win_rate, "
        "sum(s.score)::BIGINT AS score, avg(s.score)::DOUBLE AS score_mean, "
        "stddev_samp(s.score)::DOUBLE AS score_sd, max(g.started) AS last_seen "
        "FROM seats s JOIN games g ON g.game_id = s.game_id "
        "WHERE (?::VARCHAR IS NULL OR g.game = ?::VARCHAR) "
        "AND contains(lower(s.player_id), lower(?)) "
        "AND (?::VARCHAR IS NULL OR s.player_id = ?::VARCHAR) "
        "GROUP BY s.player_id, g.game ORDER BY games DESC, s.player_id, g.game",
        [game, game, str(search or ""), player, player])


def score_over_time(con: duckdb.DuckDBPyConnection, player_id: str, game: str | None = None,
                    scope: Scope | None = None, tables: Tables = FULL) -> pa.Table:
    """One player's score game by game, per game type in the order the games started: game,
    n (1, 2, … within the type), started, game_id, score, total (the running net score);
    the ``scope``'s games only."""
    cond, params = scope_sql(scope, "g", "s.seat")
    return _table(con, f"""SELECT g.game,
       row_number() OVER (PARTITION BY g.game ORDER BY g.started, g.game_id) AS n,
       g.started, g.game_id, s.score,
       sum(s.score) OVER (PARTITION BY g.game ORDER BY g.started, g.game_id
                          ROWS UNBOUNDED PRECEDING)::BIGINT AS total
FROM {tables.seats} s JOIN {tables.games} g ON g.game_id = s.game_id
WHERE s.player_id = $player AND ($game::VARCHAR IS NULL OR g.game = $game) AND {cond}
ORDER BY g.game, n""", params | {"player": str(player_id), "game": game})


def session_games(con: duckdb.DuckDBPyConnection, game_id: str) -> pa.Table:
    """The games of the session a game belongs to, in order: game_id, started; empty when the
    game is not loaded or has no session."""
    return _table(con, "SELECT game_id, started FROM games WHERE session = (SELECT session "
                       "FROM games WHERE game_id = ?) ORDER BY started, game_id", [game_id])


def session_totals(con: duckdb.DuckDBPyConnection, game_id: str) -> pa.Table:
    """Each player's totals over the session of a game: player_id, games, wins, losses,
    draws, score (the sum of the seat's scores), best first."""
    return _table(
        con,
        "SELECT s.player_id, count(*)::BIGINT AS games, "
        "count(*) FILTER (WHERE s.result = 'win')::BIGINT AS wins, "
        "count(*) FILTER (WHERE s.result = 'loss')::BIGINT AS losses, "
        "count(*) FILTER (WHERE s.result = 'draw')::BIGINT AS draws, "
        "sum(s.score)::BIGINT AS score FROM seats s JOIN games g USING (game_id) "
        "WHERE g.session = (SELECT session FROM games WHERE game_id = ?) "
        "GROUP BY s.player_id ORDER BY score DESC, s.player_id", [game_id])


def search_facts(con: duckdb.DuckDBPyConnection, search: Any) -> tuple[list[dict[str, Any]], bool]:
    """The seats whose facts meet a ``warehouse.search.Search`` (latest games first) and
    whether more matched than its limit (``warehouse.search.find``)."""
    from warehouse.search import find
    return find(con, search)


def search_sessions(con: duckdb.DuckDBPyConnection, search: Any
                    ) -> tuple[list[dict[str, Any]], bool]:
    """The (session, player) pairs whose facts summed over the session meet a ``Search``
    (``warehouse.search.find_sessions``) and whether more matched than its limit."""
    from warehouse.search import find_sessions
    return find_sessions(con, search)


def review_at(con: duckdb.DuckDBPyConnection, game_id: str, seq: int) -> dict[str, Any] | None:
    """The stored review of one decision (``warehouse.reviews.review_at``; None: none)."""
    from warehouse.reviews import review_at as stored
    return stored(con, game_id, seq)


def head_to_head(con: duckdb.DuckDBPyConnection, a: str, b: str) -> pa.Table:
    """Two players' games together per game type and relation (``warehouse.compare``)."""
    from warehouse.compare import head_to_head as h2h
    return h2h(con, a, b)


def sessions_list(con: duckdb.DuckDBPyConnection,
                  filt: _sessions.SessionFilter | None = None) -> tuple[list[dict[str, Any]], bool]:
    """The sessions a ``warehouse.sessions.SessionFilter`` selects, newest first, and whether
    more matched than its limit (``warehouse.sessions.sessions_list``)."""
    return _sessions.sessions_list(con, filt if filt is not None else _sessions.SessionFilter())


def session_view(con: duckdb.DuckDBPyConnection, session: str,
                 game: str | None = None) -> dict[str, Any]:
    """One session's summary and games with running totals (``warehouse.sessions``)."""
    return _sessions.session_view(con, session, game)


def games_without_session(con: duckdb.DuckDBPyConnection,
                          filt: _sessions.SessionFilter | None = None) -> int:
    """How many games of a ``SessionFilter``'s selection have no session id (never listed)."""
    return _sessions.games_without_session(con, filt if filt is not None
                                           else _sessions.SessionFilter())
