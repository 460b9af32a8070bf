"""Compare page: two players side by side — each one's record per game type in the game's
words (headline rate with n and interval, net score, score per game with its interval), their
games together (as partners, as opponents, at one table of a game without sides: wins each and
the score that flowed), and every tendency of the games both played with both rates and both
intervals against the population's (a chart and a table; "differ" where the intervals do not
overlap). The two players live in the URL (``?a=…&b=…``). Player ids are untrusted: they reach
the page only in data frames, chart data and ``ui.note``."""

from __future__ import annotations

from typing import Any

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, ui
from dashboards import profile_data as pd_
from warehouse.compare import side_by_side
from warehouse.records import with_headline

ss = st.session_state
PERCENT = st.column_config.NumberColumn(format="percent")


def pick_players() -> tuple[str, str]:
    """The two player inputs, filled from the URL once and written back to it."""
    if "cmp_loaded" not in ss:
        ss["cmp_a"] = (st.query_params.get("a") or "")[:200]
        ss["cmp_b"] = (st.query_params.get("b") or "")[:200]
        ss["cmp_loaded"] = True
    c1, c2 = st.columns(2)
    a = c1.text_input("Player A", key="cmp_a", placeholder="e.g. player-07").strip()
    b = c2.text_input("Player B", key="cmp_b", placeholder="e.g. player-12").strip()
    want = {k: v for k, v in (("a", a), ("b", b)) if v}
    if dict(st.query_params) != want:
        st.query_params.from_dict(want)
    return a, b


def records(a: str, b: str) -> list[dict[str, Any]]:
    """Both players' records per game type with the headline rate and the score interval."""
    rows = []
    for who, player in (("A", a), ("B", b)):
        for r in ui.load(data.players_list, None, "", player).to_pylist():
            rows.append({"who": who, **with_headline(r)})
    return rows


def record_table(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """The records as a frame: per game type, A's row then B's."""
    out = [{"game": ui.game_label(r["game"]), "player": f"{r['who']}: {r['player_id']}",
            "games": r["games"], "wins": r["wins"], "losses": r["losses"],
            "draws": r["draws"], "rate is": r["rate_name"], "rate": r["rate"],
            "n": r["rate_n"], "95% interval": ui.interval_text(r["rate_low"], r["rate_high"]),
            "net score": r["score"], "per game": r["score_mean"],
            "per game, 95%": ui.interval_text(r["score_low"], r["score_high"], False)}
           for r in sorted(rows, key=lambda r: (r["game"], r["who"]))]
    return pl.DataFrame(out, schema_overrides={"rate": pl.Float64, "per game": pl.Float64})


def tendency_frame(a: str, b: str, game: str) -> pl.DataFrame:
    """Every tendency of a game with either player's opportunity: both rates, n and intervals,
    the population's rate, and whether the intervals are apart (``warehouse.compare``)."""
    rows = [ui.load(pd_.player_tendencies, p, game).to_pylist() for p in (a, b)]
    schema: dict[str, Any] = {"tendency": pl.String, "population_rate": pl.Float64}
    for who in ("A", "B"):
        schema |= {f"{who} k": pl.Int64, f"{who} n": pl.Int64, f"{who} rate": pl.Float64,
                   f"{who} low": pl.Float64, f"{who} high": pl.Float64}
    return pl.DataFrame(side_by_side(*rows), schema=schema | {"apart": pl.Boolean})


def tendency_chart(frame: pl.DataFrame, game: str) -> alt.LayerChart:
    """Both players' rates (points) with their intervals (rules), the population (tick)."""
    long = pl.concat([frame.select(
        "tendency", pl.lit(who).alias("player"), pl.col(f"{who} rate").alias("rate"),
        pl.col(f"{who} low").alias("low"), pl.col(f"{who} high").alias("high"),
        pl.col(f"{who} n").alias("n"), "population_rate") for who in ("A", "B")])
    base = alt.Chart(long.drop_nulls("rate").to_pandas()).encode(
        y=alt.Y("tendency:N", title=None, axis=alt.Axis(labelLimit=240)),
        yOffset=alt.YOffset("player:N"), color=alt.Color("player:N", title=None))
    x = alt.X("low:Q", title="rate (point), 95% interval (rule), population (tick)",
              scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%"))
    rule = base.mark_rule(strokeWidth=2).encode(x=x, x2="high:Q")
    point = base.mark_point(filled=True, size=60).encode(
        x="rate:Q", tooltip=["player:N", "tendency:N", alt.Tooltip("rate:Q", format=".1%"),
                             "n:Q", alt.Tooltip("low:Q", format=".1%"),
                             alt.Tooltip("high:Q", format=".1%")])
    pop = alt.Chart(frame.select("tendency", "population_rate").to_pandas()).mark_tick(
        color="#d62728", thickness=2, size=22).encode(
        y="tendency:N", x="population_rate:Q",
        tooltip=[alt.Tooltip("population_rate:Q", format=".1%")])
    return alt.layer(rule, point, pop).properties(
        title=f"tendencies · {game}", height=alt.Step(34))


def head_to_head_section(a: str, b: str) -> None:
    """Their games together per game type and relation."""
    st.subheader("Together")
    h2h = pl.from_arrow(ui.load(data.head_to_head, a, b))
    if h2h.is_empty():
        ui.note("The two players never sat at one table.", "caption")
        return
    st.caption("The games both played, per game type and relation: as partners (one side), as "
               "opponents (different sides) or at one table of a game without sides. A's win "
               "rate with its 95% interval; the score each took from those games.")
    st.dataframe(h2h.with_columns(
        pl.col("game").map_elements(ui.game_label, return_dtype=pl.String),
        pl.struct("low", "high").map_elements(lambda r: ui.interval_text(r["low"], r["high"]),
                                              return_dtype=pl.String).alias("A's 95%"),
    ).drop("low", "high").rename({"a_wins": "A won", "b_wins": "B won", "both_won": "both won",
                                  "a_score": "A's score", "b_score": "B's score",
                                  "rate": "A's win rate"}),
        hide_index=True, width="stretch", column_config={"A's win rate": PERCENT})


def tendencies_section(a: str, b: str, games: list[str]) -> None:
    """Per game both played: the tendencies side by side."""
    st.subheader("Tendencies")
    st.caption("Per tendency of each game both played (docs/decisions.md): both rates with n "
               "and 95% Wilson intervals, the population's rate; 'apart' when the intervals do "
               "not overlap.")
    catalog = set(pd_.tendency_games())
    for game in games:
        if game not in catalog:
            continue
        frame = tendency_frame(a, b, game)
        st.markdown(f"#### {ui.game_label(game)}")
        if frame.is_empty():
            st.caption("Neither player had an opportunity for a tendency of this game.")
            continue
        st.altair_chart(tendency_chart(frame, game), width="stretch")
        st.dataframe(frame.drop("A low", "A high", "B low", "B high"), hide_index=True,
                     width="stretch", key=f"cmp_tend_{game}",
                     column_config={"A rate": PERCENT, "B rate": PERCENT,
                                    "population_rate": st.column_config.NumberColumn(
                                        "population rate", format="percent")})


def main() -> None:
    """Draw the page."""
    st.title("Compare players")
    ui.require_warehouse()
    a, b = pick_players()
    if not a or not b:
        ui.note("Type two player ids to compare them (the Players page lists them).", "info")
        st.stop()
    if a == b:
        ui.note("Choose two different players.", "info")
        st.stop()
    rows = records(a, b)
    missing = [p for who, p in (("A", a), ("B", b)) if not any(r["who"] == who for r in rows)]
    if missing:
        ui.note(f"No game of player {missing[0]} in the warehouse.", "warning")
        st.stop()
    st.subheader("Records")
    st.caption("Per game type, in the game's words (never pooled across unlike games).")
    st.dataframe(record_table(rows), hide_index=True, width="stretch",
                 column_config={"rate": PERCENT,
                                "per game": st.column_config.NumberColumn(format="%+.2f")})
    head_to_head_section(a, b)
    both = sorted({r["game"] for r in rows if r["who"] == "A"}
                  & {r["game"] for r in rows if r["who"] == "B"})
    tendencies_section(a, b, both)


main()
