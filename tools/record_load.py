"""Load and crash test of ``liujia record-server`` on loopback (docs/performance.md, "Record
server"): many seeded self-play tables at once, each a thread with its own keep-alive
connection sending one game's events as the simulator played them (without digests: the server
chains them and its digests must equal the simulator's), bounded by a number of games and a
time; reports acknowledged appends per second and the p50 / p99 acknowledgement latency, and,
measured in the same run, a plain write+fsync append loop (the disk's floor).

    .venv/bin/python tools/record_load.py --tables 200 --games 600 --seconds 60
    .venv/bin/python tools/record_load.py --tables 200 --games 600 --seconds 60 --batch 8
    .venv/bin/python tools/record_load.py --tables 50 --games 300 --crash 30

``--crash N`` kills the server with SIGKILL at N random moments under load and restarts it;
the clients retry (appends are idempotent by seq). After each restart, each game reopened must
hold every event acknowledged before the kill and at most the request in flight beyond it
(its recovery report against the clients' acknowledgements); at the end every event any
client saw acknowledged must be in the logs, with the digest acknowledged, and every game must
be sealed whole (exit 1 otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games import GAMES, find_game  # noqa: E402
from engine.log import read_log  # noqa: E402
from engine.sim import simulate  # noqa: E402
from liujia.client import RecordClient, Refused  # noqa: E402
from liujia.server.tokens import new_token  # noqa: E402

RECOVERED = re.compile(r"(\S+): (?:reopened at seq (\d+)|over \((\d+) events\): sealed)")


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def corpus(games: list[str], n: int, seed: int) -> list[list]:
    """n seeded games, round-robin over the games named."""
    per = {g: n // len(games) + (1 if i < n % len(games) else 0) for i, g in enumerate(games)}
    out: list[list] = []
    for g, k in per.items():
        if k:
            opts = find_game(g).Options(mds_players=4) if g == "modaoshuang" else None
            out.extend(s.events for s in simulate(g, k, seed=seed, options=opts))
    random.Random(seed).shuffle(out)
    return out


class Server:
    """The server as a child process."""

    def __init__(self, data: Path, tokens: Path, port: int) -> None:
        self.cmd = [sys.executable, "-m", "liujia", "record-server", "--data", str(data),
                    "--tokens", str(tokens), "--port", str(port),
                    "--max-behind", "none"]            # simulated games: 2026-01-01
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen | None = None
        self.cpu = 0.0                     # CPU seconds of the server processes so far
        self.log = open(data.parent / "server.log", "ab")  # noqa: SIM115

    def start(self) -> None:
        self.proc = subprocess.Popen(self.cmd, cwd=ROOT, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", int(self.url.rsplit(":", 1)[1])),
                                              timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)
        raise SystemExit("record-server did not start (see server.log)")

    def _note_cpu(self) -> None:
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            self.cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError, AttributeError):
            pass

    def kill(self) -> None:
        assert self.proc is not None
        self._note_cpu()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self._note_cpu()
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def fsync_floor(folder: Path, seconds: float, threads: int) -> dict[str, float]:
    """A plain loop of 250-byte appends each followed by fsync, in ``threads`` files at once."""
    counts = [0] * threads
    lat: list[list[float]] = [[] for _ in range(threads)]
    line = b"x" * 249 + b"\n"
    stop = time.monotonic() + seconds

    def loop(i: int) -> None:
        fd = os.open(folder / f"floor-{i}", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            while time.monotonic() < stop:
                t = time.perf_counter()
                os.write(fd, line)
                os.fsync(fd)
                lat[i].append(time.perf_counter() - t)
                counts[i] += 1
        finally:
            os.close(fd)
    t0 = time.perf_counter()
    ths = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    elapsed = time.perf_counter() - t0
    all_lat = sorted(x for xs in lat for x in xs)
    for i in range(threads):
        os.unlink(folder / f"floor-{i}")
    return {"threads": threads, "appends_per_s": sum(counts) / elapsed,
            "p50_ms": 1000 * all_lat[len(all_lat) // 2],
            "p99_ms": 1000 * all_lat[int(len(all_lat) * 0.99)]}


def run_load(url: str, token: str, games: list[list], tables: int, seconds: float,
             batch: int, acked: dict[str, dict[int, str]]) -> dict:
    """Play the games on ``tables`` threads until done or out of time; ``acked`` gets every
    acknowledged (seq, digest) per game."""
    lock = threading.Lock()
    queue = list(reversed(games))
    lat: list[float] = []
    done: list[str] = []
    errors: list[str] = []
    events = [0]
    deadline = time.monotonic() + seconds

    def table() -> None:
        c = RecordClient(url, token, retries=60, backoff=0.02, max_backoff=0.5)
        mine: list[float] = []
        n = 0
        while time.monotonic() < deadline:
            with lock:
                if not queue:
                    break
                g = queue.pop()
            gid = g[0].game_id
            seen = acked.setdefault(gid, {})
            try:
                t = time.perf_counter()
                ack = c.open(g[0])
                mine.append(time.perf_counter() - t)
                seen[0] = ack["digest"]
                i = 1
                while i < len(g):
                    if time.monotonic() >= deadline:
                        break
                    chunk = g[i:i + batch] if batch > 1 else [g[i]]
                    t = time.perf_counter()
                    acks = c.append_batch(gid, chunk) if batch > 1 else [c.append(gid, g[i])]
                    mine.append(time.perf_counter() - t)
                    for a in acks:
                        seen[a["seq"]] = a["digest"]
                    n += len(acks)
                    i += len(chunk)
                else:
                    with lock:
                        done.append(gid)
            except (Refused, OSError) as exc:
                with lock:
                    errors.append(f"{gid}: {exc}")
        c.close()
        with lock:
            lat.extend(mine)
            events[0] += n

    t0 = time.perf_counter()
    cpu0 = time.process_time()
    ths = [threading.Thread(target=table) for _ in range(tables)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    elapsed = time.perf_counter() - t0
    client_cpu = time.process_time() - cpu0
    lat.sort()
    return {"tables": tables, "batch": batch, "games_done": len(done), "events": events[0],
            "seconds": elapsed, "appends_per_s": events[0] / elapsed,
            "requests": len(lat),
            "p50_ms": 1000 * lat[len(lat) // 2] if lat else float("nan"),
            "p99_ms": 1000 * lat[int(len(lat) * 0.99)] if lat else float("nan"),
            "mean_ms": 1000 * statistics.fmean(lat) if lat else float("nan"),
            "client_cpu_s": client_cpu, "errors": errors, "done": done}


def verify(data: Path, games: list[list], acked: dict[str, dict[int, str]],
           done: list[str]) -> list[str]:
    """Every acknowledged event in the logs with its digest; every finished game sealed
    whole and equal to the simulator's."""
    problems: list[str] = []
    by_id = {g[0].game_id: g for g in games}
    for gid, seen in acked.items():
        sealed = data / "sealed" / f"{gid}.arrows"
        live = data / "live" / f"{gid}.jsonl.live"
        if sealed.exists():
            r = read_log(sealed)
            stored = [e.digest.hex() for e in r.games[0].events] if r.ok else []
            if not r.ok:
                problems.append(f"{gid}: sealed log does not verify")
            elif stored != [e.digest.hex() for e in by_id[gid]]:
                problems.append(f"{gid}: sealed game differs from the one played")
        elif live.exists():
            lines = live.read_text().splitlines()[1:]
            stored = [json.loads(x)["digest"] for x in lines]
            if gid in done:
                problems.append(f"{gid}: finished but not sealed")
        else:
            stored = []
        for seq, d in seen.items():
            if seq >= len(stored) or stored[seq] != d:
                problems.append(f"{gid}: acknowledged seq {seq} is not in the logs")
                break
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--games", type=int, default=400, help="games to play at most")
    ap.add_argument("--seconds", type=float, default=60, help="time bound of the load")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", choices=sorted(GAMES),
                    help="game(s) to play (default: every registered game)")
    ap.add_argument("--batch", type=int, default=1, help="events per request (1: single)")
    ap.add_argument("--crash", type=int, default=0, help="kill -9 the server N times")
    ap.add_argument("--floor-seconds", type=float, default=3)
    ap.add_argument("--data", help="data folder (default: a new temporary one)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    work = Path(a.data) if a.data else Path(tempfile.mkdtemp(prefix="liujia-load-"))
    data = work / "data"
    data.mkdir(parents=True, exist_ok=True)
    tokens = work / "tokens"
    token = new_token(tokens, f"load{os.getpid()}", admin=True)   # reads /v1/recovery
    t = time.perf_counter()
    games = corpus(a.game or sorted(GAMES), a.games, a.seed)
    print(f"corpus: {len(games)} games, {sum(map(len, games))} events "
          f"({time.perf_counter() - t:.1f} s to simulate); data {data}", flush=True)
    floor1 = fsync_floor(work, a.floor_seconds, 1)
    floorn = fsync_floor(work, a.floor_seconds, min(a.tables, 32))
    server = Server(data, tokens, free_port())
    server.start()
    kills = 0
    stop_crash = threading.Event()

    acked: dict[str, dict[int, str]] = {}
    beyond: list[int] = []          # per crash and game: events on disk after the last ack
    violations: list[str] = []

    def last_acked() -> dict[str, int]:
        for _ in range(10):
            try:
                return {gid: max(list(seen)) for gid, seen in list(acked.items()) if seen}
            except RuntimeError:                # changed while read: read again
                continue
        return {}

    def crasher() -> None:
        nonlocal kills
        rng = random.Random(a.seed)
        admin = RecordClient(server.url, token, retries=60, backoff=0.02, max_backoff=0.5)
        while kills < a.crash and not stop_crash.wait(rng.uniform(0.3, 1.5)):
            server.kill()
            kills += 1
            time.sleep(0.2)                     # acks already in the clients' sockets land
            before = last_acked()
            server.start()
            admin.close()
            for line in admin.request("GET", "/v1/recovery")["report"]:
                m = RECOVERED.fullmatch(line)
                if m is None:
                    continue
                gid, n = m.group(1), int(m.group(2) or m.group(3))
                extra = n - 1 - before.get(gid, -1)
                if extra < 0:
                    violations.append(f"crash {kills}: {gid} has {n} events on disk, "
                                      f"seq {before[gid]} was acknowledged")
                elif extra > a.batch:
                    violations.append(f"crash {kills}: {gid} has {extra} events on disk "
                                      f"after its last acknowledged one (at most {a.batch} "
                                      "in flight)")
                beyond.append(extra)
        admin.close()

    crash_thread = threading.Thread(target=crasher) if a.crash else None
    if crash_thread is not None:
        crash_thread.start()
    try:
        res = run_load(server.url, token, games, a.tables, a.seconds, a.batch, acked)
    finally:
        stop_crash.set()
        if crash_thread is not None:
            crash_thread.join()
        server.stop()
    problems = verify(data, games, acked, res.pop("done")) + violations
    res.update(floor_1=floor1, floor_n=floorn, kills=kills, lost=problems,
               server_cpu_s=server.cpu, reopened=len(beyond),
               unacked_tail=sum(1 for x in beyond if x > 0))
    if a.json:
        print(json.dumps(res))
    else:
        print(f"record-server: {res['tables']} tables, batch {res['batch']}: "
              f"{res['events']} events acknowledged in {res['seconds']:.1f} s = "
              f"{res['appends_per_s']:.0f} appends/s; {res['games_done']} games sealed; "
              f"ack latency per request p50 {res['p50_ms']:.2f} ms, p99 {res['p99_ms']:.2f} ms")
        print(f"CPU: server {res['server_cpu_s']:.1f} s, clients {res['client_cpu_s']:.1f} s "
              f"of {res['seconds']:.1f} s on {os.cpu_count()} cores")
        for f in (floor1, floorn):
            print(f"fsync floor: {f['threads']} thread(s): {f['appends_per_s']:.0f} "
                  f"appends/s, p50 {f['p50_ms']:.3f} ms, p99 {f['p99_ms']:.3f} ms")
        if a.crash:
            print(f"crashes: {kills} kill -9 + restart under load; games reopened "
                  f"{res['reopened']} times, {res['unacked_tail']} of them with events on "
                  f"disk after the last acknowledged one (the request in flight, at most "
                  f"{a.batch} events: its retry is acknowledged as a duplicate)")
        print(f"errors: {len(res['errors'])}" + (f" (first: {res['errors'][0]})"
                                                 if res["errors"] else ""))
        print(f"acknowledged events missing from the logs: {len(problems)}"
              + (f" (first: {problems[0]})" if problems else ""))
    return 1 if problems or res["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
