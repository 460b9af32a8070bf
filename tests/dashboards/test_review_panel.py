"""The replay page's review of the step's decision (dashboards/review_panel.py): on request for
the auditor and for the deciding seat only; the candidates and the verdict; the "what if"
table of the better line drawn as the deciding seat sees it; a game without a sampler says
so."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import review_panel
from engine.games import find_game
from engine.log import write_log
from engine.replay import Replay
from engine.sim import simulate

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
GAME = "modaoshuang"


@pytest.fixture(scope="module")
def mds_games():
    g = find_game(GAME)
    return [s.events for s in simulate(GAME, 3, 21, policy_name="greedy",
                                       options=g.Options(mds_players=3))]


@pytest.fixture(scope="module")
def mds_db(tmp_path_factory, mds_games):
    from ingest import ingest_paths
    root = tmp_path_factory.mktemp("mds-warehouse")
    (root / "logs").mkdir()
    write_log(root / "logs" / "mds.arrows", mds_games)
    db = root / "mds.duckdb"
    assert ingest_paths([root / "logs"], db=db, progress=False).loaded == 3
    return db


def _page(db: Path, monkeypatch, **query: str) -> AppTest:
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(query)
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _decision_step(events) -> tuple[int, int]:
    """A step whose event is a decision with a choice, and its seat."""
    rp = Replay(events)
    step = next(i for i in range(1, len(rp))
                if review_panel.decision_at(rp, i, "auditor") is not None)
    return step, events[step].seat


def _review_expanders(at: AppTest) -> list:
    return [x for x in at.expander if x.label.startswith("Review this decision")]


def test_the_auditor_reviews_a_decision_on_request(mds_db, mds_games, monkeypatch):
    gid = mds_games[0][0].game_id
    step, seat = _decision_step(mds_games[0])
    at = _page(mds_db, monkeypatch, game=gid, step=str(step), view="auditor")
    (box,) = _review_expanders(at)
    assert f"seat {seat}" in box.label
    assert not [d for d in at.dataframe if "best in" in d.value.columns]   # not before asked
    next(b for b in at.button if b.label == "Review it").click().run()
    assert not at.exception, [e.value for e in at.exception]
    (cands,) = [d.value for d in at.dataframe if "best in" in d.value.columns]
    assert list(cands.columns) == ["", "action", "value", "± se", "best in"]
    assert "chosen" in list(cands[""]) and len(cands) >= 2
    assert any("loss" in h.proto.body and "worlds" in h.proto.body for h in at.html)


def test_a_seat_sees_only_its_own_decisions_reviewed(mds_db, mds_games, monkeypatch):
    gid = mds_games[0][0].game_id
    step, seat = _decision_step(mds_games[0])
    own = _page(mds_db, monkeypatch, game=gid, step=str(step), view=str(seat))
    assert len(_review_expanders(own)) == 1
    other = _page(mds_db, monkeypatch, game=gid, step=str(step), view=str((seat + 1) % 3))
    assert _review_expanders(other) == []


def test_the_what_if_world_follows_the_better_line(mds_games):
    from engine.review import review_decision
    for events in mds_games:
        rp = Replay(events)
        for step in range(1, len(rp)):
            e = review_panel.decision_at(rp, step, "auditor")
            if e is None:
                continue
            r = review_decision(rp.game, rp.state_at(step - 1), e.seat, e,
                                review_panel._seen(rp, e.seat, step), review_panel.SETTINGS,
                                step)
            if r is None or r.chosen == 0 or len(r.best.line) < 2:
                continue
            w0 = review_panel.what_if(rp, step, r, 0)
            w2 = review_panel.what_if(rp, step, r, 2)
            assert w0.seq == step + 1 and w2.seq == step + 3
            view = rp.game.view(w0, e.seat)
            assert view["hands"][e.seat] != rp.game.view(rp.state_at(step), e.seat)["hands"][
                e.seat] or r.best.action.cards == e.cards
            return
    pytest.skip("no reviewed decision with a better line in these games")


def test_a_game_without_a_sampler_says_it_cannot_be_reviewed(mds_db, mds_games, monkeypatch):
    import dataclasses

    from engine import games
    # 摸到爽 as a package that declares no sample_world would register it
    monkeypatch.setitem(games._CACHE, GAME, dataclasses.replace(find_game(GAME),
                                                                sample_world=None))
    import streamlit as st
    st.cache_resource.clear()       # the replays the earlier tests cached hold the real game
    st.cache_data.clear()
    gid = mds_games[0][0].game_id
    at = _page(mds_db, monkeypatch, game=gid, step="10", view="auditor")
    assert any("cannot be reviewed yet" in h.proto.body for h in at.html)
    assert _review_expanders(at) == []


def test_a_stored_review_is_shown_at_once(tmp_path, mds_games, monkeypatch):
    """A warehouse ingested with --review: the step's stored verdict and candidates are shown
    without asking, as the reviews table holds them; a seat never sees another's."""
    import duckdb

    from engine.review import Settings
    from ingest import ingest_paths
    (tmp_path / "logs").mkdir()
    write_log(tmp_path / "logs" / "mds.arrows", mds_games[:1])
    db = tmp_path / "reviewed.duckdb"
    ingest_paths([tmp_path / "logs"], db=db, progress=False, workers=1,
                 review=Settings(seed=2, min_worlds=8, max_worlds=8, batch=8, candidates=3))
    gid = mds_games[0][0].game_id
    step, seat = _decision_step(mds_games[0])
    with duckdb.connect(str(db), read_only=True) as con:
        texts, rank, seed = con.execute(
            "SELECT list_transform(candidates, lambda c: c.text), rank, seed FROM reviews "
            "WHERE game_id = ? AND seq = ?", [gid, step]).fetchone()
    at = _page(db, monkeypatch, game=gid, step=str(step), view="auditor")
    (cands,) = [d.value for d in at.dataframe if "best in" in d.value.columns]
    assert list(cands["action"]) == list(texts)
    assert list(cands[""]).index("chosen") == rank
    assert all(m == "better" for m in list(cands[""])[:rank])
    assert any(f"Stored review (seed {seed}" in h.proto.body for h in at.html)
    assert [b.label for b in at.button if b.label.startswith("Review it")] == [
        "Review it again, with the better line"]
    other = _page(db, monkeypatch, game=gid, step=str(step), view=str((seat + 1) % 3))
    assert not [d for d in other.dataframe if "best in" in d.value.columns]
    assert not any("Stored review" in h.proto.body for h in other.html)
