"""Players page: with no player chosen, every player of the warehouse (games, wins, losses,
draws, win rate, last seen; filter by game type, search the ids, select a row to open the
profile); a player's profile: the record by game, seat and side, the tendencies of every game
played (docs/decisions.md: a table and a chart of each rate with its 95% interval against the
population), the partnerships, and the player's games with replay links. A game filter
applies to the whole profile. Player ids are untrusted: they reach the page only as plain
text (ui.note) or in data frames."""

from __future__ import annotations

from urllib.parse import quote

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, ui
from dashboards import profile_data as pd_

PERCENT = st.column_config.NumberColumn(format="percent")


def _all_games(g: str | None) -> str:
    return "all games" if g is None else g


st.title("Players")
ui.require_warehouse()
picked_player = st.session_state.pop("pl_pick", None)
if picked_player is not None:            # a row of the list was selected on the last run
    st.session_state["pl_player"] = picked_player
if "pl_player" not in st.session_state:
    st.session_state["pl_player"] = st.query_params.get("player", "")
player = st.text_input("Player id", key="pl_player", placeholder="e.g. player-07").strip()
if st.query_params.get("player", "") != player:
    st.query_params["player"] = player


# ---------------------------------------------------------------- the players list

def players_list() -> None:
    st.caption("Type a player id, or select a player in the list, to see the player's record, "
               "tendencies and games; the replay page's search also finds games by player.")
    st.subheader("All players")
    types = pl.from_arrow(ui.load(data.games_by_type))
    options = [None, *types["game"].to_list()] if not types.is_empty() else [None]
    c1, c2 = st.columns(2)
    game = c1.selectbox("Game", options, format_func=_all_games, key="pl_list_game")
    search = c2.text_input("Search player ids", key="pl_search",
                           placeholder="part of a player id").strip()
    table = pl.from_arrow(ui.load(data.players_list, game, search))
    ui.note(f"{table.height:,} players. Select a row to open the player's profile; "
            "the win rate is over decided games (a draw counts neither way).", "caption")
    nonce = st.session_state.setdefault("pl_nonce", 0)
    shown = st.dataframe(
        table, hide_index=True, width="stretch", key=f"pl_list_{nonce}", on_select="rerun",
        selection_mode="single-row",
        column_config={"player_id": "player", "decided": st.column_config.NumberColumn(
                           "n (decided)", help="wins + losses"),
                       "win_rate": st.column_config.NumberColumn("win rate", format="percent"),
                       "last_seen": st.column_config.DatetimeColumn("last seen")})
    rows = shown.selection.rows if shown is not None else []
    if rows and 0 <= rows[0] < table.height:
        chosen = table["player_id"][rows[0]]
        st.session_state["pl_pick"] = chosen
        st.session_state["pl_nonce"] = nonce + 1     # a fresh list (no selection) next time
        st.query_params["player"] = chosen
        st.rerun()


if not player:
    players_list()
    st.stop()


# ---------------------------------------------------------------- the profile

record_all = pl.from_arrow(ui.load(data.player_results, player))
if record_all.is_empty():
    ui.note(f"No game of player {player} in the warehouse.", "info")
    st.stop()

played = list(dict.fromkeys(record_all["game"].to_list()))
game_options = [None, *played]
if st.session_state.get("pl_game") not in game_options:   # another player's game
    st.session_state.pop("pl_game", None)
game = st.selectbox("Game", game_options, format_func=_all_games, key="pl_game",
                    help="applies to the whole profile")
record = record_all if game is None else record_all.filter(pl.col("game") == game)


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


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.0%}"


def tendency_chart(frame: pl.DataFrame) -> alt.LayerChart:
    """Each rate as a point, its 95% interval as a rule, the population rate as a tick."""
    order = frame["tendency"].to_list()
    base = alt.Chart(frame.select("tendency", "rate", "low", "high", "population_rate",
                                  "did", "could").to_pandas()).encode(
        y=alt.Y("tendency:N", sort=order, title=None))
    x = alt.X("low:Q", title="rate (point), 95% interval (rule), population (tick)",
              scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%"))
    rule = base.mark_rule(strokeWidth=2).encode(x=x, x2="high:Q")
    point = base.mark_point(filled=True, size=70).encode(
        x="rate:Q", tooltip=["tendency", alt.Tooltip("rate:Q", format=".1%"), "did", "could",
                             alt.Tooltip("low:Q", format=".1%"),
                             alt.Tooltip("high:Q", format=".1%")])
    tick = base.mark_tick(color="#d62728", thickness=2, size=18).encode(
        x="population_rate:Q", tooltip=[alt.Tooltip("population_rate:Q", format=".1%")])
    return (rule + point + tick).properties(height=28 * len(order) + 40)


st.subheader("Tendencies")
st.caption("Per tendency (docs/decisions.md): how often the player did it (did) when the player "
           "could (could), the rate with its 95% Wilson interval, the rate of all players "
           "pooled, and the player's percentile among players with enough opportunities.")
shown_any = False
for g in pd_.tendency_games():             # catalog games: names from code, not the warehouse
    if g not in played or (game is not None and g != game):
        continue
    shown_any = True
    st.markdown(f"#### {g}")   # g: a catalog game id from code, never from the warehouse
    t = pl.from_arrow(ui.load(pd_.player_tendencies, player, g))
    if t.is_empty():
        st.caption("No opportunity for any tendency of this game yet.")
        continue
    about = pd_.descriptions(g)
    frame = t.select(
        "tendency",
        pl.col("tendency").replace_strict(about, default="").alias("description"),
        pl.col("k").alias("did"), pl.col("n").alias("could"), "rate", "low", "high",
        pl.struct("low", "high").map_elements(
            lambda r: f"{_pct(r['low'])}–{_pct(r['high'])}",
            return_dtype=pl.String).alias("95% interval"),
        "population_rate", "percentile")
    st.dataframe(frame.drop("low", "high"), hide_index=True, width="stretch",
                 key=f"pl_tend_{g}",
                 column_config={"rate": PERCENT,
                                "population_rate": st.column_config.NumberColumn(
                                    "population rate", format="percent"),
                                "percentile": st.column_config.NumberColumn(format="%.0f")})
    st.altair_chart(tendency_chart(frame), width="stretch")
if not shown_any:
    st.caption("No tendency catalog for the games shown.")

st.subheader("Partnerships")
st.caption("The player's results with each other player as a teammate (same side) and as "
           "the opposite (对门); n is the number of games together.")
partners = pl.from_arrow(ui.load(pd_.partnerships, player, game))
if partners.is_empty():
    st.caption("No teammate or opposite in these games (a game without sides).")
else:
    st.dataframe(partners.rename({"games": "n"}), hide_index=True, width="stretch",
                 column_config={"win_rate": st.column_config.NumberColumn(
                                    "win rate", format="percent"),
                                "low": PERCENT, "high": PERCENT})

st.subheader("Games")
listed = pl.from_arrow(ui.load(data.find_games, player, 500))
if game is not None:
    listed = listed.filter(pl.col("game") == game)
listed = listed.with_columns(
    pl.struct("winning_side", "winners").map_elements(
        lambda r: ui.result_label(r["winning_side"], r["winners"]),
        return_dtype=pl.String).alias("result"),
    pl.col("game_id").map_elements(lambda g: f"./replay?game={quote(g)}",
                                   return_dtype=pl.String).alias("replay"))
ui.note(f"The latest {listed.height} games whose id or players match {player}.", "caption")
st.dataframe(listed, hide_index=True, width="stretch",
             column_config={"replay": st.column_config.LinkColumn("replay", display_text="open")})
