"""Engine benchmarks: validated replay, random-step latency, self-play, log reading.

Run: ``.venv/bin/pytest tests/bench/test_engine_bench.py --benchmark-enable``; figures go to
docs/performance.md. Each reports in ``extra_info`` its rate and ``ratio_to_chess``, the rate
divided by python-chess plies per second measured in the same run (``conftest.chess_rate``).
"""

from __future__ import annotations

import random

import pytest

from engine.games import find_game
from engine.log import read_log, write_log
from engine.replay import Replay, validate_events
from engine.sim import simulate
from tests.bench.chess_baseline import bench_validated_replay, record_latency, record_rate

N_GAMES = 400


@pytest.fixture(scope="module")
def corpus():
    """A seeded corpus of random-bot games, decoded once."""
    return [g.events for g in simulate("keng", N_GAMES, seed=4242)]


@pytest.fixture(scope="module")
def corpus_file(corpus, tmp_path_factory):
    """The corpus as one sealed log file."""
    path = tmp_path_factory.mktemp("bench") / "corpus.arrows"
    write_log(path, corpus)
    return path


def test_validated_replay(benchmark, corpus, chess_rate):
    """Events replayed with every rule checked (decoded events -> final states)."""
    bench_validated_replay(benchmark, chess_rate, corpus)


def test_read_verify_replay_file(benchmark, corpus, corpus_file, chess_rate):
    """End to end from disk: read the sealed log, verify seal and hash chains, replay."""
    n = sum(map(len, corpus))

    def run():
        log = read_log(corpus_file)
        assert log.ok
        for g in log.games:
            assert validate_events(g.events).status == "ok"

    benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    record_rate(benchmark, chess_rate, n, "events_per_s")


def test_read_verify_file(benchmark, corpus, corpus_file, chess_rate):
    """Reading and integrity checking alone (seal, decode, seq density, hash chain)."""
    n = sum(map(len, corpus))
    benchmark.pedantic(lambda: read_log(corpus_file), rounds=5, warmup_rounds=1)
    record_rate(benchmark, chess_rate, n, "events_per_s")


def test_random_step_latency(benchmark, corpus, chess_rate):
    """State after a random step of a loaded game (checkpointed replay)."""
    replays = [Replay(g) for g in corpus[:50]]
    rng = random.Random(7)
    picks = [(r, rng.randrange(len(r))) for r in replays for _ in range(20)]
    it = iter(picks * 1000)

    def one():
        r, i = next(it)
        return r.state_at(i)

    benchmark.pedantic(one, rounds=2000, iterations=1, warmup_rounds=100)
    record_latency(benchmark, chess_rate)


def test_selfplay_random(benchmark, chess_rate):
    """Self-play games per second with the uniformly random policy (events sealed)."""
    n = 100

    def run():
        for _ in simulate("keng", n, seed=random.Random(1).randrange(10**6)):
            pass

    benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    record_rate(benchmark, chess_rate, n, "games_per_s")


def test_legal_actions(benchmark, corpus, chess_rate):
    """legal_actions over every state of a few games (per call)."""
    g = find_game("keng")
    states = [s for ev in corpus[:20] for s in Replay(ev).states() if not g.is_over(s)]
    it = iter(states * 100)
    benchmark.pedantic(lambda: g.legal_actions(next(it)), rounds=3000, warmup_rounds=100)
    record_latency(benchmark, chess_rate)
