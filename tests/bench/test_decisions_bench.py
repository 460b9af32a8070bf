"""Decision points: what deriving the ``decisions`` rows costs on top of validated replay.

Run: ``.venv/bin/pytest tests/bench/test_decisions_bench.py --benchmark-enable``; figures go to
docs/decisions.md. Per game, the same seeded corpus is replayed with every rule checked
without (``plain``: ``engine.replay.validate_events``) and with the decisions collected
(``decisions``: ``engine.decisions.validate_collecting`` into a ``DecisionCollector``, then
its Arrow table). Each reports ``events_per_s`` and ``ratio_to_chess`` (python-chess
``Board.push_uci`` plies per second measured in the same run); the ``decisions`` benchmark
also times the plain replay again right after itself and reports ``plain_events_per_s``,
``cost_pct`` (= plain rate / decisions rate - 1) and the rows it made.
"""

from __future__ import annotations

import pyarrow as pa
import pytest

from engine.decisions import DecisionCollector, validate_collecting
from engine.games import find_game
from engine.replay import validate_events
from engine.sim import simulate
from tests.bench.chess_baseline import median_rate, record_rate

CORPORA = {   # game -> (games, seed, options): the engine benchmarks' corpora
    "keng": (400, 4242, None),
    "gouji": (120, 4243, None),
    "modaoshuang": (300, 4244, {"mds_players": 4}),
}


@pytest.fixture(scope="module", params=sorted(CORPORA))
def corpus(request) -> tuple[str, list]:
    """A seeded corpus of random-bot games of one game, decoded once."""
    game = request.param
    n, seed, opts = CORPORA[game]
    options = find_game(game).Options(**opts) if opts else None
    pa.array([(1,)], pa.list_(pa.uint8()))        # pyarrow's one-time set-up, out of the timing
    return game, [g.events for g in simulate(game, n, seed=seed, options=options)]


def _plain(games: list) -> None:
    for events in games:
        assert validate_events(events).status == "ok"


def _collected(games: list) -> pa.Table:
    collector = DecisionCollector()
    for events in games:
        assert validate_collecting(events, collector).status == "ok"
    return collector.table()


@pytest.mark.parametrize("mode", ["plain", "decisions"])
def test_validated_replay_with_decisions(benchmark, corpus, mode, chess_rate):
    """Validated replay of the corpus, without and with the decisions collected."""
    game, games = corpus
    n = sum(map(len, games))
    run = _plain if mode == "plain" else _collected
    benchmark.pedantic(run, args=(games,), rounds=7, warmup_rounds=1)
    record_rate(benchmark, chess_rate, n, "events_per_s")
    benchmark.extra_info["events"] = n
    if mode == "decisions":
        rate = n / benchmark.stats.stats.median
        plain = median_rate(lambda: _plain(games), n, rounds=7)
        rows = _collected(games).num_rows
        benchmark.extra_info.update(plain_events_per_s=round(plain),
                                    cost_pct=round(100 * (plain / rate - 1), 1),
                                    rows=rows, rows_per_event=round(rows / n, 3))
