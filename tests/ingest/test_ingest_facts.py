"""Ingest fills the facts table from the replay that validates each game (engine.facts), for
the games it loads and only those; ingesting again adds nothing; a rebuild (two workers) makes
the same rows again."""

from __future__ import annotations

import duckdb

from engine.facts import FACTS_ARROW, facts_table
from engine.games import find_game
from engine.log import write_log
from engine.sim import simulate
from ingest import ingest_paths, rebuild_paths
from tests.ingest.conftest import make_illegal

COLUMNS = ", ".join(FACTS_ARROW.names)
ORDER = "ORDER BY game_id, seat, fact"


def _rows(db) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(f"SELECT {COLUMNS} FROM facts {ORDER}").fetchall()


def _expected(games) -> list[tuple]:
    con = duckdb.connect()
    expected = facts_table(games)   # noqa: F841 (read by the query below)
    return con.execute(f"SELECT {COLUMNS} FROM expected {ORDER}").fetchall()


def test_ingest_and_rebuild_load_the_facts_of_the_loaded_games_only(tmp_path, games):
    options = find_game("modaoshuang").Options(mds_players=4)
    mds = [g.events for g in simulate("modaoshuang", 3, seed=4, options=options)]
    gouji = [g.events for g in simulate("gouji", 1, seed=4)]
    bad = make_illegal(games[2])
    write_log(tmp_path / "a.arrows", [*games[:2], bad])
    write_log(tmp_path / "b.arrows", mds)
    write_log(tmp_path / "c.arrows", gouji)
    db = tmp_path / "w.duckdb"
    s = ingest_paths([tmp_path], db=db, progress=False, workers=1)
    assert (s.loaded, s.quarantined) == (6, 1)
    rows = _rows(db)
    assert rows == _expected([*games[:2], *mds, *gouji]) and len(rows) > 30
    assert bad[0].game_id not in {r[0] for r in rows}
    assert {r[1] for r in rows} == {"keng", "modaoshuang", "gouji"}
    again = ingest_paths([tmp_path], db=db, progress=False, workers=1, recheck=True)
    assert again.loaded == 0 and _rows(db) == rows
    rebuilt = tmp_path / "r.duckdb"
    rebuild_paths([tmp_path], db=rebuilt, progress=False, workers=2)
    assert _rows(rebuilt) == rows
