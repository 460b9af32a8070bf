"""``liujia stats``: one player's tendencies, each as times did / times could with its sample
size, a 95% Wilson interval, the population's rate and the player's percentile; optionally
over a scope (``--since``, ``--until``, ``--seat``, ``--before``: warehouse.tendencies.Scope),
which limits the population's figures too."""

from __future__ import annotations

import argparse
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, cast

from engine.games import GAMES
from engine.ids import shown_id
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
from liujia.commands._progress import bar
from warehouse.limits import MIN_OPPORTUNITIES, MIN_QUALIFIED
from warehouse.paths import default_db

if TYPE_CHECKING:               # the command's parser loads without DuckDB (liujia --help)
    import duckdb

    from warehouse.tendencies import Scope

HEADER = ("tendency", "did / could", "rate", "95% interval", "population", "percentile",
          "what")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("stats", help="a player's tendencies with sample sizes",
                       description="A player's tendencies from the warehouse's decision "
                       "points (docs/decisions.md): for each, how often the player did it of "
                       "the times he could (n), the rate with its 95% Wilson interval, the "
                       "rate of every player together, and the player's percentile among the "
                       f"players with at least {MIN_OPPORTUNITIES} opportunities. Exit 1 when "
                       "the player has no game in the warehouse.")
    p.add_argument("--player", required=True, metavar="ID", help="the player id")
    p.add_argument("--game", choices=sorted(GAMES), help="only this game's tendencies")
    p.add_argument("--since", type=when, metavar="DATE",
                   help="only games started on or after this day (YYYY-MM-DD, UTC) or moment "
                   "(YYYY-MM-DDTHH:MM[:SS])")
    p.add_argument("--until", type=when, metavar="DATE",
                   help="only games started on or before this day or moment (inclusive)")
    p.add_argument("--seat", type=seat, metavar="N", help="only the games at this seat")
    p.add_argument("--before", metavar="GAME_ID",
                   help="only the games that started before this game (never it or a later "
                   "one; the same start: by game id)")
    p.add_argument("--json", action="store_true", help="one JSON object per tendency (its "
                   "id as 'tendency', its readable name as 'label')")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar (shown on a "
                   "terminal only: the step under way, e.g. counting the tendencies)")
    add_db_option(p)
    return p


def when(text: str) -> date | datetime:
    """A --since / --until value: a day (YYYY-MM-DD) or an ISO moment (UTC unless it says)."""
    try:
        return date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date or ISO date-time: {text!r}") from None


def seat(text: str) -> int:
    """A --seat value: a whole number >= 0."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"not a seat number: {text!r}")
    return int(text)


def _scope(args: argparse.Namespace) -> Scope:
    from warehouse.tendencies import Scope
    return Scope(since=args.since, until=args.until, seat=args.seat, before=args.before)


def _played(con: duckdb.DuckDBPyConnection, args: argparse.Namespace) -> int:
    """How many games of the player (of --game) are in the scope."""
    from warehouse.tendencies import scope_sql
    cond, params = scope_sql(_scope(args), "g", "s.seat")
    (row,) = con.execute(
        "SELECT count(DISTINCT s.game_id) FROM seats s JOIN games g ON g.game_id = s.game_id "
        f"WHERE s.player_id = $player AND ($game::VARCHAR IS NULL OR g.game = $game) AND {cond}",
        params | {"player": args.player, "game": args.game}).fetchall()
    return int(row[0])


def _pct(x: float | None) -> str:
    """A rate as a percentage: whole per cent, one decimal near 0% and 100% (0.4%, not 0%)."""
    if x is None:
        return "–"
    return f"{x:.1%}" if 0 < x < 0.1 or 0.9 < x < 1 else f"{x:.0%}"


def labelled(rows: list[dict]) -> list[dict]:
    """The rows with each tendency's label (its readable name) after its id."""
    from warehouse.tendencies import labels
    named, out = labels(), []
    for r in rows:
        row: dict = {}
        for key, value in r.items():
            row[key] = value
            if key == "tendency":
                row["label"] = named.get(value, value)
        out.append(row)
    return out


def lines(rows: list[dict]) -> list[str]:
    """The tendencies as aligned text lines, a header first: each named by its label (the
    id is in ``--json``), its description last. Aligned by the columns a terminal gives a
    character (two for a Chinese one)."""
    from warehouse.tendencies import catalog, labels
    described, named = {t.name: t.description for t in catalog()}, labels()
    table = [HEADER] + [(
        named.get(r["tendency"], r["tendency"]), f"{r['k']} / {r['n']}", _pct(r["rate"]),
        f"{_pct(r['low'])}–{_pct(r['high'])}", _pct(r["population_rate"]),
        "–" if r["percentile"] is None else f"p{r['percentile']:.0f} of {r['qualified']}",
        described.get(r["tendency"], "")) for r in rows]
    return aligned(table, (0, len(HEADER) - 1))


def _scope_words(args: argparse.Namespace) -> str:
    """The scope in words for the header line ('' when there is none)."""
    bits = [f"{name} {value}" for name, value in (
        ("since", args.since), ("until", args.until), ("at seat", args.seat),
        ("before game", args.before)) if value is not None]
    return f" ({', '.join(bits)}; everyone's figures in the same scope)" if bits else ""


def _scope_problem(con: duckdb.DuckDBPyConnection, args: argparse.Namespace) -> str | None:
    """Why the scope asked for cannot be (an empty date range, an unknown --before game)."""
    low, high = _scope(args).bounds()
    if low is not None and high is not None and low >= high:
        return f"--since {args.since} is after --until {args.until}: the range is empty"
    if args.before is not None and not con.execute(
            "SELECT 1 FROM games WHERE game_id = ?", [args.before]).fetchall():
        return f"--before: no game {shown_id(args.before)} in the warehouse"
    if args.seat is not None:
        row = con.execute("SELECT max(seats) FROM games WHERE $game::VARCHAR IS NULL OR "
                          "game = $game", {"game": args.game}).fetchone()
        (most,) = cast(tuple[Any], row)             # an aggregate: always one row
        if most is not None and args.seat >= most:
            of = f"the {args.game} games" if args.game else "the games"
            return f"--seat {args.seat}: {of} in the warehouse have seats 0-{most - 1}"
    return None


class _Steps:
    """The command's steps as a count on stderr (on a terminal, unless quiet): each is one
    query that reports no progress of its own — the tendencies' figures the longest (one
    query over every game asked for: split per game it would take twice as long, up to nine
    times with the stored counts; docs/decisions.md, *In the command line: progress*)."""

    TOTAL = 4

    def __init__(self, quiet: bool) -> None:
        self._bar = bar(quiet, total=self.TOTAL, initial=1, desc="stats: starting",
                        bar_format="{desc} (step {n_fmt} of {total_fmt}, {elapsed})")
        self._done = 0

    def next(self, what: str) -> None:
        """The next step begins: ``what`` it does."""
        self._done += 1
        if self._bar is not None:
            self._bar.n = self._done
            self._bar.set_description_str(f"stats: {what}", refresh=False)
            self._bar.refresh()

    def close(self) -> None:
        """Remove the count (before anything else is printed)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def run(args: argparse.Namespace) -> int:
    """Print the player's tendencies."""
    steps = _Steps(args.quiet)
    try:
        found = _figures(args, steps)
    finally:
        steps.close()
    if isinstance(found, str):
        return fail(found)
    played, rows = found
    if not played:
        scoped = "" if _scope(args).is_all() else " in that scope"
        return fail(f"player {args.player} has no game{' of ' + args.game if args.game else ''}"
                    f" in the warehouse{scoped}", FOUND)
    if args.json:
        for r in labelled(rows):
            print(safe_json(r))
        return OK
    print(safe_text(f"player {args.player}: {played} game(s){_scope_words(args)}; a percentile "
                    f"(pN of M players) among the players with at least {MIN_OPPORTUNITIES} "
                    f"opportunities, once there are {MIN_QUALIFIED} such players"))
    for line in lines(rows):
        print(safe_text(line))
    return OK


def _figures(args: argparse.Namespace, steps: _Steps) -> tuple[int, list[dict]] | str:
    """How many games the player has in the scope and the tendency rows; or why the command
    cannot answer (an error line)."""
    import duckdb

    from warehouse.tendencies import games_of, player_tendencies
    steps.next("opening the warehouse")
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return con
    try:
        steps.next("checking the scope")
        problem = _scope_problem(con, args)
        if problem:
            return problem
        steps.next(f"counting the games of player {shown_id(args.player)}")
        played = _played(con, args)
        if not played:
            return 0, []
        asked = games_of(args.game)
        steps.next(f"counting {len(asked)} tendencies of "
                   f"{len({t.game for t in asked})} game type(s)")
        rows = player_tendencies(con, args.player, args.game, scope=_scope(args)).to_pylist()
    except duckdb.Error as exc:
        return f"{args.db or default_db()}: {exc}"
    finally:
        con.close()
    return played, rows
