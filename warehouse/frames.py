"""The warehouse figures as Polars LazyFrames, and the Parquet export they can also start from.

A *source* is either a DuckDB connection (the small ``games``/``seats`` tables come over as
Arrow, then stay lazy) or the folder written by ``export_parquet`` (``scan_parquet`` over the
hive-partitioned files). Nothing is collected here: callers collect at the edge.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import cast

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

Source = duckdb.DuckDBPyConnection | str | os.PathLike[str]

PARTITIONED = ("games", "seats", "events")
FLAT = ("quarantine", "ingest_runs")

# Each exported table, with the partition columns (game, month of the game's start, UTC).
_EXPORTS = {
    "games": "SELECT g.*, strftime(timezone('UTC', g.started), '%Y-%m') AS month FROM games g",
    "seats": "SELECT s.*, g.game, strftime(timezone('UTC', g.started), '%Y-%m') AS month "
             "FROM seats s JOIN games g ON g.game_id = s.game_id",
    "events": "SELECT e.*, g.game, strftime(timezone('UTC', g.started), '%Y-%m') AS month "
              "FROM events e JOIN games g ON g.game_id = e.game_id",
    "quarantine": "SELECT * FROM quarantine",
    "ingest_runs": "SELECT * FROM ingest_runs",
}
_PARTITIONING = ds.partitioning(
    pa.schema([("game", pa.string()), ("month", pa.string())]), flavor="hive")


def export_parquet(con: duckdb.DuckDBPyConnection, out_dir: str | os.PathLike[str]) -> Path:
    """Write the warehouse as Parquet: games, seats and events partitioned by game and month
    (hive folders game=…/month=YYYY-MM), quarantine and ingest_runs as single files."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name in PARTITIONED:
        target = out / name
        if target.exists():
            shutil.rmtree(target)
        reader = con.sql(_EXPORTS[name]).to_arrow_reader()
        ds.write_dataset(reader, target, format="parquet", partitioning=_PARTITIONING,
                         basename_template="part-{i}.parquet",
                         existing_data_behavior="overwrite_or_ignore")
    for name in FLAT:
        pq.write_table(con.sql(_EXPORTS[name]).to_arrow_table(), out / f"{name}.parquet")
    return out


def _lazy(source: Source, table: str) -> pl.LazyFrame:
    """A base table as a LazyFrame, from a connection or from a Parquet export folder."""
    if isinstance(source, duckdb.DuckDBPyConnection):
        if table not in ("games", "seats"):
            raise ValueError(f"only games and seats come over from a connection, not {table}")
        sql = "SELECT * FROM games" if table == "games" else "SELECT * FROM seats"
        frame = cast(pl.DataFrame, pl.from_arrow(source.sql(sql).to_arrow_table()))  # a table
        return frame.lazy()
    root = Path(source) / table
    if table in FLAT:
        return pl.scan_parquet(Path(source) / f"{table}.parquet")
    if not root.is_dir():
        raise FileNotFoundError(f"no Parquet export of {table} under {source}")
    return pl.scan_parquet(root / "**" / "*.parquet", hive_partitioning=True)


def games(source: Source) -> pl.LazyFrame:
    """The games table, lazily."""
    return _lazy(source, "games")


def seats(source: Source) -> pl.LazyFrame:
    """The seats table, lazily."""
    return _lazy(source, "seats")


def games_by_type(source: Source) -> pl.LazyFrame:
    """Games and events per game id: game, games, events (as queries.games_by_type)."""
    return (games(source).group_by("game")
            .agg(pl.len().cast(pl.Int64).alias("games"),
                 pl.col("events").sum().cast(pl.Int64).alias("events"))
            .sort("game"))


def results_by_side(source: Source) -> pl.LazyFrame:
    """Games per game and outcome: game, outcome (winning side, 'draw' or 'player'), games
    (as queries.results_by_side)."""
    outcome = (pl.when(pl.col("winning_side").is_not_null()).then(pl.col("winning_side"))
               .when(pl.col("winners").list.len() == 0).then(pl.lit("draw"))
               .otherwise(pl.lit("player")))
    return (games(source).with_columns(outcome.alias("outcome"))
            .group_by("game", "outcome")
            .agg(pl.len().cast(pl.Int64).alias("games"))
            .sort("game", "outcome"))


def player_results(source: Source, player_id: str) -> pl.LazyFrame:
    """One player's record by game, seat and side: game, seat, side, games, wins, losses,
    draws (as queries.player_results)."""
    return (seats(source).filter(pl.col("player_id") == player_id)
            .select("game_id", "seat", "side", "result")
            .join(games(source).select("game_id", "game"), on="game_id")
            .group_by("game", "seat", "side")
            .agg(pl.len().cast(pl.Int64).alias("games"),
                 (pl.col("result") == "win").sum().cast(pl.Int64).alias("wins"),
                 (pl.col("result") == "loss").sum().cast(pl.Int64).alias("losses"),
                 (pl.col("result") == "draw").sum().cast(pl.Int64).alias("draws"))
            .sort("game", "seat", "side", nulls_last=False))


def side_win_rates(source: Source) -> pl.LazyFrame:
    """Win rate per game and side over decided games (seats without a side left out): game,
    side, games, wins, win_rate."""
    return (seats(source).filter((pl.col("result") != "draw") & pl.col("side").is_not_null())
            .join(games(source).select("game_id", "game"), on="game_id")
            .group_by("game", "side")
            .agg(pl.col("game_id").n_unique().cast(pl.Int64).alias("games"),
                 pl.col("game_id").filter(pl.col("result") == "win").n_unique()
                 .cast(pl.Int64).alias("wins"))
            .with_columns((pl.col("wins") / pl.col("games")).alias("win_rate"))
            .sort("game", "side"))
