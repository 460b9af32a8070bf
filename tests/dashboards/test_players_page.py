"""The players page under AppTest: the players list (every player, counts equal to SQL over the
warehouse, search and game filter, a selected row opens the profile), the profile's tendencies
per game (k / n equal warehouse.tendencies.player_tendencies), their chart, the partnerships,
the game filter over the whole profile, and a player id holding Markdown shown as plain text."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from engine.events import seal_events
from engine.log import write_log
from tests.dashboards.test_dashboard_seats import _assert_plain
from warehouse import tendencies as wt
from warehouse.db import reader

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
EVIL = "p-`x`-![y](http://127.0.0.1:9/b.png)"
COUNTS_SQL = """SELECT s.player_id, count(*) AS games,
    sum(CASE WHEN s.result = 'win' THEN 1 ELSE 0 END) AS wins,
    sum(CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END) AS losses,
    sum(CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END) AS draws
    FROM seats s JOIN games g USING (game_id) WHERE g.game LIKE ? GROUP BY 1"""


def _page(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    at.switch_page("views/players.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _sql_counts(db, game: str = "%") -> dict[str, tuple[int, int, int, int]]:
    with reader(db) as con:
        rows = con.sql(COUNTS_SQL, params=[game]).fetchall()
    return {p: (int(g), int(w), int(lo), int(d)) for p, g, w, lo, d in rows}


def _listed(at: AppTest) -> dict[str, tuple[int, int, int, int]]:
    (table,) = [d.value for d in at.dataframe if d.key and d.key.startswith("pl_list_")]
    return {r.player_id: (r.games, r.wins, r.losses, r.draws) for r in table.itertuples()}


def _tendency_tables(at: AppTest):
    return [d.value for d in at.dataframe if "did" in d.value.columns]


def _notes(at: AppTest) -> str:
    return unescape("\n".join(h.proto.body for h in at.html if "lj-note" in h.proto.body))


@pytest.fixture(scope="module")
def mixed_db(tmp_path_factory, dash_games, gouji_games):
    """A warehouse of both games: the twenty 六人坑 games and the seven 够级 games."""
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("players-warehouse")
    logs = root / "logs"
    logs.mkdir()
    write_log(logs / "keng.arrows", dash_games)
    write_log(logs / "gouji.arrows", gouji_games)
    db = root / "mixed.duckdb"
    summary = ingest_paths([logs], db=db, progress=False)
    assert summary.loaded == len(dash_games) + len(gouji_games), summary
    return db


@pytest.fixture
def mixed_app_db(mixed_db, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(mixed_db))
    return mixed_db


def _both_games_player(db) -> str:
    with reader(db) as con:
        return con.sql("SELECT s.player_id FROM seats s JOIN games g USING (game_id) "
                       "GROUP BY 1 HAVING count(DISTINCT g.game) = 2 "
                       "ORDER BY count(*) DESC, 1 LIMIT 1").fetchall()[0][0]


# ---------------------------------------------------------------- the list

def test_list_shows_every_player_with_sql_counts(app_db):
    at = _page()
    assert "Type a player id, or select a player" in "\n".join(c.value for c in at.caption)
    listed = _listed(at)
    assert listed == _sql_counts(app_db)
    with reader(app_db) as con:
        (players,) = con.sql("SELECT count(DISTINCT player_id) FROM seats").fetchall()[0]
    assert len(listed) == players
    (table,) = [d.value for d in at.dataframe if d.key and d.key.startswith("pl_list_")]
    assert {"decided", "win_rate", "last_seen"} <= set(table.columns)
    for r in table.itertuples():
        decided = r.wins + r.losses
        assert r.decided == decided
        if decided:
            assert r.win_rate == pytest.approx(r.wins / decided)
        else:
            assert pd.isna(r.win_rate)


def test_search_and_game_filter_narrow_the_list(mixed_app_db):
    at = _page()
    everyone = _listed(at)
    assert everyone == _sql_counts(mixed_app_db)
    part = sorted(everyone)[0][-2:]
    at.text_input(key="pl_search").input(part).run()
    assert not at.exception
    found = _listed(at)
    assert found and len(found) < len(everyone)
    assert found == {p: c for p, c in everyone.items() if part in p}
    at.text_input(key="pl_search").input("").run()
    assert at.selectbox(key="pl_list_game").options == ["all games", "gouji", "keng"]
    at.selectbox(key="pl_list_game").set_value("gouji").run()
    assert not at.exception
    assert _listed(at) == _sql_counts(mixed_app_db, "gouji")
    at.text_input(key="pl_search").input("nobody-has-this").run()
    assert _listed(at) == {}


def test_selecting_a_row_opens_the_profile(app_db):
    at = _page()
    (frame,) = [d for d in at.dataframe if d.key and d.key.startswith("pl_list_")]
    chosen = frame.value["player_id"].iloc[2]
    at.session_state[frame.key] = {"selection": {"rows": [2], "columns": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["player"] == chosen
    assert at.text_input(key="pl_player").value == chosen
    assert {m.label: m.value for m in at.metric}["games"] == str(_sql_counts(app_db)[chosen][0])
    # clearing the player shows the list again, with no row selected
    at.text_input(key="pl_player").input("").run()
    assert not at.exception and _listed(at) == _sql_counts(app_db)


# ---------------------------------------------------------------- the profile

def test_profile_tendencies_per_game_chart_and_partnerships(mixed_app_db):
    player = _both_games_player(mixed_app_db)
    at = _page(player=player)
    assert not any(s.value == "How this player plays 够级" for s in at.subheader)
    assert [m.value for m in at.markdown if m.value.startswith("####")] == [
        "#### keng", "#### gouji"]
    tables = _tendency_tables(at)
    assert len(tables) == 2
    with reader(mixed_app_db) as con:
        for game, shown in zip(("keng", "gouji"), tables, strict=True):
            want = wt.player_tendencies(con, player, game).to_pylist()
            assert list(shown["tendency"]) == [r["tendency"] for r in want]
            assert list(shown["did"]) == [r["k"] for r in want]
            assert list(shown["could"]) == [r["n"] for r in want]
            about = {t.name: t.description for t in wt.catalog(game)}
            assert list(shown["description"]) == [about[r["tendency"]] for r in want]
            assert {"rate", "95% interval", "population_rate", "percentile"} <= set(
                shown.columns)
        partners = wt.partnerships(con, player).to_pylist()
    charts = at.get("vega_lite_chart")
    assert len(charts) == 2
    spec = json.loads(charts[1].proto.spec)
    marks = {layer["mark"]["type"] for layer in spec["layer"]}
    assert marks == {"rule", "point", "tick"}
    (pt,) = [d.value for d in at.dataframe if "partner" in d.value.columns]
    assert list(zip(pt["partner"], pt["relation"], pt["n"], pt["wins"], strict=True)) == [
        (r["partner"], r["relation"], r["games"], r["wins"]) for r in partners]


def test_game_filter_applies_to_the_whole_profile(mixed_app_db):
    player = _both_games_player(mixed_app_db)
    at = _page(player=player)
    assert at.selectbox(key="pl_game").options == ["all games", "gouji", "keng"]
    at.selectbox(key="pl_game").set_value("gouji").run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["games"] == str(_sql_counts(mixed_app_db, "gouji")[player][0])
    assert [m.value for m in at.markdown if m.value.startswith("####")] == ["#### gouji"]
    assert len(_tendency_tables(at)) == 1 and len(at.get("vega_lite_chart")) == 1
    record = at.dataframe[0].value
    assert set(record["game"]) == {"gouji"}
    (pt,) = [d.value for d in at.dataframe if "partner" in d.value.columns]
    assert set(pt["game"]) == {"gouji"}
    games = at.dataframe[-1].value
    assert set(games["game"]) == {"gouji"} and len(games) == int(metrics["games"])


# ---------------------------------------------------------------- untrusted text

@pytest.fixture(scope="module")
def evil_db(tmp_path_factory, dash_games):
    """Two 六人坑 games whose first player id holds Markdown, ingested with the engine's id
    check switched off (a warehouse someone else wrote)."""
    from ingest import ingest_paths

    games = []
    for events in dash_games[:2]:
        payload = json.loads(events[0].payload)
        payload["players"][0] = EVIL
        start = events[0]._replace(payload=json.dumps(payload, sort_keys=True,
                                                      separators=(",", ":")))
        games.append(seal_events([start, *events[1:]]))
    root = tmp_path_factory.mktemp("players-evil")
    write_log(root / "evil.arrows", games)
    db = root / "evil.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("engine.games.common.id_problem", lambda value: None)
        summary = ingest_paths([root / "evil.arrows"], db=db, progress=False, workers=1)
    assert summary.loaded == 2, summary
    return db


def test_markdown_player_id_is_plain_text_in_list_and_profile(evil_db, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(evil_db))
    at = _page()
    _assert_plain(at, EVIL)
    assert EVIL in _listed(at)
    at.text_input(key="pl_search").input("`x`-![y]").run()
    assert not at.exception and list(_listed(at)) == [EVIL]
    _assert_plain(at, EVIL)
    (frame,) = [d for d in at.dataframe if d.key and d.key.startswith("pl_list_")]
    at.session_state[frame.key] = {"selection": {"rows": [0], "columns": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["player"] == EVIL
    _assert_plain(at, EVIL)
    assert f"match {EVIL}." in _notes(at)
    assert len(_tendency_tables(at)) == 1
    # the profile from the URL, and a teammate's profile listing the evil id as a partner
    at = _page(player=EVIL)
    _assert_plain(at, EVIL)
    with reader(evil_db) as con:
        mate = con.sql("SELECT player_id FROM seats WHERE seat = 2 LIMIT 1").fetchall()[0][0]
    at = _page(player=mate)
    _assert_plain(at, EVIL)
    (pt,) = [d.value for d in at.dataframe if "partner" in d.value.columns]
    assert EVIL in set(pt["partner"])
