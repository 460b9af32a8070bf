"""Benchmarks run apart from the pass/fail suite: ``pytest tests/bench --benchmark-enable``.

In the ordinary run (``--benchmark-disable`` in pyproject.toml) they are skipped, so their
large fixtures (the engine corpora, the python-chess corpus) are never built there.

Every engine benchmark also records its rate as a ratio to python-chess replaying random legal
games in the same run (``chess_rate``, see ``chess_baseline.py``): the ratio is what is compared
across machines.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.bench import chess_baseline


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip every benchmark unless --benchmark-enable was given."""
    if config.getoption("benchmark_enable", default=False):
        return
    skip = pytest.mark.skip(reason="benchmark: run with 'pytest tests/bench --benchmark-enable'")
    for item in items:
        if "tests/bench/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def chess_corpus() -> list[list[str]]:
    """The seeded corpus of random legal chess games, as UCI strings (built once a run)."""
    pytest.importorskip("chess", reason="python-chess (the dev extra) is needed for the "
                        "baseline")
    return chess_baseline.build_corpus()


@pytest.fixture(scope="session")
def chess_rate(chess_corpus: list[list[str]]) -> float:
    """python-chess plies per second replaying the corpus with push_uci (median of rounds),
    measured once in this run."""
    return chess_baseline.chess_plies_per_s(chess_corpus)


@pytest.fixture(scope="session")
def warehouse_10m() -> tuple[Path, dict[str, Any]]:
    """The cached ≥ 10M-event benchmark warehouse and its manifest (warehouse_10m.py); built
    first only when LIUJIA_BENCH_BUILD is set, else the benchmark is skipped."""
    from tests.bench import warehouse_10m as w10m

    got = w10m.ensure(allow_build=bool(os.environ.get("LIUJIA_BENCH_BUILD")))
    if isinstance(got, str):
        pytest.skip(got)
    return got


@pytest.fixture(scope="session")
def lake_10m(warehouse_10m) -> tuple[Path, dict[str, Any]]:
    """The benchmark corpus as a Parquet lake (``liujia lake build`` of the cached logs),
    built once and cached beside the warehouse."""
    from tests.bench import warehouse_10m as w10m

    got = w10m.ensure_lake()
    if isinstance(got, str):
        pytest.skip(got)
    return got
