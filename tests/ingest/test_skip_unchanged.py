"""A file byte for byte equal to one ingested whole is not read again; anything else is."""

from __future__ import annotations

import duckdb

from engine.log import sealed_sha256, write_log
from ingest.run import ingest_paths, rebuild_paths
from liujia.cli import main


def _files(db):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT file, games FROM ingested_files ORDER BY file").fetchall()
    finally:
        con.close()


def test_unchanged_files_are_skipped_and_still_reconcile(tmp_path, games):
    write_log(tmp_path / "a.arrows", games[:3])
    write_log(tmp_path / "b.arrows", games[3:5])
    db = tmp_path / "w.duckdb"
    first = ingest_paths([tmp_path], db=db, progress=False)
    assert (first.loaded, first.files_skipped) == (5, 0)
    assert [g for _, g in _files(db)] == [3, 2]
    again = ingest_paths([tmp_path], db=db, progress=False)
    assert (again.files, again.files_skipped, again.games_read) == (2, 2, 5)
    assert (again.loaded, again.already_present, again.quarantined) == (0, 5, 0)
    assert again.reconciles and again.events_read == 0
    forced = ingest_paths([tmp_path], db=db, progress=False, recheck=True)
    assert (forced.files_skipped, forced.already_present, forced.events_read) == (
        0, 5, sum(map(len, games[:5])))


def test_a_changed_file_is_read_again_and_its_damage_reported(tmp_path, games):
    path = tmp_path / "a.arrows"
    write_log(path, games[:2])
    db = tmp_path / "w.duckdb"
    ingest_paths([path], db=db, progress=False)
    assert sealed_sha256(path) is not None
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x20                   # same size, same seal, other bytes
    path.write_bytes(bytes(data))
    assert sealed_sha256(path) is None
    s = ingest_paths([path], db=db, progress=False)
    assert s.files_skipped == 0 and s.files_quarantined >= 1 and s.reconciles


def test_files_with_quarantined_games_are_always_read(tmp_path, games, illegal):
    write_log(tmp_path / "bad.arrows", [games[0], illegal])
    db = tmp_path / "w.duckdb"
    first = ingest_paths([tmp_path], db=db, progress=False)
    assert (first.loaded, first.quarantined) == (1, 1)
    assert _files(db) == []
    again = ingest_paths([tmp_path], db=db, progress=False)
    assert (again.files_skipped, again.already_present, again.quarantined) == (0, 1, 1)


def test_rebuild_reads_everything_and_records_the_files(tmp_path, games, capsys):
    write_log(tmp_path / "a.arrows", games[:2])
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path], db=db, progress=False)
    s = rebuild_paths([tmp_path], db=db, progress=False)
    assert (s.files_skipped, s.loaded) == (0, 2) and len(_files(db)) == 1
    assert main(["ingest", str(tmp_path), "--db", str(db), "--quiet"]) == 0
    assert "1 file(s) unchanged since they were ingested" in capsys.readouterr().out
    assert main(["ingest", str(tmp_path), "--db", str(db), "--quiet", "--recheck"]) == 0
    assert "unchanged" not in capsys.readouterr().out
