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
    assert len(at.dataframe[0].value) == 11 and list(at.dataframe[0].value["seq"])[-1] == 10


def test_the_auditor_sees_what_follows(app_db, dash_games):
    gid = dash_games[3][0].game_id
    at = _replay(game=gid, step="10", view="auditor")
    assert max(_listed_seqs(at)) == 22
    assert len(at.dataframe[0].value) == len(dash_games[3])


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
    assert at.selectbox(key="rp_type").options == ["all games", "gouji", "keng"]
    at.selectbox(key="rp_type").set_value("gouji").run()
    gouji_ids = {g[0].game_id for g in gouji_games}
    assert {o.split(" · ")[0] for o in at.selectbox(key="rp_game").options} == gouji_ids
    assert at.selectbox(key="rp_game").value in gouji_ids
    at.text_input(key="rp_search").input(dash_games[0][0].game_id).run()
    assert any("No game matches this search." in h.proto.body for h in at.html)
    at.selectbox(key="rp_type").set_value("all games").run()
    assert at.selectbox(key="rp_game").value == dash_games[0][0].game_id
