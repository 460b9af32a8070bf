"""``liujia lake build``: ingest logs into a Parquet lake (warehouse.lake) instead of the
DuckDB file — the same readers, the same verdicts, the same rows.

A build takes the lake's lock (``<lake>/.lock``), removes what a build that died left (files
the manifest does not list, the staging folder), and loads the new games exactly as ingest
does — ``ingest.run``'s file reader (local worker processes or a Dask cluster) and loader —
into a staging DuckDB file that holds the lake's games, runs, ingested files and quarantine
(so duplicates, conflicts and files already ingested are decided as ingest decides them).
The run's new rows are then written as Parquet (partitioned by game type and month, sorted,
in row groups of ROW_GROUP rows), moved into the lake, the stored counts recomputed over the
whole lake, and the manifest replaced last: a reader sees the whole run or none of it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq

from engine.log import sealed_sha256
from ingest.arrow_logs import ReadPolicy
from ingest.run import (
    IngestIOError,
    IngestSummary,
    _known_in,
    _liujia_version,
    _load,
    _record_run,
    find_inputs,
    readers,
    worker_count,
)
from warehouse import lake
from warehouse.db import WarehouseError, fsync_dir, lock_file, pause_point, write_step
from warehouse.schema import DDL
from warehouse.tendencies import write_counts

ROW_GROUP = 100_000
STAGING = ".build"          # the staging folder of a build in progress (removed after it)
# the columns each partitioned table's rows are sorted by inside a file
ORDER = {"games": "game_id", "seats": "game_id, seat", "events": "game_id, seq",
         "decisions": "game_id, seq", "facts": "game_id, seat, fact",
         "reviews": "game_id, seq, seat"}
# the small tables the staging database starts with (what the loader decides against)
PRELOAD = ("games", "ingest_runs", "ingested_files", "quarantine")


def lake_target(out: str | os.PathLike[str]) -> Path:
    """The lake folder to build into: an existing lake, an empty folder, or a new folder in
    an existing one (created); refused otherwise (WarehouseError)."""
    p = Path(out).expanduser().absolute()
    if p.is_symlink():
        raise WarehouseError(f"{p}: a symbolic link; give the lake folder itself")
    if p.is_dir():
        if lake.is_lake(p) or not {e.name for e in p.iterdir()} - {".lock", STAGING}:
            return p
        raise WarehouseError(f"{p} is a folder that is not a liujia lake and not empty: "
                             "choose an empty or new folder")
    if p.exists():
        raise WarehouseError(f"{p} exists and is not a folder")
    if not p.parent.is_dir():
        raise WarehouseError(f"the folder {p.parent} does not exist: create it first")
    p.mkdir()
    return p


def _sql_path(p: Path) -> str:
    return "'" + str(p).replace("'", "''") + "'"


def _listed(root: Path, manifest: lake.Manifest) -> set[str]:
    return {p for t in lake.DATA_TABLES for p in manifest.paths(t)}


def remove_leftovers(root: Path, manifest: lake.Manifest) -> int:
    """Remove what a build that died left — its staging folder, every Parquet file (or link)
    under the table folders that the manifest does not list — and the counts of the versions
    before the listed one (kept one build longer for the readers still on them); the number
    of files removed."""
    shutil.rmtree(root / STAGING, ignore_errors=True)
    keep = _listed(root, manifest)
    removed = 0
    for top in (*lake.PARTITIONED, *lake.PER_RUN, "counts"):
        for folder, _dirs, names in os.walk(root / top, followlinks=False):
            for name in names:
                rel = (Path(folder) / name).relative_to(root).as_posix()
                if name.endswith(".parquet") and rel not in keep:
                    (Path(folder) / name).unlink()
                    removed += 1
    for version in (root / "counts").glob("v*"):
        with contextlib.suppress(OSError):           # a folder still holding listed counts
            version.rmdir()
    return removed


def _staging(root: Path, manifest: lake.Manifest) -> duckdb.DuckDBPyConnection:
    """The staging database: the warehouse tables, with the lake's PRELOAD tables copied in."""
    (root / STAGING).mkdir()
    con = duckdb.connect(str(root / STAGING / "staging.duckdb"))
    try:
        con.execute("SET TimeZone = 'UTC'")
        con.execute("SET enable_progress_bar = false")
        lake.lock_down(con, root)
        for ddl in DDL:
            con.execute(ddl)
        for table in PRELOAD:
            files = [lake.checked_file(root, p) for p in manifest.paths(table)]
            if files:
                cols = ", ".join(c for c, _ in lake.columns()[table])
                listed = ", ".join(_sql_path(f) for f in files)
                con.execute(f"INSERT INTO {table} SELECT {cols} FROM read_parquet([{listed}], "
                            "hive_partitioning = false)")
    except BaseException:
        con.close()
        raise
    return con


def _export(con: duckdb.DuckDBPyConnection, root: Path, run_id: int) -> dict[str, list[str]]:
    """Write the run's new rows as Parquet under the staging folder's ``out``; the relative
    paths written per table."""
    out = root / STAGING / "out"
    out.mkdir()
    pattern = f"r{run_id:06d}-{{i}}"
    con.execute("CREATE TEMP TABLE _parts AS SELECT game_id, game AS game_type, "
                "strftime(started, '%Y-%m') AS month FROM games WHERE run_id = ?", [run_id])
    opts = f"FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE {ROW_GROUP}"
    for table in lake.PARTITIONED:
        con.execute(f"COPY (SELECT t.*, p.game_type, p.month FROM {table} t JOIN _parts p "
                    f"ON p.game_id = t.game_id ORDER BY {ORDER[table]}) TO "
                    f"{_sql_path(out / table)} ({opts}, PARTITION_BY (game_type, month), "
                    f"FILENAME_PATTERN '{pattern}')")
    for table in lake.PER_RUN:
        if con.execute(f"SELECT count(*) FROM {table} WHERE run_id = ?",
                       [run_id]).fetchall()[0][0]:
            (out / table).mkdir(parents=True, exist_ok=True)
            con.execute(f"COPY (SELECT * FROM {table} WHERE run_id = {int(run_id)}) TO "
                        f"{_sql_path(out / table / f'r{run_id:06d}.parquet')} ({opts})")
    written: dict[str, list[str]] = {}
    for table in lake.PARTITIONED + lake.PER_RUN:
        for folder, _dirs, names in os.walk(out / table):
            for name in sorted(names):
                written.setdefault(table, []).append(
                    (Path(folder) / name).relative_to(out).as_posix())
    return written


def _entry(root: Path, rel: str) -> dict[str, Any]:
    p = root / rel
    return {"path": rel, "rows": pq.ParquetFile(p).metadata.num_rows,
            "bytes": p.stat().st_size}


def _place(root: Path, written: dict[str, list[str]], manifest: lake.Manifest) -> None:
    """Move the staged files into the lake and list them in the (not yet written) manifest."""
    out = root / STAGING / "out"
    for table, rels in written.items():
        for rel in sorted(rels):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(out / rel, root / rel)
            manifest.files.setdefault(table, []).append(_entry(root, rel))


def _write_counts(root: Path, manifest: lake.Manifest) -> None:
    """Recount the stored counts over the whole lake as the manifest lists it, into
    ``counts/v<version>/``; the catalog's fingerprint into the manifest's meta."""
    con = duckdb.connect(":memory:")
    try:
        con.execute("SET enable_progress_bar = false")
        lake.lock_down(con, root)
        lake.attach_tables(con, root, manifest, skip=(*lake.COUNTS, "meta"))
        for table in (*lake.COUNTS, "meta"):
            con.execute(lake.table_ddl(table))
        write_counts(con)
        folder = root / "counts" / f"v{manifest.version}"
        folder.mkdir(parents=True, exist_ok=True)
        for table in lake.COUNTS:
            rel = f"counts/v{manifest.version}/{table}.parquet"
            con.execute(f"COPY (SELECT * FROM {table} ORDER BY ALL) TO "
                        f"{_sql_path(root / rel)} (FORMAT parquet, COMPRESSION zstd)")
            manifest.files[table] = [_entry(root, rel)]
        manifest.meta = dict(con.execute("SELECT key, value FROM meta WHERE key <> "
                                         "'schema_version'").fetchall())
    finally:
        con.close()


def _commit(root: Path, manifest: lake.Manifest) -> None:
    """Replace the manifest (written, synced, renamed): the new version is visible whole."""
    import json

    part = root / STAGING / lake.MANIFEST
    with open(part, "w", encoding="utf-8") as f:
        json.dump(manifest.to_json(), f, ensure_ascii=False, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    pause_point("lake-manifest")
    os.replace(part, root / lake.MANIFEST)
    fsync_dir(root)


def _say(progress: bool, text: str) -> None:
    """A stage of a long build, on a terminal's stderr (as the progress bar is)."""
    if progress and sys.stderr.isatty():
        print(text, file=sys.stderr, flush=True)


def build_lake(
    paths: Iterable[str | os.PathLike[str]], out: str | os.PathLike[str],
    progress: bool = True, *, workers: int | None = None, strict: bool = False,
    require: str = "none", trusted: Iterable[str] | None = None, review: Any = None,
    scheduler: str | None = None, allow_insecure: bool = False,
) -> IngestSummary:
    """Add the games of the logs to the Parquet lake at out (created if new), incrementally
    and idempotently as ``ingest_paths`` does (the same options); the run's summary."""
    t0 = time.perf_counter()
    started = datetime.now(UTC)
    names = [str(p) for p in paths]
    files, problems = find_inputs(names)
    if not files and not problems:
        raise IngestIOError(f"no log files under {', '.join(names)}")
    root = lake_target(out)
    seals = {str(f): sealed_sha256(f) for f in files}
    n_workers = worker_count(workers, files)
    policy = ReadPolicy(require, frozenset(trusted or ()), review)
    with contextlib.ExitStack() as stack:
        # handed no file yet: which files are read is decided under the lock (_load)
        results = readers(stack, n_workers, (), strict, policy, scheduler, allow_insecure)
        stack.enter_context(lock_file(root / ".lock"))
        manifest = lake.read_manifest(root) if lake.is_lake(root) else lake.Manifest()
        with write_step(root, "removing what an earlier build left"):
            remove_leftovers(root, manifest)
        stack.callback(shutil.rmtree, root / STAGING, True)
        with write_step(root, "opening the staging database"):
            con = stack.enter_context(contextlib.closing(_staging(root, manifest)))
        s = IngestSummary.begin(con, str(root), "lake build", results.workers)
        run_id = s.run_id
        with write_step(root, "loading the run"):
            _load(con, s, results, files, problems, seals, _known_in(con), started, progress,
                  {})
        if not s.reconciles:
            raise AssertionError(f"run does not reconcile: {s.describe()}")
        s.seconds = time.perf_counter() - t0
        _record_run(con, s, started, [str(Path(p).absolute()) for p in names])
        manifest.version += 1
        manifest.liujia_version = _liujia_version()
        _say(progress, f"lake build: writing run {run_id}'s Parquet files into {root}")
        with write_step(root, "writing the run's Parquet files"):
            _place(root, _export(con, root, run_id), manifest)
            _say(progress, "lake build: counting the tendencies over the whole lake")
            _write_counts(root, manifest)
        pause_point("lake-files")
        with write_step(root, "committing the manifest"):
            _commit(root, manifest)
    s.seconds = time.perf_counter() - t0
    return s
