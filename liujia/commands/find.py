"""``liujia find``: the games where a seat's facts meet every condition (docs/facts.md) — who
held what, did what, suffered what — with the player, the result and the moment each fact first
happened, and the command that opens the replay there in that seat."""

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
    open_warehouse,
    safe_json,
    safe_text,
)
from liujia.commands.stats import when
from warehouse.paths import default_db

HEADER = ("started", "game", "game id", "seat", "player", "result", "score")
SESSION_HEADER = ("started", "game", "session", "player", "games", "total")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser(
        "find", help="the games where a seat's facts meet conditions (search by situation)",
        description="The games where one seat's facts meet every --fact condition (held a "
        "combination, played it, took a role, finished in a place, suffered an attack …: "
        "`--list-facts` lists each game's), narrowed by player, game type, result and dates; "
        "latest first, with the moment each fact first happened and the command that opens "
        "the replay there in that seat. Exit 1 when nothing matches, 2 for a usage error.")
    p.add_argument("--fact", action="append", default=[], metavar="NAME[>=N]",
                   help="a fact and its count in the seat's game: NAME (at least once), "
                   "NAME>=N, NAME=N, NAME<N … (NAME=0: never); repeat for more (all must hold)")
    p.add_argument("--per-session", action="store_true",
                   help="the conditions on a player's counts summed over a session (the games "
                   "of one game type sharing a session id, e.g. `--fact lake>=2 --per-session`: "
                   "拉客 twice in one session); one row per session and player")
    p.add_argument("--player", metavar="ID", help="only this player's seats")
    p.add_argument("--game", choices=sorted(GAMES), help="only games of this type")
    p.add_argument("--result", choices=("win", "loss", "draw"), help="only seats with this result")
    p.add_argument("--since", type=when, metavar="DATE",
                   help="only games started on or after this day (YYYY-MM-DD, UTC) or moment")
    p.add_argument("--until", type=when, metavar="DATE",
                   help="only games started on or before this day or moment (inclusive)")
    p.add_argument("--limit", type=_limit, default=50, metavar="N",
                   help="show at most N seats (default 50, at most 10000)")
    p.add_argument("--list-facts", action="store_true",
                   help="list the facts (of --game, else of every game) and exit")
    p.add_argument("--json", action="store_true", help="one JSON object per seat found")
    add_db_option(p)
    return p


def _limit(text: str) -> int:
    """A --limit value: a whole number from 1 to 10000."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 10_000:
        raise argparse.ArgumentTypeError(f"not a whole number from 1 to 10000: {text!r}")
    return int(text)


def list_facts(game: str | None) -> list[str]:
    """The fact catalogs as text lines: per game, each fact's name, label and description."""
    from engine.games import find_game

    out: list[str] = []
    for gid in ([game] if game else sorted(GAMES)):
        g = find_game(gid)
        out.append(f"{g.TITLE} ({gid}): {len(g.facts.FACTS)} facts")
        width = max((len(f.name) for f in g.facts.FACTS), default=0)
        out += [f"  {f.name.ljust(width)}  {f.label} — {f.description}" for f in g.facts.FACTS]
    return out


def _moment(f: dict[str, Any]) -> str:
    first = f["first_seq"]
    return f"{f['condition']}: {f['count']}" + ("" if first is None else f" (first at seq {first})")


def lines(rows: list[dict[str, Any]]) -> list[str]:
    """The seats found as aligned text lines (a header first), each followed by its facts and
    the replay command."""
    from warehouse.search import first_moment

    table = [HEADER] + [(r["started"].strftime("%Y-%m-%d %H:%M"), r["game"], r["game_id"],
                         str(r["seat"]), r["player_id"], r["result"], f"{r['score']:+d}")
                        for r in rows]
    head, *body = aligned(table, range(len(table[0])))
    out = [head]
    for line, r in zip(body, rows, strict=True):
        out.append(line)
        if r["facts"]:
            out.append("    " + "; ".join(_moment(f) for f in r["facts"]))
        seq = first_moment(r)
        step = f" --step {seq}" if seq is not None else ""
        out.append(f"    liujia replay {r['source_file']} --game {r['game_id']}{step} "
                   f"--seat {r['seat']}")
    return out


def _session_moment(f: dict[str, Any]) -> str:
    first = f["first"]
    where = "" if first is None else f" (first in {first['game_id']} at seq {first['seq']})"
    return f"{f['condition']}: {f['count']}{where}"


def session_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The (session, player) pairs found as aligned text lines (a header first), each followed
    by its facts and the command that opens the replay where the first of them happened."""
    from warehouse.search import session_first

    table = [SESSION_HEADER] + [(r["started"].strftime("%Y-%m-%d %H:%M"), r["game"],
                                 r["session"], r["player_id"], str(r["games"]),
                                 f"{r['total']:+d}") for r in rows]
    head, *body = aligned(table, range(len(table[0])))
    out = [head]
    for line, r in zip(body, rows, strict=True):
        out.append(line)
        if r["facts"]:
            out.append("    " + "; ".join(_session_moment(f) for f in r["facts"]))
        first = session_first(r)
        if first is not None:
            out.append(f"    liujia replay {first['source_file']} --game {first['game_id']} "
                       f"--step {first['seq']} --seat {first['seat']}")
    return out


def run(args: argparse.Namespace) -> int:
    """Print the seats found."""
    if args.list_facts:
        for line in list_facts(args.game):
            print(safe_text(line))
        return OK
    import duckdb

    from warehouse.search import Search, SearchError, find, find_sessions, parse_condition
    try:
        search = Search(conditions=tuple(parse_condition(c) for c in args.fact),
                        player=args.player, game=args.game, result=args.result,
                        since=args.since, until=args.until, limit=args.limit)
    except SearchError as exc:
        return fail(str(exc))
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    try:
        rows, more = (find_sessions if args.per_session else find)(con, search)
    except SearchError as exc:
        return fail(str(exc))
    except duckdb.Error as exc:
        return fail(f"{args.db or default_db()}: {exc}")
    finally:
        con.close()
    if not rows:
        what = "no session" if args.per_session else "no game"
        return fail(what + " matches" + "".join(f" {c}" for c in args.fact), FOUND)
    if args.json:
        for r in rows:
            print(safe_json({**r, **{k: r[k].isoformat() for k in ("started", "last_started")
                                     if k in r}}))
        return OK
    for line in (session_lines if args.per_session else lines)(rows):
        print(safe_text(line))
    if more:
        print(f"… the latest {len(rows)} shown (--limit raises it)")
    return OK
