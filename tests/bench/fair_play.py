"""Fair-play screening measured on planted cheaters (docs/fair-play.md): for a game, corpora of
greedy games with a soft pair (players 05 and 06, at every table; ``--signal soft``) or an
omniscient player (05; ``--signal sight``) at several rates, and the same seating played
honestly; each ingested into a fresh warehouse and screened. Prints, per rate and corpus
size, the planted pair's or player's z, whether it is flagged, its rank among the others
(the AUC of its score against theirs), the most extreme other z and the flags.

    PYTHONPATH=. .venv/bin/python tests/bench/fair_play.py --game gouji --games 50,100,200 \
        --rates 1,0.3,0.1
    PYTHONPATH=. .venv/bin/python tests/bench/fair_play.py --game keng --signal sight \
        --games 200 --rates 1,0.3
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.cheats import AnswerKey, Plant
from engine.games import register_plugins
from engine.log import write_log
from engine.sim import simulate
from ingest.run import ingest_paths
from warehouse.db import connect
from warehouse.screen import sight, soft_play

PAIR = ("player-05", "player-06")
SEER = ("player-05",)
HONEST = 1e-12          # a soft pair at this rate: seated as the pair is, never cheating


def screened(game: str, games: int, seed: int, rate: float, tmp: Path,
             signal: str = "soft") -> list[dict[str, Any]]:
    """The screen's rows over ``games`` greedy games with the cheat planted at ``rate``."""
    plants = (Plant("soft", PAIR, rate) if signal == "soft" else Plant("omniscient", SEER, rate),)
    key = AnswerKey(game, seed, plants)
    logs = tmp / f"{game}-{games}-{rate}-{signal}"
    logs.mkdir()
    write_log(logs / "g.arrows", [g.events for g in simulate(
        game, games, seed, policy_name="greedy", plants=plants, key=key)])
    db = logs / "w.duckdb"
    ingest_paths([logs], str(db), progress=False, workers=1)
    con = connect(str(db), read_only=True)
    try:
        if signal == "soft":
            return soft_play(con, game)
        return [{**r, "players": [r["player"]], "z": None if r["z"] is None else -r["z"]}
                for r in sight(con, game)]       # as soft's: the lower, the more suspicious
    finally:
        con.close()


def auc(rows: list[dict[str, Any]], who: tuple[str, ...] = PAIR) -> float | None:
    """The share of the others scored whose z is above the planted one's (ties half)."""
    mine = next((r["z"] for r in rows if tuple(r["players"]) == who), None)
    others = [r["z"] for r in rows if tuple(r["players"]) != who and r["z"] is not None]
    if mine is None or not others:
        return None
    return sum(1.0 if z > mine else 0.5 if z == mine else 0.0 for z in others) / len(others)


def main(argv: list[str] | None = None) -> int:
    """Print one Markdown row per corpus."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", required=True)
    p.add_argument("--games", default="50,100,200")
    p.add_argument("--rates", default="1,0.3,0.1")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--signal", choices=("soft", "sight"), default="soft")
    args = p.parse_args(argv)
    register_plugins()
    print("| game | games | rate | pair z | flagged | AUC | lowest other z | flags | time |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as d:
        for n in (int(x) for x in args.games.split(",")):
            for rate in [float(x) for x in args.rates.split(",")] + [HONEST]:
                t = time.perf_counter()
                rows = screened(args.game, n, args.seed, rate, Path(d), args.signal)
                who = PAIR if args.signal == "soft" else SEER
                pair = next((r for r in rows if tuple(r["players"]) == who), None)
                others = [r["z"] for r in rows if tuple(r["players"]) != who
                          and r["z"] is not None]
                z = pair["z"] if pair else None
                a = auc(rows, who)
                print(f"| {args.game} | {n} | {'honest' if rate == HONEST else f'{rate:g}'} | "
                      f"{'–' if z is None else f'{z:+.2f}'} | "
                      f"{'yes' if pair and pair['flagged'] else 'no'} | "
                      f"{'–' if a is None else f'{a:.3f}'} | "
                      f"{f'{min(others):+.2f}' if others else '–'} | "
                      f"{sum(r['flagged'] for r in rows)} | "
                      f"{time.perf_counter() - t:.0f} s |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
