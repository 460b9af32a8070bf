"""How people play: the ``decisions`` table, a catalog of named tendencies per game, and the
per-player figures over it in DuckDB SQL and, the same numbers, in Polars lazy frames
(docs/decisions.md).

A tendency is an *opportunity* predicate (the rows where it could happen) and a *success*
predicate over the rows of ``decisions`` (derived from the engine at ingest:
``engine.decisions``) or, for outcomes such as going out as 头客, over ``results`` (one row per
seat of a game, from ``seats`` and ``games``). Each predicate is written once as a ``Pred``,
SQL text and Polars expression side by side. Per player and tendency: n (opportunities),
k (successes), the rate, its 95% Wilson interval, the population rate (all players pooled) and
the player's percentile among players with at least ``MIN_OPPORTUNITIES`` opportunities.
Only code writes SQL text here; the player and the game reach the queries as parameters.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import duckdb
import polars as pl
import pyarrow as pa

from engine.decisions import decisions_module
from engine.games import GAMES

MIN_OPPORTUNITIES = 20
Z95 = 1.96
BY = ("relation", "side", "teammate", "opposite")     # the dimensions of tendencies_by
MAX_SEATS = 8


# One row per seat of a game, with the outcome facts results-based tendencies need.
RESULTS_SQL = """SELECT s.game_id, g.game, g.seats, s.seat, s.player_id, s.side, s.place,
        s.result, s.score, g.reason,
        coalesce(TRY_CAST(json_extract(g.result, '$.deciding_seat') AS INTEGER) = s.seat,
                 false) AS decider,
        coalesce(TRY_CAST(json_extract(g.result, '$.dianpao') AS INTEGER) = s.seat,
                 false) AS dianpao
    FROM seats s JOIN games g ON g.game_id = s.game_id"""


# ---------------------------------------------------------------- predicates

class Pred(NamedTuple):
    """A predicate over a decisions (or results) row: SQL text and the same Polars expr."""

    sql: str
    expr: pl.Expr

    def __and__(self, other: Pred) -> Pred:  # type: ignore[override]
        return Pred(f"({self.sql} AND {other.sql})", self.expr & other.expr)

    def __or__(self, other: Pred) -> Pred:
        return Pred(f"({self.sql} OR {other.sql})", self.expr | other.expr)

    def __invert__(self) -> Pred:
        return Pred(f"(NOT {self.sql})", ~self.expr)


def _word(w: str) -> str:
    if not w.replace("_", "").isalnum() or not w.isascii():
        raise ValueError(f"not a category, tag or phase word: {w!r}")
    return f"'{w}'"


def option(*categories: str) -> Pred:
    """The seat had (one of) these categories among its options."""
    expr = pl.any_horizontal([pl.col("options").list.contains(c) for c in categories])
    if len(categories) == 1:
        return Pred(f"list_contains(options, {_word(categories[0])})", expr)
    words = ", ".join(map(_word, categories))
    return Pred(f"list_has_any(options, [{words}])", expr)


def chosen(*categories: str) -> Pred:
    """The seat chose one of these categories."""
    if len(categories) == 1:
        return Pred(f"chosen = {_word(categories[0])}", pl.col("chosen") == categories[0])
    words = ", ".join(map(_word, categories))
    return Pred(f"chosen IN ({words})", pl.col("chosen").is_in(list(categories)))


def tag(name: str) -> Pred:
    """The row carries this tag (a game fact, docs/decisions.md)."""
    return Pred(f"list_contains(tags, {_word(name)})", pl.col("tags").list.contains(name))


def relation(name: str) -> Pred:
    """The top play was made by a seat of this relation (none/self/teammate/opposite/...)."""
    return Pred(f"top_relation = {_word(name)}", pl.col("top_relation") == name)


def phase(*phases: str) -> Pred:
    """The row's phase word is one of these."""
    words = ", ".join(map(_word, phases))
    return Pred(f"phase IN ({words})", pl.col("phase").is_in(list(phases)))


def place(p: int) -> Pred:
    """Results: the seat finished in this place (1 = first)."""
    return Pred(f"place = {int(p)}", pl.col("place") == int(p))


def outcome(word: str) -> Pred:
    """Results: the seat's result is win, loss or draw."""
    return Pred(f"result = {_word(word)}", pl.col("result") == word)


def reason(word: str) -> Pred:
    """Results: the game ended for this reason (games.reason)."""
    return Pred(f"reason = {_word(word)}", pl.col("reason") == word)


ALWAYS = Pred("true", pl.col("game_id").is_not_null())   # per row (a literal would be one)
DECIDER = Pred("decider", pl.col("decider"))
DIANPAO = Pred("dianpao", pl.col("dianpao"))


# ---------------------------------------------------------------- the catalog

@dataclass(frozen=True)
class Tendency:
    """A named tendency of one game: its opportunities and its successes."""

    name: str
    game: str
    description: str
    opportunity: Pred
    success: Pred
    source: str = "decisions"          # or "results" (one row per seat of a game)

    @property
    def opportunity_sql(self) -> str:
        """The opportunity predicate as SQL."""
        return self.opportunity.sql

    @property
    def success_sql(self) -> str:
        """The success predicate as SQL (counted among the opportunities)."""
        return self.success.sql


def _t(name: str, game: str, description: str, opportunity: Pred, success: Pred,
       source: str = "decisions") -> Tendency:
    return Tendency(f"{game}.{name}", game, description, opportunity, success, source)


_KENG_FUNCTIONS = ("king", "queen", "jack", "duel", "small_joker", "big_joker")
KENG = (
    _t("stacks", "keng", "叠加: stacks a K or an RJ on a pending draw rather than accepting "
       "it, when it can (KENG-27)", option("stack_k", "stack_rj"), chosen("stack_k", "stack_rj")),
    _t("stacks_k", "keng", "stacks a K on a pending draw when it can (KENG-27, KENG-28)",
       option("stack_k"), chosen("stack_k")),
    _t("snatches", "keng", "抢: snatches when it holds a valid snatch, before the window "
       "closes (KENG-34 to KENG-37)", chosen("snatch", "let"), chosen("snatch")),
    _t("duels", "keng", "挑: starts a duel with an A when it can (KENG-29)", option("duel"),
       chosen("duel")),
    _t("misses_report", "keng", "忘记报告: lets the last-card report deadline pass (KENG-33)",
       chosen("report", "miss_report"), chosen("miss_report")),
    _t("names_most_held", "keng", "names, for a joker, the suit it holds most of after the "
       "play (KENG-20)", tag("named_most_held") | tag("named_other"), tag("named_most_held")),
    _t("attacks", "keng", "坑: plays a K with no draw pending when it can (KENG-24)",
       option("king"), chosen("king")),
    _t("attacks_low", "keng", "attacks (K or RJ) the next seat when it holds two cards or "
       "fewer, when it can (KENG-24, KENG-26)", option("king", "big_joker") & tag("next_low"),
       chosen("king", "big_joker")),
    _t("keeps_functions", "keng", "plays a number card when it could play a function card "
       "instead (KENG-4, KENG-17)", option("number") & option(*_KENG_FUNCTIONS), chosen("number")),
    _t("plays_after_draw", "keng", "plays after drawing two rather than passing, when it can "
       "(KENG-12)", option("pass") & option("number", *_KENG_FUNCTIONS), ~chosen("pass")),
    _t("duel_aces", "keng", "变色: plays an A in a duel when it could play a number card "
       "(KENG-30)", option("duel_ace") & option("duel_number"), chosen("duel_ace")),
    _t("goes_out", "keng", "decides the game by going out (KENG-46, KENG-49)", ALWAYS,
       reason("out") & DECIDER, "results"),
    _t("over_limit", "keng", "loses the game for its team by going over the hand limit "
       "(KENG-47)", ALWAYS, reason("over_limit") & DECIDER, "results"),
)
GOUJI = (
    _t("answers_opposite", "gouji", "answers its opposite's 够级 play when it can "
       "(GJ-19, GJ-20)", relation("opposite") & tag("top_gouji") & option("answer"),
       chosen("answer")),
    _t("yields", "gouji", "让牌: yields its opposite's play when allowed (GJ-26)",
       option("rang"), chosen("rang")),
    _t("burns", "gouji", "烧牌: burns another's 够级 play when licensed and able (GJ-39)",
       option("burn"), chosen("burn")),
    _t("opens", "gouji", "开点: leads natural 4s after its pure 够级 play stood, when it can "
       "(GJ-36)", option("kaidian"), chosen("kaidian")),
    _t("first", "gouji", "goes out first, as 头客 (GJ-31)", ALWAYS, place(1), "results"),
    _t("last", "gouji", "ends as 拉客, last or judged (GJ-31, GJ-45)", ALWAYS, place(6),
       "results"),
    _t("leads_gouji", "gouji", "leads a 够级 play when it could lead an ordinary one (GJ-19)",
       option("lead_gouji") & option("lead"), chosen("lead_gouji")),
    _t("relieves", "gouji", "解烧: answers the burner opposite when it can (GJ-41)",
       relation("opposite") & tag("top_burner") & option("answer"), chosen("answer")),
    _t("covers_teammate", "gouji", "beats a teammate's play when it can (GJ-22)",
       relation("teammate") & option("answer", "burn"), chosen("answer", "burn")),
    _t("answers_ordinary", "gouji", "answers an ordinary (not 够级) play when it can (GJ-22)",
       option("answer") & ~tag("top_gouji"), chosen("answer")),
    _t("false_burns", "gouji", "诈烧: leads without a joker while burning (GJ-40, GJ-43)",
       option("false_burn"), chosen("false_burn")),
    _t("agrees", "gouji", "和点: agrees its opposite's 宣点 (GJ-38)", chosen("agree", "refuse"),
       chosen("agree")),
)
MDS = (
    _t("feints", "modaoshuang", "诈摸: draws while holding the round suit (MDS-21)",
       option("feint"), chosen("feint")),
    _t("plays_joker", "modaoshuang", "plays a joker (百搭) when it may (MDS-3, MDS-19)",
       option("joker"), chosen("joker")),
    _t("reports", "modaoshuang", "报双: reports two cards left before the deadline (MDS-22)",
       chosen("report", "miss_report"), chosen("report")),
    _t("dianpao", "modaoshuang", "点炮: is the loser who let the winner go out (MDS-35)",
       outcome("loss"), DIANPAO, "results"),
    _t("violates_joker", "modaoshuang", "plays a joker against its limits (MDS-19, MDS-20) "
       "when it could", option("joker_violation"), chosen("joker_violation")),
    _t("gives", "modaoshuang", "罚: gives a card to a missed report's offender (MDS-25)",
       option("gift"), chosen("gift")),
    _t("dumps_final", "modaoshuang", "plays a card in the final round when it can (MDS-34)",
       phase("final") & option("follow"), chosen("follow")),
    _t("tops", "modaoshuang", "plays above the table's highest card when it can (MDS-13)",
       tag("could_top"), tag("tops")),
    _t("draws_for_joker", "modaoshuang", "先摸: draws rather than plays its joker when lacking "
       "the suit (MDS-17)", option("draw") & option("joker"), chosen("draw")),
    _t("keeps_joker", "modaoshuang", "收到爽: does not play (collects) rather than play its "
       "joker when lacking the suit (MDS-29, MDS-30)",
       phase("shou") & option("no_play") & option("joker"), chosen("no_play")),
    _t("wins", "modaoshuang", "goes out first and wins (MDS-33)", ALWAYS, place(1), "results"),
)
CATALOG: tuple[Tendency, ...] = KENG + GOUJI + MDS


def catalog(game: str | None = None) -> tuple[Tendency, ...]:
    """The tendencies of one game (or of all), in catalog order."""
    return tuple(t for t in CATALOG if game is None or t.game == game)


# ---------------------------------------------------------------- shared pieces

def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials (z = 1.96: 95%)."""
    if n <= 0:
        return math.nan, math.nan
    p, z2 = k / n, z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _f(x: float) -> str:
    return f"{x!r}::DOUBLE"


def _wilson_sql(k: str, n: str, z: float = Z95) -> tuple[str, str]:
    """SQL of the Wilson bounds (the operations of ``wilson``, in the same order)."""
    z2 = z * z
    p = f"({k}::DOUBLE / {n}::DOUBLE)"
    denom = f"({_f(1.0)} + {_f(z2)} / {n}::DOUBLE)"
    centre = f"(({p} + {_f(z2)} / ({_f(2.0)} * {n}::DOUBLE)) / {denom})"
    half = (f"({_f(z)} * sqrt({p} * ({_f(1.0)} - {p}) / {n}::DOUBLE + {_f(z2)} / "
            f"({_f(4.0)} * {n}::DOUBLE * {n}::DOUBLE)) / {denom})")
    return f"greatest({_f(0.0)}, {centre} - {half})", f"least({_f(1.0)}, {centre} + {half})"


def _wilson_pl(k: str, n: str, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
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


def opposite_pairs() -> list[tuple[str, int, int, int]]:
    """(game, seats, seat, opposite seat) for every registered game and seat count up to
    MAX_SEATS where the game has an opposite (its decisions module's ``opposite_seat``)."""
    out = []
    for game in sorted(GAMES):
        opp = decisions_module(game).opposite_seat
        for n in range(2, MAX_SEATS + 1):
            out += [(game, n, seat, opp(seat, n)) for seat in range(n) if opp(seat, n) >= 0]
    return out


def _opposites_sql() -> str:
    rows = opposite_pairs() or [("", 0, -1, -1)]
    values = ", ".join(f"({_word(g)}, {n}, {a}, {b})" for g, n, a, b in rows)
    return f"SELECT * FROM (VALUES {values}) AS o(game, seats, seat, other)"


def _games(game: str | None) -> tuple[Tendency, ...]:
    found = catalog(game)
    if game is not None and not found:
        raise ValueError(f"no tendencies for game {game!r}; known: "
                         f"{', '.join(sorted({t.game for t in CATALOG}))}")
    return found


# ---------------------------------------------------------------- DuckDB

def _counts_sql(tendencies: Sequence[Tendency], group: str | None = None) -> str:
    """One UNION ALL of per-tendency counts: ord, tendency, game, player_id[, grp], n, k."""
    parts = []
    g = f", {group} AS grp" if group else ""
    for i, t in enumerate(tendencies):
        src = "decisions" if t.source == "decisions" else "results"
        parts.append(
            f"SELECT {i} AS ord, '{t.name}' AS tendency, '{t.game}' AS game, player_id{g}, "
            f"count(*) FILTER (WHERE {t.opportunity.sql})::BIGINT AS n, "
            f"count(*) FILTER (WHERE {t.opportunity.sql} AND {t.success.sql})::BIGINT AS k "
            f"FROM {src} WHERE game = '{t.game}' GROUP BY ALL")
    return "\nUNION ALL\n".join(parts)


def player_tendencies(con: duckdb.DuckDBPyConnection, player: str, game: str | None = None,
                      min_opportunities: int = MIN_OPPORTUNITIES) -> pa.Table:
    """One player's tendencies (of one game, or every game): game, tendency, n, k, rate,
    low, high (Wilson 95%), population_rate, percentile (among the players with at least
    ``min_opportunities``; null below it), qualified (how many such players); rows where the
    player had an opportunity, in catalog order."""
    ts = _games(game)
    low, high = _wilson_sql("m.k", "m.n")
    sql = f"""WITH results AS ({RESULTS_SQL}),
counts AS ({_counts_sql(ts)}),
rated AS (SELECT *, CASE WHEN n > 0 THEN k::DOUBLE / n::DOUBLE END AS rate FROM counts),
pop AS (SELECT ord, sum(k)::DOUBLE / sum(n)::DOUBLE AS population_rate FROM counts
        GROUP BY ord HAVING sum(n) > 0),
mine AS (SELECT * FROM rated WHERE player_id = ? AND n > 0),
ranks AS (SELECT m.ord, count(q.rate)::BIGINT AS qualified,
                 count(*) FILTER (WHERE q.rate < m.rate)::BIGINT AS below,
                 count(*) FILTER (WHERE q.rate = m.rate)::BIGINT AS equal
          FROM mine m LEFT JOIN rated q ON q.ord = m.ord AND q.n >= ? GROUP BY m.ord)
SELECT m.game, m.tendency, m.n, m.k, m.rate, {low} AS low, {high} AS high, p.population_rate,
       CASE WHEN m.n >= ? THEN {_f(100.0)} * (r.below::DOUBLE + {_f(0.5)} * r.equal::DOUBLE)
            / r.qualified::DOUBLE END AS percentile, r.qualified
FROM mine m JOIN pop p ON p.ord = m.ord JOIN ranks r ON r.ord = m.ord ORDER BY m.ord"""
    return con.sql(sql, params=[str(player), int(min_opportunities),
                                int(min_opportunities)]).to_arrow_table()


def _dimension_sql(by: str) -> tuple[str, str]:
    """(join, group expression) that split a source row ``r`` by a dimension of ``BY``."""
    if by == "relation":
        return "", "r.top_relation"
    if by == "side":
        return "", "r.side"
    if by == "teammate":
        return ("JOIN seats s2 ON s2.game_id = r.game_id AND s2.side = r.side "
                "AND s2.seat <> r.seat", "s2.player_id")
    if by == "opposite":
        return ("JOIN games g2 ON g2.game_id = r.game_id "
                f"JOIN ({_opposites_sql()}) o ON o.game = r.game AND o.seats = g2.seats "
                "AND o.seat = r.seat JOIN seats s2 ON s2.game_id = r.game_id "
                "AND s2.seat = o.other", "s2.player_id")
    raise ValueError(f"by must be one of {', '.join(BY)}, not {by!r}")


def tendencies_by(con: duckdb.DuckDBPyConnection, player: str, game: str | None = None,
                  by: str = "relation") -> pa.Table:
    """One player's tendencies split by a dimension (``BY``): the top play's relation
    (none/self/teammate/opposite/opponent), the player's side, each teammate, each opposite
    (对门) player: game, tendency, grp, n, k, rate, low, high; groups with n > 0, in
    catalog order then group. Results-based tendencies have no top play and are left out of
    the relation split."""
    join, grp = _dimension_sql(by)
    ts = [t for t in _games(game) if not (by == "relation" and t.source == "results")]
    parts = []
    for i, t in enumerate(ts):
        src = "decisions" if t.source == "decisions" else "results"
        parts.append(
            f"SELECT {i} AS ord, '{t.name}' AS tendency, '{t.game}' AS game, {grp} AS grp, "
            f"count(*) FILTER (WHERE r._o)::BIGINT AS n, "
            f"count(*) FILTER (WHERE r._o AND r._s)::BIGINT AS k "
            f"FROM (SELECT *, {t.opportunity.sql} AS _o, {t.success.sql} AS _s FROM {src} "
            f"WHERE game = '{t.game}' AND player_id = ?) r {join} GROUP BY ALL")
    low, high = _wilson_sql("k", "n")
    sql = f"""WITH results AS ({RESULTS_SQL}),
counts AS ({' UNION ALL '.join(parts)})
SELECT game, tendency, grp, n, k, k::DOUBLE / n::DOUBLE AS rate, {low} AS low, {high} AS high
FROM counts WHERE n > 0 ORDER BY ord, grp NULLS FIRST"""
    return con.sql(sql, params=[str(player)] * len(ts)).to_arrow_table()


def tendencies_by_relation(con: duckdb.DuckDBPyConnection, player: str,
                           game: str | None = None) -> pa.Table:
    """One player's tendencies split by who made the top play: none, self, teammate,
    opposite (对门), opponent (``tendencies_by(..., by="relation")``)."""
    return tendencies_by(con, player, game, "relation")


def partnerships(con: duckdb.DuckDBPyConnection, player: str,
                 game: str | None = None) -> pa.Table:
    """How the player does with each other player as a teammate (same side) and as the
    opposite (对门 / 对头): game, partner, relation, games, wins, win_rate, low, high; by
    game, relation, games (most first), partner."""
    low, high = _wilson_sql("wins", "games")
    sql = f"""WITH me AS (
    SELECT s.game_id, g.game, g.seats, s.seat, s.side, s.result FROM seats s
    JOIN games g ON g.game_id = s.game_id WHERE s.player_id = ? AND (? IS NULL OR g.game = ?)),
pairs AS (
    SELECT me.game, s2.player_id AS partner, 'teammate' AS relation, me.result FROM me
    JOIN seats s2 ON s2.game_id = me.game_id AND s2.side = me.side AND s2.seat <> me.seat
    UNION ALL
    SELECT me.game, s2.player_id AS partner, 'opposite' AS relation, me.result FROM me
    JOIN ({_opposites_sql()}) o ON o.game = me.game AND o.seats = me.seats AND o.seat = me.seat
    JOIN seats s2 ON s2.game_id = me.game_id AND s2.seat = o.other),
counted AS (SELECT game, partner, relation, count(*)::BIGINT AS games,
                   count(*) FILTER (WHERE result = 'win')::BIGINT AS wins
            FROM pairs GROUP BY ALL)
SELECT game, partner, relation, games, wins, wins::DOUBLE / games::DOUBLE AS win_rate,
       {low} AS low, {high} AS high
FROM counted ORDER BY game, relation, games DESC, partner"""
    return con.sql(sql, params=[str(player), game, game]).to_arrow_table()


# ---------------------------------------------------------------- Polars (the same numbers)

Frames = Mapping[str, pl.LazyFrame]


def frames_from(con: duckdb.DuckDBPyConnection) -> dict[str, pl.LazyFrame]:
    """The decisions, seats and games tables of a connection as LazyFrames (over Arrow)."""
    return {name: pl.from_arrow(con.sql(f"SELECT * FROM {name}").to_arrow_table()).lazy()
            for name in ("decisions", "seats", "games")}


def results_lazy(frames: Frames) -> pl.LazyFrame:
    """The results rows (as ``RESULTS_SQL``): a seat of a game with its outcome facts."""
    js = pl.col("result").str.json_path_match
    g = frames["games"].select(
        "game_id", "game", "seats", "reason",
        js("$.deciding_seat").cast(pl.Int64, strict=False).alias("_decider"),
        js("$.dianpao").cast(pl.Int64, strict=False).alias("_dianpao"))
    seat = pl.col("seat").cast(pl.Int64)
    return (frames["seats"].select("game_id", "seat", "player_id", "side", "place", "result",
                                   "score")
            .join(g, on="game_id")
            .with_columns((pl.col("_decider") == seat).fill_null(False).alias("decider"),
                          (pl.col("_dianpao") == seat).fill_null(False).alias("dianpao"))
            .drop("_decider", "_dianpao"))


def _source(frames: Frames, t: Tendency) -> pl.LazyFrame:
    src = frames["decisions"] if t.source == "decisions" else results_lazy(frames)
    return src.filter(pl.col("game") == t.game)


def _counted(q: pl.LazyFrame, i: int, t: Tendency, keys: list[str]) -> pl.LazyFrame:
    return (q.group_by(keys)
            .agg(t.opportunity.expr.sum().cast(pl.Int64).alias("n"),
                 (t.opportunity.expr & t.success.expr).sum().cast(pl.Int64).alias("k"))
            .with_columns(pl.lit(i, pl.Int64).alias("ord"), pl.lit(t.name).alias("tendency"),
                          pl.lit(t.game).alias("game")))


def player_tendencies_lazy(frames: Frames, player: str, game: str | None = None,
                           min_opportunities: int = MIN_OPPORTUNITIES) -> pl.LazyFrame:
    """``player_tendencies`` as a Polars LazyFrame over ``frames`` (decisions, seats,
    games): the same rows and numbers."""
    ts = _games(game)
    counts = pl.concat([_counted(_source(frames, t), i, t, ["player_id"])
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
    low, high = _wilson_pl("k", "n")
    percentile = pl.when(pl.col("n") >= min_opportunities).then(
        pl.lit(100.0) * (pl.col("below").cast(pl.Float64) + pl.lit(0.5)
                         * pl.col("equal").cast(pl.Float64)) / pl.col("qualified")
        .cast(pl.Float64))
    return (mine.join(pop, on="ord").join(ranks, on="ord").sort("ord")
            .select("game", "tendency", "n", "k", "rate", low.alias("low"),
                    high.alias("high"), "population_rate", percentile.alias("percentile"),
                    "qualified"))


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
        opp = pl.LazyFrame(opposite_pairs(), schema=["game", "_nseats", "_seat", "_other"],
                           orient="row").with_columns(pl.col("_nseats", "_seat", "_other")
                                                      .cast(pl.Int64))
        nseats = frames["games"].select("game_id", pl.col("seats").cast(pl.Int64)
                                        .alias("_nseats"))
        return (q.join(nseats, on="game_id").join(opp, on=["game", "_nseats", "_seat"])
                .join(seats.drop("_side"), on=["game_id", "_other"]), "grp")
    raise ValueError(f"by must be one of {', '.join(BY)}, not {by!r}")


def tendencies_by_lazy(frames: Frames, player: str, game: str | None = None,
                       by: str = "relation") -> pl.LazyFrame:
    """``tendencies_by`` as a Polars LazyFrame: the same rows and numbers."""
    ts = [t for t in _games(game) if not (by == "relation" and t.source == "results")]
    parts = []
    for i, t in enumerate(ts):
        q = _source(frames, t).filter(pl.col("player_id") == player)
        q, grp = _split_lazy(frames, q, by)
        parts.append(_counted(q, i, t, [grp]).with_columns(pl.col(grp).cast(pl.String)))
    low, high = _wilson_pl("k", "n")
    return (pl.concat(parts, how="diagonal").filter(pl.col("n") > 0)
            .sort(["ord", "grp"], nulls_last=False)
            .select("game", "tendency", "grp", "n", "k",
                    (pl.col("k").cast(pl.Float64) / pl.col("n").cast(pl.Float64)).alias("rate"),
                    low.alias("low"), high.alias("high")))


def partnerships_lazy(frames: Frames, player: str, game: str | None = None) -> pl.LazyFrame:
    """``partnerships`` as a Polars LazyFrame: the same rows and numbers."""
    me = (frames["seats"].filter(pl.col("player_id") == player)
          .select("game_id", "seat", "side", "result")
          .join(frames["games"].select("game_id", "game", "seats"), on="game_id"))
    if game is not None:
        me = me.filter(pl.col("game") == game)
    me = me.with_columns(pl.col("seat").cast(pl.Int64).alias("_seat"),
                         pl.col("seats").cast(pl.Int64).alias("_nseats"))
    others = frames["seats"].select("game_id", pl.col("seat").cast(pl.Int64).alias("_other"),
                                    pl.col("side").alias("_side"),
                                    pl.col("player_id").alias("partner"))
    mates = (me.join(others, left_on=["game_id", "side"], right_on=["game_id", "_side"])
             .filter(pl.col("_other") != pl.col("_seat"))
             .select("game", "partner", pl.lit("teammate").alias("relation"), "result"))
    opp = pl.LazyFrame(opposite_pairs(), schema=["game", "_nseats", "_seat", "_other"],
                       orient="row").with_columns(pl.col("_nseats", "_seat", "_other")
                                                  .cast(pl.Int64))
    across = (me.join(opp, on=["game", "_nseats", "_seat"])
              .join(others.drop("_side"), on=["game_id", "_other"])
              .select("game", "partner", pl.lit("opposite").alias("relation"), "result"))
    low, high = _wilson_pl("wins", "games")
    return (pl.concat([mates, across])
            .group_by("game", "partner", "relation")
            .agg(pl.len().cast(pl.Int64).alias("games"),
                 (pl.col("result") == "win").sum().cast(pl.Int64).alias("wins"))
            .sort(["game", "relation", "games", "partner"],
                  descending=[False, False, True, False])
            .select("game", "partner", "relation", "games", "wins",
                    (pl.col("wins").cast(pl.Float64) / pl.col("games").cast(pl.Float64))
                    .alias("win_rate"), low.alias("low"), high.alias("high")))
