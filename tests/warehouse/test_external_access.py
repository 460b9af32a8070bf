"""A warehouse file someone sent cannot run SQL of theirs: every connection liujia opens has
external access off and its configuration locked, and a file is accepted as a warehouse only
if it holds no view, macro or odd table (warehouse.verify) — else the refusal says why."""

from __future__ import annotations

import os
import shutil

import duckdb
import pytest

from warehouse.db import WarehouseError, connect, open_duckdb, reader
from warehouse.schema import SCHEMA_VERSION
from warehouse.verify import NotAWarehouse


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text("the viewer's private file\n")
    return path


@pytest.fixture
def hostile_db(tmp_path, secret):
    db = tmp_path / "sent.duckdb"
    with duckdb.connect(str(db)) as con:     # the sender's own DuckDB, external access on
        con.execute(f"CREATE VIEW games AS SELECT * FROM read_text('{secret}')")
        assert "private" in con.execute("SELECT content FROM games").fetchall()[0][0]
    return db


def _doctored(wh, tmp_path, *sql: str):
    """A copy of a real warehouse with the sender's SQL run on it (their DuckDB)."""
    db = tmp_path / "doctored.duckdb"
    shutil.copyfile(wh, db)
    with duckdb.connect(str(db)) as con:
        for statement in sql:
            con.execute(statement)
    return db


@pytest.mark.parametrize("read_only", [True, False])
def test_no_query_reads_a_file_nor_turns_access_back_on(wh, tmp_path, secret, read_only):
    db = tmp_path / "copy.duckdb"
    shutil.copyfile(wh, db)
    con = open_duckdb(db, read_only=read_only)
    try:
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] > 0
        with pytest.raises(duckdb.Error, match="(?i)permission|disabled|external"):
            con.execute(f"SELECT content FROM read_text('{secret}')").fetchall()
        with pytest.raises(duckdb.Error, match="(?i)cannot change configuration"):
            con.execute("SET enable_external_access = true")
        with pytest.raises(duckdb.Error, match="(?i)permission|disabled|external"):
            con.execute(f"ATTACH '{tmp_path / 'other.duckdb'}' AS other")
    finally:
        con.close()


def test_macros_shadowing_the_catalog_do_not_hide_a_view(wh, tmp_path):
    """A file may define table macros named like DuckDB's catalog functions, which answer
    for them once the file is in the search path; the file is checked before that."""
    db = _doctored(
        wh, tmp_path,
        "CREATE MACRO duckdb_views() AS TABLE SELECT NULL::VARCHAR schema_name, "
        "NULL::VARCHAR view_name, false internal WHERE false",
        "CREATE MACRO duckdb_functions() AS TABLE SELECT NULL::VARCHAR schema_name, "
        "NULL::VARCHAR function_name, false internal, NULL::VARCHAR function_type WHERE false",
        "CREATE VIEW passwd AS SELECT 1 AS x")
    with pytest.raises(NotAWarehouse, match=r"holds view\(s\) 'main'\.'passwd'"):
        connect(db, read_only=True)
    with pytest.raises(NotAWarehouse, match=r"holds view\(s\) 'main'\.'passwd'"):
        open_duckdb(db, read_only=False)


def test_ingest_and_rebuild_leave_another_programs_database_alone(tmp_path, corpus_logs):
    from ingest import ingest_paths, rebuild_paths

    db = tmp_path / "invoices.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE invoices (n INTEGER)")
    before = db.read_bytes()
    for run in (ingest_paths, rebuild_paths):
        with pytest.raises(NotAWarehouse, match=r"holds other tables \('main'\.'invoices'\) "
                           r"and no liujia meta table; not (touching|replacing) it"):
            run([corpus_logs], db=db, progress=False, workers=1)
        assert db.read_bytes() == before


def test_a_file_with_a_view_is_refused_before_any_query(hostile_db):
    with pytest.raises(NotAWarehouse, match=r"is not a liujia warehouse: it holds view\(s\) "
                       r"'main'\.'games'; a warehouse has tables only"):
        with reader(hostile_db):
            pass


def test_a_real_warehouse_is_accepted(wh):
    with reader(wh) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone()[0] > 0


@pytest.mark.parametrize(("sql", "why"), [
    (["CREATE MACRO lines(p) AS TABLE SELECT 1"], r"holds macro\(s\) 'main'\.'lines'"),
    (["CREATE MACRO twice(x) AS x * 2"], r"holds macro\(s\) 'main'\.'twice'"),
    (["CREATE VIEW recent AS SELECT * FROM games"], r"holds view\(s\) 'main'\.'recent'"),
    (["CREATE SCHEMA other", "CREATE VIEW other.v AS SELECT 1"], r"view\(s\) 'other'\.'v'"),
    (["DROP TABLE quarantine"], r"table\(s\) quarantine missing"),
    (["ALTER TABLE games ADD COLUMN note VARCHAR DEFAULT 'x'"],
     rf"table\(s\) games differ from the schema version {SCHEMA_VERSION} definition"),
    (["ALTER TABLE seats ALTER player_id SET DEFAULT 'p'"], r"table\(s\) seats differ"),
    (["UPDATE meta SET value = '2' WHERE key = 'schema_version'"],
     rf"it has schema version '2', this liujia reads {SCHEMA_VERSION}: run `liujia rebuild LOGS`"),
])
def test_a_doctored_warehouse_is_refused_with_the_reason(wh, tmp_path, sql, why):
    db = _doctored(wh, tmp_path, *sql)
    with pytest.raises(NotAWarehouse, match=why):
        connect(db, read_only=True)


def test_a_file_checked_once_and_changed_since_is_checked_again(wh, tmp_path):
    db = _doctored(wh, tmp_path)                     # a plain copy: accepted, remembered
    connect(db, read_only=True).close()
    connect(db, read_only=True).close()
    with duckdb.connect(str(db)) as con:             # the sender changes it in place
        con.execute("CREATE VIEW recent AS SELECT * FROM games")
    with pytest.raises(NotAWarehouse, match=r"holds view\(s\) 'main'\.'recent'"):
        connect(db, read_only=True)
    (tmp_path / "x").mkdir()
    other = _doctored(wh, tmp_path / "x", "CREATE MACRO twice(x) AS x * 2")
    os.replace(other, db)                             # or renames another file over it
    with pytest.raises(NotAWarehouse, match="macro"):
        connect(db, read_only=True)


def test_a_generated_column_is_refused(wh, tmp_path):
    """A generated column computes an expression of the sender's each time it is read."""
    db = _doctored(wh, tmp_path, "ALTER TABLE meta RENAME TO meta_old",
                   "CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL, "
                   "leak VARCHAR GENERATED ALWAYS AS (upper(key)))",
                   "INSERT INTO meta (key, value) SELECT * FROM meta_old",
                   "DROP TABLE meta_old")
    with pytest.raises(NotAWarehouse, match=r"table\(s\) meta differ"):
        connect(db, read_only=True)


def test_ingest_refuses_to_write_into_a_doctored_warehouse(wh, tmp_path, corpus_logs):
    from ingest import ingest_paths

    db = _doctored(wh, tmp_path, "CREATE MACRO twice(x) AS x * 2")
    before = db.read_bytes()
    with pytest.raises(WarehouseError, match=r"holds macro\(s\) 'main'\.'twice'"):
        ingest_paths([corpus_logs], db=db, progress=False, workers=1)
    assert db.read_bytes() == before
    assert not list(tmp_path.glob("doctored.duckdb.*tmp*"))


def test_a_writer_refuses_a_doctored_copy_and_leaves_the_file(wh, tmp_path):
    from warehouse.db import writing

    db = _doctored(wh, tmp_path, "CREATE VIEW recent AS SELECT * FROM games")
    before = db.read_bytes()
    with pytest.raises(NotAWarehouse, match=r"view\(s\) 'main'\.'recent'.*not touching it"):
        with writing(db):
            raise AssertionError("a writer got a connection to a doctored warehouse")
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doctored.duckdb", "doctored.duckdb.lock"]
