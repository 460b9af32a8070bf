"""The recording service's restart: what its process imports, its recovery of many open games
(docs/record-server.md, "Limits"; the timing is a benchmark, tests/bench/record_restart.py)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_one_command_imports_only_what_it_needs():
    code = ("import sys\nfrom liujia.cli import main\n"
            "try:\n    main(['record-server', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('pandas', 'duckdb', 'streamlit', 'warehouse') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert "record-server" in out and out.strip().endswith("[]"), out


def test_a_sealed_games_verdict_is_kept_while_its_file_is_the_same(tmp_path, monkeypatch):
    import liujia.server.store as store_mod
    from tests.server.test_record_server import HA, _game, client, wire

    events = _game("keng", commit=True)
    gid = events[0].game_id
    calls = []
    real = store_mod.file_verdict
    monkeypatch.setattr(store_mod, "file_verdict", lambda p: calls.append(p) or real(p))
    with client(tmp_path) as c:
        assert c.post("/v1/games", json=wire(events[0]), headers=HA).status_code == 201
        r = c.post(f"/v1/games/{gid}/batch", json={"events": [wire(e) for e in events[1:]]},
                   headers=HA)
        assert r.json()["acks"][-1]["sealed"]
        for _ in range(3):                              # status, a retry of GAME_END, status
            assert c.get(f"/v1/games/{gid}", headers=HA).json()["sealed"]
            assert c.post(f"/v1/games/{gid}/events", json=wire(events[-1]),
                          headers=HA).json()["duplicate"]
        assert len(calls) == 1
        sealed = tmp_path / "sealed" / f"{gid}.arrows"
        with open(sealed, "ab") as f:                   # another file: read and judged again
            f.write(b"x")
        r = c.get(f"/v1/games/{gid}", headers=HA)
        assert r.status_code == 500 and "does not verify" in r.json()["reason"]
        assert len(calls) == 2


# --- recovery in the background ----------------------------------------------------------------

def _open_games(data, games, upto):
    """Record each game's first ``upto`` events through a server, then stop it (a restart
    finds them open)."""
    from tests.server.test_record_server import H, client, wire

    with client(data) as c:
        for g in games:
            assert c.post("/v1/games", json=wire(g[0]), headers=H).status_code == 201
            r = c.post(f"/v1/games/{g[0].game_id}/batch",
                       json={"events": [wire(e) for e in g[1:upto]]}, headers=H)
            assert r.status_code == 200, r.json()


def _tear(data, events, upto):
    """Half of event ``upto``'s line written after the log: (the log before, the half)."""
    from engine.jsonl import event_line
    from liujia.server.store import LIVE_SUFFIX

    live = data / "live" / f"{events[0].game_id}{LIVE_SUFFIX}"
    whole = live.read_bytes()
    half = (event_line(events[upto]) + "\n").encode()[:40]
    live.write_bytes(whole + half)
    return live, whole, half


def test_requests_recover_the_game_they_name_first(tmp_path):
    """With recovery in the background, each request that names a game not recovered yet
    recovers that game first: a retry is a duplicate, the next event follows the log, a torn
    tail is cut back and kept; games not named stay pending until recover_rest."""
    from liujia.server.store import Store
    from liujia.server.wire import read_event
    from tests.server.test_record_server import _game

    a, b, c, d = (_game(name, seed=s) for name, s in
                  (("keng", 3), ("gouji", 4), ("liuhu", 5), ("keng", 6)))
    _open_games(tmp_path, (a, b, c, d), 20)
    live_b, whole_b, half_b = _tear(tmp_path, b, 20)

    def inc(e):
        from engine.jsonl import event_to_obj
        return read_event(event_to_obj(e), e.game_id)

    async def run():
        store = Store(tmp_path, max_behind=None)
        store.start(background=True)
        assert set(store.pending) == {g[0].game_id for g in (a, b, c, d)} and not store.live
        ack = (await store.append("gs1", a[0].game_id, [inc(a[19])]))[0]      # a retry
        assert ack["duplicate"] and ack["digest"] == a[19].digest.hex()
        ack = (await store.append("gs1", a[0].game_id, [inc(a[20])]))[0]      # the next one
        assert not ack["duplicate"] and ack["digest"] == a[20].digest.hex()
        assert a[0].game_id not in store.pending and len(store.pending) == 3
        st = store.status(b[0].game_id, "gs1")                    # the torn one, by its status
        assert st["next_seq"] == 20 and st["last_digest"] == b[19].digest.hex()
        assert live_b.read_bytes() == whole_b
        assert (live_b.parent / f"{live_b.name}.cut-20").read_bytes() == half_b
        assert any(b[0].game_id in r and "torn" in r for r in store.report), store.report
        ack = await store.open("gs1", inc(c[0]))                  # an open of its id: a retry
        assert ack["duplicate"] and c[0].game_id in store.live
        assert set(store.pending) == {d[0].game_id}
        assert [g["game_id"] for g in store.in_progress()] == \
            [g[0].game_id for g in (a, b, c)]
        await store.recovered()                                     # no task: recovers the rest
        assert not store.pending and store.status(d[0].game_id)["next_seq"] == 20
        store.close()

    asyncio.run(run())


def test_a_game_that_cannot_be_recovered_is_refused_not_lost(tmp_path, monkeypatch):
    """A game whose log cannot be read while recovering in the background is refused (503,
    one line) and reported; the other games are served; its log is left as it was."""
    import liujia.server.store as store_mod
    from liujia.server.store import LIVE_SUFFIX, Refused, Store
    from tests.server.test_record_server import _game

    a, b = _game("keng", seed=3), _game("gouji", seed=4)
    _open_games(tmp_path, (a, b), 10)
    bad = f"{a[0].game_id}{LIVE_SUFFIX}"
    before = (tmp_path / "live" / bad).read_bytes()
    real = store_mod.read_all

    def flaky(dir_fd, name):
        if name == bad:
            raise OSError(5, "Input/output error")
        return real(dir_fd, name)

    monkeypatch.setattr(store_mod, "read_all", flaky)

    async def run():
        store = Store(tmp_path, max_behind=None)
        store.start(background=True)
        await store.recovered()
        with pytest.raises(Refused) as refused:
            store.status(a[0].game_id, "gs1")
        assert refused.value.status == 503 and "Input/output error" in refused.value.body[
            "reason"] and "\n" not in refused.value.body["reason"]
        assert store.status(b[0].game_id, "gs1")["next_seq"] == 10
        assert any(bad in r and "cannot be recovered" in r for r in store.report)
        store.close()

    asyncio.run(run())
    assert (tmp_path / "live" / bad).read_bytes() == before


def test_health_answers_before_recovery_ends(tmp_path):
    """The app started in the background mode answers /v1/health (with the games still to
    recover) and a game's own requests while the background recovery has not run; /v1/games
    waits until every game is recovered, then lists them all."""
    from fastapi.testclient import TestClient

    from liujia.server.app import create_app
    from liujia.server.store import Store
    from tests.server.test_record_server import ADMIN, HA, TOKEN, H, _game, wire

    games = [_game("keng", seed=s) for s in (3, 4, 5)]
    _open_games(tmp_path, games, 15)
    store = Store(tmp_path, max_behind=None)
    gate = threading.Event()
    rest = store.recover_rest

    async def held():
        while not gate.is_set():
            await asyncio.sleep(0.01)
        await rest()

    store.recover_rest = held                     # the background task waits for the gate
    app = create_app(store, {"gs1": TOKEN, "ops": ADMIN}, admins=frozenset({"ops"}),
                     background=True)
    with TestClient(app) as c:
        assert c.get("/v1/health").json() == {"ok": True, "live_games": 3, "recovering": 3}
        g = games[1]
        r = c.post(f"/v1/games/{g[0].game_id}/events", json=wire(g[15]), headers=H)
        assert r.status_code == 200 and r.json()["digest"] == g[15].digest.hex()
        assert c.get("/v1/health").json()["recovering"] == 2
        listed: list = []
        t = threading.Thread(target=lambda: listed.append(c.get("/v1/games", headers=HA)))
        t.start()
        time.sleep(0.3)
        assert not listed                         # still waiting for the other two games
        gate.set()
        t.join(timeout=30)
        assert listed[0].status_code == 200
        assert sorted(x["game_id"] for x in listed[0].json()["games"]) == \
            sorted(x[0].game_id for x in games)
        assert c.get("/v1/health").json()["recovering"] == 0
