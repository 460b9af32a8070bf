"""``liujia compare A B``: two players side by side, as the dashboard's Compare page shows them —
each one's record per game type in the game's words, their games together (as partners, as
opponents, at one table of a game without sides) and every tendency of the games both played
with both rates and both 95% intervals ("apart" where the intervals do not overlap)."""

from __future__ import annotations

import argparse
from typing import Any

from engine.games import GAMES
from liujia.commands._common import (
    FOUND,
    OK,
    USAGE,
    add_db_option,
    aligned,
    fail,
    open_warehouse,
    safe_json,
    safe_text,
)
from warehouse.paths import default_db

RECORD = ("game", "player", "games", "wins", "losses", "draws", "rate (n)", "95%", "net score",
          "per game (95%)")
TOGETHER = ("game", "relation", "games", "A won", "B won", "both won", "A's score",
            "B's score", "A's win rate (95%)")
TENDENCY = ("tendency", "A did / could", "A rate (95%)", "B did / could", "B rate (95%)",
            "population", "")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("compare", help="two players side by side: records, games together, "
                       "tendencies", description="Two players side by side: each one's record "
                       "per game type (the game's headline rate with n and 95%% interval, net "
                       "score, score per game with its interval; unlike games never pooled), "
                       "their games together per game type and relation (partners, opponents, "
                       "same table: wins each and the score each took), and every tendency of "
                       "the games both played with both rates, n and 95%% Wilson intervals and "
                       "the population's rate ('apart' when the intervals do not overlap). Exit "
                       "1 when a player has no game in the warehouse.")
    p.add_argument("a", metavar="PLAYER_A", help="a player id")
    p.add_argument("b", metavar="PLAYER_B", help="another player id")
    p.add_argument("--game", choices=sorted(GAMES), help="only this game type")
    p.add_argument("--json", action="store_true", help="one JSON object per line, each with "
                   "its 'section': record, together or tendency")
    add_db_option(p)
    return p


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.0%}"


def _band(low: float | None, high: float | None) -> str:
    return "–" if low is None or high is None else f"{low:.0%}–{high:.0%}"


def record_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The records per game type, A's row then B's."""
    table = [RECORD] + [(
        r["game"], f"{r['who']}: {r['player_id']}", f"{r['games']:,}", f"{r['wins']:,}",
        f"{r['losses']:,}", f"{r['draws']:,}", f"{_pct(r['rate'])} ({r['rate_n']:,})",
        _band(r["rate_low"], r["rate_high"]), f"{r['score']:+,}",
        f"{r['score_mean']:+.2f}" + ("" if r["score_low"] is None else
                                     f" ±{(r['score_high'] - r['score_low']) / 2:.2f}"))
        for r in rows]
    return aligned(table, (0, 1))


def together_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Their games together per game type and relation."""
    table = [TOGETHER] + [(
        r["game"], r["relation"], f"{r['games']:,}", f"{r['a_wins']:,}", f"{r['b_wins']:,}",
        f"{r['both_won']:,}", f"{r['a_score']:+,}", f"{r['b_score']:+,}",
        f"{_pct(r['rate'])} ({_band(r['low'], r['high'])})") for r in rows]
    return aligned(table, (0, 1))


def tendency_lines(rows: list[dict[str, Any]], named: dict[str, str]) -> list[str]:
    """Every tendency of one game with both players' figures."""
    def did(who: str, r: dict[str, Any]) -> str:
        return "–" if r[f"{who} n"] is None else f"{r[f'{who} k']} / {r[f'{who} n']}"

    def rate(who: str, r: dict[str, Any]) -> str:
        if r[f"{who} n"] is None:
            return "–"
        return f"{_pct(r[f'{who} rate'])} ({_band(r[f'{who} low'], r[f'{who} high'])})"
    table = [TENDENCY] + [(named.get(r["tendency"], r["tendency"]), did("A", r), rate("A", r),
                           did("B", r), rate("B", r), _pct(r["population_rate"]),
                           "apart" if r["apart"] else "") for r in rows]
    return aligned(table, (0, 6))


def _gather(con: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Records, games together and tendencies side by side, from the warehouse."""
    from warehouse.compare import head_to_head, side_by_side
    from warehouse.queries import players_list
    from warehouse.records import with_headline
    from warehouse.tendencies import games_of, player_tendencies

    records = [{"who": who, **with_headline(r)} for who, player in (("A", args.a), ("B", args.b))
               for r in players_list(con, args.game, "", player).to_pylist()]
    records.sort(key=lambda r: (r["game"], r["who"]))
    together = [r for r in head_to_head(con, args.a, args.b).to_pylist()
                if args.game is None or r["game"] == args.game]
    played = [{r["game"] for r in records if r["who"] == who} for who in ("A", "B")]
    with_tendencies = {t.game for t in games_of(None)}
    tendencies = {}
    for game in sorted(played[0] & played[1] & with_tendencies):
        rows = [player_tendencies(con, p, game).to_pylist() for p in (args.a, args.b)]
        tendencies[game] = side_by_side(*rows)
    return {"records": records, "together": together, "tendencies": tendencies}


def _print(found: dict[str, Any], args: argparse.Namespace) -> None:
    """The comparison as text or JSON lines."""
    from warehouse.tendencies import labels

    if args.json:
        for r in found["records"]:
            print(safe_json({"section": "record", **r, "last_seen": None if r["last_seen"]
                             is None else r["last_seen"].isoformat()}))
        for r in found["together"]:
            print(safe_json({"section": "together", **r}))
        for game, rows in found["tendencies"].items():
            for r in rows:
                print(safe_json({"section": "tendency", "game": game, **r}))
        return
    print(safe_text(f"A = {args.a}, B = {args.b}"))
    print("\nrecords (per game type, never pooled):")
    for line in record_lines(found["records"]):
        print(safe_text("  " + line))
    print("\ntogether:" if found["together"] else "\ntogether: never at one table")
    for line in together_lines(found["together"]) if found["together"] else []:
        print(safe_text("  " + line))
    named = labels()
    for game, rows in found["tendencies"].items():
        print(f"\ntendencies · {game} (95% Wilson intervals; 'apart': they do not overlap):")
        for line in tendency_lines(rows, named) if rows else ["(no opportunity for either)"]:
            print(safe_text("  " + line))


def run(args: argparse.Namespace) -> int:
    """Print the two players side by side."""
    if args.a == args.b:
        return fail("choose two different players", USAGE)
    import duckdb

    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    try:
        found = _gather(con, args)
    except duckdb.Error as exc:
        return fail(f"{args.db or default_db()}: {exc}")
    finally:
        con.close()
    of = f" of {args.game}" if args.game else ""
    for who, player in (("A", args.a), ("B", args.b)):
        if not any(r["who"] == who for r in found["records"]):
            return fail(f"player {player} has no game{of} in the warehouse", FOUND)
    _print(found, args)
    return OK
