"""``kill -9`` of real ``liujia ingest`` / ``rebuild`` / ``simulate`` processes at named and at
random moments (seeded): the warehouse is exactly the old or exactly the new version, no
process is left behind, nothing blocks the next run, and a re-run converges to the content of
one clean run; a killed simulate leaves nothing that ``liujia validate`` calls clean, and the
same seed again gives the same bytes.

The suite runs a few trials. ``LIUJIA_CRASH_TRIALS=30`` runs 30 per command (ingest, rebuild)
and 20 of simulate, prints the counts per trial class as a Markdown table (``-s`` to see it)
and, with ``LIUJIA_CRASH_REPORT=FILE``, writes every trial as JSON (docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pytest

from engine.log import write_log
from engine.sim import simulate
from ingest import ingest_paths, rebuild_paths
from ingest.run import cpu_count
from liujia.cli import main
from tests.ingest.conftest import make_illegal
from warehouse import db as wdb

ROOT = Path(__file__).resolve().parents[2]
TRIALS = int(os.environ.get("LIUJIA_CRASH_TRIALS", "0"))
SEED = int(os.environ.get("LIUJIA_CRASH_SEED", "2026"))
REPORT = os.environ.get("LIUJIA_CRASH_REPORT")

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="finds left-over processes through /proc (Linux)")

DATA_SQL = {
    "games": "SELECT * EXCLUDE (run_id) FROM games ORDER BY game_id",
    "seats": "SELECT * FROM seats ORDER BY game_id, seat",
    "events": "SELECT * FROM events ORDER BY game_id, seq",
    "quarantine": "SELECT * EXCLUDE (run_id, first_seen) FROM quarantine ORDER BY qkey",
    "ingested_files": "SELECT * EXCLUDE (run_id) FROM ingested_files ORDER BY sha256",
}
RUNS_SQL = ("SELECT run_id, command, files, games_read, loaded, already_present, quarantined, "
            "files_quarantined, events_read, events_loaded FROM ingest_runs ORDER BY run_id")


def data(db: Path) -> dict[str, list]:
    """What the logs determine: every table's rows without run ids and clock times."""
    with duckdb.connect(str(db), read_only=True) as con:
        return {t: con.execute(sql).fetchall() for t, sql in DATA_SQL.items()}


def state(db: Path) -> dict[str, list]:
    """The data and the runs recorded (their figures, not their times): a warehouse version."""
    with duckdb.connect(str(db), read_only=True) as con:
        return {**data(db), "runs": con.execute(RUNS_SQL).fetchall()}


def liujia(*args: object) -> list[str]:
    """The command line of a real liujia process (this checkout's code)."""
    return [sys.executable, "-m", "liujia", *map(str, args)]


def alive_in_session(sid: int) -> list[int]:
    """Processes of a session that are still running (not zombies)."""
    pids = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
            pids.append(int(d.name))
    return pids


def wait_gone(sid: int, timeout: float = 5.0) -> list[int]:
    """Wait for a session's processes to end; those still running then are killed and
    returned (so that a failing trial leaves nothing behind either)."""
    deadline = time.monotonic() + timeout
    while (left := alive_in_session(sid)) and time.monotonic() < deadline:
        time.sleep(0.01)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return left


def lock_is_free(db: Path) -> bool:
    """Nobody holds the writers' lock (a killed writer, or a worker of one, would)."""
    with open(db.with_name(db.name + wdb.LOCK_SUFFIX), "a+b") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        return True


def wait_blocked_on_lock(proc: subprocess.Popen, timeout: float = 60.0) -> None:
    """Wait until proc waits for a flock (/proc/locks lists it with '->')."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        for line in Path("/proc/locks").read_text().splitlines():
            parts = line.split()
            if len(parts) > 5 and parts[1] == "->" and parts[5] == str(proc.pid):
                return
        time.sleep(0.01)
    raise AssertionError("the ingest never waited for the lock")


# --- regression tests with real processes -------------------------------------------------

def test_workers_die_with_a_killed_ingest(tmp_path, games):
    """kill -9 of the ingest kills its workers too, and they no longer hold its output."""
    if cpu_count() < 2:
        pytest.skip("-j 2 needs two CPUs")
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(16):       # the same games 16 times: 16 files to read and replay
        write_log(logs / f"c{i:02d}.arrows", games)
    proc = subprocess.Popen(liujia("ingest", logs, "--db", tmp_path / "w.duckdb", "-q", "-j", 2),
                            cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(alive_in_session(proc.pid)) < 3:      # the ingest and its two workers
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no workers started"
            time.sleep(0.005)
        time.sleep(0.2)
        assert proc.poll() is None, "the run ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=10)   # returns only once no worker holds stdout/stderr open
    finally:
        left = wait_gone(proc.pid)
    assert left == []
    assert lock_is_free(tmp_path / "w.duckdb")


def test_an_ingest_waiting_for_a_rebuild_decides_its_skips_after_it(tmp_path, games,
                                                                   other_games):
    """A rebuild holds the lock and swaps in a warehouse without a.arrows; an ingest of
    a.arrows that waited for it must load a.arrows, not call its games present."""
    a, b = tmp_path / "a.arrows", tmp_path / "b.arrows"
    write_log(a, games[:5])
    write_log(b, other_games)
    db, rebuilt = tmp_path / "w.duckdb", tmp_path / "rebuilt.duckdb"
    ingest_paths([a], db=db, progress=False)           # ingested_files now holds a.arrows
    rebuild_paths([b], db=rebuilt, progress=False)     # what the rebuild will swap in
    with wdb._writer_lock(db):                          # the rebuild's lock ...
        proc = subprocess.Popen(liujia("ingest", a, "--db", db, "-q"), cwd=ROOT, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            wait_blocked_on_lock(proc)
        except BaseException:
            proc.kill()
            raise
        os.replace(rebuilt, db)                         # ... and its swap
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "5 game(s) read = 5 loaded + 0 already present + 0 quarantined" in out
    with duckdb.connect(str(db), read_only=True) as con:
        ids = {r[0] for r in con.execute("SELECT game_id FROM games").fetchall()}
    assert ids == {g[0].game_id for g in games[:5] + other_games}


# --- kill -9 trials -----------------------------------------------------------------------

@dataclass
class Corpus:
    """Logs, the warehouse before the run (``old``) and after one clean run per command."""

    logs: Path
    old_db: Path
    old: dict[str, list]
    new: dict[str, dict[str, list]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    chunks: int = 1
    files_to_read: int = 0
    startup: float = 0.0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    root = tmp_path_factory.mktemp("crash")
    logs = root / "logs"
    (logs / "a").mkdir(parents=True)
    (logs / "b").mkdir()
    played = [g.events for g in simulate("keng", 30, seed=SEED)]
    write_log(logs / "a" / "a0.arrows", played[:3])
    write_log(logs / "a" / "a1.arrows", played[3:6])
    for i in range(6):
        part = played[6 + 4 * i:10 + 4 * i]
        write_log(logs / "b" / f"b{i}.arrows", [*part, make_illegal(part[0])] if i == 2
                  else part)
    (logs / "b" / "junk.arrows").write_bytes(b"\xff\xff\xff\xff not a log")
    old_db = root / "old.duckdb"
    ingest_paths([logs / "a"], db=old_db, progress=False)
    c = Corpus(logs, old_db, state(old_db), chunks=old_db.stat().st_size // wdb.COPY_CHUNK,
               files_to_read=7, seconds={"ingest": 2.0, "rebuild": 2.0}, startup=1.0)
    for command, run in (("ingest", ingest_paths), ("rebuild", rebuild_paths)):
        db = root / f"clean-{command}.duckdb"
        shutil.copyfile(old_db, db)
        s = run([logs], db=db, progress=False, workers=1)
        assert (s.quarantined, s.files_quarantined) == (1, 1), s.describe()
        c.new[command] = state(db)
    assert c.new["ingest"] != c.old and c.chunks >= 2
    if TRIALS:                 # time a clean run of each as the trials run it
        c.startup = _seconds(liujia("--version"))
        for command in ("ingest", "rebuild"):
            db = root / f"timed-{command}.duckdb"
            shutil.copyfile(old_db, db)
            c.seconds[command] = _seconds(liujia(command, logs, "--db", db, "-q", "-j", 2))
            assert state(db) == c.new[command]
    return c


def _seconds(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, capture_output=True)
    return time.perf_counter() - t0


# class -> (pause point or None, kill delay): a delay None kills while paused; a pair is
# the range of a seeded uniform delay after the pause ends (or, without a point, after start)
CLASSES = {
    "read/validate": ("file@{k}", None),
    "copy": ("copy@{c}", None),
    "checkpoint": ("checkpoint", (0.0, 0.03)),
    "swap": ("synced", (0.0, 0.002)),
    "random": (None, None),
}
BEFORE_SWAP = ("read/validate", "copy")


def plan(command: str, n: int, rng: random.Random, c: Corpus) -> list[tuple[str, str | None,
                                                                            float | None]]:
    """n trials (class, pause point, delay) of a command, round-robin over its classes."""
    classes = [k for k in CLASSES if command == "ingest" or k != "copy"]
    out = []
    for i in range(n):
        cls = classes[i % len(classes)]
        point, delay = CLASSES[cls]
        if point is not None:
            point = point.format(k=rng.randint(1, c.files_to_read - 1),
                                 c=rng.randint(1, c.chunks - 1))
        if cls == "random":
            d: float | None = rng.uniform(c.startup * 0.8, c.seconds[command] * 0.95)
        else:
            d = None if delay is None else rng.uniform(*delay)
        out.append((cls, point, d))
    return out


def kill_trial(c: Corpus, work: Path, command: str, cls: str, point: str | None,
               delay: float | None) -> dict:
    """One real run killed with SIGKILL; what it left, and what a re-run made of it."""
    work.mkdir()
    db, flag = work / "w.duckdb", work / "paused"
    shutil.copyfile(c.old_db, db)
    env = {k: v for k, v in os.environ.items() if k != wdb.PAUSE_ENV}
    if point is not None:
        env.update({wdb.PAUSE_ENV: point, wdb.PAUSE_FILE_ENV: str(flag)})
    with open(work / "stderr", "wb") as err:
        proc = subprocess.Popen(liujia(command, c.logs, "--db", db, "-q", "-j", 2), cwd=ROOT,
                                env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                                stderr=err)
    deadline = time.monotonic() + 120
    while point is not None and not flag.exists() and proc.poll() is None:
        assert time.monotonic() < deadline, "the run never reached its pause point"
        time.sleep(0.002)
    if delay is not None:
        flag.unlink(missing_ok=True)
        time.sleep(delay)
    finished = proc.poll() is not None
    if not finished:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    left = wait_gone(proc.pid)
    flag.unlink(missing_ok=True)
    now = state(db)
    outcome = "old" if now == c.old else "new" if now == c.new[command] else "other"
    leftovers = sorted(p.name for p in work.iterdir()
                       if p.name not in ("w.duckdb", "w.duckdb.lock", "w.duckdb.anchors",
                                         "stderr"))
    free = lock_is_free(db)
    rerun = ingest_paths if command == "ingest" else rebuild_paths
    rerun([c.logs], db=db, progress=False, workers=1)
    return {"command": command, "class": cls, "point": point, "delay": delay,
            "killed": not finished, "returncode": proc.returncode, "outcome": outcome,
            "processes_left": len(left), "files_left": leftovers, "lock_free": free,
            "converged": data(db) == data_of(c, command),
            "clean_after": sorted(p.name for p in work.iterdir()) == [
                "stderr", "w.duckdb", "w.duckdb.anchors", "w.duckdb.lock"],
            "stderr": (work / "stderr").read_text(errors="replace")[-300:]}


def data_of(c: Corpus, command: str) -> dict[str, list]:
    return {k: v for k, v in c.new[command].items() if k != "runs"}


def check(trial: dict) -> None:
    """What every trial must show."""
    assert trial["outcome"] in ("old", "new"), trial
    if trial["class"] in BEFORE_SWAP:
        assert trial["outcome"] == "old" and trial["killed"], trial
    assert trial["processes_left"] == 0 and trial["lock_free"], trial
    assert trial["converged"] and trial["clean_after"], trial


def table(trials: list[dict]) -> str:
    """The counts per command and class, as a Markdown table."""
    rows = ["| command | killed during | trials | old state | new state | finished first "
            "| no process left | next run unblocked | converged on re-run |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    groups: dict[tuple[str, str], list[dict]] = {}
    for t in trials:
        groups.setdefault((t["command"], t["class"]), []).append(t)
    for (command, cls), ts in groups.items():
        n = Counter(t["outcome"] for t in ts)
        rows.append(f"| {command} | {cls} | {len(ts)} | {n['old']} | {n['new']} | "
                    f"{sum(not t['killed'] for t in ts)} | "
                    f"{sum(t['processes_left'] == 0 for t in ts)} | "
                    f"{sum(t['lock_free'] for t in ts)} | {sum(t['converged'] for t in ts)} |")
    return "\n".join(rows)


def _report(name: str, trials: list[dict], markdown: str) -> None:
    print(f"\n{markdown}\n")
    if REPORT:
        path = Path(REPORT)
        old = json.loads(path.read_text()) if path.exists() else {}
        old[name] = trials
        path.write_text(json.dumps(old, indent=1, default=str))


@pytest.mark.parametrize("command", ["ingest", "rebuild"])
def test_kill_9_leaves_the_old_or_the_new_warehouse(tmp_path, corpus, command):
    if cpu_count() < 2:
        pytest.skip("-j 2 needs two CPUs")
    rng = random.Random(f"{SEED}-{command}")
    trials = plan(command, TRIALS or len(CLASSES), rng, corpus)
    if not TRIALS:        # the suite: one trial of each class that must end in the old state
        quick = {"ingest": BEFORE_SWAP + ("checkpoint", "swap"), "rebuild": ("read/validate",
                                                                              "swap")}[command]
        trials = [t for i, t in enumerate(trials) if t[0] in quick and
                  t[0] not in [u[0] for u in trials[:i]]]
    done = [kill_trial(corpus, tmp_path / f"t{i:03d}", command, *t)
            for i, t in enumerate(trials)]
    _report(command, done, table(done))
    for t in done:
        check(t)


# --- simulate -----------------------------------------------------------------------------

SIM = ["simulate", "--game", "keng", "--games", "60", "--per-file", "8", "--seed", "11",
       "--quiet"]


def _validate(folder: Path) -> tuple[int, list[dict]]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["validate", str(folder), "--json", "--quiet"])
    return code, [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def sim_trial(ref: Path, ref_games: set[tuple[str, int]], work: Path, delay: float) -> dict:
    """A simulate killed after delay seconds: does validate flag every file it left unfinished,
    does it report only true games as ok, and does the same seed again give the same bytes?"""
    out = work / "logs"
    proc = subprocess.Popen(liujia(*SIM, "--out", out), cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    finished = proc.poll() is not None
    if not finished:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    left = wait_gone(proc.pid)
    present = sorted(out.glob("*.arrows")) if out.is_dir() else []
    partial = [f for f in present if f.read_bytes() != (ref / f.name).read_bytes()]
    code, rows = _validate(out) if present else (None, [])
    flagged = {r["file"] for r in rows if r["status"] != "ok"}
    with contextlib.redirect_stdout(io.StringIO()):
        main([*SIM, "--out", str(out)])
    same = sorted(p.name for p in out.iterdir()) == sorted(p.name for p in ref.iterdir()) and \
        all((out / p.name).read_bytes() == p.read_bytes() for p in ref.iterdir())
    return {"delay": delay, "killed": not finished, "files": len(present),
            "partial": len(partial), "validate_exit": code,
            "outcome": "torn tail detected" if partial else
            ("all files complete" if present else "nothing written"),
            "detected": all(str(f) in flagged for f in partial) and
            (code == 1 if partial else code in (0, None)),
            "only_true_games_ok": all((r["game_id"], r["events"]) in ref_games
                                      for r in rows if r["status"] == "ok"),
            "processes_left": len(left), "identical_on_rerun": same}


def test_kill_9_simulate_is_detected_and_the_same_seed_repeats(tmp_path):
    ref = tmp_path / "ref"
    t0 = time.perf_counter()
    subprocess.run(liujia(*SIM, "--out", ref), cwd=ROOT, check=True, capture_output=True)
    seconds = time.perf_counter() - t0
    code, rows = _validate(ref)
    assert code == 0
    ref_games = {(r["game_id"], r["events"]) for r in rows}
    rng = random.Random(f"{SEED}-simulate")
    n = TRIALS * 2 // 3 if TRIALS else 1
    start = 0.35 * seconds                      # about where the imports end
    done = [sim_trial(ref, ref_games, tmp_path / f"s{i:03d}",
                      rng.uniform(start, seconds) if TRIALS else 0.7 * seconds)
            for i in range(n)]
    n_out = Counter(t["outcome"] for t in done)
    _report("simulate", done, "| simulate killed mid-write | trials | " + " | ".join(
        f"{k}: {v}" for k, v in sorted(n_out.items())) + f" | detected by validate: "
        f"{sum(t['detected'] for t in done)} | identical on re-run: "
        f"{sum(t['identical_on_rerun'] for t in done)} |")
    for t in done:
        assert t["detected"] and t["only_true_games_ok"], t
        assert t["processes_left"] == 0 and t["identical_on_rerun"], t


def test_an_interrupted_simulate_leaves_its_file_unsealed(tmp_path, monkeypatch):
    """Ctrl-C (or a full disk) in the middle of a file: that file is left unsealed like a
    killed run's, not sealed as if it were whole; the same seed again gives the same bytes."""
    from engine.log import read_log
    from liujia.commands import simulate as sim_cmd

    ref, out = tmp_path / "ref", tmp_path / "out"
    sim_cmd.write_games(ref, "keng", 6, 5, per_file=3, progress=False)
    real = sim_cmd.simulate

    def interrupted(*a: object, **k: object):
        for i, g in enumerate(real(*a, **k)):
            if i == 5:
                raise KeyboardInterrupt
            yield g

    monkeypatch.setattr(sim_cmd, "simulate", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sim_cmd.write_games(out, "keng", 6, 5, per_file=3, progress=False)
    first, second = sorted(out.glob("*.arrows"))
    assert read_log(first).ok and first.read_bytes() == (ref / first.name).read_bytes()
    torn = read_log(second)
    assert not torn.sealed and len(torn.games) == 2
    assert _validate(out)[0] == 1
    monkeypatch.undo()
    sim_cmd.write_games(out, "keng", 6, 5, per_file=3, progress=False)
    assert all((out / p.name).read_bytes() == p.read_bytes() for p in ref.iterdir())
