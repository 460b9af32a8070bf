"""The Search page under Streamlit's AppTest, over a warehouse of test-game logs: a search
given in the URL finds exactly the seats the warehouse search finds, each row opening the
replay at its first fact in its seat; the filters go back into the URL; values planted in the
URL that are not allowed are dropped; no condition asks for one."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from liujia.cli import main
from warehouse.db import reader
from warehouse.search import Condition, Search, find

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
TOY = "toy_tricks"


@pytest.fixture(scope="module")
def toy_db(tmp_path_factory, toy_game) -> Path:
    root = tmp_path_factory.mktemp("search")
    assert main(["simulate", "--game", TOY, "--games", "24", "--seed", "6", "--out",
                 str(root / "logs"), "--quiet"]) == 0
    assert main(["ingest", str(root / "logs"), "--db", str(root / "w.duckdb"), "--quiet"]) == 0
    return root / "w.duckdb"


def _search(db, monkeypatch, **query: str) -> AppTest:
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    at.switch_page("views/search.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_search_in_the_url_finds_what_the_warehouse_finds(toy_db, monkeypatch):
    at = _search(toy_db, monkeypatch, game=TOY, facts="held_ace", never="won_last_trick",
                 result="loss")
    with reader(toy_db) as con:
        want, _ = find(con, Search(conditions=(Condition("held_ace"),
                                               Condition("won_last_trick", "=", 0)),
                                   game=TOY, result="loss"))
    assert want
    frame = at.dataframe[0].value
    assert list(frame["game id"]) == [r["game_id"] for r in want]
    assert list(frame["seat"]) == [r["seat"] for r in want]
    assert set(frame["result"]) == {"loss"}
    first = [min(f["first_seq"] for f in r["facts"] if f["first_seq"] is not None) for r in want]
    assert list(frame["replay"]) == [f"./replay?game={r['game_id']}&step={q}&view={r['seat']}"
                                     for r, q in zip(want, first, strict=True)]
    assert at.multiselect[0].value == ["held_ace"] and at.multiselect[1].value == ["won_last_trick"]
    assert at.query_params["facts"] == "held_ace" and at.query_params["result"] == "loss"


def test_changing_a_filter_goes_into_the_url(toy_db, monkeypatch):
    at = _search(toy_db, monkeypatch, game=TOY, facts="held_ace")
    at.selectbox(key="se_result").set_value("win").run()
    assert at.query_params["result"] == "win"
    assert set(at.dataframe[0].value["result"]) == {"win"}


def test_planted_url_values_are_dropped(toy_db, monkeypatch):
    at = _search(toy_db, monkeypatch, game="<script>", facts="held_ace,<b>x</b>",
                 result="everything", since="yesterday")
    assert at.selectbox(key="se_game").value is None
    assert at.multiselect[0].value == ["held_ace"]
    assert at.selectbox(key="se_result").value is None
    html = "\n".join(h.proto.body for h in at.html)
    assert "<script>" not in html and "<b>x</b>" not in html


def test_no_condition_asks_for_one(toy_db, monkeypatch):
    at = _search(toy_db, monkeypatch)
    assert any("Choose at least one fact" in h.proto.body for h in at.html)
    assert not at.dataframe


def test_a_session_search_in_the_url_finds_what_the_warehouse_finds(toy_db, monkeypatch):
    from warehouse.search import find_sessions
    at = _search(toy_db, monkeypatch, game=TOY, facts="held_ace", times="4", per="session")
    with reader(toy_db) as con:
        want, _ = find_sessions(con, Search(conditions=(Condition("held_ace", ">=", 4),),
                                            game=TOY))
        every, _ = find_sessions(con, Search(conditions=(Condition("held_ace"),), game=TOY))
    assert want and len(want) < len(every)          # "at least 4 times" narrows it
    frame = at.dataframe[0].value
    assert list(frame["session"]) == [r["session"] for r in want]
    assert list(frame["player"]) == [r["player_id"] for r in want]
    assert list(frame["total"]) == [r["total"] for r in want]
    for link, r in zip(frame["replay"], want, strict=True):
        (f,) = r["facts"]
        first = f["first"]
        assert f["count"] >= 4
        assert link == f"./replay?game={first['game_id']}&step={first['seq']}&view={first['seat']}"
    assert at.toggle(key="se_per").value is True and at.number_input(key="se_times").value == 4
    assert at.query_params["per"] == "session" and at.query_params["times"] == "4"
    assert at.selectbox(key="se_result").disabled


def test_a_planted_count_is_dropped(toy_db, monkeypatch):
    at = _search(toy_db, monkeypatch, game=TOY, facts="held_ace", times="1e9<i>")
    assert at.number_input(key="se_times").value == 1
    assert "times" not in at.query_params
