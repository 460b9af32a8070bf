"""The dashboard's only way to the warehouse: named, cached wrappers of warehouse.queries.

The ingest writes a copy of the database and atomically replaces the file. The dashboard keeps
one verified read-only connection per version of the file (its identity: inode, mtime, size):
opening and verifying one costs ~60 ms, more than most queries. When the file has been
replaced, the next use closes the old connection and opens the new file (a connection holds
the inode it opened, so it never mixes two versions). Cached results are keyed by the same
identity, so a replaced file is read afresh on the next rerun. One lock per file serialises
the process's use of its connection (Streamlit runs sessions in threads).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import streamlit as st

from dashboards.events import event_rows, events_text_rows
from engine.events import Event
from engine.replay import Replay
from warehouse import db as wdb
from warehouse import queries as wq
from warehouse.lake import version_file

DB_ENV = "LIUJIA_DB"   # read by warehouse.db.default_db(); set by `liujia serve --db`
Fingerprint = tuple[int, int, int]


class NoWarehouse(Exception):
    """The warehouse file does not exist."""


def db_path() -> Path:
    """The warehouse file the dashboard reads: $LIUJIA_DB, else the project's default."""
    return Path(wdb.default_db())


def fingerprint(path: Path | str) -> Fingerprint | None:
    """Identity of the file's current version (a lake's manifest), or None when it does not
    exist."""
    try:
        st_ = os.stat(version_file(path))
    except OSError:
        return None
    return (st_.st_ino, st_.st_mtime_ns, st_.st_size)


class Warehouse:
    """The read-only connection to one warehouse file, kept while the file stays the same
    version, reopened once it was replaced."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._con: duckdb.DuckDBPyConnection | None = None
        self._version: Fingerprint | None = None

    def _drop(self) -> None:
        if self._con is not None:
            con, self._con, self._version = self._con, None, None
            con.close()

    @contextmanager
    def connect(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The verified read-only connection to the file's current version; one user at a
        time per process. A DuckDB error in use drops it (the next use opens afresh)."""
        with self._lock:
            version = fingerprint(self.path)
            if self._con is None or version != self._version:
                self._drop()
                con = wdb.connect(self.path, read_only=True)
                # Kept only if the file did not change while it was being opened.
                self._con, self._version = con, version
                if fingerprint(self.path) != version:
                    self._version = None
            try:
                yield self._con
            except duckdb.Error:
                self._drop()
                raise
            finally:
                if self._version is None:
                    self._drop()

    def close(self) -> None:
        """Close the kept connection (the next use opens a new one)."""
        with self._lock:
            self._drop()


@st.cache_resource(show_spinner=False)
def warehouse(path: str) -> Warehouse:
    """The process-wide connection factory of a warehouse file."""
    return Warehouse(path)


# The named queries of warehouse.queries the dashboard runs (looked up by name when run).
QUERIES = frozenset({
    "counts", "games_by_type", "session_games", "session_totals", "results_by_side",
    "recent_games", "recent_by_type", "find_games",
    "game_players", "game_events", "quarantine", "ingest_runs", "player_results",
    "players_list", "search_facts", "search_sessions", "head_to_head", "review_at", "sessions_list", "session_view",
    "games_without_session",
})


@st.cache_data(show_spinner=False, max_entries=512, ttl=3600)
def _cached(path: str, fp: Fingerprint, name: str, args: tuple[Any, ...]) -> Any:
    """One warehouse query's result for one version of the file (fp is only a cache key)."""
    try:
        with warehouse(path).connect() as con:
            return getattr(wq, name)(con, *args)
    except FileNotFoundError:   # replaced or removed between the stat and the connect
        raise NoWarehouse(path) from None


def _query(name: str, *args: Any) -> Any:
    if name not in QUERIES:
        raise KeyError(f"not a dashboard query: {name!r}")
    path = str(db_path())
    fp = fingerprint(path)
    if fp is None:
        raise NoWarehouse(path)
    return _cached(path, fp, name, args)


def current_fingerprint() -> Fingerprint | None:
    """Identity of the warehouse file now (None when missing)."""
    return fingerprint(db_path())


def counts() -> dict[str, int]:
    """Number of games, events, quarantined games and players."""
    return _query("counts")


def games_by_type() -> pa.Table:
    """Games and events per game type."""
    return _query("games_by_type")


def results_by_side() -> pa.Table:
    """Games per game type and outcome: game, outcome (the winning side, 'draw', or 'player'
    when a seat of a game without sides won), games."""
    return _query("results_by_side")


def recent_games(limit: int = 20) -> pa.Table:
    """The most recent games: game_id, game, started, ended, events, seats, reason,
    winning_side, winners."""
    return _query("recent_games", limit)


def recent_by_type(per_type: int = 5) -> pa.Table:
    """The latest games of each game type (the columns of recent_games)."""
    return _query("recent_by_type", per_type)


def find_games(text: str = "", limit: int = 100, game: str | None = None) -> pa.Table:
    """Games (of one game type, if given) whose id or a player id contains the text (the
    columns of recent_games)."""
    return _query("find_games", text, limit, game)


def session_games(game_id: str) -> pa.Table:
    """The games of a game's session, in order (game_id, started)."""
    return _query("session_games", game_id)


def session_totals(game_id: str) -> pa.Table:
    """Each player's totals over a game's session."""
    return _query("session_totals", game_id)


def game_players(game_id: str) -> pa.Table:
    """The seats of one game: seat, player_id, side, place, result, score."""
    return _query("game_players", game_id)


def game_events(game_id: str) -> list[Event]:
    """The events of one game, in seq order."""
    return _query("game_events", game_id)


def quarantine(limit: int = 200) -> pa.Table:
    """Quarantined games with their stage, code, rule id and reason."""
    return _query("quarantine", limit)


def ingest_runs(limit: int = 50) -> pa.Table:
    """The latest ingest runs."""
    return _query("ingest_runs", limit)


def player_results(player_id: str) -> pa.Table:
    """One player's record by game, seat and side: games, wins, losses, draws."""
    return _query("player_results", player_id)


def search_facts(search: Any) -> tuple[list[dict[str, Any]], bool]:
    """The seats a fact search finds and whether there were more (warehouse.search), cached."""
    return _query("search_facts", search)  # type: ignore[no-any-return]


def search_sessions(search: Any) -> tuple[list[dict[str, Any]], bool]:
    """The (session, player) pairs a per-session fact search finds, and whether there were
    more (warehouse.search.find_sessions), cached."""
    return _query("search_sessions", search)  # type: ignore[no-any-return]


def review_at(game_id: str, seq: int) -> dict[str, Any] | None:
    """The warehouse's stored review of one decision (``liujia ingest --review``), cached."""
    return _query("review_at", game_id, seq)  # type: ignore[no-any-return]


def players_list(game: str | None = None, search: str = "",
                 player: str | None = None) -> pa.Table:
    """Every player's record per game type (of one game type, or all; id containing search;
    one player's only), cached (``warehouse.queries.players_list``)."""
    return _query("players_list", game, search, player)


def head_to_head(a: str, b: str) -> pa.Table:
    """Two players' games together per game type and relation, cached."""
    return _query("head_to_head", a, b)


def sessions_list(filt: Any) -> tuple[list[dict[str, Any]], bool]:
    """The sessions a ``warehouse.sessions.SessionFilter`` selects, newest first, and whether
    more matched than its limit."""
    return _query("sessions_list", filt)


def session_view(session: str, game: str | None = None) -> dict[str, Any]:
    """One session: the game types under its id, the one shown, its summary and its games
    with each player's running total (warehouse.sessions.session_view)."""
    return _query("session_view", session, game)


def games_without_session(filt: Any) -> int:
    """How many games of a SessionFilter's selection have no session id."""
    return _query("games_without_session", filt)


@st.cache_resource(show_spinner=False, max_entries=32, ttl=3600)
def _replay(path: str, fp: Fingerprint, game_id: str) -> Replay | None:
    events = _cached(path, fp, "game_events", (game_id,))
    return Replay(events) if events else None


def replay(game_id: str) -> Replay | None:
    """The game as a Replay with checkpoints (shared, never mutated), None if unknown."""
    path = str(db_path())
    fp = fingerprint(path)
    if fp is None:
        raise NoWarehouse(path)
    return _replay(path, fp, game_id)


@st.cache_resource(show_spinner=False, max_entries=64, ttl=3600)
def _rows(path: str, fp: Fingerprint, game_id: str, perspective: int | str) -> list[dict]:
    rp = _replay(path, fp, game_id)
    return [] if rp is None else event_rows(rp.events, perspective, rp.final.players)


def replay_rows(game_id: str, perspective: int | str) -> list[dict[str, Any]]:
    """The game's event list as this perspective may see it (shared, never mutated)."""
    path = str(db_path())
    fp = fingerprint(path)
    if fp is None:
        raise NoWarehouse(path)
    return _rows(path, fp, game_id, perspective)


@st.cache_resource(show_spinner=False, max_entries=64, ttl=3600)
def _rows_table(path: str, fp: Fingerprint, game_id: str, perspective: int | str) -> pa.Table:
    rows = events_text_rows(_rows(path, fp, game_id, perspective))
    cols = ("seq", "seat", "player", "kind", "cards", "detail")
    return pa.table({c: [r[c] for r in rows] for c in cols})


def replay_rows_table(game_id: str, perspective: int | str) -> pa.Table:
    """The event list as an Arrow table with text cards (for a data frame), cached."""
    path = str(db_path())
    fp = fingerprint(path)
    if fp is None:
        raise NoWarehouse(path)
    return _rows_table(path, fp, game_id, perspective)
