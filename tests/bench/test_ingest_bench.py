"""Ingest throughput: validated events per second from sealed Arrow logs into a fresh DuckDB file.

Run: ``.venv/bin/pytest tests/bench/test_ingest_bench.py --benchmark-enable``; figures go to
docs/performance.md. Target: >= 100,000 validated events/s on a 2-core machine.

The corpus (seeded self-play, 16 log files, ~300k events) is written once to
.benchmarks/ingest-bench-logs (gitignored) and reused. Each round ingests all of it into a new
warehouse file: read + verify each file, replay every game through the engine, project, load
with Arrow, record the run, swap the file in. ``events_per_s`` = events loaded / median time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.log import write_log
from engine.sim import simulate
from ingest.run import ingest_paths
from tests.bench.chess_baseline import record_rate

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / ".benchmarks" / "ingest-bench-logs"
FILES = 16
GAMES_PER_FILE = 125
SEED = 20_260_101


@pytest.fixture(scope="module")
def logs() -> tuple[Path, int]:
    """The benchmark corpus on disk, and its number of events (built once, then reused)."""
    manifest = LOGS / "manifest.json"
    want = {"files": FILES, "games_per_file": GAMES_PER_FILE, "seed": SEED}
    if manifest.is_file():
        have = json.loads(manifest.read_text())
        if {k: have.get(k) for k in want} == want:
            return LOGS, have["events"]
    LOGS.mkdir(parents=True, exist_ok=True)
    for old in LOGS.glob("*.arrows"):
        old.unlink()
    games = simulate("keng", FILES * GAMES_PER_FILE, seed=SEED)
    total = 0
    for i in range(FILES):
        part = [next(games).events for _ in range(GAMES_PER_FILE)]
        total += write_log(LOGS / f"bench-{i:02d}.arrows", part)
    manifest.write_text(json.dumps({**want, "events": total}))
    return LOGS, total


def _fresh(db: Path):
    def setup():
        for p in db.parent.glob(db.name + "*"):
            p.unlink()
        return (), {}
    return setup


def _rate(benchmark, n: int) -> None:
    benchmark.extra_info["events"] = n
    benchmark.extra_info["events_per_s"] = round(n / benchmark.stats.stats.median)


def test_ingest_fresh(benchmark, logs, tmp_path, chess_rate):
    """Everything into an empty warehouse, worker processes as chosen by default (one per CPU);
    also recorded as a ratio to python-chess in the same run (``ratio_to_chess``)."""
    folder, n = logs
    db = tmp_path / "bench.duckdb"

    def run():
        s = ingest_paths([folder], db=db, progress=False)
        assert s.loaded == FILES * GAMES_PER_FILE and s.events_loaded == n and s.reconciles

    benchmark.pedantic(run, setup=_fresh(db), rounds=5, warmup_rounds=0)
    _rate(benchmark, n)
    record_rate(benchmark, chess_rate, n, "events_per_s")


def test_ingest_fresh_one_process(benchmark, logs, tmp_path):
    """The same with no worker processes (what a small run does)."""
    folder, n = logs
    db = tmp_path / "bench.duckdb"

    def run():
        s = ingest_paths([folder], db=db, progress=False, workers=1)
        assert s.events_loaded == n

    benchmark.pedantic(run, setup=_fresh(db), rounds=3, warmup_rounds=0)
    _rate(benchmark, n)


def test_reingest_already_present(benchmark, logs, tmp_path):
    """The same input again: every game verified and replayed, found present, nothing loaded."""
    folder, n = logs
    db = tmp_path / "bench.duckdb"
    ingest_paths([folder], db=db, progress=False)

    def run():
        s = ingest_paths([folder], db=db, progress=False, recheck=True)
        assert s.already_present == FILES * GAMES_PER_FILE and s.loaded == 0

    benchmark.pedantic(run, rounds=3, warmup_rounds=0)
    _rate(benchmark, n)


def test_reingest_unchanged_files(benchmark, logs, tmp_path):
    """The same files again without --recheck: each is hashed and found ingested whole."""
    folder, n = logs
    db = tmp_path / "bench.duckdb"
    ingest_paths([folder], db=db, progress=False)

    def run():
        s = ingest_paths([folder], db=db, progress=False)
        assert s.files_skipped == FILES and s.already_present == FILES * GAMES_PER_FILE

    benchmark.pedantic(run, rounds=3, warmup_rounds=0)
    _rate(benchmark, n)
