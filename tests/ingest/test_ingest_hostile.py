"""Bad input and bad luck for ``liujia ingest`` / ``liujia rebuild``: dangling symlinks, empty
folders, a warehouse folder that does not exist, more workers than files, permission errors,
a full disk. Each is one line on stderr with the right exit code, never a traceback, and the
warehouse is exactly as before whenever the run fails."""

from __future__ import annotations

import errno
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from engine.log import write_log
from ingest import ingest_paths
from ingest import run as ingest_run
from liujia.cli import main
from warehouse import db as wdb

ROOT = Path(__file__).resolve().parents[2]


def _snapshot(db: Path) -> dict[str, list]:
    with duckdb.connect(str(db), read_only=True) as con:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall()
                for t in ("games", "seats", "events", "quarantine", "ingest_runs",
                          "ingested_files")}


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("liujia: "), err
    assert "Traceback" not in err
    return lines[0]


def test_a_dangling_symlink_is_quarantined_and_the_rest_loads(tmp_path, games, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs / "a.arrows", games[:3])
    (logs / "gone.arrows").symlink_to(tmp_path / "moved-away.arrows")
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(logs), "--db", str(db), "-q"]) == 1
    out = capsys.readouterr().out
    assert "3 game(s) read = 3 loaded + 0 already present + 0 quarantined" in out
    assert "file/dangling_symlink" in out and "gone.arrows" in out and "moved-away" in out
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall() == [(3,)]
        assert con.execute("SELECT stage, code FROM quarantine").fetchall() == [
            ("file", "dangling_symlink")]
    assert main(["ingest", str(logs), "--db", str(db), "-q"]) == 1   # same problem, no new row
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM quarantine").fetchall() == [(1,)]


def test_a_dangling_symlink_named_on_the_command_line_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "gone.arrows").symlink_to(tmp_path / "nowhere.arrows")
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(tmp_path / "gone.arrows"), "--db", str(db)]) == 2
    assert "symbolic link" in _one_line(capsys.readouterr().err)
    assert not db.exists()


@pytest.mark.parametrize("command", ["ingest", "rebuild"])
def test_an_empty_folder_says_there_are_no_logs(tmp_path, command, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("no logs here")
    db = tmp_path / "w.duckdb"
    assert main([command, str(tmp_path / "empty"), "--db", str(db), "-q"]) == 2
    cap = capsys.readouterr()
    assert "no *.arrows log files under" in _one_line(cap.err) and cap.out == ""
    assert not db.exists()


@pytest.mark.parametrize("command", ["ingest", "rebuild"])
def test_a_db_in_a_missing_folder_is_refused(tmp_path, games, command, capsys):
    write_log(tmp_path / "a.arrows", games[:1])
    folder = tmp_path / "no" / "such"
    assert main([command, str(tmp_path / "a.arrows"), "--db", str(folder / "w.duckdb")]) == 2
    line = _one_line(capsys.readouterr().err)
    assert str(folder) in line and "does not exist" in line
    assert not (tmp_path / "no").exists()


def test_the_default_folder_is_still_created(tmp_path, games, monkeypatch):
    default = tmp_path / "data" / "liujia" / "liujia.duckdb"
    import warehouse.paths
    monkeypatch.setattr(warehouse.paths, "DEFAULT_DB", default)     # where default_db reads it
    monkeypatch.delenv(wdb.ENV_VAR, raising=False)
    write_log(tmp_path / "a.arrows", games[:1])
    assert ingest_paths([tmp_path / "a.arrows"], progress=False).loaded == 1
    assert default.is_file()


def test_workers_are_capped_at_the_files_and_the_cpus(tmp_path, games, monkeypatch, capsys):
    write_log(tmp_path / "a.arrows", games[:2])
    write_log(tmp_path / "b.arrows", games[2:4])
    asked: list[int] = []
    real = ingest_run.ProcessPoolExecutor

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, max_workers: int, **kw: object) -> None:
            asked.append(max_workers)
            super().__init__(max_workers, **kw)

    monkeypatch.setattr(ingest_run, "ProcessPoolExecutor", Recording)
    code = main(["ingest", str(tmp_path), "--db", str(tmp_path / "w.duckdb"), "-j", "24",
                 "--json"])
    s = json.loads(capsys.readouterr().out)
    assert code == 0 and s["loaded"] == 4
    expected = min(2, ingest_run.cpu_count())
    assert s["workers"] == expected and asked == ([expected] if expected > 1 else [])
    assert ingest_run.worker_count(24, []) == 1
    for command in ("ingest", "rebuild"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "never more than the files to read or the CPUs" in " ".join(
            capsys.readouterr().out.split())


def _deny(*_a: object, **_k: object) -> None:
    raise PermissionError(errno.EACCES, "Permission denied", "/somewhere/denied")


@pytest.mark.parametrize("where", ["lock", "copy", "replace", "read", "walk", "hash", "fsync"])
@pytest.mark.parametrize("command", ["ingest", "rebuild"])
def test_a_permission_error_anywhere_is_one_line_exit_2(tmp_path, games, where, command,
                                                        monkeypatch, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs / "a.arrows", games[:1])
    db = tmp_path / "w.duckdb"
    ingest_paths([logs], db=db, progress=False)
    write_log(logs / "b.arrows", games[1:2])
    before = _snapshot(db)
    if command == "rebuild" and where == "copy":
        pytest.skip("a rebuild makes no copy")
    if where == "lock":      # the lock file cannot be opened (a folder of someone else's)
        monkeypatch.setattr(wdb, "open", _deny_lock(open), raising=False)
    else:
        monkeypatch.setattr(*{
            "copy": (wdb, "_copy_file"), "replace": (wdb.os, "replace"),
            "read": (ingest_run, "read_file"), "walk": (ingest_run.os, "walk"),
            "hash": (ingest_run, "sealed_sha256"), "fsync": (wdb.os, "fsync")}[where], _deny)
    code = main([command, str(logs), "--db", str(db), "-q", "-j", "1"])
    monkeypatch.undo()
    cap = capsys.readouterr()
    assert code == 2 and "Permission denied" in _one_line(cap.err) and cap.out == ""
    assert _snapshot(db) == before
    assert not list(tmp_path.glob("w.duckdb.ingest-tmp*"))


def _deny_lock(real_open: object) -> object:
    def fake(file: object, *a: object, **k: object) -> object:
        if str(file).endswith(wdb.LOCK_SUFFIX):
            _deny()
        return real_open(file, *a, **k)  # type: ignore[operator]
    return fake


def test_a_full_disk_at_fsync_says_the_warehouse_is_intact(tmp_path, games, monkeypatch,
                                                           capsys):
    write_log(tmp_path / "a.arrows", games[:2])
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path / "a.arrows"], db=db, progress=False)
    write_log(tmp_path / "b.arrows", games[2:4])
    before = _snapshot(db)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(wdb.os, "fsync", full)
    code = main(["ingest", str(tmp_path), "--db", str(db), "-q"])
    monkeypatch.undo()
    line = _one_line(capsys.readouterr().err)
    assert code == 2 and "No space left on device" in line and "syncing" in line
    assert f"The warehouse {db} is intact" in line and "free space" in line
    assert _snapshot(db) == before and not list(tmp_path.glob("w.duckdb.ingest-tmp*"))


FULL_DISK = r"""
import resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
from liujia.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_a_failed_checkpoint_says_the_warehouse_is_intact_not_fatal(tmp_path, games):
    """A real DuckDB checkpoint failure: the process may not write past the old file's size
    (RLIMIT_FSIZE, as a full disk would stop it), so the copy succeeds and the checkpoint of
    the new rows fails."""
    write_log(tmp_path / "a.arrows", games[:2])
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path / "a.arrows"], db=db, progress=False)
    write_log(tmp_path / "b.arrows", games[2:])
    before = _snapshot(db)
    limit = db.stat().st_size + 4096
    r = subprocess.run([sys.executable, "-c", FULL_DISK, str(limit), "ingest", str(tmp_path),
                        "--db", str(db), "-q"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    line = _one_line(r.stderr)
    assert r.returncode == 2, r
    assert "FATAL" not in line and "checkpoint" in line and "File too large" in line
    assert f"The warehouse {db} is intact: this run changed nothing" in line
    assert _snapshot(db) == before
    assert sorted(p.name for p in tmp_path.iterdir() if "duckdb" in p.name) == [
        "w.duckdb", "w.duckdb.anchors", "w.duckdb.lock"]
    assert ingest_paths([tmp_path], db=db, progress=False).loaded == len(games) - 2


def test_an_unlistable_subfolder_is_an_error_not_left_out(tmp_path, games, monkeypatch,
                                                         capsys):
    (tmp_path / "logs" / "sub").mkdir(parents=True)
    write_log(tmp_path / "logs" / "sub" / "a.arrows", games[:1])
    real_walk = os.walk

    def walk(top: object, onerror: object = None, **kw: object) -> object:
        for root, dirs, names in real_walk(top, onerror=onerror, **kw):
            if root.endswith("sub"):
                onerror(PermissionError(errno.EACCES, "Permission denied", root))
            yield root, dirs, names

    monkeypatch.setattr(ingest_run.os, "walk", walk)
    assert main(["ingest", str(tmp_path / "logs"), "--db", str(tmp_path / "w.duckdb")]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "sub: cannot list the folder (Permission denied)" in line


def _unprivileged(args: list[str]) -> subprocess.CompletedProcess[str]:
    """Run liujia where file permissions hold: as root, without the capabilities that
    override them (capsh); as anyone else, as is."""
    cmd = [sys.executable, "-m", "liujia", *args]
    if os.geteuid() == 0:
        capsh = shutil.which("capsh")
        if capsh is None:
            pytest.skip("running as root without capsh: permissions are not enforced")
        cmd = [capsh, "--drop=cap_dac_override,cap_dac_read_search", "--", "-c",
               shlex.join(cmd)]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("denied", ["log", "subfolder", "warehouse", "db_folder"])
def test_real_permission_errors_are_one_line_exit_2(tmp_path, games, denied):
    logs = tmp_path / "logs"
    (logs / "sub").mkdir(parents=True)
    write_log(logs / "a.arrows", games[:2])
    write_log(logs / "sub" / "b.arrows", games[2:4])
    wh = tmp_path / "wh"
    wh.mkdir()
    db = wh / "w.duckdb"
    ingest_paths([logs / "a.arrows"], db=db, progress=False)
    before = _snapshot(db)
    victim = {"log": logs / "a.arrows", "subfolder": logs / "sub", "warehouse": db,
              "db_folder": wh}[denied]
    mode = victim.stat().st_mode
    victim.chmod(0o555 if denied == "db_folder" else 0)
    try:
        r = _unprivileged(["ingest", str(logs), "--db", str(db), "-q"])
    finally:
        victim.chmod(mode)
    line = _one_line(r.stderr)
    assert r.returncode == 2 and "Permission denied" in line, r
    assert str(victim) in line or (denied == "db_folder" and str(wh) in line)
    assert _snapshot(db) == before
    assert sorted(p.name for p in wh.iterdir()) == ["w.duckdb", "w.duckdb.anchors",
                                                    "w.duckdb.lock"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_link_to_a_device_is_named_a_device_not_a_missing_file(tmp_path, games, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs / "a.arrows", games[:2])
    (logs / "zero.arrows").symlink_to("/dev/zero")
    os.mkfifo(logs / "pipe.jsonl")
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(logs), "--db", str(db), "-q"]) == 1
    out = capsys.readouterr().out
    assert "does not exist" not in out
    assert "a symbolic link to /dev/zero, a character device" in out
    assert "pipe.jsonl" in out and "a FIFO" in out
    with duckdb.connect(str(db), read_only=True) as con:
        assert sorted(con.execute("SELECT code FROM quarantine").fetchall()) == \
            [("not_a_file",)] * 2
    assert main(["ingest", str(logs / "zero.arrows"), "--db", str(db)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "/dev/zero, a character device" in line and "not a regular file" in line
