"""Ingest on a Dask cluster (``ingest.executor``), on a ``LocalCluster`` of two worker
processes as a user's cluster would run: the warehouse is the one a local ingest makes; a
worker killed in the middle of a run has its files read again elsewhere and every game lands
exactly once; a scheduler lost in the middle fails the run and leaves the warehouse as it
was; a worker of another liujia refuses the task; addresses off this machine need TLS. The
``cluster`` fixture is in tests/conftest.py."""

from __future__ import annotations

import os
import signal
import threading
import time

import duckdb
import pytest

from engine.log import write_log
from engine.review import Settings
from engine.sim import simulate
from ingest import executor, ingest_paths
from ingest.executor import ClusterError, check_address
from liujia.cli import main

distributed = pytest.importorskip("distributed")

TABLES = ("games", "seats", "events", "decisions", "facts")
SLOW = Settings(seed=1, min_worlds=8, max_worlds=8, batch=8, candidates=3)


@pytest.fixture(scope="module")
def logs(tmp_path_factory, toy_game):
    root = tmp_path_factory.mktemp("cluster")
    (root / "logs").mkdir()
    games = [g.events for g in simulate(toy_game, 16, seed=13)]
    for i in range(8):
        write_log(root / "logs" / f"f{i}.arrows", games[2 * i: 2 * i + 2])
    return root


def _contents(db) -> dict[str, list]:
    with duckdb.connect(str(db), read_only=True) as con:
        out = {}
        for t in TABLES:
            cols = [c for c in con.execute(f"SELECT * FROM {t} LIMIT 0").fetchdf().columns
                    if c not in ("run_id", "source_file")]
            out[t] = sorted(map(repr, con.execute(f"SELECT {', '.join(cols)} FROM {t}")
                                .fetchall()))
        return out


def test_a_cluster_ingest_is_a_local_ingest(cluster, logs):
    local, remote = logs / "local.duckdb", logs / "remote.duckdb"
    a = ingest_paths([logs / "logs"], db=local, progress=False, workers=1)
    b = ingest_paths([logs / "logs"], db=remote, progress=False,
                     scheduler=cluster.scheduler_address)
    assert (a.loaded, b.loaded) == (16, 16) and b.workers == 2
    assert _contents(local) == _contents(remote)


def test_the_command_line_takes_the_scheduler_and_the_environment(cluster, logs, capsys,
                                                                   monkeypatch):
    db = logs / "cli.duckdb"
    assert main(["ingest", str(logs / "logs"), "--db", str(db), "--quiet",
                 "--scheduler", cluster.scheduler_address]) == 0
    assert "16 loaded" in capsys.readouterr().out
    monkeypatch.setenv("LIUJIA_SCHEDULER", cluster.scheduler_address)
    assert main(["rebuild", str(logs / "logs"), "--db", str(db), "--quiet"]) == 0
    assert "16 loaded" in capsys.readouterr().out


def test_a_killed_worker_is_redone_and_every_game_lands_once(cluster, logs):
    db = logs / "killed.duckdb"
    client = distributed.Client(cluster, set_as_default=False)
    pids = list(client.run(os.getpid).values())
    killed: list[int] = []

    def kill_when_busy() -> None:
        for _ in range(600):
            busy = client.processing()
            if any(busy.values()):
                time.sleep(0.3)
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
                return
            time.sleep(0.05)
    t = threading.Thread(target=kill_when_busy)
    t.start()
    try:
        s = ingest_paths([logs / "logs"], db=db, progress=False,
                         scheduler=cluster.scheduler_address, review=SLOW)
    finally:
        t.join()
        client.close()
    assert killed
    assert s.loaded == 16 and s.reconciles
    with duckdb.connect(str(db), read_only=True) as con:
        ids = [r[0] for r in con.execute("SELECT game_id FROM games").fetchall()]
        reviewed = con.execute("SELECT count(*), count(DISTINCT (game_id, seq)) "
                               "FROM reviews").fetchone()
    assert len(ids) == len(set(ids)) == 16
    assert reviewed[0] == reviewed[1] > 0                  # no review row twice


def run_losing_the_scheduler(args: list[str]) -> int:
    """``liujia ARGS --scheduler`` on a one-worker cluster that is closed two seconds in."""
    lost = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                    dashboard_address=None, host="127.0.0.1")

    def close_soon() -> None:
        time.sleep(2.0)
        lost.close()
    t = threading.Thread(target=close_soon)
    t.start()
    try:
        return main([*args, "--scheduler", lost.scheduler_address])
    finally:
        t.join()


def test_a_lost_scheduler_fails_the_run_and_leaves_the_warehouse(logs, capsys):
    db = logs / "lost.duckdb"
    assert ingest_paths([logs / "logs" / "f0.arrows"], db=db, progress=False).loaded == 2
    before = db.read_bytes()
    code = run_losing_the_scheduler(["ingest", str(logs / "logs"), "--db", str(db),
                                     "--quiet", "--review", "--review-worlds", "8"])
    err = capsys.readouterr().err
    assert code == 2 and "the warehouse is unchanged" in err and len(err.splitlines()) == 1
    assert db.read_bytes() == before


def test_a_worker_of_another_liujia_refuses(cluster, logs, monkeypatch, capsys):
    monkeypatch.setattr(executor, "code_version", lambda: "0" * 16)   # the sender is other
    db = logs / "version.duckdb"
    code = main(["ingest", str(logs / "logs"), "--db", str(db), "--quiet",
                 "--scheduler", cluster.scheduler_address])
    err = capsys.readouterr().err
    assert code == 2 and "install the same liujia on every worker" in err
    assert not db.exists()


@pytest.mark.parametrize(("address", "allowed", "problem"), [
    ("tcp://127.0.0.1:8786", False, None),
    ("tcp://localhost:8786", False, None),
    ("tls://10.1.2.3:8786", False, None),
    ("tcp://10.1.2.3:8786", False, "not on this machine and not TLS"),
    ("tcp://10.1.2.3:8786", True, None),
    ("http://127.0.0.1:8786", False, "not tcp://HOST:PORT"),
    ("tcp://127.0.0.1", False, "not tcp://HOST:PORT"),
])
def test_addresses(address, allowed, problem):
    if problem is None:
        check_address(address, allowed)
    else:
        with pytest.raises(ClusterError, match=problem):
            check_address(address, allowed)


def test_an_insecure_remote_scheduler_is_refused_on_the_command_line(logs, capsys):
    code = main(["ingest", str(logs / "logs"), "--db", str(logs / "x.duckdb"), "--quiet",
                 "--scheduler", "tcp://10.1.2.3:8786"])
    err = capsys.readouterr().err
    assert code == 2 and "--allow-insecure-cluster" in err and len(err.splitlines()) == 1


def test_a_lake_built_on_the_cluster_is_the_lake_built_here(cluster, logs):
    from ingest.lake import build_lake
    from tests.ingest.test_lake import contents

    here, there = logs / "lake-here", logs / "lake-there"
    a = build_lake([logs / "logs"], here, progress=False, workers=1)
    b = build_lake([logs / "logs"], there, progress=False, scheduler=cluster.scheduler_address)
    assert (a.loaded, b.loaded, b.workers) == (16, 16, 2)
    assert contents(here) == contents(there)


def test_a_lost_scheduler_leaves_the_lake_as_it_was(logs, capsys):
    from warehouse.lake import MANIFEST

    lk = logs / "lost-lake"
    assert main(["lake", "build", str(logs / "logs" / "f0.arrows"), "--out", str(lk),
                 "--quiet"]) == 0
    capsys.readouterr()
    before = {p.relative_to(lk): p.read_bytes() for p in lk.rglob("*") if p.is_file()}
    code = run_losing_the_scheduler(["lake", "build", str(logs / "logs"), "--out", str(lk),
                                     "--quiet", "--review", "--review-worlds", "8"])
    err = capsys.readouterr().err
    assert code == 2 and "the lake is unchanged" in err and len(err.splitlines()) == 1
    after = {p.relative_to(lk): p.read_bytes() for p in lk.rglob("*") if p.is_file()}
    assert after == before and (lk / MANIFEST).exists()


def test_a_review_on_the_cluster_is_the_review_made_here(cluster, logs, capsys):
    from engine.log import read_log
    log = logs / "logs" / "f0.arrows"
    gid = read_log(log).games[0].game_id
    args = ["review", str(log), "--game", gid, "--json", "-q", "--worlds", "16"]
    assert main(args) == 0
    here = capsys.readouterr().out
    assert main([*args, "--scheduler", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == here
    assert main([*args, "-j", "2"]) == 0
    assert capsys.readouterr().out == here and '"decisions"' in here
