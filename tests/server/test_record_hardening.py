"""The recording service against a careless or hostile client (issue 24): time stamps bound
by the server's clock, integers that are integers, a data folder whose files are links, and
tokens that see only their own games."""

from __future__ import annotations

import os
import warnings

import pytest

with warnings.catch_warnings():          # starlette's note on httpx at import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from engine.jsonl import event_line, event_to_obj
from engine.log import read_log
from engine.sim import simulate
from liujia.cli import main
from liujia.server.app import create_app
from liujia.server.store import LIVE_SUFFIX, DataProblem, Store
from liujia.server.tokens import new_token, read_admins, read_tokens
from liujia.server.wire import now_us

TOKEN, OTHER, ADMIN = "t" * 24, "o" * 24, "a" * 24
H = {"Authorization": f"Bearer {TOKEN}"}
H2 = {"Authorization": f"Bearer {OTHER}"}
HA = {"Authorization": f"Bearer {ADMIN}"}


def _game(seed=3):
    return next(simulate("keng", 1, seed=seed)).events


def wire(e, **changes):
    obj = event_to_obj(e._replace(**changes) if changes else e)
    del obj["digest"]
    return obj


def _client(data, **store_args):
    store_args.setdefault("max_behind", None)      # simulated games are stamped 2026-01-01
    return TestClient(create_app(Store(data, **store_args),
                                 {"gs1": TOKEN, "gs2": OTHER, "ops": ADMIN},
                                 admins=frozenset({"ops"})))


def _url(e):
    return f"/v1/games/{e.game_id}/events"


# --- time ------------------------------------------------------------------------------------

def test_a_time_stamp_far_ahead_is_refused_and_the_game_goes_on(tmp_path):
    events = _game()
    with _client(tmp_path) as c:
        assert c.post("/v1/games", json=wire(events[0]), headers=H).status_code == 201
        r = c.post(_url(events[1]), json={**wire(events[1]), "ts": "9999-12-31T23:59:59Z"},
                   headers=H)
        assert r.status_code == 422, r.json()
        body = r.json()
        assert body["field"] == "ts" and "9999-12-31T23:59:59" in body["reason"]
        assert "300 s ahead" in body["reason"] and "\n" not in body["reason"]
        for e in events[1:]:                      # the real events are still taken
            assert c.post(_url(e), json=wire(e), headers=H).status_code == 200
    assert read_log(tmp_path / "sealed" / f"{events[0].game_id}.arrows").games[0].events == events


def test_time_stamps_are_bound_both_ways(tmp_path):
    events = _game()
    now = now_us()
    start = events[0]._replace(ts=now)
    with _client(tmp_path, max_ahead=60, max_behind=3600) as c:
        r = c.post("/v1/games", json=wire(events[0]), headers=H)       # stamped 2026-01-01
        assert r.status_code == 422 and r.json()["field"] == "ts"
        assert "3600 s behind" in r.json()["reason"]
        assert c.post("/v1/games", json=wire(start), headers=H).status_code == 201
        late = wire(events[1], ts=now + 120_000_000)
        r = c.post(_url(events[1]), json=late, headers=H)
        assert r.status_code == 422 and "60 s ahead" in r.json()["reason"]
        ok = wire(events[1], ts=now + 30_000_000)
        assert c.post(_url(events[1]), json=ok, headers=H).status_code == 200
        # a retry of a stored event is not judged again by the clock
        assert c.post(_url(events[1]), json=ok, headers=H).json()["duplicate"]
        unstamped = wire(events[2])
        del unstamped["ts"]
        assert c.post(_url(events[2]), json=unstamped, headers=H).status_code == 200


def test_record_server_options_for_the_window(tmp_path, capsys):
    f = tmp_path / "tokens"
    new_token(f, "gs")
    assert main(["record-server", "--data", str(tmp_path / "d"), "--tokens", str(f),
                 "--max-ahead", "-1"]) == 2
    assert "--max-ahead" in capsys.readouterr().err


# --- types -----------------------------------------------------------------------------------

@pytest.mark.parametrize("field,value", [("seq", 1.0), ("seat", 2.0), ("ts", 1.767225601e15),
                                         ("value", True), ("seq", False)])
def test_integers_are_integers(tmp_path, field, value):
    events = _game()
    with _client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        r = c.post(_url(events[1]), json={**wire(events[1]), field: value}, headers=H)
        assert r.status_code == 422, r.json()
        assert r.json()["field"] == field and "integer" in r.json()["reason"]
        r = c.post(f"/v1/games/{events[0].game_id}/batch",
                   json={"events": [{**wire(events[1]), field: value}]}, headers=H)
        assert r.status_code == 422 and r.json()["field"] == field
        assert c.get(f"/v1/games/{events[0].game_id}", headers=H).json()["next_seq"] == 1


def test_a_float_seq_at_open_is_refused(tmp_path):
    events = _game()
    with _client(tmp_path) as c:
        r = c.post("/v1/games", json={**wire(events[0]), "seq": 0.0}, headers=H)
        assert r.status_code == 422 and r.json()["field"] == "seq"


# --- paths -----------------------------------------------------------------------------------

def _half_game(tmp_path, n=10):
    events = _game()
    with _client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        for e in events[1:n]:
            assert c.post(_url(e), json=wire(e), headers=H).status_code == 200
    return events


def test_a_symlinked_append_log_is_refused_at_start(tmp_path, capsys):
    data = tmp_path / "data"
    events = _half_game(data)
    live = data / "live" / f"{events[0].game_id}{LIVE_SUFFIX}"
    victim = tmp_path / "victim.jsonl"
    # a file elsewhere that recovery would cut: a complete log followed by a torn line
    victim.write_bytes(live.read_bytes() + b'{"torn')
    before = victim.read_bytes()
    live.unlink()
    live.symlink_to(victim)
    with pytest.raises(DataProblem, match="symbolic link") as refused:
        Store(data, max_behind=None).start()
    assert "\n" not in str(refused.value) and live.name in str(refused.value)
    assert victim.read_bytes() == before
    f = tmp_path / "tokens"
    new_token(f, "gs")
    assert main(["record-server", "--data", str(data), "--tokens", str(f)]) == 2
    err = capsys.readouterr().err
    assert "symbolic link" in err and err.count("\n") == 1
    assert victim.read_bytes() == before


def test_a_symlinked_folder_is_refused(tmp_path):
    data = tmp_path / "data"
    (tmp_path / "elsewhere").mkdir()
    data.mkdir()
    (data / "sealed").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(DataProblem, match="sealed"):
        Store(data).start()


def test_the_seal_does_not_write_through_a_planted_link(tmp_path):
    data = tmp_path / "data"
    events = _game()
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    with _client(data) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        for e in events[1:-1]:
            c.post(_url(e), json=wire(e), headers=H)
        tmp = data / "sealed" / f".{events[0].game_id}.arrows.tmp"
        tmp.symlink_to(victim)
        r = c.post(_url(events[-1]), json=wire(events[-1]), headers=H)
        assert r.status_code == 200, r.json()
    assert victim.read_bytes() == b"precious"
    final = data / "sealed" / f"{events[0].game_id}.arrows"
    assert not final.is_symlink()
    assert read_log(final).games[0].events == events


def test_recovery_does_not_follow_a_planted_cut_file(tmp_path):
    data = tmp_path / "data"
    events = _half_game(data)
    live = data / "live" / f"{events[0].game_id}{LIVE_SUFFIX}"
    live.write_bytes(live.read_bytes() + (event_line(events[10])[:20]).encode())
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (live.parent / f"{live.name}.cut-10").symlink_to(victim)
    with pytest.raises(DataProblem, match="cut-10"):
        Store(data, max_behind=None).start()
    assert victim.read_bytes() == b"precious"


# --- scopes ----------------------------------------------------------------------------------

def test_a_token_sees_only_its_own_games(tmp_path):
    a, b = _game(3), _game(4)
    with _client(tmp_path) as c:
        assert c.post("/v1/games", json=wire(a[0]), headers=H).status_code == 201
        assert c.post("/v1/games", json=wire(b[0]), headers=H2).status_code == 201
        assert [g["game_id"] for g in c.get("/v1/games", headers=H).json()["games"]] == \
            [a[0].game_id]
        assert [g["game_id"] for g in c.get("/v1/games", headers=H2).json()["games"]] == \
            [b[0].game_id]
        for url in (f"/v1/games/{b[0].game_id}", f"/v1/games/{b[0].game_id}/close"):
            r = c.post(url, headers=H) if url.endswith("close") else c.get(url, headers=H)
            assert r.status_code == 403 and r.json()["error"] == "forbidden"
        assert c.get(f"/v1/games/{a[0].game_id}", headers=H).status_code == 200
        r = c.get("/v1/recovery", headers=H)
        assert r.status_code == 403 and "admin" in r.json()["reason"]
        # the admin token lists every game, reads any status and the recovery report
        assert {g["game_id"] for g in c.get("/v1/games", headers=HA).json()["games"]} == \
            {a[0].game_id, b[0].game_id}
        assert c.get(f"/v1/games/{b[0].game_id}", headers=HA).status_code == 200
        assert c.get("/v1/recovery", headers=HA).status_code == 200
        # but it writes to no other game server's game
        assert c.post(_url(a[1]), json=wire(a[1]), headers=HA).status_code == 403
        for e in a[1:]:
            c.post(_url(e), json=wire(e), headers=H)
        assert c.get(f"/v1/games/{a[0].game_id}", headers=H2).status_code == 403
        assert c.get(f"/v1/games/{a[0].game_id}", headers=H).json()["sealed"]


def test_a_sealed_game_keeps_its_owner_across_a_restart(tmp_path):
    a = _game()
    with _client(tmp_path) as c:
        c.post("/v1/games", json=wire(a[0]), headers=H)
        for e in a[1:]:
            c.post(_url(e), json=wire(e), headers=H)
    with _client(tmp_path) as c:
        assert c.get(f"/v1/games/{a[0].game_id}", headers=H).status_code == 200
        assert c.get(f"/v1/games/{a[0].game_id}", headers=H2).status_code == 403
        assert c.post(_url(a[-1]), json=wire(a[-1]), headers=H2).status_code == 403
        assert c.post(_url(a[-1]), json=wire(a[-1]), headers=H).json()["duplicate"]


def test_admin_tokens_in_the_tokens_file(tmp_path, capsys):
    f = tmp_path / "tokens"
    assert main(["record-server", "--data", str(tmp_path), "--tokens", str(f),
                 "--new-token", "ops", "--admin"]) == 0
    t = capsys.readouterr().out.strip()
    new_token(f, "gs")
    assert read_tokens(f)["ops"] == t and read_admins(f) == {"ops"}
    assert os.stat(f).st_mode & 0o777 == 0o600


# --- limits ----------------------------------------------------------------------------------

def test_batches_are_capped_by_bytes_and_by_events(tmp_path):
    from liujia.server.app import MAX_BODY
    from liujia.server.store import MAX_BATCH
    events = _game()
    url = f"/v1/games/{events[0].game_id}/batch"
    with _client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        big = b'{"events": [' + b" " * MAX_BODY + b"]}"
        r = c.post(url, content=big, headers=H)
        assert r.status_code == 413 and r.json()["error"] == "too_big"

        def chunks():
            yield big[:1000]
            yield big[1000:]
        r = c.post(url, content=chunks(), headers=H)        # streamed, no Content-Length
        assert r.status_code == 413
        r = c.post(url, json={"events": [wire(events[1])] * (MAX_BATCH + 1)}, headers=H)
        assert r.status_code == 422 and r.json()["field"] == "events"
        assert c.get(f"/v1/games/{events[0].game_id}", headers=H).json()["next_seq"] == 1
