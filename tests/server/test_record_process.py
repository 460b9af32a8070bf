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
                             str(data), "--tokens", str(tokens), "--port", str(port),
                             "--max-behind", "none"],          # simulated games: 2026-01-01
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


def _peak_rss_kib(pid):
    """The peak resident set (VmHWM) of a process, KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def _oversized(port, token, size, chunked):
    """POST a body of ``size`` bytes (declared, or chunked without a length) and return the
    status line of the answer; the body is sent by a thread that stops at the first error."""
    import threading
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    head = (f"POST /v1/games/g1/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            "Content-Type: application/json\r\n")
    head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {size}\r\n\r\n"
    piece = b'{"events": [' + b" " * ((1 << 20) - 12)

    def send():
        try:
            sock.sendall(head.encode())
            for i in range(size >> 20):
                data = piece if i == 0 else b" " * (1 << 20)
                sock.sendall(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass

    t = threading.Thread(target=send, daemon=True)
    t.start()
    try:
        got = b""
        while b"\r\n" not in got:
            more = sock.recv(4096)
            if not more:
                break
            got += more
        return got.split(b"\r\n")[0].decode()
    finally:
        t.join(timeout=60)
        sock.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/PID/status")
def test_an_oversized_body_is_refused_while_it_arrives(tmp_path):
    tokens = tmp_path / "tokens"
    token = new_token(tokens, "gs")
    port = _port()
    proc = _start(tmp_path / "data", tokens, port)
    try:
        c = RecordClient(f"http://127.0.0.1:{port}", token)
        a = next(simulate("keng", 1, seed=2)).events
        c.open(a[0])                                  # a warm server: every module loaded
        c.append_batch(a[0].game_id, a[1:40])
        c.close()
        before = _peak_rss_kib(proc.pid)
        size = 256 << 20
        for chunked in (False, True):
            assert _oversized(port, token, size, chunked).endswith(" 413 Request Entity Too Large")
        grown = _peak_rss_kib(proc.pid) - before
        assert grown < 32 << 10, f"the server's peak memory grew by {grown} KiB"
        assert RecordClient(f"http://127.0.0.1:{port}", token).status(a[0].game_id)["next_seq"] \
            == 40
    finally:
        proc.terminate()
        proc.wait(timeout=10)
