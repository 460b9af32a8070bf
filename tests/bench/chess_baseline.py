"""The python-chess baseline every engine benchmark is divided by (docs/performance.md).

A seeded corpus of random legal chess games (each move drawn uniformly from the legal moves
until the game is over or ``MAX_PLIES`` plies), stored as UCI strings, is replayed with
``chess.Board()`` and ``Board.push_uci`` per move, which parses the move and checks its
legality, as liujia's validated replay checks every event. The rate in plies per second,
measured in the same run as the engine benchmarks, turns their rates into ratios that can be
compared across machines: ``ratio_to_chess = rate / chess plies per second``.

Only the standard library and python-chess are used, so ``compare_trees.py`` can run this
beside any checkout of the engine.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

N_GAMES = 300
SEED = 1010
MAX_PLIES = 200
ROUNDS = 9


def chess_version() -> str:
    """The installed python-chess version."""
    import chess
    return chess.__version__


def build_corpus(n_games: int = N_GAMES, seed: int = SEED,
                 max_plies: int = MAX_PLIES) -> list[list[str]]:
    """n_games random legal games as UCI move lists (the same seed gives the same games)."""
    import chess
    rng = random.Random(seed)
    games = []
    for _ in range(n_games):
        board = chess.Board()
        moves: list[str] = []
        while len(moves) < max_plies and not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            moves.append(move.uci())
            board.push(move)
        games.append(moves)
    return games


def replay(corpus: list[list[str]]) -> int:
    """Replay every game from the initial position with push_uci; returns the plies."""
    import chess
    n = 0
    for moves in corpus:
        board = chess.Board()
        push = board.push_uci
        for uci in moves:
            push(uci)
        n += len(moves)
    return n


def median_rate(run: Any, n: int, rounds: int = ROUNDS, warmup: int = 1) -> float:
    """n / the median wall time of ``run()`` over rounds, after warm-up rounds."""
    for _ in range(warmup):
        run()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return n / statistics.median(times)


def chess_plies_per_s(corpus: list[list[str]], rounds: int = ROUNDS) -> float:
    """python-chess replay rate of the corpus in plies per second (median of rounds)."""
    n = sum(map(len, corpus))
    return median_rate(lambda: replay(corpus), n, rounds)


def record(benchmark: Any, chess_rate: float, unit: str, rate: float) -> None:
    """Put a benchmark's rate, the chess baseline of the run and their ratio in extra_info."""
    benchmark.extra_info[unit] = round(rate, 1) if rate < 1000 else round(rate)
    benchmark.extra_info["chess_plies_per_s"] = round(chess_rate)
    benchmark.extra_info["ratio_to_chess"] = float(f"{rate / chess_rate:.4g}")


def record_rate(benchmark: Any, chess_rate: float, n: int, unit: str) -> None:
    """n items per median round of the benchmark, recorded with its ratio to chess."""
    record(benchmark, chess_rate, unit, n / benchmark.stats.stats.median)


def bench_validated_replay(benchmark: Any, chess_rate: float, corpus: list) -> int:
    """Time replaying every game of the corpus with every rule checked (decoded events ->
    final states), 7 rounds after a warm-up; records events/s and its ratio to chess and
    returns the number of events."""
    from engine.replay import validate_events

    n = sum(map(len, corpus))

    def run() -> None:
        for g in corpus:
            assert validate_events(g).status == "ok"

    benchmark.pedantic(run, rounds=7, warmup_rounds=1)
    record_rate(benchmark, chess_rate, n, "events_per_s")
    return n


def record_latency(benchmark: Any, chess_rate: float) -> None:
    """A per-call benchmark: its median in µs and its calls per second, with the ratio."""
    median = benchmark.stats.stats.median
    benchmark.extra_info["median_us"] = round(median * 1e6, 1)
    record(benchmark, chess_rate, "calls_per_s", 1 / median)
