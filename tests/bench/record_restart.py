"""Restart time of ``liujia record-server`` against the number of open games
(docs/performance.md, "Record server"): a data folder holding N unfinished games of the
registered games (round-robin, seeded; each game's first 60–90 % of events written as its live
append log by a real ``Store``, exactly as the server writes them: one open, then batches), then
``liujia record-server`` started as a user starts it (a child process, ``-m liujia``) on that
folder, timed from the process's start until ``GET /v1/health`` answers 200 and until
``GET /v1/games`` (admin token) lists all N games; the median of several runs, each a fresh
process (killed with SIGKILL after the measure, as after a crash; recovering intact logs changes
nothing, so every run starts from the same folder).

    .venv/bin/python tests/bench/record_restart.py                 # N = 0, 50, 200, 400
    .venv/bin/python tests/bench/record_restart.py --open 200 --runs 7 --json
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.games import GAMES, find_game  # noqa: E402
from engine.jsonl import event_to_obj  # noqa: E402
from engine.sim import simulate  # noqa: E402
from liujia.server.files import LIVE_SUFFIX  # noqa: E402
from liujia.server.tokens import new_token  # noqa: E402

OPEN = (0, 50, 200, 400)
TARGET_S = 2.0                       # for 200 open games, on a quiet machine
OWNER = "bench"
CHUNK = 200                          # events per batch while building


def corpus(n: int, seed: int) -> list[list[Any]]:
    """n seeded whole games, round-robin over every registered game."""
    names = sorted(GAMES)
    per = {g: n // len(names) + (1 if i < n % len(names) else 0) for i, g in enumerate(names)}
    out: list[list[Any]] = []
    for g, k in per.items():
        if k:
            opts = find_game(g).Options(mds_players=4) if g == "modaoshuang" else None
            out.extend(s.events for s in simulate(g, k, seed=seed, options=opts))
    random.Random(seed).shuffle(out)
    return out


def unfinished(games: list[list[Any]], seed: int) -> list[list[Any]]:
    """Each game's first 60–90 % of events (at least its GAME_START, never its GAME_END)."""
    rng = random.Random(seed)
    return [g[:max(1, min(len(g) - 1, int(len(g) * rng.uniform(0.6, 0.9))))] for g in games]


async def _record(data: Path, games: list[list[Any]]) -> None:
    from liujia.server.store import Store
    from liujia.server.wire import read_event

    def wire(e: Any) -> Any:
        return read_event(event_to_obj(e), e.game_id)

    store = Store(data, max_behind=None)
    store.start()
    try:
        for events in games:
            gid = events[0].game_id
            await store.open(OWNER, wire(events[0]))
            for at in range(1, len(events), CHUNK):
                await store.append(OWNER, gid, [wire(e) for e in events[at:at + CHUNK]])
    finally:
        store.close()


def build(data: Path, n: int, seed: int) -> int:
    """Write n open games into the data folder ``data`` (through a real Store); returns the
    number of events written."""
    games = unfinished(corpus(n, seed), seed)
    asyncio.run(_record(data, games))
    live = sorted((data / "live").iterdir())
    assert len(live) == n and all(p.name.endswith(LIVE_SUFFIX) for p in live), "build"
    return sum(len(g) for g in games)


def subset(pool: Path, n: int, dest: Path) -> None:
    """A data folder holding the first n open games of the pool's."""
    (dest / "live").mkdir(parents=True)
    (dest / "sealed").mkdir()
    files = sorted((pool / "live").iterdir())
    random.Random(n).shuffle(files)                # every game in each subset, not by name
    for p in files[:n]:
        shutil.copy2(p, dest / "live" / p.name)


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str, token: str | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far (Linux /proc; else -1)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return -1.0


def time_start(data: Path, tokens: Path, token: str, n: int,
               timeout: float = 120.0) -> tuple[float, float, float, float]:
    """Start the server on ``data``; seconds until health answers 200 and until the admin's
    list of games holds n games, and the CPU seconds the server had used at each of the two
    (what a quiet machine's wall times would be near). The process is killed (SIGKILL)
    afterwards."""
    port = free_port()
    cmd = [sys.executable, "-m", "liujia", "record-server", "--data", str(data), "--tokens",
           str(tokens), "--port", str(port), "--max-behind", "none"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    health = listed = health_cpu = -1.0
    try:
        while time.perf_counter() - t0 < timeout:
            if proc.poll() is not None:
                raise SystemExit(f"record-server exited with {proc.returncode}: "
                                 f"{' '.join(cmd)}")
            try:
                if health < 0:
                    if _get(port, "/v1/health")[0] == 200:
                        health = time.perf_counter() - t0
                        health_cpu = cpu_seconds(proc.pid)
                status, body = _get(port, "/v1/games", token)
                if status == 200 and len(json.loads(body)["games"]) == n:
                    listed = time.perf_counter() - t0
                    return health, listed, health_cpu, cpu_seconds(proc.pid)
            except OSError:
                pass
            time.sleep(0.005)
        raise SystemExit(f"record-server did not list {n} games within {timeout} s")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def main(argv: list[str] | None = None) -> int:
    """Build the folders, time the restarts, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--open", type=int, nargs="+", default=list(OPEN),
                    help="numbers of open games (default 0 50 200 400)")
    ap.add_argument("--runs", type=int, default=5, help="runs per number (median)")
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--keep", metavar="DIR",
                    help="build (or reuse) the pool of open games in DIR instead of a temporary "
                    "folder")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    most = max(args.open)
    tmp = Path(tempfile.mkdtemp(prefix="liujia-restart-"))
    try:
        pool = Path(args.keep) if args.keep else tmp / "pool"
        stamp = pool / f".built-{most}-{args.seed}"
        if not stamp.exists():
            shutil.rmtree(pool, ignore_errors=True)
            t = time.perf_counter()
            events = build(pool, most, args.seed)
            stamp.write_text(str(events))
            print(f"built {most} open games ({events} events) in "
                  f"{time.perf_counter() - t:.1f} s", file=sys.stderr)
        events = int(stamp.read_text())
        tokens = tmp / "tokens"
        token = new_token(tokens, "ops", admin=True)
        rows = []
        for n in args.open:
            data = tmp / f"data-{n}"
            subset(pool, n, data)
            size = sum(p.stat().st_size for p in (data / "live").iterdir())
            times = [time_start(data, tokens, token, n) for _ in range(args.runs)]
            rows.append({"open_games": n, "live_bytes": size, "runs": args.runs,
                         "health_s": round(statistics.median(t[0] for t in times), 3),
                         "listed_s": round(statistics.median(t[1] for t in times), 3),
                         "listed_max_s": round(max(t[1] for t in times), 3),
                         "health_cpu_s": round(statistics.median(t[2] for t in times), 3),
                         "server_cpu_s": round(statistics.median(t[3] for t in times), 3)})
            shutil.rmtree(data)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps({"rows": rows, "pool_events": events, "load": os.getloadavg()}))
        return 0
    print(f"{'open games':>10} {'live MB':>8} {'health (median)':>16} {'CPU':>6} "
          f"{'all listed (median)':>20} {'max':>7} {'server CPU':>11}")
    for r in rows:
        print(f"{r['open_games']:>10} {r['live_bytes'] / 1e6:>8.1f} {r['health_s']:>15.2f}s "
              f"{r['health_cpu_s']:>5.2f}s {r['listed_s']:>19.2f}s {r['listed_max_s']:>6.2f}s "
              f"{r['server_cpu_s']:>10.2f}s")
    print(f"(load average {os.getloadavg()[0]:.1f}; target: all 200 listed in <= {TARGET_S} s "
          "on a quiet machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
