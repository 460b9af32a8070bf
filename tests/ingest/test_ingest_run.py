"""ingest_paths / rebuild_paths on real logs and real DuckDB files: reconcile, idempotence,
quarantine of every kind of damage, conflicts, rebuild, and runs that fail leaving no trace."""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from engine.events import batch_to_events
from engine.log import LogWriter, read_log, write_log
from engine.replay import validate_events
from ingest import IngestIOError, ingest_paths, rebuild_paths
from ingest import run as ingest_run


def snapshot(db: Path) -> dict[str, list]:
    """Everything the logs determine (no run ids or clock times), in a stable order."""
    with duckdb.connect(str(db), read_only=True) as con:
        return {
            "games": con.execute("SELECT * EXCLUDE (run_id) FROM games ORDER BY game_id")
            .fetchall(),
            "seats": con.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall(),
            "events": con.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall(),
            "quarantine": con.execute("SELECT * EXCLUDE (run_id, first_seen) FROM quarantine "
                                      "ORDER BY qkey").fetchall(),
        }


def scalar(db: Path, sql: str, params: list | None = None):
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()[0][0]


def qrows(db: Path) -> list[dict]:
    with duckdb.connect(str(db), read_only=True) as con:
        t = con.sql("SELECT * FROM quarantine ORDER BY file, game_id NULLS FIRST, code")
        return t.to_arrow_table().to_pylist()


def test_fresh_ingest_loads_everything_and_reconciles(tmp_path, games):
    write_log(tmp_path / "a.arrows", games[:6])
    write_log(tmp_path / "b.arrows", games[6:])
    db = tmp_path / "w.duckdb"
    s = ingest_paths([tmp_path], db=db, progress=False)
    n_events = sum(map(len, games))
    assert (s.files, s.games_read, s.loaded, s.already_present, s.quarantined) == (2, 10, 10, 0, 0)
    assert s.events_loaded == s.events_read == n_events
    assert s.reconciles and s.clean and s.run_id == 1
    assert scalar(db, "SELECT count(*) FROM games") == 10
    assert scalar(db, "SELECT count(*) FROM events") == n_events
    assert scalar(db, "SELECT count(*) FROM seats") == 60
    with duckdb.connect(str(db), read_only=True) as con:
        run = con.execute("SELECT run_id, command, files, games_read, loaded, already_present, "
                          "quarantined, files_quarantined, events_loaded FROM ingest_runs"
                          ).fetchall()
    assert run == [(1, "ingest", 2, 10, 10, 0, 0, 0, n_events)]
    # the stored events are the log's events, digests included
    with duckdb.connect(str(db), read_only=True) as con:
        digests = dict(con.execute("SELECT game_id, final_digest FROM games").fetchall())
    assert {g[0].game_id: g[-1].digest for g in games} == {k: bytes(v) for k, v in
                                                           digests.items()}
    assert not list(tmp_path.glob("*.ingest-tmp*"))


def test_rerun_changes_nothing(tmp_path, games, illegal):
    write_log(tmp_path / "a.arrows", [*games[:3], illegal])
    (tmp_path / "junk.arrows").write_bytes(b"not a log at all")
    db = tmp_path / "w.duckdb"
    first = ingest_paths([tmp_path], db=db, progress=False)
    before = snapshot(db)
    second = ingest_paths([tmp_path], db=db, progress=False)
    assert (first.loaded, first.already_present, first.quarantined) == (3, 0, 1)
    assert (second.loaded, second.already_present, second.quarantined) == (0, 3, 1)
    assert first.files_quarantined == second.files_quarantined == 1
    assert second.reconciles and second.run_id == 2
    assert snapshot(db) == before          # no duplicate game, seat, event or quarantine row
    assert scalar(db, "SELECT count(*) FROM quarantine") == 2
    assert scalar(db, "SELECT count(*) FROM ingest_runs") == 2
    assert scalar(db, "SELECT sum(loaded) FROM ingest_runs") == \
        scalar(db, "SELECT count(*) FROM games")


def test_illegal_game_is_quarantined_and_the_rest_of_the_file_loads(tmp_path, games, illegal):
    write_log(tmp_path / "mixed.arrows", [games[0], illegal, games[5]])
    db = tmp_path / "w.duckdb"
    s = ingest_paths([tmp_path / "mixed.arrows"], db=db, progress=False)
    assert (s.games_read, s.loaded, s.quarantined) == (3, 2, 1) and s.reconciles
    err = validate_events(illegal).error          # what the engine says, independently
    [row] = qrows(db)
    assert row["stage"] == "replay" and row["code"] == "illegal"
    assert row["game_id"] == illegal[0].game_id
    assert row["rule_id"] == err.rule_id and row["seq"] == err.seq and row["seat"] == err.seat
    assert err.rule_id in row["reason"]
    assert row["file"].endswith("mixed.arrows") and row["events"] == len(illegal)
    assert bytes(row["final_digest"]) == illegal[-1].digest
    # the raw input is kept: the quarantined game's events, as an Arrow IPC stream
    raw = pa.ipc.open_stream(row["raw"]).read_all().combine_chunks().to_batches()[0]
    assert batch_to_events(raw) == illegal
    loaded = {r[0] for r in duckdb.connect(str(db), read_only=True)
              .execute("SELECT game_id FROM games").fetchall()}
    assert loaded == {games[0][0].game_id, games[5][0].game_id}


def test_changed_byte_quarantines_only_the_touched_game(tmp_path, games):
    path = tmp_path / "flip.arrows"
    write_log(path, games[:4])
    target = games[2][10].digest       # the digest bytes of one event of the third game
    data = bytearray(path.read_bytes())
    pos = bytes(data).index(target)
    data[pos + 3] ^= 0x40
    path.write_bytes(bytes(data))
    db = tmp_path / "w.duckdb"
    s = ingest_paths([path], db=db, progress=False)
    assert (s.games_read, s.loaded, s.quarantined, s.files_quarantined) == (4, 3, 1, 1)
    assert s.reconciles and not s.clean
    rows = qrows(db)
    file_row = next(r for r in rows if r["stage"] == "file")
    game_row = next(r for r in rows if r["stage"] == "log")
    assert file_row["code"] == "checksum" and file_row["game_id"] is None
    assert game_row["code"] == "digest" and game_row["game_id"] == games[2][0].game_id
    assert game_row["seq"] == 10 and game_row["events"] == 10
    assert scalar(db, "SELECT count(*) FROM games WHERE game_id = ?", [games[2][0].game_id]) == 0


def test_torn_log_loads_the_intact_games(tmp_path, games):
    path = tmp_path / "torn.arrows"
    w = LogWriter(path)
    for g in games[:3]:
        w.write_game(g)
    half = len(games[3]) // 2
    w.write_game(games[3][:half])      # a live log: the fourth game in two batches
    w.write_game(games[3][half:])
    w._writer.close()                  # the process died before the seal was written
    w._sink.close()
    data = path.read_bytes()
    path.write_bytes(data[:len(data) - 200])   # and the last batch is cut short
    db = tmp_path / "w.duckdb"
    s = ingest_paths([path], db=db, progress=False)
    assert (s.games_read, s.loaded, s.quarantined) == (4, 3, 1) and s.reconciles
    rows = qrows(db)
    codes = {(r["stage"], r["code"]) for r in rows}
    assert ("file", "unsealed") in codes and ("file", "torn") in codes
    inc = next(r for r in rows if r["stage"] == "replay")
    assert inc["code"] == "incomplete" and inc["game_id"] == games[3][0].game_id
    assert inc["events"] == half
    assert s.files_quarantined == 2
    again = ingest_paths([path], db=db, progress=False)
    assert again.already_present == 3 and len(qrows(db)) == len(rows)


def test_not_a_log_is_quarantined_at_file_level(tmp_path, games):
    junk = tmp_path / "notes.txt"
    junk.write_text("hello, not a log\n")
    arrow_file = tmp_path / "other.arrows"           # an Arrow stream in another schema
    with pa.ipc.new_stream(str(arrow_file), pa.schema([("x", pa.int64())])) as w:
        w.write_table(pa.table({"x": [1, 2, 3]}))
    write_log(tmp_path / "good.arrows", games[:2])
    db = tmp_path / "w.duckdb"
    s = ingest_paths([junk, arrow_file, tmp_path / "good.arrows"], db=db, progress=False)
    assert (s.files, s.games_read, s.loaded, s.files_quarantined) == (3, 2, 2, 2)
    rows = [r for r in qrows(db) if r["stage"] == "file"]
    assert {(Path(r["file"]).name, r["code"]) for r in rows} == {
        ("notes.txt", "not_a_log"), ("other.arrows", "not_a_log")}
    assert next(r for r in rows if r["file"].endswith("notes.txt"))["raw"] == \
        junk.read_bytes()
    ingest_paths([junk], db=db, progress=False)
    assert len(qrows(db)) == 2


def test_conflicting_game_id_is_quarantined_and_never_overwrites(tmp_path, games, other_games,
                                                                 rename):
    write_log(tmp_path / "first.arrows", games[:2])
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path / "first.arrows"], db=db, progress=False)
    before = snapshot(db)
    victim = games[1][0].game_id
    impostor = rename(other_games[0], victim)
    assert validate_events(impostor).status == "ok"       # valid on its own
    write_log(tmp_path / "second.arrows", [impostor, other_games[1]])
    s = ingest_paths([tmp_path / "second.arrows"], db=db, progress=False)
    assert (s.games_read, s.loaded, s.already_present, s.quarantined) == (2, 1, 0, 1)
    [row] = qrows(db)
    assert (row["stage"], row["code"], row["game_id"]) == ("dedupe", "conflict", victim)
    assert bytes(row["final_digest"]) == impostor[-1].digest
    assert games[1][-1].digest.hex() in row["reason"]
    after = snapshot(db)
    assert [g for g in after["games"] if g[0] == victim] == \
        [g for g in before["games"] if g[0] == victim]
    assert [e for e in after["events"] if e[0] == victim] == \
        [e for e in before["events"] if e[0] == victim]
    ingest_paths([tmp_path / "second.arrows"], db=db, progress=False)
    assert len(qrows(db)) == 1


def test_conflict_within_one_run_keeps_the_first_in_file_order(tmp_path, games, other_games,
                                                               rename):
    write_log(tmp_path / "a.arrows", games[:2])
    write_log(tmp_path / "b.arrows", [rename(other_games[0], games[0][0].game_id)])
    write_log(tmp_path / "c.arrows", games[:2])            # an identical copy of a.arrows
    s = ingest_paths([tmp_path], db=tmp_path / "w.duckdb", progress=False)
    assert (s.games_read, s.loaded, s.already_present, s.quarantined) == (5, 2, 2, 1)
    assert s.issues[0].code == "conflict" and s.issues[0].file.endswith("b.arrows")


def test_missing_or_unreadable_path_is_an_io_error(tmp_path, games):
    db = tmp_path / "w.duckdb"
    with pytest.raises(IngestIOError, match="nope.arrows"):
        ingest_paths([tmp_path / "nope.arrows"], db=db, progress=False)
    assert not db.exists()
    if os.geteuid() != 0:   # root reads everything
        locked = tmp_path / "locked.arrows"
        write_log(locked, games[:1])
        locked.chmod(0)
        with pytest.raises(IngestIOError, match="locked.arrows"):
            ingest_paths([locked], db=db, progress=False)


def test_failed_run_leaves_the_warehouse_untouched(tmp_path, games, monkeypatch):
    write_log(tmp_path / "a.arrows", games[:2])
    write_log(tmp_path / "b.arrows", games[2:4])
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path / "a.arrows"], db=db, progress=False)
    before, inode = snapshot(db), db.stat().st_ino

    def boom(self):
        raise RuntimeError("disk full")

    monkeypatch.setattr(ingest_run._Loader, "flush", boom)
    with pytest.raises(RuntimeError, match="disk full"):
        ingest_paths([tmp_path / "b.arrows"], db=db, progress=False)
    assert db.stat().st_ino == inode and snapshot(db) == before
    assert not list(tmp_path.glob("w.duckdb.ingest-tmp*"))
    assert scalar(db, "SELECT count(*) FROM ingest_runs") == 1


def test_rebuild_equals_the_original_ingest(tmp_path, games, illegal, other_games, rename):
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs / "a.arrows", [*games[:5], illegal])
    write_log(logs / "b.arrows", [*games[5:], rename(other_games[0], games[0][0].game_id)])
    (logs / "junk.arrows").write_bytes(b"\xff\xff\xff\xffjunk")
    db, fresh = tmp_path / "w.duckdb", tmp_path / "fresh.duckdb"
    ingest_paths([logs / "a.arrows"], db=db, progress=False)
    ingest_paths([logs], db=db, progress=False)
    ingest_paths([logs], db=fresh, progress=False)
    old_inode = db.stat().st_ino
    s = rebuild_paths([logs], db=db, progress=False)
    assert s.command == "rebuild" and s.run_id == 1 and s.reconciles
    assert db.stat().st_ino != old_inode            # a new file, swapped in
    assert snapshot(db) == snapshot(fresh)
    assert scalar(db, "SELECT count(*) FROM ingest_runs") == 1
    assert scalar(db, "SELECT command FROM ingest_runs") == "rebuild"


def test_worker_processes_give_the_same_warehouse(tmp_path, games, illegal):
    for i in range(3):
        write_log(tmp_path / f"s{i}.arrows", games[3 * i:3 * i + 3])
    write_log(tmp_path / "s3.arrows", [games[9], illegal])
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    a = ingest_paths([tmp_path], db=one, progress=False, workers=1)
    b = ingest_paths([tmp_path], db=two, progress=False, workers=2)
    assert (a.loaded, a.quarantined) == (b.loaded, b.quarantined) == (10, 1)
    assert snapshot(one) == snapshot(two)


def test_summary_json_and_progress_off_the_tty(tmp_path, games, capsys):
    write_log(tmp_path / "a.arrows", games[:2])
    s = ingest_paths([tmp_path], db=tmp_path / "w.duckdb", progress=True)
    assert capsys.readouterr().err == ""            # stderr is not a TTY here: no bar
    out = json.loads(json.dumps(s.to_json(), default=str))
    assert out["reconciles"] is True and out["loaded"] == 2 and out["issues"] == []
    assert "2 loaded + 0 already present + 0 quarantined" in s.describe()


def test_read_log_agrees_with_what_was_loaded(tmp_path, games):
    path = tmp_path / "a.arrows"
    write_log(path, games)
    db = tmp_path / "w.duckdb"
    ingest_paths([path], db=db, progress=False)
    log = read_log(path)
    with duckdb.connect(str(db), read_only=True) as con:
        for g in log.games:
            n, digest = con.execute("SELECT events, final_digest FROM games WHERE game_id = ?",
                                    [g.game_id]).fetchall()[0]
            assert n == len(g.events) and bytes(digest) == g.final_digest


@pytest.mark.parametrize("damage", ["none", "illegal_game", "changed_byte"])
def test_events_table_holds_exactly_the_loaded_games(tmp_path, games, illegal, damage):
    """Whichever way the rows are taken (stored batches, filtered, or rebuilt), they are the
    logged events of the loaded games and nothing else."""
    path = tmp_path / "a.arrows"
    content = [games[0], illegal, games[5]] if damage == "illegal_game" else games[:3]
    write_log(path, content)
    if damage == "changed_byte":
        data = bytearray(path.read_bytes())
        data[bytes(data).index(games[1][5].digest)] ^= 1
        path.write_bytes(bytes(data))
    db = tmp_path / "w.duckdb"
    s = ingest_paths([path], db=db, progress=False)
    expected = [g for g in content if g is not illegal and (damage != "changed_byte"
                                                             or g is not games[1])]
    assert s.loaded == len(expected) and s.events_loaded == sum(map(len, expected))
    from warehouse.queries import game_events
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM events").fetchall()[0][0] == s.events_loaded
        for g in expected:
            assert game_events(con, g[0].game_id) == g


def test_an_engine_crash_quarantines_the_game_not_the_run(tmp_path, games, monkeypatch):
    from engine import verdict

    real = verdict.fold                   # the replay of every game's verdict
    victim = games[1][0].game_id

    def flaky(events, observers=()):
        if events[0].game_id == victim:
            raise KeyError("state field missing")
        return real(events, observers)

    monkeypatch.setattr(verdict, "fold", flaky)
    write_log(tmp_path / "a.arrows", games[:3])
    s = ingest_paths([tmp_path], db=tmp_path / "w.duckdb", progress=False)
    assert (s.loaded, s.quarantined) == (2, 1) and s.reconciles
    [rec] = s.issues
    assert (rec.stage, rec.code, rec.game_id) == ("replay", "engine_error", victim)
    assert "KeyError" in rec.reason


def test_keng_session_rule_in_one_file(games):
    from types import SimpleNamespace

    from engine.games.keng import check_session

    start = games[1][0]
    payload = json.loads(start.payload)
    assert payload["opener_rule"] == "previous"
    prev = SimpleNamespace(result={"deciding_seat": payload["opener"]}, opener=0)
    assert check_session(start, prev) is None
    wrong = SimpleNamespace(result={"deciding_seat": (payload["opener"] + 1) % 6}, opener=0)
    err = check_session(start, wrong)
    assert err is not None and err.rule_id == "KENG-7"
    no_decider = SimpleNamespace(result={"deciding_seat": None}, opener=payload["opener"])
    assert check_session(start, no_decider) is None


def test_workers_only_where_forking_is_safe(tmp_path, games, monkeypatch):
    import threading

    write_log(tmp_path / "a.arrows", games[:2])
    write_log(tmp_path / "b.arrows", games[2:4])
    files = ingest_run.collect_files([tmp_path])
    assert ingest_run._auto_workers(files) == 1                 # small input: no workers
    monkeypatch.setattr(ingest_run, "PARALLEL_MIN_BYTES", 0)
    if threading.active_count() == 1:
        assert ingest_run._auto_workers(files) == min(2, ingest_run.cpu_count())
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:   # another thread runs: forking is unsafe, spawning needs a __main__ guard -> none
        assert ingest_run._auto_workers(files) == 1
        s = ingest_paths([tmp_path], db=tmp_path / "w.duckdb", progress=False)
        assert s.loaded == 4
    finally:
        stop.set()
        t.join()
