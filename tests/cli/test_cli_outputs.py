"""Every command that writes a file (or folder entries) the user names refuses one that is
there already, with one line and exit 2, unless ``--force`` (as ``liujia convert`` does)."""

from __future__ import annotations

import pytest

from engine.log import write_log
from engine.sim import simulate
from liujia.cli import main


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    games = [g.events for g in simulate("keng", 2, seed=4)]
    path = tmp_path_factory.mktemp("outputs") / "keng.arrows"
    write_log(path, games)
    return path, games[0][0].game_id


def _one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("liujia: ") and "Traceback" not in err, err
    return lines[0]


def test_audit_html_refuses_an_existing_file(log, tmp_path, capsys):
    path, gid = log
    out = tmp_path / "report.html"
    out.write_text("my notes")
    assert main(["audit", str(path), "--game", gid, "--html", str(out)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert str(out) in line and "--force" in line
    assert out.read_text() == "my notes"
    assert main(["audit", str(path), "--game", gid, "--html", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8").count("<html") == 1


def test_audit_html_does_not_write_through_a_link(log, tmp_path, capsys):
    path, gid = log
    victim = tmp_path / "victim"
    victim.write_text("precious")
    out = tmp_path / "report.html"
    out.symlink_to(victim)
    assert main(["audit", str(path), "--game", gid, "--html", str(out)]) == 2
    capsys.readouterr()
    assert main(["audit", str(path), "--game", gid, "--html", str(out), "--force"]) == 0
    assert victim.read_text() == "precious" and not out.is_symlink()


def test_export_refuses_to_replace_a_previous_export(log, tmp_path, capsys):
    path, _ = log
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(path), "--db", str(db), "-q"]) == 0
    out = tmp_path / "parquet"
    (out / "games").mkdir(parents=True)
    (out / "games" / "mine.txt").write_text("mine")
    (out / "notes.txt").write_text("kept")
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--out", str(out)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert str(out / "games") in line and "--force" in line
    assert (out / "games" / "mine.txt").read_text() == "mine"
    assert main(["export", "--db", str(db), "--out", str(out), "--force"]) == 0
    assert not (out / "games" / "mine.txt").exists() and (out / "notes.txt").read_text() == "kept"
    assert main(["export", "--db", str(db), "--out", str(tmp_path / "fresh")]) == 0
