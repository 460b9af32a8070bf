"""``liujia players``: the players list of the warehouse as text and JSON, equal to the
dashboard's query, searchable, of one game, sorted and limited; no match exits 1, a bad
value 2 (player ids cannot hold control characters: ingest refuses them, and the output is
escaped all the same)."""

from __future__ import annotations

import json

import duckdb
import pytest

from engine.games import find_game
from engine.log import write_log
from engine.sim import simulate
from ingest import ingest_paths
from liujia.cli import main
from warehouse.db import SAFE_CONFIG
from warehouse.queries import players_list


@pytest.fixture(scope="module")
def players_db(tmp_path_factory):
    root = tmp_path_factory.mktemp("players")
    write_log(root / "keng.arrows", [g.events for g in simulate("keng", 12, seed=8)])
    write_log(root / "mds.arrows", [g.events for g in simulate(
        "modaoshuang", 4, seed=8, options=find_game("modaoshuang").Options(mds_players=4))])
    db = root / "w.duckdb"
    assert ingest_paths([root], db=db, progress=False, workers=1).clean
    return db


def _want(db, game=None, search=""):
    with duckdb.connect(str(db), read_only=True, config=dict(SAFE_CONFIG)) as con:
        return players_list(con, game, search).to_pylist()


def test_json_is_the_players_query(players_db, capsys):
    assert main(["players", "--db", str(players_db), "--json", "--limit", "0"]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    want = _want(players_db)
    assert [r["player_id"] for r in got] == [r["player_id"] for r in want]
    assert [(r["games"], r["wins"], r["losses"], r["draws"]) for r in got] == [
        (r["games"], r["wins"], r["losses"], r["draws"]) for r in want]
    assert all(r["wins"] + r["losses"] + r["draws"] <= r["games"] for r in got)


def test_text_search_game_sort_and_limit(players_db, capsys):
    want = _want(players_db, "keng")
    assert main(["players", "--db", str(players_db), "--game", "keng", "--limit", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:2] == ["player", "games"]
    assert [line.split()[0] for line in out[1:4]] == [r["player_id"] for r in want[:3]]
    assert out[4] == f"… 3 of {len(want)} players shown (--limit 0 shows all)"
    assert main(["players", "--db", str(players_db), "--sort", "id", "--json"]) == 0
    ids = [json.loads(x)["player_id"] for x in capsys.readouterr().out.splitlines()]
    assert ids == sorted(ids)
    assert main(["players", "--db", str(players_db), "--sort", "win-rate", "--json"]) == 0
    rates = [json.loads(x)["win_rate"] for x in capsys.readouterr().out.splitlines()]
    known = [r for r in rates if r is not None]
    assert known == sorted(known, reverse=True) and rates[:len(known)] == known


def test_search_ignores_case_and_no_match_exits_1(players_db, capsys):
    assert main(["players", "--db", str(players_db), "--search", "nobody-here"]) == 1
    assert "no player whose id contains 'nobody-here'" in capsys.readouterr().err
    assert main(["players", "--db", str(players_db), "--search", "PLAYER-0"]) == 0
    shown = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert shown and all(x.startswith("player-0") for x in shown)     # ignoring case
    with pytest.raises(SystemExit) as exc:
        main(["players", "--db", str(players_db), "--limit", "-3"])
    assert exc.value.code == 2
