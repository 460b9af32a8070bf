"""The Sessions page under Streamlit's AppTest, over the sessions corpus (tests/sessions_corpus.py:
three sessions of four 六人坑 games, two games without a session): the list a URL asks for is
the warehouse's, the filters go into the URL and a link brings them back, planted URL values
are dropped, a session's page (its games with running totals and replay links, the chart, the
final totals) and the way back to the same list, an unknown session, and a hostile player id
shown as plain text only."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from tests.sessions_corpus import LOOSE, build, expected
from warehouse.db import reader
from warehouse.sessions import SessionFilter, sessions_list

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
EVIL = "![x](http://127.0.0.1:9/a.png)<img src=x>`y`"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("sessions-page")
    return build(root), expected(root / "logs")


@pytest.fixture(scope="module")
def evil_db(tmp_path_factory):
    return build(tmp_path_factory.mktemp("sessions-page-evil"), evil=EVIL)


def _page(db, monkeypatch, **query: str) -> AppTest:
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    at.switch_page("views/sessions.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _notes(at: AppTest) -> str:
    return unescape("\n".join(h.proto.body for h in at.html if "lj-note" in h.proto.body))


def _markdown(at: AppTest) -> list[str]:
    """Every text Streamlit renders as Markdown on the page."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [w.value for w in at.warning] + [i.value for i in at.info] + [e.value for e in at.error]
    parts += [s.value for s in at.subheader] + [t.value for t in at.title]
    return [str(p) for p in parts]


def _labels(frame_element) -> dict[str, str]:
    return {k: v.get("label") for k, v in json.loads(frame_element.proto.columns).items()}


def test_the_list_in_the_url_is_the_warehouses(corpus, monkeypatch):
    db, want = corpus
    player = next(iter(want["sessions"]["keng-s3-00000"]["totals"]))
    at = _page(db, monkeypatch, player=player, game="keng", since="2026-01-01",
               until="2026-01-01")
    with reader(db) as con:
        rows, _ = sessions_list(con, SessionFilter(player=player, game="keng"))
    frame = at.dataframe[0].value
    assert list(frame["session"]) == [r["session"] for r in rows] == ["keng-s3-00000"]
    w = want["sessions"]["keng-s3-00000"]
    assert list(frame["won by"]) == [", ".join(w["winners"])]
    assert list(frame["top total"]) == [w["top"]]
    assert list(frame["open"]) == ["./sessions?player=" + player + "&game=keng&since=2026-01-01"
                                   "&until=2026-01-01&session=keng-s3-00000"]
    assert at.text_input(key="sn_player").value == player
    assert at.selectbox(key="sn_game").value == "keng"
    assert str(at.date_input(key="sn_since").value) == "2026-01-01"
    assert dict(at.query_params) == {"player": player, "game": "keng", "since": "2026-01-01",
                                     "until": "2026-01-01"}


def test_every_session_newest_first_and_the_games_left_out(corpus, monkeypatch):
    db, want = corpus
    at = _page(db, monkeypatch)
    frame = at.dataframe[0].value
    order = sorted(want["sessions"], key=lambda s: want["sessions"][s]["games"][0]["ts"],
                   reverse=True)
    assert list(frame["session"]) == order
    level = [s for s in order if want["sessions"][s]["level"]]
    assert [s for s, w in zip(frame["session"], frame["won by"], strict=True)
            if w == "nobody (all level)"] == level
    assert f"{LOOSE} games without a session id match these filters; they are not listed." \
        in _notes(at)


def test_a_filter_changed_goes_into_the_url(corpus, monkeypatch):
    db, want = corpus
    at = _page(db, monkeypatch)
    player = next(iter(want["sessions"]["keng-s3-00001"]["totals"]))
    at.text_input(key="sn_player").set_value(player).run()
    assert at.query_params["player"] == player
    mine = [s for s, v in want["sessions"].items() if player in v["totals"]]
    assert sorted(at.dataframe[0].value["session"]) == sorted(mine)
    at.selectbox(key="sn_game").set_value("gouji").run()
    assert at.query_params["game"] == "gouji" and not at.dataframe
    assert "No session matches these filters." in _notes(at)


def test_planted_url_values_are_dropped(corpus, monkeypatch):
    db, _ = corpus
    at = _page(db, monkeypatch, game="<script>", since="yesterday", until="2026-13-01")
    assert at.selectbox(key="sn_game").value is None
    assert at.date_input(key="sn_since").value is None
    assert at.date_input(key="sn_until").value is None
    assert dict(at.query_params) == {}
    assert len(at.dataframe[0].value) == 3


def test_a_session_page_and_the_way_back(corpus, monkeypatch):
    db, want = corpus
    sid = "keng-s3-00001"
    w = want["sessions"][sid]
    player = next(iter(w["totals"]))
    at = _page(db, monkeypatch, session=sid, player=player, game="keng")
    games = at.dataframe[0]
    frame = games.value
    assert list(frame["game id"]) == [g["game_id"] for g in w["games"]]
    assert list(frame["#"]) == [1, 2, 3, 4]
    assert list(frame["replay"]) == [f"./replay?game={g['game_id']}" for g in w["games"]]
    players = w["games"][0]["players"]
    labels = _labels(games)
    assert [labels[f"p{i}"] for i in range(6)] == players
    running = dict.fromkeys(players, 0)
    for i, g in enumerate(w["games"]):
        for j, (p, s) in enumerate(zip(g["players"], g["scores"], strict=True)):
            running[p] += s
            assert frame[f"p{j}"][i] == f"{s:+d} ({running[p]:+d})"
    totals = at.dataframe[1].value
    assert dict(zip(totals["player"], totals["total"], strict=True)) == w["totals"]
    assert sorted(totals["player"][totals["won"]]) == w["winners"]
    (chart,) = at.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["title"] == "running total per player" and spec["mark"]["type"] == "line"
    assert (spec["encoding"]["x"]["field"], spec["encoding"]["y"]["field"],
            spec["encoding"]["color"]["field"]) == ("game", "total", "player")
    (dataset,) = chart.proto.datasets
    points = pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()
    assert len(points) == 6 * 5                       # each player from 0, then after each game
    assert {(r["player"], r["total"]) for r in points if r["game"] == 4} == set(
        w["totals"].items())
    assert {r["total"] for r in points if r["game"] == 0} == {0}
    assert f"Won by {', '.join(w['winners'])} with {w['top']:+d}." in _notes(at)
    at.button(key="sn_back").click().run()
    assert not at.exception
    assert dict(at.query_params) == {"player": player, "game": "keng"}
    assert at.text_input(key="sn_player").value == player
    assert sid in list(at.dataframe[0].value["session"])


def test_an_unknown_session(corpus, monkeypatch):
    db, _ = corpus
    at = _page(db, monkeypatch, session="keng-s3-99999")
    assert "Session keng-s3-99999 is not in the warehouse" in _notes(at)
    assert not at.dataframe


def test_a_hostile_player_id_is_plain_text(evil_db, monkeypatch):
    for query in ({}, {"player": EVIL}, {"session": "keng-s3-00000"},
                  {"session": "keng-s3-00000", "player": EVIL}):
        at = _page(evil_db, monkeypatch, **query)
        for text in _markdown(at):
            assert EVIL not in text and "![" not in text and "<img" not in text, text
        for h in at.html:
            assert "<img" not in h.proto.body and "<a " not in h.proto.body
        shown = [str(v) for d in at.dataframe for v in d.value.to_numpy().ravel()]
        shown += [label or "" for d in at.dataframe for label in _labels(d).values()]
        assert any(EVIL in v for v in shown), query
    assert f"Won by {EVIL}, " in _notes(at)     # a winner, named in a plain-text note
