"""够级 benchmarks: validated replay, legal-action listing on 33-card hands, self-play.

Run: ``.venv/bin/pytest tests/bench/test_gouji_bench.py --benchmark-enable``; figures go to
docs/performance.md. Each reports in ``extra_info`` its rate and ``ratio_to_chess``, the rate
divided by python-chess plies per second measured in the same run (``conftest.chess_rate``).
"""

from __future__ import annotations

import random

import pytest

from engine.games import gouji
from engine.replay import Replay
from engine.sim import simulate
from tests.bench.chess_baseline import bench_validated_replay, record_latency, record_rate

N_GAMES = 120


@pytest.fixture(scope="module")
def corpus():
    """Seeded sessions of random-bot games, decoded once."""
    return [g.events for g in simulate("gouji", N_GAMES, seed=4243)]


def test_gouji_validated_replay(benchmark, corpus, chess_rate):
    """Events replayed with every rule checked (decoded events -> final states)."""
    bench_validated_replay(benchmark, chess_rate, corpus)


def _decisions(corpus, *, leads_only: bool):
    """States where the seat to act holds 32-33 cards (a fresh hand) and plays or passes."""
    out = []
    for ev in corpus[:60]:
        for s in Replay(ev).states():
            if s.stage == "play" and not s.owed and s.xd_pending < 0 and not s.huiwu_due \
                    and s.to_act >= 0 and len(s.hands[s.to_act]) >= 32 \
                    and (s.top_seat < 0 or not leads_only):
                out.append(s)
    return out


@pytest.mark.parametrize("which", ["all", "leads"])
def test_gouji_legal_actions_33(benchmark, corpus, which, chess_rate):
    """legal_actions for a 32-33-card hand: every decision (answers and leads), or leads only
    (the worst case: hundreds of plays)."""
    states = _decisions(corpus, leads_only=which == "leads")
    assert states
    it = iter(states * 200)
    benchmark.pedantic(lambda: gouji.legal_actions(next(it)), rounds=2000, warmup_rounds=100)
    record_latency(benchmark, chess_rate)
    benchmark.extra_info["states"] = len(states)
    benchmark.extra_info["actions_mean"] = round(
        sum(len(gouji.legal_actions(s)) for s in states[:200]) / min(200, len(states)))


@pytest.mark.parametrize("policy_name", ["random", "greedy"])
def test_gouji_selfplay(benchmark, policy_name, chess_rate):
    """Self-play games per second (sessions of 8, events sealed)."""
    n = 24

    def run():
        for _ in simulate("gouji", n, seed=random.Random(1).randrange(10**6),
                          policy_name=policy_name):
            pass

    benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    record_rate(benchmark, chess_rate, n, "games_per_s")
