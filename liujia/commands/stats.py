"""``liujia stats``: one player's tendencies, each as times did / times could with its sample
size, a 95% Wilson interval, the population's rate and the player's percentile."""

from __future__ import annotations

import argparse

import duckdb

from engine.games import GAMES
from liujia.commands._common import FOUND, OK, fail, open_warehouse, safe_json, safe_text
from warehouse.db import ENV_VAR, default_db
from warehouse.tendencies import MIN_OPPORTUNITIES, catalog, player_tendencies

HEADER = ("tendency", "did / could", "rate", "95% interval", "population", "percentile",
          "what")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("stats", help="a player's tendencies with sample sizes",
                       description="A player's tendencies from the warehouse's decision "
                       "points (docs/decisions.md): for each, how often the player did it of "
                       "the times he could (n), the rate with its 95%% Wilson interval, the "
                       "rate of every player together, and the player's percentile among the "
                       f"players with at least {MIN_OPPORTUNITIES} opportunities. Exit 1 when "
                       "the player has no game in the warehouse.")
    p.add_argument("--player", required=True, metavar="ID", help="the player id")
    p.add_argument("--game", choices=sorted(GAMES), help="only this game's tendencies")
    p.add_argument("--json", action="store_true", help="one JSON object per tendency")
    p.add_argument("--db", metavar="FILE", default=None,
                   help=f"warehouse file (default ${ENV_VAR}, else {default_db()})")
    return p


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.0%}"


def lines(rows: list[dict]) -> list[str]:
    """The tendencies as aligned text lines, a header first."""
    described = {t.name: t.description for t in catalog()}
    table = [HEADER] + [(
        r["tendency"], f"{r['k']} / {r['n']}", _pct(r["rate"]),
        f"{_pct(r['low'])}–{_pct(r['high'])}", _pct(r["population_rate"]),
        "–" if r["percentile"] is None else f"p{r['percentile']:.0f} of {r['qualified']}",
        described.get(r["tendency"], "")) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADER))]
    return ["  ".join(c.ljust(w) if i in (0, len(HEADER) - 1) else c.rjust(w)
                      for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in table]


def run(args: argparse.Namespace) -> int:
    """Print the player's tendencies."""
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    try:
        played = con.execute("SELECT count(DISTINCT game_id) FROM seats WHERE player_id = ?"
                             + (" AND game_id IN (SELECT game_id FROM games WHERE game = ?)"
                                if args.game else ""),
                             [args.player, *([args.game] if args.game else [])]).fetchall()[0][0]
        rows = player_tendencies(con, args.player, args.game).to_pylist() if played else []
    except duckdb.Error as exc:
        return fail(f"{args.db or default_db()}: {exc}")
    finally:
        con.close()
    if not played:
        return fail(f"player {args.player} has no game{' of ' + args.game if args.game else ''}"
                    " in the warehouse", FOUND)
    if args.json:
        for r in rows:
            print(safe_json(r))
        return OK
    print(safe_text(f"player {args.player}: {played} game(s); a percentile (pN of M players) "
                    f"among the players with at least {MIN_OPPORTUNITIES} opportunities"))
    for line in lines(rows):
        print(safe_text(line))
    return OK
