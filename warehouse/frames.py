"""The warehouse figures as Polars LazyFrames, and the Parquet export they can also start from.

A *source* is either a DuckDB connection (the small ``games``/``seats`` tables come over as
Arrow, then stay lazy) or the folder written by ``export_parquet`` (``scan_parquet`` over the
hive-partitioned files). Nothing is collected here: callers collect at the edge.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from engine.cards import N_FACES, format_face

Source = duckdb.DuckDBPyConnection | str | os.PathLike[str]

PARTITIONED = ("games", "seats", "events", "decisions", "facts", "reviews")
FLAT = ("quarantine", "ingest_runs")
_MONTH = "strftime(timezone('UTC', g.started), '%Y-%m') AS month"

# Each exported table, with the partition columns (game, month of the game's start, UTC).
_EXPORTS = {
    "games": "SELECT g.*, strftime(timezone('UTC', g.started), '%Y-%m') AS month FROM games g",
    "seats": "SELECT s.*, g.game, strftime(timezone('UTC', g.started), '%Y-%m') AS month "
             "FROM seats s JOIN games g ON g.game_id = s.game_id",
    "events": "SELECT e.*, g.game, strftime(timezone('UTC', g.started), '%Y-%m') AS month "
              "FROM events e JOIN games g ON g.game_id = e.game_id",
    "decisions": f"SELECT d.*, {_MONTH} FROM decisions d JOIN games g ON g.game_id = d.game_id",
    "facts": f"SELECT f.*, {_MONTH} FROM facts f JOIN games g ON g.game_id = f.game_id",
    "reviews": f"SELECT r.*, {_MONTH} FROM reviews r JOIN games g ON g.game_id = r.game_id",
    "quarantine": "SELECT * FROM quarantine",
    "ingest_runs": "SELECT * FROM ingest_runs",
}
_PARTITIONING = ds.partitioning(
    pa.schema([("game", pa.string()), ("month", pa.string())]), flavor="hive")


FACES = pa.array([format_face(c) for c in range(N_FACES)], pa.string())


def faces_of(cards: pa.Array) -> pa.Array:
    """A list<uint8> column of face codes as a list<string> column of their text faces
    ('As', 'Th', 'RJ': CONVENTIONS.md), list for list."""
    cards = cards.combine_chunks() if isinstance(cards, pa.ChunkedArray) else cards
    values = pc.take(FACES, cards.flatten())
    return pa.ListArray.from_arrays(cards.offsets, values)


def _labels(batch: pa.RecordBatch) -> pa.Array:
    """Each fact row's readable label from its game's catalog (the name where none), looked
    up in one table of every registered game's labels."""
    from engine.games import GAMES, find_game
    known = {(g, f.name): f.label for g in GAMES for f in find_game(g).facts.FACTS}
    return pa.array([known.get(key, key[1]) for key in zip(
        batch.column("game").to_pylist(), batch.column("fact").to_pylist(), strict=True)],
        pa.string())


def readable(name: str, reader: pa.RecordBatchReader) -> pa.RecordBatchReader:
    """The batches of an exported table with readable columns added: ``faces`` after every
    ``cards`` column (events, decisions), ``label`` after a fact's name (facts)."""
    schema = reader.schema
    if "cards" in schema.names:
        at, field, make = schema.get_field_index("cards") + 1, pa.field(
            "faces", pa.list_(pa.string())), lambda b: faces_of(b.column("cards"))
    elif name == "facts":
        at, field, make = schema.get_field_index("fact") + 1, pa.field(
            "label", pa.string()), _labels
    else:
        return reader
    out_schema = schema.insert(at, field)
    batches = (pa.RecordBatch.from_arrays(
        [*b.columns[:at], make(b), *b.columns[at:]], schema=out_schema) for b in reader)
    return pa.RecordBatchReader.from_batches(out_schema, batches)


def export_sizes(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """The rows each exported table will have, in the order of export (PARTITIONED, then
    FLAT): every row of seats, events, decisions, facts and reviews belongs to a game."""
    return {name: int(con.execute(f"SELECT count(*) FROM {name}").fetchall()[0][0])
            for name in (*PARTITIONED, *FLAT)}


def _counted(reader: pa.RecordBatchReader,
             tick: Callable[[int], None]) -> pa.RecordBatchReader:
    """The reader's batches, each one's rows told to ``tick`` as it is taken."""
    def batches() -> Iterator[pa.RecordBatch]:
        for b in reader:
            yield b
            if b.num_rows:
                tick(b.num_rows)
    return pa.RecordBatchReader.from_batches(reader.schema, batches())


def export_parquet(con: duckdb.DuckDBPyConnection, out_dir: str | os.PathLike[str],
                   progress: Callable[[str, int], None] | None = None) -> Path:
    """Write the warehouse as Parquet: games, seats, events, decisions, facts and reviews
    partitioned by game and month (hive folders game=…/month=YYYY-MM), with readable faces beside the
    card codes and labels beside the fact names; quarantine and ingest_runs as single
    files (docs/warehouse.md, *Parquet export*). ``progress(table, rows)``: told when a
    table starts (rows 0) and of the rows (more than 0) of each batch as it goes to its
    files."""
    def told(name: str) -> Callable[[int], None]:
        def tick(rows: int) -> None:
            if progress is not None:
                progress(name, rows)
        tick(0)
        return tick

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name in PARTITIONED:
        tick = told(name)
        target = out / name
        if target.exists():
            shutil.rmtree(target)
        reader = readable(name, con.sql(_EXPORTS[name]).to_arrow_reader())
        ds.write_dataset(_counted(reader, tick) if progress else reader, target,
                         format="parquet", partitioning=_PARTITIONING,
                         basename_template="part-{i}.parquet",
                         existing_data_behavior="overwrite_or_ignore")
    for name in FLAT:
        tick = told(name)
        table = con.sql(_EXPORTS[name]).to_arrow_table()
        pq.write_table(table, out / f"{name}.parquet")
        if table.num_rows:
            tick(table.num_rows)
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
