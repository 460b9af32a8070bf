"""The tests' oracle for ``warehouse.tendencies``: the same per-player figures, scope included,
as Polars lazy frames over ``decisions``, ``seats`` and ``games`` (from a connection through
Arrow, or any mapping of LazyFrames, e.g. the Parquet export), each game's catalog compiled a
second way (``expr``, beside the warehouse's ``sql``). They give exactly the numbers of the
SQL forms: the same IEEE operations in the same order (docs/decisions.md)."""

from __future__ import annotations

from collections.abc import Mapping

import duckdb
import polars as pl

from engine.tendency import Pred
from warehouse.tendencies import (
    BY,
    MIN_OPPORTUNITIES,
    MIN_QUALIFIED,
    Z95,
    Scope,
    Tendency,
    games_of,
    opposite_pairs,
    result_seats,
)

Frames = Mapping[str, pl.LazyFrame]

_COLUMNS = {"relation": "top_relation", "side": "side", "outcome": "result",
            "reason": "reason", "chosen": "chosen"}


def expr(p: Pred) -> pl.Expr:
    """A predicate of the engine's tendency vocabulary as a Polars expression (the twin of
    ``warehouse.tendencies.sql``)."""
    a = p.args
    if p.op == "and":
        return expr(a[0]) & expr(a[1])
    if p.op == "or":
        return expr(a[0]) | expr(a[1])
    if p.op == "not":
        return ~expr(a[0])
    if p.op == "option":
        return pl.any_horizontal([pl.col("options").list.contains(c) for c in a])
    if p.op == "tag":
        return pl.col("tags").list.contains(a[0])
    if p.op == "phase":
        return pl.col("phase").is_in(list(a))
    if p.op == "place":
        return pl.col("place") == int(a[0])
    if p.op == "result_seat":
        return pl.col(a[1])
    if p.op == "always":
        return pl.col("game_id").is_not_null()      # per row (a literal would be one)
    column = pl.col(_COLUMNS[p.op])
    return column == a[0] if len(a) == 1 else column.is_in(list(a))


def frames_from(con: duckdb.DuckDBPyConnection) -> dict[str, pl.LazyFrame]:
    """The decisions, seats and games tables of a connection as LazyFrames (over Arrow)."""
    return {name: pl.from_arrow(con.sql(f"SELECT * FROM {name}").to_arrow_table()).lazy()
            for name in ("decisions", "seats", "games")}


def wilson_pl(k: str, n: str, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """The Wilson bounds as Polars expressions (the operations of ``wilson``)."""
    z2 = z * z
    kf, nf = pl.col(k).cast(pl.Float64), pl.col(n).cast(pl.Float64)
    p = kf / nf
    denom = pl.lit(1.0) + pl.lit(z2) / nf
    centre = (p + pl.lit(z2) / (pl.lit(2.0) * nf)) / denom
    half = pl.lit(z) * (p * (pl.lit(1.0) - p) / nf + pl.lit(z2) / (pl.lit(4.0) * nf * nf)
                        ).sqrt() / denom
    return (pl.max_horizontal(pl.lit(0.0), centre - half),
            pl.min_horizontal(pl.lit(1.0), centre + half))


def scoped(frames: Frames, scope: Scope | None) -> dict[str, pl.LazyFrame]:
    """The frames limited to the scope's games (``scope_sql``'s conditions): games, their
    seats (every seat: the partners' too) and their decisions at the scope's seat."""
    if scope is None or scope.is_all():
        return dict(frames)
    games = frames["games"]
    us = pl.col("started").dt.epoch("us")
    low, high = scope.bounds()
    if low is not None:
        games = games.filter(us >= low)
    if high is not None:
        games = games.filter(us < high)
    if scope.before is not None:
        x = (frames["games"].filter(pl.col("game_id") == scope.before)
             .select(us.alias("_xs"), pl.col("game_id").alias("_xid")))
        games = (games.join(x, how="cross")
                 .filter((us < pl.col("_xs")) | ((us == pl.col("_xs"))
                                                 & (pl.col("game_id") < pl.col("_xid"))))
                 .drop("_xs", "_xid"))
    ids = games.select("game_id")
    decisions = frames["decisions"].join(ids, on="game_id", how="semi")
    if scope.seat is not None:
        decisions = decisions.filter(pl.col("seat") == scope.seat)
    return {"games": games, "seats": frames["seats"].join(ids, on="game_id", how="semi"),
            "decisions": decisions}


def results_lazy(frames: Frames) -> pl.LazyFrame:
    """The results rows (as ``results_sql``): a seat of a game with its outcome facts."""
    js = pl.col("result").str.json_path_match
    facts = result_seats()
    g = frames["games"].select(
        "game_id", "game", "seats", "reason",
        *(js(f"$.{field}").cast(pl.Int64, strict=False).alias(f"_{column}")
          for column, field in facts.items()))
    seat = pl.col("seat").cast(pl.Int64)
    return (frames["seats"].select("game_id", "seat", "player_id", "side", "place", "result",
                                   "score")
            .join(g, on="game_id")
            .with_columns(*((pl.col(f"_{c}") == seat).fill_null(False).alias(c) for c in facts))
            .drop(*(f"_{c}" for c in facts)))


def _source(frames: Frames, t: Tendency, scope: Scope | None) -> pl.LazyFrame:
    """The rows a tendency reads (decisions already at the scope's seat; results here)."""
    if t.source == "decisions":
        src = frames["decisions"]
    else:
        src = results_lazy(frames)
        if scope is not None and scope.seat is not None:
            src = src.filter(pl.col("seat") == scope.seat)
    return src.filter(pl.col("game") == t.game)


def _counted(q: pl.LazyFrame, i: int, t: Tendency, keys: list[str]) -> pl.LazyFrame:
    return (q.group_by(keys)
            .agg(expr(t.opportunity).sum().cast(pl.Int64).alias("n"),
                 (expr(t.opportunity) & expr(t.success)).sum().cast(pl.Int64).alias("k"))
            .with_columns(pl.lit(i, pl.Int64).alias("ord"), pl.lit(t.name).alias("tendency"),
                          pl.lit(t.game).alias("game")))


def player_tendencies_lazy(frames: Frames, player: str, game: str | None = None,
                           min_opportunities: int = MIN_OPPORTUNITIES,
                           scope: Scope | None = None,
                           min_qualified: int = MIN_QUALIFIED) -> pl.LazyFrame:
    """``player_tendencies`` as a Polars LazyFrame over ``frames`` (decisions, seats,
    games): the same rows and numbers."""
    ts = games_of(game)
    frames = scoped(frames, scope)
    counts = pl.concat([_counted(_source(frames, t, scope), i, t, ["player_id"])
                        for i, t in enumerate(ts)], how="diagonal")
    rated = counts.with_columns(
        pl.when(pl.col("n") > 0).then(pl.col("k").cast(pl.Float64) / pl.col("n")
                                       .cast(pl.Float64)).alias("rate"))
    pop = (counts.group_by("ord").agg(pl.col("k").sum(), pl.col("n").sum())
           .filter(pl.col("n") > 0)
           .select("ord", (pl.col("k").cast(pl.Float64) / pl.col("n").cast(pl.Float64))
                   .alias("population_rate")))
    mine = rated.filter((pl.col("player_id") == player) & (pl.col("n") > 0))
    qual = rated.filter(pl.col("n") >= min_opportunities).select("ord", pl.col("rate").alias("q"))
    ranks = (mine.select("ord", "rate").join(qual, on="ord", how="left").group_by("ord")
             .agg(pl.col("q").count().cast(pl.Int64).alias("qualified"),
                  (pl.col("q") < pl.col("rate")).sum().cast(pl.Int64).alias("below"),
                  (pl.col("q") == pl.col("rate")).sum().cast(pl.Int64).alias("equal")))
    low, high = wilson_pl("k", "n")
    percentile = pl.when((pl.col("n") >= min_opportunities)
                         & (pl.col("qualified") >= min_qualified)).then(
        pl.lit(100.0) * (pl.col("below").cast(pl.Float64) + pl.lit(0.5)
                         * pl.col("equal").cast(pl.Float64)) / pl.col("qualified")
        .cast(pl.Float64))
    return (mine.join(pop, on="ord").join(ranks, on="ord").sort("ord")
            .select("game", "tendency", "n", "k", "rate", low.alias("low"),
                    high.alias("high"), "population_rate", percentile.alias("percentile"),
                    "qualified"))


def _opposites_lazy() -> pl.LazyFrame:
    return pl.LazyFrame(opposite_pairs(), schema=["game", "_nseats", "_seat", "_other"],
                        orient="row").with_columns(pl.col("_nseats", "_seat", "_other")
                                                   .cast(pl.Int64))


def _split_lazy(frames: Frames, q: pl.LazyFrame, by: str) -> tuple[pl.LazyFrame, str]:
    """The rows of q joined as ``_dimension_sql`` joins them, and the group column."""
    if by in ("relation", "side"):
        col = "top_relation" if by == "relation" else "side"
        return q.with_columns(pl.col(col).alias("grp")), "grp"
    seats = frames["seats"].select("game_id", pl.col("seat").cast(pl.Int64).alias("_other"),
                                   pl.col("side").alias("_side"),
                                   pl.col("player_id").alias("grp"))
    q = q.with_columns(pl.col("seat").cast(pl.Int64).alias("_seat"))
    if by == "teammate":
        return (q.join(seats, left_on=["game_id", "side"], right_on=["game_id", "_side"])
                .filter(pl.col("_other") != pl.col("_seat")), "grp")
    if by == "opposite":
        nseats = frames["games"].select("game_id", pl.col("seats").cast(pl.Int64)
                                        .alias("_nseats"))
        return (q.join(nseats, on="game_id").join(_opposites_lazy(),
                                                  on=["game", "_nseats", "_seat"])
                .join(seats.drop("_side"), on=["game_id", "_other"]), "grp")
    raise ValueError(f"by must be one of {', '.join(BY)}, not {by!r}")


def tendencies_by_lazy(frames: Frames, player: str, game: str | None = None,
                       by: str = "relation", scope: Scope | None = None) -> pl.LazyFrame:
    """``tendencies_by`` as a Polars LazyFrame: the same rows and numbers."""
    ts = [t for t in games_of(game) if not (by == "relation" and t.source == "results")]
    frames = scoped(frames, scope)
    parts = []
    for i, t in enumerate(ts):
        q = _source(frames, t, scope).filter(pl.col("player_id") == player)
        q, grp = _split_lazy(frames, q, by)
        parts.append(_counted(q, i, t, [grp]).with_columns(pl.col(grp).cast(pl.String)))
    low, high = wilson_pl("k", "n")
    return (pl.concat(parts, how="diagonal").filter(pl.col("n") > 0)
            .sort(["ord", "grp"], nulls_last=False)
            .select("game", "tendency", "grp", "n", "k",
                    (pl.col("k").cast(pl.Float64) / pl.col("n").cast(pl.Float64)).alias("rate"),
                    low.alias("low"), high.alias("high")))


def partnerships_lazy(frames: Frames, player: str, game: str | None = None,
                      scope: Scope | None = None) -> pl.LazyFrame:
    """``partnerships`` as a Polars LazyFrame: the same rows and numbers."""
    frames = scoped(frames, scope)
    me = (frames["seats"].filter(pl.col("player_id") == player)
          .select("game_id", "seat", "side", "result")
          .join(frames["games"].select("game_id", "game", "seats"), on="game_id"))
    if game is not None:
        me = me.filter(pl.col("game") == game)
    if scope is not None and scope.seat is not None:
        me = me.filter(pl.col("seat") == scope.seat)
    me = me.with_columns(pl.col("seat").cast(pl.Int64).alias("_seat"),
                         pl.col("seats").cast(pl.Int64).alias("_nseats"))
    others = frames["seats"].select("game_id", pl.col("seat").cast(pl.Int64).alias("_other"),
                                    pl.col("side").alias("_side"),
                                    pl.col("player_id").alias("partner"))
    mates = (me.join(others, left_on=["game_id", "side"], right_on=["game_id", "_side"])
             .filter(pl.col("_other") != pl.col("_seat"))
             .select("game", "partner", pl.lit("teammate").alias("relation"), "result"))
    across = (me.join(_opposites_lazy(), on=["game", "_nseats", "_seat"])
              .join(others.drop("_side"), on=["game_id", "_other"])
              .select("game", "partner", pl.lit("opposite").alias("relation"), "result"))
    low, high = wilson_pl("wins", "decided")
    some = pl.col("decided") > 0
    return (pl.concat([mates, across])
            .group_by("game", "partner", "relation")
            .agg(pl.len().cast(pl.Int64).alias("games"),
                 *((pl.col("result") == word).sum().cast(pl.Int64).alias(name)
                   for word, name in (("win", "wins"), ("loss", "losses"), ("draw", "draws"))),
                 pl.col("result").is_in(["win", "loss"]).sum().cast(pl.Int64).alias("decided"))
            .sort(["game", "relation", "games", "partner"],
                  descending=[False, False, True, False])
            .select("game", "partner", "relation", "games", "wins", "losses", "draws",
                    "decided",
                    pl.when(some).then(pl.col("wins").cast(pl.Float64)
                                       / pl.col("decided").cast(pl.Float64)).alias("win_rate"),
                    pl.when(some).then(low).alias("low"), pl.when(some).then(high).alias("high")))
