"""The recorder fills in the automatic events (``?auto=true``): a game server sends only what
happened at the table — the players' actions and the chance outcomes the engine cannot derive
(a shuffle, a cut) — and the sealed log is the whole game, event for event.

For every registered game a seeded game is split the way the recorder splits it: an event the
engine derives at that point (``auto_event`` without a generator) is the recorder's, any other
is the game server's. The table in docs/record-server.md ("Which events a game server sends")
must say the same kinds per game.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():          # starlette's note on httpx at import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from engine.events import Event
from engine.games import BUILT_IN, GAMES
from engine.log import read_log
from liujia.server.app import create_app
from liujia.server.store import Store
from tests.server import worked_sessions as ws
from tests.server.test_record_server import TOKEN, H, wire

DOC = Path(__file__).resolve().parents[2] / "docs" / "record-server.md"
split = ws.split
_same = ws.same


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Store(tmp_path, max_behind=None), {"gs1": TOKEN}))


def _kinds(events: list[Event]) -> set[str]:
    return {e.kind for e in events}


@pytest.fixture(scope="module", params=sorted(GAMES))
def played(request) -> tuple[str, list[Event]]:
    return request.param, ws.game_of(request.param)


def test_a_game_server_sends_only_what_happened_at_the_table(played, tmp_path):
    game, events = played
    sent, filled = split(events)
    assert filled, f"{game}: the engine derives no automatic event"
    with _client(tmp_path) as c:
        r = c.post("/v1/games?auto=true", json=wire(events[0]), headers=H)
        assert r.status_code == 201, r.json()
        acks = r.json()["filled"]
        for e in sent[1:]:
            r = c.post(f"/v1/games/{e.game_id}/events?auto=true", json=wire(e), headers=H)
            assert r.status_code == 200, (e.describe(), r.json())
            assert r.json()["seq"] == e.seq                 # nothing missing before it
            acks += r.json()["filled"]
        assert r.json()["over"] and r.json().get("sealed")
    assert all(a["auto"] for a in acks) and [a["seq"] for a in acks] == [e.seq for e in filled]
    log = read_log(tmp_path / "sealed" / f"{events[0].game_id}.arrows")
    assert log.ok
    stored = log.games[0].events
    assert len(stored) == len(events)
    assert all(_same(a, b) for a, b in zip(stored, events, strict=True))


def test_a_batch_with_auto_gets_acks_for_the_filled_events(tmp_path):
    events = ws.game_of("keng")
    sent, filled = split(events)
    gid = events[0].game_id
    with _client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)      # no auto: nothing filled
        st = c.get(f"/v1/games/{gid}", headers=H).json()
        assert st["next_seq"] == 1 and st["next_auto"] == events[1].kind
        deal = c.post(f"/v1/games/{gid}/batch?auto=true", json={"events": []},
                      headers=H).json()["acks"]            # nothing sent: only what is owed
        acks = c.post(f"/v1/games/{gid}/batch?auto=true",
                      json={"events": [wire(sent[1])]}, headers=H).json()["acks"]
    assert deal and all(a["auto"] for a in deal)
    assert [a["seq"] for a in deal] == list(range(1, sent[1].seq))
    assert acks[0].get("auto") is None and acks[0]["seq"] == sent[1].seq
    assert [a["seq"] for a in acks[1:]] == [e.seq for e in filled
                                            if sent[1].seq < e.seq < sent[2].seq]
    assert all(a["auto"] for a in acks[1:])


def test_nothing_sent_and_no_auto_is_refused(tmp_path):
    events = ws.game_of("keng")
    with _client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        r = c.post(f"/v1/games/{events[0].game_id}/batch", json={"events": []}, headers=H)
    assert r.status_code == 422 and r.json()["reason"] == "no events"


def test_auto_must_be_true_or_false(tmp_path):
    events = ws.game_of("keng")
    with _client(tmp_path) as c:
        r = c.post("/v1/games?auto=yes", json=wire(events[0]), headers=H)
    assert r.status_code == 422 and r.json()["field"] == "auto"


def _doc_table() -> dict[str, tuple[set[str], set[str]]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Which events a game server sends", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for m in re.finditer(r"^\| `([a-z0-9_]+)` \| ([^|]*) \| ([^|]*) \|$", section, re.M):
        rows[m[1]] = (set(re.findall(r"`([A-Z_]+)`", m[2])),
                      set(re.findall(r"`([A-Z_]+)`", m[3])))
    return rows


def test_the_documented_split_is_the_engines(played):
    game, events = played
    if game not in BUILT_IN:
        pytest.skip(f"{game} is a test-only game")
    sent, filled = split(events)
    doc = _doc_table()
    assert game in doc, f"docs/record-server.md: no row for {game}"
    doc_sent, doc_filled = doc[game]
    assert _kinds(sent) <= doc_sent, (game, _kinds(sent) - doc_sent)
    assert _kinds(filled) <= doc_filled, (game, _kinds(filled) - doc_filled)


@pytest.mark.parametrize("game", BUILT_IN)
def test_each_worked_session_records_the_whole_game(game, tmp_path):
    path = ws.HERE / f"{game}.http"
    text = path.read_text(encoding="utf-8")
    assert text == ws.session_text(game), f"{path}: regenerate (python -m {ws.__name__})"
    lines = [ln for ln in text.splitlines() if not ln.startswith("#")]
    with _client(tmp_path) as c:
        for request, body in zip(lines[::2], lines[1::2], strict=True):
            method, url = request.split(" ", 1)
            r = c.request(method, url, content=body.encode(), headers=H)
            assert r.status_code in (200, 201), (request, r.json())
        assert r.json()["over"] and r.json()["sealed"]
    events = ws.game_of(game)
    log = read_log(tmp_path / "sealed" / f"{events[0].game_id}.arrows")
    assert log.ok and all(_same(a, b) for a, b in zip(log.games[0].events, events, strict=True))
