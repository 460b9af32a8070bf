"""扑克六湖 benchmarks (issue 12): validated replay, self-play and ``legal_actions`` with a claim
window open, each with its ratio to python-chess measured in the same run
(``conftest.chess_rate``).

Run: ``.venv/bin/pytest tests/bench/test_liuhu_bench.py --benchmark-enable``; figures go to
docs/performance.md. Target: validated replay ≥ 2.5× python-chess ``push_uci``. "warm" is the
convention of the other games' replay benchmarks (the same corpus replayed round after round, so
the winning-hand memo answers the second time); "cold" forgets every memo before each round,
as the first replay of new hands does. Self-play games/s are reported (events/s alongside);
``legal_actions`` is timed per call on positions taken from self-play where a WINDOW is open
and a seat must answer (median µs). The winning-hand search has its own benchmarks
(``test_liuhu_hand_bench.py``).
"""

from __future__ import annotations

import pytest

from engine.games import liuhu as lh
from engine.games.liuhu.claims import clear_caches
from engine.games.liuhu.state import RESPOND
from engine.sim import simulate
from tests.bench.chess_baseline import bench_validated_replay, record_latency, record_rate

N_GAMES = 100            # hands in the replay corpus
N_SELFPLAY = 10          # hands per self-play round
SEED = 4260
REPLAY_TARGET_RATIO = 2.5
N_WINDOW_CALLS = 3000


@pytest.fixture(scope="module")
def corpus() -> list:
    """Seeded random-bot hands (sessions of 8), decoded once."""
    return [g.events for g in simulate("liuhu", N_GAMES, seed=SEED)]


def test_liuhu_validated_replay(benchmark, corpus, chess_rate):
    """Events replayed with every rule checked (decoded events -> final states), warm."""
    n = bench_validated_replay(benchmark, chess_rate, corpus)
    benchmark.extra_info["events_per_game"] = round(n / len(corpus), 1)
    benchmark.extra_info["target_ratio_to_chess"] = REPLAY_TARGET_RATIO


def test_liuhu_validated_replay_cold(benchmark, corpus, chess_rate):
    """The same with every memo (winning faces, hand analysis) forgotten before each round."""
    from engine.replay import validate_events

    n = sum(map(len, corpus))

    def run() -> None:
        for g in corpus:
            assert validate_events(g).status == "ok"

    benchmark.pedantic(run, setup=clear_caches, rounds=7, warmup_rounds=1)
    record_rate(benchmark, chess_rate, n, "events_per_s")
    benchmark.extra_info["target_ratio_to_chess"] = REPLAY_TARGET_RATIO


@pytest.mark.parametrize("policy_name", ["random", "greedy"])
def test_liuhu_selfplay(benchmark, chess_rate, policy_name):
    """Self-play hands per second (events sealed); events per second alongside."""
    counted: list[int] = []

    def run():
        n = 0
        for sim in simulate("liuhu", N_SELFPLAY, seed=SEED + 1, policy_name=policy_name):
            n += len(sim.events)
        counted.append(n)

    benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    record_rate(benchmark, chess_rate, N_SELFPLAY, "games_per_s")
    events = counted[-1]
    eps = events / benchmark.stats.stats.median
    benchmark.extra_info["events_per_s"] = round(eps)
    benchmark.extra_info["events_ratio_to_chess"] = float(f"{eps / chess_rate:.4g}")
    benchmark.extra_info["events_per_game"] = round(events / N_SELFPLAY, 1)


def window_positions(corpus: list, limit: int = 600) -> list:
    """States of the corpus where a WINDOW is open and a seat must answer (phase RESPOND)."""
    out = []
    for events in corpus:
        s = lh.initial_state(events[0])
        for e in events[1:]:
            lh.step(s, e)
            if s.phase == RESPOND:
                out.append(s.copy())
                if len(out) >= limit:
                    return out
    return out


def test_liuhu_legal_actions_window(benchmark, corpus, chess_rate):
    """legal_actions of the seat that must answer an open window (pass and each claim), per
    call (median µs)."""
    positions = window_positions(corpus)
    assert positions
    calls = (positions * (N_WINDOW_CALLS // len(positions) + 2))
    it = iter(calls)
    benchmark.pedantic(lambda: lh.legal_actions(next(it)), rounds=N_WINDOW_CALLS,
                       warmup_rounds=len(positions))
    record_latency(benchmark, chess_rate)
    benchmark.extra_info["positions"] = len(positions)
