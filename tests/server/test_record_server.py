"""The recording service through FastAPI's TestClient: open, append, seal; refusals; retries;
tokens; restart recovery from a torn append log."""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():          # starlette's note on httpx at import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from engine.games import GAMES
from engine.jsonl import event_to_obj
from engine.log import read_log
from engine.sim import simulate
from liujia.cli import main
from liujia.server.app import create_app
from liujia.server.store import LIVE_SUFFIX, Store
from liujia.server.tokens import new_token, read_tokens, who
from tests.options import options_for

TOKEN = "t" * 24
OTHER = "o" * 24
ADMIN = "a" * 24
H = {"Authorization": f"Bearer {TOKEN}"}
H2 = {"Authorization": f"Bearer {OTHER}"}
HA = {"Authorization": f"Bearer {ADMIN}"}           # may read the recovery report


def _options(game):
    return options_for(game, seats=4)


def _game(game="keng", seed=3, commit=False):
    return next(simulate(game, 1, seed=seed, options=_options(game), commit=commit)).events


def wire(e, **changes):
    obj = event_to_obj(e._replace(**changes) if changes else e)
    del obj["digest"]
    return obj


def client(data, signer=None, background=False):
    # simulated games are stamped from 2026-01-01: no bound on how far behind the clock
    return TestClient(create_app(Store(data, signer, max_behind=None),
                                 {"gs1": TOKEN, "gs2": OTHER, "ops": ADMIN},
                                 admins=frozenset({"ops"}), background=background))


def _url(e):
    return f"/v1/games/{e.game_id}/events"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_recorded_and_sealed(game, tmp_path, capsys):
    events = _game(game, commit=True)
    with client(tmp_path) as c:
        r = c.post("/v1/games", json=wire(events[0]), headers=H)
        assert r.status_code == 201, r.json()
        assert c.get("/v1/games", headers=H).json()["games"][0]["game_id"] == events[0].game_id
        for e in events[1:]:
            r = c.post(_url(e), json=wire(e), headers=H)
            assert r.status_code == 200, r.json()
            assert r.json()["digest"] == e.digest.hex()      # the same chain as the simulator
        ack = r.json()
        assert ack["over"] and ack["sealed"].endswith(".arrows")
        assert c.get("/v1/games", headers=H).json()["games"] == []
        assert c.post(f"/v1/games/{events[0].game_id}/close", headers=H).json()["sealed"]
    read = read_log(tmp_path / "sealed" / f"{events[0].game_id}.arrows")
    assert read.ok and read.games[0].events == events
    assert not list((tmp_path / "live").iterdir())
    assert main(["validate", str(tmp_path / "sealed")]) == 0
    assert "deal as committed" in capsys.readouterr().out


def test_batch_appends(tmp_path):
    events = _game("ddz6_3v3")
    with client(tmp_path) as c:
        assert c.post("/v1/games", json=wire(events[0]), headers=H).status_code == 201
        url = f"/v1/games/{events[0].game_id}/batch"
        for i in range(1, len(events), 7):
            chunk = events[i:i + 7]
            r = c.post(url, json={"events": [wire(e) for e in chunk]}, headers=H)
            assert r.status_code == 200, r.json()
            assert [a["digest"] for a in r.json()["acks"]] == [e.digest.hex() for e in chunk]
    assert read_log(tmp_path / "sealed" / f"{events[0].game_id}.arrows").ok


def test_server_numbers_and_stamps(tmp_path):
    events = _game()
    with client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        obj = wire(events[1])
        del obj["seq"], obj["ts"]
        ack = c.post(_url(events[1]), json=obj, headers=H).json()
        assert ack["seq"] == 1 and ack["ts"] >= events[0].ts


def _live_lines(tmp_path, gid):
    return (tmp_path / "live" / f"{gid}{LIVE_SUFFIX}").read_text().splitlines()


def test_illegal_event_refused_and_nothing_stored(tmp_path):
    events = _game()
    with client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        k = next(i for i, e in enumerate(events) if e.kind == "PLAY")
        for e in events[1:k]:
            assert c.post(_url(e), json=wire(e), headers=H).status_code == 200
        before = _live_lines(tmp_path, events[0].game_id)
        bad = events[k]
        r = c.post(_url(bad), json=wire(bad, seat=(bad.seat + 1) % 6), headers=H)
        assert r.status_code == 422
        body = r.json()
        assert body["error"] == "illegal" and body["rule_id"].startswith("KENG-")
        assert body["reason"] and body["seq"] == k
        r = c.post(_url(bad), json={**wire(bad), "cards": ["Zz"]}, headers=H)
        assert r.status_code == 422 and r.json()["field"] == "cards"
        r = c.post(_url(bad), json={**wire(bad), "colour": 1}, headers=H)
        assert r.status_code == 422 and r.json()["field"] == "colour"
        r = c.post(_url(bad), json=wire(bad, ts=events[k - 1].ts - 1), headers=H)
        assert r.status_code == 422 and r.json()["field"] == "ts"
        r = c.post(_url(bad), content=b"{not json", headers=H)
        assert r.status_code == 422
        assert _live_lines(tmp_path, events[0].game_id) == before
        assert c.get(f"/v1/games/{bad.game_id}", headers=H).json()["next_seq"] == k
        assert c.post(_url(bad), json=wire(bad), headers=H).status_code == 200


def test_batch_is_all_or_nothing(tmp_path):
    events = _game()
    with client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        batch = [wire(e) for e in events[1:10]]
        batch[5] = wire(events[6], seat=(events[6].seat + 1) % 6, kind="PLAY")
        r = c.post(f"/v1/games/{events[0].game_id}/batch", json={"events": batch}, headers=H)
        assert r.status_code == 422 and r.json()["index"] == 5
        assert c.get(f"/v1/games/{events[0].game_id}", headers=H).json()["next_seq"] == 1
        assert len(_live_lines(tmp_path, events[0].game_id)) == 2


def test_idempotent_retry_and_conflict(tmp_path):
    events = _game()
    gid = events[0].game_id
    with client(tmp_path) as c:
        assert c.post("/v1/games", json=wire(events[0]), headers=H).status_code == 201
        assert c.post("/v1/games", json=wire(events[0]), headers=H).status_code == 200
        other_start = _game(seed=4)[0]._replace(game_id=gid)
        assert c.post("/v1/games", json=wire(other_start), headers=H).status_code == 409
        for e in events[1:6]:
            c.post(_url(e), json=wire(e), headers=H)
        again = c.post(_url(events[3]), json=wire(events[3]), headers=H)
        assert again.status_code == 200 and again.json()["duplicate"]
        assert again.json()["digest"] == events[3].digest.hex()
        changed = c.post(_url(events[3]), json=wire(events[3], seat=(events[3].seat + 1) % 6),
                         headers=H)
        assert changed.status_code == 409 and changed.json()["error"] == "conflict"
        gap = c.post(_url(events[8]), json=wire(events[8]), headers=H)
        assert gap.status_code == 409 and gap.json()["error"] == "gap"
        assert gap.json()["next_seq"] == 6
        assert len(_live_lines(tmp_path, gid)) == 1 + 6
        for e in events[6:]:
            c.post(_url(e), json=wire(e), headers=H)
        # after the seal, a retry is still acknowledged, a change still a conflict
        again = c.post(_url(events[-1]), json=wire(events[-1]), headers=H)
        assert again.status_code == 200 and again.json()["duplicate"]
        assert c.post(_url(events[2]), json=wire(events[2], seat=0 if events[2].seat else 1),
                      headers=H).status_code == 409
        assert c.post("/v1/games", json=wire(events[0]), headers=H).status_code == 200


def test_tokens_refused(tmp_path):
    events = _game()
    with client(tmp_path) as c:
        assert c.post("/v1/games", json=wire(events[0])).status_code == 401
        bad = {"Authorization": "Bearer " + "x" * 24}
        assert c.post("/v1/games", json=wire(events[0]), headers=bad).status_code == 401
        assert c.get("/v1/games", headers={"Authorization": TOKEN}).status_code == 401
        assert c.post("/v1/games", json=wire(events[0]), headers=H).status_code == 201
        # another game server may not write to this one's game
        assert c.post(_url(events[1]), json=wire(events[1]), headers=H2).status_code == 403
        assert c.get("/v1/health").json()["ok"]
        spec = c.get("/openapi.json").json()
        assert "/v1/games/{game_id}/events" in spec["paths"]
    assert not (tmp_path / "live" / f"{events[0].game_id}{LIVE_SUFFIX}").read_text().count(
        '"seq": 1')


def test_token_file(tmp_path):
    f = tmp_path / "tokens"
    t = new_token(f, "club-a")
    assert read_tokens(f) == {"club-a": t}
    assert who(read_tokens(f), f"Bearer {t}") == "club-a"
    assert who(read_tokens(f), "Bearer nope") is None
    assert (f.stat().st_mode & 0o777) == 0o600
    f.write_text("no colon here\n")
    with pytest.raises(ValueError, match="tokens:1"):
        read_tokens(f)


@pytest.mark.parametrize("background", [False, True], ids=["at-start", "background"])
def test_restart_after_torn_tail(tmp_path, background):
    events = _game("gouji")
    gid = events[0].game_id
    with client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        for e in events[1:20]:
            assert c.post(_url(e), json=wire(e), headers=H).status_code == 200
    live = tmp_path / "live" / f"{gid}{LIVE_SUFFIX}"
    whole = live.read_bytes()
    line = json.dumps(event_to_obj(events[20])).encode()
    live.write_bytes(whole + line[: len(line) // 2])          # a half-written record
    with client(tmp_path, background=background) as c:
        report = c.get("/v1/recovery", headers=HA).json()["report"]
        assert any("cut" in r and "torn" in r for r in report), report
        assert live.read_bytes() == whole
        assert (live.parent / f"{live.name}.cut-20").read_bytes() == line[: len(line) // 2]
        st = c.get(f"/v1/games/{gid}", headers=H).json()
        assert st["next_seq"] == 20 and st["last_digest"] == events[19].digest.hex()
        again = c.post(_url(events[19]), json=wire(events[19]), headers=H)
        assert again.json()["duplicate"]
        for e in events[20:]:
            assert c.post(_url(e), json=wire(e), headers=H).status_code == 200
    assert read_log(tmp_path / "sealed" / f"{gid}.arrows").games[0].events == events


def test_restart_cuts_a_bad_line_and_seals_a_finished_game(tmp_path):
    a, b = _game("keng", seed=5), _game("liuhu", seed=6)
    with client(tmp_path) as c:
        for g in (a, b):
            c.post("/v1/games", json=wire(g[0]), headers=H)
        for e in a[1:10]:
            c.post(_url(e), json=wire(e), headers=H)
        for e in b[1:-1]:
            c.post(_url(e), json=wire(e), headers=H)
    la = tmp_path / "live" / f"{a[0].game_id}{LIVE_SUFFIX}"
    good = la.read_bytes()
    la.write_bytes(good + b'{"game_id": "x", "seq": 10}\n')     # complete but not an event
    lb = tmp_path / "live" / f"{b[0].game_id}{LIVE_SUFFIX}"
    # the server died after GAME_END reached the log, before the seal
    from engine.jsonl import event_line
    lb.write_bytes(lb.read_bytes() + (event_line(b[-1]) + "\n").encode())
    (tmp_path / "live" / f"torn{LIVE_SUFFIX}").write_bytes(b'{"format": "liujia.js')
    with client(tmp_path) as c:
        assert la.read_bytes() == good
        assert c.get(f"/v1/games/{a[0].game_id}", headers=H).json()["next_seq"] == 10
        assert c.get(f"/v1/games/{b[0].game_id}", headers=H).json()["sealed"]
    assert not lb.exists() and not (tmp_path / "live" / f"torn{LIVE_SUFFIX}").exists()
    assert read_log(tmp_path / "sealed" / f"{b[0].game_id}.arrows").ok


def test_signed_seal(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LIUJIA_HOME", str(tmp_path / "home"))
    from liujia.keys import load_key, new_key
    new_key("rec")
    events = _game()
    with client(tmp_path / "data", signer=load_key("rec")) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        for e in events[1:]:
            c.post(_url(e), json=wire(e), headers=H)
    assert main(["validate", str(tmp_path / "data" / "sealed")]) == 0
    assert "signed by rec" in capsys.readouterr().out


def test_command_line(tmp_path, capsys):
    f = tmp_path / "tokens"
    assert main(["record-server", "--data", str(tmp_path), "--tokens", str(f),
                 "--new-token", "gs"]) == 0
    assert capsys.readouterr().out.strip() == read_tokens(f)["gs"]
    assert main(["record-server", "--data", str(tmp_path)]) == 2
    assert main(["record-server", "--data", str(tmp_path), "--tokens", str(f),
                 "--address", "0.0.0.0"]) == 2
    assert "--allow-remote" in capsys.readouterr().err


def test_failed_seal_is_retried(tmp_path, monkeypatch):
    import liujia.server.store as store_mod
    events = _game()
    real = store_mod.write_log
    calls = []

    def flaky(path, games, signer=None):
        calls.append(path)
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        return real(path, games, signer)

    monkeypatch.setattr(store_mod, "write_log", flaky)
    with client(tmp_path) as c:
        c.post("/v1/games", json=wire(events[0]), headers=H)
        for e in events[1:-1]:
            c.post(_url(e), json=wire(e), headers=H)
        r = c.post(_url(events[-1]), json=wire(events[-1]), headers=H)
        assert r.status_code == 507 and "retry GAME_END" in r.json()["reason"]
        r = c.post(_url(events[-1]), json=wire(events[-1]), headers=H)
        assert r.status_code == 200 and r.json()["sealed"] and r.json()["duplicate"]
    assert read_log(tmp_path / "sealed" / f"{events[0].game_id}.arrows").games[0].events == events


def test_session_rule_checked_at_open(tmp_path):
    a, b, c3 = (g.events for g in simulate("keng", 3, seed=5))
    with client(tmp_path) as c:
        for g in (a, b):
            c.post("/v1/games", json=wire(g[0]), headers=H)
            for e in g[1:]:
                assert c.post(_url(e), json=wire(e), headers=H).status_code == 200
        # game 3 names game 2 as its previous game; claimed after game 1, it breaks KENG-7
        p = json.loads(c3[0].payload)
        p["previous_game"] = a[0].game_id
        start = c3[0]._replace(payload=json.dumps(p, sort_keys=True, separators=(",", ":")))
        r = c.post("/v1/games", json=wire(start), headers=H)
        assert r.status_code == 422 and r.json()["rule_id"] == "KENG-7"
        assert c.post("/v1/games", json=wire(c3[0]), headers=H).status_code == 201
