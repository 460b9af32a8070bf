"""Fair-play screening over the warehouse (docs/fair-play.md). Built so far: **soft play** —
how often a player declines to answer a specific opponent's top play, against how often it
answers every other opponent at the same kind of opportunity.

An opportunity is a decision row where the seat could answer the top play (``can_answer``),
made by a seat of the other side (``top_relation`` opposite or opponent: help within a side is
partnership, not collusion). It is answered when the category chosen is one of the game's
aggressive ones (``style_categories['aggressive']``). For a player P and an opponent Q the
stratified z-score (Cochran–Mantel–Haenszel, strata by the top play's seat relation and
how many seats after P it sits: answering the seat across, the one before or the one after
differ for honest play)
compares P's answers to Q with P's rate against everyone else; a pair's score combines both directions (Stouffer: the sum over
√2), because a soft pair spares each other. A pair is flagged at ``Z_FLAG`` or below, and only
with at least ``MIN_N`` opportunities each way where both directions exist.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import duckdb
import pyarrow as pa

from engine.games import GAMES, find_game
from warehouse.tendencies import Scope

Z_FLAG = -4.75     # one-sided p ≈ 1.0e-6 under the normal approximation (chess's 4.75σ)
MIN_N = 20         # opportunities each way before a direction is scored


@dataclass(frozen=True)
class Direction:
    """P's answers to Q's top plays against P's answers to every other opponent's, per
    stratum (the top play's seat relation and its seat's distance after P): ``(n, answered,
    base_n, base_answered)`` each."""

    strata: tuple[tuple[int, int, int, int], ...]

    @property
    def n(self) -> int:
        """Opportunities against Q."""
        return sum(x[0] for x in self.strata)

    @property
    def answered(self) -> int:
        """Answers to Q."""
        return sum(x[1] for x in self.strata)

    @property
    def base_n(self) -> int:
        """Opportunities against every other opponent."""
        return sum(x[2] for x in self.strata)

    @property
    def rate(self) -> float | None:
        """P's answer rate against Q."""
        return self.answered / self.n if self.n else None

    @property
    def base_rate(self) -> float | None:
        """P's answer rate against every other opponent."""
        base = sum(x[3] for x in self.strata)
        return base / self.base_n if self.base_n else None

    @property
    def z(self) -> float | None:
        """The stratified (Cochran–Mantel–Haenszel) z-score of the answers to Q: observed
        less expected under each stratum's pooled rate, over the square root of the summed
        hypergeometric variances (negative: Q is spared); None under ``MIN_N`` either way."""
        if self.n < MIN_N or self.base_n < MIN_N:
            return None
        diff = var = 0.0
        for n1, a1, n2, a2 in self.strata:
            total, hits = n1 + n2, a1 + a2
            if n1 == 0 or n2 == 0 or total < 2:
                continue
            diff += a1 - n1 * hits / total
            var += n1 * n2 * hits * (total - hits) / (total * total * (total - 1))
        return diff / math.sqrt(var) if var > 0 else 0.0


def _aggressive(games: list[str]) -> pa.Table:
    """(game, category) of every aggressive category of the games."""
    rows = [(g, c) for g in games
            for c in find_game(g).style_categories.get("aggressive", ())]
    return pa.table({"game": [r[0] for r in rows], "category": [r[1] for r in rows]})


COUNTS_SQL = """
SELECT d.game, d.player_id AS player, s.player_id AS top_player,
       d.top_relation || ':' || ((d.top_seat - d.seat + g.seats) % g.seats) AS stratum,
       count(*) AS n, count(a.category) AS answered
FROM decisions d
JOIN seats s ON s.game_id = d.game_id AND s.seat = d.top_seat
JOIN games g ON g.game_id = d.game_id
LEFT JOIN _screen_aggressive a ON a.game = d.game AND a.category = d.chosen
WHERE d.can_answer AND d.top_seat >= 0 AND d.top_relation IN ('opposite', 'opponent')
  AND d.player_id <> s.player_id AND (? IS NULL OR d.game = ?)
  AND (? IS NULL OR epoch_us(g.started) >= ?) AND (? IS NULL OR epoch_us(g.started) < ?)
GROUP BY ALL
"""


def soft_play(con: duckdb.DuckDBPyConnection, game: str | None = None,
              scope: Scope | None = None) -> list[dict[str, Any]]:
    """Per game and pair of players met across sides: both directions and the pair's
    z-score, most suspicious first (unscored pairs last); ``scope``: only the games started
    in its [since, until] (a window: a pair that starts sparing each other is scored from
    then on)."""
    low, high = (scope or Scope()).bounds()
    games = [r[0] for r in con.execute("SELECT DISTINCT game FROM decisions").fetchall()]
    con.register("_screen_aggressive", _aggressive([g for g in games if _known(g)]))
    try:
        counts = con.execute(COUNTS_SQL, [game, game, low, low, high, high]).fetchall()
    finally:
        con.unregister("_screen_aggressive")
    by: dict[tuple[str, str, str], dict[str, tuple[int, int]]] = {}
    totals: dict[tuple[str, str, str], tuple[int, int]] = {}
    for g, p, q, rel, n, a in counts:
        by.setdefault((g, p, q), {})[rel] = (n, a)
        tn, ta = totals.get((g, p, rel), (0, 0))
        totals[(g, p, rel)] = (tn + n, ta + a)
    rows = []
    for g, p, q in sorted(by):
        if (g, q, p) in by and q < p:
            continue                           # the pair is made once, from its lower id
        dirs = [_direction(by, totals, g, p, q), _direction(by, totals, g, q, p)]
        zs = [d.z for d in dirs if d is not None and d.z is not None]
        z = sum(zs) / math.sqrt(len(zs)) if zs else None
        rows.append({"game": g, "players": [p, q], "z": z,
                     "flagged": z is not None and z <= Z_FLAG,
                     "directions": [_as_row(x, y, d) for (x, y), d
                                    in zip(((p, q), (q, p)), dirs, strict=True)]})
    return sorted(rows, key=lambda r: (r["z"] is None, r["z"] or 0.0, r["game"], r["players"]))


def _known(game: str) -> bool:
    """True if the game is registered here (a plug-in's game not installed: not screened)."""
    return game in GAMES


def _direction(by: dict[tuple[str, str, str], dict[str, tuple[int, int]]],
               totals: dict[tuple[str, str, str], tuple[int, int]], g: str, p: str,
               q: str) -> Direction | None:
    if (g, p, q) not in by:
        return None
    strata = []
    for rel, (n, a) in sorted(by[(g, p, q)].items()):
        tn, ta = totals[(g, p, rel)]
        strata.append((n, a, tn - n, ta - a))
    return Direction(tuple(strata))


def _as_row(p: str, q: str, d: Direction | None) -> dict[str, Any]:
    if d is None:
        return {"player": p, "against": q, "n": 0}
    return {"player": p, "against": q, "n": d.n, "answered": d.answered, "rate": d.rate,
            "base_n": d.base_n, "base_rate": d.base_rate, "z": d.z}


def sight(con: duckdb.DuckDBPyConnection, game: str, depth: Any = None,
          scope: Scope | None = None, progress: Any = None,
          submit: Any = None, window: int = 8) -> list[dict[str, Any]]:
    """Per player of a game type: at the decisions looked at (``engine.fairplay``) where the
    hidden cards change the best choice, how often the player chose the true best, against
    every other player's rate (leave-one-out) as a z-score; most suspicious first.
    ``submit`` (``submit(fn, *args)`` -> Future: worker processes or a cluster): the games are
    looked at there, ``window`` at a time, and counted here in order (the same result)."""
    from engine.fairplay import Depth
    low, high = (scope or Scope()).bounds()
    ids = [r[0] for r in con.execute(
        "SELECT game_id FROM games WHERE game = ? AND (? IS NULL OR epoch_us(started) >= ?) "
        "AND (? IS NULL OR epoch_us(started) < ?) ORDER BY started, game_id",
        [game, low, low, high, high]).fetchall()]
    depth = depth or Depth()
    counts: dict[str, list[int]] = {}          # player -> [looked at, sensitive, chose true]
    for i, (players, found) in enumerate(_looked_at(con, ids, depth, submit, window)):
        for ins in found:
            c = counts.setdefault(players[ins.seat], [0, 0, 0])
            c[0] += 1
            c[1] += ins.sensitive
            c[2] += ins.sensitive and ins.chose_true
        if progress is not None:
            progress(i + 1, len(ids))
    return _sight_rows(game, counts)


def _looked_at(con: duckdb.DuckDBPyConnection, ids: list[str], depth: Any, submit: Any,
               window: int) -> Any:
    """(players by seat, insights) of each game in order: here, or submitted ``window``
    games ahead."""
    from collections import deque

    from engine.fairplay import insights_list
    from warehouse.queries import game_events

    def players(gid: str) -> list[str]:
        return [r[0] for r in con.execute(
            "SELECT player_id FROM seats WHERE game_id = ? ORDER BY seat", [gid]).fetchall()]
    if submit is None:
        for gid in ids:
            yield players(gid), insights_list(game_events(con, gid), depth)
        return
    pending: deque[tuple[list[str], Any]] = deque()
    for gid in ids:
        pending.append((players(gid), submit(insights_list, game_events(con, gid), depth)))
        if len(pending) >= window:
            who, fut = pending.popleft()
            yield who, fut.result()
    while pending:
        who, fut = pending.popleft()
        yield who, fut.result()


def _sight_rows(game: str, counts: dict[str, list[int]]) -> list[dict[str, Any]]:
    """The players' rows from their counts: z against everyone else (leave-one-out)."""
    total_n = sum(c[1] for c in counts.values())
    total_k = sum(c[2] for c in counts.values())
    rows = []
    for player, (looked, n, k) in sorted(counts.items()):
        other_n, other_k = total_n - n, total_k - k
        z = None
        if n >= MIN_N and other_n >= MIN_N and 0 < other_k < other_n:
            p0 = other_k / other_n
            z = (k - n * p0) / math.sqrt(n * p0 * (1 - p0))
        rows.append({"game": game, "player": player, "looked": looked, "n": n, "true_best": k,
                     "rate": k / n if n else None,
                     "base_rate": other_k / other_n if other_n else None, "z": z,
                     "flagged": z is not None and z >= -Z_FLAG})
    return sorted(rows, key=lambda r: (r["z"] is None, -(r["z"] or 0.0), r["player"]))
