"""The python-chess baseline as a benchmark of its own: the corpus of random legal games
replayed with ``Board.push_uci`` (the figure every ``ratio_to_chess`` divides by).

Run: ``.venv/bin/pytest tests/bench --benchmark-enable``; see docs/performance.md.
"""

from __future__ import annotations

from tests.bench.chess_baseline import chess_version, record_rate, replay


def test_chess_replay_push_uci(benchmark, chess_corpus, chess_rate):
    """python-chess plies per second: Board() per game, push_uci per move (legality checked)."""
    n = sum(map(len, chess_corpus))
    benchmark.pedantic(lambda: replay(chess_corpus), rounds=7, warmup_rounds=1)
    record_rate(benchmark, chess_rate, n, "plies_per_s")
    benchmark.extra_info["python_chess"] = chess_version()
    benchmark.extra_info["games"] = len(chess_corpus)
    benchmark.extra_info["plies"] = n
