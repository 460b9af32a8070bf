"""Sessions, as a PokerTracker user knows them: the games that share a ``games.session`` id,
each player's total score over them and who won — what ``liujia sessions`` and the dashboard's
Sessions page show (docs/warehouse.md, *Sessions*).

A session is keyed by its game type and session id (two game types never share a session's
totals). Its games are ordered by start, then game id. A player's total is the sum of
``seats.score`` over the session's games the player sat in; the session was won by the players
with the highest total (several when tied), and by nobody — *level* — when every player ends
on the same total. Games without a session id are not sessions: never listed, only counted
(``games_without_session``). User input reaches SQL only as parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import duckdb

from warehouse.tendencies import Scope, scope_sql

DEFAULT_LIMIT = 50


@dataclass(frozen=True, slots=True)
class SessionFilter:
    """Which sessions to list: those one player sat in (exact id), of one game type, with a
    game started in [since, until] (days, UTC, or moments: as ``Scope``); at most ``limit``
    (None: all), newest first."""

    player: str | None = None
    game: str | None = None
    since: date | datetime | None = None
    until: date | datetime | None = None
    limit: int | None = DEFAULT_LIMIT

    def __post_init__(self) -> None:
        for name in ("player", "game"):
            if not isinstance(getattr(self, name), str | None):
                raise ValueError(f"{name} must be text, not {getattr(self, name)!r}")
        Scope(since=self.since, until=self.until)       # checks the dates
        lim = self.limit
        if lim is not None and (isinstance(lim, bool) or not isinstance(lim, int) or lim < 1):
            raise ValueError(f"limit must be a whole number >= 1 or None, got {lim!r}")

    def dates(self) -> tuple[str, dict[str, Any]]:
        """The date range as one condition over a ``games`` row aliased ``g``."""
        return scope_sql(Scope(since=self.since, until=self.until), "g")


# The sessions of a selection (CTE ``picked``: game, session), each with its span, its games,
# and its players' totals; the winners are the players at the top total unless all are level.
_SUMMARY = """
tot AS (
    SELECT g.game, g.session, s.player_id, count(*)::BIGINT AS games,
           sum(s.score)::BIGINT AS total, min(g.started) AS first_game
    FROM picked p JOIN games g ON g.game = p.game AND g.session = p.session
    JOIN seats s ON s.game_id = g.game_id
    GROUP BY ALL),
span AS (
    SELECT g.game, g.session, min(g.started) AS started, max(g.ended) AS ended,
           count(*)::BIGINT AS games
    FROM picked p JOIN games g ON g.game = p.game AND g.session = p.session GROUP BY ALL),
summary AS (
    SELECT game, session, max(total) AS top, min(total) AS bottom,
           list({'player_id': player_id, 'games': games, 'total': total}
                ORDER BY total DESC, player_id) AS players,
           list(player_id ORDER BY player_id) FILTER (WHERE total = top_) AS leaders
    FROM (SELECT *, max(total) OVER (PARTITION BY game, session) AS top_ FROM tot)
    GROUP BY ALL)
SELECT x.session, x.game, x.started, x.ended, x.games, len(m.players)::BIGINT AS n_players,
       m.players, CASE WHEN m.top = m.bottom THEN []::VARCHAR[] ELSE m.leaders END AS winners,
       m.top AS top_total, m.top = m.bottom AS level
FROM span x JOIN summary m ON m.game = x.game AND m.session = x.session
"""


def sessions_list(con: duckdb.DuckDBPyConnection,
                  f: SessionFilter = SessionFilter()) -> tuple[list[dict[str, Any]], bool]:
    """The sessions of the filter, newest first (the first game's start, then the session id,
    descending), and whether more matched than its limit. Each: session, game, started (the
    first game's start), ended (the last game's end), games, n_players, players (each
    ``{player_id, games, total}``, highest total first, then id), winners (the player ids at
    the top total, by id; empty when every player is level), top_total, level."""
    cond, params = f.dates()
    sql = f"""WITH picked AS (
    SELECT g.game, g.session, min(g.started) AS started FROM games g
    WHERE g.session IS NOT NULL AND ($game::VARCHAR IS NULL OR g.game = $game)
    GROUP BY ALL
    HAVING count(*) FILTER (WHERE {cond}) > 0
       AND ($player::VARCHAR IS NULL OR EXISTS (
           SELECT 1 FROM games y JOIN seats s ON s.game_id = y.game_id
           WHERE y.game = g.game AND y.session = g.session AND s.player_id = $player))
    ORDER BY started DESC, g.session DESC, g.game DESC LIMIT $limit),
{_SUMMARY}
ORDER BY x.started DESC, x.session DESC, x.game DESC"""
    rows = con.execute(sql, params | {"game": f.game, "player": f.player, "limit":
                                      None if f.limit is None else f.limit + 1}).fetchall()
    cols = ("session", "game", "started", "ended", "games", "n_players", "players", "winners",
            "top_total", "level")
    out = [dict(zip(cols, r, strict=True)) for r in rows]
    more = f.limit is not None and len(out) > f.limit
    return out[:f.limit], more


def session_types(con: duckdb.DuckDBPyConnection, session: str) -> list[str]:
    """The game types that have games under this session id (normally one; none: unknown)."""
    rows = con.execute("SELECT DISTINCT game FROM games WHERE session = ? ORDER BY game",
                       [str(session)]).fetchall()
    return [r[0] for r in rows]


def session_summary(con: duckdb.DuckDBPyConnection, session: str,
                    game: str) -> dict[str, Any] | None:
    """One session's row of ``sessions_list`` (None when it has no game)."""
    sql = f"""WITH picked AS (SELECT DISTINCT game, session FROM games
                              WHERE session = $session AND game = $game),
{_SUMMARY}"""
    rows = con.execute(sql, {"session": str(session), "game": str(game)}).fetchall()
    if not rows:
        return None
    cols = ("session", "game", "started", "ended", "games", "n_players", "players", "winners",
            "top_total", "level")
    return dict(zip(cols, rows[0], strict=True))


def session_detail(con: duckdb.DuckDBPyConnection, session: str,
                   game: str) -> list[dict[str, Any]]:
    """One session's games in order, one row per seat: n (1, 2, …: the game's number in the
    session), game_id, started, ended, winning_side, winners (the game's), seat, player_id,
    side, result (win / loss / draw), score, total (the player's running total after this
    game, over the session's games so far). By n, then seat; empty for an unknown session."""
    sql = """WITH g AS (
    SELECT game_id, started, ended, winning_side, winners,
           row_number() OVER (ORDER BY started, game_id) AS n
    FROM games WHERE session = $session AND game = $game)
SELECT g.n, g.game_id, g.started, g.ended, g.winning_side, g.winners, s.seat, s.player_id,
       s.side, s.result, s.score,
       sum(s.score) OVER (PARTITION BY s.player_id ORDER BY g.n
                          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)::BIGINT AS total
FROM g JOIN seats s ON s.game_id = g.game_id
ORDER BY g.n, s.seat"""
    cur = con.execute(sql, {"session": str(session), "game": str(game)})
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def games_without_session(con: duckdb.DuckDBPyConnection,
                          f: SessionFilter = SessionFilter()) -> int:
    """How many games of the filter (game type, player, dates) have no session id: the games a
    sessions list leaves out."""
    cond, params = f.dates()
    (row,) = con.execute(
        f"SELECT count(*) FROM games g WHERE g.session IS NULL AND "
        "($game::VARCHAR IS NULL OR g.game = $game) AND "
        "($player::VARCHAR IS NULL OR EXISTS (SELECT 1 FROM seats s "
        f"WHERE s.game_id = g.game_id AND s.player_id = $player)) AND {cond}",
        params | {"game": f.game, "player": f.player}).fetchall()
    return int(row[0])


def session_view(con: duckdb.DuckDBPyConnection, session: str,
                 game: str | None = None) -> dict[str, Any]:
    """Everything one session's page shows, read on one connection: types (the game types
    under this session id), game (the one shown: ``game`` if it is one of them, else the only
    one; None when unknown or when several need choosing), summary (``session_summary``) and
    games (``session_detail``)."""
    types = session_types(con, session)
    chosen = game if game in types else (types[0] if len(types) == 1 else None)
    if chosen is None:
        return {"types": types, "game": None, "summary": None, "games": []}
    return {"types": types, "game": chosen, "summary": session_summary(con, session, chosen),
            "games": session_detail(con, session, chosen)}
