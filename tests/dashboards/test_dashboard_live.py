"""The overview lists the games a recording service has open (``liujia serve --live DIR``),
read from its append logs as untrusted text; finished games are not listed."""

from __future__ import annotations

import warnings
from pathlib import Path

from streamlit.testing.v1 import AppTest

from dashboards.live import live_games
from engine.jsonl import event_to_obj
from engine.sim import simulate
from liujia.server.app import create_app
from liujia.server.store import Store

with warnings.catch_warnings():          # starlette's note on httpx at import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
H = {"Authorization": "Bearer " + "t" * 24}


def _wire(e):
    obj = event_to_obj(e)
    del obj["digest"]
    return obj


def _record(data: Path, n: int):
    """Two games opened at a recording service: one played n events, one to its end."""
    a, b = (next(simulate("keng", 1, seed=s)).events for s in (3, 4))
    # simulated games are stamped from 2026-01-01: no bound on how far behind the clock
    with TestClient(create_app(Store(data, max_behind=None), {"gs1": "t" * 24})) as c:
        for g, upto in ((a, n), (b, len(b))):
            assert c.post("/v1/games", json=_wire(g[0]), headers=H).status_code == 201
            for e in g[1:upto]:
                assert c.post(f"/v1/games/{e.game_id}/events", json=_wire(e),
                              headers=H).status_code == 200
    return a, b


def test_live_games_lists_the_open_games_only(tmp_path):
    a, _ = _record(tmp_path, 20)
    rows = live_games(tmp_path)
    assert [(r["game_id"], r["game"], r["events"]) for r in rows] == [(a[0].game_id, "keng", 20)]
    assert rows[0]["last event"] == a[19].kind
    (tmp_path / "live" / "junk.jsonl.live").write_bytes(b"\x1b[2J\n\xff\xfe not json\n")
    assert len(live_games(tmp_path)) == 1                 # an unreadable file is passed over
    assert live_games(tmp_path / "nowhere") == []


def test_the_overview_shows_the_games_in_progress(app_db, tmp_path, monkeypatch):
    a, _ = _record(tmp_path, 12)
    monkeypatch.setenv("LIUJIA_LIVE", str(tmp_path))
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    assert "Games in progress" in [s.value for s in at.subheader]
    frame = at.dataframe[0].value
    assert list(frame["game_id"]) == [a[0].game_id] and list(frame["events"]) == [12]
