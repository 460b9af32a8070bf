"""``liujia demo`` (with --no-serve) and ``liujia serve``'s checks, run in-process."""

from __future__ import annotations

import socket

import pytest

from engine.games import GAMES, find_game
from liujia.cli import main
from liujia.commands import serve as serve_cmd
from liujia.commands.demo import PLAYER_STYLES, UNSTYLED, corpus_plan, data_dir
from liujia.commands.simulate import write_games
from warehouse.db import reader, stored_schema_version
from warehouse.queries import games_by_type
from warehouse.schema import SCHEMA_VERSION


def test_demo_fills_an_empty_warehouse_then_reuses_it(tmp_path, capsys):
    db = tmp_path / "wh" / "demo.duckdb"
    argv = ["demo", "--db", str(db), "--games", "24", "--seed", "5", "--no-serve",
            "--port", "8599"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "is empty: simulating 24" in out
    assert "24 games read, 24 loaded, 0 already present, 0 quarantined" in out
    assert f"\nWarehouse:  {db}" in out and "\\x0a" not in out and "\nDashboard:  http" in out
    assert f"Demo logs:  {data_dir(db)}" in out
    assert "http://127.0.0.1:8599/" in out
    assert "http://127.0.0.1:8599/replay?game=keng-5-0000" in out
    assert "http://127.0.0.1:8599/replay?game=gouji-5-0000" in out
    # every page has its address (issue 26: Players and Audit were missing)
    assert "http://127.0.0.1:8599/players" in out and "http://127.0.0.1:8599/audit?game=" in out
    assert f"liujia serve --db {db} --port 8599" in out
    logs = sorted(data_dir(db).glob("*.arrows"))
    assert logs and data_dir(db).parent == db.parent
    plan = dict(corpus_plan(24))
    assert set(plan) == set(GAMES) and sum(plan.values()) == 24
    assert all(n >= 1 for n in plan.values())
    assert "simulating 24 games, " + " and ".join(
        f"{n} {find_game(game).TITLE}" for game, n in corpus_plan(24)) in out
    with reader(db) as con:
        assert {r["game"]: r["games"] for r in games_by_type(con).to_pylist()} == plan
    # the 够级 logs, simulated in a background process, are the same bytes as in the foreground
    [gouji_log] = [f for f in logs if f.name.startswith("gouji-")]
    [again], _ = write_games(tmp_path / "again", "gouji", plan["gouji"], 5, per_file=500,
                             prefix="demo-", progress=False, policy_name=UNSTYLED,
                             player_policies=PLAYER_STYLES)
    assert again.name == gouji_log.name and again.read_bytes() == gouji_log.read_bytes()
    stamp = db.stat().st_mtime_ns

    assert main(argv) == 0                               # second run: nothing simulated
    out = capsys.readouterr().out
    assert "already holds 24 games: reusing them" in out
    assert "simulating" not in out
    assert db.stat().st_mtime_ns == stamp
    assert sorted(data_dir(db).glob("*.arrows")) == logs


def _version_1(db) -> None:
    """Turn a warehouse into one written by the previous liujia (schema version 1: the
    六人坑-only result columns, no 够级)."""
    import duckdb
    with duckdb.connect(str(db)) as con:
        con.execute("ALTER TABLE games ADD COLUMN deciding_seat TINYINT")
        con.execute("ALTER TABLE seats ADD COLUMN deciding BOOLEAN DEFAULT false")
        con.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
        con.execute("CHECKPOINT")
    assert stored_schema_version(db) == 1


def test_demo_rebuilds_an_old_demo_warehouse(tmp_path, capsys):
    from ingest import ingest_paths

    db = tmp_path / "demo.duckdb"
    old_logs, _ = write_games(data_dir(db), "keng", 6, 5, prefix="demo-", progress=False)
    ingest_paths(old_logs, db=db, progress=False)          # an old demo: 六人坑 only
    _version_1(db)
    argv = ["demo", "--db", str(db), "--games", "12", "--seed", "5", "--no-serve"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"The warehouse {db} has schema version 1, this liujia writes {SCHEMA_VERSION}" in out
    assert "rebuilding it" in out and "rebuild run 1: 12 games read, 12 loaded" in out
    assert stored_schema_version(db) == SCHEMA_VERSION
    with reader(db) as con:
        assert {r["game"]: r["games"] for r in games_by_type(con).to_pylist()} == \
            dict(corpus_plan(12))
    assert main(argv) == 0                                   # then reused as usual
    assert "already holds 12 games: reusing them" in capsys.readouterr().out


def test_demo_names_the_rebuild_for_an_old_warehouse_of_other_logs(tmp_path, capsys):
    from ingest import ingest_paths

    db = tmp_path / "mine.duckdb"
    logs, _ = write_games(tmp_path / "my-logs", "keng", 3, 8, progress=False)
    ingest_paths(logs, db=db, progress=False)
    _version_1(db)
    before = db.read_bytes()
    assert main(["demo", "--db", str(db), "--games", "12", "--no-serve"]) == 2
    err = capsys.readouterr().err
    assert "schema version 1" in err
    assert f"`liujia rebuild {tmp_path / 'my-logs'} --db {db}`" in err
    assert db.read_bytes() == before and not data_dir(db).exists()


def test_demo_rejects_zero_games(tmp_path, capsys):
    assert main(["demo", "--db", str(tmp_path / "x.duckdb"), "--games", "0", "--no-serve"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err


def test_serve_needs_an_existing_warehouse(tmp_path, capsys):
    assert main(["serve", "--db", str(tmp_path / "none.duckdb")]) == 2
    err = capsys.readouterr().err
    assert "no warehouse at" in err and "liujia demo" in err


def test_serve_refuses_a_busy_port(tiny_db, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "--db", str(tiny_db), "--port", str(port)]) == 2
    assert f"port {port} on 127.0.0.1 is in use" in capsys.readouterr().err


def test_streamlit_command_binds_localhost_without_telemetry():
    cmd = serve_cmd.streamlit_command(8123)
    opts = dict(zip(cmd[5::2], cmd[6::2], strict=True))
    assert cmd[1:4] == ["-m", "streamlit", "run"] and cmd[4].endswith("dashboards/app.py")
    assert opts["--server.address"] == "127.0.0.1"
    assert opts["--server.port"] == "8123"
    assert opts["--server.headless"] == "true"
    assert opts["--browser.gatherUsageStats"] == "false"
    assert serve_cmd.APP.is_file()


@pytest.mark.parametrize(("address", "page", "query", "expected"), [
    ("127.0.0.1", "", "", "http://127.0.0.1:8501/"),
    ("0.0.0.0", "replay", "game=g&step=0", "http://127.0.0.1:8501/replay?game=g&step=0"),
])
def test_url(address, page, query, expected):
    assert serve_cmd.url(address, 8501, page, query) == expected
