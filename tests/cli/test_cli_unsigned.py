"""What an unsigned log cannot prove is said plainly (issue 24): ``liujia validate``'s summary
says it once for all unsigned files, ``liujia audit`` puts it in its headline, and a log
mixing games with a committed deal and games without one is named as such."""

from __future__ import annotations

import pytest

from engine.log import write_log
from engine.sim import simulate
from liujia.cli import main


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("LIUJIA_HOME", str(tmp_path / "home"))


def _write(path, games) -> None:
    write_log(path, [g for g in games])


def test_validate_says_once_that_unsigned_logs_prove_nothing_of_their_writer(tmp_path, capsys):
    games = [g.events for g in simulate("keng", 2, seed=3, commit=True)]
    _write(tmp_path / "a.arrows", games[:1])
    _write(tmp_path / "b.arrows", games[1:])
    assert main(["validate", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    notes = [line for line in out if "unsigned" in line]
    assert notes == [out[-1]], out                       # once, in the summary, which is last
    assert out[-1].startswith("2 file(s): 2 ok; 0 file(s) with problems; 2 unsigned: ")
    assert "not who wrote a log" in out[-1]


def test_signed_logs_get_no_unsigned_note(tmp_path, capsys):
    assert main(["keys", "new", "club"]) == 0
    assert main(["simulate", "--game", "keng", "--games", "1", "--seed", "3", "--quiet",
                 "--out", str(tmp_path / "logs"), "--sign", "club"]) == 0
    capsys.readouterr()
    assert main(["validate", str(tmp_path / "logs")]) == 0
    assert "unsigned" not in capsys.readouterr().out


def test_a_log_mixing_committed_and_uncommitted_deals_is_named(tmp_path, capsys):
    plain = [g.events for g in simulate("keng", 2, seed=5)]
    committed = next(iter(simulate("keng", 1, seed=6, commit=True))).events
    _write(tmp_path / "mixed.arrows", [committed, plain[0]])
    assert main(["validate", str(tmp_path / "mixed.arrows")]) == 0
    out = capsys.readouterr().out
    assert "mixes 1 game(s) with a committed deal and 1 without one" in out
    _write(tmp_path / "plain.arrows", plain)
    assert main(["validate", str(tmp_path / "plain.arrows")]) == 0
    assert "mixes" not in capsys.readouterr().out


def test_audit_headlines_an_unsigned_log_and_an_uncommitted_deal(tmp_path, capsys):
    events = next(iter(simulate("keng", 1, seed=7))).events
    _write(tmp_path / "g.arrows", [events])
    assert main(["audit", str(tmp_path / "g.arrows"), "--game", events[0].game_id]) == 0
    head = capsys.readouterr().out.splitlines()[:4]
    assert head[1].startswith("OK:")
    assert any(h.startswith("CAVEAT: the log is unsigned") for h in head), head
    assert any(h.startswith("CAVEAT: the deal was not committed") for h in head), head
