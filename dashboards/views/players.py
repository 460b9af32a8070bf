"""Players page: one player's record by game, seat and team, and the player's games with replay links."""

from __future__ import annotations

from urllib.parse import quote

import polars as pl
import streamlit as st

from dashboards import data, ui

st.title("Players")
ui.require_warehouse()
if "pl_player" not in st.session_state:
    st.session_state["pl_player"] = st.query_params.get("player", "")
player = st.text_input("Player id", key="pl_player", placeholder="e.g. player-07").strip()
if st.query_params.get("player", "") != player:
    st.query_params["player"] = player
if not player:
    st.caption("Type a player id to see the player's record and games; the replay page's "
               "search also finds games by player.")
    st.stop()

record = pl.from_arrow(ui.load(data.player_results, player))
if record.is_empty():
    st.info(f"No game of player `{player}` in the warehouse.")
    st.stop()
games = int(record["games"].sum()) if "games" in record.columns else record.height
wins = int(record["wins"].sum()) if "wins" in record.columns else 0
c1, c2, c3 = st.columns(3)
c1.metric("games", f"{games:,}")
c2.metric("wins", f"{wins:,}")
c3.metric("win rate", f"{wins / games:.0%}" if games else "–")
st.subheader("Record by game, seat and team")
st.dataframe(record, hide_index=True, width="stretch")

st.subheader("Games")
listed = pl.from_arrow(ui.load(data.find_games, player, 500)).with_columns(
    pl.col("game_id").map_elements(lambda g: f"./replay?game={quote(g)}",
                                   return_dtype=pl.String).alias("replay"))
st.caption(f"The latest {listed.height} games whose id or players match `{player}`.")
st.dataframe(listed, hide_index=True, width="stretch",
             column_config={"replay": st.column_config.LinkColumn("replay", display_text="open")})
