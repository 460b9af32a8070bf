"""The players page on a warehouse of ≥ 10,000,000 events, beside a plain scan of ``events``.

Run: ``.venv/bin/pytest tests/bench/test_warehouse_10m_bench.py --benchmark-enable -s``
(every benchmark twice: on the DuckDB file, ``[duckdb-…]``, and on the Parquet lake built from
the same logs, ``[lake-…]``, cached beside it);
figures go to docs/performance.md. The warehouse is built once and cached
(``tests/bench/warehouse_10m.py``: the demo's mix ×16 among 4,000 players); without the cache
the benchmarks are skipped unless ``LIUJIA_BENCH_BUILD=1`` asks to build it (~10-20 min).

Targets: a player's whole profile (``dashboards.profile_data.whole_profile``: every query the
profile page runs, uncached, on one read-only connection) ≤ 100 ms, the players list
(``warehouse.queries.players_list`` as the page first calls it) ≤ 200 ms, a search by facts
(``warehouse.search.find``, ``SEARCHES``) ≤ 200 ms. Each is also
reported as a ratio to the plain scan measured in the same run (``ratio_to_scan`` in
``extra_info``; the ``scan_medians`` fixture), which is what to compare across machines and
days. Two ways of connecting are measured: ``fresh`` — every round opens a read-only
connection (``warehouse.db.connect``, which verifies the file), runs the queries and closes it,
as the dashboard does on a cache miss, so DuckDB's buffer pool starts empty (the OS page cache
is warm); ``warm`` — one connection kept open across rounds, its buffer pool holding the
columns.

The plain scan reads five columns of every row of ``events`` and aggregates them:
``SELECT count(*), sum(seq), sum(value), sum(len(cards)), sum(strlen(tag)) FROM events``
(integers, a list and a string: what a query over every event minimally pays; ``count(*)``
alone would be answered from metadata).
"""

from __future__ import annotations

import inspect
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import pytest

from warehouse import queries as wq
from warehouse import tendencies as wt
from warehouse.db import connect

SCAN_SQL = ("SELECT count(*), sum(seq), sum(value), sum(len(cards)), sum(strlen(tag)) "
            "FROM events")
PROFILE_BUDGET_S = 0.100
LIST_BUDGET_S = 0.200
FIND_BUDGET_S = 0.200
MODES = ("fresh", "warm")
ROUNDS = 11
PROFILE_ROUNDS = 5            # a whole profile takes seconds today (see docs/performance.md)


class Player(NamedTuple):
    """A chosen player: id, number of games, the game types played."""

    id: str
    games: int
    played: frozenset[str]


def scan(con: duckdb.DuckDBPyConnection) -> tuple[int, ...]:
    """The plain scan of every row of ``events``."""
    return con.execute(SCAN_SQL).fetchone()


def players_list(con: duckdb.DuckDBPyConnection) -> Any:
    """The players list as the page first shows it: every game type, no search."""
    return wq.players_list(con, None, "")


class _Lent:
    """Stands in for ``dashboards.data.Warehouse``: lends one open connection, never closes
    it (the warm mode of ``whole_profile``)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    @contextmanager
    def connect(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The open connection."""
        yield self.con


@contextmanager
def _connection(db: Path, mode: str) -> Iterator[Callable[[], Any]]:
    """A factory of the connection a round uses: fresh each round, or one kept open."""
    if mode == "warm":
        con = connect(db, read_only=True)
        try:
            yield lambda: _Lent(con).connect()
        finally:
            con.close()
    else:
        @contextmanager
        def fresh() -> Iterator[duckdb.DuckDBPyConnection]:
            con = connect(db, read_only=True)
            try:
                yield con
            finally:
                con.close()
        yield fresh


@contextmanager
def _profile_on(db: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``whole_profile`` reads the dashboard's warehouse ($LIUJIA_DB, a fresh connection per
    call); in the warm mode its connection factory lends one open connection instead."""
    from dashboards import data

    monkeypatch.setenv(data.DB_ENV, str(db))
    if mode == "fresh":
        yield
        return
    con = connect(db, read_only=True)
    try:
        monkeypatch.setattr(data, "warehouse", lambda path: _Lent(con))
        yield
    finally:
        con.close()


def whole_profile(player: str) -> dict[str, Any]:
    """The profile page's queries for one player, as first shown (all games, no scope)."""
    from dashboards.profile_data import whole_profile as run

    return run(player)


def _rows(out: Any) -> int:
    if isinstance(out, dict):
        return sum(_rows(v) for v in out.values())
    return int(getattr(out, "num_rows", 1))


def _median_s(fn: Callable[[], Any], rounds: int = ROUNDS, warmup: int = 2) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


@pytest.fixture(scope="module", params=["duckdb", "lake"])
def store(request) -> tuple[Path, dict[str, Any]]:
    """The benchmark corpus as the DuckDB warehouse file, then as the Parquet lake (docs/lake.md:
    the same queries through views of its Parquet files)."""
    return request.getfixturevalue("warehouse_10m" if request.param == "duckdb" else "lake_10m")


@pytest.fixture(scope="module")
def scan_medians(store) -> dict[str, float]:
    """The plain scan's median seconds per connection mode, measured once in this run."""
    db, _ = store
    out = {}
    for mode in MODES:
        with _connection(db, mode) as conn:
            def run(conn=conn) -> None:
                with conn() as con:
                    scan(con)
            out[mode] = _median_s(run)
    print(f"\nplain scan of events: fresh {out['fresh'] * 1e3:.1f} ms, warm "
          f"{out['warm'] * 1e3:.1f} ms")
    return out


@pytest.fixture(scope="module")
def chosen_players(store) -> dict[str, Player]:
    """A typical player (the median number of games) and the heaviest (the most games)."""
    db, _ = store
    con = connect(db, read_only=True)
    try:
        rows = con.execute("SELECT player_id, count(*) FROM seats GROUP BY 1 "
                           "ORDER BY 2, 1").fetchall()
        out = {}
        for which, (pid, games) in (("typical", rows[len(rows) // 2]), ("heavy", rows[-1])):
            played = con.execute("SELECT DISTINCT g.game FROM seats s JOIN games g "
                                 "USING (game_id) WHERE s.player_id = ?", [pid]).fetchall()
            out[which] = Player(pid, int(games), frozenset(r[0] for r in played))
    finally:
        con.close()
    return out


def _report(benchmark, scan_medians, mode: str, budget: float | None, **info: Any) -> None:
    median = benchmark.stats.stats.median
    ratio = median / scan_medians[mode]
    benchmark.extra_info.update(info, mode=mode, median_ms=round(median * 1e3, 2),
                                scan_ms=round(scan_medians[mode] * 1e3, 2),
                                ratio_to_scan=round(ratio, 3))
    if budget is not None:
        benchmark.extra_info["within_budget"] = median <= budget
    print(f"\n{benchmark.name}: median {median * 1e3:.1f} ms = {ratio:.2f}× the scan "
          f"({scan_medians[mode] * 1e3:.1f} ms) {info}")


@pytest.mark.parametrize("mode", MODES)
def test_plain_scan(benchmark, store, scan_medians, mode):
    """The plain scan of every row of ``events`` (the yardstick)."""
    db, manifest = store
    with _connection(db, mode) as conn:
        def run() -> tuple[int, ...]:
            with conn() as con:
                return scan(con)
        row = benchmark.pedantic(run, rounds=ROUNDS, warmup_rounds=2)
    assert row[0] == manifest["stats"]["events"]
    _report(benchmark, scan_medians, mode, None, events=row[0])


@pytest.mark.parametrize("mode", MODES)
def test_players_list(benchmark, store, scan_medians, mode):
    """The players list as the page shows it first (``players_list(con, None, '')``)."""
    db, manifest = store
    with _connection(db, mode) as conn:
        def run() -> Any:
            with conn() as con:
                return players_list(con)
        table = benchmark.pedantic(run, rounds=ROUNDS, warmup_rounds=2)
    players = len(set(table.column("player_id").to_pylist()))    # a row per player and game
    assert players == manifest["stats"]["players"]
    _report(benchmark, scan_medians, mode, LIST_BUDGET_S, players=players, rows=table.num_rows)


# Searches by situation (liujia find, the Search page): one common fact with a result; two
# facts of one seat; a fact that never happened with a count condition; one player's.
SEARCHES = {
    "common+result": dict(conditions=(("dealt_both_jokers", ">=", 1),), game="keng",
                          result="loss"),
    "two facts": dict(conditions=(("burned", ">=", 1), ("was_stifled", ">=", 1)),
                      game="gouji"),
    "count+never": dict(conditions=(("drew_to_follow", ">=", 5), ("went_out", "=", 0)),
                        game="modaoshuang"),
    "one player": dict(conditions=(("went_out", ">=", 1),), player="heavy"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("which", list(SEARCHES))
def test_find(benchmark, store, scan_medians, chosen_players, which, mode):
    """A search by facts (``warehouse.search.find``: what ``liujia find`` and the Search page
    run), the latest 200 seats; budget 200 ms."""
    from warehouse.search import Condition, Search, find

    db, _ = store
    spec = dict(SEARCHES[which])
    spec["conditions"] = tuple(Condition(*c) for c in spec["conditions"])
    if spec.get("player") == "heavy":
        spec["player"] = chosen_players["heavy"].id
    search = Search(**spec)
    with _connection(db, mode) as conn:
        def run() -> Any:
            with conn() as con:
                return find(con, search)
        rows, more = benchmark.pedantic(run, rounds=ROUNDS, warmup_rounds=2)
    assert rows
    _report(benchmark, scan_medians, mode, FIND_BUDGET_S, found=len(rows), more=more)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("which", ["typical", "heavy"])
def test_whole_profile(benchmark, store, scan_medians, chosen_players, monkeypatch,
                       which, mode):
    """Every query of one player's profile page (``whole_profile``) on one connection."""
    db, _ = store
    p = chosen_players[which]
    with _profile_on(db, mode, monkeypatch):
        out = benchmark.pedantic(whole_profile, args=(p.id,), rounds=PROFILE_ROUNDS,
                                 warmup_rounds=1)
    assert out["record_all"].num_rows > 0
    _report(benchmark, scan_medians, mode, PROFILE_BUDGET_S, player=p.id, games=p.games,
            played=sorted(p.played), rows=_rows(out))


@contextmanager
def _timed_queries(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, float]]]:
    """Every named query of warehouse.queries and warehouse.tendencies timed while the block
    runs (the outermost call only): a list of (query, seconds)."""
    calls: list[tuple[str, float]] = []
    depth = [0]

    def timed(name: str, f: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            depth[0] += 1
            t0 = time.perf_counter()
            try:
                return f(*args, **kwargs)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    game = next((a for a in args[2:3] if isinstance(a, str)), None)
                    calls.append((f"{name}[{game}]" if game else name,
                                  time.perf_counter() - t0))
        return run

    for mod in (wq, wt):
        for name, f in inspect.getmembers(mod, inspect.isfunction):
            if f.__module__ == mod.__name__ and not name.startswith("_"):
                monkeypatch.setattr(mod, name, timed(name, f))
    yield calls


def test_profile_breakdown(store, scan_medians, chosen_players, monkeypatch):
    """Not a benchmark: the queries of ``whole_profile`` each timed (warm connection, median of
    PROFILE_ROUNDS whole profiles), per chosen player, with the share of the whole; then the
    ``tendencies_by`` splits (not on the page), to show where the time goes."""
    db, _ = store
    with _profile_on(db, "warm", monkeypatch), _timed_queries(monkeypatch) as calls:
        for which, p in chosen_players.items():
            whole_profile(p.id)
            calls.clear()
            per: dict[str, list[float]] = {}
            for _ in range(PROFILE_ROUNDS):
                n = len(calls)
                whole_profile(p.id)
                for name, t in calls[n:]:
                    per.setdefault(name, []).append(t)
            parts = {name: statistics.median(ts) for name, ts in per.items()}
            total = sum(parts.values())
            print(f"\n{which} player {p.id} ({p.games} games, {', '.join(sorted(p.played))}): "
                  f"sum of the query medians {total * 1e3:.1f} ms = "
                  f"{total / scan_medians['warm']:.2f}× the warm scan")
            for name, t in sorted(parts.items(), key=lambda kv: -kv[1]):
                print(f"  {name:<34} {t * 1e3:8.1f} ms  {t / total:6.1%}")
            con = connect(db, read_only=True)
            try:
                for g in sorted(p.played & {t.game for t in wt.catalog()}):
                    for by in wt.BY:
                        t = _median_s(lambda con=con, pid=p.id, g=g, by=by:
                                      wt.tendencies_by(con, pid, g, by),
                                      rounds=3, warmup=1)
                        print(f"  (not on the page) tendencies_by[{g},{by}] {t * 1e3:8.1f} ms")
            finally:
                con.close()
