"""Every named query on the known corpus, against figures computed from the events themselves
(GAME_START and GAME_END payloads, seat parity), never from the same SQL."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime

import pytest

from engine.replay import Replay
from warehouse import queries as q
from warehouse.db import reader


def _start(events):
    return json.loads(events[0].payload)


def _end(events):
    return json.loads(events[-1].payload)


def _when(us: int) -> datetime:
    return datetime.fromtimestamp(us / 1e6, UTC)


def _game_row(events):
    end = _end(events)
    return {"game_id": events[0].game_id, "game": "keng", "started": _when(events[0].ts),
            "ended": _when(events[-1].ts), "events": len(events), "seats": 6,
            "reason": end["reason"], "winning_side": end["winning_team"],
            "winners": [s for s in range(6) if ("even", "odd")[s % 2] == end["winning_team"]]}


def _seats(events):
    win = _end(events)["winning_team"]
    rows = []
    for seat, player in enumerate(_start(events)["players"]):
        team = "even" if seat % 2 == 0 else "odd"
        result = "draw" if win is None else "win" if team == win else "loss"
        rows.append({"seat": seat, "player_id": player, "side": team, "place": None,
                     "result": result, "score": {"win": 1, "loss": -1, "draw": 0}[result]})
    return rows


def _norm(rows):
    """Timestamps compared as instants (DuckDB may name UTC 'Etc/UTC')."""
    return [{k: (v.astimezone(UTC) if isinstance(v, datetime) else v) for k, v in r.items()}
            for r in rows]


@pytest.fixture
def con(wh):
    with reader(wh) as c:
        yield c


def test_games_by_type(con, corpus):
    assert q.games_by_type(con).to_pylist() == [
        {"game": "keng", "games": 12, "events": sum(map(len, corpus))}]


def test_results_by_side(con, corpus):
    wins = Counter(_end(g)["winning_team"] or "draw" for g in corpus)
    expected = [{"game": "keng", "outcome": t, "games": n} for t, n in sorted(wins.items())]
    assert q.results_by_side(con).to_pylist() == expected


def test_recent_games(con, corpus):
    expected = sorted((_game_row(g) for g in corpus), key=lambda r: r["started"],
                      reverse=True)
    assert _norm(q.recent_games(con, limit=5).to_pylist()) == expected[:5]
    assert len(q.recent_games(con).to_pylist()) == 12
    assert q.recent_games(con, limit=0).num_rows == 0
    with pytest.raises(ValueError):
        q.recent_games(con, limit=-1)


def test_find_games_by_player_or_id(con, corpus):
    player = _start(corpus[4])["players"][2]
    by_player = [g for g in corpus if player in _start(g)["players"]]
    got = q.find_games(con, player.upper())
    assert sorted(got.column("game_id").to_pylist()) == sorted(g[0].game_id for g in by_player)
    assert got.column_names == q.recent_games(con).column_names
    gid = corpus[9][0].game_id
    assert q.find_games(con, gid[-4:].upper()).column("game_id").to_pylist() == [gid]
    assert q.find_games(con, "").num_rows == 12
    assert q.find_games(con, "%").num_rows == 0            # text, not a LIKE pattern
    assert q.find_games(con, "' OR 1=1 --").num_rows == 0  # a parameter, not SQL
    assert q.find_games(con, "player", limit=3).num_rows == 3


def test_game_players(con, corpus):
    for g in corpus[:4]:
        assert q.game_players(con, g[0].game_id).to_pylist() == _seats(g)
    assert q.game_players(con, "no-such-game").num_rows == 0


def test_game_events_are_the_logged_events(con, corpus):
    for g in corpus:
        events = q.game_events(con, g[0].game_id)
        assert events == g
    r = Replay(q.game_events(con, corpus[0][0].game_id))
    assert r.final.result == _end(corpus[0])
    assert q.game_events(con, "no-such-game") == []


def test_game_info(con, corpus):
    g = corpus[3]
    info = q.game_info(con, g[0].game_id)
    assert info["players"] == _start(g)["players"]
    assert json.loads(info["options"]) == _start(g)["options"]
    assert json.loads(info["result"]) == _end(g)
    assert bytes(info["final_digest"]) == g[-1].digest
    assert q.game_info(con, "nope") is None


def test_quarantine(con, bad_game):
    rows = q.quarantine(con).to_pylist()
    assert sorted(r["stage"] for r in rows) == ["file", "replay"]
    game = next(r for r in rows if r["stage"] == "replay")
    assert game["game_id"] == bad_game[0].game_id and game["code"] == "illegal"
    assert game["rule_id"] and game["run_id"] == 1 and game["file"].endswith("b.arrows")
    file = next(r for r in rows if r["stage"] == "file")
    assert file["code"] == "not_a_log" and file["game_id"] is None
    assert set(rows[0]) == {"file", "game_id", "seq", "stage", "code", "rule_id", "reason",
                            "run_id", "first_seen"}
    assert q.quarantine(con, limit=1).num_rows == 1


def test_ingest_runs(con, corpus, bad_game):
    [run] = q.ingest_runs(con).to_pylist()
    assert run["run_id"] == 1 and run["finished"] >= run["started"]
    assert (run["files"], run["games_read"], run["loaded"], run["already_present"],
            run["quarantined"], run["events_loaded"]) == (3, 13, 12, 0, 1,
                                                          sum(map(len, corpus)))


def test_player_results(con, corpus):
    player = _start(corpus[0])["players"][0]
    tally: dict[tuple[int, str], list[int]] = {}
    for g in corpus:
        for row in _seats(g):
            if row["player_id"] == player:
                t = tally.setdefault((row["seat"], row["side"]), [0, 0, 0, 0])
                t[0] += 1
                t[1] += row["result"] == "win"
                t[2] += row["result"] == "loss"
                t[3] += row["result"] == "draw"
    expected = [{"game": "keng", "seat": s, "side": t, "games": n, "wins": w, "losses": lo,
                 "draws": d} for (s, t), (n, w, lo, d) in sorted(tally.items())]
    assert q.player_results(con, player).to_pylist() == expected
    assert q.player_results(con, "nobody").num_rows == 0


def test_counts(con, corpus):
    players = {p for g in corpus for p in _start(g)["players"]}
    assert q.counts(con) == {"games": 12, "events": sum(map(len, corpus)), "quarantined": 2,
                             "players": len(players)}


def test_recent_by_type_keeps_every_game_type(tmp_path, corpus):
    """The latest games of each type, a type loaded first included (the overview's list)."""
    from engine.log import write_log
    from engine.sim import simulate
    from ingest import ingest_paths
    from warehouse.db import connect
    gouji = [g.events for g in simulate("gouji", 2, seed=3)]
    write_log(tmp_path / "a.arrows", gouji)                 # older: loaded first
    write_log(tmp_path / "b.arrows", corpus)
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path], db=db, progress=False)
    con = connect(db)
    try:
        rows = q.recent_by_type(con, 3).to_pylist()
        assert [r["game"] for r in rows].count("keng") == 3
        assert {r["game_id"] for r in rows if r["game"] == "gouji"} == {g[0].game_id for g in gouji}
        assert [r["started"] for r in rows] == sorted((r["started"] for r in rows), reverse=True)
        assert q.recent_by_type(con, 0).num_rows == 0
    finally:
        con.close()
