"""A seat's perspective on the replay page never lists events after the current step (nor
says how many follow); the auditor's does."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from dashboards.events import events_html

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")


def _replay(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _listed_seqs(at: AppTest) -> list[int]:
    (body,) = [h.proto.body for h in at.html if "lj-events" in h.proto.body]
    return [int(s) for s in re.findall(r'data-seq="(\d+)"', body)]


def test_a_seat_sees_no_later_event(app_db, dash_games):
    gid = dash_games[3][0].game_id
    at = _replay(game=gid, step="10", view="2")
    assert max(_listed_seqs(at)) == 10
    (body,) = [h.proto.body for h in at.html if "lj-events" in h.proto.body]
    assert "later events" not in body
    events = _frame(at, "seq")
    assert len(events) == 11 and list(events["seq"])[-1] == 10


def test_the_auditor_sees_what_follows(app_db, dash_games):
    gid = dash_games[3][0].game_id
    at = _replay(game=gid, step="10", view="auditor")
    assert max(_listed_seqs(at)) == 22
    assert len(_frame(at, "seq")) == len(dash_games[3])


def test_events_html_without_future():
    rows = [{"seq": i, "seat": 0, "player": "p", "kind": "PLAY", "cards": [], "hidden": 0,
             "detail": ""} for i in range(40)]
    assert "later events" in events_html(rows, 5) and 'data-seq="17"' in events_html(rows, 5)
    bare = events_html(rows, 5, future=False)
    assert "later events" not in bare and 'data-seq="6"' not in bare and 'data-seq="5"' in bare


def test_the_game_picker_filters_by_game_type(tmp_path, dash_games, gouji_games, monkeypatch):
    from engine.log import write_log
    from ingest import ingest_paths

    write_log(tmp_path / "keng.arrows", dash_games)
    write_log(tmp_path / "gouji.arrows", gouji_games)
    db = tmp_path / "mixed.duckdb"
    assert ingest_paths([tmp_path], db=db, progress=False, workers=1).clean
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = _replay()
    assert at.selectbox(key="rp_type").options == ["all games", "够级 (gouji)", "六人坑 (keng)"]
    at.selectbox(key="rp_type").set_value("gouji").run()
    gouji_ids = {g[0].game_id for g in gouji_games}
    assert {o.split(" · ")[0] for o in at.selectbox(key="rp_game").options} == gouji_ids
    assert at.selectbox(key="rp_game").value in gouji_ids
    at.text_input(key="rp_search").input(dash_games[0][0].game_id).run()
    assert any("No game matches this search." in h.proto.body for h in at.html)
    at.selectbox(key="rp_type").set_value("all games").run()
    assert at.selectbox(key="rp_game").value == dash_games[0][0].game_id


def _frame(at: AppTest, column: str):
    (df,) = [d.value for d in at.dataframe if column in d.value.columns]
    return df


def test_previous_and_next_game_of_the_session_and_its_totals(gouji_app_db, gouji_games):
    import duckdb

    from warehouse.queries import session_games, session_totals

    with duckdb.connect(str(gouji_app_db), read_only=True) as con:
        ids = session_games(con, gouji_games[2][0].game_id)["game_id"].to_pylist()
        want = session_totals(con, ids[2]).to_pylist()
    assert len(ids) >= 3
    at = _replay(game=ids[2], step="5")
    notes = "\n".join(h.proto.body for h in at.html)
    assert f"game 3 of {len(ids)} of its session" in notes
    at.button(key="rp_next_game").click().run()
    assert at.selectbox(key="rp_game").value == ids[3] and at.slider(key="rp_step").value == 0
    at.button(key="rp_prev_game").click().run()
    at.button(key="rp_prev_game").click().run()
    assert at.selectbox(key="rp_game").value == ids[1]
    totals = _frame(at, "wins")
    assert totals.to_dict("records") == want and int(totals["games"].sum()) == 6 * len(ids)


def test_the_step_buttons_say_their_keys(app_db, dash_games):
    """The buttons name their keys, which the page's own handler takes (dashboards/steps.py,
    so that no quick press is lost: not the buttons' shortcuts, which would move twice)."""
    at = _replay(game=dash_games[3][0].game_id, step="10", view="auditor")
    keys = {"rp_first": "Home", "rp_prev": "←", "rp_next": "→", "rp_last": "End"}
    for key, shown in keys.items():
        proto = at.button(key=key).proto
        assert not proto.shortcut and shown in proto.help, (key, proto)
    # the picker and the perspective are in the sidebar, the step controls on the page
    sidebar = {w.key for w in at.sidebar.selectbox} | {w.key for w in at.sidebar.text_input}
    assert {"rp_type", "rp_search", "rp_game", "rp_view"} <= sidebar
    assert not {b.key for b in at.sidebar.button} & set(keys)
    at.button(key="rp_next").click().run()
    assert at.slider(key="rp_step").value == 11


def test_moves_apply_in_order_like_presses():
    from dashboards.steps import apply_moves, new_moves

    assert apply_moves(10, [1] * 10, 88) == 20
    assert apply_moves(2, [-1, -1, -1, 1], 88) == 1          # clamped at each press
    assert apply_moves(5, ["last", -1, -1], 88) == 86
    assert apply_moves(5, ["first", -1, 1, 1], 88) == 2
    stops = [0, 3, 4, 9, 12]                                 # a seat's seen events
    assert apply_moves(5, [1], 12, stops) == 9               # from the stop at or before 5
    assert apply_moves(9, [1, 1, 1], 12, stops) == 12
    assert apply_moves(9, ["first", 1], 12, stops) == 3
    batch = {"tab": "t1", "ops": [[1, 1], [2, 1], [3, "last"], [4, "evil"], [5, -1]]}
    assert new_moves(batch, None, 0) == ("t1", [1, 1, "last", -1], 5)
    assert new_moves(batch, "t1", 3) == ("t1", [-1], 5)      # never a move twice
    assert new_moves(batch, "t0", 9) == ("t1", [1, 1, "last", -1], 5)   # a reloaded tab
    assert new_moves("junk", "t1", 3) == ("t1", [], 3)
    assert new_moves({"tab": "t1", "ops": [[True, 1], [6, 2], "x"]}, "t1", 3) == ("t1", [], 3)


def _expanders(at: AppTest) -> list[str]:
    return [e.label for e in at.expander]


def test_a_seat_sees_no_result_nor_session_totals_before_the_end(app_db, dash_games):
    """The result, the places and scores, and the session's totals (which hold this game's
    outcome and the session's later games) show to a seat only at the last step; the
    auditor sees them at every step."""
    gid = dash_games[3][0].game_id
    last = str(len(dash_games[3]) - 1)
    auditor = _replay(game=gid, step="10", view="auditor")
    seat = _replay(game=gid, step="10", view="2")
    at_end = _replay(game=gid, step=last, view="2")
    assert "Players and result" in _expanders(auditor) and "Players" in _expanders(seat)
    assert not any(x.startswith("Session totals") for x in _expanders(seat))
    assert any(x.startswith("Session totals") for x in _expanders(auditor)) == any(
        x.startswith("Session totals") for x in _expanders(at_end))
    (table,) = [d.value for d in seat.dataframe if "player_id" in d.value.columns
                and "seat" in d.value.columns and "kind" not in d.value.columns]
    assert not {"place", "result", "score"} & set(table.columns)
    (table,) = [d.value for d in at_end.dataframe if "player_id" in d.value.columns
                and "seat" in d.value.columns and "kind" not in d.value.columns]
    assert {"place", "result", "score"} <= set(table.columns)


def test_a_search_keeps_the_game_on_screen(app_db, dash_games):
    """Searching a player offers that player's games without leaving the game replayed; a
    search matching nothing keeps it too (and says so); an exact game id opens that game."""
    from engine.replay import Replay

    here = dash_games[5][0].game_id
    at = _replay(game=here, step="4")
    other = next(p for g in dash_games for p in Replay(g).final.players
                 if p not in Replay(dash_games[5]).final.players)
    at.sidebar.text_input(key="rp_search").input(other).run()
    assert at.selectbox(key="rp_game").value == here and at.slider(key="rp_step").value == 4
    assert len(at.selectbox(key="rp_game").options) > 1
    at.sidebar.text_input(key="rp_search").input("no-such-player-or-game").run()
    assert at.selectbox(key="rp_game").value == here
    assert any("No game matches this search." in h.proto.body for h in at.html)
    there = dash_games[2][0].game_id
    at.sidebar.text_input(key="rp_search").input(there).run()
    assert at.selectbox(key="rp_game").value == there
