"""Every dashboard page under Streamlit's AppTest, against a tiny warehouse (20 games + 1 bad)."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine.cards import format_face

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
TIMEOUT = 60


def _app(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    return at


def _page(page: str, **query: str) -> AppTest:
    at = _app(**query).run()
    if page != "overview":
        at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _html(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.html)


def _part(at: AppTest, marker: str) -> str:
    """The one st.html body holding this marker (the table: lj-table, the events: lj-events)."""
    (body,) = [h.proto.body for h in at.html if marker in h.proto.body]
    return body


def _text(at: AppTest) -> str:
    """Every message of the page: Markdown elements, and the plain-text notes (ui.note) with
    their HTML unescaped."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [w.value for w in at.warning] + [i.value for i in at.info] + [e.value for e in at.error]
    parts += [unescape(h.proto.body) for h in at.html if "lj-note" in h.proto.body]
    return "\n".join(str(p) for p in parts)


# ---------------------------------------------------------------- overview

def test_overview_shows_totals_types_results_recent(app_db, dash_games):
    at = _page("overview")
    assert at.title[0].value == "liujia · overview"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["games"] == str(len(dash_games))
    assert metrics["events"] == f"{sum(map(len, dash_games)):,}"
    assert metrics["quarantined"] == "1"
    subheaders = [s.value for s in at.subheader]
    assert subheaders == ["Games by type", "Results", "Recent games"]
    by_type = at.dataframe[0].value
    # game types by their names, the id after (issue 26: not the bare registry id)
    assert list(by_type["game"]) == ["六人坑 (keng)"] and list(by_type["games"]) == [len(dash_games)]
    results = at.dataframe[1].value
    assert set(results["game"]) == {"六人坑 (keng)"}
    recent = at.dataframe[-1].value
    assert len(recent) == 5                     # the latest 5 of each game type (one type here)
    assert set(recent["game"]) == {"六人坑 (keng)"}
    assert recent["replay"].iloc[0].startswith("./replay?game=keng-11-")


def test_missing_warehouse_shows_how_to_fill_it(tmp_path, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(tmp_path / "nothing.duckdb"))
    for page in ("overview", "replay", "players", "quarantine"):
        at = _page(page)
        assert "No warehouse at" in _text(at) and "liujia demo" in _text(at), page


def test_empty_warehouse(tmp_path, monkeypatch):
    from warehouse.db import connect, ensure_schema

    db = tmp_path / "empty.duckdb"
    con = connect(db, read_only=False)
    ensure_schema(con)
    con.close()
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = _page("overview")
    assert "The warehouse is empty" in _text(at)
    at = _page("replay")
    assert "has no games" in _text(at)


# ---------------------------------------------------------------- replay

def test_replay_from_url_shows_table_and_events(app_db, dash_games):
    game = dash_games[3]
    gid = game[0].game_id
    at = _page("replay", game=gid, step="30", view="auditor")
    assert at.selectbox(key="rp_game").value == gid
    assert at.slider(key="rp_step").value == 30
    html = _html(at)
    assert gid in html
    assert "auditor (all cards)" in html
    assert 'class="lj-now" data-seq="30"' in html
    assert "lj-red" in html and any(s in html for s in "♠♥♣♦")
    # the URL keeps game, step and perspective
    assert at.query_params == {"game": gid, "step": "30", "view": "auditor"}


def test_replay_buttons_and_slider_step(app_db, dash_games):
    gid = dash_games[0][0].game_id
    at = _page("replay", game=gid)
    assert at.slider(key="rp_step").value == 0
    at.button(key="rp_next").click().run()
    at.button(key="rp_next").click().run()
    assert at.slider(key="rp_step").value == 2
    assert at.query_params["step"] == "2"
    at.button(key="rp_prev").click().run()
    assert at.slider(key="rp_step").value == 1
    at.button(key="rp_last").click().run()
    last = len(dash_games[0]) - 1
    assert at.slider(key="rp_step").value == last
    at.button(key="rp_next").click().run()            # stays on the last event
    assert at.slider(key="rp_step").value == last
    assert "game over" in _html(at)
    at.slider(key="rp_step").set_value(7).run()
    assert 'class="lj-now" data-seq="7"' in _html(at)
    at.button(key="rp_first").click().run()
    assert at.slider(key="rp_step").value == 0
    assert not at.exception


def test_replay_seat_perspective_hides_other_hands(app_db, dash_games):
    from engine.replay import Replay

    game = dash_games[1]
    gid = game[0].game_id
    at = _page("replay", game=gid, step="6", view="2")     # right after the deal
    assert at.selectbox(key="rp_view").value == 2
    table = _part(at, "lj-table")
    assert "seat 2 (own cards only)" in table
    hands = Replay(game).state_at(6).hands
    assert all(f'data-face="{format_face(c)}"' in table for c in hands[2])
    assert table.count('class="lj-back"') == 5                   # the other five hands
    assert table.count('class="lj-card') == len(hands[2])
    events = _part(at, "lj-events")                      # seqs 0-18: deck, deals, first plays
    assert events.count('class="lj-back"') == 1 + 5              # the deck and five other deals
    at.selectbox(key="rp_view").set_value("auditor").run()
    assert at.query_params["view"] == "auditor"
    table = _part(at, "lj-table")
    assert "auditor (all cards)" in table
    assert table.count('class="lj-card') == sum(map(len, hands))
    assert 'class="lj-back"' not in _part(at, "lj-events")


def test_replay_search_by_player(app_db, dash_games):
    gid = dash_games[5][0].game_id
    at = _page("replay", game=gid)
    from engine.replay import Replay

    player = Replay(dash_games[5]).final.players[0]
    at.text_input(key="rp_search").input(player).run()
    options = [o.split(" · ")[0] for o in at.selectbox(key="rp_game").options]  # labels
    assert gid in options
    assert all(o.startswith("keng-11-") for o in options)
    at.text_input(key="rp_search").input("no-such-player-or-game").run()
    assert "No game matches" in _text(at)


def test_replay_picking_another_game_starts_at_step_0(app_db, dash_games):
    a, b = dash_games[0][0].game_id, dash_games[1][0].game_id
    at = _page("replay", game=a, step="9")
    assert at.slider(key="rp_step").value == 9
    at.selectbox(key="rp_game").set_value(b).run()
    assert at.slider(key="rp_step").value == 0
    assert at.query_params["game"] == b
    assert b in _html(at)


def test_replay_unknown_game_and_bad_params(app_db):
    at = _page("replay", game="keng-nope", step="abc", view="seat9")
    assert "is not in the warehouse" in _text(at)


def test_replay_step_beyond_the_end_is_clamped(app_db, dash_games):
    gid = dash_games[2][0].game_id
    at = _page("replay", game=gid, step="100000")
    assert at.slider(key="rp_step").value == len(dash_games[2]) - 1


# ---------------------------------------------------------------- players, quarantine

def test_players_page(app_db, dash_games):
    from engine.replay import Replay

    player = Replay(dash_games[0]).final.players[4]
    at = _page("players")
    assert "Type a player id" in _text(at)
    at.text_input(key="pl_player").input(player).run()
    assert not at.exception
    assert at.query_params["player"] == player
    assert len(at.dataframe[0].value) >= 1 and len(at.dataframe[1].value) >= 1
    at.text_input(key="pl_player").input("nobody").run()
    assert "No game of player" in _text(at)


def test_quarantine_page(app_db):
    at = _page("quarantine")
    assert at.title[0].value == "Quarantine"
    assert at.metric[0].value == "1"
    table = at.dataframe[1].value
    assert list(table["game_id"]) == ["keng-12-000000"]
    assert list(table["rule_id"]) == ["KENG-11"]   # the seat does not hold the card (issue 13)
    assert "stage" in table.columns and "reason" in table.columns
    at.selectbox(key="qu_stage").set_value(table["stage"].iloc[0]).run()
    assert not at.exception and len(at.dataframe[1].value) == 1
    runs = at.dataframe[-1].value
    assert len(runs) >= 1


@pytest.mark.parametrize("page", ["overview", "replay", "players", "quarantine"])
def test_every_page_runs(app_db, page):
    _page(page)


def test_pages_follow_a_new_ingest(tmp_path, monkeypatch, dash_games):
    """The ingest replaces the file; the next rerun reads the new version, no restart."""
    from engine.log import write_log
    from ingest import ingest_paths

    logs = tmp_path / "logs"
    logs.mkdir()
    db = tmp_path / "w.duckdb"
    write_log(logs / "a.arrows", dash_games[:3])
    ingest_paths([logs / "a.arrows"], db=db, progress=False)
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = _page("overview")
    assert {m.label: m.value for m in at.metric}["games"] == "3"
    write_log(logs / "b.arrows", dash_games[3:8])
    ingest_paths([logs / "b.arrows"], db=db, progress=False)
    at.run()
    assert {m.label: m.value for m in at.metric}["games"] == "8"
    # the recent list follows too: the latest 5 of the type (issue 26), all from the new file
    assert set(at.dataframe[-1].value["game_id"]) == {g[0].game_id for g in dash_games[3:8]}


def test_unreadable_warehouse_shows_the_error(tmp_path, monkeypatch):
    bad = tmp_path / "not-a-db.duckdb"
    bad.write_text("not a database")
    monkeypatch.setenv("LIUJIA_DB", str(bad))
    for page in ("overview", "replay", "quarantine"):
        at = _page(page)
        assert (f"Cannot open the warehouse: {bad} is not a liujia warehouse: it is not a "
                "DuckDB database file") in _text(at), page


def test_overview_lists_the_latest_games_of_every_type(tmp_path, dash_games, gouji_games,
                                                       monkeypatch):
    """Issue 26: the recent games were only 六人坑's (the type loaded last crowded the others
    out); now the latest 5 of each type, every type by its name."""
    from engine.log import write_log
    from ingest import ingest_paths

    write_log(tmp_path / "keng.arrows", dash_games)
    write_log(tmp_path / "gouji.arrows", gouji_games)
    db = tmp_path / "mixed.duckdb"
    assert ingest_paths([tmp_path], db=db, progress=False, workers=1).clean
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = _page("overview")
    recent = at.dataframe[-1].value
    assert sorted(set(recent["game"])) == ["六人坑 (keng)", "够级 (gouji)"]
    assert list(recent["game"]).count("六人坑 (keng)") == 5
    assert list(recent["game"]).count("够级 (gouji)") == 5
    assert set(at.dataframe[0].value["game"]) == {"六人坑 (keng)", "够级 (gouji)"}
