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


def _limit(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"limit must be a whole number >= 0, got {limit!r}")
    return limit


def _table(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> pa.Table:
    return con.sql(sql, params=params or []).to_arrow_table()


def games_by_type(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Games and events per game/variant id: game, games, events."""
    return _table(con, "SELECT game, count(*)::BIGINT AS games, sum(events)::BIGINT AS events "
                       "FROM games GROUP BY game ORDER BY game")


def results_by_team(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Games per winning team and game: game, winning_team (null: no winner), games."""
    return _table(con, "SELECT game, winning_team, count(*)::BIGINT AS games FROM games "
                       "GROUP BY game, winning_team ORDER BY game, winning_team NULLS LAST")


def recent_games(con: duckdb.DuckDBPyConnection, limit: int = 20) -> pa.Table:
    """The latest games by start time: game_id, game, started, ended, events, reason,
    winning_team."""
    return _table(con, "SELECT game_id, game, started, ended, events, reason, winning_team FROM games "
                       "ORDER BY started DESC, game_id DESC LIMIT ?", [_limit(limit)])


def find_games(con: duckdb.DuckDBPyConnection, text: str = "", limit: int = 100) -> pa.Table:
    """Games whose id or one of whose player ids contains text (case-insensitive), latest
    first; the columns of recent_games."""
    return _table(
        con,
        "SELECT game_id, game, started, ended, events, reason, winning_team FROM games "
        "WHERE contains(lower(game_id), lower(?)) OR game_id IN "
        "(SELECT game_id FROM seats WHERE contains(lower(player_id), lower(?))) "
        "ORDER BY started DESC, game_id DESC LIMIT ?",
        [str(text), str(text), _limit(limit)])


def game_players(con: duckdb.DuckDBPyConnection, game_id: str) -> pa.Table:
    """The seats of one game: seat, player_id, team, result (win/loss/draw), score."""
    return _table(con, "SELECT seat, player_id, team, result, score FROM seats "
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


def player_results(con: duckdb.DuckDBPyConnection, player_id: str) -> pa.Table:
    """One player's record by game, seat and team: game, seat, team, games, wins, losses."""
    return _table(con, "SELECT g.game, s.seat, s.team, count(*)::BIGINT AS games, "
                       "count(*) FILTER (WHERE s.result = 'win')::BIGINT AS wins, "
                       "count(*) FILTER (WHERE s.result = 'loss')::BIGINT AS losses "
                       "FROM seats s JOIN games g ON g.game_id = s.game_id "
                       "WHERE s.player_id = ? GROUP BY g.game, s.seat, s.team "
                       "ORDER BY g.game, s.seat, s.team", [player_id])


def counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Totals: games, events, quarantined (rows), players (distinct player ids)."""
    (row,) = con.execute(
        "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events), "
        "(SELECT count(*) FROM quarantine), (SELECT count(DISTINCT player_id) FROM seats)"
    ).fetchall()
    return dict(zip(("games", "events", "quarantined", "players"), map(int, row), strict=True))
