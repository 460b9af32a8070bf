"""Scale-out on Dask (docs/cluster.md): ingest and review on a ``LocalCluster`` of two worker
processes against one process, measured in the same run, rounds interleaved, medians.

Run: ``.venv/bin/pytest tests/bench/test_cluster_bench.py --benchmark-enable -s`` (needs the
cached 10M-event logs of ``warehouse_10m.py``: the ingest corpus is every tenth of its files,
≈ 1M events of every game it holds). Figures go to docs/performance.md.

- **ingest**: ``ingest_paths`` of the corpus into a fresh warehouse, one process
  (``workers=1``) against the cluster (``scheduler=``); the tables' content hashes must be
  equal. Target ≥ 1.8×.
- **lake**: ``build_lake`` of the same corpus, one process against the cluster, same hashes.
- **review**: one greedy 六人坑 game, every seat, ``review_game`` here against
  ``submit=`` to the cluster; the same review. Target ≥ 1.9×.
- **the model for more workers**: the time to read the corpus in this process (R, the part
  that spreads over workers), the rest of the serial ingest (the one writer, W), and the
  cluster's overhead per task (a no-op task's round trip, submitted 400 at once) give the
  projected time with N workers, max(R / N + tasks × overhead / N, W): where the writer
  becomes the bottleneck, the events per second each added core brings, and the largest
  corpus one writer takes per hour.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

distributed = pytest.importorskip("distributed")

ROUNDS = 3
TABLES = ("games", "seats", "events", "decisions", "facts", "quarantine")


def content_hashes(path: Path) -> dict[str, str]:
    """Per table, an order-free hash of its rows (the run's own columns left out)."""
    from warehouse import lake
    from warehouse.db import connect

    con = connect(path, read_only=True)
    try:
        out = {}
        for t in TABLES:
            cols = [c for c, _ in lake.columns()[t]
                    if c not in ("run_id", "first_seen", "source_file")]
            row = ", ".join(cols)
            out[t] = con.execute(f"SELECT count(*), bit_xor(hash(({row}))) FROM {t}").fetchone()
        return {t: f"{n}:{h}" for t, (n, h) in out.items()}
    finally:
        con.close()


@pytest.fixture(scope="module")
def corpus(warehouse_10m) -> tuple[list[Path], int]:
    """Every tenth file of the cached 10M-event logs, and their number of events."""
    from engine.log import read_log
    from tests.bench import warehouse_10m as w10m

    files = sorted(w10m.paths().logs.glob("*.arrows"))[::10]
    events = sum(sum(len(g.events) for g in read_log(f).games) for f in files)
    return files, events


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, host="127.0.0.1") as c:
        yield c


def _interleaved(runs: dict[str, Callable[[int], Any]], rounds: int = ROUNDS
                 ) -> dict[str, float]:
    """Median seconds of each run, the runs taking turns round by round (one warm-up)."""
    times: dict[str, list[float]] = {k: [] for k in runs}
    for run in runs.values():
        run(-1)
    for i in range(rounds):
        for name, run in runs.items():
            t0 = time.perf_counter()
            run(i)
            times[name].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def test_ingest_speedup(corpus, cluster, tmp_path, benchmark):
    """Ingest of ≈ 1M events: one process against two cluster workers; same tables."""
    from ingest import ingest_paths

    files, events = corpus

    def one(i: int) -> None:
        ingest_paths(files, db=tmp_path / f"one{i}.duckdb", progress=False, workers=1)

    def two(i: int) -> None:
        ingest_paths(files, db=tmp_path / f"two{i}.duckdb", progress=False,
                     scheduler=cluster.scheduler_address)
    med = _interleaved({"one": one, "cluster": two})
    assert content_hashes(tmp_path / "one0.duckdb") == content_hashes(tmp_path / "two0.duckdb")
    benchmark.pedantic(lambda: None, rounds=1)
    benchmark.extra_info.update(events=events, files=len(files),
                                one_s=round(med["one"], 2), cluster_s=round(med["cluster"], 2),
                                speedup=round(med["one"] / med["cluster"], 3))
    print(f"\ningest {events:,} events in {len(files)} files: one process {med['one']:.1f} s, "
          f"2-worker cluster {med['cluster']:.1f} s: {med['one'] / med['cluster']:.2f}×")


def test_lake_speedup(corpus, cluster, tmp_path, benchmark):
    """The lake of the same corpus: one process against the cluster; same tables."""
    from ingest.lake import build_lake

    files, events = corpus

    def one(i: int) -> None:
        build_lake(files, tmp_path / f"one{i}", progress=False, workers=1)

    def two(i: int) -> None:
        build_lake(files, tmp_path / f"two{i}", progress=False,
                   scheduler=cluster.scheduler_address)
    med = _interleaved({"one": one, "cluster": two}, rounds=2)
    assert content_hashes(tmp_path / "one0") == content_hashes(tmp_path / "two0")
    size = sum(f.stat().st_size for f in (tmp_path / "one0").rglob("*") if f.is_file())
    benchmark.pedantic(lambda: None, rounds=1)
    benchmark.extra_info.update(events=events, one_s=round(med["one"], 2),
                                cluster_s=round(med["cluster"], 2), bytes=size,
                                speedup=round(med["one"] / med["cluster"], 3))
    print(f"\nlake build of {events:,} events ({size / 2**20:.0f} MiB): one process "
          f"{med['one']:.1f} s, 2-worker cluster {med['cluster']:.1f} s: "
          f"{med['one'] / med['cluster']:.2f}×")


def test_review_speedup(cluster, benchmark):
    """Every seat of one greedy 六人坑 game reviewed here against on the cluster."""
    from engine.review import Settings, review_game
    from engine.sim import simulate
    from ingest.executor import submit
    from liujia.review_report import review_json

    events = next(iter(simulate("keng", 1, seed=5, policy_name="greedy"))).events
    settings = Settings(seed=1, max_worlds=128)
    client = distributed.Client(cluster, set_as_default=False)
    ex = client.get_executor()
    out: dict[str, Any] = {}

    def one(i: int) -> None:
        out["one"] = review_json(review_game(events, range(6), settings))

    def two(i: int) -> None:
        out["two"] = review_json(review_game(events, range(6), settings,
                                             submit=lambda fn, *a: submit(ex, fn, *a)))
    try:
        med = _interleaved({"one": one, "cluster": two}, rounds=2)
    finally:
        client.close()
    assert out["one"] == out["two"]
    benchmark.pedantic(lambda: None, rounds=1)
    benchmark.extra_info.update(decisions=len(out["one"]["decisions"]),
                                one_s=round(med["one"], 2), cluster_s=round(med["cluster"], 2),
                                speedup=round(med["one"] / med["cluster"], 3))
    print(f"\nreview of {len(out['one']['decisions'])} decisions: one process "
          f"{med['one']:.1f} s, 2-worker cluster {med['cluster']:.1f} s: "
          f"{med['one'] / med['cluster']:.2f}×")


def _noop(x: int) -> int:
    return x


def test_model_for_more_workers(corpus, cluster, tmp_path, benchmark):
    """R (reading, spread over workers), W (the one writer) and the per-task overhead; the
    projected ingest time with 1, 2, 4, 8 and 16 workers."""
    from ingest import ingest_paths
    from ingest.arrow_logs import read_file

    files, events = corpus
    t0 = time.perf_counter()
    for f in files:
        read_file(f)
    read_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    ingest_paths(files, db=tmp_path / "serial.duckdb", progress=False, workers=1)
    serial_s = time.perf_counter() - t0
    writer_s = max(serial_s - read_s, 1e-9)
    client = distributed.Client(cluster, set_as_default=False)
    try:
        ex = client.get_executor()
        ex.submit(_noop, 0).result()
        t0 = time.perf_counter()
        futures = [ex.submit(_noop, i) for i in range(400)]
        assert [f.result() for f in futures] == list(range(400))
        overhead_s = (time.perf_counter() - t0) / 400 * 2     # per task, per worker
    finally:
        client.close()
    model = {n: max(read_s / n + len(files) * overhead_s / n, writer_s)
             for n in (1, 2, 4, 8, 16)}
    benchmark.pedantic(lambda: None, rounds=1)
    per_core = events / read_s
    benchmark.extra_info.update(
        events=events, read_s=round(read_s, 2), serial_s=round(serial_s, 2),
        writer_s=round(writer_s, 2), overhead_ms=round(overhead_s * 1e3, 3),
        events_per_s_per_core=round(per_core), writer_events_per_s=round(events / writer_s),
        writer_events_per_hour=round(events / writer_s * 3600),
        projected_s={n: round(t, 2) for n, t in model.items()})
    print(f"\nread {read_s:.1f} s ({per_core:,.0f} events/s per core), writer {writer_s:.1f} s "
          f"({events / writer_s:,.0f} events/s: {events / writer_s * 3600 / 1e9:.2f} G events "
          f"an hour), overhead {overhead_s * 1e3:.2f} ms a task; projected "
          + ", ".join(f"{n} workers {t:.1f} s" for n, t in model.items()))
