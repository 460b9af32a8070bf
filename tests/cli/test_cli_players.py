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
    write_log(root / "liuhu.arrows", [g.events for g in simulate("liuhu", 12, seed=8)])
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
    assert [(r["player_id"], r["game"]) for r in got] == [(r["player_id"], r["game"])
                                                          for r in want]
    assert len({r["game"] for r in got}) == 3      # one row per player and game type
    assert [(r["games"], r["wins"], r["losses"], r["draws"]) for r in got] == [
        (r["games"], r["wins"], r["losses"], r["draws"]) for r in want]
    assert all(r["wins"] + r["losses"] + r["draws"] <= r["games"] for r in got)


def test_text_search_game_sort_and_limit(players_db, capsys):
    want = _want(players_db, "keng")
    assert main(["players", "--db", str(players_db), "--game", "keng", "--limit", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["player", "game", "games"]
    assert [line.split()[0] for line in out[1:4]] == [r["player_id"] for r in want[:3]]
    assert out[4] == f"… 3 of {len(want)} rows shown (--limit 0 shows all)"
    assert main(["players", "--db", str(players_db), "--sort", "id", "--json"]) == 0
    ids = [json.loads(x)["player_id"] for x in capsys.readouterr().out.splitlines()]
    assert ids == sorted(ids)
    assert main(["players", "--db", str(players_db), "--sort", "win-rate", "--json"]) == 0
    rates = [json.loads(x)["rate"] for x in capsys.readouterr().out.splitlines()]
    known = [r for r in rates if r is not None]
    assert known == sorted(known, reverse=True) and rates[:len(known)] == known


def test_search_ignores_case_and_no_match_exits_1(players_db, capsys):
    assert main(["players", "--db", str(players_db), "--search", "nobody-here"]) == 1
    assert "no player whose id contains 'nobody-here'" in capsys.readouterr().err
    assert main(["players", "--db", str(players_db), "--search", "PLAYER-0"]) == 0
    shown = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]
             if ": games are " not in line]           # not the legend line
    assert shown and all(x.startswith("player-0") for x in shown)     # ignoring case
    with pytest.raises(SystemExit) as exc:
        main(["players", "--db", str(players_db), "--limit", "-3"])
    assert exc.value.code == 2


def test_each_game_its_headline_rate_and_the_score(players_db, capsys):
    """扑克六湖's headline is hands won / hands (most seats neither win nor pay: a rate over
    wins + losses read far too high), said in a legend line; every other game's is wins /
    decided; the net score and the score per game with its interval are the seats' scores."""
    assert main(["players", "--db", str(players_db), "--json", "--limit", "0"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    for r in rows:
        n = r["games"] if r["game"] == "liuhu" else r["wins"] + r["losses"]
        assert r["rate_n"] == n
        assert r["rate"] == (pytest.approx(r["wins"] / n) if n else None)
        assert r["rate_name"] == ("hands won" if r["game"] == "liuhu" else "win rate")
        assert r["score_mean"] == pytest.approx(r["score"] / r["games"])
        if r["games"] >= 2:
            half = (r["score_high"] - r["score_low"]) / 2
            assert half == pytest.approx(1.96 * r["score_sd"] / r["games"] ** 0.5)
    liuhu = [r for r in rows if r["game"] == "liuhu"]
    assert any(r["draws"] > 0 for r in liuhu)
    assert all(r["rate"] <= (r["win_rate"] or 0) for r in liuhu if r["rate"] is not None)
    assert main(["players", "--db", str(players_db), "--game", "liuhu", "--limit", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("liuhu: games are hands settled, wins hands won, losses hands "
                              "paid") and "its rate is hands won" in out[-1]
    first = next(r for r in liuhu if r["player_id"] == out[1].split()[0])
    assert f"{first['score']:+,}" in out[1].split()
