"""Replay page: pick a game, step through it, see the table from the auditor's or one seat's view.

The URL keeps game, step and perspective (``?game=…&step=…&view=auditor|0 … n−1``, n the
game's seat count), so a link to a moment of a game can be shared ("copy link" copies it).
The step is the log's seq from every perspective, and so are the slider, the current event's
line, the table's footer and the audit link; a seat of a game that hides events from it steps
over the events it saw, and the line and footer add which of them it is ("seq 150 (the 141st
event seat 2 saw)"). Values from the URL and the warehouse are shown as plain text
(``ui.note``), never as Markdown.

Layout: the game picker, the session's previous / next game and the perspective are in the
sidebar; the title, the step buttons (keys Home, ←, →, End, every press queued by
dashboards/steps.py), the slider and "copy link" share one row, with
the current event and the whole table right under it, so that every seat is in view without
scrolling (1400×900: tests/dashboards/test_replay_layout_e2e.py); the event list, the players
and the session's totals follow below.
"""

from __future__ import annotations

from bisect import bisect_right

import polars as pl
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dashboards import data, review_panel, steps, ui
from dashboards.events import AUDITOR, event_line_html, events_html, row_index, seen_text
from dashboards.table import table_html
from dashboards.views import as_of

ss = st.session_state
GAME, STEP, VIEW, SEARCH, URL = "rp_game", "rp_step", "rp_view", "rp_search", "rp_url"
TYPE, ALL_TYPES = "rp_type", "all games"
LISTED_SEQS = "rp_listed_seqs"      # the seq of each row of the list shown (for a jump)


def parse_view(text: str | None, seats: int | None = None) -> int | str:
    """A perspective from its URL form: 'auditor' or a seat ('2' or 'seat2'); a seat that is
    not one of the game's ``seats`` (when given) means the auditor."""
    t = (text or "").strip().lower().removeprefix("seat")
    if not (t.isascii() and t.isdigit()) or len(t) > 3:
        return AUDITOR
    seat = int(t)
    return seat if seats is None or seat < seats else AUDITOR


def perspectives(seats: int) -> list[int | str]:
    """The perspective choices of a game with this many seats: the auditor, then each seat."""
    return [AUDITOR, *range(seats)]


def game_label(row: dict) -> str:
    """A game in the game picker: id, game, seats, events and who won (plain text)."""
    seats = row.get("seats")
    result = ui.result_label(row.get("winning_side"), row.get("winners"))
    bits = [str(row["game_id"]), str(row["game"])]
    if seats is not None:
        bits.append(f"{seats} seats")
    bits.append(f"{row['events']} events")
    if result:
        bits.append(result + (f" ({row['reason']})" if row.get("reason") else ""))
    return " · ".join(bits)


def parse_step(text: str | None) -> int:
    """A step from its URL form; 0 when missing or not a number."""
    try:
        return max(0, int(text or 0))
    except ValueError:
        return 0


def url_state() -> tuple[str | None, str | None, str | None]:
    """(game, step, view) as the URL has them now."""
    qp = st.query_params
    return qp.get("game"), qp.get("step"), qp.get("view")


def sync_from_url() -> None:
    """Take game, step and perspective from the URL when it changed from outside (a link)."""
    url = url_state()
    if ss.get(URL) == url:
        return
    game, step, view = url
    if game:
        ss[GAME] = game
        ss[SEARCH] = ""
    ss[STEP] = parse_step(step)
    ss[VIEW] = parse_view(view)
    ss[URL] = url


def write_url(game: str, step: int, view: int | str) -> None:
    """Put the current game, step and perspective in the URL."""
    want = (game, str(step), str(view))
    if url_state() != want:
        st.query_params.from_dict({"game": game, "step": str(step), "view": str(view)})
    ss[URL] = want


def _go(delta: int | None = None, to: int | None = None, last: int = 0,
        stops: list[int] | None = None) -> None:
    cur = int(ss.get(STEP, 0))
    if stops:                   # a seat steps over the events it saw (LH-70), not the log's
        i = max(0, bisect_right(stops, cur) - 1)
        j = i + delta if delta is not None else (len(stops) - 1 if to else 0)
        ss[STEP] = stops[max(0, min(len(stops) - 1, j))]
        return
    ss[STEP] = max(0, min(last, cur + delta if delta is not None else (to or 0)))


def _new_game() -> None:
    ss[STEP] = 0


def _open_game(to: str) -> None:
    """Open another game (of the session) from its first step, whatever the search said."""
    ss[SEARCH] = ""
    ss[TYPE] = ALL_TYPES
    ss[GAME] = to
    ss[STEP] = 0


def _jump_to_selected() -> None:
    sel = ss.get("rp_events")
    rows = sel.selection.rows if sel is not None else []
    if rows:
        seqs = ss.get(LISTED_SEQS) or []      # a seat's list may skip hidden events
        i = int(rows[0])
        ss[STEP] = int(seqs[i]) if i < len(seqs) else i


# The step buttons: (key, label, help). The keys are not the buttons' shortcuts (Streamlit
# drops a press that comes during a rerun): dashboards/steps.py queues every press and sends
# them with one rerun; they do nothing while a text box, a select box or the slider (which
# moves by itself on ← / →) has the focus.
STEP_BUTTONS = (
    ("rp_first", "first · Home", "The first event (key: Home)"),
    ("rp_prev", "previous ←", "One event back (key: ←)"),
    ("rp_next", "next →", "One event forward (key: →)"),
    ("rp_last", "last · End", "The last event (key: End)"),
)
KEYS = "rp_keys"        # the component of the keys and the copy-link button


def _pick_game() -> tuple[str, dict]:
    """The game picker (game type, search, game), in the sidebar; stops the page when no game
    matches. Returns the game id and the found games' rows by id."""
    types = [ALL_TYPES, *pl.from_arrow(ui.load(data.games_by_type))["game"].to_list()]
    side = st.sidebar
    game_type = side.selectbox("Game type", types, key=TYPE, format_func=ui.game_label)
    text = side.text_input("Search by game id or player id", key=SEARCH,
                           placeholder="part of a game id or a player id")
    found = pl.from_arrow(ui.load(data.find_games, text.strip(), 200,
                                  None if game_type == ALL_TYPES else game_type))
    options = found["game_id"].to_list()
    rows_by_id = {r["game_id"]: r for r in found.iter_rows(named=True)}
    labels = {g: game_label(r) for g, r in rows_by_id.items()}
    current = ss.get(GAME)
    if text.strip() and not options:
        ui.note("No game matches this search.", "info", where=side)
    # the game on screen stays (first) while searching: a search offers games, it does not
    # jump away from this one — unless it names a game exactly; a game type chosen does
    if current and current not in options and game_type == ALL_TYPES \
            and text.strip() not in options:
        options.insert(0, current)
    if not options:
        ui.note("No game matches this search." if text.strip() else
                f"The warehouse has no games. {ui.HOW_TO_FILL}", "info")
        st.stop()
    if current not in options:
        ss[GAME] = options[0]
        ss[STEP] = 0
    game_id = side.selectbox("Game", options, key=GAME, on_change=_new_game,
                             format_func=lambda g: labels.get(g, g))
    if game_id in labels:          # the whole label, which the narrow select box cuts short
        ui.note(labels[game_id].removeprefix(f"{game_id} · "), "caption", where=side)
    return game_id, rows_by_id


def _session_buttons(game_id: str, session: list[str]) -> None:
    """Previous / next game of the session and 'game k of n', in the sidebar."""
    if len(session) < 2 or game_id not in session:
        return
    k = session.index(game_id)
    s1, s2 = st.sidebar.columns(2)
    s1.button("previous game", key="rp_prev_game", disabled=k == 0, width="stretch",
              on_click=_open_game, kwargs={"to": session[k - 1] if k else game_id})
    s2.button("next game", key="rp_next_game", disabled=k == len(session) - 1,
              width="stretch", on_click=_open_game,
              kwargs={"to": session[k + 1] if k + 1 < len(session) else game_id})
    ui.note(f"game {k + 1} of {len(session)} of its session", "caption", where=st.sidebar)


def _pick_perspective(players: list[str]) -> int | str:
    """The perspective selector (the auditor or one of the game's seats), in the sidebar."""
    persp_options = perspectives(len(players))
    if ss.get(VIEW) not in persp_options:
        if isinstance(ss.get(VIEW), int):   # a seat this game lacks: the least revealing view
            ui.note(f"This game has seats 0-{len(players) - 1}, not seat {ss[VIEW]}: showing "
                    "seat 0's view.", "warning")
            ss[VIEW] = 0
        else:
            ss[VIEW] = AUDITOR
    return st.sidebar.selectbox(
        "Perspective", persp_options, key=VIEW,
        format_func=lambda p: "auditor (all cards)" if p == AUDITOR else f"seat {p} · {players[p]}")


def _step_controls(row: DeltaGenerator, last: int, stops: list[int] | None = None) -> int:
    """First / previous / next / last (with their keys) and the step slider, added to the
    title's row. With ``stops`` (the log's seqs of the events a seat saw happen, when the
    game hides some, its ``event_hidden``) they step over those only; the slider still shows
    the log's seq, the page's one number of a moment."""
    moves = ({"to": 0}, {"delta": -1}, {"delta": 1}, {"to": last})
    for (key, label, help_text), move in zip(STEP_BUTTONS, moves, strict=True):
        row.button(label, key=key, help=help_text, width="content",
                   on_click=_go, kwargs={**move, "last": last, "stops": stops})
    if stops is not None:
        ss[STEP] = stops[max(0, bisect_right(stops, int(ss.get(STEP, 0))) - 1)]
        if len(stops) > 1:
            return int(row.select_slider("Step (seq; the events this seat saw)",
                                         options=stops, key=STEP))
    elif last > 0:
        return row.slider("Step (seq)", 0, last, key=STEP)
    row.caption("This game has a single event.")
    return int(ss.get(STEP, 0))


def _event_list(game_id: str, rows: list, step: int, perspective: int | str) -> None:
    """The window of events around the step, and the whole list (select a row to jump)."""
    st.subheader("Events")
    auditor = perspective == AUDITOR
    st.html(events_html(rows, step, future=auditor))      # a seat never sees what comes next
    listed = data.replay_rows_table(game_id, perspective)
    if not auditor:     # a seat's rows skip the events it never saw (the game's event_hidden)
        listed = listed.slice(0, row_index(rows, step) + 1)
    ss[LISTED_SEQS] = [r["at"] for r in rows[:listed.num_rows]]
    with st.expander(f"All {len(rows)} events (select one to jump to it)" if auditor else
                     "The events so far (select one to jump to it)"):
        st.dataframe(listed, hide_index=True, width="stretch",
                     key="rp_events", on_select=_jump_to_selected, selection_mode="single-row")


OUTCOME_COLUMNS = ("place", "result", "score")     # of game_players: known at the end only


def _game_details(game_id: str, row: dict | None, players: list[str], session: list[str],
                  ended: bool) -> None:
    """The players and result of the game, and its session's totals per player; before the
    end (``ended`` False: a seat's perspective before the last step) neither the result nor
    the totals, which hold this game's outcome and the session's later games."""
    with st.expander("Players and result" if ended else "Players"):
        result = (ui.result_label(row.get("winning_side"), row.get("winners"), players)
                  if row and ended else "")
        if result:
            ui.note(f"Result: {result}" + (f" ({row['reason']})" if row.get("reason") else ""),
                    "caption")
        table = ui.load(data.game_players, game_id)
        if not ended:
            table = table.drop_columns([c for c in OUTCOME_COLUMNS if c in table.column_names])
            ui.note("The result shows at the last step (or from the auditor's view).",
                    "caption")
        st.dataframe(table, hide_index=True, width="stretch")
    if not ended:
        return
    if len(session) > 1 and game_id in session:
        with st.expander(f"Session totals ({len(session)} games)"):
            st.dataframe(ui.load(data.session_totals, game_id), hide_index=True,
                         width="stretch")


# The page starts higher than Streamlit's default (6rem above the title), so that the table
# has the height of a 1400×900 window (tests/dashboards/test_replay_fit_e2e.py).
PAGE_CSS = '<style>[data-testid="stMainBlockContainer"]{padding-top:2.5rem}</style>'


def main() -> None:
    """The page: the picker and perspective in the sidebar; the step controls, the current
    event and the table at the top, so the whole table is in view; the events and details
    below it."""
    st.html(PAGE_CSS)
    head = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    head.title("Replay", width="content")
    ui.require_warehouse()
    sync_from_url()
    game_id, rows_by_id = _pick_game()
    session = ui.load(data.session_games, game_id)["game_id"].to_pylist()
    _session_buttons(game_id, session)
    rp = ui.load(data.replay, game_id)
    if rp is None:
        ui.note(f"Game {game_id} is not in the warehouse.", "error")
        st.stop()
    last = len(rp) - 1
    ss[STEP] = max(0, min(int(ss.get(STEP, 0)), last))
    players = list(rp.final.players)
    perspective = _pick_perspective(players)
    rows = data.replay_rows(game_id, perspective)
    hides = perspective != AUDITOR and rp.game.hides_events
    step = _step_controls(head, last, [r["at"] for r in rows] if hides else None)

    state = rp.state_at(step)
    view = rp.game.view(state, None if perspective == AUDITOR else perspective)
    now = rows[row_index(rows, step)]
    seen = seen_text(now, perspective)        # 'the 141st event seat 2 saw' (LH-70 games)
    st.html(event_line_html(now, None if hides else last, seen=seen))
    st.html(table_html(rp.game_type, view, players, step=step, seen=seen,
                       hud=as_of.hud(game_id)))

    review_panel.render(game_id, rp, step, perspective, players)
    _event_list(game_id, rows, step, perspective)
    as_of.render(game_id)                # each seat's key stats from its games before this one
    _game_details(game_id, rows_by_id.get(game_id), players, session,
                  ended=perspective == AUDITOR or step == last)
    write_url(game_id, step, perspective)
    ui.note(f"This moment: ?game={game_id}&step={step}&view={perspective} — 'copy link' at "
            f"the top copies the whole address; step is the log's seq ({step}) from every "
            "view.", "caption")
    st.page_link("views/audit.py", label=f"audit this step (seq {step})",
                 icon=":material/gavel:",
                 query_params={"game": game_id, "seq": str(step)})   # /audit?game=ID&seq=STEP
    # last, so that the browser hears back (and sends the presses queued meanwhile) only
    # once the page is drawn
    steps.render(head, key=KEYS, step_key=STEP, step=step, last=last,
                 stops=[r["at"] for r in rows] if hides else None,
                 query={"game": game_id, "step": str(step), "view": str(perspective)})


main()
