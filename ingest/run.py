"""One ingest run: read log files (in worker processes when it pays), load valid new games,
quarantine the rest, record the run, and swap the result in as one new warehouse version.

Every run reconciles: games read = loaded + already present + quarantined. A file-level problem
(not a log, torn, changed bytes) is a quarantine row of its own, counted in files_quarantined.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import signal
import stat
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from importlib.metadata import PackageNotFoundError, version
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Any, cast

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
from tqdm import tqdm

from engine.events import SCHEMA as LOG_SCHEMA
from engine.jsonl import is_log_name
from engine.log import LOG_SUFFIX, sealed_sha256
from ingest import columns
from ingest.arrow_logs import (
    FileResult,
    QuarantineRecord,
    ReadPolicy,
    file_key,
    game_key,
    read_file,
)
from ingest.executor import ClusterError, cluster_executor, submit
from warehouse import anchors
from warehouse.anchors import Anchor, new_anchor
from warehouse.db import WarehouseError, pause_point, reader, writer_target, writing
from warehouse.schema import QUARANTINE_ARROW
from warehouse.tendencies import counts_stored, write_counts

FLUSH_EVENTS = 200_000          # buffered events per INSERT (DuckDB appends big ones cheaper)
PARALLEL_MIN_BYTES = 2 << 20    # below this much input, worker processes cost more than they save
AHEAD = 3                       # files handed to each worker process and not yet taken
PR_SET_PDEATHSIG = 1            # prctl(2): the signal a process gets when its parent dies
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
WATCH_SECONDS = 0.5             # where there is no prctl, how often a worker checks its parent


class IngestIOError(OSError):
    """A path that does not exist or cannot be read (a usage / I-O error, not bad content)."""


@dataclass
class IngestSummary:
    """The figures of one run; games_read = loaded + already_present + quarantined."""

    run_id: int
    files: int
    games_read: int
    loaded: int
    already_present: int
    quarantined: int
    events_loaded: int
    seconds: float
    files_quarantined: int = 0
    files_skipped: int = 0
    events_read: int = 0
    db: str = ""
    command: str = "ingest"
    workers: int = 1
    issues: list[QuarantineRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)   # JSONL: unknown fields, ignored
    signatures: dict[str, int] = field(default_factory=dict)   # files read by signature state
    anchors_added: int = 0
    reviewed: int = 0               # rows added to the reviews table (--review)

    @classmethod
    def begin(cls, con: duckdb.DuckDBPyConnection, db: str, command: str,
              workers: int) -> IngestSummary:
        """The figures of a new run (all zero) with the next run id of ``ingest_runs``."""
        run_id = con.execute("SELECT coalesce(max(run_id), 0) + 1 FROM ingest_runs"
                             ).fetchall()[0][0]
        return cls(run_id=run_id, files=0, games_read=0, loaded=0, already_present=0,
                   quarantined=0, events_loaded=0, seconds=0.0, db=db, command=command,
                   workers=workers)

    @property
    def reconciles(self) -> bool:
        """True when every game read was loaded, already present or quarantined."""
        return self.games_read == self.loaded + self.already_present + self.quarantined

    @property
    def events_per_second(self) -> float:
        """Events loaded per second of the whole run."""
        return self.events_loaded / self.seconds if self.seconds > 0 else 0.0

    @property
    def clean(self) -> bool:
        """True when nothing (no game, no file) was quarantined."""
        return self.quarantined == 0 and self.files_quarantined == 0

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict (quarantine records without their raw bytes)."""
        out = {k: v for k, v in asdict(self).items() if k != "issues"}
        out["reconciles"] = self.reconciles
        out["issues"] = [{k: v for k, v in r.as_row().items()
                          if k not in ("raw", "final_digest")} for r in self.issues]
        return out

    def describe(self) -> str:
        """A one-line human summary."""
        files_q = (f"; {self.files_quarantined} file-level problem(s)"
                   if self.files_quarantined else "")
        if self.files_skipped:
            files_q += (f"; {self.files_skipped} file(s) unchanged since they were ingested, "
                        "not read again")
        rate = f" ({self.events_per_second:,.0f} events/s)" if self.events_loaded else ""
        return (f"{self.command} run {self.run_id} into {self.db}: {self.files} file(s), "
                f"{self.games_read} game(s) read = {self.loaded} loaded + "
                f"{self.already_present} already present + {self.quarantined} quarantined"
                f"{files_q}; {self.events_loaded:,} events loaded in {self.seconds:.2f} s{rate}"
                + (f"; {self.reviewed:,} decision(s) reviewed" if self.reviewed else ""))


def _check_named(p: Path) -> None:
    """A path given by the user must exist and be readable (IngestIOError, exit 2)."""
    if not p.exists():
        if p.is_symlink():
            raise IngestIOError(f"{p}: a symbolic link to {os.readlink(p)}, which does not "
                                "exist")
        raise IngestIOError(f"{p}: no such file or folder")
    if not os.access(p, os.R_OK | (os.X_OK if p.is_dir() else 0)):
        raise IngestIOError(f"{p}: permission denied")


def _walk(folder: Path) -> list[Path]:
    """Every *.arrows, *.jsonl and *.jsonl.gz entry below a folder, sorted; a
    sub-folder that cannot be listed is an IngestIOError, never silently left out."""
    def cannot_list(exc: OSError) -> None:
        raise IngestIOError(f"{exc.filename or folder}: cannot list the folder "
                            f"({exc.strerror or exc})")

    return sorted(Path(root, name) for root, _, names in os.walk(folder, onerror=cannot_list)
                  for name in names if is_log_name(name))


def what_it_is(p: Path) -> str:
    """What a path that is no regular file is, for a message: "a character device", "a FIFO",
    "a symbolic link to /dev/zero, a character device", "a symbolic link to X, which does not
    exist (or loops)"…"""
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISREG, "a regular file"))
    link = f"a symbolic link to {os.readlink(p)}, " if p.is_symlink() else ""
    try:
        mode = os.stat(p).st_mode
    except OSError:
        return f"{link}which does not exist (or loops)" if link else "not found"
    return link + next((name for test, name in kinds if test(mode)), "not a regular file")


def _not_a_file(f: Path) -> QuarantineRecord | None:
    """A file-level quarantine record for an entry found in a folder that cannot be read as a
    file at all (a dangling or looping symlink, a FIFO, a socket, a device, or a link to one);
    else None."""
    if f.is_file():
        return None
    what = what_it_is(f)
    target = os.readlink(f) if f.is_symlink() else ""
    if target and not os.path.exists(f):
        code = "dangling_symlink"
        reason = f"{what}: nothing to read; the other files are read"
    else:
        code = "not_a_file"
        reason = f"{what}, not a regular file: not read; the other files are"
    key = file_key(code, hashlib.sha256(f"{f}\0{target}".encode()).digest())
    return QuarantineRecord(file=str(f), stage="file", code=code, reason=reason, key=key)


def find_inputs(
    paths: Iterable[str | os.PathLike[str]],
) -> tuple[list[Path], list[QuarantineRecord]]:
    """The log files named by the paths (folders: every *.arrows, *.jsonl, *.jsonl.gz below
    them), and a file-level
    quarantine record for each entry in a folder that is no file (a dangling symlink); raises
    IngestIOError for a missing or unreadable path."""
    paths = list(paths)
    for p in map(Path, paths):
        _check_named(p)
    out: list[Path] = []
    bad: list[QuarantineRecord] = []
    seen: set[Path] = set()
    for p in map(Path, paths):
        for f in _walk(p) if p.is_dir() else [p]:
            f = f.absolute()
            rec = _not_a_file(f) if f != p.absolute() else None
            if rec is not None:
                bad.append(rec)
                continue
            key = f.resolve()
            if key in seen:
                continue
            seen.add(key)
            if not f.is_file():
                raise IngestIOError(f"{f}: {what_it_is(f)}, not a regular file")
            try:
                with open(f, "rb"):
                    pass
            except OSError as exc:
                raise IngestIOError(f"{f}: cannot read ({exc.strerror or exc})") from None
            out.append(f)
    return out, bad


def collect_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The log files named by the paths (folders: every *.arrows); raises IngestIOError."""
    return find_inputs(paths)[0]


def cpu_count() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Forking is safe enough: fork exists and no other Python thread is running (native pools,
    e.g. Arrow's and jemalloc's, re-initialise in the child)."""
    return threading.active_count() == 1 and "fork" in get_all_start_methods()


def _auto_workers(files: Sequence[Path]) -> int:
    """Worker processes for a run: one per CPU for a big multi-file run in a process that can
    fork safely (no other thread); else none (spawned workers would need a __main__ guard)."""
    if len(files) < 2 or sum(f.stat().st_size for f in files) < PARALLEL_MIN_BYTES:
        return 1
    if not can_fork():
        return 1
    return max(1, min(cpu_count(), len(files)))


def worker_count(asked: int | None, files: Sequence[Path]) -> int:
    """Worker processes to start: the automatic choice, or the number asked capped at the
    number of files to read and at the number of CPUs (1 means none: read here)."""
    if asked is None:
        return _auto_workers(files)
    return max(1, min(asked, len(files), cpu_count()))


def set_pdeathsig(sig: int = signal.SIGKILL) -> bool:
    """Linux: have the kernel send this process ``sig`` when its parent dies; False
    elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _worker_init(parent: int, quiet_interrupt: bool = False) -> None:
    """Start of a worker process: it dies with the process that started it, also when that
    one is killed with SIGKILL (PR_SET_PDEATHSIG; elsewhere a thread watching the parent);
    ``quiet_interrupt``: it ignores Ctrl-C (SIGINT), which its parent handles."""
    if quiet_interrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        if not set_pdeathsig():
            threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    finally:
        if os.getppid() != parent:      # the parent died before the death signal was set
            os._exit(1)


def _worker_pid() -> int:
    return os.getpid()


def worker_pool(workers: int, quiet_interrupt: bool = False) -> ProcessPoolExecutor:
    """A pool of ``workers`` local worker processes, started now: forked in a process with no
    other thread (instant, modules already loaded), else spawned (~0.5 s each, and the
    caller's script needs the usual ``if __name__ == "__main__":`` guard); each dies with this
    process; ``quiet_interrupt``: they ignore Ctrl-C, which this process handles (no worker
    prints a traceback)."""
    method = "fork" if can_fork() else "spawn"
    pool = ProcessPoolExecutor(workers, mp_context=get_context(method), initializer=_worker_init,
                               initargs=(os.getpid(), quiet_interrupt))
    pool.submit(_worker_pid)             # forks every worker now (spawn: the first)
    return pool


class _FileReader:
    """FileResults in file order; with workers > 1, read and replayed in worker processes.

    The workers start when this is made, before the warehouse's lock is taken or a database
    is opened (in a process with no other thread they are forked: instant, modules already
    loaded; else spawned: ~0.5 s each, and the caller's script needs the usual
    ``if __name__ == "__main__":`` guard). Each dies with this process. ``start(files)``
    then hands them the files — also before the lock is taken, so that they read while the
    warehouse is opened; ``only(files)``, under the lock, says which results are wanted."""

    def __init__(self, workers: int, files: Sequence[Path] = (), strict: bool = False,
                 policy: ReadPolicy | None = None, cluster: Executor | None = None) -> None:
        self.workers = workers
        self.strict = strict
        self.policy = policy
        self.todo: deque[Path] = deque()
        self.window: deque[tuple[Path, Future[FileResult]]] = deque()
        self.drop: set[Path] = set()
        self.ex: Executor | None = cluster          # a cluster's: not ours to shut down
        self.cluster = cluster is not None
        if workers > 1 and cluster is None:
            self.ex = worker_pool(workers)
        self.start(files)

    def start(self, files: Sequence[Path]) -> None:
        """Hand out the files to read (AHEAD per worker at once)."""
        self.todo.extend(files)
        self._fill()

    def only(self, files: Sequence[Path]) -> None:
        """Give the results of these files only, in this order after those handed out
        already: a file handed out but not listed is read no further (or its result
        dropped), a listed one not handed out yet is read too."""
        want = set(files)
        handed = {f for f, _ in self.window} | set(self.todo)
        self.drop = handed - want
        self.todo = deque(f for f in self.todo if f in want)
        self.todo.extend(f for f in files if f not in handed)
        self._fill()

    @property
    def draining(self) -> bool:
        """Every file is handed to a worker process: the loader waits for the last ones."""
        return self.ex is not None and not self.todo

    def _fill(self) -> None:
        """Keep AHEAD files per worker handed out and not yet taken (a result that waits
        while the loader inserts costs memory, a worker without a file costs time)."""
        if self.ex is None:
            return
        while self.todo and len(self.window) < AHEAD * self.workers:
            f = self.todo.popleft()
            self.window.append((f, submit(self.ex, read_file, f, self.strict, self.policy)))

    def __iter__(self) -> Iterator[FileResult]:
        while self.window or (self.ex is None and self.todo):
            if self.ex is None:
                f = self.todo.popleft()
                res = read_file(f, self.strict, self.policy)
            else:
                f, future = self.window.popleft()
                if f in self.drop:
                    future.cancel()
                    self._fill()
                    continue
                res = self._result(f, future)
                self._fill()
            if f not in self.drop:
                yield res

    def _result(self, f: Path, future: Future[FileResult]) -> FileResult:
        """A file's result; on a cluster, a failure that is not the file's own (a lost
        scheduler, a worker of another version) is a ClusterError naming the file."""
        try:
            return future.result()
        except (OSError, ClusterError):
            raise
        except Exception as exc:
            if not self.cluster:
                raise
            raise ClusterError(f"the cluster failed while reading {f} "
                               f"({type(exc).__name__}: {exc})") from None

    def __enter__(self) -> _FileReader:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.ex is not None and not self.cluster:
            self.ex.shutdown(wait=True, cancel_futures=True)


def _as_log_ipc(events: pa.Table) -> bytes:
    """A warehouse events table back in the log schema, as Arrow IPC stream bytes."""
    t = events.cast(LOG_SCHEMA)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, LOG_SCHEMA) as w:
        w.write_table(t)
    return sink.getvalue().to_pybytes()


_INSERTS = {
    "games": "INSERT INTO games BY NAME SELECT * FROM _ingest_rows",
    "seats": "INSERT INTO seats BY NAME SELECT * FROM _ingest_rows",
    "events": "INSERT INTO events BY NAME SELECT * FROM _ingest_rows",
    "decisions": "INSERT INTO decisions BY NAME SELECT * FROM _ingest_rows",
    "facts": "INSERT INTO facts BY NAME SELECT * FROM _ingest_rows",
    "reviews": "INSERT INTO reviews BY NAME SELECT * FROM _ingest_rows",
}
ROW_TABLES = tuple(_INSERTS)     # the tables a file's valid games add rows to


class _Loader:
    """Decides loaded / already present / conflict per game and appends rows in big batches."""

    def __init__(self, con: duckdb.DuckDBPyConnection, summary: IngestSummary,
                 started: datetime, anchored: dict[str, Anchor] | None = None) -> None:
        self.con = con
        self.s = summary
        self.anchored = anchored if anchored is not None else {}
        self.new_anchors: dict[str, Anchor] = {}
        self.started = started
        self.pending: dict[str, bytes] = {}
        self.bufs: dict[str, list[pa.Table]] = {t: [] for t in ROW_TABLES}
        self.buf_events = 0
        self.db_has_games = con.execute("SELECT count(*) > 0 FROM games").fetchall()[0][0]
        self.qkeys: set[str] = set()
        self.qbuf: list[QuarantineRecord] = []

    def _existing(self, ids: list[str]) -> dict[str, tuple[bytes, str]]:
        if not self.db_has_games or not ids:
            return {}
        cand = pa.Table.from_arrays([columns.strings(ids)], names=["game_id"])
        self.con.register("_ingest_cand", cand)
        try:
            rows = self.con.execute(
                "SELECT g.game_id, g.final_digest, g.source_file FROM games g "
                "JOIN _ingest_cand c ON g.game_id = c.game_id").fetchall()
        finally:
            self.con.unregister("_ingest_cand")
        return {gid: (bytes(d), src) for gid, d, src in rows}

    def _quarantine(self, rec: QuarantineRecord) -> None:
        self.s.issues.append(replace(rec, raw=None))  # the summary keeps no raw bytes
        if rec.key not in self.qkeys:
            self.qkeys.add(rec.key)
            self.qbuf.append(rec)

    def add(self, res: FileResult) -> None:
        """Account for one file's result and buffer the rows of its new games."""
        s = self.s
        s.files += 1
        if res.games_read:
            s.signatures[res.signature] = s.signatures.get(res.signature, 0) + 1
        s.games_read += res.games_read
        s.events_read += res.events_read
        s.warnings.extend(res.warnings)
        s.files_quarantined += len(res.file_problems)
        for rec in res.file_problems:
            self._quarantine(rec)
        s.quarantined += len(res.bad_games)
        for rec in res.bad_games:
            self._quarantine(rec)
        if not res.ok_ids:
            return
        existing = self._existing(res.ok_ids)
        keep: list[str] = []
        for gid, digest, n in zip(res.ok_ids, res.ok_digests, res.ok_events, strict=True):
            known = self.pending.get(gid)
            src = "this run"
            if known is None and gid in existing:
                known, src = existing[gid]
            anchor = self.anchored.get(gid)
            if known is None and anchor is not None and anchor.final_digest != digest.hex():
                s.quarantined += 1           # not here (a rebuild): the anchor remembers it
                self._quarantine(self._contradiction(res, gid, digest, n, anchor))
                continue
            if anchor is None and gid not in self.new_anchors and known in (None, digest):
                self.new_anchors[gid] = new_anchor(gid, digest, n, res.path, res.key_id)
            if known is None:
                keep.append(gid)
                self.pending[gid] = digest
                s.loaded += 1
                s.events_loaded += n
            elif known == digest:
                s.already_present += 1
            else:
                s.quarantined += 1
                self._quarantine(self._conflict(res, gid, digest, n, known, src))
        if not keep:
            return
        rows = _tables(res)
        if len(keep) != len(res.ok_ids):
            ids = columns.strings(keep)
            rows = {t: x.filter(pc.is_in(x["game_id"], value_set=ids)) for t, x in rows.items()}
        games = rows["games"]
        rows["games"] = games.append_column(
            "run_id", columns.numbers([s.run_id] * games.num_rows, pa.int32()))
        for t, x in rows.items():
            self.bufs[t].append(x)
        s.reviewed += rows["reviews"].num_rows
        self.buf_events += rows["events"].num_rows
        if self.buf_events >= FLUSH_EVENTS:
            self.flush()

    def _conflict(self, res: FileResult, gid: str, digest: bytes, n: int, known: bytes,
                  src: str) -> QuarantineRecord:
        events = cast(pa.Table, res.events)
        events = events.filter(pc.equal(events["game_id"], gid))
        return QuarantineRecord(
            file=res.path, stage="dedupe", code="conflict", game_id=gid, events=n,
            final_digest=digest, raw=_as_log_ipc(events),
            reason=(f"conflict: game {gid} is already loaded (from {src}) with final digest "
                    f"{known.hex()}; this copy ends with {digest.hex()}. The loaded game is "
                    f"kept, this one is not loaded"),
            key=game_key("dedupe", "conflict", gid, None, digest, n))

    def _contradiction(self, res: FileResult, gid: str, digest: bytes, n: int,
                       anchor: Anchor) -> QuarantineRecord:
        events = cast(pa.Table, res.events)
        events = events.filter(pc.equal(events["game_id"], gid))
        signed = f", signed by key {anchor.key}" if anchor.key else ""
        return QuarantineRecord(
            file=res.path, stage="anchor", code="anchor", game_id=gid, events=n,
            final_digest=digest, raw=_as_log_ipc(events),
            reason=(f"anchor: game {gid} contradicts its anchor: first ingested "
                    f"{anchor.first_seen} from {anchor.file}{signed} with {anchor.events} "
                    f"events and final digest {anchor.final_digest}; this copy has {n} events "
                    f"and ends with {digest.hex()}: the game was changed since. Not loaded"),
            key=game_key("anchor", "anchor", gid, None, digest, n))

    def flush(self) -> None:
        """Append the buffered rows and quarantine records to the warehouse."""
        for table, insert in _INSERTS.items():
            parts = self.bufs[table]
            if not parts:
                continue
            data = pa.concat_tables(parts)
            self.con.register("_ingest_rows", data)
            try:
                self.con.execute(insert)
            finally:
                self.con.unregister("_ingest_rows")
            parts.clear()
        if self.pending:
            self.db_has_games = True
        self.pending.clear()
        self.buf_events = 0
        if self.qbuf:
            seen = (self.started - EPOCH) // timedelta(microseconds=1)   # as Arrow keeps it
            rows = [dict(r.as_row(), run_id=self.s.run_id, first_seen=seen) for r in self.qbuf]
            q = columns.table(rows, QUARANTINE_ARROW)
            self.con.register("_ingest_q", q)
            try:
                self.con.execute("INSERT INTO quarantine BY NAME SELECT * FROM _ingest_q "
                                 "ON CONFLICT DO NOTHING")
            finally:
                self.con.unregister("_ingest_q")
            self.qbuf.clear()


def _liujia_version() -> str:
    try:
        return version("liujia")
    except PackageNotFoundError:  # pragma: no cover - running from a plain checkout
        return "unknown"


def _record_run(con: duckdb.DuckDBPyConnection, s: IngestSummary, started: datetime,
                paths: list[str]) -> None:
    con.execute(
        "INSERT INTO ingest_runs (run_id, command, started, finished, files, games_read, "
        "loaded, already_present, quarantined, files_quarantined, events_read, events_loaded, "
        "seconds, paths, liujia_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [s.run_id, s.command, started, datetime.now(UTC), s.files, s.games_read, s.loaded,
         s.already_present, s.quarantined, s.files_quarantined, s.events_read,
         s.events_loaded, s.seconds, paths, _liujia_version()])


def _known_files(db: Path) -> dict[bytes, tuple[int, int]]:
    """Seal SHA-256 -> (games, events) of the files the live warehouse holds whole, read
    without the lock: only a guess (it sizes the pool), the skips are decided under it."""
    if not db.is_file():
        return {}
    try:
        with reader(db) as con:
            return _known_in(con)
    except (duckdb.Error, WarehouseError, OSError):  # not (yet) a warehouse of this liujia:
        return {}                                    # writing() says what is wrong with it


def _known_in(con: duckdb.DuckDBPyConnection) -> dict[bytes, tuple[int, int]]:
    """Seal SHA-256 -> (games, events) of the files held whole (ingested_files) by con."""
    rows = con.execute("SELECT sha256, games, events FROM ingested_files").fetchall()
    return {bytes(h): (g, n) for h, g, n in rows}


def _read_all(loader: _Loader, results: _FileReader, seals: dict[str, bytes | None],
              bar: tqdm | None) -> list[tuple[bytes, str, int, int, int, int]]:
    """Feed every file's result to the loader; the ingested_files rows of the files whose
    every game was loaded or already present."""
    s = loader.s
    whole: list[tuple[bytes, str, int, int, int, int]] = []
    for res in results:
        quarantined = s.quarantined
        loader.add(res)
        if results.draining and loader.buf_events:
            loader.flush()          # insert while the last files are read, not after them
        seal = seals.get(res.path)
        if seal is not None and not res.file_problems and s.quarantined == quarantined:
            whole.append((seal, res.path, res.size, res.games_read, res.events_read,
                          s.run_id))
        if bar is not None:
            bar.update(res.size)
            bar.set_postfix(loaded=s.loaded, quarantined=s.quarantined, refresh=False)
        pause_point("file")
    return whole


def _tables(res: FileResult) -> dict[str, pa.Table]:
    """The rows of each of ``ROW_TABLES`` of a file that has valid games (its reader fills
    them together)."""
    return {t: cast(pa.Table, getattr(res, t)) for t in ROW_TABLES}


def _load(con: duckdb.DuckDBPyConnection, s: IngestSummary, results: _FileReader,
          files: list[Path], problems: list[QuarantineRecord], seals: dict[str, bytes | None],
          known: dict[bytes, tuple[int, int]], started: datetime, progress: bool,
          anchored: dict[str, Anchor]) -> dict[str, Anchor]:
    """The run inside the writer: skip files held whole (decided now, under the lock, from
    the warehouse as it is now), read the others, append rows and quarantine records."""
    todo = [f for f in files if seals[str(f)] not in known]
    results.only(todo)
    pause_point("reading")
    for f in files:
        seal = seals[str(f)]
        if seal is not None and seal in known:  # byte for byte a file whose every game is here
            games, _ = known[seal]
            s.files += 1
            s.files_skipped += 1
            s.games_read += games
            s.already_present += games
    loader = _Loader(con, s, started, anchored)
    for rec in problems:            # entries of a folder that are no file (dangling symlinks)
        loader.add(FileResult(rec.file, 0, file_problems=[rec]))
    bar = tqdm(total=sum(f.stat().st_size for f in todo), unit="B", unit_scale=True,
               unit_divisor=1024, desc=s.command, file=sys.stderr, leave=False) \
        if progress and sys.stderr.isatty() else None  # (even disabled, a tqdm has a thread)
    try:
        whole = _read_all(loader, results, seals, bar)
        loader.flush()
    finally:
        if bar is not None:
            bar.close()
    if whole:
        con.executemany("INSERT INTO ingested_files VALUES (?, ?, ?, ?, ?, ?) "
                        "ON CONFLICT DO NOTHING", whole)
    return loader.new_anchors


def _run(paths: Iterable[str | os.PathLike[str]], db: str | os.PathLike[str] | None,
         progress: bool, workers: int | None, fresh: bool, command: str,
         recheck: bool = False, strict: bool = False, require: str = "none",
         trusted: Iterable[str] | None = None, review: Any = None,
         scheduler: str | None = None, allow_insecure: bool = False) -> IngestSummary:
    t0 = time.perf_counter()
    started = datetime.now(UTC)
    names = [str(p) for p in paths]
    files, problems = find_inputs(names)
    if not files and not problems:
        raise IngestIOError(f"no *{LOG_SUFFIX} log files under {', '.join(names)} (nor "
                            "*.jsonl, *.jsonl.gz ones)")
    target = writer_target(db)
    seals = {str(f): sealed_sha256(f) for f in files}
    use_known = not (fresh or recheck)
    guess = _known_files(target) if use_known else {}
    early = [f for f in files if seals[str(f)] not in guess]
    n_workers = worker_count(workers, early)
    # the workers read while the lock is taken and the warehouse opened; under the lock,
    # _load decides which files are read after all
    anchored = _anchors_of(target)
    policy = ReadPolicy(require, frozenset(trusted or ()), review)
    with contextlib.ExitStack() as stack:
        results = readers(stack, n_workers, early, strict, policy, scheduler, allow_insecure)
        con = stack.enter_context(writing(target, fresh=fresh))
        s = IngestSummary.begin(con, str(target), command, results.workers)
        known = _known_in(con) if use_known else {}
        added = _load(con, s, results, files, problems, seals, known, started, progress,
                      anchored)
        s.seconds = time.perf_counter() - t0
        if not s.reconciles:  # a bug, never bad input: refuse to swap in a run that lost games
            raise AssertionError(f"run does not reconcile: {s.describe()}")
        if s.loaded or not counts_stored(con):     # the counts of the warehouse as it now is
            write_counts(con)
        _record_run(con, s, started, [str(Path(p).absolute()) for p in names])
        pause_point("loaded")
    s.anchors_added = anchors.append(target, added.values())   # after the commit: see anchors
    s.seconds = time.perf_counter() - t0
    return s


def readers(stack: contextlib.ExitStack, workers: int, files: Sequence[Path], strict: bool,
            policy: ReadPolicy, scheduler: str | None, allow_insecure: bool) -> _FileReader:
    """The file reader of a run, entered on stack: ``workers`` local processes, or the Dask
    cluster at ``scheduler`` (its worker threads then), already handed ``files``."""
    cluster = None
    if scheduler is not None:
        cluster, workers = stack.enter_context(cluster_executor(scheduler, allow_insecure))
    return stack.enter_context(_FileReader(workers, files, strict, policy, cluster))


def _anchors_of(target: Path) -> dict[str, Anchor]:
    """The warehouse's anchors; a warehouse made before anchors existed gets them from its
    games first (written now, so that a rebuild keeps them)."""
    found, _problems = anchors.load(target)
    if found or not target.exists() or anchors.anchor_path(target).exists():
        return found
    try:
        with reader(target) as con:
            seeded = anchors.from_games(con)
    except (WarehouseError, duckdb.Error):
        return found
    anchors.append(target, seeded)
    return {a.game_id: a for a in seeded}


def ingest_paths(
    paths: Iterable[str | os.PathLike[str]], db: str | os.PathLike[str] | None = None,
    progress: bool = True, *, workers: int | None = None, recheck: bool = False,
    strict: bool = False, require: str = "none", trusted: Iterable[str] | None = None,
    review: Any = None, scheduler: str | None = None, allow_insecure: bool = False,
) -> IngestSummary:
    """Ingest log files and folders into the warehouse (default_db() unless db is given).
    A file byte for byte equal to one already ingested whole is not read again, unless
    recheck is set; strict: a JSONL field the format does not know quarantines its game;
    require (none, signed, trusted: signed by one of the ``trusted`` key ids): the games of
    other files are quarantined; review (``engine.review.Settings``): every decision of the
    games loaded is reviewed into the ``reviews`` table; scheduler: the files are read on
    that Dask cluster (``ingest.executor``) instead of local worker processes."""
    return _run(paths, db, progress, workers, fresh=False, command="ingest", recheck=recheck,
                strict=strict, require=require, trusted=trusted, review=review,
                scheduler=scheduler, allow_insecure=allow_insecure)


def rebuild_paths(
    paths: Iterable[str | os.PathLike[str]], db: str | os.PathLike[str] | None = None,
    progress: bool = True, *, workers: int | None = None, strict: bool = False,
    require: str = "none", trusted: Iterable[str] | None = None, review: Any = None,
    scheduler: str | None = None, allow_insecure: bool = False,
) -> IngestSummary:
    """Build a fresh warehouse from the logs and swap it in for the old one atomically; the
    anchors of the old one are kept (``warehouse.anchors``); review, scheduler: as
    ``ingest_paths``."""
    return _run(paths, db, progress, workers, fresh=True, command="rebuild", strict=strict,
                require=require, trusted=trusted, review=review, scheduler=scheduler,
                allow_insecure=allow_insecure)
