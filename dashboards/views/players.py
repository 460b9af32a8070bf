"""Players page: one player's record by game, seat and side (wins, losses and draws), and the
player's games with replay links."""

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
    ui.note(f"No game of player {player} in the warehouse.", "info")
    st.stop()


def _total(column: str) -> int:
    return int(record[column].sum()) if column in record.columns else 0


games, wins, losses, draws = (_total(c) for c in ("games", "wins", "losses", "draws"))
decided = wins + losses
c1, c2, c3, c4, c5 = st.columns(5)
c1.metric("games", f"{games:,}")
c2.metric("wins", f"{wins:,}")
c3.metric("losses", f"{losses:,}")
c4.metric("draws", f"{draws:,}")
c5.metric("win rate (decided games)", f"{wins / decided:.0%}" if decided else "–",
          help="wins / (wins + losses): a draw counts neither way")
st.subheader("Record by game, seat and side")
st.dataframe(record, hide_index=True, width="stretch")

tendencies = pl.from_arrow(ui.load(data.gouji_tendencies, player))
if not tendencies.is_empty():
    st.subheader("How this player plays 够级")
    row = tendencies.row(0, named=True)
    t1, t2, t3, t4 = st.columns(4)
    t1.metric("mean points", f"{row['mean_points']:+.2f}")
    t2.metric("头客 (1st)", f"{row['first_rate']:.0%}")
    t3.metric("拉客 (6th)", f"{row['last_rate']:.0%}")
    t4.metric("burns won / started", f"{row['burns_won']} / {row['burns']}")
    st.caption("Per game: plays, 够级 plays (only the opposite may answer, GJ-19), passes, "
               "让牌 (GJ-26), 烧牌 (GJ-39), 开点/和点 (GJ-36–38), 闷 (GJ-44), 诈烧 (GJ-43).")
    st.dataframe(tendencies.drop("player_id"), hide_index=True, width="stretch")

st.subheader("Games")
listed = pl.from_arrow(ui.load(data.find_games, player, 500)).with_columns(
    pl.struct("winning_side", "winners").map_elements(
        lambda r: ui.result_label(r["winning_side"], r["winners"]),
        return_dtype=pl.String).alias("result"),
    pl.col("game_id").map_elements(lambda g: f"./replay?game={quote(g)}",
                                   return_dtype=pl.String).alias("replay"))
ui.note(f"The latest {listed.height} games whose id or players match {player}.", "caption")
st.dataframe(listed, hide_index=True, width="stretch",
             column_config={"replay": st.column_config.LinkColumn("replay", display_text="open")})
