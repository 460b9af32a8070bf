"""The ≥ 10,000,000-event benchmark warehouse: simulated, ingested once, cached.

Build it (or find it) with ``.venv/bin/python -m tests.bench.warehouse_10m``; the benchmarks of
``test_warehouse_10m_bench.py`` use it through the ``warehouse_10m`` fixture (conftest.py),
which builds it only when ``LIUJIA_BENCH_BUILD`` is set.

The corpus is the demo's mix (``liujia demo``: 六人坑, 够级 and 摸到爽 with 3, 4 and 5 players in
the weights 10 : 1 : 2) scaled ×16 — 62,400 games, ~10.4M events — played by the project's
own self-play (``engine.sim.play_game``, random policy, sessions of 8 games with the same
players) but among ``PLAYERS`` players instead of the simulator's 24: each player has a seeded
log-normal activity (how often the player sits down) and plays each game type with a seeded
probability, so that a few players have played thousands of games and the median one about a
hundred. The games are cut into chunks of ``CHUNK`` games, each simulated from its own seed
into one sealed log file by one of two processes (the files do not depend on which process
wrote them), then ``ingest_paths`` loads them with two workers.

Cache (``$LIUJIA_BENCH_CACHE``, else ``~/.cache/liujia/bench-10m``): the logs in
``logs-KEY/`` and the warehouse in ``warehouse-KEY-schemaV.duckdb``, where KEY hashes the
recipe (``RECIPE``: the corpus, the rules versions of the games, ``BUILD_VERSION`` of this
code) and V is ``warehouse.schema.SCHEMA_VERSION``. Each is complete only once its manifest
(``*.json``, with the counts and the build times) is written, and a warehouse is used only if
its manifest, its recorded schema version and its counts agree; anything else is stale and
rebuilt (a schema change re-ingests the cached logs; a recipe change simulates anew), never
reused. Stale entries of other keys are removed when a new one is built.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from hashlib import blake2b
from pathlib import Path
from typing import Any

from tqdm import tqdm

from engine.games import find_game
from engine.log import LOG_SUFFIX, LogWriter
from engine.sim import BASE_TS, GAME_US, options_tag, play_game, policy

BUILD_VERSION = 1             # bump when this module changes what it builds
MIN_EVENTS = 10_000_000
SEED = 10_000_000
CHUNK = 400                   # games per log file (a multiple of SESSION_GAMES)
SESSION_GAMES = 8             # as the demo's sessions (every game's DEMO["session_games"])
PLAYERS = 4000
ACTIVITY_SIGMA = 1.0          # log-normal spread of how often a player plays
GAP_US = GAME_US // 4         # simulated time between the starts of two games of one type
# (game, options, games): the demo's mix (DEMO weights 10 : 1 : 2, 摸到爽 split over its three
# option sets) ×16; a 够级 game has ~400 events, 六人坑 ~150, 摸到爽 ~125.
PARTS: tuple[tuple[str, tuple[tuple[str, Any], ...], int], ...] = (
    ("keng", (), 48_000),
    ("gouji", (), 4_800),
    ("modaoshuang", (("mds_players", 3),), 3_200),
    ("modaoshuang", (("mds_players", 4),), 3_200),
    ("modaoshuang", (("mds_players", 5),), 3_200),
)
# The share of the players who play each game type at all.
PLAYS: dict[str, float] = {"keng": 0.9, "gouji": 0.4, "modaoshuang": 0.5}


def _rules_versions() -> dict[str, str]:
    return {game: find_game(game).RULES_VERSION for game in sorted({p[0] for p in PARTS})}


RECIPE: dict[str, Any] = {
    "build_version": BUILD_VERSION, "seed": SEED, "chunk": CHUNK,
    "session_games": SESSION_GAMES, "players": PLAYERS, "activity_sigma": ACTIVITY_SIGMA,
    "gap_us": GAP_US, "parts": [[g, dict(o), n] for g, o, n in PARTS], "plays": PLAYS,
    "policy": "random", "rules_versions": _rules_versions(),
}


def recipe_key(recipe: dict[str, Any] | None = None) -> str:
    """12 hex digits naming a corpus recipe (the cache key of its logs)."""
    text = json.dumps(recipe or RECIPE, sort_keys=True, separators=(",", ":"))
    return blake2b(text.encode(), digest_size=6).hexdigest()


def cache_root() -> Path:
    """Where the benchmark warehouse is cached: $LIUJIA_BENCH_CACHE, else
    ~/.cache/liujia/bench-10m."""
    env = os.environ.get("LIUJIA_BENCH_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "liujia" / "bench-10m"


@dataclass(frozen=True)
class Paths:
    """The cache entries of one recipe and schema version."""

    root: Path
    key: str
    schema: int

    @property
    def logs(self) -> Path:
        """The folder of the simulated logs."""
        return self.root / f"logs-{self.key}"

    @property
    def logs_manifest(self) -> Path:
        """Written last when every log of the recipe is sealed."""
        return self.root / f"logs-{self.key}.json"

    @property
    def db(self) -> Path:
        """The warehouse file."""
        return self.root / f"warehouse-{self.key}-schema{self.schema}.duckdb"

    @property
    def db_manifest(self) -> Path:
        """Written last when the warehouse is whole: counts, sizes, build times."""
        return self.db.with_suffix(".json")


def paths(root: Path | None = None) -> Paths:
    """The cache entries of this recipe and the current schema version."""
    from warehouse.schema import SCHEMA_VERSION

    return Paths(root or cache_root(), recipe_key(), SCHEMA_VERSION)


# ---------------------------------------------------------------- the players

def players() -> tuple[list[str], dict[str, list[float]]]:
    """The player ids and, per game type, the cumulative activity weights of all players (a
    weight of 0: the player never plays that game type); seeded, the same in every process."""
    rng = random.Random(SEED)
    ids = [f"p{i:05d}" for i in range(PLAYERS)]
    activity = [rng.lognormvariate(0.0, ACTIVITY_SIGMA) for _ in ids]
    cum: dict[str, list[float]] = {}
    for game in sorted(PLAYS):
        total, acc = 0.0, []
        for a in activity:
            total += a if rng.random() < PLAYS[game] else 0.0
            acc.append(total)
        cum[game] = acc
    return ids, cum


def _table(rng: random.Random, ids: list[str], cum: list[float], seats: int) -> list[str]:
    """``seats`` distinct players, each drawn with the probability of its activity."""
    chosen: dict[str, None] = {}
    while len(chosen) < seats:
        for p in rng.choices(ids, cum_weights=cum, k=seats - len(chosen)):
            chosen.setdefault(p)
    return list(chosen)[:seats]


# ---------------------------------------------------------------- simulating

@dataclass(frozen=True)
class Chunk:
    """One log file of the corpus: CHUNK games (or fewer) of one game and option set."""

    index: int                # position in the whole corpus (its seed and time offset)
    game: str
    options: tuple[tuple[str, Any], ...]
    games: int
    first: int                # the number of the chunk's first game within its part

    def name(self) -> str:
        """The log file's name."""
        g = find_game(self.game)
        tag = options_tag(self.game, g.Options(**dict(self.options)) if self.options else None)
        return f"{self.game}{tag}-bench10m-{self.index:04d}{LOG_SUFFIX}"


def chunks() -> list[Chunk]:
    """The corpus as chunks, the longest (够级) first so that two processes finish together."""
    out, index = [], 0
    for game, opts, n in PARTS:
        for first in range(0, n, CHUNK):
            out.append(Chunk(index, game, opts, min(CHUNK, n - first), first))
            index += 1
    return sorted(out, key=lambda c: (c.game != "gouji", c.index))


def simulate_chunk(chunk: Chunk, folder: Path) -> tuple[str, int, int]:
    """Play one chunk's games into a sealed log (written under a temporary name, renamed when
    sealed); (file name, games, events)."""
    g = find_game(chunk.game)
    options = g.Options(**dict(chunk.options)) if chunk.options else None
    opts = options if options is not None else g.Options()
    tag = options_tag(chunk.game, options)
    seed = SEED + 1 + chunk.index
    rng = random.Random(seed)
    ids, cum = players()
    pols = [policy(chunk.game, "random") for _ in range(g.seat_count(opts))]
    path = folder / chunk.name()
    tmp = path.with_name(path.name + ".part")
    prev = None
    table: list[str] = []
    session = ""
    with LogWriter(tmp) as w:
        for i in range(chunk.games):
            n = chunk.first + i
            if i % SESSION_GAMES == 0:
                table = _table(rng, ids, cum[chunk.game], len(pols))
                session = f"{chunk.game}{tag}-s{seed}-{i // SESSION_GAMES:05d}"
                prev = None
            kwargs = g.session_start(prev.final) if prev is not None else {}
            sim = play_game(chunk.game, f"{chunk.game}{tag}-b10m-{n:06d}", table, rng, pols,
                            options=options,
                            previous_game=prev.events[0].game_id if prev is not None else None,
                            session=session, ts0=BASE_TS + n * GAP_US, **kwargs)
            w.write_game(sim.events)
            prev = sim
    tmp.replace(path)
    return path.name, w.games, w.events


def _fork_pool(workers: int) -> ProcessPoolExecutor | None:
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))


def simulate_corpus(p: Paths, workers: int = 2, progress: bool = True) -> dict[str, Any]:
    """Simulate the recipe's logs into ``p.logs`` (at most ``workers`` processes, a progress
    bar of games) and write their manifest; returns it."""
    if p.logs.exists():
        shutil.rmtree(p.logs)
    p.logs.mkdir(parents=True)
    todo = chunks()
    t0 = time.perf_counter()
    games = events = 0
    bar = tqdm(total=sum(c.games for c in todo), unit="game", desc="simulate",
               disable=not progress, file=sys.stderr, mininterval=2.0)
    pool = _fork_pool(workers)
    try:
        if pool is None:
            done = (simulate_chunk(c, p.logs) for c in todo)
        else:
            done = (f.result() for f in as_completed([pool.submit(simulate_chunk, c, p.logs)
                                                      for c in todo]))
        for _, g, e in done:
            games, events = games + g, events + e
            bar.update(g)
            bar.set_postfix_str(f"{events / 1e6:.2f}M events", refresh=False)
    finally:
        bar.close()
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    manifest = {"recipe": RECIPE, "key": p.key, "files": len(todo), "games": games,
                "events": events, "simulate_seconds": round(time.perf_counter() - t0, 1),
                "workers": workers}
    p.logs_manifest.write_text(json.dumps(manifest, indent=1))
    return manifest


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def cached_logs(p: Paths) -> dict[str, Any] | None:
    """The logs' manifest if the logs of this recipe are whole on disk, else None."""
    m = _read_json(p.logs_manifest)
    if m is None or m.get("recipe") != RECIPE:
        return None
    names = {c.name() for c in chunks()}
    have = {f.name for f in p.logs.glob(f"*{LOG_SUFFIX}")} if p.logs.is_dir() else set()
    return m if have == names else None


# ---------------------------------------------------------------- the warehouse

def warehouse_stats(db: Path) -> dict[str, int]:
    """Events, games, players (distinct), seats, decisions rows and file bytes of a warehouse."""
    from warehouse.db import connect

    con = connect(db, read_only=True)
    try:
        (row,) = con.execute(
            "SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM games), "
            "(SELECT count(DISTINCT player_id) FROM seats), (SELECT count(*) FROM seats), "
            "(SELECT count(*) FROM decisions)").fetchall()
    finally:
        con.close()
    names = ("events", "games", "players", "seats", "decisions")
    return {**dict(zip(names, map(int, row), strict=True)), "bytes": db.stat().st_size}


def cached(p: Paths) -> dict[str, Any] | None:
    """The warehouse's manifest if a whole warehouse of this recipe and schema is cached (its
    manifest, recorded schema version and counts agree), else None."""
    from warehouse.db import stored_schema_version

    m = _read_json(p.db_manifest)
    if m is None or m.get("recipe") != RECIPE or m.get("schema") != p.schema \
            or not p.db.is_file() or stored_schema_version(p.db) != p.schema:
        return None
    try:
        stats = warehouse_stats(p.db)
    except Exception:           # unreadable, not a warehouse: stale
        return None
    keys = ("events", "games", "players")
    return m if all(stats[k] == m["stats"][k] for k in keys) else None


def _remove_stale(p: Paths) -> None:
    """Delete the cache entries of other recipes and schema versions."""
    ours = (f"logs-{p.key}", p.db.stem)         # with their manifests, .lock and .wal files
    for entry in p.root.glob("*"):
        if entry.name.startswith(ours) or not entry.name.startswith(("logs-", "warehouse-")):
            continue
        print(f"removing stale benchmark cache entry {entry}", file=sys.stderr)
        if entry.is_dir():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def build(p: Paths | None = None, workers: int = 2, progress: bool = True) -> dict[str, Any]:
    """Build the warehouse of this recipe (simulating its logs unless they are cached), timed;
    writes and returns its manifest."""
    from ingest import ingest_paths

    p = p or paths()
    p.root.mkdir(parents=True, exist_ok=True)
    for f in (p.db_manifest, p.db):
        f.unlink(missing_ok=True)
    _remove_stale(p)
    t0 = time.perf_counter()
    logs = cached_logs(p)
    if logs is None:
        print(f"simulating {sum(n for *_, n in PARTS):,} games into {p.logs} "
              f"({workers} processes)", file=sys.stderr, flush=True)
        logs = simulate_corpus(p, workers, progress)
        simulated = logs["simulate_seconds"]
    else:
        print(f"reusing the simulated logs in {p.logs}", file=sys.stderr, flush=True)
        simulated = 0.0
    print(f"ingesting {logs['files']} files, {logs['events']:,} events into {p.db}",
          file=sys.stderr, flush=True)
    t1 = time.perf_counter()
    s = ingest_paths([p.logs], db=p.db, progress=progress, workers=workers)
    ingested = time.perf_counter() - t1
    if s.quarantined or s.loaded != logs["games"] or s.events_loaded != logs["events"]:
        raise RuntimeError(f"the benchmark corpus did not ingest whole: {s.describe()}")
    stats = warehouse_stats(p.db)
    if stats["events"] < MIN_EVENTS:
        raise RuntimeError(f"the recipe gives {stats['events']:,} events, fewer than "
                           f"{MIN_EVENTS:,}: raise PARTS")
    manifest = {"recipe": RECIPE, "key": p.key, "schema": p.schema, "stats": stats,
                "simulate_seconds": round(simulated, 1),
                "simulated_in_this_build": simulated > 0,
                "logs_simulate_seconds": logs["simulate_seconds"],
                "ingest_seconds": round(ingested, 1),
                "build_seconds": round(time.perf_counter() - t0, 1), "workers": workers,
                "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    p.db_manifest.write_text(json.dumps(manifest, indent=1))
    return manifest


def ensure(allow_build: bool, progress: bool = True) -> tuple[Path, dict[str, Any]] | str:
    """(warehouse file, manifest) of the cached warehouse, built first if allowed; else the
    reason it is not there (for a skip)."""
    p = paths()
    m = cached(p)
    if m is None:
        if not allow_build:
            return (f"no cached 10M-event warehouse at {p.db} (recipe {p.key}, schema "
                    f"{p.schema}); build it once (~10-20 min, 2 processes) with "
                    "LIUJIA_BENCH_BUILD=1 or `.venv/bin/python -m tests.bench.warehouse_10m`")
        m = build(p, progress=progress)
    return p.db, m


def lake_path(p: Paths) -> Path:
    """The cached lake of this recipe and schema (a folder beside the warehouse)."""
    return p.root / f"lake-{p.key}-schema{p.schema}"


def ensure_lake(workers: int = 2, progress: bool = True) -> tuple[Path, dict[str, Any]] | str:
    """(lake folder, manifest) of the cached lake built from the cached logs with ``liujia
    lake build``, built first when the logs and the warehouse are cached (its figures in
    ``lake-….json``: build seconds, bytes on disk beside the DuckDB file)."""
    from ingest.lake import build_lake

    p = paths()
    m = cached(p)
    if m is None:
        return f"no cached 10M-event warehouse at {p.db}: build it first"
    lk = lake_path(p)
    info = _read_json(lk.with_suffix(".json"))
    if info is not None and info.get("stats") == m["stats"] and lk.is_dir():
        return lk, {**m, "lake": info}
    shutil.rmtree(lk, ignore_errors=True)
    print(f"building the lake {lk} from {p.logs}", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    s = build_lake([p.logs], lk, progress=progress, workers=workers)
    seconds = time.perf_counter() - t0
    if s.loaded != m["stats"]["games"] or s.events_loaded != m["stats"]["events"]:
        raise RuntimeError(f"the lake did not take the corpus whole: {s.describe()}")
    size = sum(f.stat().st_size for f in lk.rglob("*") if f.is_file())
    info = {"stats": m["stats"], "build_seconds": round(seconds, 1), "workers": workers,
            "bytes": size, "duckdb_bytes": p.db.stat().st_size,
            "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    lk.with_suffix(".json").write_text(json.dumps(info, indent=1))
    return lk, {**m, "lake": info}


def main(argv: list[str] | None = None) -> int:
    """Build the benchmark warehouse unless it is cached; print where it is and its figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rebuild", action="store_true", help="build even if a cache is valid")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = ap.parse_args(argv)
    p = paths()
    m = None if args.rebuild else cached(p)
    if m is None:
        m = build(p, workers=args.workers)
    s = m["stats"]
    print(f"{p.db}\n{s['events']:,} events, {s['games']:,} games, {s['players']:,} players, "
          f"{s['seats']:,} seats, {s['decisions']:,} decision rows, "
          f"{s['bytes'] / 2**20:,.0f} MiB; built in {m['build_seconds']:,.0f} s (simulate "
          f"{m['logs_simulate_seconds']:,.0f} s, ingest {m['ingest_seconds']:,.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

