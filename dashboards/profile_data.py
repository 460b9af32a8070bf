"""The players page's profile queries: a player's record, results by seat, side and over time,
tendencies (the catalog, docs/decisions.md), partnerships and games under one scope (game,
date range, seat: ``warehouse.tendencies.Scope``), and each seat's key tendencies "as of" a
game for the replay page. Cached like ``dashboards.data`` by the file's identity; a profile's
queries run together on one short-lived read-only connection (``profile_tables``), and
``whole_profile`` runs every query of the page uncached, for a benchmark."""

from __future__ import annotations

from dataclasses import astuple
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import streamlit as st

from dashboards import data
from warehouse import queries as wq
from warehouse import reviews as wr
from warehouse import tendencies as wt
from warehouse.slices import player_slice
from warehouse.tendencies import Scope

GAMES_SHOWN = 500       # the latest games of the player listed on the profile
BLOCKS = (5, 10, 20, 50, 100, 200, 500)     # the choices of games per block, over time
MAX_BLOCKS = 20          # the default block size keeps the chart within this many points

# The named queries the profile runs one by one (``_query``), by module.
QUERIES = {"player_tendencies": wt, "partnerships": wt, "as_of": wt, "player_span": wq,
           "results_over_time": wq, "accuracy": wr, "worst": wr}


def default_block(games: int) -> int:
    """The smallest of BLOCKS that shows ``games`` games in at most MAX_BLOCKS blocks."""
    return next((b for b in BLOCKS if -(-games // b) <= MAX_BLOCKS), BLOCKS[-1])


def base_tables(con: Any, player: str) -> dict[str, Any]:
    """What the profile's filters need, on one connection: record_all (the unscoped record by
    game, seat and side) and span (games, first and last start). Two queries over the whole
    tables cost less than fetching the player's slice for them (23 vs 46 ms on 10M events)."""
    return {"record_all": wq.player_results(con, player), "span": wq.player_span(con, player)}


def profile_tables(con: Any, player: str, game: str | None = None,
                   scope: Scope | None = None, block: int | None = None) -> dict[str, Any]:
    """Every scoped query of a player's profile on one connection, the player's own rows
    read from his slice (warehouse.slices): record (by game, seat and side), by_seat,
    by_side (results with intervals and the population's rate), tendencies (catalog game ->
    its player_tendencies, for the games played in scope), partnerships, games (the latest
    GAMES_SHOWN), over_time (results in blocks of ``block`` games; None: ``default_block``
    of the games in scope), that block, and scores (every game's score and the running net
    score per game type: ``score_over_time``)."""
    with player_slice(con, player) as t:
        record = wq.player_results(con, player, scope, t)
        if game is not None:
            record = record.filter(pc.equal(record["game"], game))
        played = set(record["game"].to_pylist())
        block = block or default_block(sum(record["games"].to_pylist()))
        return {
            "record": record,
            "by_seat": wq.results_by(con, player, "seat", game, scope, t),
            "by_side": wq.results_by(con, player, "side", game, scope, t),
            "tendencies": _tendencies(con, player,
                                      [g for g in tendency_games() if g in played], scope),
            "partnerships": wt.partnerships(con, player, game, scope, t),
            "games": wq.player_games(con, player, game, scope, GAMES_SHOWN, t),
            "over_time": wq.results_over_time(con, player, game, scope, block, t),
            "block": block,
            "scores": wq.score_over_time(con, player, game, scope, t),
        }


def _tendencies(con: Any, player: str, games: list[str],
                scope: Scope | None) -> dict[str, pa.Table]:
    """Game -> the player's ``player_tendencies`` of that game, all games in one query (each
    figure is per tendency, so asking for several games at once changes none)."""
    if not games:
        return {}
    ts = [t for g in games for t in wt.games_of(g)]
    rows = wt.figures(con, [player], ts, scope).drop_columns(["player_id"])
    return {g: rows.filter(pc.equal(rows["game"], g)) for g in games}


def whole_profile(player: str, game: str | None = None, scope: Scope | None = None,
                  block: int | None = None) -> dict[str, Any]:
    """Every query the profile page runs for this player, game and scope, uncached, on the
    dashboard's connection to its warehouse, as the page runs them: ``base_tables`` (for the
    filters) and ``profile_tables`` (``block`` games a block; None: ``default_block``). For
    timing a player's whole profile."""
    with data.warehouse(str(data.db_path())).connect() as con:
        return base_tables(con, player) | profile_tables(con, player, game, scope, block)


def _fingerprint() -> tuple[str, data.Fingerprint]:
    path = str(data.db_path())
    fp = data.fingerprint(path)
    if fp is None:
        raise data.NoWarehouse(path)
    return path, fp


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def _cached_profile(path: str, fp: data.Fingerprint, player: str, game: str | None,
                    scope: tuple[Any, ...] | None, block: int | None) -> dict[str, Any]:
    try:
        with data.warehouse(path).connect() as con:
            if scope is None:
                return base_tables(con, player)
            return profile_tables(con, player, game, Scope(*scope), block)
    except FileNotFoundError:
        raise data.NoWarehouse(path) from None


def base(player: str) -> dict[str, Any]:
    """What the profile's filters need (``base_tables``), cached."""
    path, fp = _fingerprint()
    return _cached_profile(path, fp, player, None, None, None)


def profile(player: str, game: str | None = None, scope: Scope | None = None,
            block: int | None = None) -> dict[str, Any]:
    """The scoped tables of a player's profile (``profile_tables``), cached."""
    path, fp = _fingerprint()
    return _cached_profile(path, fp, player, game, astuple(scope or Scope()), block)


@st.cache_data(show_spinner=False, max_entries=256, ttl=3600)
def _cached(path: str, fp: data.Fingerprint, name: str, args: tuple[Any, ...]) -> Any:
    try:
        with data.warehouse(path).connect() as con:
            return getattr(QUERIES[name], name)(con, *args)
    except FileNotFoundError:
        raise data.NoWarehouse(path) from None


def _query(name: str, *args: Any) -> Any:
    if name not in QUERIES:
        raise KeyError(f"not a profile query: {name!r}")
    path, fp = _fingerprint()
    return _cached(path, fp, name, args)


def _scope_args(scope: Scope | None) -> Scope | None:
    return None if scope is None or scope.is_all() else scope


def tendency_games() -> tuple[str, ...]:
    """The games the tendency catalog covers, in catalog order."""
    return tuple(dict.fromkeys(t.game for t in wt.catalog()))


def descriptions(game: str | None = None) -> dict[str, str]:
    """Tendency name -> description for one game's catalog (or every game's)."""
    return {t.name: t.description for t in wt.catalog(game)}


def labels(game: str | None = None) -> dict[str, str]:
    """Tendency name -> its label (the readable name shown in its place), for one game's
    catalog (or every game's): ``warehouse.tendencies.labels``."""
    return wt.labels(game)


def player_tendencies(player: str, game: str, scope: Scope | None = None) -> pa.Table:
    """One player's tendencies in one game (``warehouse.tendencies.player_tendencies``)."""
    return _query("player_tendencies", player, game, wt.MIN_OPPORTUNITIES, _scope_args(scope))


def partnerships(player: str, game: str | None = None, scope: Scope | None = None) -> pa.Table:
    """How the player does with each teammate and opposite (``partnerships``)."""
    return _query("partnerships", player, game, _scope_args(scope))


def player_span(player: str, game: str | None = None) -> dict[str, Any]:
    """How many games the player played and the first and last start (``player_span``)."""
    return _query("player_span", player, game)


def results_over_time(player: str, game: str | None = None, scope: Scope | None = None,
                      block: int = 20) -> pa.Table:
    """The player's results in blocks of ``block`` games (``results_over_time``)."""
    return _query("results_over_time", player, game, _scope_args(scope), block)


def accuracy(player: str, game: str | None = None,
             scope: Scope | None = None) -> list[dict[str, Any]]:
    """The player's review accuracy per game type beside everyone's (``warehouse.reviews``)."""
    return _query("accuracy", player, game, _scope_args(scope))  # type: ignore[no-any-return]


def worst(player: str, game: str | None = None, scope: Scope | None = None,
          limit: int = 10) -> list[dict[str, Any]]:
    """The player's graded decisions with the largest loss (``warehouse.reviews.worst``)."""
    return _query("worst", player, game, _scope_args(scope), limit)  # type: ignore[no-any-return]


def as_of(game_id: str) -> pa.Table:
    """Each seat's player and key tendencies from the games before this one (``as_of``)."""
    return _query("as_of", game_id)
