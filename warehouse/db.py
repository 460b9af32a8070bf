"""Where the warehouse lives, how to open it, and how a writer swaps in a whole new version.

Readers open short-lived ``read_only=True`` connections. A writer never touches the live file:
it works on a private copy (``<db>.ingest-tmp``), checkpoints and closes it, and renames it
over the database with ``os.replace``. A reader that already has the file open keeps the old
inode; a reader that opens it afterwards sees the new file whole. Writers take a lock
(``<db>.lock``) so that two runs never interleave. See docs/warehouse.md.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb

from warehouse import paths
from warehouse.errors import (  # noqa: F401  (re-exported: callers import them from here)
    SAFE_CONFIG,
    NotAWarehouse,
    WarehouseError,
    WarehouseMissing,
)
from warehouse.paths import (  # noqa: F401  (re-exported: callers import them from here)
    DEFAULT_DB,
    ENV_VAR,
    db_path,
    default_db,
)
from warehouse.schema import DDL, SCHEMA_VERSION
from warehouse.verify import foreign_objects, other_tables, table_problem, verify

try:  # POSIX advisory locks; elsewhere writers are not serialised (documented)
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

ALIAS = "wh"     # the name a warehouse file is attached under in every connection


def open_duckdb(path: str | os.PathLike[str], read_only: bool, *,
                checked: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection to the file with external access off and its configuration locked, in
    which the file holds no view, macro or other database (else NotAWarehouse says which).

    The file is attached to an in-memory database and looked at from there before it is put
    in use, so that nothing of it is in the search path while it is checked: a macro of the
    file's own named ``duckdb_views`` would otherwise answer for the catalog. ``checked``: this
    very version of the file was checked before (``connect``'s cache), so it is not again."""
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"ATTACH ? AS {ALIAS}" + (" (READ_ONLY)" if read_only else ""), [str(path)])
        for key, value in SAFE_CONFIG.items():
            con.execute(f"SET {key} = {str(value).lower()}")
        problem = None if checked else foreign_objects(con, ALIAS)
        if problem:
            raise NotAWarehouse(path, problem)
        con.execute(f"USE {ALIAS}")
    except BaseException:
        con.close()
        raise
    return con


TMP_SUFFIX = ".ingest-tmp"
LOCK_SUFFIX = ".lock"


class WriteFailed(WarehouseError):
    """A step of a write failed before the swap: the warehouse is exactly as it was."""

    def __init__(self, db: Path, step: str, exc: BaseException) -> None:
        self.db, self.step, self.cause = db, step, exc
        detail = _error_text(exc)
        code = exc.errno if isinstance(exc, OSError) else None
        hint = ""
        if code in (errno.ENOSPC, errno.EDQUOT) or "No space left" in detail \
                or "quota" in detail:
            hint = f"; free space in {db.parent} and run again"
        elif code == errno.EFBIG or "File too large" in detail:
            hint = "; a file-size limit was reached (ulimit -f, or the file system's maximum)"
        super().__init__(f"{step} failed ({detail}). The warehouse {db} is intact: this run "
                         f"changed nothing{hint}")


def connect(
    path: str | os.PathLike[str] | None = None, read_only: bool = True, *,
    any_version: bool = False,
) -> duckdb.DuckDBPyConnection:
    """An explicit DuckDB connection to the warehouse; read-only unless asked otherwise. A
    read-only one is verified first (warehouse.verify): any_version accepts a file of another
    schema version, still holding tables only."""
    p = db_path(path)
    if p.is_dir():
        from warehouse import lake  # a Parquet lake folder (liujia lake build)
        if not read_only:
            raise lake.no_write(p)
        return lake.open_lake(p)
    if read_only:
        if not p.is_file():
            raise WarehouseMissing(
                f"no warehouse at {p}: run `liujia ingest LOGS --db {p}` first "
                f"(or set {ENV_VAR} to the warehouse file)")
        if not _is_duckdb_file(p):
            raise NotAWarehouse(p, "it is not a DuckDB database file")
        key = _identity(p, any_version)
        if key is not None and key in _VERIFIED:
            con = open_duckdb(p, read_only=True, checked=True)
            if _identity(p, any_version) == key:
                return con
            con.close()                      # replaced while it was opened: check it
        con = verified(open_duckdb(p, read_only=True), p, tables=not any_version)
        if key is not None and _identity(p, any_version) == key:
            _VERIFIED.add(key)
        return con
    p.parent.mkdir(parents=True, exist_ok=True)
    return open_duckdb(p, read_only=False)


# Versions of warehouse files verified by this process (path, inode, mtime, size, ctime, how):
# opening the same version again skips the checks (~50 ms of DuckDB's function catalog). Any
# write to the file, a rename over it, or a change of its metadata is a new version.
_VERIFIED: set[tuple[object, ...]] = set()


def _identity(p: Path, any_version: bool) -> tuple[object, ...] | None:
    try:
        st = p.stat()
    except OSError:
        return None
    wal = p.with_name(p.name + ".wal")
    if wal.exists():                         # a WAL may hold what the file does not: no cache
        return None
    return (str(p.resolve()), st.st_ino, st.st_dev, st.st_mtime_ns, st.st_ctime_ns, st.st_size,
            any_version)


def verified(con: duckdb.DuckDBPyConnection, path: Path,
             tables: bool = True) -> duckdb.DuckDBPyConnection:
    """The connection, once its file is verified to be a liujia warehouse (warehouse.verify;
    its tables too unless told not to); else it is closed and NotAWarehouse says why."""
    try:
        verify(con, path, tables=tables)
    except BaseException:
        con.close()
        raise
    return con


@contextlib.contextmanager
def reader(path: str | os.PathLike[str] | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived read-only connection, closed on exit: how readers should query."""
    con = connect(path, read_only=True)
    try:
        yield con
    finally:
        con.close()


def db_version(path: str | os.PathLike[str] | None = None) -> tuple[int, int, int]:
    """(inode, mtime ns, size) of the warehouse file (a lake's manifest): changes whenever a
    run is swapped in."""
    from warehouse.lake import version_file
    try:
        st = version_file(db_path(path)).stat()
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


def _ensure_warehouse(con: duckdb.DuckDBPyConnection, db: Path) -> None:
    """Refuse a copy holding views, macros or odd tables (warehouse.verify); add any
    missing table."""
    problem = other_tables(con)   # open_duckdb refused views, macros and other databases
    if problem is None:
        ensure_schema(con)
        problem = table_problem(con)
    if problem:
        raise NotAWarehouse(db, problem, "; not touching it")


def _is_duckdb_file(path: Path) -> bool:
    """True if the file starts with a DuckDB header (the magic ``DUCK`` at byte 8); a file that
    cannot be read is a WarehouseError (nothing is written)."""
    try:
        with open(path, "rb") as f:
            return f.read(12)[8:12] == b"DUCK"
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise WarehouseError(f"{path}: cannot read the warehouse ({exc.strerror or exc}): "
                             "nothing was written") from None


COPY_CHUNK = 1 << 20          # bytes per sendfile call of the copy (a pause point after each)
PAUSE_ENV = "LIUJIA_PAUSE_AT"          # tests: "point,point": pause a writer at these points
PAUSE_FILE_ENV = "LIUJIA_PAUSE_FILE"   # ... announcing it in this file, resuming once deleted
PAUSE_MAX_SECONDS = 300
_hits: dict[str, int] = {}


def pause_point(name: str) -> None:
    """A named step of a write where a crash test may pause the process: when $LIUJIA_PAUSE_AT
    lists the name (``name`` or ``name@N``: its Nth time), write "pid name" to
    $LIUJIA_PAUSE_FILE and wait until that file is gone. Points: locked, copy (after each
    COPY_CHUNK), opened, reading, file (after each file read), loaded, checkpoint, synced,
    swapped."""
    points = os.environ.get(PAUSE_ENV)
    flag = os.environ.get(PAUSE_FILE_ENV)
    if not points or not flag:
        return
    _hits[name] = hit = _hits.get(name, 0) + 1
    wanted = points.split(",")
    if f"{name}@{hit}" not in wanted and not (hit == 1 and name in wanted):
        return
    part = flag + ".part"
    with open(part, "w") as f:
        f.write(f"{os.getpid()} {name}@{hit}\n")
    os.replace(part, flag)
    deadline = time.monotonic() + PAUSE_MAX_SECONDS
    while os.path.exists(flag) and time.monotonic() < deadline:
        time.sleep(0.002)


def _error_text(exc: BaseException) -> str:
    """An error as one line: OSError as 'file: reason', DuckDB's text without its prefix."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    text = " ".join(str(exc).split())
    for prefix in ("FATAL Error: ", "IO Error: "):
        text = text.removeprefix(prefix)
    return text or type(exc).__name__


@contextlib.contextmanager
def write_step(db: Path, what: str) -> Iterator[None]:
    """Turn an I/O or DuckDB error of one step of a write into WriteFailed (the warehouse, or
    the lake, intact)."""
    try:
        yield
    except (OSError, duckdb.Error) as exc:
        raise WriteFailed(db, what, exc) from exc


def writer_target(path: str | os.PathLike[str] | None = None) -> Path:
    """The warehouse file a writer replaces (absolute, a symlink resolved). Its folder must
    exist: only the default folder (DEFAULT_DB's) is created; raises WarehouseError."""
    given = db_path(path).absolute()
    db = given.resolve() if given.is_symlink() else given
    from warehouse.lake import is_lake, no_write
    if is_lake(db):
        raise no_write(db)
    folder = db.parent
    if folder.is_dir():
        return db
    if folder.exists():
        raise WarehouseError(f"{folder} is not a folder: cannot write the warehouse {db.name}")
    default = paths.DEFAULT_DB               # read now: tests and tools may point it elsewhere
    if given != default.absolute():
        raise WarehouseError(f"the folder {folder} does not exist: create it first (only the "
                             f"default folder, {default.parent}, is created)")
    folder.mkdir(parents=True, exist_ok=True)
    return db


def _remove(*paths: Path) -> None:
    for p in paths:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def fsync_dir(folder: Path) -> None:
    """Make a folder's entries (a rename into it) durable, where the OS can."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _copy_file(src: Path, dst: Path) -> None:
    """Copy src to dst in COPY_CHUNK pieces (sendfile where the OS can), pausing at "copy"."""
    with open(src, "rb") as fi, open(dst, "wb") as fo:
        offset, send = 0, hasattr(os, "sendfile")
        while True:
            if send:
                try:
                    n = os.sendfile(fo.fileno(), fi.fileno(), offset, COPY_CHUNK)
                except OSError as exc:   # no sendfile to a file here (macOS): plain copy
                    if offset or exc.errno not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSOCK,
                                                   errno.EOPNOTSUPP):
                        raise
                    send = False
                    continue
            else:
                n = fo.write(fi.read(COPY_CHUNK))
            if not n:
                return
            offset += n
            pause_point("copy")


@contextlib.contextmanager
def lock_file(lock: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on the file (created if missing) while inside."""
    try:
        f = open(lock, "a+b")
    except OSError as exc:
        raise WarehouseError(f"cannot open the writers' lock {lock} ({exc.strerror or exc}): "
                             f"nothing was written") from None
    with f:
        if fcntl is not None:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def _writer_lock(db: Path) -> contextlib.AbstractContextManager[None]:
    return lock_file(db.with_name(db.name + LOCK_SUFFIX))


def _checkpoint_stray_wal(db: Path) -> None:
    """A WAL beside the live file means someone wrote to it directly: fold it in first —
    once a read-only look (which changes nothing) found no view or macro in file + WAL."""
    with contextlib.suppress(duckdb.Error):
        open_duckdb(db, read_only=True).close()        # NotAWarehouse: not touching it
    try:
        con = open_duckdb(db, read_only=False)
    except duckdb.Error as exc:
        raise WarehouseError(
            f"{db} has an unfinished write-ahead log ({db.name}.wal) and cannot be opened to "
            f"checkpoint it ({exc}); close other programs that write to it and retry") from None
    try:
        con.execute(f"CHECKPOINT {ALIAS}")
    finally:
        con.close()


def _open_copy(db: Path, tmp: Path, fresh: bool) -> duckdb.DuckDBPyConnection:
    """The private copy of the warehouse (a new empty file if fresh), open for writing."""
    if fresh or not db.exists():
        with write_step(db, f"creating the new warehouse file {tmp.name}"):
            return open_duckdb(tmp, read_only=False)
    with write_step(db, f"copying the warehouse to {tmp.name}"):
        _copy_file(db, tmp)
    try:
        return open_duckdb(tmp, read_only=False)
    except duckdb.Error as exc:
        raise WarehouseError(f"{db} cannot be opened as a warehouse ({exc}); it is unchanged"
                             ) from None
    except NotAWarehouse as exc:
        raise NotAWarehouse(db, exc.problem, "; not touching it") from None


def _may_replace(db: Path) -> None:
    """Refuse to rebuild over a DuckDB file that opens and is something else than a liujia
    warehouse (views, macros, or tables without liujia's meta); a damaged one may go."""
    try:
        con = open_duckdb(db, read_only=True)
    except duckdb.Error:
        return
    except NotAWarehouse as exc:
        raise NotAWarehouse(db, exc.problem, "; not replacing it (remove it, or choose "
                            "another --db)") from None
    try:
        problem = other_tables(con)
    finally:
        con.close()
    if problem:
        raise NotAWarehouse(db, problem, "; not replacing it (remove it, or choose another "
                            "--db)")


def _close_quietly(con: duckdb.DuckDBPyConnection) -> None:
    with contextlib.suppress(duckdb.Error):   # e.g. a database invalidated by a failed write
        con.close()


def _swap_in(con: duckdb.DuckDBPyConnection, db: Path, tmp: Path, tmp_wal: Path) -> None:
    """Checkpoint and close the copy, sync it to disk, and rename it over the warehouse."""
    pause_point("checkpoint")
    with write_step(db, f"the checkpoint of the new version ({tmp.name})"):
        con.execute(f"CHECKPOINT {ALIAS}")
        con.close()
    if tmp_wal.exists():
        raise WarehouseError(f"{tmp_wal} was left after checkpoint; not swapping it in. The "
                             f"warehouse {db} is intact: this run changed nothing")
    with write_step(db, f"syncing the new version ({tmp.name}) to disk"), open(tmp, "rb+") as f:
        os.fsync(f.fileno())
    pause_point("synced")
    with write_step(db, f"renaming {tmp.name} over the warehouse"):
        os.replace(tmp, db)
    pause_point("swapped")
    fsync_dir(db.parent)


@contextlib.contextmanager
def writing(
    path: str | os.PathLike[str] | None = None, *, fresh: bool = False
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-write connection to a private copy of the warehouse (a new empty one if fresh);
    on success the copy replaces the warehouse atomically, on any error it is thrown away and
    the warehouse is exactly as before (a failed write step raises WriteFailed saying so)."""
    db = writer_target(path)
    tmp = db.with_name(db.name + TMP_SUFFIX)
    tmp_wal = tmp.with_name(tmp.name + ".wal")
    with _writer_lock(db):
        pause_point("locked")
        _remove(tmp, tmp_wal)  # left by a run that died: we hold the lock, nobody owns it
        if db.exists() and not _is_duckdb_file(db):
            raise WarehouseError(f"{db} exists and is not a DuckDB database: not touching it")
        if db.exists() and db.with_name(db.name + ".wal").exists():
            _checkpoint_stray_wal(db)  # else the old WAL would be replayed onto the new file
        if fresh and db.exists():
            _may_replace(db)
        try:
            con = _open_copy(db, tmp, fresh)
        except BaseException:
            _remove(tmp, tmp_wal)
            raise
        try:
            _ensure_warehouse(con, db)
            pause_point("opened")
            try:
                yield con
            except duckdb.Error as exc:   # e.g. the disk filled up while rows were appended
                raise WriteFailed(db, f"writing the run into {tmp.name}", exc) from exc
            _swap_in(con, db, tmp, tmp_wal)
        except BaseException:
            _close_quietly(con)
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
    except duckdb.Error:       # no meta table (not written by liujia), or not readable
        return None
    finally:
        con.close()
    return int(rows[0][0]) if rows and str(rows[0][0]).isdigit() else None
