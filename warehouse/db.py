"""Where the warehouse lives, how to open it, and how a writer swaps in a whole new version.

Readers open short-lived ``read_only=True`` connections. A writer never touches the live file:
it works on a private copy (``<db>.ingest-tmp``), checkpoints and closes it, and renames it
over the database with ``os.replace``. A reader that already has the file open keeps the old
inode; a reader that opens it afterwards sees the new file whole. Writers take a lock
(``<db>.lock``) so that two runs never interleave. See docs/warehouse.md.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb

from warehouse.schema import DDL, SCHEMA_VERSION

try:  # POSIX advisory locks; elsewhere writers are not serialised (documented)
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

ENV_VAR = "LIUJIA_DB"
# Every connection liujia opens: no access to files, URLs or extensions beyond the database
# file itself (a warehouse file someone sent must not read the viewer's files), and the
# configuration locked so that no query can turn it back on.
SAFE_CONFIG = {"enable_external_access": False, "lock_configuration": True}


def open_duckdb(path: str | os.PathLike[str], read_only: bool) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with external access off and its configuration locked."""
    return duckdb.connect(str(path), read_only=read_only, config=dict(SAFE_CONFIG))


def _data_home() -> Path:
    xdg = os.environ.get("XDG_DATA_HOME")
    return Path(xdg) if xdg else Path.home() / ".local" / "share"


DEFAULT_DB: Path = _data_home() / "liujia" / "liujia.duckdb"
TMP_SUFFIX = ".ingest-tmp"
LOCK_SUFFIX = ".lock"


class WarehouseError(RuntimeError):
    """A warehouse that cannot be opened or written as asked."""


class WarehouseMissing(WarehouseError, FileNotFoundError):
    """The warehouse file does not exist (nothing has been ingested yet)."""


def default_db() -> Path:
    """The warehouse file: $LIUJIA_DB if set, else DEFAULT_DB."""
    env = os.environ.get(ENV_VAR)
    return Path(env).expanduser() if env else DEFAULT_DB


def db_path(path: str | os.PathLike[str] | None = None) -> Path:
    """The warehouse path to use: the given one (user ~ expanded) or default_db()."""
    return Path(path).expanduser() if path is not None else default_db()


def connect(
    path: str | os.PathLike[str] | None = None, read_only: bool = True
) -> duckdb.DuckDBPyConnection:
    """An explicit DuckDB connection to the warehouse; read-only unless asked otherwise."""
    p = db_path(path)
    if read_only:
        if not p.is_file():
            raise WarehouseMissing(
                f"no warehouse at {p}: run `liujia ingest LOGS --db {p}` first "
                f"(or set {ENV_VAR} to the warehouse file)")
        return open_duckdb(p, read_only=True)
    p.parent.mkdir(parents=True, exist_ok=True)
    return open_duckdb(p, read_only=False)


@contextlib.contextmanager
def reader(path: str | os.PathLike[str] | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived read-only connection, closed on exit: how readers should query."""
    con = connect(path, read_only=True)
    try:
        yield con
    finally:
        con.close()


def db_version(path: str | os.PathLike[str] | None = None) -> tuple[int, int, int]:
    """(inode, mtime ns, size) of the warehouse file: changes whenever a run is swapped in."""
    try:
        st = db_path(path).stat()
    except FileNotFoundError:
        return (0, 0, 0)
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create any missing warehouse table; refuse a file of another schema version."""
    for ddl in DDL:
        con.execute(ddl)
    rows = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
    row = rows[0] if rows else None
    if row is None:
        con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
    elif row[0] != str(SCHEMA_VERSION):
        raise WarehouseError(
            f"the warehouse has schema version {row[0]}, this liujia writes "
            f"{SCHEMA_VERSION}: run `liujia rebuild LOGS` to make a new one")


def _is_duckdb_file(path: Path) -> bool:
    """True if the file starts with a DuckDB header (the magic ``DUCK`` at byte 8)."""
    try:
        with open(path, "rb") as f:
            return f.read(12)[8:12] == b"DUCK"
    except OSError:
        return False


def _remove(*paths: Path) -> None:
    for p in paths:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def _writer_lock(db: Path) -> Iterator[None]:
    with open(db.with_name(db.name + LOCK_SUFFIX), "a+b") as f:
        if fcntl is not None:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def _checkpoint_stray_wal(db: Path) -> None:
    """A WAL beside the live file means someone wrote to it directly: fold it in first."""
    try:
        con = open_duckdb(db, read_only=False)
    except duckdb.Error as exc:
        raise WarehouseError(
            f"{db} has an unfinished write-ahead log ({db.name}.wal) and cannot be opened to "
            f"checkpoint it ({exc}); close other programs that write to it and retry") from None
    try:
        con.execute("CHECKPOINT")
    finally:
        con.close()


@contextlib.contextmanager
def writing(
    path: str | os.PathLike[str] | None = None, *, fresh: bool = False
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-write connection to a private copy of the warehouse (a new empty one if fresh);
    on success the copy replaces the warehouse atomically, on any error it is thrown away."""
    db = db_path(path).absolute()
    if db.is_symlink():
        db = db.resolve()
    db.parent.mkdir(parents=True, exist_ok=True)
    tmp = db.with_name(db.name + TMP_SUFFIX)
    tmp_wal = tmp.with_name(tmp.name + ".wal")
    with _writer_lock(db):
        _remove(tmp, tmp_wal)  # left by a run that died: we hold the lock, nobody owns it
        if db.exists() and not _is_duckdb_file(db):
            raise WarehouseError(f"{db} exists and is not a DuckDB database: not touching it")
        if db.exists() and db.with_name(db.name + ".wal").exists():
            _checkpoint_stray_wal(db)  # else the old WAL would be replayed onto the new file
        try:
            if not fresh and db.exists():
                shutil.copyfile(db, tmp)
            con = open_duckdb(tmp, read_only=False)
        except duckdb.Error as exc:
            _remove(tmp, tmp_wal)
            raise WarehouseError(f"{db} cannot be opened as a warehouse ({exc})") from None
        except BaseException:
            _remove(tmp, tmp_wal)
            raise
        try:
            ensure_schema(con)
            yield con
            con.execute("CHECKPOINT")
            con.close()
            if tmp_wal.exists():
                raise WarehouseError(f"{tmp_wal} was left after checkpoint; not swapping it in")
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(tmp, db)
            _fsync_dir(db.parent)
        except BaseException:
            con.close()
            _remove(tmp, tmp_wal)
            raise


def stored_schema_version(path: str | os.PathLike[str] | None = None) -> int | None:
    """The schema version recorded in a warehouse file; None when there is no file or it
    records none (``ensure_schema`` refuses to write a file of another version)."""
    p = db_path(path)
    if not p.is_file():
        return None
    con = open_duckdb(p, read_only=True)
    try:
        rows = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
    except duckdb.CatalogException:       # no meta table: not written by liujia
        return None
    finally:
        con.close()
    return int(rows[0][0]) if rows else None
