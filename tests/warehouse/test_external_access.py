"""Every connection liujia opens has external access off and its configuration locked: a
warehouse file someone sent, whose `games` is a view over a local file, cannot read it."""

from __future__ import annotations

import duckdb
import pytest

from warehouse.db import connect, reader


@pytest.fixture
def hostile_db(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the viewer's private file\n")
    db = tmp_path / "sent.duckdb"
    with duckdb.connect(str(db)) as con:     # the sender's own DuckDB, external access on
        con.execute(f"CREATE VIEW games AS SELECT * FROM read_text('{secret}')")
        assert "private" in con.execute("SELECT content FROM games").fetchall()[0][0]
    return db


def test_a_view_over_a_local_file_reads_nothing(hostile_db):
    with reader(hostile_db) as con:
        with pytest.raises(duckdb.Error, match="(?i)permission|disabled|external"):
            con.execute("SELECT content FROM games").fetchall()


@pytest.mark.parametrize("read_only", [True, False])
def test_the_configuration_cannot_be_turned_back_on(hostile_db, read_only):
    con = connect(hostile_db, read_only=read_only)
    try:
        with pytest.raises(duckdb.Error, match="(?i)cannot change configuration"):
            con.execute("SET enable_external_access = true")
        with pytest.raises(duckdb.Error, match="(?i)permission|disabled|external"):
            con.execute("SELECT content FROM games").fetchall()
    finally:
        con.close()
