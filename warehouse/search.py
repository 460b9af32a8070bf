"""Search by situation: the games where a seat's facts (``facts`` table, engine.facts,
docs/facts.md) meet every condition asked, with the seat's player and result, and the moment
each fact first happened — what ``liujia find`` and the dashboard's Search page show.

A condition is a fact name with a comparison of its count in that seat's game: ``held_bomb``
(at least once), ``won_duel>=2``, ``burned=0`` (never: a seat without the fact's row counts
0). Every condition applies to the same seat; ``player``, ``result`` and the dates narrow it.

``find_sessions`` asks the same of a player's whole session ("拉客 twice in one session"): the
counts are summed over the games of one session (one game type, one session id: the sessions
of ``warehouse.sessions``) that the player sat in and the dates keep, and each fact's first
moment is the earliest game of the session where it happened.
User input reaches SQL only as ``?`` parameters; fact names are checked against the catalogs
of the games searched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

import duckdb

from engine.games import GAMES, find_game
from warehouse.tendencies import Scope

OPS = (">=", "<=", "!=", "=", ">", "<")
_CONDITION = re.compile(r"([a-z0-9_]+)\s*(?:(>=|<=|!=|=|>|<)\s*([0-9]{1,6}))?")
RESULTS = ("win", "loss", "draw")
MAX_CONDITIONS = 8
DEFAULT_LIMIT = 200


class SearchError(ValueError):
    """A search that cannot be asked: an unknown fact, a malformed condition (the message
    says which and what is allowed)."""


@dataclass(frozen=True, slots=True)
class Condition:
    """One fact condition: the fact's count in the seat's game compared with a number."""

    fact: str
    op: str = ">="
    n: int = 1

    def __str__(self) -> str:
        return self.fact if (self.op, self.n) == (">=", 1) else f"{self.fact}{self.op}{self.n}"

    @property
    def wants_absent(self) -> bool:
        """True if a seat without the fact (count 0) meets the condition."""
        return _compare(0, self.op, self.n)


def _compare(count: int, op: str, n: int) -> bool:
    return {">=": count >= n, "<=": count <= n, "!=": count != n, "=": count == n,
            ">": count > n, "<": count < n}[op]


def parse_condition(text: str) -> Condition:
    """``NAME`` or ``NAME OP N`` (OP one of >= <= != = > <, N a whole number)."""
    m = _CONDITION.fullmatch(text.strip())
    if m is None:
        raise SearchError(f"fact condition {text!r} is not NAME or NAME>=N (ops: "
                          f"{' '.join(OPS)}; NAME in snake_case)")
    name, op, n = m.groups()
    return Condition(name, op or ">=", int(n) if n is not None else 1)


def catalog(game: str | None = None) -> dict[str, dict[str, str]]:
    """Fact name -> {game id: label} over one game type (or every registered one)."""
    out: dict[str, dict[str, str]] = {}
    for gid in ([game] if game else sorted(GAMES)):
        for f in find_game(gid).facts.FACTS:
            out.setdefault(f.name, {})[gid] = f.label
    return out


def check_conditions(conditions: list[Condition], game: str | None) -> None:
    """Refuse facts no searched game declares (the message lists some that exist)."""
    if len(conditions) > MAX_CONDITIONS:
        raise SearchError(f"at most {MAX_CONDITIONS} fact conditions, got {len(conditions)}")
    known = catalog(game)
    for c in conditions:
        if c.fact not in known:
            where = f"a {game} fact" if game else "a fact of any game"
            names = ", ".join(sorted(known)[:12]) or "none"
            raise SearchError(f"{c.fact!r} is not {where} (`liujia find --list-facts"
                              f"{' --game ' + game if game else ''}` lists them; e.g. {names})")


@dataclass(frozen=True, slots=True)
class Search:
    """What to look for: conditions on one seat's facts, and who, what and when."""

    conditions: tuple[Condition, ...] = ()
    player: str | None = None
    game: str | None = None
    result: str | None = None
    since: date | None = None        # a day (from its first moment, UTC) or a moment
    until: date | None = None        # a day (to its last moment) or a moment, inclusive
    limit: int = DEFAULT_LIMIT


def _sql(s: Search) -> tuple[str, list[Any]]:
    """The query and its parameters: one join (inner when the fact must have happened, left
    when a count of 0 meets the condition) per condition on the same (game, seat)."""
    cols = ["g.game_id", "g.game", "g.started", "g.session", "g.source_file", "s.seat",
            "s.player_id", "s.side", "s.place", "s.result", "s.score"]
    joins, where, params = [], [], []
    for i, c in enumerate(s.conditions):
        kind = "LEFT JOIN" if c.wants_absent else "JOIN"
        joins.append(f"{kind} facts f{i} ON f{i}.game_id = s.game_id AND f{i}.seat = s.seat "
                     f"AND f{i}.fact = ?")
        params.append(c.fact)
        where.append(f"coalesce(f{i}.count, 0) {c.op} ?")
        cols += [f"coalesce(f{i}.count, 0) AS count_{i}", f"f{i}.first_seq AS first_{i}"]
    for column, value in (("s.player_id", s.player), ("g.game", s.game),
                          ("s.result", s.result)):
        if value is not None:
            where.append(f"{column} = ?")
    filters = [v for v in (s.player, s.game, s.result) if v is not None]
    low, high = Scope(since=s.since, until=s.until).bounds()
    if low is not None:
        where.append("epoch_us(g.started) >= ?")
    if high is not None:
        where.append("epoch_us(g.started) < ?")
    dates = [d for d in (low, high) if d is not None]
    sql = (f"SELECT {', '.join(cols)} FROM seats s JOIN games g ON g.game_id = s.game_id "
           f"{' '.join(joins)} {'WHERE ' + ' AND '.join(where) if where else ''} "
           "ORDER BY g.started DESC, g.game_id, s.seat LIMIT ?")
    counts = [c.n for c in s.conditions]
    return sql, [*params, *counts, *filters, *dates, s.limit + 1]


def _found(con: duckdb.DuckDBPyConnection, s: Search, sql: str, params: list[Any],
           first: str) -> tuple[list[dict[str, Any]], bool]:
    """Run a search's query (the game type and the fact names checked first): each row as a
    dict with ``facts``, per condition its count and its ``first`` column; and whether more
    than ``limit`` matched."""
    if s.game is not None and s.game not in GAMES:
        raise SearchError(f"unknown game {s.game!r}; known: {', '.join(sorted(GAMES))}")
    check_conditions(list(s.conditions), s.game)
    rows = con.execute(sql, params).fetchall()
    names = [d[0] for d in con.description or ()]
    out = []
    for row in rows[:s.limit]:
        r = dict(zip(names, row, strict=True))
        r["facts"] = [{"fact": c.fact, "condition": str(c), "count": r.pop(f"count_{i}"),
                       first: r.pop(f"first_{i}")} for i, c in enumerate(s.conditions)]
        out.append(r)
    return out, len(rows) > s.limit


def find(con: duckdb.DuckDBPyConnection, s: Search) -> tuple[list[dict[str, Any]], bool]:
    """The matching seats (latest games first), each with ``facts``: per condition its
    count and first seq (None: it never happened); and whether more than ``limit`` matched."""
    if s.result is not None and s.result not in RESULTS:
        raise SearchError(f"result {s.result!r} is not one of {', '.join(RESULTS)}")
    return _found(con, s, *_sql(s), "first_seq")


def _session_sql(s: Search) -> tuple[str, list[Any]]:
    """The per-session query: each seat's counts (a left join per condition), summed per
    (game type, session, player); the first game and seq of each fact in the session."""
    cols = ["g.game", "g.session", "s.player_id", "g.game_id", "g.started", "g.source_file",
            "s.seat", "s.score"]
    joins, params = [], []
    for i, c in enumerate(s.conditions):
        joins.append(f"LEFT JOIN facts f{i} ON f{i}.game_id = s.game_id AND f{i}.seat = s.seat "
                     f"AND f{i}.fact = ?")
        params.append(c.fact)
        cols += [f"coalesce(f{i}.count, 0) AS c{i}", f"f{i}.first_seq AS q{i}"]
    where = ["g.session IS NOT NULL"]
    filters = [v for v in (s.player, s.game) if v is not None]
    where += [f"{col} = ?" for col, v in (("s.player_id", s.player), ("g.game", s.game))
              if v is not None]
    low, high = Scope(since=s.since, until=s.until).bounds()
    where += [w for w, d in (("epoch_us(g.started) >= ?", low), ("epoch_us(g.started) < ?", high))
              if d is not None]
    dates = [d for d in (low, high) if d is not None]
    sums, having = [], []
    for i, _ in enumerate(s.conditions):
        sums += [f"sum(c{i})::BIGINT AS count_{i}",
                 f"arg_min({{'game_id': game_id, 'seat': seat, 'seq': q{i}, "
                 f"'source_file': source_file, 'started_us': epoch_us(started)}}, (started, game_id)) FILTER (WHERE c{i} > 0) "
                 f"AS first_{i}"]
        having.append(f"sum(c{i}) {s.conditions[i].op} ?")
    sql = (f"WITH per_game AS (SELECT {', '.join(cols)} FROM seats s JOIN games g ON "
           f"g.game_id = s.game_id {' '.join(joins)} WHERE {' AND '.join(where)}) "
           "SELECT game, session, player_id, count(*)::BIGINT AS games, min(started) AS started, "
           f"max(started) AS last_started, sum(score)::BIGINT AS total{''.join(', ' + x for x in sums)} "
           "FROM per_game GROUP BY game, session, player_id "
           f"{'HAVING ' + ' AND '.join(having) if having else ''} "
           "ORDER BY started DESC, game, session, player_id LIMIT ?")
    counts = [c.n for c in s.conditions]
    return sql, [*params, *filters, *dates, *counts, s.limit + 1]


def find_sessions(con: duckdb.DuckDBPyConnection, s: Search
                  ) -> tuple[list[dict[str, Any]], bool]:
    """The (session, player) pairs whose facts summed over the session's games meet every
    condition (latest sessions first), each with its games, total score and ``facts``: per
    condition the count and where it first happened in the session (``first``: game id,
    seat, seq, log file, the game's start in µs; None if it never did); and whether more
    than ``limit`` matched."""
    if s.result is not None:
        raise SearchError("a session has no result to search by (its winners: liujia sessions)")
    return _found(con, s, *_session_sql(s), "first")


def session_first(row: dict[str, Any]) -> dict[str, Any] | None:
    """Where the first of a ``find_sessions`` row's facts happened in its session (game id,
    seat, seq, log file: the earliest game, then seq); None when none of them did."""
    firsts = [f["first"] for f in row["facts"] if f["first"] is not None]
    return min(firsts, key=lambda x: (x["started_us"], x["game_id"], x["seq"]), default=None)


def first_moment(row: dict[str, Any]) -> int | None:
    """The seq to open a found game at: the earliest first seq of its facts (None: no fact
    happened, e.g. a search for absent facts only)."""
    seqs = [f["first_seq"] for f in row["facts"] if f["first_seq"] is not None]
    return min(seqs) if seqs else None
