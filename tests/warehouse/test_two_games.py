"""The named queries, the Polars frames and the Parquet export with two games in the warehouse
(六人坑 and 够级), against figures computed from the logged events."""

from __future__ import annotations

import json
from collections import Counter

import polars as pl
import pytest

from engine.replay import Replay
from warehouse import frames as F
from warehouse import queries as q
from warehouse.db import reader


def _start(events):
    return json.loads(events[0].payload)


def _winner(events) -> str | None:
    """The winning team from GAME_END (六人坑 names it, 够级 gives even/odd/draw)."""
    end = json.loads(events[-1].payload)
    win = end.get("winning_team", end.get("result"))
    return None if win == "draw" else win


@pytest.fixture
def con(mixed_wh):
    with reader(mixed_wh) as c:
        yield c


@pytest.fixture(scope="module")
def export(mixed_wh, tmp_path_factory):
    out = tmp_path_factory.mktemp("mixed-parquet")
    with reader(mixed_wh) as c:
        F.export_parquet(c, out)
    return out


@pytest.fixture(scope="module")
def both(corpus, gouji_corpus):
    return {"keng": corpus, "gouji": gouji_corpus}


def _shared_player(both) -> str:
    keng = {p for g in both["keng"] for p in _start(g)["players"]}
    gouji = {p for g in both["gouji"] for p in _start(g)["players"]}
    return sorted(keng & gouji)[0]


def test_games_by_type_and_counts(con, both):
    assert q.games_by_type(con).to_pylist() == [
        {"game": name, "games": len(gs), "events": sum(map(len, gs))}
        for name, gs in sorted(both.items())]
    players = {p for gs in both.values() for g in gs for p in _start(g)["players"]}
    assert q.counts(con) == {"games": 17, "events": sum(len(g) for gs in both.values()
                                                        for g in gs),
                             "quarantined": 1, "players": len(players)}


def test_results_by_side(con, both):
    expected = []
    for name, gs in sorted(both.items()):
        wins = Counter(_winner(g) or "draw" for g in gs)
        expected += [{"game": name, "outcome": t, "games": n} for t, n in sorted(wins.items())]
    assert q.results_by_side(con).to_pylist() == expected


def test_game_lists_hold_both_games(con, both):
    assert {r["game"] for r in q.recent_games(con, 100).to_pylist()} == {"keng", "gouji"}
    g = both["gouji"][2]
    [row] = q.find_games(con, g[0].game_id).to_pylist()
    assert (row["game"], row["reason"], row["winning_side"]) == ("gouji", None, _winner(g))
    assert row["seats"] == 6
    player = _start(g)["players"][0]
    found = {r["game_id"] for r in q.find_games(con, player).to_pylist()}
    assert {x[0].game_id for x in both["gouji"]} <= found


def test_gouji_game_players_info_and_events(con, both):
    for g in both["gouji"]:
        end = json.loads(g[-1].payload)
        rows = q.game_players(con, g[0].game_id).to_pylist()
        assert [r["score"] for r in rows] == end["points"]
        assert [r["player_id"] for r in rows] == _start(g)["players"]
        assert [r["side"] for r in rows] == ["even", "odd"] * 3
        assert [r["place"] for r in rows] == end["positions"]
        info = q.game_info(con, g[0].game_id)
        assert info["game"] == "gouji" and json.loads(info["result"]) == end
        events = q.game_events(con, g[0].game_id)
        assert events == g and Replay(events).final.result == end


def test_quarantine_names_the_gouji_rule(con):
    [row] = q.quarantine(con).to_pylist()
    assert row["code"] == "illegal" and row["rule_id"].startswith("GJ-")
    assert row["game_id"].startswith("gouji-") and row["file"].endswith("gouji.arrows")


def test_player_results_are_per_game(con, both):
    player = _shared_player(both)
    rows = q.player_results(con, player).to_pylist()
    assert {r["game"] for r in rows} == {"keng", "gouji"}
    for name, gs in both.items():
        mine = [r for r in rows if r["game"] == name]
        played = [g for g in gs if player in _start(g)["players"]]
        assert sum(r["games"] for r in mine) == len(played)
        seat = {g[0].game_id: _start(g)["players"].index(player) for g in played}
        wins = sum(_winner(g) == ("even", "odd")[seat[g[0].game_id] % 2] for g in played)
        assert sum(r["wins"] for r in mine) == wins


def _same(lazy: pl.LazyFrame, table) -> None:
    assert lazy.collect().to_dicts() == table.to_pylist()


@pytest.mark.parametrize("where", ["connection", "parquet"])
def test_frames_equal_the_queries(con, export, both, where):
    src = con if where == "connection" else export
    player = _shared_player(both)
    _same(F.games_by_type(src), q.games_by_type(con))
    _same(F.results_by_side(src), q.results_by_side(con))
    _same(F.player_results(src, player), q.player_results(con, player))
    rates = F.side_win_rates(src).collect()
    assert set(zip(rates["game"], rates["side"], strict=True)) == {
        (g, t) for g in ("gouji", "keng") for t in ("even", "odd")}
    for name, gs in both.items():
        decided = [g for g in gs if _winner(g) is not None]
        for team in ("even", "odd"):
            r = rates.filter((pl.col("game") == name) & (pl.col("side") == team)).to_dicts()[0]
            assert (r["games"], r["wins"]) == (len(decided),
                                               sum(_winner(g) == team for g in decided))


def test_export_partitions_by_game(export, both):
    for table in ("games", "seats", "events"):
        assert {p.name for p in (export / table).iterdir()} == {"game=gouji", "game=keng"}
        assert {p.name for p in (export / table / "game=gouji").iterdir()} == {"month=2026-01"}
    events = pl.scan_parquet(export / "events" / "game=gouji" / "**" / "*.parquet",
                             hive_partitioning=True).collect()
    assert events.height == sum(map(len, both["gouji"]))
    seats = pl.scan_parquet(export / "seats" / "**" / "*.parquet",
                            hive_partitioning=True).collect()
    gouji = seats.filter(pl.col("game") == "gouji")
    assert gouji.height == 6 * len(both["gouji"]) and gouji["cards_left"].null_count() == \
        gouji.height


