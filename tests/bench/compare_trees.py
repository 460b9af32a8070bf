"""Validated replay (or the replay page's table) of every game in several checkouts, in one
sitting, as ratios to chess.

``.venv/bin/python tests/bench/compare_trees.py BASE_TREE OTHER_TREE... [--sittings 5]
[--games keng,gouji] [--part replay|tables]``

``--part tables`` times, instead of the validated replay, what one step of the replay page
draws: the auditor's ``view`` of every state of the first ``TABLE_GAMES`` games of each corpus
and its table HTML (``dashboards.table.table_html(game, view, players)``, a name every
checkout since the first dashboard has), in tables per second.

The first tree writes the corpora once (those of test_engine_bench.py and test_gouji_bench.py:
400 六人坑 games, seed 4242; 120 够级 games, seed 4243; and a corpus of each other game, ``GAMES``)
as sealed log files,
and the python-chess corpus of ``chess_baseline.py`` is built once; then every tree replays
the same files in a fresh subprocess (its own ``engine`` first on ``sys.path``), the trees
alternating in ABBA order for ``--sittings`` sittings. Each subprocess warms up, then runs
rounds of chess / 六人坑 / 够级 back to back and reports the medians of its rates and of the
per-round ratios (events/s ÷ chess plies/s). The table gives, per tree, the median over its
subprocesses, and each tree's ratio relative to the first tree's.

This needs only ``engine.log.read_log`` and ``engine.replay.validate_events`` of each tree, so
it runs against old checkouts (``git worktree add /tmp/base 447d051``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# game -> (games, seed, options): 六人坑 and 够级 as their benchmarks, the others about as long
GAMES: dict[str, tuple[int, int, dict[str, object]]] = {
    "keng": (400, 4242, {}), "gouji": (120, 4243, {}),
    "modaoshuang": (300, 4244, {"mds_players": 4}),
    "ddz6_3v3": (150, 4245, {}), "ddz6_2v4": (150, 4246, {}), "ddz6_zhengfan": (150, 4247, {}),
    "liuhu": (150, 4248, {}),
}
ROUNDS = 9
TABLE_GAMES = 6


def _run_tree(tree: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), *args], cwd=tree,
                         env=env, check=True, capture_output=True, text=True)
    return out.stdout


def _check_engine(tree: str) -> None:
    import engine
    where = Path(engine.__file__).resolve()
    if Path(tree).resolve() not in where.parents:
        raise SystemExit(f"engine imported from {where}, not from {tree}")


def make_corpus(tree: str, out: str, names: list[str]) -> None:
    """(subprocess) Simulate the benchmark corpora with this tree and write them as logs."""
    _check_engine(tree)
    from engine.games import find_game
    from engine.log import write_log
    from engine.sim import simulate
    for game in names:
        n, seed, opts = GAMES[game]
        options = find_game(game).Options(**opts) if opts else None
        write_log(Path(out) / f"{game}.arrows",
                  [g.events for g in simulate(game, n, seed, options=options)])


def _table_part(games: dict[str, list]) -> tuple[Any, dict[str, list]]:
    """The tables part: (draw every prepared step, the prepared steps per game)."""
    from dashboards.table import table_html
    from engine.replay import Replay
    steps: dict[str, list] = {}
    for game, corpus in games.items():
        steps[game] = []
        for events in corpus[:TABLE_GAMES]:
            rp = Replay(events)
            players = list(rp.final.players)
            steps[game] += [(game, rp.game, s, players) for s in rp.states()]

    def draw(prepared: list) -> None:
        for game, g, state, players in prepared:
            table_html(game, g.view(state, None), players)
    return draw, steps


def worker(tree: str, corpus_dir: str, rounds: int, names: list[str],
           part: str = "replay") -> None:
    """(subprocess) Replay the corpora (or draw their tables) with this tree; print the
    medians as JSON."""
    _check_engine(tree)
    import chess_baseline

    from engine.log import read_log
    from engine.replay import validate_events

    chess_corpus = json.loads((Path(corpus_dir) / "chess.json").read_text())
    plies = sum(map(len, chess_corpus))
    games = {}
    for game in names:
        log = read_log(Path(corpus_dir) / f"{game}.arrows")
        assert log.ok
        games[game] = [g.events for g in log.games]

    def replay(corpus: list) -> None:
        for g in corpus:
            if validate_events(g).status != "ok":
                raise SystemExit(f"{g[0].game_id} does not validate in {tree}")

    def size(corpus: list) -> int:
        return sum(map(len, corpus))

    if part == "tables":
        replay, games = _table_part(games)
        size = len

    def timed(run, *a) -> float:
        t0 = time.perf_counter()
        run(*a)
        return time.perf_counter() - t0

    chess_baseline.replay(chess_corpus)          # warm-up
    for corpus in games.values():
        replay(corpus)
    rates: dict[str, list[float]] = {"chess": [], **{g: [] for g in games}}
    for _ in range(rounds):
        rates["chess"].append(plies / timed(chess_baseline.replay, chess_corpus))
        for game, corpus in games.items():
            rates[game].append(size(corpus) / timed(replay, corpus))
    report = {"chess_plies_per_s": statistics.median(rates["chess"])}
    for game in games:
        report[f"{game}_events_per_s"] = statistics.median(rates[game])
        report[f"{game}_ratio"] = statistics.median(
            r / c for r, c in zip(rates[game], rates["chess"], strict=True))
    print(json.dumps(report))


def compare(trees: list[Path], sittings: int, rounds: int, names: list[str],
            part: str = "replay") -> str:
    """Run every tree alternately; the Markdown table of medians."""
    results: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, str(HERE))
        import chess_baseline
        (Path(tmp) / "chess.json").write_text(json.dumps(chess_baseline.build_corpus()))
        which = ",".join(names)
        _run_tree(trees[0], "--make-corpus", tmp, "--games", which)
        for i in range(sittings):
            for tree in (trees if i % 2 == 0 else trees[::-1]):
                line = _run_tree(tree, "--worker", tmp, "--rounds", str(rounds),
                                 "--games", which, "--part", part)
                results[tree].append(json.loads(line))
                print(f"sitting {i + 1} {tree}: {line.strip()}", file=sys.stderr)
    med = {t: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
           for t, rs in results.items()}
    base = med[trees[0]]
    unit = "tables/s" if part == "tables" else "events/s"
    rows = [f"| game | tree | {unit} | ratio to chess | vs first |",
            "| --- | --- | ---: | ---: | ---: |"]
    for t in trees:
        rows.append(f"| chess | `{t}` | {med[t]['chess_plies_per_s']:,.0f} plies/s | | |")
    for game in names:
        for t in trees:
            m = med[t]
            rows.append(f"| {game} | `{t}` | {m[f'{game}_events_per_s']:,.0f} | "
                        f"{m[f'{game}_ratio']:.2f} | "
                        f"{m[f'{game}_ratio'] / base[f'{game}_ratio'] - 1:+.1%} |")
    return "\n".join(rows)


def main() -> None:
    """Parse the arguments; run the comparison (or, in a subprocess, one side of it)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="*", type=Path, help="checkouts; the first is the base")
    ap.add_argument("--sittings", type=int, default=5, help="subprocesses per tree")
    ap.add_argument("--rounds", type=int, default=ROUNDS, help="timed rounds per subprocess")
    ap.add_argument("--games", default=",".join(GAMES),
                    help="comma-separated games (default: all of GAMES)")
    ap.add_argument("--part", choices=("replay", "tables"), default="replay",
                    help="what to time: validated replay, or the replay page's tables")
    ap.add_argument("--make-corpus", metavar="DIR", help=argparse.SUPPRESS)
    ap.add_argument("--worker", metavar="DIR", help=argparse.SUPPRESS)
    args = ap.parse_args()
    names = [g for g in args.games.split(",") if g]
    unknown = [g for g in names if g not in GAMES]
    if unknown:
        ap.error(f"--games: unknown {', '.join(unknown)}; known: {', '.join(GAMES)}")
    if args.make_corpus:
        make_corpus(os.getcwd(), args.make_corpus, names)
    elif args.worker:
        worker(os.getcwd(), args.worker, args.rounds, names, args.part)
    else:
        if not args.trees:
            ap.error("name at least one checkout")
        print(compare([t.resolve() for t in args.trees], args.sittings, args.rounds, names,
                      args.part))


if __name__ == "__main__":
    main()
