"""``liujia sessions``: the sessions of the warehouse, like the dashboard's Sessions page — per
session its game type, first start, last end, games, players, each player's total score and who
won (the top total; nobody when all are level) — filtered by player, game type and dates; and
``liujia sessions SESSION_ID``: one session's games in order with each player's score and
running total (warehouse.sessions)."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import Any

from engine.games import GAMES
from liujia.commands._common import (
    FOUND,
    OK,
    USAGE,
    add_db_option,
    aligned,
    fail,
    moment_text,
    open_warehouse,
    safe_json,
    safe_text,
    whole_number,
)
from liujia.commands.stats import when
from warehouse.paths import default_db

LIST_HEADER = ("session", "game", "started", "ended", "games", "players", "won by (total)",
               "totals")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("sessions", help="sessions: their games, players, totals and winners",
                       description="The sessions of the warehouse (games sharing a session "
                       "id; games without one are left out and counted), newest first: game "
                       "type, first start, last end, games, players, each player's total score "
                       "and who won (the highest total, ties named; nobody when every player "
                       "is level). With SESSION_ID: that session's games in order, each "
                       "player's score and running total. Exit 1 when no session matches.")
    p.add_argument("session", nargs="?", metavar="SESSION_ID",
                   help="show this session's games (the list's filters do not apply)")
    p.add_argument("--player", metavar="ID", help="only sessions this player sat in")
    p.add_argument("--game", choices=sorted(GAMES), help="only sessions of this game type")
    p.add_argument("--since", type=when, metavar="DATE",
                   help="only sessions with a game started on or after this day (YYYY-MM-DD, "
                   "UTC) or moment (YYYY-MM-DDTHH:MM[:SS])")
    p.add_argument("--until", type=when, metavar="DATE",
                   help="only sessions with a game started on or before this day or moment")
    p.add_argument("--limit", type=whole_number, default=50, metavar="N",
                   help="show at most N sessions (default 50; 0: all)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per session (with SESSION_ID: one object)")
    add_db_option(p)
    return p


def _iso(x: datetime | None) -> str | None:
    return None if x is None else x.isoformat()


def _signed(n: int) -> str:
    return f"{n:+d}"


def won_by(row: dict[str, Any]) -> str:
    """Who won a session in words: 'a, b (+2)', or 'nobody (all level, +0)'."""
    if row["level"]:
        return f"nobody (all level, {_signed(row['top_total'])})"
    return f"{', '.join(row['winners'])} ({_signed(row['top_total'])})"


def totals(row: dict[str, Any]) -> str:
    """Each player's total, highest first; 'k of n games' for a player who missed some."""
    return ", ".join(f"{p['player_id']} {_signed(p['total'])}"
                     + (f" ({p['games']} of {row['games']} games)"
                        if p["games"] != row["games"] else "")
                     for p in row["players"])


def list_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The sessions as aligned text lines, a header first."""
    table = [LIST_HEADER] + [(r["session"], r["game"], moment_text(r["started"]), moment_text(r["ended"]),
                              f"{r['games']:,}", f"{r['n_players']}", won_by(r), totals(r))
                             for r in rows]
    return aligned(table, {0, 1, 6, 7})


def detail_lines(summary: dict[str, Any], games: list[dict[str, Any]]) -> list[str]:
    """One session: a heading, who won, then a line per game with each player's score and
    running total (a player's column in the order of the players' first seats), and the
    totals last."""
    players = list(dict.fromkeys(r["player_id"] for r in games))
    by_game: dict[int, dict[str, Any]] = {}
    for r in games:
        g = by_game.setdefault(r["n"], {"row": r, "cells": {}})
        g["cells"][r["player_id"]] = f"{_signed(r['score'])} ({_signed(r['total'])})"
    head = ("#", "started", "game id", "result", *players)
    table: list[tuple[str, ...]] = [head]
    for n, g in sorted(by_game.items()):
        r = g["row"]
        table.append((str(n), moment_text(r["started"]), r["game_id"], result_words(r),
                      *(g["cells"].get(p, "–") for p in players)))
    final = {p["player_id"]: _signed(p["total"]) for p in summary["players"]}
    table.append(("", "", "", "total", *(final.get(p, "–") for p in players)))
    return [f"session {summary['session']} · {summary['game']} · {summary['games']} game(s) · "
            f"{moment_text(summary['started'])} – {moment_text(summary['ended'])} UTC",
            f"won by {won_by(summary)}; each cell: the game's score (the running total)",
            *aligned(table, {1, 2, 3})]


def result_words(r: dict[str, Any]) -> str:
    """Who won one game: 'even won', 'seats 0, 2 won', 'draw'."""
    if r["winning_side"]:
        return f"{r['winning_side']} won"
    seats = list(r["winners"] or [])
    if not seats:
        return "draw"
    return f"seat{'s' * (len(seats) > 1)} {', '.join(map(str, seats))} won"


def _list_json(r: dict[str, Any]) -> dict[str, Any]:
    return {**r, "started": _iso(r["started"]), "ended": _iso(r["ended"])}


def _detail_json(summary: dict[str, Any], games: list[dict[str, Any]]) -> dict[str, Any]:
    rows: dict[int, dict[str, Any]] = {}
    for r in games:
        g = rows.setdefault(r["n"], {
            "n": r["n"], "game_id": r["game_id"], "started": _iso(r["started"]),
            "ended": _iso(r["ended"]), "winning_side": r["winning_side"],
            "winners": list(r["winners"] or []), "seats": []})
        g["seats"].append({k: r[k] for k in ("seat", "player_id", "side", "result", "score",
                                             "total")})
    return {**_list_json(summary), "game_rows": [rows[n] for n in sorted(rows)]}


def _filters_words(args: argparse.Namespace) -> str:
    bits = [f"{name} {value}" for name, value in (
        ("of player", args.player), ("of", args.game), ("since", args.since),
        ("until", args.until)) if value is not None]
    return f" ({', '.join(bits)})" if bits else ""


def run(args: argparse.Namespace) -> int:
    """Print the sessions, or one session's games."""
    import duckdb

    from warehouse.sessions import SessionFilter, games_without_session, session_view
    from warehouse.sessions import sessions_list as listed
    from warehouse.tendencies import Scope

    if args.session is not None:
        given = [o for o, v in (("--player", args.player), ("--since", args.since),
                                ("--until", args.until)) if v is not None]
        if given:
            return fail(f"{', '.join(given)}: filters of the list, not of one session "
                        "(SESSION_ID)", USAGE)
    low, high = Scope(since=args.since, until=args.until).bounds()
    if low is not None and high is not None and low >= high:
        return fail(f"--since {args.since} is after --until {args.until}: the range is empty")
    filt = SessionFilter(player=args.player, game=args.game, since=args.since,
                         until=args.until, limit=args.limit or None)
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    try:
        if args.session is not None:
            view = session_view(con, args.session, args.game)
        else:
            rows, more = listed(con, filt)
            loose = games_without_session(con, filt)
    except duckdb.Error as exc:
        return fail(f"{args.db or default_db()}: {exc}")
    finally:
        con.close()
    if args.session is not None:
        return _one(args, view)
    if not rows:
        extra = f"; {loose:,} game(s) without a session id match" if loose else ""
        return fail(f"no session{_filters_words(args)} in the warehouse{extra}", FOUND)
    if args.json:
        for r in rows:
            print(safe_json(_list_json(r)))
        if more:
            print(f"note: more sessions match than --limit {args.limit} (--limit 0: all)",
                  file=sys.stderr)
        return OK
    for line in list_lines(rows):
        print(safe_text(line))
    if more:
        print(f"… the newest {len(rows)} sessions shown; more match (--limit 0 shows all)")
    if loose:
        print(f"({loose:,} game(s) without a session id are not listed)")
    return OK


def _one(args: argparse.Namespace, view: dict[str, Any]) -> int:
    """Print one session (or why not)."""
    types = view["types"]
    if not types:
        return fail(f"no session {args.session} in the warehouse", FOUND)
    if view["game"] is None:
        if args.game is not None:
            return fail(f"session {args.session} has no {args.game} game (it has "
                        f"{', '.join(types)})", FOUND)
        return fail(f"session {args.session} is used by several game types "
                    f"({', '.join(types)}): choose one with --game", USAGE)
    summary, games = view["summary"], view["games"]
    if args.json:
        print(safe_json(_detail_json(summary, games)))
        return OK
    for line in detail_lines(summary, games):
        print(safe_text(line))
    return OK
