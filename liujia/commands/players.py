"""``liujia players``: the players of the warehouse, like the dashboard's players page — one row
per player and game type (win rates and scores of unlike games never pool): games, wins /
losses / draws, the game's headline rate with its n, the net score and the score per game with
its 95% interval, last seen; searchable, sortable, optionally of one game type, as text or
JSON lines."""

from __future__ import annotations

import argparse
from typing import Any

from engine.games import GAMES
from liujia.commands._common import (
    FOUND,
    OK,
    add_db_option,
    aligned,
    fail,
    moment_text,
    open_warehouse,
    safe_json,
    safe_text,
    whole_number,
)
from warehouse.paths import default_db

SORTS = {"games": ("games", True), "wins": ("wins", True), "win-rate": ("rate", True),
         "score": ("score", True), "last-seen": ("last_seen", True), "id": ("player_id", False)}
HEADER = ("player", "game", "games", "wins", "losses", "draws", "rate (n)", "net score",
          "per game (95%)", "last seen")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("players", help="the players, their records and when last seen",
                       description="Every player of the warehouse, one row per game type "
                       "played (of one game type with --game; whose id contains --search, "
                       "ignoring case): games, wins, losses, draws, the game's headline rate "
                       "with its n (the win rate over the decided games — a draw counts "
                       "neither way — unless the game says otherwise: a legend line names "
                       "it), the net score and the score per game with its 95%% interval, "
                       "and the start of the latest game. Exit 1 when no player matches.")
    p.add_argument("--game", choices=sorted(GAMES), help="only games of this type")
    p.add_argument("--search", default="", metavar="TEXT", help="part of a player id")
    p.add_argument("--sort", choices=sorted(SORTS), default="games",
                   help="order (default: most games first; ties by player id)")
    p.add_argument("--limit", type=whole_number, default=50, metavar="N",
                   help="show at most N rows (default 50; 0: all)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per player and game type")
    add_db_option(p)
    return p


def ordered(rows: list[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    """The rows in the order --sort names: descending for figures (nulls last), by id (then
    game) last."""
    key, descending = SORTS[sort]
    rows = sorted(rows, key=lambda r: (r["player_id"], r["game"]))
    if key == "player_id":
        return rows
    known = [r for r in rows if r[key] is not None]
    return (sorted(known, key=lambda r: r[key], reverse=descending)
            + [r for r in rows if r[key] is None])


def _rate(r: dict[str, Any]) -> str:
    if r["rate"] is None:
        return f"– ({r['rate_n']})"
    return f"{r['rate']:.0%} ({r['rate_n']:,})"


def _per_game(r: dict[str, Any]) -> str:
    mean = r["score_mean"]
    if r["score_low"] is None:
        return f"{mean:+.2f}"
    return f"{mean:+.2f} ±{(r['score_high'] - r['score_low']) / 2:.2f}"


def lines(rows: list[dict[str, Any]]) -> list[str]:
    """The rows as aligned text lines, a header first, then a legend line for every game
    shown whose headline rate is not wins / (wins + losses)."""
    from warehouse.records import words

    table = [HEADER] + [(r["player_id"], r["game"], f"{r['games']:,}", f"{r['wins']:,}",
                         f"{r['losses']:,}", f"{r['draws']:,}", _rate(r), f"{r['score']:+,}",
                         _per_game(r), moment_text(r["last_seen"])) for r in rows]
    out = aligned(table, (0, 1, len(HEADER) - 1))
    for game in sorted({r["game"] for r in rows}):
        w = words(game)
        if w.rate_over != "decided" or w.wins != "wins":
            out.append(f"{game}: games are {w.games}, wins {w.wins}, losses {w.losses}, "
                       f"draws {w.draws}; its rate is {w.rate}: {w.about}")
    return out


def run(args: argparse.Namespace) -> int:
    """Print the players."""
    import duckdb

    from warehouse.queries import players_list
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    from warehouse.records import with_headline
    try:
        rows = [with_headline(r) for r in players_list(con, args.game, args.search).to_pylist()]
    except duckdb.Error as exc:
        return fail(f"{args.db or default_db()}: {exc}")
    finally:
        con.close()
    if not rows:
        return fail("no player" + (f" of {args.game}" if args.game else "")
                    + (f" whose id contains {args.search!r}" if args.search else "")
                    + " in the warehouse", FOUND)
    total = len(rows)
    rows = ordered(rows, args.sort)[:args.limit or None]
    if args.json:
        for r in rows:
            print(safe_json({**r, "last_seen": None if r["last_seen"] is None
                             else r["last_seen"].isoformat()}))
        return OK
    for line in lines(rows):
        print(safe_text(line))
    if len(rows) < total:
        print(f"… {len(rows)} of {total:,} rows shown (--limit 0 shows all)")
    return OK
