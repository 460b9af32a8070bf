"""Fixtures of the dashboard tests: seeded games, and tiny warehouses built with ingest_paths
(one of 六人坑 games for the app tests, one of 够级 games for the 够级 table)."""

from __future__ import annotations

import pytest

from engine.events import seal_events
from engine.log import write_log
from engine.replay import Replay
from engine.sim import simulate


@pytest.fixture(scope="session")
def dash_games():
    """Twenty seeded 六人坑 games (sealed events), the same on every run."""
    return [g.events for g in simulate("keng", 20, seed=11)]


@pytest.fixture(scope="session")
def replay(dash_games):
    """The longest of those games as a Replay (it has duels, pending draws, reshuffles)."""
    return Replay(max(dash_games, key=len))


def _illegal_game():
    """A sealed game whose first PASS is turned into a play of a card the seat lacks."""
    events = next(iter(simulate("keng", 1, seed=12))).events
    i = next(i for i, e in enumerate(events) if e.kind == "PASS")
    bad = events[i]._replace(kind="PLAY", cards=(53,), value=0)
    return seal_events([*events[:i], bad, *events[i + 1:]])


@pytest.fixture(scope="session")
def tiny_db(tmp_path_factory, dash_games):
    """A warehouse of the twenty games plus one quarantined game, built with ingest_paths."""
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("warehouse")
    logs = root / "logs"
    logs.mkdir()
    write_log(logs / "good.arrows", dash_games)
    write_log(logs / "bad.arrows", [_illegal_game()])
    db = root / "tiny.duckdb"
    summary = ingest_paths([logs], db=db, progress=False)
    assert summary.loaded == len(dash_games) and summary.quarantined == 1, summary
    return db


@pytest.fixture
def app_db(tiny_db, monkeypatch):
    """Point the dashboard at the tiny warehouse."""
    monkeypatch.setenv("LIUJIA_DB", str(tiny_db))
    return tiny_db


@pytest.fixture(scope="session")
def gouji_games():
    """One session of seven seeded 够级 games (sealed events) with ``kaidian_effect=record``, so
    that anyone may burn: it has the cut, burns and counter-burns, 让牌, locked and passed seats,
    诈烧, 闷, 宣点 / 和点, 开点, 串三户 with a designation, and 会五."""
    from engine.games.gouji import Options

    return [g.events for g in simulate("gouji", 7, seed=10,
                                       options=Options(kaidian_effect="record"))]


@pytest.fixture(scope="session")
def gouji_db(tmp_path_factory, gouji_games):
    """A warehouse of the seven 够级 games only, built with ingest_paths."""
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("gouji-warehouse")
    logs = root / "logs"
    logs.mkdir()
    write_log(logs / "gouji.arrows", gouji_games)
    db = root / "gouji.duckdb"
    summary = ingest_paths([logs], db=db, progress=False)
    assert summary.loaded == len(gouji_games) and summary.quarantined == 0, summary
    return db


@pytest.fixture
def gouji_app_db(gouji_db, monkeypatch):
    """Point the dashboard at the 够级 warehouse."""
    monkeypatch.setenv("LIUJIA_DB", str(gouji_db))
    return gouji_db
