"""The Parquet lake: the warehouse's tables as a partitioned Parquet dataset in one folder,
read through DuckDB exactly like the warehouse file (docs/lake.md).

A lake folder holds ``manifest.json`` and one folder per table. The manifest lists every data
file of every table; it is written last by ``liujia lake build`` (``ingest.lake``) and
replaced atomically, so a reader sees either the lake before a build or after it, never half
a run: a file the manifest does not list is not read (a build that died leaves such files;
the next build removes them). The row tables are partitioned by game type and month of the
game's start (``events/game_type=GAME/month=2026-12/r000003-0.parquet``), the others are one
file per run; the stored counts (``tendency_counts``, ``result_counts``) are rewritten by
every build under ``counts/v<version>/``.

A lake may come from anyone, so it is read as untrusted input: the manifest's size is bounded
while it is read, every path it lists must be a plain relative path of the expected shape to a
regular file inside the folder (no symbolic link on the way), the first file of each table
must have the table's columns, and the connection reads only that folder: external access is
off, with the lake folder as its one allowed directory, and the configuration locked.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from warehouse.errors import NotAWarehouse, WarehouseError, WarehouseMissing
from warehouse.schema import DDL, SCHEMA_VERSION

MANIFEST = "manifest.json"
FORMAT = "liujia.lake/1"
MAX_MANIFEST_BYTES = 64 << 20
# The tables partitioned by game type and month, and those written as one file per run.
PARTITIONED = ("games", "seats", "events", "decisions", "facts", "reviews")
PER_RUN = ("ingest_runs", "quarantine", "ingested_files")
COUNTS = ("tendency_counts", "result_counts")
DATA_TABLES = PARTITIONED + PER_RUN + COUNTS
_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,120}\.parquet"
_PART = r"game_type=[a-z0-9_-]{1,40}/month=\d{4}-\d{2}"
_SHAPES = {
    **{t: re.compile(rf"{t}/{_PART}/{_NAME}") for t in PARTITIONED},
    **{t: re.compile(rf"{t}/{_NAME}") for t in PER_RUN},
    **{t: re.compile(rf"counts/v\d{{1,9}}/{t}\.parquet") for t in COUNTS},
}


class NotALake(NotAWarehouse):
    """A folder that is not a liujia lake this version can read safely."""


@dataclass
class Manifest:
    """What a lake holds: its version, the files of each table, the meta values."""

    version: int = 0
    files: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)
    liujia_version: str = ""

    def paths(self, table: str) -> list[str]:
        """The relative paths of a table's files."""
        return [f["path"] for f in self.files.get(table, [])]

    def to_json(self) -> dict[str, Any]:
        """The manifest as written (``manifest.json``)."""
        return {"format": FORMAT, "schema_version": SCHEMA_VERSION, "version": self.version,
                "liujia_version": self.liujia_version, "meta": self.meta,
                "tables": {t: self.files.get(t, []) for t in DATA_TABLES}}


def is_lake(path: str | os.PathLike[str]) -> bool:
    """True when the path is a folder with a lake manifest (not checked further)."""
    p = Path(path)
    return p.is_dir() and (p / MANIFEST).is_file()


def version_file(path: str | os.PathLike[str]) -> Path:
    """The file whose identity changes with every new version: a lake's manifest, else the
    warehouse file itself."""
    p = Path(path)
    return p / MANIFEST if p.is_dir() else p


def _read_bounded(path: Path) -> bytes:
    """A file's bytes, refused once more than MAX_MANIFEST_BYTES were read; never a link."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise WarehouseMissing(f"no lake at {path.parent}: no {MANIFEST} (run `liujia lake "
                               f"build LOGS --out {path.parent}` first)") from None
    except OSError as exc:
        raise NotALake(path.parent, f"{MANIFEST} cannot be opened ({exc.strerror or exc}; "
                       "a symbolic link is never followed)") from None
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_MANIFEST_BYTES + 1)
    if len(data) > MAX_MANIFEST_BYTES:
        raise NotALake(path.parent, f"{MANIFEST} is larger than {MAX_MANIFEST_BYTES >> 20} MB")
    return data


def read_manifest(folder: str | os.PathLike[str]) -> Manifest:
    """The lake's manifest, checked field by field (NotALake names the field and why)."""
    root = Path(folder)
    raw = _read_bounded(root / MANIFEST)
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise NotALake(root, f"{MANIFEST} is not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise NotALake(root, f"{MANIFEST}: format is not {FORMAT!r}")
    if doc.get("schema_version") != SCHEMA_VERSION:
        raise NotALake(root, f"{MANIFEST}: schema_version {doc.get('schema_version')!r}, this "
                       f"liujia reads {SCHEMA_VERSION}: build a new lake from the logs")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise NotALake(root, f"{MANIFEST}: version is not a whole number")
    meta = doc.get("meta", {})
    if not isinstance(meta, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in meta.items()):
        raise NotALake(root, f"{MANIFEST}: meta is not an object of strings")
    tables = doc.get("tables")
    if not isinstance(tables, dict):
        raise NotALake(root, f"{MANIFEST}: tables is not an object")
    files = {t: _entries(root, t, tables.get(t, [])) for t in DATA_TABLES}
    extra = sorted(set(tables) - set(DATA_TABLES))
    if extra:
        raise NotALake(root, f"{MANIFEST}: unknown table {extra[0][:40]!r}")
    lv = doc.get("liujia_version", "")
    return Manifest(version, files, dict(meta), lv if isinstance(lv, str) else "")


def _entries(root: Path, table: str, entries: object) -> list[dict[str, Any]]:
    """A table's file entries, each a checked relative path and its row count."""
    where = f"{MANIFEST}: tables.{table}"
    if not isinstance(entries, list):
        raise NotALake(root, f"{where} is not a list")
    out = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or not isinstance(e.get("path"), str) \
                or not isinstance(e.get("rows"), int):
            raise NotALake(root, f"{where}[{i}] is not {{path, rows}}")
        if not _SHAPES[table].fullmatch(e["path"]):
            raise NotALake(root, f"{where}[{i}].path {e['path'][:80]!r} is not a path of "
                           f"this table's shape")
        out.append({"path": e["path"], "rows": e["rows"], "bytes": e.get("bytes", 0)})
    return out


def checked_file(root: Path, rel: str) -> Path:
    """The absolute path of a listed file, refused unless every step below the lake folder is
    a plain folder and the file a regular file (no symbolic link anywhere on the way)."""
    p = root
    parts = rel.split("/")
    for i, part in enumerate(parts):
        p = p / part
        try:
            mode = os.lstat(p).st_mode
        except FileNotFoundError:
            raise NotALake(root, f"{rel[:120]} is listed in {MANIFEST} but missing") from None
        want = stat.S_ISREG if i == len(parts) - 1 else stat.S_ISDIR
        if not want(mode):
            kind = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular entry"
            raise NotALake(root, f"{'/'.join(parts[:i + 1])[:120]} is {kind}")
    return p


@functools.cache
def columns() -> dict[str, list[tuple[str, str]]]:
    """Each warehouse table's columns and DuckDB types, from the warehouse DDL."""
    con = duckdb.connect(":memory:")
    try:
        for ddl in DDL:
            con.execute(ddl)
        rows = con.execute("SELECT table_name, column_name, data_type FROM "
                           "duckdb_columns() ORDER BY table_name, column_index").fetchall()
    finally:
        con.close()
    out: dict[str, list[tuple[str, str]]] = {}
    for t, c, typ in rows:
        out.setdefault(t, []).append((c, typ))
    return out


def table_ddl(table: str) -> str:
    """The warehouse DDL statement that creates the table."""
    return next(d for d in DDL if re.match(rf"CREATE TABLE IF NOT EXISTS {table} \(", d))


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _view_sql(table: str, files: Sequence[Path]) -> str:
    """A view with the table's columns cast to its types over the listed files."""
    cols = ", ".join(f"CAST({_q(c)} AS {typ}) AS {_q(c)}" for c, typ in columns()[table])
    listed = ", ".join("'" + str(f).replace("'", "''") + "'" for f in files)
    return (f"CREATE VIEW {table} AS SELECT {cols} FROM read_parquet([{listed}], "
            f"hive_partitioning = false, union_by_name = false)")


def _check_columns(con: duckdb.DuckDBPyConnection, root: Path, table: str,
                   first: Path) -> None:
    listed = "'" + str(first).replace("'", "''") + "'"
    try:
        found = {r[0]: r[1] for r in con.execute(
            f"DESCRIBE SELECT * FROM read_parquet({listed}, hive_partitioning = false)"
        ).fetchall()}
    except duckdb.Error as exc:
        raise NotALake(root, f"{first.relative_to(root)} is not a readable Parquet file "
                       f"({' '.join(str(exc).split())[:200]})") from None
    for c, typ in columns()[table]:
        if found.get(c) != typ:
            raise NotALake(root, f"{first.relative_to(root)}: column {c} is "
                           f"{found.get(c, 'missing')}, the {table} table has {typ}")


def attach_tables(con: duckdb.DuckDBPyConnection, root: Path, manifest: Manifest,
                  skip: Sequence[str] = ()) -> None:
    """Create in con each table of the lake: a view over its listed files, or the empty
    table where it has none (and ``meta`` from the manifest); the tables in skip are left
    out (a build makes its own)."""
    for table in DATA_TABLES:
        if table in skip:
            continue
        files = [checked_file(root, p) for p in manifest.paths(table)]
        if not files:
            con.execute(table_ddl(table))
            continue
        _check_columns(con, root, table, files[0])
        con.execute(_view_sql(table, files))
    if "meta" not in skip:
        con.execute(table_ddl("meta"))
        meta = {**manifest.meta, "schema_version": str(SCHEMA_VERSION)}
        con.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))


def lock_down(con: duckdb.DuckDBPyConnection, root: Path) -> None:
    """External access off but for the lake folder, the configuration locked."""
    allowed = str(root.resolve()) + os.sep
    con.execute("SET allowed_directories = [?]", [allowed])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def open_lake(folder: str | os.PathLike[str],
              settings: Mapping[str, str] | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection in which the lake's tables are views of its listed files, able
    to read that folder and nothing else (NotALake / WarehouseMissing say why not)."""
    root = Path(folder).resolve()
    manifest = read_manifest(root)
    con = duckdb.connect(":memory:")
    try:
        for key, value in (settings or {}).items():
            con.execute(f"SET {key} = ?", [value])
        lock_down(con, root)
        attach_tables(con, root, manifest)
    except BaseException:
        con.close()
        raise
    return con


def lake_summary(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """Version, files, rows and bytes of each table of a lake (from its manifest)."""
    m = read_manifest(folder)
    return {"version": m.version, "tables": {
        t: {"files": len(m.files[t]), "rows": sum(f["rows"] for f in m.files[t]),
            "bytes": sum(f["bytes"] for f in m.files[t])} for t in DATA_TABLES}}


def no_write(path: Path) -> WarehouseError:
    """The error for a writer pointed at a lake folder."""
    return WarehouseError(f"{path} is a Parquet lake: it is written by `liujia lake build "
                          f"LOGS --out {path}`, not by ingest")
