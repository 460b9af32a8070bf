"""Ingest fills the decisions table from the replay (engine.decisions), for the games it loads
and only those; a rebuild makes the same rows again; ingesting twice adds nothing."""

from __future__ import annotations

import duckdb

from engine.decisions import COLUMNS, decisions_of_games
from engine.games import find_game
from engine.log import write_log
from engine.sim import simulate
from ingest import ingest_paths, rebuild_paths
from tests.ingest.conftest import make_illegal

ORDER = "ORDER BY game_id, seq, seat, chosen"


def _rows(db, where: str = "") -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(f"SELECT {', '.join(COLUMNS)} FROM decisions {where} {ORDER}"
                           ).fetchall()


def _expected(games) -> list[tuple]:
    con = duckdb.connect()
    expected = decisions_of_games(games)   # noqa: F841 (read by the query below)
    return con.execute(f"SELECT {', '.join(COLUMNS)} FROM expected {ORDER}").fetchall()


def test_ingest_loads_the_decisions_of_the_loaded_games_only(tmp_path, games):
    options = find_game("modaoshuang").Options(mds_players=4)
    mds = [g.events for g in simulate("modaoshuang", 3, seed=4, options=options)]
    bad = make_illegal(games[2])
    write_log(tmp_path / "a.arrows", [*games[:2], bad])
    write_log(tmp_path / "b.arrows", mds)
    db = tmp_path / "w.duckdb"
    s = ingest_paths([tmp_path], db=db, progress=False, workers=1)
    assert (s.loaded, s.quarantined) == (5, 1)
    rows = _rows(db)
    assert rows == _expected([*games[:2], *mds]) and len(rows) > 50
    assert not _rows(db, f"WHERE game_id = '{bad[0].game_id}'")
    with duckdb.connect(str(db), read_only=True) as con:
        games_with_rows = con.execute("SELECT count(DISTINCT game_id) FROM decisions").fetchone()
        players = con.execute("SELECT count(*) FROM decisions d JOIN seats s USING (game_id, "
                              "seat) WHERE d.player_id <> s.player_id").fetchone()
    assert games_with_rows == (5,) and players == (0,)

    again = ingest_paths([tmp_path], db=db, progress=False, workers=1, recheck=True)
    assert again.loaded == 0 and _rows(db) == rows
    rebuilt = tmp_path / "r.duckdb"
    rebuild_paths([tmp_path], db=rebuilt, progress=False, workers=2)
    assert _rows(rebuilt) == rows
