"""``liujia players``: the players of the warehouse, like the dashboard's players page — games,
wins / losses / draws, win rate over the decided games with its n, last seen; searchable,
sortable, optionally of one game type, as text or JSON lines."""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import Any

from engine.games import GAMES
from liujia.commands._common import FOUND, OK, fail, open_warehouse, safe_json, safe_text
from warehouse.paths import ENV_VAR, default_db

SORTS = {"games": ("games", True), "wins": ("wins", True), "win-rate": ("win_rate", True),
         "last-seen": ("last_seen", True), "id": ("player_id", False)}
HEADER = ("player", "games", "wins", "losses", "draws", "win rate (n)", "last seen")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("players", help="the players, their records and when last seen",
                       description="Every player of the warehouse (of one game type with "
                       "--game; whose id contains --search, ignoring case): games, wins, "
                       "losses, draws, the win rate over the decided games (a draw counts "
                       "neither way) with that number, and the start of the latest game. "
                       "Exit 1 when no player matches.")
    p.add_argument("--game", choices=sorted(GAMES), help="only games of this type")
    p.add_argument("--search", default="", metavar="TEXT", help="part of a player id")
    p.add_argument("--sort", choices=sorted(SORTS), default="games",
                   help="order (default: most games first; ties by player id)")
    p.add_argument("--limit", type=_limit, default=50, metavar="N",
                   help="show at most N players (default 50; 0: all)")
    p.add_argument("--json", action="store_true", help="one JSON object per player")
    p.add_argument("--db", metavar="FILE", default=None,
                   help=f"warehouse file (default ${ENV_VAR}, else {default_db()})")
    return p


def _limit(text: str) -> int:
    """A --limit value: a whole number >= 0."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    return int(text)


def ordered(rows: list[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    """The rows in the order --sort names: descending for figures (nulls last), by id last."""
    key, descending = SORTS[sort]
    rows = sorted(rows, key=lambda r: r["player_id"])
    if key == "player_id":
        return rows
    known = [r for r in rows if r[key] is not None]
    return (sorted(known, key=lambda r: r[key], reverse=descending)
            + [r for r in rows if r[key] is None])


def _rate(r: dict[str, Any]) -> str:
    if r["win_rate"] is None:
        return f"– ({r['decided']})"
    return f"{r['win_rate']:.0%} ({r['decided']:,})"


def _seen(x: datetime | None) -> str:
    return "–" if x is None else x.strftime("%Y-%m-%d %H:%M")


def lines(rows: list[dict[str, Any]]) -> list[str]:
    """The players as aligned text lines, a header first."""
    table = [HEADER] + [(r["player_id"], f"{r['games']:,}", f"{r['wins']:,}",
                         f"{r['losses']:,}", f"{r['draws']:,}", _rate(r), _seen(r["last_seen"]))
                        for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADER))]
    return ["  ".join(c.ljust(w) if i in (0, len(HEADER) - 1) else c.rjust(w)
                      for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in table]


def run(args: argparse.Namespace) -> int:
    """Print the players."""
    import duckdb

    from warehouse.queries import players_list
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    try:
        rows = players_list(con, args.game, args.search).to_pylist()
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
        print(f"… {len(rows)} of {total:,} players shown (--limit 0 shows all)")
    return OK
