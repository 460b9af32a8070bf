"""六人斗地主 benchmarks for the three variants: validated replay and self-play, each with its
ratio to python-chess measured in the same run (``conftest.chess_rate``).

Run: ``.venv/bin/pytest tests/bench/test_ddz6_bench.py --benchmark-enable``; figures go to
docs/performance.md. Target (issue 11): validated replay ≥ 2.5× python-chess ``push_uci`` for
each variant; self-play games/s are reported (events/s alongside). The move generator has its
own benchmarks (``test_ddz6_moves_bench.py``).
"""

from __future__ import annotations

import random

import pytest

from engine.sim import simulate
from tests.bench.chess_baseline import bench_validated_replay, record_rate

VARIANTS = ("3v3", "2v4", "zhengfan")
N_GAMES = 100            # games per variant in the replay corpus
N_SELFPLAY = 20          # games per self-play round
REPLAY_TARGET_RATIO = 2.5


def _game(variant: str) -> str:
    return f"ddz6_{variant}"


@pytest.fixture(scope="module")
def corpora() -> dict[str, list]:
    """Seeded random-bot games per variant, decoded once."""
    return {v: [g.events for g in simulate(_game(v), N_GAMES, seed=4250 + i)]
            for i, v in enumerate(VARIANTS)}


@pytest.mark.parametrize("variant", VARIANTS)
def test_ddz6_validated_replay(benchmark, corpora, chess_rate, variant):
    """Events replayed with every rule checked (decoded events -> final states)."""
    corpus = corpora[variant]
    n = bench_validated_replay(benchmark, chess_rate, corpus)
    benchmark.extra_info["events_per_game"] = round(n / len(corpus), 1)
    benchmark.extra_info["target_ratio_to_chess"] = REPLAY_TARGET_RATIO


@pytest.mark.parametrize("policy_name", ["random", "greedy"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_ddz6_selfplay(benchmark, chess_rate, variant, policy_name):
    """Self-play games per second (events sealed); events per second alongside."""
    seed = random.Random(variant).randrange(10**6)
    counted: list[int] = []

    def run():
        n = 0
        for sim in simulate(_game(variant), N_SELFPLAY, seed=seed, policy_name=policy_name):
            n += len(sim.events)
        counted.append(n)

    benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    record_rate(benchmark, chess_rate, N_SELFPLAY, "games_per_s")
    events = counted[-1]
    eps = events / benchmark.stats.stats.median
    benchmark.extra_info["events_per_s"] = round(eps)
    benchmark.extra_info["events_ratio_to_chess"] = float(f"{eps / chess_rate:.4g}")
    benchmark.extra_info["events_per_game"] = round(events / N_SELFPLAY, 1)
