"""``liujia validate -j N`` and ``--scheduler``: each file validated on its own in a worker
process or on a Dask cluster (the ``cluster`` fixture of tests/conftest.py) gives the report of
a run file by file here, byte for byte, text and --json, over a folder holding a damaged file,
an illegal game and a 六人坑 session spread over files whose links across files hold, break
(KENG-7), fork (a later file names a game that its own file linked already), name a game
whose id a later file reuses with other content, or name a game in no file; -j 0 and bad scheduler
addresses are one-line usage errors. The -j tests come first: the module's cluster, once
started, has threads in this process (workers are then spawned, not forked)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ingest.run as ingest_run
import liujia.commands.validate as validate
from engine.jsonl import write_jsonl
from engine.log import write_log
from engine.sim import simulate
from liujia.cli import main
from tests.ingest.conftest import make_illegal

KENG7 = "KENG-7"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A folder of logs whose report needs the links across files made in file order: game k
    of the session is keng[k]; other[k] is a legal game of the same id from another session
    played otherwise (its link to keng[k - 1] breaks KENG-7: other deciders)."""
    d = tmp_path_factory.mktemp("validate-workers") / "logs"
    d.mkdir()
    keng = [s.events for s in simulate("keng", 6, seed=31, session_games=6, commit=True)]
    other = [s.events for s in simulate("keng", 6, seed=31, session_games=6, commit=True,
                                        policy_name="greedy")]
    stray = [s.events for s in simulate("keng", 2, seed=32, session_games=2)]
    write_log(d / "a1.arrows", keng[:3])                # the session opens
    write_log(d / "a2.arrows", keng[3:4])               # linked to a1's last game: ok
    write_jsonl(d / "a3.jsonl", [other[4], keng[5]])    # broken across files, then within
    write_log(d / "b1.arrows", keng[2:3])               # a1's game 2 again: linked to a1's
    #                                                   # game 1, which a1 linked already
    write_log(d / "b2.arrows", other[2:3])              # game 2 again, another game: broken
    write_log(d / "b3.arrows", keng[3:4])               # linked to b2's game 2: broken
    write_log(d / "b4.arrows", [make_illegal(keng[4])])   # illegal: a3's game 4 stays
    write_log(d / "b5.arrows", keng[5:])                # linked to a3's game 4: broken
    data = (d / "a1.arrows").read_bytes()
    (d / "c-cut.arrows").write_bytes(data[: len(data) * 3 // 4])   # damaged
    write_log(d / "d.arrows", stray[1:])                # its previous game is in no file
    return d


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["validate", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def two_workers(monkeypatch):
    """-j 2 starts two worker processes, also on a one-CPU machine; the pools started."""
    monkeypatch.delenv(validate.SCHEDULER_ENV, raising=False)
    monkeypatch.setattr(ingest_run, "cpu_count", lambda: 2)
    pools: list[int] = []
    real = ingest_run.worker_pool

    def counted(workers: int, quiet_interrupt: bool = False):
        pools.append(workers)
        return real(workers, quiet_interrupt)
    monkeypatch.setattr(ingest_run, "worker_pool", counted)
    return pools


def test_the_serial_report_needs_the_links_across_files(corpus, capsys, monkeypatch):
    """What the corpus checks, seen in the serial report (the reference of the tests below)."""
    monkeypatch.delenv(validate.SCHEDULER_ENV, raising=False)
    code, out, err = _run(capsys, str(corpus), "--json", "-j", "1")
    assert code == 1
    rows = [json.loads(x) for x in out.splitlines()]
    by = {(Path(r["file"]).name, r.get("game_id")): r for r in rows}

    def verdict(name: str, k: int) -> tuple:
        r = by[name, f"keng-31-00000{k}"]
        return r["status"], r.get("rule_id"), r.get("seq"), r.get("line")
    link = ("illegal", KENG7, 0)
    assert verdict("a2.arrows", 3) == ("ok", None, None, None)
    assert verdict("a3.jsonl", 4) == (*link, 2)         # across files, with its line
    assert verdict("a3.jsonl", 5)[:3] == link           # within the file
    assert verdict("a3.jsonl", 5)[3] > 2
    assert verdict("b1.arrows", 2) == ("ok", None, None, None)
    assert verdict("b2.arrows", 2) == (*link, None)
    assert verdict("b3.arrows", 3) == (*link, None)
    assert verdict("b4.arrows", 4)[:2] == ("illegal", "KENG-11")
    assert verdict("b5.arrows", 5) == (*link, None)
    assert "previous_game" in by["d.arrows", "keng-32-000001"]
    assert any(r["status"] == "corrupt" for r in rows if r["file"].endswith("c-cut.arrows"))
    assert "names previous game keng-32-000000, which is not in these logs" in err


def test_a_worker_sends_back_the_final_states_later_files_most_likely_need(corpus):
    """Those of the last game of the session in each file, not those its file links."""
    sent = {name: sorted(validate.validate_alone(corpus / name).finals)
            for name in ("a1.arrows", "a3.jsonl", "b2.arrows", "b4.arrows")}
    assert sent == {"a1.arrows": ["keng-31-000002"], "a3.jsonl": ["keng-31-000005"],
                    "b2.arrows": ["keng-31-000002"], "b4.arrows": []}
    rep = validate.validate_alone(corpus / "a3.jsonl")
    assert rep.kept == {"keng-31-000004": 0, "keng-31-000005": 1} and rep.log is None
    assert [(ln.row, ln.game, ln.previous, ln.line) for ln in rep.links] == \
        [(0, 0, "keng-31-000003", 2)]


@pytest.mark.parametrize(("flags", "sent"), [
    ([], "tails"), (["--json"], "tails"), (["--strict", "--require", "signed"], "tails"),
    ([], "none"), (["--json"], "all"),
])
def test_two_workers_give_the_serial_report(corpus, capsys, two_workers, monkeypatch, flags,
                                            sent):
    """The same stdout, stderr and exit, whichever final states the workers send back (the
    others are replayed again here)."""
    serial = _run(capsys, str(corpus), "-j", "1", *flags)
    assert not two_workers
    if sent == "none":
        monkeypatch.setattr(validate, "_tails", lambda fv, kept: [])
    elif sent == "all":
        monkeypatch.setattr(validate, "_tails", lambda fv, kept: list(kept))
    assert _run(capsys, str(corpus), "-j", "2", *flags) == serial
    assert two_workers == [2]


def test_salvage_with_workers_writes_what_a_serial_run_writes(corpus, tmp_path, capsys,
                                                               two_workers):
    out = tmp_path / "salvaged"
    serial = _run(capsys, str(corpus), "-j", "1", "--salvage", str(out))
    written = {p.name: p.read_bytes() for p in out.iterdir()}
    for p in out.iterdir():
        p.unlink()
    assert _run(capsys, str(corpus), "-j", "2", "--salvage", str(out)) == serial
    assert {p.name: p.read_bytes() for p in out.iterdir()} == written
    assert list(written) == ["c-cut.salvaged.arrows"] and two_workers == [2]


def test_ctrl_c_is_one_line_and_130(corpus, capsys, two_workers, monkeypatch):
    real = validate.Linker.link
    seen: list[Path] = []

    def interrupted(self, path, rep):
        seen.append(path)
        if len(seen) == 3:
            raise KeyboardInterrupt
        return real(self, path, rep)
    monkeypatch.setattr(validate.Linker, "link", interrupted)
    code, out, err = _run(capsys, str(corpus), "-j", "2")
    assert code == 130 and len(out.splitlines()) == 4          # a1's and a2's games
    assert err == "liujia: interrupted: 2 of 10 file(s) validated, their rows printed; " \
        "no summary\n"


@pytest.mark.parametrize(("args", "words"), [
    (["-j", "0"], "--workers must be at least 1"),
    (["--scheduler", "http://127.0.0.1:8786"], "not tcp://HOST:PORT"),
    (["--scheduler", "tcp://10.1.2.3:8786"], "--allow-insecure-cluster"),
])
def test_usage_errors_are_one_line(corpus, capsys, args, words):
    code, out, err = _run(capsys, str(corpus), *args)
    assert (code, out) == (2, "") and len(err.splitlines()) == 1 and words in err, err


def test_the_help_names_the_options(capsys):
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "-j N, --workers N" in text and "--scheduler ADDRESS" in text
    assert "--allow-insecure-cluster" in text


# ---- on a Dask cluster (after the -j tests: see the module's docstring)

@pytest.mark.parametrize("flags", [[], ["--json"]])
def test_a_cluster_gives_the_serial_report(corpus, cluster, capsys, monkeypatch, flags):
    monkeypatch.delenv(validate.SCHEDULER_ENV, raising=False)
    serial = _run(capsys, str(corpus), "-j", "1", *flags)
    assert _run(capsys, str(corpus), "--scheduler", cluster.scheduler_address, *flags) == serial
    monkeypatch.setenv(validate.SCHEDULER_ENV, cluster.scheduler_address)
    assert _run(capsys, str(corpus), *flags) == serial


def test_a_worker_of_another_liujia_refuses(corpus, cluster, capsys, monkeypatch):
    from ingest import executor
    monkeypatch.setattr(executor, "code_version", lambda: "0" * 16)   # the sender is other
    code, out, err = _run(capsys, str(corpus), "--scheduler", cluster.scheduler_address)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "install the same liujia on every worker" in err


def test_a_lost_scheduler_is_one_line_exit_2(corpus, capsys, monkeypatch):
    distributed = pytest.importorskip("distributed")
    lost = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                    dashboard_address=None, host="127.0.0.1")
    real = validate.Linker.link

    def losing(self, path, rep):            # the scheduler goes when the first file is back
        lost.close()
        return real(self, path, rep)
    monkeypatch.setattr(validate.Linker, "link", losing)
    try:
        code, out, err = _run(capsys, str(corpus), "--scheduler", lost.scheduler_address)
    finally:
        lost.close()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "the cluster failed while validating" in err, err
