"""``liujia screen``: fair-play screening of the warehouse (docs/fair-play.md). So far one
signal: soft play between players of opposite sides."""

from __future__ import annotations

import argparse
import math
from typing import Any

from engine.games import GAMES
from liujia.commands._common import (
    FOUND,
    OK,
    add_db_option,
    add_executor_options,
    fail,
    open_warehouse,
    safe_json,
    safe_text,
    whole_number,
)
from liujia.commands.stats import when
from warehouse.paths import default_db


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser(
        "screen", help="fair-play screening: pairs that spare each other across sides",
        description="Soft play: per pair of players met on opposite sides, how often each "
        "answered the other's top play when it could, against its rate with every other "
        "opponent, as a z-score (both directions combined). A pair is flagged at z <= -4.75 "
        "(one-sided p ~ 1e-6: about 0.01 false flags per 10,000 honest pairs, where the "
        "normal approximation holds), with at least 20 opportunities each way. A flag says "
        "how unlikely the play is for an honest player, not that anyone cheated. Exit 1 "
        "when the warehouse has no pair to screen.")
    p.add_argument("--game", choices=sorted(GAMES), help="only games of this type (required "
                   "for --signal sight)")
    p.add_argument("--signal", choices=("soft", "sight"), default="soft",
                   help="soft: pairs sparing each other across sides (default); sight: "
                   "players who choose what only the hidden cards justify, at a few "
                   "decisions of every seat of every game (slow: ~1 s a game)")
    p.add_argument("--since", type=when, metavar="DATE",
                   help="only games started on or after this day (YYYY-MM-DD, UTC) or moment")
    p.add_argument("--until", type=when, metavar="DATE",
                   help="only games started on or before this day or moment")
    p.add_argument("--limit", type=whole_number, default=20, metavar="N",
                   help="show the N pairs with the lowest scores (default 20; 0: all)")
    p.add_argument("--json", action="store_true", help="one JSON object per pair or player")
    add_executor_options(
        p, "sight: look at the games in N local worker processes, the same result (default: "
        "one per CPU from 8 games on; 1: here)", "sight: look at the games")
    add_db_option(p)
    return p


def _p_value(z: float) -> float:
    """One-sided p of a z-score this low or lower."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


def describe(row: dict[str, Any]) -> str:
    """One pair as a line of text."""
    a, b = row["players"]
    head = f"{row['game']}  {a} & {b}  "
    if row["z"] is None:
        return head + "too few opportunities to score"
    parts = []
    for d in row["directions"]:
        if d["n"] == 0:
            parts.append(f"{d['player']} never could answer {d['against']}")
            continue
        base = "–" if d["base_rate"] is None else f"{d['base_rate']:.0%} of {d['base_n']}"
        parts.append(f"{d['player']} answered {d['against']} {d['answered']} of {d['n']} "
                     f"times (others: {base})")
    flag = "FLAGGED  " if row["flagged"] else ""
    return (head + f"{flag}z {row['z']:+.2f} (p {_p_value(row['z']):.1e} for an honest "
            "pair); " + "; ".join(parts))


def run(args: argparse.Namespace) -> int:
    """Print the pairs, most suspicious first."""
    import duckdb

    from warehouse.screen import soft_play
    from warehouse.tendencies import Scope
    try:
        scope = Scope(since=args.since, until=args.until)
    except ValueError as exc:
        return fail(str(exc))
    if args.signal == "sight":
        if args.game is None:
            return fail("--signal sight needs --game: the rates of unlike games never pool")
        return _sight(args, scope)
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    try:
        rows = soft_play(con, args.game, scope)
    except duckdb.Error as exc:
        return fail(f"{args.db or default_db()}: {exc}")
    finally:
        con.close()
    if not rows:
        return fail("no pair of players met across sides with a play to answer"
                    + (f" in {args.game}" if args.game else "")
                    + (" in the games of those dates" if args.since or args.until else "")
                    + " in the warehouse", FOUND)
    return _print(rows, args, "soft play", "pairs", "z <= -4.75", describe)


def _print(rows: list[dict[str, Any]], args: argparse.Namespace, signal: str, what: str,
           flag: str, line: Any) -> int:
    """The rows as JSON lines, or as a title and a line each (at most --limit of them)."""
    shown = rows[:args.limit or None]
    if args.json:
        for r in shown:
            print(safe_json(r))
        return OK
    flagged = sum(r["flagged"] for r in rows)
    print(safe_text(f"{signal}: {len(rows):,} {what}, {flagged} flagged ({flag})"))
    for r in shown:
        print(safe_text(line(r)))
    if len(shown) < len(rows):
        print(f"… {len(shown)} of {len(rows):,} {what} shown (--limit 0 shows all)")
    return OK


def describe_sight(row: dict[str, Any]) -> str:
    """One player's sight row as a line of text."""
    head = f"{row['game']}  {row['player']}  "
    if row["z"] is None:
        return head + (f"too few decisions to score ({row['n']} where the hidden cards change "
                       f"the best choice, of {row['looked']} looked at)")
    flag = "FLAGGED  " if row["flagged"] else ""
    return (head + f"{flag}z {row['z']:+.2f} (p {_p_value(-row['z']):.1e} for an honest "
            f"player); chose the best by the hidden cards {row['true_best']} of {row['n']} "
            f"times where they change it (others: {row['base_rate']:.0%}); "
            f"{row['looked']} decisions looked at")


def _sight(args: argparse.Namespace, scope: Any) -> int:
    """The sight signal of one game type, with a progress bar on a terminal."""
    import sys

    import duckdb

    from liujia.commands._progress import bar
    from warehouse.screen import sight
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    progress = bar(args.json, unit="game", desc="screen")

    def tick(done: int, total: int) -> None:
        if progress is not None:
            progress.total = total
            progress.update(done - progress.n)
    from ingest.executor import ClusterError
    from liujia.commands.review import submitter
    try:
        games = con.execute("SELECT count(*) FROM games WHERE game = ?",
                            [args.game]).fetchall()[0][0]
        with submitter(args, games) as submit:
            rows = sight(con, args.game, scope=scope, progress=tick, submit=submit)
    except duckdb.Error as exc:
        return fail(f"{args.db or default_db()}: {exc}")
    except ClusterError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        print("liujia: interrupted", file=sys.stderr)
        return 130
    finally:
        con.close()
        if progress is not None:
            progress.close()
    if not rows:
        return fail(f"no {args.game} decision to screen in the warehouse", FOUND)
    return _print(rows, args, "sight", "players", "z >= +4.75", describe_sight)
