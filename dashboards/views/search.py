"""Search page: find the games where one seat's facts meet every condition (docs/facts.md) —
facts that happened (at least N times) and facts that did not, chosen by their readable names —
narrowed by game type, player, result and dates; or, over a whole session, the players whose
facts summed over its games do. Each row opens the replay at the moment its first fact
happened, in that player's seat. The filters live in the URL, so a search is a link to share. Player ids
and game ids are untrusted: they reach the page only in data frames and plain text."""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import quote

import polars as pl
import streamlit as st

from dashboards import data, ui
from engine.games import GAMES
from warehouse.search import (
    RESULTS,
    Condition,
    Search,
    SearchError,
    catalog,
    first_moment,
    session_first,
)

MAX_TIMES = 99

LIMIT = 200
ss = st.session_state
KEYS = {"game": "se_game", "facts": "se_facts", "never": "se_never", "result": "se_result",
        "player": "se_player", "since": "se_since", "until": "se_until", "times": "se_times",
        "per": "se_per"}


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def from_url() -> None:
    """Fill the widgets from the URL once (a shared link), keeping only what is allowed."""
    if ss.get("se_loaded"):
        return
    qp = st.query_params
    game = qp.get("game")
    ss[KEYS["game"]] = game if game in GAMES else None
    names = catalog(ss[KEYS["game"]])
    for key in ("facts", "never"):
        ss[KEYS[key]] = [f for f in (qp.get(key) or "").split(",") if f in names][:8]
    ss[KEYS["result"]] = qp.get("result") if qp.get("result") in RESULTS else None
    ss[KEYS["player"]] = (qp.get("player") or "")[:200]
    ss[KEYS["since"]], ss[KEYS["until"]] = _day(qp.get("since")), _day(qp.get("until"))
    times = qp.get("times") or "1"
    ss[KEYS["times"]] = int(times) if times.isascii() and times.isdigit() \
        and 1 <= int(times) <= MAX_TIMES else 1
    ss[KEYS["per"]] = qp.get("per") == "session"
    ss["se_loaded"] = True


def to_url(search: Search, never: list[str], per_session: bool) -> None:
    """Put the filters in the URL (only those set)."""
    times = max((c.n for c in search.conditions if c.op == ">="), default=1)
    want = {"game": search.game, "result": search.result, "player": search.player,
            "facts": ",".join(c.fact for c in search.conditions if c.op == ">="),
            "never": ",".join(never), "times": str(times) if times > 1 else None,
            "per": "session" if per_session else None,
            "since": search.since.isoformat() if search.since else None,
            "until": search.until.isoformat() if search.until else None}
    want = {k: v for k, v in want.items() if v}
    if dict(st.query_params) != want:
        st.query_params.from_dict(want)


def _fact_label(names: dict[str, dict[str, str]]) -> Any:
    def label(name: str) -> str:
        by_game = names.get(name, {})
        labels = sorted(set(by_game.values()))
        text = " / ".join(labels) or name
        return text if len(by_game) <= 1 else f"{text} ({len(by_game)} games)"
    return label


def filters() -> tuple[Search, list[str], bool]:
    """The page's widgets, the search they ask for and whether it is over whole sessions."""
    per_session = st.toggle("Over a whole session", key=KEYS["per"],
                            help="count each fact over the games of a session (one game type, "
                            "one session id) a player sat in: e.g. finished last (拉客) at "
                            "least twice in one session")
    c1, c2, c3 = st.columns([2, 2, 1])
    game = c1.selectbox("Game", [None, *sorted(GAMES)], format_func=ui.game_label,
                        key=KEYS["game"], help="the facts offered are this game's")
    names = catalog(game)
    for key in ("facts", "never"):          # another game's facts are not offered
        ss[KEYS[key]] = [f for f in ss.get(KEYS[key], []) if f in names]
    label = _fact_label(names)
    order = sorted(names, key=label)
    facts = c2.multiselect("Happened to the seat", order, format_func=label, key=KEYS["facts"],
                           max_selections=8, help="every fact chosen happened at least once")
    result = c3.selectbox("Result", [None, *RESULTS], key=KEYS["result"],
                          format_func=lambda r: "any result" if r is None else r,
                          disabled=per_session, help="a game's result (a session has none)")
    times = c3.number_input("At least … times", min_value=1, max_value=MAX_TIMES, step=1,
                            key=KEYS["times"], help="each fact chosen happened at least this "
                            "often (in the game, or in the session)")
    d1, d2, d3, d4 = st.columns([2, 2, 1, 1])
    never = d1.multiselect("Never happened", order, format_func=label, key=KEYS["never"],
                           max_selections=4, help="none of these happened to the seat")
    player = d2.text_input("Player id", key=KEYS["player"], placeholder="any player").strip()
    since = d3.date_input("From", value=None, key=KEYS["since"], format="YYYY-MM-DD")
    until = d4.date_input("Until", value=None, key=KEYS["until"], format="YYYY-MM-DD")
    conditions = (tuple(Condition(f, ">=", int(times)) for f in facts)
                  + tuple(Condition(f, "=", 0) for f in never))
    search = Search(conditions=conditions, player=player or None, game=game,
                    result=None if per_session else result,
                    since=since if isinstance(since, date) else None,
                    until=until if isinstance(until, date) else None, limit=LIMIT)
    return search, never, per_session


def replay_link(row: dict[str, Any]) -> str:
    """The replay page at the row's first fact (its first event without one), in its seat."""
    seq = first_moment(row) or 0
    return (f"./replay?game={quote(str(row['game_id']))}&step={seq}&view={int(row['seat'])}")


def session_link(row: dict[str, Any]) -> str:
    """The replay page where the session's first fact happened, in that player's seat."""
    first = session_first(row)
    if first is None:
        return ""
    return (f"./replay?game={quote(str(first['game_id']))}&step={first['seq']}"
            f"&view={int(first['seat'])}")


def session_table(rows: list[dict[str, Any]], names: dict[str, dict[str, str]]
                  ) -> pl.DataFrame:
    """The (session, player) pairs found as a frame: the session, the player's games and
    total, each fact's count in the session and the game it first happened in."""
    label = _fact_label(names)
    out = []
    for r in rows:
        line = {"started": r["started"], "game": ui.game_label(r["game"]),
                "session": r["session"], "player": r["player_id"], "games": r["games"],
                "total": r["total"]}
        for f in r["facts"]:
            shown = f"{label(f['fact'])}" + (" (never)" if (f["count"] == 0) else "")
            line[shown] = ("–" if f["first"] is None else
                           f"{f['count']}× from {f['first']['game_id']} seq {f['first']['seq']}")
        line["replay"] = session_link(r)
        out.append(line)
    return pl.DataFrame(out)


def table(rows: list[dict[str, Any]], names: dict[str, dict[str, str]]) -> pl.DataFrame:
    """The seats found as a frame: who, which game, the result, each fact's count and its
    first moment, and the replay link."""
    label = _fact_label(names)
    out = []
    for r in rows:
        line = {"started": r["started"], "game": ui.game_label(r["game"]),
                "game id": r["game_id"], "seat": r["seat"], "player": r["player_id"],
                "result": r["result"], "score": r["score"]}
        for f in r["facts"]:
            shown = f"{label(f['fact'])}" + (" (never)" if (f["count"] == 0) else "")
            line[shown] = ("–" if f["first_seq"] is None
                           else f"{f['count']}× from seq {f['first_seq']}")
        line["replay"] = replay_link(r)
        out.append(line)
    return pl.DataFrame(out)


def main() -> None:
    """Draw the page."""
    st.title("Search")
    ui.require_warehouse()
    known = catalog()
    if not known:
        ui.note("No registered game declares facts to search by.", "info")
        st.stop()
    from_url()
    st.caption("Games where one seat's facts meet every condition: what it held, played, "
               "took or suffered (docs/facts.md). Select a row to open the replay at the "
               "moment the first fact happened, in that seat.")
    search, never, per_session = filters()
    to_url(search, never, per_session)
    if search.since and search.until and search.since > search.until:
        ui.note("'From' is after 'Until': no game can match.", "warning")
        st.stop()
    if not search.conditions and not search.player:
        ui.note("Choose at least one fact (or a player) to search.", "info")
        st.stop()
    try:
        rows, more = ui.load(data.search_sessions if per_session else data.search_facts, search)
    except SearchError as exc:
        ui.note(str(exc), "warning")
        st.stop()
    if not rows:
        ui.note("No session matches." if per_session else "No game matches.", "info")
        st.stop()
    what = "session and player" if per_session else "seat"
    ui.note(f"{len(rows)} {what}{'s' * (len(rows) != 1)} found"
            + (f" (the latest {LIMIT}; narrow the search to see older ones)" if more else ""),
            "caption")
    frame = (session_table if per_session else table)(rows, catalog(search.game))
    picked = st.dataframe(
        frame, hide_index=True, width="stretch", key="se_rows", on_select="rerun",
        selection_mode="single-row",
        column_config={"replay": st.column_config.LinkColumn("replay", display_text="open")})
    chosen = picked.selection.rows if picked is not None else []
    if chosen:
        r = rows[chosen[0]]
        at = session_first(r) if per_session else {
            "game_id": r["game_id"], "seq": first_moment(r) or 0, "seat": r["seat"]}
        if at is not None:
            st.switch_page("views/replay.py", query_params={
                "game": at["game_id"], "step": str(at["seq"]), "view": str(at["seat"])})


main()
