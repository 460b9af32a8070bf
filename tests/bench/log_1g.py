"""A ≥ 1 GiB sealed log for the memory benchmark of ``liujia validate`` (built once, cached).

The games are those of the cached 10M-event corpus (``warehouse_10m``: 156 files, 62,400
games), written into one file in file order, then again under new ids (``-x2`` added to the
game, its previous game and its session, the chain re-sealed) until the file has at least
``MIN_BYTES``: every game replays ok and links to its previous game as in the corpus. Cached as
``$LIUJIA_BENCH_CACHE/log-1g/KEY.arrows`` (``~/.cache/liujia/...`` by default), KEY the corpus's
key and ``BUILD_VERSION``; written under a temporary name and renamed when sealed.

Build (or find) it with ``python -m tests.bench.log_1g``; ``python -m tests.bench.log_1g
--measure [--tree DIR]`` then runs ``liujia validate`` on it (the code of DIR, by default this
checkout) under ``nice`` and prints its peak RSS, times and the SHA-256 of its report.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.events import Event, seal_events
from engine.log import LogWriter, read_log
from tests.bench import warehouse_10m as w10m

ROOT = Path(__file__).resolve().parents[2]
BUILD_VERSION = 2
MIN_BYTES = 1 << 30
SPARE = 4 << 30               # a measured run is stopped when the machine has less left
SUFFIX = "-x2"


def path(min_bytes: int = MIN_BYTES) -> Path:
    """Where the log of at least ``min_bytes`` is cached (it may not exist yet)."""
    key = w10m.paths().logs.name.removeprefix("logs-")
    return w10m.cache_root() / "log-1g" / f"{key}-v{BUILD_VERSION}-{min_bytes >> 20}m.arrows"


def _renamed(events: list[Event]) -> list[Event]:
    """The game under new ids (its own, its previous game's, its session's), re-sealed."""
    start = json.loads(events[0].payload or "{}")
    for key in ("previous_game", "session"):
        if isinstance(start.get(key), str):
            start[key] += SUFFIX
    payload = json.dumps(start, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    gid = events[0].game_id + SUFFIX
    out = [e._replace(game_id=gid, digest=b"") for e in events]
    out[0] = out[0]._replace(payload=payload)
    return seal_events(out)


def _games(files: list[Path]) -> Iterator[tuple[bool, list[Event]]]:
    """(a copy?, events) of every game of the files, then of their copies, endlessly."""
    copy = False
    while True:
        for f in files:
            for g in read_log(f).games:
                yield copy, _renamed(g.events) if copy else g.events
        copy = True


def ensure(progress: bool = True, min_bytes: int = MIN_BYTES) -> Path | str:
    """The cached log of at least ``min_bytes`` (1 GiB), built first if missing; or why it
    cannot be built."""
    out = path(min_bytes)
    if out.is_file():
        return out
    corpus = w10m.cached_logs(w10m.paths())
    if corpus is None:
        return "the 10M-event corpus is not cached (python -m tests.bench.warehouse_10m)"
    files = sorted(w10m.paths().logs.glob("*.arrows"))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    w = LogWriter(tmp)
    seen: set[str] = set()
    for copy, events in _games(files):
        if copy and events[0].game_id in seen:
            break                                  # every game copied once: stop
        seen.add(events[0].game_id)
        w.write_game(events)
        size = os.path.getsize(tmp)            # each game is flushed as written
        if progress and w.games % 5000 == 0:
            print(f"{w.games} games, {size >> 20} MiB", file=sys.stderr)
        if size >= min_bytes:
            break
    w.close()
    os.replace(tmp, out)
    return out


def measure(log: Path, tree: Path = ROOT, cap_mb: int = 6000,
            report_to: Path | None = None) -> dict[str, Any]:
    """``liujia validate LOG --quiet`` of the code in ``tree``, under nice and /usr/bin/time:
    peak RSS (MB), wall, user and system seconds, exit code, the SHA-256 and lines of its
    report (written to ``report_to`` if given); stopped (``capped``) if its RSS passes
    ``cap_mb`` or the machine has less than ``SPARE`` bytes left (it is shared)."""
    import psutil
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = ["nice", "/usr/bin/time", "-f", "TIME %M %e %U %S", sys.executable, "-m",
           "liujia.cli", "validate", str(log), "--quiet"]
    peak = 0
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=out, stderr=err,
                                start_new_session=True)
        capped = False
        while proc.poll() is None:
            try:
                rss = sum(c.memory_info().rss for c in psutil.Process(proc.pid)
                          .children(recursive=True))
            except psutil.Error:
                rss = 0
            peak = max(peak, rss >> 20)
            if peak > cap_mb or psutil.virtual_memory().available < SPARE:
                os.killpg(proc.pid, signal.SIGKILL)
                capped = True
            time.sleep(0.2)
        wall = time.perf_counter() - t0
        out.seek(0)
        report = out.read()
        if report_to is not None:
            report_to.write_bytes(report)
        err.seek(0)
        timed = [ln for ln in err.read().decode().splitlines() if ln.startswith("TIME ")]
    got: dict[str, Any] = {"tree": str(tree), "exit": proc.returncode, "capped": capped,
                           "peak_rss_mb": peak, "wall_s": round(wall, 1),
                           "report_sha256": hashlib.sha256(report).hexdigest(),
                           "report_lines": report.count(b"\n")}
    if timed and not capped:
        kb, wall_s, user, system = timed[-1].split()[1:]
        got.update(peak_rss_mb=int(kb) >> 10, wall_s=float(wall_s), user_s=float(user),
                   sys_s=float(system))
    return got


def main(argv: list[str] | None = None) -> int:
    """Build (or find) the big log; with --measure, validate it and print the figures."""
    ap = argparse.ArgumentParser(prog="python -m tests.bench.log_1g")
    ap.add_argument("--measure", action="store_true")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the liujia code to run")
    ap.add_argument("--cap-mb", type=int, default=6000, help="stop it past this RSS")
    ap.add_argument("--mib", type=int, default=MIN_BYTES >> 20, help="the log's size at least")
    ap.add_argument("--report", type=Path, help="write the report (stdout) there")
    args = ap.parse_args(argv)
    got = ensure(min_bytes=args.mib << 20)
    if isinstance(got, str):
        print(got, file=sys.stderr)
        return 1
    print(f"{got}: {got.stat().st_size:,} bytes")
    if args.measure:
        print(json.dumps(measure(got, args.tree.resolve(), args.cap_mb, args.report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
