"""warehouse.db: where the file lives, opening it, its schema, and the copy-and-swap writer."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from warehouse import db as wdb
from warehouse.schema import TABLES


def test_default_db_and_its_override(monkeypatch, tmp_path):
    monkeypatch.delenv("LIUJIA_DB", raising=False)
    assert wdb.default_db() == wdb.DEFAULT_DB
    assert wdb.DEFAULT_DB.name == "liujia.duckdb" and wdb.DEFAULT_DB.parent.name == "liujia"
    monkeypatch.setenv("LIUJIA_DB", str(tmp_path / "x.duckdb"))
    assert wdb.default_db() == tmp_path / "x.duckdb"
    assert wdb.db_path(None) == tmp_path / "x.duckdb"
    assert wdb.db_path(tmp_path / "y.duckdb") == tmp_path / "y.duckdb"


def test_connect_to_a_missing_warehouse_says_what_to_do(tmp_path):
    missing = tmp_path / "none.duckdb"
    with pytest.raises(wdb.WarehouseMissing, match="liujia ingest") as exc:
        wdb.connect(missing)
    assert str(missing) in str(exc.value)
    assert isinstance(exc.value, FileNotFoundError)
    assert not missing.exists()


def test_read_only_connections_cannot_write(wh):
    with wdb.reader(wh) as con:
        with pytest.raises(duckdb.Error):
            con.execute("DELETE FROM games")


def test_ensure_schema_is_idempotent_and_checks_the_version(tmp_path):
    path = tmp_path / "w.duckdb"
    with wdb.connect(path, read_only=False) as con:
        wdb.ensure_schema(con)
        wdb.ensure_schema(con)
        names = {r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables").fetchall()}
        assert names == set(TABLES)
        con.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
        with pytest.raises(wdb.WarehouseError, match="rebuild"):
            wdb.ensure_schema(con)


def _meta_rows(path: Path) -> int:
    with wdb.reader(path) as con:
        return con.execute("SELECT count(*) FROM meta").fetchall()[0][0]


def test_writer_swaps_a_new_file_in_on_success(tmp_path):
    path = tmp_path / "w.duckdb"
    with wdb.writing(path) as con:
        con.execute("INSERT INTO meta VALUES ('a', '1')")
        assert not path.exists()                 # the live file is not touched meanwhile
    inode = path.stat().st_ino
    with wdb.writing(path) as con:
        con.execute("INSERT INTO meta VALUES ('b', '2')")
        assert _meta_rows(path) == 2                 # readers still see the previous version
    assert path.stat().st_ino != inode and _meta_rows(path) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.duckdb", "w.duckdb.lock"]


def test_writer_throws_its_copy_away_on_error(tmp_path):
    path = tmp_path / "w.duckdb"
    with wdb.writing(path) as con:
        con.execute("INSERT INTO meta VALUES ('a', '1')")
    before = path.read_bytes()
    with pytest.raises(KeyError), wdb.writing(path) as con:
        con.execute("INSERT INTO meta VALUES ('b', '2')")
        raise KeyError("boom")
    assert path.read_bytes() == before
    assert not (tmp_path / "w.duckdb.ingest-tmp").exists()


def test_writer_ignores_the_leftovers_of_a_dead_run(tmp_path):
    path = tmp_path / "w.duckdb"
    (tmp_path / "w.duckdb.ingest-tmp").write_bytes(b"half a database")
    (tmp_path / "w.duckdb.ingest-tmp.wal").write_bytes(b"junk")
    with wdb.writing(path) as con:
        con.execute("INSERT INTO meta VALUES ('a', '1')")
    assert _meta_rows(path) == 2
    assert not (tmp_path / "w.duckdb.ingest-tmp.wal").exists()


def test_fresh_writer_starts_empty(tmp_path):
    path = tmp_path / "w.duckdb"
    with wdb.writing(path) as con:
        con.execute("INSERT INTO meta VALUES ('a', '1')")
    with wdb.writing(path, fresh=True):
        pass
    assert _meta_rows(path) == 1


def test_db_version_changes_with_each_swap(tmp_path):
    path = tmp_path / "w.duckdb"
    assert wdb.db_version(path) == (0, 0, 0)
    with wdb.writing(path):
        pass
    v1 = wdb.db_version(path)
    with wdb.writing(path):
        pass
    assert wdb.db_version(path) != v1


@pytest.mark.parametrize("fresh", [False, True])
def test_writer_never_replaces_a_file_that_is_not_a_warehouse(tmp_path, fresh):
    path = tmp_path / "notes.txt"
    path.write_text("my notes")
    with pytest.raises(wdb.WarehouseError, match="not a DuckDB database"), \
            wdb.writing(path, fresh=fresh):
        pass
    assert path.read_text() == "my notes"
    assert not (tmp_path / "notes.txt.ingest-tmp").exists()


def test_writer_reports_a_damaged_warehouse(tmp_path):
    path = tmp_path / "w.duckdb"
    with wdb.writing(path):
        pass
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xee" * 4096          # the database headers
    path.write_bytes(bytes(data))
    with pytest.raises(wdb.WarehouseError, match="cannot be opened"), wdb.writing(path):
        pass
    assert not (tmp_path / "w.duckdb.ingest-tmp").exists()
