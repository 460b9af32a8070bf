"""Is a DuckDB file a liujia warehouse? Checked whenever liujia opens one, before any query.

A warehouse file may come from anyone ("here is our club's warehouse"), and a DuckDB file can
hold more than tables: a view or a macro runs SQL of the sender's choosing each time it is
read (``CREATE VIEW games AS SELECT * FROM read_text('/etc/passwd')``), a generated column or a
CHECK constraint runs an expression. External access is off on every connection (warehouse.db),
and on top of that a file is accepted only if it holds no view, no macro and no other attached
database, records this liujia's schema version, and each of its tables is exactly the table
liujia creates (the same ``CREATE TABLE`` statement as DuckDB normalises it). Otherwise
``NotAWarehouse`` says why.
(``NotAWarehouse`` lives in warehouse.errors; warehouse.db calls these checks.)
"""

from __future__ import annotations

import functools
import os

import duckdb

from engine.ids import shown_id
from warehouse.errors import SAFE_CONFIG, NotAWarehouse
from warehouse.schema import DDL, SCHEMA_VERSION, TABLES


def other_tables(con: duckdb.DuckDBPyConnection) -> str | None:
    """For a file in use that has no ``meta`` table: the tables it holds (a DuckDB database of
    something else), or None when it is empty."""
    rows = con.execute("SELECT schema_name, table_name FROM duckdb_tables() WHERE "
                       "database_name = current_database() ORDER BY ALL").fetchall()
    if not rows or any(r == ("main", "meta") for r in rows):
        return None
    return f"it holds other tables ({_names(rows)}) and no liujia meta table"


@functools.cache
def reference_tables() -> dict[str, str]:
    """Each warehouse table's CREATE statement as DuckDB normalises it (built in memory)."""
    con = duckdb.connect(":memory:", config=dict(SAFE_CONFIG))
    try:
        for ddl in DDL:
            con.execute(ddl)
        return dict(con.execute("SELECT table_name, sql FROM duckdb_tables()").fetchall())
    finally:
        con.close()


def _names(rows: list[tuple[str, ...]]) -> str:
    return ", ".join(".".join(shown_id(part) for part in row) for row in rows[:5]) + (
        f" and {len(rows) - 5} more" if len(rows) > 5 else "")


def foreign_objects(con: duckdb.DuckDBPyConnection, db: str) -> str | None:
    """What the attached database ``db`` holds besides tables (views, macros, other
    databases), or None. Run before ``db`` is in the search path (warehouse.db.open_duckdb)."""
    views = con.execute("SELECT schema_name, view_name FROM duckdb_views() "
                        "WHERE NOT internal AND database_name = ? ORDER BY ALL", [db]).fetchall()
    if views:
        return f"it holds view(s) {_names(views)}; a warehouse has tables only"
    macros = con.execute("SELECT schema_name, function_name FROM duckdb_functions() "
                         "WHERE NOT internal AND database_name = ? "
                         "AND function_type IN ('macro', 'table_macro') ORDER BY ALL",
                         [db]).fetchall()
    if macros:
        return f"it holds macro(s) {_names(macros)}; a warehouse has tables only"
    others = con.execute("SELECT database_name FROM duckdb_databases() WHERE NOT internal "
                         "AND database_name NOT IN (?, 'memory') ORDER BY ALL", [db]).fetchall()
    if others:
        return f"it attaches other database(s) {_names(others)}"
    return None


def table_problem(con: duckdb.DuckDBPyConnection) -> str | None:
    """How the file's tables differ from this liujia's warehouse tables, or None."""
    found = dict(con.execute(
        "SELECT table_name, sql FROM duckdb_tables() WHERE database_name = current_database() "
        "AND schema_name = 'main'").fetchall())
    missing = [t for t in TABLES if t not in found]
    if missing:
        return f"table(s) {', '.join(missing)} missing"
    rows = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
    version = rows[0][0] if rows else None
    if version != str(SCHEMA_VERSION):
        return (f"it has schema version {shown_id(version)}, this liujia reads "
                f"{SCHEMA_VERSION}: run `liujia rebuild LOGS` to make a new one")
    want = reference_tables()
    differ = [t for t in TABLES if found[t] != want[t]]
    if differ:
        return (f"table(s) {', '.join(differ)} differ from the schema version "
                f"{SCHEMA_VERSION} definition (docs/warehouse.md)")
    return None


def verify(con: duckdb.DuckDBPyConnection, path: str | os.PathLike[str],
           tables: bool = True) -> None:
    """Raise NotAWarehouse (naming the file and why) unless the connection's file is one
    (``tables=False``: unless it holds tables only, of any schema version)."""
    problem = table_problem(con) if tables else None     # open_duckdb checked the rest
    if problem:
        raise NotAWarehouse(path, problem)
