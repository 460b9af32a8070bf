"""Review rollouts and ``liujia review`` in several checkouts, in one sitting, in CPU time.

``.venv/bin/python tests/bench/rollout_trees.py BASE_TREE OTHER_TREE... [--sittings 5]
[--review-sittings 1] [--games keng,gouji]``

The first tree simulates one greedy game of each game (``liujia simulate --games 2 --seed 1
--policy greedy``, the first game of the file). Then, trees alternating in ABBA order:

- rollouts: in a fresh subprocess per tree and sitting, the first world of every decision
  point of every seat (``engine.review.first_world``) and one greedy rollout of the chosen
  action in it (``engine.review.rollout``, the review's dice), timed with
  ``time.process_time`` over ``ROUNDS`` rounds; the median ms a rollout, and a digest of the
  outcomes (the same in every tree, or the trees do not play the same games);
- reviews: ``liujia review LOG --game ID --json -q`` of the seats in ``REVIEWED`` (六人坑: every
  seat, 够级: seat 1, 扑克六湖: seat 0), its CPU time (the child's user + system) and the
  digest of its output.

The table gives per tree the median over its sittings. Each tree's own ``engine`` is imported
(``PYTHONPATH``), so a checkout of an older commit (``git archive COMMIT | tar -x -C DIR``)
serves as the base.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUNDS = 3
SEED = 1
REVIEWED = {"keng": None, "gouji": 1}     # game -> the seat reviewed (None: every seat)
REVIEWED["liuhu"] = 0                     # 扑克六湖: one seat (a hand's review is long)


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree)}


def make_logs(tree: Path, out: Path, games: list[str]) -> dict[str, tuple[Path, str]]:
    """Simulate the greedy games with the base tree: {game: (log file, game id)}."""
    logs = {}
    for game in games:
        folder = out / game
        subprocess.run([sys.executable, "-m", "liujia", "simulate", "--game", game, "--games",
                        "2", "--seed", str(SEED), "--policy", "greedy", "--per-file", "1",
                        "--quiet", "--out", str(folder)], cwd=tree, env=_env(tree), check=True,
                       capture_output=True)
        log = sorted(folder.glob("*.arrows"))[0]
        logs[game] = (log, f"{game}-{SEED}-000000")
    return logs


def rollout_worker(log: str) -> None:
    """(subprocess) Time one greedy rollout of the chosen action in the first world of every
    decision point; print {"ms": median ms a rollout, "n": rollouts, "digest": outcomes}."""
    from engine.log import read_log
    from engine.replay import game_module
    from engine.review import Settings, _rng, decision_points, first_world, in_world, rollout

    events = read_log(Path(log)).games[0].events
    game = game_module(events[0])
    settings = Settings()
    policy = game.POLICIES[game.review_policy]()
    seats = sorted({e.seat for e in events if e.seat >= 0})
    jobs = []
    for seq, state, e, seen in decision_points(events, list(seats)):
        try:
            world = first_world(game, state, e.seat, seen, settings, seq)
            jobs.append((seq, world, in_world(game, world, e)))
        except Exception:           # a decision that cannot be reviewed (a joker start card)
            continue
    times, digest = [], hashlib.sha256()
    for r in range(ROUNDS):
        t0 = time.process_time()
        for seq, world, action in jobs:
            out, _ = rollout(game, world, action, policy, _rng(settings.seed, seq, "rollout", 0))
            if r == 0:
                digest.update(repr(out).encode())
        times.append(time.process_time() - t0)
    print(json.dumps({"ms": 1000 * statistics.median(times) / len(jobs), "n": len(jobs),
                      "digest": digest.hexdigest()[:16]}))


def _run_rollouts(tree: Path, log: Path) -> dict[str, float | str]:
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--rollout-worker",
                          str(log)], cwd=tree, env=_env(tree), check=True, capture_output=True,
                         text=True)
    return json.loads(out.stdout)


def _run_review(tree: Path, log: Path, gid: str, seat: int | None) -> dict[str, float | str]:
    args = [sys.executable, "-m", "liujia", "review", str(log), "--game", gid, "--json", "-q"]
    if seat is not None:
        args += ["--seat", str(seat)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    out = subprocess.run(args, cwd=tree, env=_env(tree), check=True, capture_output=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu": cpu, "wall": wall, "digest": hashlib.sha256(out.stdout).hexdigest()[:16]}


def compare(trees: list[Path], sittings: int, review_sittings: int, games: list[str]) -> str:
    """Run every tree alternately; the Markdown table of medians."""
    rows = ["| game | measure | tree | median | sittings | output digest |",
            "| --- | --- | --- | ---: | ---: | --- |"]
    with tempfile.TemporaryDirectory() as tmp:
        logs = make_logs(trees[0], Path(tmp), games)
        for game in games:
            log, gid = logs[game]
            roll: dict[Path, list[dict]] = {t: [] for t in trees}
            rev: dict[Path, list[dict]] = {t: [] for t in trees}
            for i in range(max(sittings, review_sittings)):
                for tree in (trees if i % 2 == 0 else trees[::-1]):
                    if i < sittings:
                        roll[tree].append(_run_rollouts(tree, log))
                        print(f"{game} rollouts {tree}: {roll[tree][-1]}", file=sys.stderr)
                    if i < review_sittings:
                        rev[tree].append(_run_review(tree, log, gid, REVIEWED[game]))
                        print(f"{game} review {tree}: {rev[tree][-1]}", file=sys.stderr)
            who = "every seat" if REVIEWED[game] is None else f"seat {REVIEWED[game]}"
            for t in trees:
                r = roll[t]
                rows.append(f"| {game} | ms a greedy rollout ({r[0]['n']} decisions) | `{t}` | "
                            f"{statistics.median(x['ms'] for x in r):.1f} | {len(r)} | "
                            f"{r[0]['digest']} |")
            for t in trees:
                r = rev[t]
                if r:
                    rows.append(f"| {game} | `liujia review`, {who}: CPU s (wall s) | `{t}` | "
                                f"{statistics.median(x['cpu'] for x in r):.1f} "
                                f"({statistics.median(x['wall'] for x in r):.1f}) | {len(r)} | "
                                f"{r[0]['digest']} |")
    return "\n".join(rows)


def main() -> None:
    """Parse the arguments; run the comparison (or, in a subprocess, one side of it)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="*", type=Path, help="checkouts; the first is the base")
    ap.add_argument("--sittings", type=int, default=5, help="rollout subprocesses per tree")
    ap.add_argument("--review-sittings", type=int, default=1, help="reviews per tree")
    ap.add_argument("--games", default=",".join(REVIEWED), help="comma-separated games")
    ap.add_argument("--rollout-worker", metavar="LOG", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rollout_worker:
        rollout_worker(args.rollout_worker)
        return
    if not args.trees:
        ap.error("name at least one checkout")
    print(compare([t.resolve() for t in args.trees], args.sittings, args.review_sittings,
                  [g for g in args.games.split(",") if g]))


if __name__ == "__main__":
    main()
