"""Overview page: warehouse totals, the games in progress at a recording service (when the
dashboard was given its data folder), games by type, results by side (a draw is a draw),
the latest games of each type. Game types are shown by their names ('<title> (<id>)')."""

from __future__ import annotations

from urllib.parse import quote

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, ui
from dashboards.live import live_folder, live_games

st.title("liujia · overview")
totals = ui.require_warehouse()

c1, c2, c3, c4 = st.columns(4)
c1.metric("games", f"{totals.get('games', 0):,}")
c2.metric("events", f"{totals.get('events', 0):,}")
c3.metric("players", f"{totals.get('players', 0):,}")
c4.metric("quarantined", f"{totals.get('quarantined', 0):,}")

live = live_folder()
if live is not None:                 # a recording service's open games (liujia serve --live)
    st.subheader("Games in progress")
    open_games = live_games(live)
    if open_games:
        st.dataframe(pl.DataFrame(open_games), hide_index=True, width="stretch")
    else:
        ui.note(f"No game is in progress at the recording service ({live}).", "caption")

if not totals.get("games"):
    ui.note(f"The warehouse is empty. {ui.HOW_TO_FILL}", "info")
    st.stop()

PER_TYPE = 5        # latest games listed of each game type


def named(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with its game column as people know the game ('<title> (<id>)')."""
    return frame.with_columns(pl.col("game").map_elements(ui.game_label, return_dtype=pl.String))


st.subheader("Games by type")
st.dataframe(named(pl.from_arrow(ui.load(data.games_by_type))), hide_index=True, width="stretch")
st.subheader("Results")
results = named(pl.from_arrow(ui.load(data.results_by_side))).with_columns(
    pl.col("outcome").map_elements(ui.outcome_label, return_dtype=pl.String,
                                   skip_nulls=False).alias("result"))
# the whole width, and the legend in rows under the chart with whole names, so that every
# game type's name shows (one row of long names ran off the page)
st.altair_chart(alt.Chart(results.select("game", "result", "games").to_pandas())
                .mark_bar().encode(
                    x=alt.X("sum(games):Q", title="games"),
                    y=alt.Y("result:N", title=None),
                    color=alt.Color("game:N", title=None, legend=alt.Legend(
                        orient="bottom", columns=3, labelLimit=0)),
                    tooltip=["game:N", "result:N", "games:Q"])
                .properties(padding={"left": 16, "top": 4, "right": 4, "bottom": 4}),
                width="stretch")
st.dataframe(results.select("game", "result", "outcome", "games"), hide_index=True,
             width="stretch")

st.subheader("Recent games")
st.caption(f"The latest {PER_TYPE} games of each type. Select a row to open it in the replay "
           "page.")
recent = named(pl.from_arrow(ui.load(data.recent_by_type, PER_TYPE)))
recent = recent.with_columns(
    pl.struct("winning_side", "winners").map_elements(
        lambda r: ui.result_label(r["winning_side"], r["winners"]),
        return_dtype=pl.String).alias("result"),
    pl.col("game_id").map_elements(lambda g: f"./replay?game={quote(g)}",
                                   return_dtype=pl.String).alias("replay"))
picked = st.dataframe(
    recent, hide_index=True, width="stretch", key="ov_recent", on_select="rerun",
    selection_mode="single-row",
    column_config={"replay": st.column_config.LinkColumn("replay", display_text="open")},
)
rows = picked.selection.rows if picked is not None else []
if rows:
    st.switch_page("views/replay.py", query_params={"game": recent["game_id"][rows[0]]})
