"""The dashboard on a Parquet lake (``liujia serve --lake DIR``): every page shows, element for
element, what it shows on the warehouse file of the same logs — metrics, tables, texts, the
replay of a game and a player's profile — and a rebuilt lake is read afresh."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from engine.log import write_log
from engine.sim import simulate
from ingest.lake import build_lake

# when a run happened and how long it took: not the same for two builds of the same logs
RUN_COLUMNS = ("first_seen", "started", "finished", "seconds", "command", "paths")
APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")


@pytest.fixture(scope="module")
def lake_of_tiny(tiny_db, tmp_path_factory):
    """A lake built from the logs the tiny warehouse was ingested from."""
    logs = tiny_db.parent / "logs"
    lk = tmp_path_factory.mktemp("dash-lake") / "lake"
    s = build_lake([logs], lk, progress=False)
    assert s.loaded == 20 and s.quarantined == 1
    return lk


def _shown(source: Path, monkeypatch, page: str, **query: str) -> list[str]:
    """Everything a page shows, as text, in order (metrics, tables, texts, HTML bodies)."""
    monkeypatch.setenv("LIUJIA_DB", str(source))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    if page != "overview":
        at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    out = [f"{m.label}={m.value}" for m in at.metric]
    out += [df.value.drop(columns=[c for c in RUN_COLUMNS if c in df.value.columns]).to_csv()
            for df in at.dataframe]
    out += [str(x.value) for x in (*at.markdown, *at.caption, *at.warning, *at.info,
                                   *at.error, *at.subheader)]
    out += [unescape(h.proto.body) for h in at.html]
    return [x.replace(str(source), "<source>") for x in out]


@pytest.mark.parametrize("page, query", [
    ("overview", {}), ("players", {}), ("search", {}), ("quarantine", {}), ("audit", {}),
    ("sessions", {}),
])
def test_every_page_shows_the_same_on_the_lake(tiny_db, lake_of_tiny, monkeypatch, page,
                                               query):
    want = _shown(tiny_db, monkeypatch, page, **query)
    got = _shown(lake_of_tiny, monkeypatch, page, **query)
    assert len(want) > 2
    assert got == want


def test_a_game_and_a_profile_show_the_same_on_the_lake(tiny_db, lake_of_tiny, dash_games,
                                                         monkeypatch):
    game = dash_games[3][0].game_id
    for page, query in (("replay", {"game": game, "step": "40"}),
                        ("players", {"player": _a_player(tiny_db)})):
        want = _shown(tiny_db, monkeypatch, page, **query)
        assert _shown(lake_of_tiny, monkeypatch, page, **query) == want
        assert any(game in w for w in want) or page == "players"


def _a_player(db: Path) -> str:
    from warehouse.db import reader
    with reader(db) as con:
        return con.execute("SELECT min(player_id) FROM seats").fetchall()[0][0]


def test_a_lake_built_again_is_read_afresh(lake_of_tiny, tmp_path, monkeypatch):
    import shutil

    lk = tmp_path / "lake"
    shutil.copytree(lake_of_tiny, lk)
    before = _shown(lk, monkeypatch, "overview")
    write_log(tmp_path / "more.arrows", [g.events for g in simulate("keng", 2, seed=77)])
    build_lake([tmp_path / "more.arrows"], lk, progress=False)
    after = _shown(lk, monkeypatch, "overview")
    st.cache_data.clear()
    assert "games=20" in before and "games=22" in after
