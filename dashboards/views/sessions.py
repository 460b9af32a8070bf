"""Sessions page: the sessions of the warehouse (games sharing a session id), newest first, with
their game type, span, games, players, who won (the top total, ties named; nobody when all are
level) and each player's total — filtered by player, game type and dates, the filters kept in
the URL so that a link reproduces the list; select a row (``?session=ID``) for the session: its
games in order with each player's score and running total (each row opens the replay), a
running-total chart per player and the final totals. Games without a session id are not
sessions: they are counted, not listed. Player, game and session ids are untrusted: they reach
the page only in data frames, chart data and plain text (ui.note)."""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import quote, urlencode

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, ui
from engine.games import GAMES
from warehouse.sessions import SessionFilter

LIMIT = 100
ss = st.session_state
KEYS = {"player": "sn_player", "game": "sn_game", "since": "sn_since", "until": "sn_until"}


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _signed(n: int) -> str:
    return f"{n:+d}"


def url_filter() -> SessionFilter:
    """The filters the URL holds, keeping only what is allowed: a registered game type, ISO
    days, a player id of at most 200 characters."""
    qp = st.query_params
    game = qp.get("game")
    return SessionFilter(player=(qp.get("player") or "").strip()[:200] or None,
                         game=game if game in GAMES else None, since=_day(qp.get("since")),
                         until=_day(qp.get("until")), limit=LIMIT)


def from_url() -> None:
    """Fill the filter widgets from the URL (a shared link, or the way back from a session,
    whose page keeps the filters in its URL) where they hold nothing yet."""
    filt = url_filter()
    for name, key in KEYS.items():
        if key not in ss:
            ss[key] = getattr(filt, name) or ("" if name == "player" else None)


def filters() -> SessionFilter:
    """The list's widgets and the filter they ask for."""
    c1, c2, c3, c4 = st.columns([2, 2, 1, 1])
    player = c1.text_input("Player id", key=KEYS["player"], placeholder="any player",
                           help="the sessions this player sat in (the exact id)").strip()
    game = c2.selectbox("Game", [None, *sorted(GAMES)], format_func=ui.game_label,
                        key=KEYS["game"])
    since = c3.date_input("From", value=None, key=KEYS["since"], format="YYYY-MM-DD",
                          help="sessions with a game started on or after this day (UTC)")
    until = c4.date_input("Until", value=None, key=KEYS["until"], format="YYYY-MM-DD",
                          help="sessions with a game started on or before this day (UTC)")
    return SessionFilter(player=player or None, game=game,
                         since=since if isinstance(since, date) else None,
                         until=until if isinstance(until, date) else None, limit=LIMIT)


def url_params(filt: SessionFilter, session: str | None = None) -> dict[str, str]:
    """The filters (those set) and the open session as URL query parameters."""
    want = {"player": filt.player, "game": filt.game,
            "since": filt.since.isoformat() if filt.since else None,
            "until": filt.until.isoformat() if filt.until else None, "session": session}
    return {k: v for k, v in want.items() if v}


def to_url(want: dict[str, str]) -> None:
    """Make the URL say exactly this."""
    if dict(st.query_params) != want:
        st.query_params.from_dict(want)


def won_by(row: dict[str, Any]) -> str:
    """Who won a session: 'a, b', or 'nobody (all level)'."""
    return "nobody (all level)" if row["level"] else ", ".join(row["winners"])


def list_frame(rows: list[dict[str, Any]], filt: SessionFilter) -> pl.DataFrame:
    """The sessions as a frame: id, game, span, games, players, who won with the top total,
    each player's total, and a link to the session."""
    return pl.DataFrame([{
        "session": r["session"], "game": ui.game_label(r["game"]), "started": r["started"],
        "ended": r["ended"], "games": r["games"], "players": r["n_players"],
        "won by": won_by(r), "top total": r["top_total"],
        "totals": ", ".join(f"{p['player_id']} {_signed(p['total'])}" for p in r["players"]),
        "open": "./sessions?" + urlencode(url_params(filt, r["session"]), quote_via=quote),
    } for r in rows])


def list_view() -> None:
    """The sessions under the filters; a row opens its session."""
    st.caption("Games played one after another by the same table share a session id. A "
               "player's total is the sum of the player's scores over the session's games; "
               "the session was won by the highest total (ties named), by nobody when every "
               "player is level. Select a row to open the session.")
    filt = filters()
    to_url(url_params(filt))
    if filt.since and filt.until and filt.since > filt.until:
        ui.note("'From' is after 'Until': no session can match.", "warning")
        st.stop()
    rows, more = ui.load(data.sessions_list, filt)
    loose = ui.load(data.games_without_session, filt)
    without = (f" {loose:,} game{'s' * (loose != 1)} without a session id match these "
               "filters; they are not listed." if loose else "")
    if not rows:
        ui.note("No session matches these filters." + without, "info")
        st.stop()
    ui.note(f"{len(rows)} session{'s' * (len(rows) != 1)}"
            + (f" (the newest {LIMIT}; narrow the filters to see older ones)" if more else "")
            + "." + without, "caption")
    frame = list_frame(rows, filt)
    nonce = ss.setdefault("sn_nonce", 0)
    picked = st.dataframe(
        frame, hide_index=True, width="stretch", key=f"sn_list_{nonce}", on_select="rerun",
        selection_mode="single-row",
        column_config={"started": st.column_config.DatetimeColumn("first start"),
                       "ended": st.column_config.DatetimeColumn("last end"),
                       "open": st.column_config.LinkColumn("session", display_text="open")})
    chosen = picked.selection.rows if picked is not None else []
    if chosen and 0 <= chosen[0] < len(rows):
        ss["sn_nonce"] = nonce + 1          # a fresh list (no selection) when coming back
        to_url(url_params(filt, rows[chosen[0]]["session"]))
        st.rerun()


# ---------------------------------------------------------------- one session

def games_frame(games: list[dict[str, Any]], players: list[str]) -> pl.DataFrame:
    """One row per game in order: its number, start, id, who won, each player's score and
    running total ('+1 (+3)', column ``p0`` … in the order of ``players``) and a replay link."""
    by_n: dict[int, dict[str, Any]] = {}
    for r in games:
        row = by_n.setdefault(r["n"], {
            "#": r["n"], "started": r["started"], "game id": r["game_id"],
            "result": ui.result_label(r["winning_side"], r["winners"]),
            **{f"p{i}": "–" for i in range(len(players))},
            "replay": f"./replay?game={quote(r['game_id'])}"})
        row[f"p{players.index(r['player_id'])}"] = (f"{_signed(r['score'])} "
                                                    f"({_signed(r['total'])})")
    return pl.DataFrame([by_n[n] for n in sorted(by_n)])


def chart_frame(games: list[dict[str, Any]], players: list[str]) -> pl.DataFrame:
    """Each player's running total after each game, from 0 before the first (game 0)."""
    start = [{"game": 0, "player": p, "total": 0, "score": 0, "game_id": ""} for p in players]
    return pl.DataFrame(start + [{"game": r["n"], "player": r["player_id"], "total": r["total"],
                                  "score": r["score"], "game_id": r["game_id"]} for r in games])


def running_chart(frame: pl.DataFrame, players: list[str]) -> alt.Chart:
    """One line per player: the running total (y) after each game of the session (x)."""
    return alt.Chart(frame.to_pandas()).mark_line(point=True).encode(
        x=alt.X("game:Q", title="game in the session (0: before the first)",
                axis=alt.Axis(format="d", tickMinStep=1)),
        y=alt.Y("total:Q", title="running total"),
        color=alt.Color("player:N", title="player", sort=players,
                        legend=alt.Legend(labelLimit=240)),
        tooltip=[alt.Tooltip("player:N"), alt.Tooltip("game:Q", title="game"),
                 alt.Tooltip("game_id:N", title="game id"), alt.Tooltip("score:Q"),
                 alt.Tooltip("total:Q", title="running total")],
    ).properties(height=320, title="running total per player")


def totals_frame(summary: dict[str, Any]) -> pl.DataFrame:
    """The final totals, highest first: player, games played, total, won."""
    winners = set(summary["winners"])
    return pl.DataFrame([{"player": p["player_id"], "games": p["games"], "total": p["total"],
                          "won": p["player_id"] in winners} for p in summary["players"]],
                        schema={"player": pl.String, "games": pl.Int64, "total": pl.Int64,
                                "won": pl.Boolean})


def detail_view(session: str, filt: SessionFilter) -> None:
    """One session: who won, its games with running totals, the chart, the final totals."""
    to_url(url_params(filt, session))
    if st.button("← All sessions", key="sn_back"):
        to_url(url_params(filt))
        st.rerun()
    view = ui.load(data.session_view, session, filt.game)
    if not view["types"]:
        ui.note(f"Session {session} is not in the warehouse (games without a session id "
                "have no session page).", "info")
        st.stop()
    if view["game"] is None:                 # one session id used by several game types
        game = st.selectbox("Game type", view["types"], format_func=ui.game_label,
                            key="sn_type", help="this session id is used by several game types")
        view = ui.load(data.session_view, session, game)
    summary, games = view["summary"], view["games"]
    players = list(dict.fromkeys(r["player_id"] for r in games))
    st.subheader("Session")
    ui.note(f"{session} · {ui.game_label(view['game'])} · {summary['games']} game"
            f"{'s' * (summary['games'] != 1)} · {summary['started']:%Y-%m-%d %H:%M} – "
            f"{summary['ended']:%Y-%m-%d %H:%M} UTC", "info")
    if summary["level"]:
        ui.note(f"Won by nobody: every player ends level at {_signed(summary['top_total'])}.",
                "caption")
    else:
        ui.note(f"Won by {', '.join(summary['winners'])} with "
                f"{_signed(summary['top_total'])}.", "caption")
    st.subheader("Games")
    st.caption("Each player's score in the game and, in brackets, the running total after "
               "it. Select a row, or follow its link, to replay the game.")
    frame = games_frame(games, players)
    picked = st.dataframe(
        frame, hide_index=True, width="stretch", key="sn_games", on_select="rerun",
        selection_mode="single-row",
        column_config={"started": st.column_config.DatetimeColumn("started"),
                       **{f"p{i}": st.column_config.TextColumn(p) for i, p in enumerate(players)},
                       "replay": st.column_config.LinkColumn("replay", display_text="open")})
    chosen = picked.selection.rows if picked is not None else []
    if chosen and 0 <= chosen[0] < frame.height:
        st.switch_page("views/replay.py", query_params={"game": frame["game id"][chosen[0]]})
    st.altair_chart(running_chart(chart_frame(games, players), players), width="stretch")
    st.subheader("Final totals")
    st.dataframe(totals_frame(summary), hide_index=True, width="stretch", key="sn_totals")


def main() -> None:
    """Draw the page."""
    st.title("Sessions")
    ui.require_warehouse()
    session = st.query_params.get("session")
    if session:
        detail_view(session, url_filter())
    else:
        from_url()
        list_view()


main()
