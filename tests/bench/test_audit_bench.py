"""``liujia audit`` on a ~1,000-event game: the report built and rendered (target ≤ 1 s).

Run: ``.venv/bin/pytest tests/bench/test_audit_bench.py --benchmark-enable``; figures go to
docs/audit.md. The game is the 六人坑 game closest to 1,000 events among 40 seeded games with
``keng_draw_when_able`` (seats draw whenever they may, so games run long), committed, in a
sealed log file. Modes: ``default`` (the whole report: read the file, integrity, every
event's verdict, the result, the timed actions; text), ``seq`` (plus one disputed step in
full: seven views, the legal options, the rules cited; HTML), ``seat`` (every action of seat
0 in full; JSON). Each reports ``median_ms``, the game's ``events`` and ``events_per_s`` with
``ratio_to_chess``.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from engine.games import find_game
from engine.log import write_log
from engine.sim import simulate
from liujia.cli import main
from tests.bench.chess_baseline import record_rate

TARGET_S = 1.0
EVENTS = 1000


@pytest.fixture(scope="module")
def long_game(tmp_path_factory) -> tuple[str, str, int]:
    """(log file, game id, events) of the seeded game closest to EVENTS events."""
    opts = find_game("keng").Options(keng_draw_when_able=True)
    games = [g.events for g in simulate("keng", 40, seed=13, options=opts, commit=True)]
    game = min(games, key=lambda g: abs(len(g) - EVENTS))
    path = tmp_path_factory.mktemp("audit-bench") / "long.arrows"
    write_log(path, [game])
    return str(path), game[0].game_id, len(game)


@pytest.mark.parametrize("mode", ["default", "seq", "seat"])
def test_audit_of_a_1000_event_game(benchmark, long_game, mode, tmp_path, chess_rate,
                                    monkeypatch):
    monkeypatch.setenv("LIUJIA_HOME", str(tmp_path / "home"))
    path, gid, n = long_game
    args = {"default": [], "seq": ["--seq", str(n // 2), "--html", str(tmp_path / "r.html")],
            "seat": ["--seat", "0", "--json"]}[mode]

    def run() -> None:
        with redirect_stdout(io.StringIO()):
            assert main(["audit", path, "--game", gid, *args]) == 0

    benchmark.pedantic(run, rounds=7, warmup_rounds=1)
    median = benchmark.stats.stats.median
    benchmark.extra_info["median_ms"] = round(median * 1e3, 1)
    benchmark.extra_info["events"] = n
    benchmark.extra_info["target_ms"] = TARGET_S * 1e3
    record_rate(benchmark, chess_rate, n, "events_per_s")
