"""``liujia demo`` (with --no-serve) and ``liujia serve``'s checks, run in-process."""

from __future__ import annotations

import socket

import pytest

from liujia.cli import main
from liujia.commands import serve as serve_cmd
from liujia.commands.demo import data_dir


def test_demo_fills_an_empty_warehouse_then_reuses_it(tmp_path, capsys):
    db = tmp_path / "wh" / "demo.duckdb"
    argv = ["demo", "--db", str(db), "--games", "24", "--seed", "5", "--no-serve",
            "--port", "8599"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "is empty: simulating 24" in out
    assert "24 games read, 24 loaded, 0 already present, 0 quarantined" in out
    assert f"Warehouse:  {db}" in out
    assert f"Demo logs:  {data_dir(db)}" in out
    assert "http://127.0.0.1:8599/" in out
    assert "http://127.0.0.1:8599/replay?game=keng-5-0000" in out
    assert f"liujia serve --db {db} --port 8599" in out
    logs = sorted(data_dir(db).glob("*.arrows"))
    assert logs and data_dir(db).parent == db.parent
    stamp = db.stat().st_mtime_ns

    assert main(argv) == 0                               # second run: nothing simulated
    out = capsys.readouterr().out
    assert "already holds 24 games: reusing them" in out
    assert "simulating" not in out
    assert db.stat().st_mtime_ns == stamp
    assert sorted(data_dir(db).glob("*.arrows")) == logs


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
