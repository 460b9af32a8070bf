"""``ingest --review`` fills the reviews table (engine.review) for the games it loads: one row
per decision the engine's own review of the game gives, the same values, grades and candidates;
a rebuild with two worker processes makes the same rows again (the same seed, the same
reviews); a game whose type declares no world sampler is named in a warning and not reviewed;
without --review the table stays empty; the command line takes --review."""

from __future__ import annotations

import dataclasses
import json

import duckdb
import pytest

from engine import games as registry
from engine.games import find_game
from engine.log import write_log
from engine.review import Settings, review_game, review_rows
from engine.sim import simulate
from ingest import ingest_paths, rebuild_paths
from liujia.cli import main
from tests.ingest.conftest import make_illegal

SETTINGS = Settings(seed=3, min_worlds=8, max_worlds=8, batch=8, candidates=4)
COLUMNS = ("game_id", "seq", "seat", "player_id", "options", "worlds", "chosen", "best", "rank",
           "loss", "loss_se", "grade", "withheld", "flag", "review_version", "seed",
           "max_worlds")


def _rows(db) -> list[dict]:
    with duckdb.connect(str(db), read_only=True) as con:
        cur = con.execute(f"SELECT {', '.join(COLUMNS)}, candidates FROM reviews "
                          "ORDER BY game_id, seq")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _expected(games) -> list[dict]:
    out = []
    for events in games:
        n = len(json.loads(events[0].payload)["players"])
        out += review_rows(review_game(events, range(n), SETTINGS), events)
    return sorted(({k: r[k] for k in (*COLUMNS, "candidates")} for r in out),
                  key=lambda r: (r["game_id"], r["seq"]))


@pytest.fixture(scope="module")
def toy_logs(tmp_path_factory, toy_game):
    root = tmp_path_factory.mktemp("reviews")
    games = [g.events for g in simulate(toy_game, 4, seed=9)]
    bad = make_illegal(games[3])
    (root / "logs").mkdir()
    write_log(root / "logs" / "a.arrows", [*games[:3], bad])
    return root, games[:3], bad


def test_ingest_review_stores_the_engines_review_and_rebuild_makes_it_again(toy_logs):
    root, games, bad = toy_logs
    db = root / "w.duckdb"
    s = ingest_paths([root / "logs"], db=db, progress=False, workers=1, review=SETTINGS)
    assert (s.loaded, s.quarantined) == (3, 1)
    rows = _rows(db)
    want = _expected(games)
    assert len(rows) == len(want) == s.reviewed and len(rows) > 10
    for got, exp in zip(rows, want, strict=True):
        assert {k: got[k] for k in COLUMNS} == {k: exp[k] for k in COLUMNS}
        assert [c["text"] for c in got["candidates"]] == [c["text"] for c in exp["candidates"]]
        assert [c["value"] for c in got["candidates"]] == [c["value"] for c in exp["candidates"]]
    assert bad[0].game_id not in {r["game_id"] for r in rows}
    assert {r["seed"] for r in rows} == {3} and {r["max_worlds"] for r in rows} == {8}
    rebuilt = root / "r.duckdb"
    rebuild_paths([root / "logs"], db=rebuilt, progress=False, workers=2, review=SETTINGS)
    assert _rows(rebuilt) == rows


def test_no_review_without_asking_and_none_without_a_sampler(toy_logs, monkeypatch, toy_game):
    root, _, _ = toy_logs
    db = root / "plain.duckdb"
    ingest_paths([root / "logs"], db=db, progress=False, workers=1)
    assert _rows(db) == []
    g = find_game(toy_game)
    monkeypatch.setitem(registry._CACHE, toy_game, dataclasses.replace(g, sample_world=None))
    db2 = root / "nosampler.duckdb"
    s = ingest_paths([root / "logs"], db=db2, progress=False, workers=1, review=SETTINGS)
    assert _rows(db2) == [] and s.reviewed == 0
    assert sum("cannot be reviewed yet (no world sampler)" in w for w in s.warnings) == 3


def test_the_command_line_reviews(toy_logs, capsys):
    root, games, _ = toy_logs
    db = root / "cli.duckdb"
    assert main(["ingest", str(root / "logs"), "--db", str(db), "--quiet", "--review",
                 "--review-worlds", "8", "--review-seed", "3"]) == 1     # one game quarantined
    out = capsys.readouterr().out
    assert "decision(s) reviewed" in out
    rows = _rows(db)
    assert rows and {r["seed"] for r in rows} == {3} and {r["max_worlds"] for r in rows} == {8}
    for bad in ("3", "2000", "x"):
        with pytest.raises(SystemExit) as exc:
            main(["ingest", str(root / "logs"), "--db", str(db), "--review-worlds", bad])
        assert exc.value.code == 2
    assert "--review-worlds" in capsys.readouterr().err


def test_export_writes_the_reviews(toy_logs, tmp_path):
    import pyarrow.dataset as ds

    from warehouse.db import reader
    from warehouse.frames import export_parquet
    root, _, _ = toy_logs
    db = tmp_path / "e.duckdb"
    ingest_paths([root / "logs"], db=db, progress=False, workers=1, review=SETTINGS)
    with reader(db) as con:
        export_parquet(con, tmp_path / "export")
        want = sorted(con.execute("SELECT game_id, seq, loss FROM reviews").fetchall())
    got = ds.dataset(tmp_path / "export" / "reviews", format="parquet",
                     partitioning="hive").to_table()
    assert want and sorted(zip(got["game_id"].to_pylist(), got["seq"].to_pylist(),
                               got["loss"].to_pylist(), strict=True)) == want
    assert set(got["game"].to_pylist()) == {want and "toy_tricks"}
