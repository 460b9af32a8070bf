"""Bad input to the log-reading commands ends in one line and the documented exit code, never
a traceback (issue 9): unreadable folders and files, FIFOs, a --salvage that cannot be written
(an existing file, a full disk), empty and cut logs, and the catch-all of ``liujia.cli.main``.

Commands run as the real CLI in a subprocess where a traceback would show. Permission tests
come twice: with ``chmod`` (skipped as root, who is never denied) and with the file-system
calls patched (tests/cli/_deny.py), in-process and in a subprocess, which work for root too."""

from __future__ import annotations

import errno
import json
import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from engine.log import LogWriter, write_log
from engine.sim import simulate
from liujia.cli import main
from tests.cli import _deny

ROOT = Path(__file__).resolve().parents[2]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.fixture(scope="module")
def games():
    return [g.events for g in simulate("keng", 4, seed=11)]


@pytest.fixture()
def tree(tmp_path, games):
    """good/a.arrows (two games), locked/b.arrows, locked/sub/c.arrows, cut.arrows."""
    (tmp_path / "good").mkdir()
    (tmp_path / "locked" / "sub").mkdir(parents=True)
    write_log(tmp_path / "good" / "a.arrows", games[:2])
    write_log(tmp_path / "locked" / "b.arrows", games[2:3])
    write_log(tmp_path / "locked" / "sub" / "c.arrows", games[3:])
    data = (tmp_path / "good" / "a.arrows").read_bytes()
    (tmp_path / "cut.arrows").write_bytes(data[: len(data) * 3 // 4])
    return tmp_path


def cli(*args: str, preexec=None, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """The real command line in a subprocess."""
    return subprocess.run([sys.executable, "-m", "liujia", *args], cwd=ROOT, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120, preexec_fn=preexec)


def cli_denied(folders, files, *args: str) -> subprocess.CompletedProcess:
    """The real command line in a subprocess in which the folders and files are locked."""
    return subprocess.run([sys.executable, "-c", _deny.BOOT, json.dumps(list(map(str, folders))),
                           json.dumps(list(map(str, files))), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def one_error_line(err: str, *words: str) -> None:
    assert "Traceback" not in err, err
    lines = [x for x in err.splitlines() if x.startswith("liujia: ")]
    assert lines, err
    assert any(all(w.lower() in x.lower() for w in words) for x in lines), err


def _commands(t: Path) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(arguments, words the error line holds) of every command given a locked path."""
    locked = t / "locked"
    return [
        (("validate", str(locked)), ("permission denied", str(locked))),
        (("validate", str(locked / "b.arrows")), ("permission denied", "b.arrows")),
        (("validate", "--quiet", str(locked / "sub")), ("permission denied",)),
        (("replay", str(locked / "b.arrows"), "--game", "x"), ("permission denied",)),
        (("position", str(locked / "b.arrows"), "--game", "x", "--step", "0"),
         ("permission denied",)),
        (("export", "--db", str(locked / "w.duckdb"), "--out", str(t / "out")),
         ("permission denied",)),
        (("serve", "--db", str(locked / "w.duckdb")), ("permission denied",)),
    ]


def test_unreadable_folder_in_process(tree, monkeypatch, capsys):
    _deny.install([str(tree / "locked")], [], monkeypatch.setattr)
    for args, words in _commands(tree):
        assert main(list(args)) == 2, args
        cap = capsys.readouterr()
        one_error_line(cap.err, *words)
        assert "no *.arrows" not in cap.err


def test_an_unreadable_folder_does_not_hide_the_others(tree, monkeypatch, capsys):
    _deny.install([str(tree / "locked")], [], monkeypatch.setattr)
    assert main(["validate", str(tree)]) == 2
    cap = capsys.readouterr()
    one_error_line(cap.err, str(tree / "locked"), "permission denied")
    assert cap.out.count("a.arrows: ok ") == 2 and "cut.arrows: corrupt" in cap.out


def test_replay_passes_over_files_that_are_not_logs(tree, games, capsys):
    (tree / "good" / "0-junk.arrows").write_text("not a log")
    gid = games[1][0].game_id
    assert main(["replay", str(tree / "good"), "--game", gid, "--step", "5"]) == 0
    assert gid in capsys.readouterr().out
    assert main(["replay", str(tree / "good"), "--game", "nope"]) == 2
    one_error_line(capsys.readouterr().err, "'nope' is not in", "not_a_log", "0-junk.arrows")


def test_unreadable_folder_real_cli(tree):
    for args, words in _commands(tree)[:4]:
        r = cli_denied([tree / "locked"], [], *args)
        assert r.returncode == 2, (args, r.stderr)
        one_error_line(r.stderr, *words)


@pytest.mark.skipif(IS_ROOT, reason="root is never denied by file modes: the patched variants "
                    "above cover this")
def test_unreadable_folder_chmod(tree):
    locked = tree / "locked"
    locked.chmod(0)
    try:
        for args, words in _commands(tree):
            r = cli(*args)
            assert r.returncode == 2, (args, r.stderr)
            one_error_line(r.stderr, *words)
    finally:
        locked.chmod(stat.S_IRWXU)


def test_unreadable_file_is_an_io_error(tree, monkeypatch, capsys):
    """Exit 2 (I/O error, as the README says), one line; the other files are still read."""
    bad = tree / "locked" / "b.arrows"
    _deny.install([], [str(bad)], monkeypatch.setattr)
    assert main(["validate", str(bad), str(tree / "good")]) == 2
    cap = capsys.readouterr()
    one_error_line(cap.err, str(bad), "permission denied")
    assert cap.out.count(": ok ") == 2
    r = cli_denied([], [bad], "validate", "--json", str(bad))
    assert r.returncode == 2
    one_error_line(r.stderr, "permission denied")


@pytest.mark.skipif(IS_ROOT, reason="root is never denied by file modes")
def test_unreadable_file_chmod(tree):
    bad = tree / "locked" / "b.arrows"
    bad.chmod(0)
    r = cli("validate", str(bad), str(tree / "good"))
    assert r.returncode == 2
    one_error_line(r.stderr, "permission denied")


def test_fifo_is_refused_and_the_other_files_read(tree):
    fifo = tree / "good" / "pipe.arrows"
    os.mkfifo(fifo)
    for args in ((str(fifo), str(tree / "good" / "a.arrows")), (str(tree / "good"),)):
        r = cli("validate", *args)          # today: blocks forever on the FIFO
        assert r.returncode == 2, r.stderr
        one_error_line(r.stderr, str(fifo), "not a regular file")
        assert r.stdout.count(": ok ") == 2


def test_salvage_that_cannot_be_used(tree):
    cut = str(tree / "cut.arrows")
    (tree / "afile").write_text("x")
    (tree / "taken").mkdir()
    (tree / "taken" / "cut.salvaged.arrows").mkdir()       # the output name is a folder
    os.symlink(tree / "nowhere", tree / "dangling")
    for target, words in ((tree / "afile", ("not a folder",)),
                          (tree / "afile" / "sub", ("--salvage",)),
                          (tree / "dangling", ("--salvage",)),
                          (tree / "taken", ("--salvage", "cut.salvaged.arrows"))):
        r = cli("validate", cut, "--salvage", str(target))
        assert r.returncode == 2, (target, r.stderr)
        one_error_line(r.stderr, *words)


def _fsize_limit(limit: int):
    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_limit


def test_salvage_onto_a_full_disk_real_cli(tree):
    """RLIMIT_FSIZE: the salvage write fails midway, as on a full disk. One line naming the
    file, exit 2, the report still printed, nothing half-written left behind."""
    out = tree / "salvaged"
    r = cli("validate", str(tree / "cut.arrows"), "--salvage", str(out),
            preexec=_fsize_limit(4000))
    assert r.returncode == 2, r.stderr
    one_error_line(r.stderr, "--salvage", "cut.salvaged.arrows")
    assert r.stdout.count(": ok ") >= 1 and "unsealed" in r.stdout
    assert not [p for p in out.iterdir()], list(out.iterdir())


def test_salvage_onto_a_full_disk_in_process(tree, monkeypatch, capsys):
    def full(self, events):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(LogWriter, "write_game", full)
    out = tree / "salvaged"
    assert main(["validate", str(tree / "cut.arrows"), "--salvage", str(out)]) == 2
    cap = capsys.readouterr()
    one_error_line(cap.err, "no space left on device")
    assert "unsealed" in cap.out
    assert not list(out.iterdir())


@pytest.mark.parametrize("size", [0, 1, 4, 8, 100, 880])
def test_empty_or_cut_header_is_an_unfinished_log(tree, size, capsys):
    data = (tree / "good" / "a.arrows").read_bytes()
    f = tree / "new.arrows"
    f.write_bytes(data[:size])
    assert main(["validate", "--json", str(f)]) == 1
    [row] = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert (row["status"], row["code"]) == ("corrupt", "unsealed"), row
    junk = tree / "junk.arrows"
    junk.write_bytes(b"\x00" * size + b"PK\x03\x04 a zip, not a log")
    assert main(["validate", "--json", str(junk)]) == 1
    [row] = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert row["status"] == "not_a_log"


def test_the_rule_id_is_printed_once():
    from liujia.commands.validate import _line
    row = {"status": "illegal", "game_id": "g1", "seq": 41, "seat": 2, "rule_id": "KENG-23",
           "reason": "KENG-23: seat 2 PLAY Qh at seq 41: it is seat 4's turn"}
    assert _line(row).count("KENG-23") == 1, _line(row)
    row["reason"] = "seat 2 PLAY Qh at seq 41: it is seat 4's turn"
    assert _line(row).count("KENG-23: seat 2") == 1
    row.update(rule_id=None, seat=None, reason="seq 0: game id 'x y' holds ' '")
    assert "None" not in _line(row)


def _raise(exc: BaseException):
    def run(args):
        raise exc
    return run


@pytest.mark.parametrize("exc, code, words", [
    (OSError(errno.EACCES, "Permission denied", "/some/where"), 2,
     "liujia: /some/where: Permission denied"),
    (OSError(errno.ENOSPC, "No space left on device"), 2, "liujia: No space left on device"),
    (RecursionError("maximum recursion depth exceeded"), 2, "liujia: "),
    (MemoryError(), 2, "liujia: out of memory"),
    (KeyboardInterrupt(), 130, ""),
])
def test_catch_all(monkeypatch, capsys, exc, code, words):
    import liujia.commands.validate as validate
    monkeypatch.setattr(validate, "run", _raise(exc))
    assert main(["validate", "x"]) == code
    err = capsys.readouterr().err
    if not words:
        assert err == ""
    else:
        assert err.startswith(words) and err.count("\n") == 1, err


def test_catch_all_real_cli(tree):
    boot = ("import sys, liujia.commands.validate as v\n"
            "def run(args): raise KeyboardInterrupt\n"
            "v.run = run\n"
            "from liujia.cli import main\n"
            "sys.exit(main(sys.argv[1:]))")
    r = subprocess.run([sys.executable, "-c", boot, "validate", "x"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stderr) == (130, "")
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            r = cli("validate", str(tree / "good"), stdout=full)
        assert r.returncode == 2, r.stderr
        assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
        assert r.stderr.count("\n") == 1 and "No space left" in r.stderr, r.stderr
