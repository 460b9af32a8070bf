"""``liujia stats``: a player's tendencies from the warehouse, as text and JSON, equal to the
catalog's query; a player without games exits 1, a bad warehouse 2."""

from __future__ import annotations

import json

import duckdb
import pytest

from engine.log import write_log
from engine.sim import simulate
from ingest import ingest_paths
from liujia.cli import main
from warehouse.db import SAFE_CONFIG
from warehouse.tendencies import player_tendencies


@pytest.fixture(scope="module")
def stats_db(tmp_path_factory):
    root = tmp_path_factory.mktemp("stats")
    write_log(root / "keng.arrows", [g.events for g in simulate("keng", 30, seed=5)])
    write_log(root / "gouji.arrows", [g.events for g in simulate("gouji", 6, seed=5)])
    db = root / "w.duckdb"
    assert ingest_paths([root], db=db, progress=False, workers=1).clean
    return db


def _busiest(db, game: str) -> str:
    with duckdb.connect(str(db), read_only=True, config=dict(SAFE_CONFIG)) as con:
        return con.execute("SELECT player_id FROM seats JOIN games USING (game_id) WHERE game = "
                           "? GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1", [game]
                           ).fetchall()[0][0]


def test_json_is_the_catalog_query(stats_db, capsys):
    player = _busiest(stats_db, "keng")
    assert main(["stats", "--player", player, "--db", str(stats_db), "--json"]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    with duckdb.connect(str(stats_db), read_only=True, config=dict(SAFE_CONFIG)) as con:
        want = player_tendencies(con, player).to_pylist()
    assert got == json.loads(json.dumps(want)) and len(got) >= 8
    assert {r["game"] for r in got} == {"keng"}
    assert all(0 <= r["k"] <= r["n"] and r["low"] <= r["rate"] <= r["high"] for r in got)


def test_text_has_one_line_per_tendency_with_its_sample(stats_db, capsys):
    player = _busiest(stats_db, "gouji")
    assert main(["stats", "--player", player, "--game", "gouji", "--db", str(stats_db)]) == 0
    out = capsys.readouterr().out.splitlines()
    with duckdb.connect(str(stats_db), read_only=True, config=dict(SAFE_CONFIG)) as con:
        want = player_tendencies(con, player, "gouji").to_pylist()
    assert out[0].startswith(f"player {player}: 6 game(s)")
    assert out[1].split()[:3] == ["tendency", "did", "/"] and len(out) == 2 + len(want)
    for line, r in zip(out[2:], want, strict=True):
        assert line.split()[:4] == [r["tendency"], str(r["k"]), "/", str(r["n"])]


def test_unknown_player_and_bad_warehouse(stats_db, tmp_path, capsys):
    assert main(["stats", "--player", "nobody", "--db", str(stats_db)]) == 1
    assert "player nobody has no game in the warehouse" in capsys.readouterr().err
    assert main(["stats", "--player", "p", "--db", str(tmp_path / "none.duckdb")]) == 2
    assert "no warehouse at" in capsys.readouterr().err
