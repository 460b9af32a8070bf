"""Ingest of 够级 logs, alone and beside 六人坑 logs: every game loads, damaged ones are
quarantined with the 够级 rule they break, and the games/seats rows come from the game's
result (winning team, points +2 … −2 by position, teams)."""

from __future__ import annotations

import json

import duckdb
import pytest

from engine.events import Event
from engine.log import write_log
from engine.replay import validate_events
from engine.sim import simulate
from ingest import ingest_paths
from liujia.cli import main
from tests.gouji_logs import tampered, wrong_starter_game


@pytest.fixture(scope="module")
def gouji_games() -> list[list[Event]]:
    """Six seeded 够级 games: a session of four, then two."""
    return [g.events for g in simulate("gouji", 6, seed=31, session_games=4)]


def _rows(db, sql: str) -> list[dict]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.sql(sql).to_arrow_table().to_pylist()


def test_gouji_and_keng_logs_load_together(tmp_path, gouji_games, games):
    logs = tmp_path / "logs"
    (logs / "gouji").mkdir(parents=True)
    write_log(logs / "gouji" / "a.arrows", gouji_games[:4])
    write_log(logs / "gouji" / "b.arrows", gouji_games[4:])
    write_log(logs / "keng.arrows", games[:3])
    db = tmp_path / "w.duckdb"
    s = ingest_paths([logs], db=db, progress=False)
    n_events = sum(map(len, gouji_games)) + sum(map(len, games[:3]))
    assert (s.files, s.games_read, s.loaded, s.quarantined) == (3, 9, 9, 0) and s.clean
    assert s.events_loaded == n_events
    assert _rows(db, "SELECT game, count(*) AS n, sum(events) AS e FROM games GROUP BY game "
                     "ORDER BY game") == [
        {"game": "gouji", "n": 6, "e": sum(map(len, gouji_games))},
        {"game": "keng", "n": 3, "e": sum(map(len, games[:3]))}]
    assert _rows(db, "SELECT count(*) AS n FROM seats") == [{"n": 54}]
    again = ingest_paths([logs], db=db, progress=False)
    assert (again.loaded, again.already_present) == (0, 9)


def test_gouji_rows_come_from_the_result(tmp_path, gouji_games):
    write_log(tmp_path / "g.arrows", gouji_games)
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path / "g.arrows"], db=db, progress=False)
    games = {r["game_id"]: r for r in _rows(db, "SELECT * FROM games")}
    seats = _rows(db, "SELECT * FROM seats ORDER BY game_id, seat")
    for events in gouji_games:
        start, end = json.loads(events[0].payload), json.loads(events[-1].payload)
        row = games[events[0].game_id]
        assert (row["game"], row["rules_version"]) == ("gouji", "gouji-1")
        assert json.loads(row["options"]) == start["options"]
        assert row["players"] == start["players"]
        assert (row["session"], row["previous_game"]) == (start["session"],
                                                          start["previous_game"])
        assert row["opener"] is None and row["reason"] is None    # 六人坑-only columns
        win = None if end["result"] == "draw" else end["result"]
        assert row["winning_side"] == win == (events[-1].tag if win else None)
        assert row["seats"] == 6 and row["winners"] == [
            s for s in range(6) if win is not None and ("even", "odd")[s % 2] == win]
        assert json.loads(row["result"]) == end
        mine = [r for r in seats if r["game_id"] == events[0].game_id]
        assert [r["score"] for r in mine] == end["points"]
        assert sorted(r["score"] for r in mine) == [-2, -1, 0, 0, 1, 2]
        assert [r["side"] for r in mine] == ["even", "odd"] * 3
        assert [r["place"] for r in mine] == end["positions"]
        assert [r["result"] for r in mine] == [
            "draw" if win is None else "win" if r["side"] == win else "loss" for r in mine]
        assert all(r["cards_left"] is None for r in mine)
        assert [r["player_id"] for r in mine] == start["players"]


def test_tampered_gouji_game_is_quarantined_with_its_rule(tmp_path, gouji_games, games,
                                                          capsys):
    bad = tampered(gouji_games[1])
    err = validate_events(bad).error
    assert err.rule_id.startswith("GJ-")
    write_log(tmp_path / "g.arrows", [gouji_games[0], bad, gouji_games[2]])
    write_log(tmp_path / "k.arrows", games[:2])
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(tmp_path), "--db", str(db), "-q"]) == 1
    out = capsys.readouterr().out
    assert "5 game(s) read = 4 loaded + 0 already present + 1 quarantined" in out
    assert f"replay/illegal {err.rule_id}" in out and bad[0].game_id in out
    [row] = _rows(db, "SELECT * FROM quarantine")
    assert (row["stage"], row["code"], row["game_id"]) == ("replay", "illegal", bad[0].game_id)
    assert (row["rule_id"], row["seq"], row["seat"]) == (err.rule_id, err.seq, err.seat)


def test_gouji_session_rule_quarantines_the_wrong_starter(tmp_path, gouji_games):
    wrong = wrong_starter_game(gouji_games[0])
    write_log(tmp_path / "s.arrows", [gouji_games[0], wrong])
    db = tmp_path / "w.duckdb"
    s = ingest_paths([tmp_path / "s.arrows"], db=db, progress=False)
    assert (s.loaded, s.quarantined) == (1, 1) and s.reconciles
    [row] = _rows(db, "SELECT * FROM quarantine")
    assert (row["game_id"], row["code"], row["rule_id"], row["seq"]) == (
        wrong[0].game_id, "illegal", "GJ-9", 0)
