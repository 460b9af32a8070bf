"""``liujia ingest`` and ``liujia rebuild`` on the command line: output and exit codes."""

from __future__ import annotations

import json

import duckdb

from engine.log import write_log
from liujia.cli import main


def test_ingest_exit_0_then_already_present(tmp_path, games, capsys):
    write_log(tmp_path / "a.arrows", games[:3])
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(tmp_path), "--db", str(db), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "3 game(s) read = 3 loaded + 0 already present + 0 quarantined" in out
    assert main(["ingest", str(tmp_path / "a.arrows"), "--db", str(db)]) == 0
    assert "= 0 loaded + 3 already present + 0 quarantined" in capsys.readouterr().out


def test_ingest_exit_1_lists_what_was_quarantined(tmp_path, games, illegal, capsys):
    write_log(tmp_path / "a.arrows", [games[0], illegal])
    (tmp_path / "b.arrows").write_bytes(b"PK\x03\x04 a zip, not a log")
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(tmp_path), "--db", str(db), "-q"]) == 1
    out = capsys.readouterr().out
    assert "= 1 loaded + 0 already present + 1 quarantined; 1 file-level problem" in out
    assert "replay/illegal" in out and illegal[0].game_id in out
    assert "file/not_a_log" in out and "b.arrows" in out
    # the same input again: still exit 1 (the input still has problems), nothing added
    assert main(["ingest", str(tmp_path), "--db", str(db), "-q"]) == 1
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM quarantine").fetchall()[0][0] == 2


def test_ingest_exit_2_for_a_missing_path(tmp_path, capsys):
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(tmp_path / "missing"), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "missing: no such file or folder" in err
    assert not db.exists()


def test_ingest_exit_2_for_an_unusable_database(tmp_path, games, capsys):
    write_log(tmp_path / "a.arrows", games[:1])
    not_a_db = tmp_path / "w.duckdb"
    not_a_db.write_text("this is not a DuckDB file")
    assert main(["ingest", str(tmp_path / "a.arrows"), "--db", str(not_a_db)]) == 2
    assert "liujia:" in capsys.readouterr().err
    assert not_a_db.read_text() == "this is not a DuckDB file"


def test_ingest_json_summary(tmp_path, games, illegal, capsys):
    write_log(tmp_path / "a.arrows", [games[0], illegal])
    code = main(["ingest", str(tmp_path), "--db", str(tmp_path / "w.duckdb"), "--json"])
    s = json.loads(capsys.readouterr().out)
    assert code == 1
    assert s["games_read"] == s["loaded"] + s["already_present"] + s["quarantined"] == 2
    assert s["reconciles"] is True and s["run_id"] == 1
    [issue] = s["issues"]
    assert issue["code"] == "illegal" and issue["rule_id"] and issue["seq"] > 0


def test_rebuild_command(tmp_path, games, capsys):
    write_log(tmp_path / "a.arrows", games[:2])
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(tmp_path), "--db", str(db), "-q"]) == 0
    assert main(["ingest", str(tmp_path), "--db", str(db), "-q"]) == 0
    assert main(["rebuild", str(tmp_path), "--db", str(db), "-q"]) == 0
    assert "rebuild run 1" in capsys.readouterr().out
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*), min(command) FROM ingest_runs").fetchall() == \
            [(1, "rebuild")]
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 2


def test_workers_must_be_positive(tmp_path, games, capsys):
    write_log(tmp_path / "a.arrows", games[:1])
    assert main(["ingest", str(tmp_path), "--db", str(tmp_path / "w.duckdb"), "-j", "0"]) == 2
    assert "--workers" in capsys.readouterr().err
