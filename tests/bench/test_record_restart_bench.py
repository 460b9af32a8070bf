"""``liujia record-server`` restarted on a data folder holding 200 open games (target: all 200
listed by ``GET /v1/games`` within 2 s of the process's start on a quiet machine).

Run: ``.venv/bin/pytest tests/bench/test_record_restart_bench.py --benchmark-enable``; the
table over 0, 50, 200 and 400 open games is ``tests/bench/record_restart.py``; figures go to
docs/performance.md ("Record server"). Reports the median seconds until health answers and
until every game is listed, and the server's CPU seconds until then.
"""

from __future__ import annotations

import statistics
import sys

import pytest

from liujia.server.tokens import new_token
from tests.bench import record_restart

TARGET_S = record_restart.TARGET_S
OPEN = 200


@pytest.fixture(scope="module")
def open_games(tmp_path_factory):
    """A data folder with OPEN unfinished games, written by a real Store."""
    data = tmp_path_factory.mktemp("restart") / "data"
    events = record_restart.build(data, OPEN, seed=24)
    return data, events


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL, /proc")
def test_restart_with_200_open_games(benchmark, open_games, tmp_path):
    data, events = open_games
    tokens = tmp_path / "tokens"
    token = new_token(tokens, "ops", admin=True)
    runs: list[tuple[float, float, float, float]] = []

    def start() -> None:
        runs.append(record_restart.time_start(data, tokens, token, OPEN))

    benchmark.pedantic(start, rounds=5, warmup_rounds=1)
    benchmark.extra_info["open_games"] = OPEN
    benchmark.extra_info["events"] = events
    benchmark.extra_info["health_s"] = round(statistics.median(r[0] for r in runs), 3)
    benchmark.extra_info["listed_s"] = round(statistics.median(r[1] for r in runs), 3)
    benchmark.extra_info["health_cpu_s"] = round(statistics.median(r[2] for r in runs), 3)
    benchmark.extra_info["server_cpu_s"] = round(statistics.median(r[3] for r in runs), 3)
    benchmark.extra_info["target_s"] = TARGET_S
