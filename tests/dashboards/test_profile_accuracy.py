"""The profile's accuracy section under AppTest, over a warehouse ingested with ``--review``:
per game type the reviewed and graded decisions, the mean loss and the share of mistakes and
blunders equal to the review rows counted here in Python (the population's too), the worst
decisions ordered by loss with links to the moment in the player's seat; a warehouse without
reviews says how to make them; under MIN_GRADED graded decisions the figures are withheld."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from engine.log import write_log
from engine.review import Settings
from engine.sim import simulate
from ingest import ingest_paths
from warehouse import reviews as wr

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
SETTINGS = Settings(seed=1, min_worlds=8, max_worlds=8, batch=8, candidates=4)


@pytest.fixture(scope="module")
def dbs(tmp_path_factory, toy_game):
    root = tmp_path_factory.mktemp("accuracy")
    (root / "logs").mkdir()
    write_log(root / "logs" / "a.arrows", [g.events for g in simulate(toy_game, 10, seed=21)])
    reviewed, plain = root / "r.duckdb", root / "p.duckdb"
    ingest_paths([root / "logs"], db=reviewed, progress=False, workers=1, review=SETTINGS)
    ingest_paths([root / "logs"], db=plain, progress=False, workers=1)
    return reviewed, plain


def _rows(db) -> list[dict]:
    with duckdb.connect(str(db), read_only=True) as con:
        cur = con.execute("SELECT player_id, game, game_id, seq, seat, loss, grade, withheld "
                          "FROM reviews")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _page(db, monkeypatch, **query: str) -> AppTest:
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    at.switch_page("views/players.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_accuracy_and_worst_decisions_are_the_reviews(dbs, monkeypatch):
    db, _ = dbs
    import streamlit as st
    st.cache_data.clear()
    monkeypatch.setattr(wr, "MIN_GRADED", 5)
    rows = _rows(db)
    graded = [r for r in rows if r["withheld"] is None]
    player = max({r["player_id"] for r in graded},
                 key=lambda p: sum(r["player_id"] == p for r in graded))
    mine = [r for r in graded if r["player_id"] == player]
    assert len(mine) >= 5
    at = _page(db, monkeypatch, player=player)
    (acc,) = [d.value for d in at.dataframe if "mistakes and blunders" in d.value.columns]
    assert list(acc["reviewed"]) == [sum(r["player_id"] == player for r in rows)]
    assert list(acc["graded"]) == [len(mine)]
    assert acc["mean loss"][0] == pytest.approx(sum(r["loss"] for r in mine) / len(mine))
    bad = sum(r["grade"] in ("mistake", "blunder") for r in mine)
    assert acc["mistakes and blunders"][0] == pytest.approx(bad / len(mine))
    assert acc["everyone's mean loss"][0] == pytest.approx(
        sum(r["loss"] for r in graded) / len(graded))
    worst = [d.value for d in at.dataframe if "better" in d.value.columns]
    gradeds = sorted((r for r in mine if r["grade"] is not None), key=lambda r: -r["loss"])
    if gradeds:
        (table,) = worst
        assert list(table["loss"]) == pytest.approx([r["loss"] for r in gradeds[:10]])
        top = gradeds[0]
        assert table["replay"][0] == (f"./replay?game={top['game_id']}&step={top['seq']}"
                                      f"&view={top['seat']}")
    else:
        assert not worst


def test_figures_are_withheld_under_the_minimum(dbs, monkeypatch):
    db, _ = dbs
    import streamlit as st
    st.cache_data.clear()              # the figures another test's minimum cached
    monkeypatch.setattr(wr, "MIN_GRADED", 10_000)
    player = _rows(db)[0]["player_id"]
    at = _page(db, monkeypatch, player=player)
    (acc,) = [d.value for d in at.dataframe if "mistakes and blunders" in d.value.columns]
    assert acc["mean loss"].isna().all() and acc["mistakes and blunders"].isna().all()
    assert acc["graded"][0] > 0


def test_no_reviews_says_how_to_make_them(dbs, monkeypatch):
    reviewed, plain = dbs
    player = _rows(reviewed)[0]["player_id"]
    at = _page(plain, monkeypatch, player=player)
    assert not [d for d in at.dataframe if "mistakes and blunders" in d.value.columns]
    assert any("liujia ingest --review" in c.value for c in at.caption)
