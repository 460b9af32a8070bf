"""Readers querying in a loop while ingest runs write: no reader ever fails, and every reader
always sees a whole number of runs (games = the sum of the loaded counts of completed runs)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from engine.log import write_log
from ingest.run import ingest_paths, rebuild_paths
from warehouse import queries as q
from warehouse.db import reader

ROOT = Path(__file__).resolve().parents[2]

# A reader in another process, as a dashboard would be: a short-lived read-only connection per
# check, until the stop file appears; prints what it saw as JSON.
READER = r"""
import json, os, sys
from warehouse.db import reader
db, ready, stop = sys.argv[1:4]
checks, errors, bad, runs_seen = 0, [], [], set()
while not os.path.exists(stop):
    try:
        with reader(db) as con:
            g, e, runs, loaded, ev_loaded = con.execute(
                "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events), "
                "count(*), coalesce(sum(loaded), 0), coalesce(sum(events_loaded), 0) "
                "FROM ingest_runs").fetchall()[0]
        checks += 1
        runs_seen.add(runs)
        if g != loaded or e != ev_loaded:
            bad.append([g, loaded, e, ev_loaded])
        if checks == 1:
            open(ready, "w").close()
    except Exception as exc:
        errors.append(repr(exc))
print(json.dumps({"checks": checks, "errors": errors[:5], "n_errors": len(errors),
                  "bad": bad[:5], "runs_seen": sorted(runs_seen)}))
"""


def _thread_reader(db: Path, stop: threading.Event, out: dict) -> None:
    while not stop.is_set():
        try:
            with reader(db) as con:
                c = q.counts(con)
                runs = q.ingest_runs(con).to_pylist()
            out["checks"] += 1
            if c["games"] != sum(r["loaded"] for r in runs) or \
                    c["events"] != sum(r["events_loaded"] for r in runs):
                out["bad"].append((c, len(runs)))
            out["runs_seen"].add(len(runs))
        except Exception as exc:  # noqa: BLE001 - any failure is what the test looks for
            out["errors"].append(repr(exc))


def test_readers_never_fail_and_always_see_whole_runs(tmp_path, corpus):
    logs = tmp_path / "logs"
    logs.mkdir()
    files = []
    for i in range(6):
        files.append(logs / f"part{i}.arrows")
        write_log(files[-1], corpus[2 * i:2 * i + 2])
    db = tmp_path / "w.duckdb"
    ingest_paths([files[0]], db=db, progress=False)

    ready, stop_file = tmp_path / "ready", tmp_path / "stop"
    proc = subprocess.Popen([sys.executable, "-c", READER, str(db), str(ready), str(stop_file)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stop = threading.Event()
    seen: dict = {"checks": 0, "errors": [], "bad": [], "runs_seen": set()}
    t = threading.Thread(target=_thread_reader, args=(db, stop, seen))
    t.start()
    try:
        deadline = time.monotonic() + 30
        while not ready.exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "reader process did not start"
            time.sleep(0.02)
        for f in files[1:]:
            s = ingest_paths([f], db=db, progress=False)
            assert s.loaded == 2
            time.sleep(0.05)
        rebuild_paths([logs], db=db, progress=False)
        time.sleep(0.1)
    finally:
        stop.set()
        stop_file.touch()
        t.join(30)
        out, err = proc.communicate(timeout=30)
    res = json.loads(out.strip().splitlines()[-1])
    assert res["n_errors"] == 0, res["errors"]
    assert res["bad"] == []
    assert res["checks"] > 5 and len(res["runs_seen"]) >= 2, res
    assert seen["errors"] == [] and seen["bad"] == []
    assert seen["checks"] > 5 and len(seen["runs_seen"]) >= 2, seen
