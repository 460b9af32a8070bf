"""Peak memory of ``liujia validate`` on a ≥ 1 GiB log: the fast path's target is under 300 MB
(the log is read as a stream: ``engine.log_stream``, ``liujia/commands/validate_stream.py``).

Run: ``nice .venv/bin/pytest tests/bench/test_log_memory_bench.py --benchmark-enable -s``. The
log (``log_1g.py``) is built from the cached 10M-event corpus on first use and cached; without
that corpus the benchmark is skipped. ``LIUJIA_BENCH_BEFORE=DIR`` also measures the code of
another checkout DIR (e.g. main before this change), stopped past 6 GB of RSS; figures go to
docs/performance.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.bench import log_1g

LIMIT_MB = 300


@pytest.fixture(scope="module")
def big_log() -> Path:
    """The cached ≥ 1 GiB log (built first if missing)."""
    got = log_1g.ensure()
    if isinstance(got, str):
        pytest.skip(got)
    return got


def test_validate_1g_peak_rss(benchmark, big_log):
    result: dict = {}

    def run() -> None:
        result.update(log_1g.measure(big_log))
    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(result, log_bytes=big_log.stat().st_size)
    print(f"\nafter: {result}")
    before = os.environ.get("LIUJIA_BENCH_BEFORE")
    if before:
        old = log_1g.measure(big_log, Path(before).resolve())
        benchmark.extra_info["before"] = old
        print(f"before: {old}")
        if not old["capped"]:
            assert old["report_sha256"] == result["report_sha256"], "the reports differ"
    assert result["exit"] in (0, 1) and not result["capped"]
    assert result["peak_rss_mb"] < LIMIT_MB, result
