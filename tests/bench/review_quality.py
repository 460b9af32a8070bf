"""How good the reviewer is, for any game that declares ``sample_world`` (docs/review.md):

* **strength** — the reviewer's own policy (play the best candidate of a small review) against
  the game's greedy bot in duplicate: every deal is played once with every seat greedy and,
  for each seat k, once with the reviewer in seat k and greedy elsewhere; the difference of
  seat k's value (win 1, draw ½, loss 0, or its score) between the two plays of the same deal
  is one paired sample. Reported: the mean difference with its 95 % interval.
* **stability** — the same greedy games reviewed with two seeds: the share of decisions graded
  in both whose grades agree, and the largest difference in steps.

    PYTHONPATH=. LIUJIA_GAMES=toy_tricks=tests.toygame \\
      .venv/bin/python tests/bench/review_quality.py --game toy_tricks --deals 300
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.errors import EngineError
from engine.events import Event
from engine.games import find_game, register_plugins
from engine.games.base import Game
from engine.review import GRADES, Settings, in_world, review_decision, review_game, seat_value
from engine.sim import simulate
from tests.bench.planted import BLUNDERS


def play(game: Game, start: Event, reviewer: int | None, settings: Settings,
         seed: int, others: Settings | None = None, margin: float = 0.0) -> tuple[float, ...]:
    """One deal played to its end: the reviewer's seat (None: none) plays the best candidate
    of a review with ``settings`` (with ``margin`` > 0: only where it beats greedy's choice by
    more than that many standard errors of the paired loss, else greedy's choice); every other
    seat greedy, or with ``others`` a review with those settings; each seat's value."""
    greedy = game.POLICIES["greedy"]()
    rng = random.Random(seed)
    s = game.initial_state(start)
    n = len(s.players)
    budget = {k: (settings if k == reviewer else others) for k in range(n)}
    seen: dict[int, list[Event]] = {k: [game.seen_event(start, k)] for k, b in budget.items()
                                    if b is not None}
    while not game.is_over(s):
        a = game.auto_event(s, rng)
        if a is None:
            a = greedy.choose(s, rng)
            b = budget.get(a.seat)
            if b is not None:
                try:
                    r = review_decision(game, s, a.seat, a, tuple(seen[a.seat]), b, s.seq)
                except EngineError as exc:       # as review_game: this decision only
                    print(f"{start.game_id} seat {a.seat} seq {s.seq}: not reviewed ({exc}); "
                          "greedy's choice played", file=sys.stderr)
                    r = None
                if r is not None and r.loss > margin * r.loss_se:
                    a = in_world(game, s, r.best.action)
        a = a._replace(seq=s.seq)
        game.step(s, a)
        for k, got in seen.items():
            if not game.event_hidden(a, k):
                got.append(game.seen_event(a, k))
        if s.seq > 100_000:
            raise EngineError("a deal did not end")
    out = game.outcomes(s)
    assert out is not None
    return tuple(seat_value(game, out, k) for k in range(len(out)))


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (normal approximation)."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else math.inf
    return m, 1.96 * sd / math.sqrt(n)


def deal_diffs(gid: str, d: int, seed: int, settings: Settings, options: Any = None,
               others: Settings | None = None, seats: str = "all",
               margin: float = 0.0) -> list[float]:
    """Deal ``d`` of the duplicate match: the paired differences of the reviewer's seats (every
    seat, or with ``seats="one"`` seat d mod n) against the same seat where every seat plays as
    the others do."""
    register_plugins()
    game = find_game(gid)
    opts = options or game.Options()
    n = game.seat_count(opts)
    start = game.start_event(f"dup-{d}", [f"p{k}" for k in range(n)],
                             random.Random(f"{seed}:{d}"), opts)
    base = play(game, start, None, settings, seed + d, others, margin)
    ks = range(n) if seats == "all" else [d % n]
    return [play(game, start, k, settings, seed + d, others, margin)[k] - base[k] for k in ks]


def strength(gid: str, deals: int, seed: int, settings: Settings,
             options: Any = None, others: Settings | None = None, *, seats: str = "all",
             workers: int = 1, hours: float = math.inf, margin: float = 0.0,
             log: Any = None) -> dict[str, Any]:
    """The duplicate match over seeded deals 0 … deals-1: the reviewer in each seat in turn
    (``seats="one"``: one seat a deal, in rotation) against the other seats playing greedy
    (``others`` None) or reviewing with ``others``, each compared with the same seat of the same
    deal where every seat plays as the others do. Deals run in ``workers`` processes, in order;
    none is started after ``hours``; ``log`` (a text file) gets one line per deal."""
    diffs: list[float] = []
    t0 = time.monotonic()
    done = 0
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        args = (seed, settings, options, others, seats, margin)
        pending: deque[Any] = deque()
        nxt = 0
        while nxt < deals or pending:
            while nxt < deals and len(pending) < max(1, 2 * workers) and (
                    time.monotonic() - t0 < hours * 3600):
                pending.append(pool.submit(deal_diffs, gid, nxt, *args) if pool
                               else nxt)
                nxt += 1
            if not pending:
                break
            got = pending.popleft()
            ds = got.result() if pool else deal_diffs(gid, got, *args)
            diffs.extend(ds)
            done += 1
            if log is not None:
                m, h = interval(diffs) if len(diffs) > 1 else (diffs[0], math.inf)
                print(f"deal {done - 1}: {' '.join(f'{x:+g}' for x in ds)} | n {len(diffs)} "
                      f"mean {m:+.4f} ± {h:.4f} | {time.monotonic() - t0:.0f} s",
                      file=log, flush=True)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    m, h = interval(diffs)
    return {"game": gid, "deals": done, "samples": len(diffs), "mean_diff": m,
            "ci95": h, "seconds": time.monotonic() - t0}


def stability(gid: str, games: int, seed: int, settings: Settings,
              options: Any = None, seats: Sequence[int] | None = None) -> dict[str, Any]:
    """Grades of the same games (of these seats, default every seat) under two seeds:
    agreement and the largest step apart."""
    game = find_game(gid)
    both = agree = marked = withheld = blunders = reviewed = 0
    worst = 0
    asked = seats
    for sim in simulate(gid, games, seed, policy_name="greedy", options=options):
        seats = asked if asked is not None else range(len(sim.final.players))
        a = review_game(sim.events, seats, settings)
        b = review_game(sim.events, seats, Settings(**{**settings.__dict__,
                                                       "seed": settings.seed + 1}))
        reviewed += len(a.decisions)
        blunders += sum(d.grade == "blunder" for d in a.decisions)
        for x, y in zip(a.decisions, b.decisions, strict=True):
            withheld += x.withheld is not None or y.withheld is not None
            if x.withheld is None and y.withheld is None:
                both += 1
                agree += x.grade == y.grade
                marked += x.grade is not None or y.grade is not None
                step = [None, *GRADES]
                worst = max(worst, abs(step.index(x.grade) - step.index(y.grade)))
    del game
    return {"game": gid, "games": games, "graded_in_both": both, "marked": marked,
            "withheld": withheld, "reviewed": reviewed, "blunders": blunders,
            "agree": agree / both if both else math.nan, "max_steps_apart": worst}


def planted(gid: str, games: int, seed: int, settings: Settings,
            options: Any = None) -> dict[str, Any]:
    """The share of planted blunders the review marks a mistake or worse."""
    from engine.review import decision_points, seat_options
    game = find_game(gid)
    rule = BLUNDERS.get(gid)
    if rule is None:
        return {"game": gid, "planted": 0, "marked": 0, "rule": None}
    planted_n = marked = withheld = graded = 0
    failed: list[tuple[str, int, str]] = []
    losses: list[float] = []
    for sim in simulate(gid, games, seed, policy_name="greedy", options=options):
        seats = range(len(sim.final.players))
        for seq, s, e, seen in decision_points(sim.events, seats):
            bad = rule(game, s, e, seat_options(game, s, e.seat))
            if bad is None:
                continue
            try:
                r = review_decision(game, s, e.seat, bad, seen, settings, seq)
            except EngineError as exc:           # as review_game: this decision only
                failed.append((sim.events[0].game_id, seq, str(exc)))
                continue
            if r is None:
                continue
            planted_n += 1
            marked += r.grade in ("mistake", "blunder")
            graded += r.grade is not None
            withheld += r.withheld is not None
            losses.append(r.loss)
    return {"game": gid, "planted": planted_n, "marked": marked, "withheld": withheld,
            "graded": graded, "failed": failed,
            "mean_loss": sum(losses) / len(losses) if losses else math.nan,
            "rule": (rule.__doc__ or "").split("\n")[0]}


def main(argv: list[str] | None = None) -> int:
    """Run both measures and print them as Markdown rows."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", required=True)
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--games", type=int, default=20, help="games for the stability measure")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a house-rule option of the game (as liujia simulate's)")
    p.add_argument("--worlds", type=int, default=16, help="worlds per decision of the "
                   "reviewer's policy (its review uses 16 … 64)")
    p.add_argument("--review-worlds", type=int, default=256, help="at most this many worlds "
                   "per decision of the stability reviews (liujia review's default)")
    p.add_argument("--planted-games", type=int, default=30, help="greedy games searched for "
                   "decisions where the game's planted-blunder rule applies")
    p.add_argument("--against-worlds", type=int, default=0, help="also the reviewer against "
                   "itself with this many worlds a decision (does more search help?)")
    p.add_argument("--play-candidates", type=int, default=Settings.candidates,
                   help="candidates per decision of the reviewer's policy")
    p.add_argument("--seats", choices=("all", "one"), default="all", help="the reviewer's "
                   "seats of a deal: every seat in turn, or one (seat deal mod n)")
    p.add_argument("--stability-seats", type=lambda v: [int(x) for x in v.split(",")],
                   default=None, metavar="K,...", help="the seats whose decisions the "
                   "stability reviews grade (default every seat)")
    p.add_argument("--margin", type=float, default=0.0, metavar="Z", help="the reviewer's "
                   "policy leaves greedy's choice only for a candidate better by more than Z "
                   "standard errors of the paired loss (default 0: the best candidate)")
    p.add_argument("-j", "--workers", type=int, default=1, help="deals in N processes")
    p.add_argument("--hours", type=float, default=math.inf, help="start no deal after this "
                   "long (the deals done are reported)")
    args = p.parse_args(argv)
    register_plugins()
    match = {"seats": args.seats, "workers": args.workers, "hours": args.hours,
             "margin": args.margin, "log": sys.stderr}
    from liujia.commands.simulate import _options
    opts = _options(args.game, args.option)
    play_settings = Settings(seed=args.seed, min_worlds=args.worlds, max_worlds=args.worlds,
                             candidates=args.play_candidates)
    what = f"{args.game} {' '.join(args.option)}".strip()
    if args.deals:
        st = strength(args.game, args.deals, args.seed, play_settings, opts, **match)
        how = f"{args.worlds} worlds, {args.play_candidates} candidates" + (
            f", margin {args.margin:g} se" if args.margin else "")
        print(f"| strength ({how}) | {what} | {st['deals']} deals, {st['samples']} paired seats | "
              f"{st['mean_diff']:+.3f} ± {st['ci95']:.3f} | {st['seconds']:.0f} s |")
    if args.deals and args.against_worlds:
        weak = Settings(seed=args.seed, min_worlds=args.against_worlds,
                        max_worlds=args.against_worlds)
        st = strength(args.game, args.deals, args.seed, play_settings, opts, weak, **match)
        print(f"| {args.worlds} worlds against {args.against_worlds} | {what} | {st['deals']} "
              f"deals, {st['samples']} paired seats | {st['mean_diff']:+.3f} ± "
              f"{st['ci95']:.3f} | {st['seconds']:.0f} s |")
    if args.games:
        sb = stability(args.game, args.games, args.seed,
                       Settings(seed=args.seed, max_worlds=args.review_worlds), opts,
                       args.stability_seats)
        print(f"| stability | {what} | {sb['games']} games, {sb['graded_in_both']} graded "
              f"in both ({sb['marked']} marked an inaccuracy or worse by either; "
              f"{sb['withheld']} withheld by either; {sb['blunders']} of {sb['reviewed']} "
              f"original decisions graded blunders) | {sb['agree']:.1%} agree | at most "
              f"{sb['max_steps_apart']} step(s) apart |")
    review = Settings(seed=args.seed, max_worlds=args.review_worlds)
    pl = planted(args.game, args.planted_games, args.seed, review, opts)
    if pl["planted"]:
        print(f"| planted blunders | {what} | {pl['planted']} planted ({pl['rule']}) | "
              f"{pl['marked'] / pl['planted']:.0%} marked a mistake or blunder, "
              f"{pl['graded'] / pl['planted']:.0%} an inaccuracy or worse | mean loss "
              f"{pl['mean_loss']:.2f}, {pl['withheld']} withheld, {len(pl['failed'])} not "
              "reviewable |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
