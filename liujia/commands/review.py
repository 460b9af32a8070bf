"""``liujia review``: every decision of a seat (or of every seat) of one game reviewed by
determinisation (``engine.review``): the candidates' values ± standard error, the loss of the
chosen action, a grade, a flag, and the better line (docs/review.md)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

from liujia.commands._common import (
    FOUND,
    OK,
    USAGE,
    add_executor_options,
    fail,
    find_game_log,
    safe_json,
    safe_text,
    target_refused,
)

AUTO_MIN_DECISIONS = 8     # fewer decisions are reviewed here: starting workers costs more


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("review", help="grade every decision of a game: the better candidates "
                       "with their values, the loss and the line",
                       description="Review every decision of one game (of --seat K, else of "
                       "every seat): sample worlds consistent with what the seat knew, play "
                       "each candidate forward in every world with the game's rollout policy "
                       "and compare them on the same worlds. Each decision gets its candidates' "
                       "values ± standard error, the loss of the action chosen, a grade "
                       "(inaccuracy, mistake, blunder; withheld when too uncertain), a flag "
                       "when the chosen action is almost surely not best, and the better line. "
                       "The same --seed gives the same review. Exit 0 when reviewed, 1 when "
                       "the game is not ok (its verdict is printed) or cannot be reviewed, 2 "
                       "for a usage or I/O error, 130 on Ctrl-C (what was done is printed).")
    p.add_argument("path", metavar="LOG", help="log file (*.arrows, *.jsonl, *.jsonl.gz) or "
                   "folder of logs")
    p.add_argument("--game", required=True, metavar="ID", help="game id")
    p.add_argument("--seat", type=int, metavar="K", help="the seat whose decisions are "
                   "reviewed (default: every seat)")
    p.add_argument("--budget", type=float, metavar="SECONDS", help="stop after this long; "
                   "the decisions not reached are counted (default: no limit)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the worlds and rollouts "
                   "(default 0)")
    p.add_argument("--worlds", type=int, default=256, metavar="N", help="at most N worlds "
                   "per decision (from 16, more until the grade is settled; default 256)")
    p.add_argument("--candidates", type=int, default=6, metavar="N", help="actions compared "
                   "per decision, the chosen one among them (default 6)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="the review as one JSON document")
    out.add_argument("--html", metavar="FILE", help="write the review as one HTML file")
    p.add_argument("--force", action="store_true", help="with --html: replace FILE if it "
                   "exists")
    add_executor_options(
        p, "review the decisions in N local worker processes, the same review (default: one "
        f"per CPU from {AUTO_MIN_DECISIONS} decisions on, else here; 1: here)",
        "review the decisions")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    return p


def local_workers(asked: int | None, decisions: int) -> int:
    """Worker processes for a review here: the number asked, else one per CPU (at most one a
    decision) for a review of at least AUTO_MIN_DECISIONS decisions in a process that can fork
    safely; 1 means none."""
    from ingest.run import can_fork, cpu_count
    if asked is not None:
        return asked
    if decisions < AUTO_MIN_DECISIONS or not can_fork():
        return 1
    return max(1, min(cpu_count(), decisions))


@contextlib.contextmanager
def submitter(args: argparse.Namespace, decisions: int
               ) -> Iterator[Callable[..., Any] | None]:
    """Where the work is done: None (here), local processes or a Dask cluster (``args``:
    ``workers``, ``scheduler``, ``allow_insecure_cluster``; ``decisions``: the tasks)."""
    from ingest.executor import cluster_executor, scheduler_address, submit
    address = scheduler_address(args.scheduler)
    workers = local_workers(args.workers, decisions)
    if address is not None:
        with cluster_executor(address, args.allow_insecure_cluster) as (ex, _):
            yield lambda fn, *a: submit(ex, fn, *a)
    elif workers > 1:
        from ingest.run import worker_pool
        with worker_pool(workers, quiet_interrupt=True) as pool:
            yield pool.submit
            pool.shutdown(wait=False, cancel_futures=True)
    else:
        yield None


def _checked(args: argparse.Namespace) -> str | None:
    """The usage error of the options, or None."""
    if args.workers is not None and args.workers < 1:
        return "--workers must be at least 1"
    if args.budget is not None and not args.budget > 0:
        return "--budget must be a positive number of seconds"
    if not 16 <= args.worlds <= 100_000:
        return "--worlds must be from 16 to 100000"
    if not 2 <= args.candidates <= 100:
        return "--candidates must be from 2 to 100"
    return target_refused(args.html, args.force)


def _verdict(path: Any, log: Any, glog: Any, game_id: str) -> str | None:
    """The game's verdict (``engine.verdict.game_verdict``, its session linked to the previous
    game when the same file holds it): None when ok, else its line. Only this game (and that
    previous one) is replayed, not the whole file."""
    from engine.verdict import game_verdict
    from liujia.commands.audit import previous_game
    finals: dict[str, Any] = {}
    prev = previous_game(log, list(glog.events)) if glog.events else None
    if prev is not None:
        game_verdict(prev, finals=finals)
    gv = game_verdict(glog.events, game_id=game_id, chain=glog.error, finals=finals)
    return None if gv.ok else f"{gv.status} {game_id} in {path}: {gv.error} (not reviewed)"


def run(args: argparse.Namespace) -> int:
    """Review the game and print the review (or write it as HTML)."""
    from engine.errors import EngineError
    from engine.review import Settings, review_game
    from liujia.review_report import review_html, review_json, review_lines

    err = _checked(args)
    if err is not None:
        return fail(err, USAGE)
    found = find_game_log([args.path], args.game)
    if isinstance(found, str):
        return fail(found)
    path, log, glog = found
    bad = _verdict(path, log, glog, args.game)
    if bad is not None:
        return fail(bad, FOUND)
    events = list(glog.events)
    from engine.replay import game_module
    game = game_module(events[0])
    n = len(json.loads(events[0].payload or "{}").get("players") or [])
    if args.seat is not None and not 0 <= args.seat < n:
        return fail(f"--seat {args.seat}: {game.TITLE} game {args.game} has seats 0-{n - 1}",
                    USAGE)
    if game.sample_world is None:
        return fail(f"{game.TITLE} ({game.GAME_ID}) cannot be reviewed yet: its package "
                    "declares no sample_world", FOUND)
    seats = [args.seat] if args.seat is not None else list(range(n))
    settings = Settings(seed=args.seed, max_worlds=args.worlds, candidates=args.candidates)
    from ingest.executor import ClusterError
    bar = _bar(args.quiet)
    try:
        from engine.review import decision_points
        decisions = sum(1 for _ in decision_points(events, seats))
        with submitter(args, decisions) as submit:
            review = review_game(events, seats, settings, budget=args.budget,
                                 progress=bar.update if bar is not None else None,
                                 submit=submit)
    except ClusterError as exc:
        return fail(str(exc), USAGE)
    except EngineError as exc:
        return fail(f"review of game {args.game} failed: {exc}", FOUND)
    except Exception as exc:  # noqa: BLE001 - an engine bug: one line, never a traceback
        from ingest.executor import scheduler_address
        if scheduler_address(args.scheduler) is not None:   # a cluster's own error types
            return fail(f"the cluster failed ({type(exc).__name__}: {exc})", USAGE)
        return fail(f"the engine failed while reviewing game {args.game} "
                    f"({type(exc).__name__}: {exc}); please report this", FOUND)
    finally:
        if bar is not None:
            bar.close()
    if not review.decisions and review.stopped == "budget":
        return fail(f"--budget {args.budget:g} s graded nothing: not even the first decision "
                    "was reviewed in time", FOUND)
    if args.json:
        print(safe_json(review_json(review)))
    elif args.html:
        from liujia.commands.audit import write_html
        werr = write_html(args.html, review_html(review), args.force)
        if werr is not None:
            return fail(werr)
        print(safe_text(f"wrote {args.html}: review of game {args.game}, "
                        f"{len(review.decisions)} decision(s)"))
    else:
        for line in review_lines(review):
            sys.stdout.write(safe_text(line) + "\n")
    return 130 if review.stopped == "interrupted" else OK


class _Bar:
    """A progress bar on stderr (decisions done of all), only when stderr is a terminal."""

    def __init__(self) -> None:
        from tqdm import tqdm
        self._bar = tqdm(total=0, unit="decision", file=sys.stderr, leave=False)

    def update(self, done: int, total: int) -> None:
        """Show done of total."""
        self._bar.total = total
        self._bar.n = done
        self._bar.refresh()

    def close(self) -> None:
        """Remove the bar."""
        self._bar.close()


def _bar(quiet: bool) -> _Bar | None:
    """The progress bar, unless quiet or stderr is not a terminal."""
    return None if quiet or not sys.stderr.isatty() else _Bar()
