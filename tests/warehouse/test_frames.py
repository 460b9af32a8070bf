"""The Polars lazy figures equal the SQL ones, from a connection and from the Parquet export."""

from __future__ import annotations

import json

import polars as pl
import pyarrow.parquet as pq
import pytest

from warehouse import frames as F
from warehouse import queries as q
from warehouse.db import reader


@pytest.fixture(scope="module")
def export(wh, tmp_path_factory):
    out = tmp_path_factory.mktemp("parquet")
    with reader(wh) as con:
        F.export_parquet(con, out)
    return out


def _same(lazy: pl.LazyFrame, table) -> None:
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().to_dicts() == table.to_pylist()


def test_frames_from_a_connection_equal_the_queries(wh, corpus):
    player = json.loads(corpus[0][0].payload)["players"][0]
    with reader(wh) as con:
        _same(F.games_by_type(con), q.games_by_type(con))
        _same(F.results_by_side(con), q.results_by_side(con))
        _same(F.player_results(con, player), q.player_results(con, player))


def test_frames_from_parquet_equal_the_queries(wh, export, corpus):
    player = json.loads(corpus[0][0].payload)["players"][0]
    with reader(wh) as con:
        _same(F.games_by_type(export), q.games_by_type(con))
        _same(F.results_by_side(export), q.results_by_side(con))
        _same(F.player_results(export, player), q.player_results(con, player))


def test_export_is_partitioned_by_game_and_month(wh, export, corpus):
    months = {p.name for p in (export / "events" / "game=keng").iterdir()}
    assert months == {"month=2026-01"}       # simulated games start 2026-01-01, an hour apart
    n_events = pl.scan_parquet(export / "events" / "**" / "*.parquet",
                               hive_partitioning=True).select(pl.len()).collect().item()
    assert n_events == sum(map(len, corpus))
    games = F.games(export).collect()
    assert games.height == 12 and set(games["game"]) == {"keng"}
    assert set(games["month"]) == {"2026-01"}
    assert pq.read_table(export / "quarantine.parquet").num_rows == 2
    assert pq.read_table(export / "ingest_runs.parquet").num_rows == 1


def test_export_again_replaces_the_old_files(wh, export):
    with reader(wh) as con:
        F.export_parquet(con, export)
    files = list((export / "games").rglob("*.parquet"))
    assert len(files) == 1


def test_side_win_rates(wh, corpus):
    wins = sum(json.loads(g[-1].payload)["winning_team"] == "even" for g in corpus)
    with reader(wh) as con:
        rates = F.side_win_rates(con).collect()
    even = rates.filter(pl.col("side") == "even").to_dicts()[0]
    assert (even["games"], even["wins"]) == (12, wins)
