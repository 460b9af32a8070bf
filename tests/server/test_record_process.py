"""The recording service as a real process on loopback, driven by ``liujia.client``: killed
with SIGKILL in the middle of a game, restarted, the game goes on and is sealed whole."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.log import read_log
from engine.sim import simulate
from liujia.cli import main
from liujia.client import RecordClient, Refused
from liujia.server.tokens import new_token

ROOT = Path(__file__).resolve().parents[2]


def _port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(data, tokens, port):
    proc = subprocess.Popen([sys.executable, "-m", "liujia", "record-server", "--data",
                             str(data), "--tokens", str(tokens), "--port", str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode())
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("record-server did not start")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_kill_9_and_restart(tmp_path):
    tokens = tmp_path / "tokens"
    token = new_token(tokens, "gs")
    data = tmp_path / "data"
    port = _port()
    games = [g.events for g in simulate("keng", 2, seed=11)]
    a, b = games
    proc = _start(data, tokens, port)
    try:
        c = RecordClient(f"http://127.0.0.1:{port}", token, retries=40, backoff=0.05)
        with pytest.raises(Refused) as refused:
            RecordClient(f"http://127.0.0.1:{port}", "w" * 30).open(a[0])
        assert refused.value.status == 401
        for g in (a, b):
            assert c.open(g[0])["seq"] == 0
        for e in a[1:30]:
            assert c.append(e.game_id, e)["digest"] == e.digest.hex()
        assert c.append_batch(b[0].game_id, b[1:20])[-1]["digest"] == b[19].digest.hex()
        bad = a[30]._replace(seat=(a[30].seat + 1) % 6, kind="PLAY")
        with pytest.raises(Refused) as refused:
            c.append(bad.game_id, bad)
        assert refused.value.status == 422 and refused.value.rule_id
        assert {g["game_id"] for g in c.games()} == {a[0].game_id, b[0].game_id}
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc = _start(data, tokens, port)
        assert c.append(a[29].game_id, a[29])["duplicate"]        # the retry after the crash
        for e in a[30:]:
            c.append(e.game_id, e)
        c.append_batch(b[0].game_id, b[20:])
        assert c.close_game(a[0].game_id)["sealed"]
        c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    for g in (a, b):
        read = read_log(data / "sealed" / f"{g[0].game_id}.arrows")
        assert read.ok and read.games[0].events == g
    assert main(["validate", str(data / "sealed")]) == 0
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(data / "sealed"), "--db", str(db), "--quiet"]) == 0
