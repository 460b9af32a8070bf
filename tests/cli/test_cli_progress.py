"""Progress of the long commands — ``liujia export`` (the table being written, rows written of
all), ``liujia audit`` over a folder (the files read in search of the game) and ``liujia
stats`` (the step under way) — on stderr only when it is a terminal and ``-q`` is not given:
with a pseudo-terminal (or the check forced) the bar is on stderr, without one nothing more is
printed, and stdout (text or ``--json``) is the same either way."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from engine.log import write_log
from engine.sim import simulate
from ingest import ingest_paths
from liujia.cli import main
from liujia.commands import _progress
from warehouse.db import reader
from warehouse.frames import PARTITIONED, export_parquet, export_sizes

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """(logs folder of two files, warehouse, a game of the second file, its busiest player)."""
    root = tmp_path_factory.mktemp("progress")
    logs = root / "logs"
    logs.mkdir()
    keng = [g.events for g in simulate("keng", 12, seed=5)]
    write_log(logs / "gouji.arrows", [g.events for g in simulate("gouji", 3, seed=5)])
    write_log(logs / "keng.arrows", keng)
    db = root / "w.duckdb"
    assert ingest_paths([logs], db=db, progress=False, workers=1).clean
    with reader(db) as con:
        (player,) = con.sql("SELECT player_id FROM seats GROUP BY 1 ORDER BY count(*) DESC, 1 "
                            "LIMIT 1").fetchall()[0]
    return logs, db, keng[-1][0].game_id, player


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """No key of the machine's is trusted (audit)."""
    monkeypatch.setenv("LIUJIA_HOME", str(tmp_path / "home"))


def _commands(corpus, out: Path) -> dict[str, list[str]]:
    logs, db, game, player = corpus
    return {"stats": ["stats", "--player", player, "--db", str(db)],
            "stats --json": ["stats", "--player", player, "--db", str(db), "--json"],
            "export": ["export", "--out", str(out), "--force", "--db", str(db)],
            "audit": ["audit", str(logs), "--game", game],
            "audit --json": ["audit", str(logs), "--game", game, "--json"]}


SHOWN = {"stats": "stats: counting 13 tendencies", "export": "export events (3/8 tables)",
         "audit": "audit: reading"}


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["stats", "stats --json", "export", "audit", "audit --json"])
def test_a_bar_on_a_terminal_only_and_never_on_stdout(corpus, tmp_path, capsys, monkeypatch,
                                                      name):
    argv = _commands(corpus, tmp_path / "export")[name]
    if name.startswith("stats"):
        argv += ["--game", "keng"]
    code, plain, err = _run(capsys, argv)           # stderr is no terminal here
    assert code == 0 and plain and err == ""
    monkeypatch.setattr(_progress, "on_terminal", lambda: True)
    assert _run(capsys, [*argv, "-q"]) == (0, plain, "")       # quiet: nothing either
    code, out, err = _run(capsys, argv)
    assert (code, out) == (0, plain)                 # stdout the same, text or JSON
    assert SHOWN[name.split()[0]] in err, err
    if name.startswith("audit"):
        assert "gouji.arrows" in err and "1/2" in err   # the first file read, then the next
    if name.startswith("stats"):
        assert "(step 4 of 4" in err


def test_audit_of_one_file_has_no_bar(corpus, capsys, monkeypatch):
    logs, _, game, _ = corpus
    monkeypatch.setattr(_progress, "on_terminal", lambda: True)
    code, out, err = _run(capsys, ["audit", str(logs / "keng.arrows"), "--game", game])
    assert code == 0 and out and err == ""


def test_export_tells_every_row_of_every_table(corpus, tmp_path):
    """The export's progress: each table in order, starting at 0, its rows summing to the
    table's size (what the bar's total is made of)."""
    _, db, _, _ = corpus
    told: list[tuple[str, int]] = []
    with reader(db) as con:
        sizes = export_sizes(con)
        export_parquet(con, tmp_path / "out", lambda table, rows: told.append((table, rows)))
    assert list(dict.fromkeys(t for t, _ in told)) == list(sizes)
    assert [t for t, rows in told if rows == 0] == list(sizes)     # each table's start
    assert {t: sum(r for x, r in told if x == t) for t in sizes} == sizes
    assert sizes["events"] > sizes["games"] > 0 and set(PARTITIONED) <= set(sizes)


def _on_pty(argv: list[str]) -> tuple[int, bytes, str]:
    """Run ``liujia argv`` with stderr on a pseudo-terminal of 100 columns and stdout on a
    pipe: exit code, stdout, what the terminal got."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "liujia", *argv], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:                 # EIO: the child closed the terminal
            break
        if not chunk:
            break
        got += chunk
    os.close(master)
    assert proc.stdout is not None
    out = proc.stdout.read()
    return proc.wait(timeout=120), out, got.decode("utf-8", "replace")


@pytest.mark.parametrize("name", ["stats", "export", "audit --json"])
def test_a_real_terminal_gets_the_bar_a_pipe_does_not(corpus, tmp_path, capsys, name):
    """A child process whose stderr is a terminal shows the bar there; its stdout is what the
    command prints with no terminal (here, in this process)."""
    argv = _commands(corpus, tmp_path / "export")[name]
    code, plain, err = _run(capsys, argv)
    assert code == 0 and plain and err == ""
    code, out, terminal = _on_pty(argv)
    assert (code, out.decode()) == (0, plain)
    assert SHOWN[name.split()[0]].split(" counting")[0] in terminal and "\r" in terminal
