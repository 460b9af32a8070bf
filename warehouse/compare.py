"""Two players side by side: their games together — as partners (the same side), as opponents
(different sides) or at one table of a game without sides — with each one's wins and the score
that flowed, per game type. The rest of a comparison (records, tendencies) is each player's
own figures (``queries.players_list``, ``tendencies.player_tendencies``)."""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from warehouse.tendencies import wilson_sql

RELATIONS = ("partners", "opponents", "same table")


def head_to_head(con: duckdb.DuckDBPyConnection, a: str, b: str) -> pa.Table:
    """Per game type and relation (partners / opponents / same table), the games both
    played: games, a_wins, b_wins, both_won (a win each: partners, or two winners at one
    table), a_score and b_score (the sums of their seats' scores in those games), and a's win
    rate over the games (rate, low, high: 95% Wilson); by game, then relation."""
    low, high = wilson_sql("a_wins", "games")
    return con.sql(f"""WITH pairs AS (
    SELECT g.game, CASE WHEN x.side IS NULL OR y.side IS NULL THEN 'same table'
                        WHEN x.side = y.side THEN 'partners' ELSE 'opponents' END AS relation,
           x.result = 'win' AS a_won, y.result = 'win' AS b_won, x.score AS a_score,
           y.score AS b_score
    FROM seats x JOIN seats y ON y.game_id = x.game_id AND y.seat <> x.seat
    JOIN games g ON g.game_id = x.game_id
    WHERE x.player_id = $a AND y.player_id = $b),
agg AS (SELECT game, relation, count(*)::BIGINT AS games,
               count(*) FILTER (WHERE a_won)::BIGINT AS a_wins,
               count(*) FILTER (WHERE b_won)::BIGINT AS b_wins,
               count(*) FILTER (WHERE a_won AND b_won)::BIGINT AS both_won,
               sum(a_score)::BIGINT AS a_score, sum(b_score)::BIGINT AS b_score
        FROM pairs GROUP BY ALL)
SELECT *, a_wins::DOUBLE / games AS rate, {low} AS low, {high} AS high FROM agg
ORDER BY game, relation""", params={"a": str(a), "b": str(b)}).to_arrow_table()


def side_by_side(a_rows: list[dict[str, Any]], b_rows: list[dict[str, Any]]
                 ) -> list[dict[str, Any]]:
    """Two players' tendency rows of one game (``player_tendencies``) merged per tendency:
    the population's rate, each one's k, n, rate, low and high (``A …``, ``B …``; None where
    a player had no opportunity) and ``apart`` — the two 95% intervals do not overlap; in
    the order of A's rows, then B's others."""
    fields = ("k", "n", "rate", "low", "high")
    merged: dict[str, dict[str, Any]] = {}
    for who, rows in (("A", a_rows), ("B", b_rows)):
        for r in rows:
            m = merged.setdefault(r["tendency"], {
                "tendency": r["tendency"], "population_rate": r["population_rate"],
                **{f"{w} {f}": None for w in ("A", "B") for f in fields}})
            m.update({f"{who} {f}": r[f] for f in fields})
    out = []
    for m in merged.values():
        lows, highs = (m["A low"], m["B low"]), (m["A high"], m["B high"])
        known = None not in lows and None not in highs
        m["apart"] = known and (highs[0] < lows[1] or highs[1] < lows[0])
        out.append(m)
    return out
