"""What the ``reviews`` table (``liujia ingest --review``, docs/review.md) says of a player: the
accuracy per game type — the graded decisions, the mean loss against the best candidate with
its 95% interval, the share of mistakes and blunders with its Wilson interval — beside every
player's, and the player's worst decisions, each a moment to open in the replay.

Losses are on each game's own scale (win probability, or points for games settled in points),
so they are never pooled across game types. Only graded decisions count: a decision whose grade
was withheld (its loss too uncertain) or that could not be reviewed is left out, and said so by
the counts. A figure over fewer than ``MIN_GRADED`` graded decisions is withheld (None)."""

from __future__ import annotations

from typing import Any

import duckdb

from warehouse.tendencies import Scope, scope_sql, wilson

MIN_GRADED = 20           # graded decisions a mean loss or a share needs to be shown
BAD = ("mistake", "blunder")


def _graded_sql(player: bool, game: str | None, scope: Scope | None
                ) -> tuple[str, dict[str, Any]]:
    """The reviews of one player (``$player``) or everyone, of one game type or all, in the
    scope: every reviewed decision with whether it was graded."""
    cond, params = scope_sql(scope, "g", "r.seat")
    where = [cond, "($game::VARCHAR IS NULL OR r.game = $game)"]
    if player:
        where.append("r.player_id = $player")
    return (f"SELECT r.*, r.withheld IS NULL AS graded FROM reviews r JOIN games g "
            f"ON g.game_id = r.game_id WHERE {' AND '.join(where)}", {**params, "game": game})


_COUNTS = """WITH r AS ({sql})
SELECT game, count(*)::BIGINT AS reviewed, count(*) FILTER (WHERE graded)::BIGINT AS graded,
       avg(loss) FILTER (WHERE graded) AS mean, stddev_samp(loss) FILTER (WHERE graded) AS sd,
       count(*) FILTER (WHERE grade IN ('mistake', 'blunder'))::BIGINT AS bad,
       count(*) FILTER (WHERE grade = 'blunder')::BIGINT AS blunders,
       count(*) FILTER (WHERE flag)::BIGINT AS flags
FROM r GROUP BY game ORDER BY game"""


def _counts(con: duckdb.DuckDBPyConnection, player: str | None, game: str | None,
            scope: Scope | None) -> dict[str, dict[str, Any]]:
    """Per game type the counts of one player's reviews (None: everyone's)."""
    sql, params = _graded_sql(player is not None, game, scope)
    cur = con.execute(_COUNTS.format(sql=sql),
                      params if player is None else {**params, "player": player})
    names = [d[0] for d in cur.description or ()]
    return {r[0]: dict(zip(names, r, strict=True)) for r in cur.fetchall()}


def accuracy(con: duckdb.DuckDBPyConnection, player: str, game: str | None = None,
             scope: Scope | None = None) -> list[dict[str, Any]]:
    """Per game type the player has reviews of: reviewed (decisions), graded, mean_loss with
    loss_low / loss_high (95%, normal), bad (mistakes and blunders) with bad_rate and its
    Wilson bad_low / bad_high, blunders, flags, and the same of every player (``population_``
    mean_loss, bad_rate, graded); figures over fewer than MIN_GRADED graded decisions None."""
    everyone = _counts(con, None, game, scope)
    out = []
    for g, c in _counts(con, player, game, scope).items():
        pop = everyone[g]                     # the player's reviews are among everyone's
        shown = pop["graded"] >= MIN_GRADED
        out.append({"game": g, **{k: c[k] for k in ("reviewed", "graded", "bad", "blunders",
                                                    "flags")},
                    **_figures(c["graded"], c["mean"], c["sd"], c["bad"]),
                    "population_graded": pop["graded"],
                    "population_mean_loss": pop["mean"] if shown else None,
                    "population_bad_rate": pop["bad"] / pop["graded"] if shown else None})
    return out


def _figures(graded: int, mean: float | None, sd: float | None, bad: int) -> dict[str, Any]:
    """The mean loss with its 95% interval and the share of bad decisions with its Wilson
    interval, or None under MIN_GRADED."""
    if graded < MIN_GRADED or mean is None:
        return {"mean_loss": None, "loss_low": None, "loss_high": None, "bad_rate": None,
                "bad_low": None, "bad_high": None}
    half = 1.96 * (sd or 0.0) / graded ** 0.5
    lo, hi = wilson(bad, graded)
    return {"mean_loss": mean, "loss_low": mean - half, "loss_high": mean + half,
            "bad_rate": bad / graded, "bad_low": lo, "bad_high": hi}


def worst(con: duckdb.DuckDBPyConnection, player: str, game: str | None = None,
          scope: Scope | None = None, limit: int = 10) -> list[dict[str, Any]]:
    """The player's graded decisions with the largest loss (mistakes and blunders first by
    loss): game, game_id, started, seq, seat, chosen, best, loss, loss_se, grade, flag."""
    sql, params = _graded_sql(True, game, scope)
    cur = con.execute(f"""WITH r AS ({sql})
SELECT r.game, r.game_id, g.started, r.seq, r.seat, r.chosen, r.best, r.loss, r.loss_se,
       r.grade, r.flag FROM r JOIN games g ON g.game_id = r.game_id
WHERE r.graded AND r.grade IS NOT NULL
ORDER BY r.loss DESC, g.started DESC, r.game_id, r.seq LIMIT $limit""",
                      {**params, "player": player, "limit": limit})
    names = [d[0] for d in cur.description or ()]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def review_at(con: duckdb.DuckDBPyConnection, game_id: str, seq: int) -> dict[str, Any] | None:
    """The stored review of the decision at seq of a game (None: not reviewed)."""
    cur = con.execute("SELECT * FROM reviews WHERE game_id = ? AND seq = ?", [game_id, seq])
    names = [d[0] for d in cur.description or ()]
    row = cur.fetchone()
    return None if row is None else dict(zip(names, row, strict=True))
