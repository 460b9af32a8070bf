"""How people play: the ``decisions`` table, a catalog of named tendencies per game, and the
per-player figures over it in DuckDB SQL (here) and, the same numbers, in Polars lazy frames
(``warehouse.tendencies_lazy``); docs/decisions.md.

A tendency is an *opportunity* predicate (the rows where it could happen) and a *success*
predicate over the rows of ``decisions`` (derived from the engine at ingest:
``engine.decisions``) or, for outcomes such as going out as 头客, over ``results`` (one row per
seat of a game, from ``seats`` and ``games``). Each predicate is written once as a ``Pred``,
SQL text and Polars expression side by side. Per player and tendency: n (opportunities),
k (successes), the rate, its 95% Wilson interval, the population rate (all players pooled) and
the player's percentile among players with at least ``MIN_OPPORTUNITIES`` opportunities (none
when fewer than ``MIN_QUALIFIED`` players qualify: "p83 of 3" says nothing). A
``Scope`` (a date range, a seat, "before game X") limits every figure to a slice of the
warehouse; ``as_of`` gives each seat of a game its player's key tendencies before that game.
Only code writes SQL text here; the player, the game and the scope reach the queries as
parameters.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, NamedTuple

import duckdb
import polars as pl
import pyarrow as pa

from engine.decisions import decisions_module
from engine.games import GAMES

MIN_OPPORTUNITIES = 20
MIN_QUALIFIED = 10      # a percentile needs this many qualified players to rank among
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
    # an OR of list_contains: the same rows as list_has_any, about ten times faster in DuckDB
    either = " OR ".join(f"list_contains(options, {_word(c)})" for c in categories)
    return Pred(f"({either})", expr)


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
LIUHU = (
    _t("claims_hu", "liuhu", "claims 胡 on a discard or a 加杠 when it may (LH-27, LH-29)",
       option("hu"), chosen("hu")),
    _t("passes_hu", "liuhu", "passes a possible 胡 (LH-30)", option("hu"), chosen("pass")),
    _t("zimo", "liuhu", "declares 自摸 when it may (LH-28)", option("zimo"), chosen("zimo")),
    _t("pengs", "liuhu", "碰: claims a discard's triplet when it may (LH-20)",
       option("peng") & ~option("hu"), chosen("peng")),
    _t("chis", "liuhu", "吃: takes the previous player's discard into a sequence when it may "
       "(LH-26)", option("chi") & ~option("hu", "peng"), chosen("chi")),
    _t("gangs", "liuhu", "杠: claims a discard's kong when it may (LH-21)", option("gang"),
       chosen("gang")),
    _t("an_gangs", "liuhu", "declares a 暗杠 when it may (LH-23)", option("an_gang"),
       chosen("an_gang")),
    _t("jia_gangs", "liuhu", "declares a 加杠 when it may (LH-22)", option("jia_gang"),
       chosen("jia_gang")),
    _t("discards_drawn", "liuhu", "discards the card just drawn rather than declare (LH-14, "
       "LH-16)", chosen("discard"), tag("just_drawn")),
    _t("wins", "liuhu", "wins the hand (LH-27 … LH-29, LH-59)", ALWAYS, outcome("win"),
       "results"),
)
DDZ6_GAMES = ("ddz6_3v3", "ddz6_2v4", "ddz6_zhengfan")


def _side(word: str) -> Pred:
    """The seat's side (as it knew it, in a decisions row; in results, the final one)."""
    return Pred(f"side = {_word(word)}", pl.col("side") == word)


_DDZ_BEAT = option("play", "bomb")


def _ddz6(game: str) -> tuple[Tendency, ...]:
    """六人斗地主: one catalog per variant, each with the choices its variant has (bidding in
    3v3 and 2v4, doubling in 3v3, show hand in the 4-deck variants, side choosing in
    zhengfan) and the play tendencies all three share."""
    variant = game.removeprefix("ddz6_")
    out: list[Tendency] = []
    if variant in ("3v3", "2v4"):
        out.append(_t("bids", game, "叫分: bids rather than passes when it may bid (DDZ-14)",
                      option("bid"), chosen("bid")))
    if variant == "3v3":
        out += [
            _t("doubles", game, "加倍: doubles when it may (DDZ-37)", option("double"),
               chosen("double")),
            _t("doubles_as_farmer", game, "加倍: doubles as a farmer (DDZ-37)",
               option("double") & _side("farmer"), chosen("double")),
        ]
    else:
        out.append(_t("shows", game, "明牌: shows its hand as a landlord when it may "
                      "(DDZ-38, DDZ-39)", option("show"), chosen("show")))
    if variant == "zhengfan":
        out.append(_t("joins_fan", game, "站隊: a farmer joins the 反 (dark-mark) landlord "
                      "rather than the 正 (DDZ-35)", option("fan"), chosen("fan")))
    out += [
        _t("bombs", game, "plays a bomb on another's play when it holds one that beats it "
           "(DDZ-42)", ~tag("lead") & option("bomb"), chosen("bomb")),
        _t("bombs_when_only_bomb", game, "bombs when only a bomb beats the top play rather "
           "than passing (DDZ-42, DDZ-73)", option("bomb") & option("pass") & ~option("play"),
           chosen("bomb")),
        _t("leads_bomb", game, "leads a bomb when it holds one rather than an ordinary play "
           "(DDZ-42, DDZ-72)", tag("lead") & option("bomb"), chosen("bomb")),
        _t("lets_partner_run", game, "does not beat its own side's top play when it could "
           "(DDZ-72, DDZ-73)", tag("partner_top") & _DDZ_BEAT, chosen("pass")),
        _t("contests", game, "beats an opponent's play when it can (DDZ-41, DDZ-42)",
           relation("opponent") & _DDZ_BEAT, chosen("play", "bomb")),
        _t("stops_foe_low", game, "beats an opponent's play when an opponent holds three "
           "cards or fewer, when it can (DDZ-41, DDZ-76)",
           relation("opponent") & tag("foe_low") & _DDZ_BEAT, chosen("play", "bomb")),
    ]
    if variant == "zhengfan":
        out += [
            _t("wins", game, "ends the hand on the winning side (DDZ-76, DDZ-89)", ALWAYS,
               outcome("win"), "results"),
            _t("wins_fan", game, "wins on the 反 side (DDZ-32, DDZ-76)", _side("fan"),
               outcome("win"), "results"),
        ]
    else:
        out += [
            _t("wins_as_landlord", game, "wins as a landlord (DDZ-76, DDZ-84, DDZ-88)",
               _side("landlord"), outcome("win"), "results"),
            _t("wins_as_farmer", game, "wins as a farmer (DDZ-76, DDZ-84, DDZ-88)",
               _side("farmer"), outcome("win"), "results"),
        ]
    return tuple(out)


DDZ6 = tuple(t for game in DDZ6_GAMES for t in _ddz6(game))
CATALOG: tuple[Tendency, ...] = KENG + GOUJI + MDS + DDZ6 + LIUHU


def catalog(game: str | None = None) -> tuple[Tendency, ...]:
    """The tendencies of one game (or of all), in catalog order."""
    return tuple(t for t in CATALOG if game is None or t.game == game)


# The tendencies the replay page shows for each seat "as of" a game (``as_of``): per game the
# few a strong player glances at before playing someone.
KEY_TENDENCIES: dict[str, tuple[str, ...]] = {
    "keng": ("keng.stacks", "keng.snatches", "keng.attacks_low"),
    "gouji": ("gouji.answers_opposite", "gouji.burns", "gouji.first"),
    "modaoshuang": ("modaoshuang.feints", "modaoshuang.reports", "modaoshuang.plays_joker"),
    "ddz6_3v3": ("ddz6_3v3.bids", "ddz6_3v3.doubles", "ddz6_3v3.bombs"),
    "ddz6_2v4": ("ddz6_2v4.bids", "ddz6_2v4.shows", "ddz6_2v4.bombs"),
    "ddz6_zhengfan": ("ddz6_zhengfan.shows", "ddz6_zhengfan.joins_fan", "ddz6_zhengfan.bombs"),
    "liuhu": ("liuhu.claims_hu", "liuhu.pengs", "liuhu.chis"),
}


# ---------------------------------------------------------------- the scope

@dataclass(frozen=True)
class Scope:
    """Which games count: those started in [since, until], the rows at one seat, the games
    that started strictly before one game (by start, then game id). None: no limit.

    ``since`` and ``until`` are dates (whole days, UTC) or datetimes (to the microsecond;
    naive ones are UTC). A scope limits the whole slice of the warehouse a figure is computed
    on — the player's rows and the population's alike (docs/decisions.md, *Scope*)."""

    since: date | datetime | None = None
    until: date | datetime | None = None
    seat: int | None = None
    before: str | None = None

    def __post_init__(self) -> None:
        for name in ("since", "until"):
            if not isinstance(getattr(self, name), date | None):
                raise ValueError(f"{name} must be a date or datetime, not "
                                 f"{getattr(self, name)!r}")
        if self.seat is not None and (isinstance(self.seat, bool) or
                                      not isinstance(self.seat, int) or self.seat < 0):
            raise ValueError(f"seat must be a whole number >= 0, not {self.seat!r}")
        if self.before is not None and not isinstance(self.before, str):
            raise ValueError(f"before must be a game id, not {self.before!r}")

    def bounds(self) -> tuple[int | None, int | None]:
        """The date range as epoch microseconds [low, high): since's first microsecond (a
        date: its midnight, UTC) and the one after until (a date: the next midnight)."""
        return _us(self.since), None if self.until is None else _us(self.until, after=True)

    def is_all(self) -> bool:
        """True when the scope limits nothing."""
        return self == Scope()


def _us(when: date | datetime | None, after: bool = False) -> int | None:
    if when is None:
        return None
    if isinstance(when, datetime):
        moment = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
        step = timedelta(microseconds=1)
    else:
        moment, step = datetime(when.year, when.month, when.day, tzinfo=UTC), timedelta(days=1)
    if after:
        moment += step
    return (moment - EPOCH) // timedelta(microseconds=1)


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def scope_sql(scope: Scope | None, games: str = "g",
              seat: str | None = None) -> tuple[str, dict[str, Any]]:
    """The scope as one SQL condition (``true`` when it limits nothing) over the ``games``
    row aliased ``games`` and, when named, the seat column ``seat``, with its named
    parameters (``$since_us``, ``$until_us``, ``$before``, ``$seat``)."""
    if scope is None:
        return "true", {}
    conds, params = [], {}
    low, high = scope.bounds()
    if low is not None:
        conds.append(f"epoch_us({games}.started) >= $since_us")
        params["since_us"] = low
    if high is not None:
        conds.append(f"epoch_us({games}.started) < $until_us")
        params["until_us"] = high
    if scope.before is not None:
        conds.append(f"EXISTS (SELECT 1 FROM games x WHERE x.game_id = $before AND "
                     f"(x.started > {games}.started OR (x.started = {games}.started "
                     f"AND x.game_id > {games}.game_id)))")
        params["before"] = scope.before
    if scope.seat is not None and seat is not None:
        conds.append(f"{seat} = $seat")
        params["seat"] = scope.seat
    return " AND ".join(conds) or "true", params


def _sources_sql(scope: Scope | None) -> tuple[str, dict[str, Any]]:
    """The CTEs the tendency queries read, limited to the scope: ``results`` (as
    RESULTS_SQL) and ``dec`` (the decisions rows)."""
    cond, params = scope_sql(scope, "g", "s.seat")
    games_only, _ = scope_sql(None if scope is None else Scope(scope.since, scope.until,
                                                                before=scope.before), "g")
    dec = []
    if games_only != "true":
        dec.append(f"d.game_id IN (SELECT g.game_id FROM games g WHERE {games_only})")
    if scope is not None and scope.seat is not None:
        dec.append("d.seat = $seat")
    where = f" WHERE {' AND '.join(dec)}" if dec else ""
    return (f"results AS ({RESULTS_SQL} WHERE {cond}),\n"
            f"dec AS (SELECT d.* FROM decisions d{where})"), params


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


def wilson_sql(k: str, n: str, z: float = Z95) -> tuple[str, str]:
    """SQL of the Wilson bounds of the columns k and n (the operations of ``wilson``, in the
    same order); n must be > 0."""
    z2 = z * z
    p = f"({k}::DOUBLE / {n}::DOUBLE)"
    denom = f"({_f(1.0)} + {_f(z2)} / {n}::DOUBLE)"
    centre = f"(({p} + {_f(z2)} / ({_f(2.0)} * {n}::DOUBLE)) / {denom})"
    half = (f"({_f(z)} * sqrt({p} * ({_f(1.0)} - {p}) / {n}::DOUBLE + {_f(z2)} / "
            f"({_f(4.0)} * {n}::DOUBLE * {n}::DOUBLE)) / {denom})")
    return f"greatest({_f(0.0)}, {centre} - {half})", f"least({_f(1.0)}, {centre} + {half})"


_wilson_sql = wilson_sql


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


def games_of(game: str | None) -> tuple[Tendency, ...]:
    """The tendencies of one game (or all); ValueError for a game without a catalog."""
    found = catalog(game)
    if game is not None and not found:
        raise ValueError(f"no tendencies for game {game!r}; known: "
                         f"{', '.join(sorted({t.game for t in CATALOG}))}")
    return found


_games = games_of


# ---------------------------------------------------------------- DuckDB

def _counts_sql(tendencies: Sequence[Tendency]) -> str:
    """Per-tendency counts of every player: player_id, ord, tendency, game, n, k. One scan per
    source (``dec`` or ``results``) and game, every tendency of it counted in that scan, its
    counts then unnested into a row per tendency (also 0 where the player had no chance)."""
    batches: dict[tuple[str, str], list[tuple[int, Tendency]]] = {}
    for i, t in enumerate(tendencies):
        batches.setdefault(("dec" if t.source == "decisions" else "results", t.game),
                           []).append((i, t))
    parts = []
    for (src, game), items in batches.items():
        aggs = ", ".join(
            f"count(*) FILTER (WHERE {t.opportunity.sql})::BIGINT AS n{i}, "
            f"count(*) FILTER (WHERE {t.opportunity.sql} AND {t.success.sql})::BIGINT AS k{i}"
            for i, t in items)
        rows = ", ".join(f"{{'ord': {i}, 'tendency': '{t.name}', 'game': '{t.game}', "
                         f"'n': n{i}, 'k': k{i}}}" for i, t in items)
        parts.append(f"SELECT player_id, unnest([{rows}], recursive := true) FROM "
                     f"(SELECT player_id, {aggs} FROM {src} WHERE game = {_word(game)} "
                     "GROUP BY player_id)")
    return "\nUNION ALL\n".join(parts)


# ---------------------------------------------------------------- stored counts

CATALOG_META = "tendency_catalog"       # the meta key holding the catalog the counts are of
# everyone's results per game and seat, and per game and side (result_counts; the seat as text)
RESULT_COUNTS_SQL = " UNION ALL ".join(
    f"SELECT g.game, '{dim}' AS dimension, s.{dim}::VARCHAR AS grp, "
    "count(*) FILTER (WHERE s.result = 'win')::BIGINT AS wins, "
    "count(*) FILTER (WHERE s.result IN ('win', 'loss'))::BIGINT AS decided "
    "FROM seats s JOIN games g ON g.game_id = s.game_id GROUP BY ALL" for dim in ("seat", "side"))


@functools.cache
def catalog_key() -> str:
    """A fingerprint of the whole catalog (names, games, sources, predicates): stored counts
    are used only while it is the one they were written with."""
    h = hashlib.sha256(RESULT_COUNTS_SQL.encode())
    for t in catalog():
        for part in (t.name, t.game, t.source, t.opportunity.sql, t.success.sql):
            h.update(part.encode() + b"\0")
    return h.hexdigest()


def write_counts(con: duckdb.DuckDBPyConnection) -> int:
    """Recount every player's tendencies over the whole warehouse into ``tendency_counts``
    (what an unscoped profile reads instead of scanning ``decisions``) and record the
    catalog's fingerprint; the number of rows. Ingest calls it in the run's transaction."""
    sources, params = _sources_sql(None)
    con.execute("DELETE FROM tendency_counts")
    con.execute(f"INSERT INTO tendency_counts WITH {sources} SELECT game, tendency, player_id, "
                f"n, k FROM ({_counts_sql(catalog())})", params)
    con.execute("DELETE FROM result_counts")
    con.execute(f"INSERT INTO result_counts {RESULT_COUNTS_SQL}")
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [CATALOG_META, catalog_key()])
    return con.execute("SELECT count(*) FROM tendency_counts").fetchall()[0][0]


def counts_stored(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``tendency_counts`` holds the counts of this catalog (written since the last
    change of the warehouse by an ingest run of this liujia)."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [CATALOG_META]).fetchall()
    return bool(row) and row[0][0] == catalog_key()


def _stored_counts_sql(tendencies: Sequence[Tendency]) -> str:
    """``_counts_sql`` read from ``tendency_counts`` (same columns and rows)."""
    order = ", ".join(f"({i}, '{t.name}')" for i, t in enumerate(tendencies))   # our names
    return (f"SELECT c.player_id, o.ord, c.tendency, c.game, c.n, c.k FROM tendency_counts c "
            f"JOIN (VALUES {order}) o(ord, tendency) ON o.tendency = c.tendency")


def _rated_sql(tendencies: Sequence[Tendency], scope: Scope | None,
               stored: bool = False) -> tuple[str, dict]:
    """The CTEs counts (per tendency and player), rated (with the rate) and pop (the
    population rate per tendency) over the scope, and their parameters; ``stored``: the
    counts come from ``tendency_counts`` (only for a scope that limits nothing)."""
    if stored and (scope is None or scope.is_all()):
        sources, params, counts = "", {}, _stored_counts_sql(tendencies)
    else:
        sources, params = _sources_sql(scope)
        sources, counts = sources + ",\n", _counts_sql(tendencies)
    return f"""WITH {sources}
counts AS ({counts}),
rated AS (SELECT *, CASE WHEN n > 0 THEN k::DOUBLE / n::DOUBLE END AS rate FROM counts),
pop AS (SELECT ord, sum(k)::DOUBLE / sum(n)::DOUBLE AS population_rate FROM counts
        GROUP BY ord HAVING sum(n) > 0)""", params


def figures(con: duckdb.DuckDBPyConnection, players: Sequence[str],
            tendencies: Sequence[Tendency], scope: Scope | None = None,
            min_opportunities: int = MIN_OPPORTUNITIES,
            min_qualified: int = MIN_QUALIFIED) -> pa.Table:
    """The ``player_tendencies`` figures of several players at once, with a player_id column
    first; ordered by player, then the order of ``tendencies``."""
    ctes, params = _rated_sql(tendencies, scope, counts_stored(con))
    low, high = wilson_sql("m.k", "m.n")
    sql = f"""{ctes},
mine AS (SELECT * FROM rated WHERE list_contains($players::VARCHAR[], player_id) AND n > 0),
ranks AS (SELECT m.player_id, m.ord, count(q.rate)::BIGINT AS qualified,
                 count(*) FILTER (WHERE q.rate < m.rate)::BIGINT AS below,
                 count(*) FILTER (WHERE q.rate = m.rate)::BIGINT AS equal
          FROM mine m LEFT JOIN rated q ON q.ord = m.ord AND q.n >= $min
          GROUP BY m.player_id, m.ord)
SELECT m.player_id, m.game, m.tendency, m.n, m.k, m.rate, {low} AS low, {high} AS high,
       p.population_rate,
       CASE WHEN m.n >= $min AND r.qualified >= $qualified THEN {_f(100.0)} * (r.below::DOUBLE + {_f(0.5)} * r.equal::DOUBLE)
            / r.qualified::DOUBLE END AS percentile, r.qualified
FROM mine m JOIN pop p ON p.ord = m.ord JOIN ranks r ON r.ord = m.ord
     AND r.player_id = m.player_id
ORDER BY m.player_id, m.ord"""
    params |= {"players": [str(p) for p in players], "min": int(min_opportunities),
               "qualified": int(min_qualified)}
    return con.sql(sql, params=params).to_arrow_table()


def population(con: duckdb.DuckDBPyConnection, tendencies: Sequence[Tendency],
               scope: Scope | None = None) -> dict[str, float]:
    """Tendency name -> the population rate (all players pooled: sum k / sum n) over the
    scope; tendencies nobody had the chance of are left out."""
    if not tendencies:
        return {}
    ctes, params = _rated_sql(tendencies, scope, counts_stored(con))
    rows = con.sql(f"{ctes} SELECT ord, population_rate FROM pop", params=params).fetchall()
    return {tendencies[i].name: rate for i, rate in rows}


def player_tendencies(con: duckdb.DuckDBPyConnection, player: str, game: str | None = None,
                      min_opportunities: int = MIN_OPPORTUNITIES,
                      scope: Scope | None = None,
                      min_qualified: int = MIN_QUALIFIED) -> pa.Table:
    """One player's tendencies (of one game, or every game): game, tendency, n, k, rate,
    low, high (Wilson 95%), population_rate, percentile (among the players with at least
    ``min_opportunities``; null below it, and while fewer than ``min_qualified`` players have
    that many), qualified (how many such players); rows where the
    player had an opportunity, in catalog order. Every figure, the population's too, is over
    the ``scope``'s games and seat only."""
    ts = games_of(game)
    return figures(con, [player], ts, scope, min_opportunities,
                   min_qualified).drop_columns(["player_id"])


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
                  by: str = "relation", scope: Scope | None = None) -> pa.Table:
    """One player's tendencies split by a dimension (``BY``): the top play's relation
    (none/self/teammate/opposite/opponent), the player's side, each teammate, each opposite
    (对门) player: game, tendency, grp, n, k, rate, low, high; groups with n > 0, in
    catalog order then group; the player's rows of the ``scope`` only. Results-based
    tendencies have no top play and are left out of the relation split."""
    join, grp = _dimension_sql(by)
    ts = [t for t in games_of(game) if not (by == "relation" and t.source == "results")]
    parts = []
    for i, t in enumerate(ts):
        src = "dec" if t.source == "decisions" else "results"
        parts.append(
            f"SELECT {i} AS ord, '{t.name}' AS tendency, '{t.game}' AS game, {grp} AS grp, "
            f"count(*) FILTER (WHERE r._o)::BIGINT AS n, "
            f"count(*) FILTER (WHERE r._o AND r._s)::BIGINT AS k "
            f"FROM (SELECT *, {t.opportunity.sql} AS _o, {t.success.sql} AS _s FROM {src} "
            f"WHERE game = '{t.game}' AND player_id = $player) r {join} GROUP BY ALL")
    sources, params = _sources_sql(scope)
    low, high = wilson_sql("k", "n")
    sql = f"""WITH {sources},
counts AS ({' UNION ALL '.join(parts)})
SELECT game, tendency, grp, n, k, k::DOUBLE / n::DOUBLE AS rate, {low} AS low, {high} AS high
FROM counts WHERE n > 0 ORDER BY ord, grp NULLS FIRST"""
    return con.sql(sql, params=params | {"player": str(player)}).to_arrow_table()


def tendencies_by_relation(con: duckdb.DuckDBPyConnection, player: str,
                           game: str | None = None, scope: Scope | None = None) -> pa.Table:
    """One player's tendencies split by who made the top play: none, self, teammate,
    opposite (对门), opponent (``tendencies_by(..., by="relation")``)."""
    return tendencies_by(con, player, game, "relation", scope)


def partnerships(con: duckdb.DuckDBPyConnection, player: str, game: str | None = None,
                 scope: Scope | None = None, tables: Any = None) -> pa.Table:
    """How the player does with each other player as a teammate (same side) and as the
    opposite (对门 / 对头): game, partner, relation, games, wins, losses, draws, decided,
    win_rate (wins / decided: a draw counts neither way; null when none was decided), low,
    high; by game, relation, games (most first), partner; the ``scope``'s games only.
    ``tables``: the player's slice (warehouse.slices.Tables) for his own rows, or None."""
    seats, games = tables or ("seats", "games")
    cond, params = scope_sql(scope, "g", "s.seat")
    low, high = wilson_sql("wins", "decided")
    sql = f"""WITH me AS (
    SELECT s.game_id, g.game, g.seats, s.seat, s.side, s.result FROM {seats} s
    JOIN {games} g ON g.game_id = s.game_id
    WHERE s.player_id = $player AND ($game::VARCHAR IS NULL OR g.game = $game) AND {cond}),
others AS MATERIALIZED (
    SELECT me.*, s2.player_id AS partner, s2.seat AS other, s2.side AS other_side FROM me
    JOIN seats s2 ON s2.game_id = me.game_id AND s2.seat <> me.seat),
pairs AS (
    SELECT game, partner, 'teammate' AS relation, result FROM others WHERE other_side = side
    UNION ALL
    SELECT x.game, x.partner, 'opposite' AS relation, x.result FROM others x
    JOIN ({_opposites_sql()}) o ON o.game = x.game AND o.seats = x.seats AND o.seat = x.seat
         AND o.other = x.other),
counted AS (SELECT game, partner, relation, count(*)::BIGINT AS games,
                   count(*) FILTER (WHERE result = 'win')::BIGINT AS wins,
                   count(*) FILTER (WHERE result = 'loss')::BIGINT AS losses,
                   count(*) FILTER (WHERE result = 'draw')::BIGINT AS draws,
                   count(*) FILTER (WHERE result IN ('win', 'loss'))::BIGINT AS decided
            FROM pairs GROUP BY ALL)
SELECT game, partner, relation, games, wins, losses, draws, decided,
       CASE WHEN decided > 0 THEN wins::DOUBLE / decided::DOUBLE END AS win_rate,
       CASE WHEN decided > 0 THEN {low} END AS low, CASE WHEN decided > 0 THEN {high} END AS high
FROM counted ORDER BY game, relation, games DESC, partner"""
    return con.sql(sql, params=params | {"player": str(player), "game": game}).to_arrow_table()


# ---------------------------------------------------------------- as of a game

AS_OF_SCHEMA = pa.schema([
    ("seat", pa.int8()), ("player_id", pa.string()), ("games", pa.int64()),
    ("tendency", pa.string()), ("n", pa.int64()), ("k", pa.int64()), ("rate", pa.float64()),
    ("low", pa.float64()), ("high", pa.float64()), ("population_rate", pa.float64()),
    ("percentile", pa.float64()),
])


def as_of(con: duckdb.DuckDBPyConnection, game_id: str, names: Sequence[str] | None = None,
          min_opportunities: int = MIN_OPPORTUNITIES) -> pa.Table:
    """Each seat of a game with its player's key tendencies (``KEY_TENDENCIES`` of the game,
    or ``names``, in that order) from the games of that game type that started before this one only
    (``Scope(before=game_id)``; the game itself and every later one left out, the
    population's figures too): seat, player_id, games (the player's earlier games), tendency,
    n, k, rate, low, high, population_rate, percentile; a tendency the player never had the
    chance of has n = 0 and null rates. Empty for an unknown game."""
    seats = con.sql("SELECT s.seat, s.player_id, g.game FROM seats s JOIN games g "
                    "ON g.game_id = s.game_id WHERE s.game_id = $g ORDER BY s.seat",
                    params={"g": str(game_id)}).fetchall()
    if not seats:
        return AS_OF_SCHEMA.empty_table()
    game = seats[0][2]
    known = {t.name: t for t in catalog(game)}
    wanted = list(names if names is not None else KEY_TENDENCIES.get(game, ()))
    if not set(wanted) <= set(known):
        raise ValueError(f"not tendencies of {game!r}: {sorted(set(wanted) - set(known))}")
    ts = [known[name] for name in wanted]
    scope = Scope(before=str(game_id))
    players = sorted({p for _, p, _ in seats})
    cond, params = scope_sql(scope, "g")
    earlier = dict(con.sql(
        "SELECT s.player_id, count(*)::BIGINT FROM seats s JOIN games g ON g.game_id = "
        f"s.game_id WHERE g.game = $game AND list_contains($players::VARCHAR[], s.player_id) "
        f"AND {cond} GROUP BY 1", params=params | {"game": game, "players": players}
    ).fetchall())
    got = {(r["player_id"], r["tendency"]): r for r in
           (figures(con, players, ts, scope, min_opportunities).to_pylist() if ts else [])}
    pop = population(con, ts, scope)
    rows = []
    for seat, player, _ in seats:
        for t in ts:
            r = got.get((player, t.name), {})
            rows.append({"seat": seat, "player_id": player, "games": earlier.get(player, 0),
                         "tendency": t.name, "n": r.get("n", 0), "k": r.get("k", 0),
                         "population_rate": pop.get(t.name),
                         **{c: r.get(c) for c in ("rate", "low", "high", "percentile")}})
    return pa.Table.from_pylist(rows, schema=AS_OF_SCHEMA)
