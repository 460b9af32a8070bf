"""``liujia review`` end to end on logs written by ``liujia simulate``: text, JSON and HTML, the
same seed giving the same review, and every refusal with its exit code (README: 0 reviewed, 1
not ok or not reviewable, 2 usage)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.events import seal_events
from engine.log import read_log, write_log
from liujia.cli import main

TOY = "toy_tricks"


@pytest.fixture(scope="module")
def toy_log(tmp_path_factory, toy_game) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("review") / "toy"
    assert main(["simulate", "--game", TOY, "--games", "1", "--seed", "4", "--out", str(out),
                 "--policy", "greedy", "--quiet"]) == 0
    (f,) = sorted(out.glob("*.arrows"))
    return f, read_log(f).games[0].game_id


def _run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["review", *args])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_text_review_of_one_seat(toy_log, capsys):
    f, gid = toy_log
    code, out, err = _run(capsys, str(f), "--game", gid, "--seat", "1", "--worlds", "32")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[0].startswith(f"review of game {gid} (小墩), seat(s) 1, seed 0: ")
    assert "lichess's steps" in lines[1]
    heads = [x for x in lines if x.startswith("seq ")]
    assert heads and all(" seat 1: PLAY " in x and " worlds)  loss " in x for x in heads)
    assert sum(" chosen " in x for x in lines) == len(heads)


def test_json_is_the_same_for_the_same_seed(toy_log, capsys):
    f, gid = toy_log
    args = (str(f), "--game", gid, "--json", "--worlds", "16", "--seed", "3")
    code, out, _ = _run(capsys, *args)
    assert code == 0
    doc = json.loads(out)
    assert doc["game"] == TOY and doc["seats"] == [0, 1, 2, 3] and doc["seed"] == 3
    assert doc["stopped"] == "done" and doc["decisions"]
    d = doc["decisions"][0]
    assert set(d) >= {"seq", "seat", "candidates", "loss", "loss_se", "grade", "withheld",
                      "flag", "worlds"}
    assert d["candidates"][d["chosen"]]["action"]["kind"] == "PLAY"
    assert _run(capsys, *args)[1] == out


def test_html_is_written_and_not_over_an_existing_file(toy_log, capsys, tmp_path):
    f, gid = toy_log
    page = tmp_path / "r.html"
    code, out, _ = _run(capsys, str(f), "--game", gid, "--seat", "0", "--worlds", "16",
                        "--html", str(page))
    assert code == 0 and out.startswith(f"wrote {page}: review of game {gid}")
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and "<table>" in text and "小墩" in text
    code, _, err = _run(capsys, str(f), "--game", gid, "--html", str(page))
    assert code == 2 and "exists (use --force to replace it)" in err


def test_a_game_that_is_not_ok_is_not_reviewed(toy_log, capsys, tmp_path):
    f, gid = toy_log
    events = read_log(f).games[0].events
    i = next(i for i, e in enumerate(events) if e.kind == "PLAY" and i > 8)
    bad = events[i]._replace(seat=(events[i].seat + 1) % 4)
    write_log(tmp_path / "bad.arrows", [seal_events([*events[:i], bad, *events[i + 1:]])])
    code, out, err = _run(capsys, str(tmp_path / "bad.arrows"), "--game", gid)
    assert code == 1 and out == ""
    assert err.startswith(f"liujia: illegal {gid} in ") and "TRICK-" in err
    assert err.rstrip().endswith("(not reviewed)") and len(err.splitlines()) == 1


def test_usage_errors_name_what_is_wrong(toy_log, capsys):
    f, gid = toy_log
    code, _, err = _run(capsys, str(f), "--game", gid, "--seat", "4")
    assert code == 2 and "--seat 4: 小墩 game" in err and "has seats 0-3" in err
    code, _, err = _run(capsys, str(f), "--game", gid, "--worlds", "3")
    assert code == 2 and "--worlds must be from 16" in err
    code, _, err = _run(capsys, str(f), "--game", "no-such-game")
    assert code == 2 and "'no-such-game' is not in" in err


def test_a_budget_that_grades_nothing_says_so(toy_log, capsys):
    f, gid = toy_log
    code, out, err = _run(capsys, str(f), "--game", gid, "--budget", "0.000001")
    assert code == 1 and out == "" and "graded nothing" in err


def test_a_game_without_a_sampler_cannot_be_reviewed_yet(toy_log, capsys, monkeypatch):
    import dataclasses

    from engine import games
    f, gid = toy_log
    # the toy game as a package that declares no sample_world would register it
    monkeypatch.setitem(games._CACHE, TOY, dataclasses.replace(games.find_game(TOY),
                                                               sample_world=None))
    code, _, err = _run(capsys, str(f), "--game", gid)
    assert code == 1 and "小墩 (toy_tricks) cannot be reviewed yet" in err


def test_ctrl_c_prints_what_was_reviewed_and_exits_130(toy_log, capsys, monkeypatch):
    import engine.review as review
    f, gid = toy_log
    real, calls = review.review_decision, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 6:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(review, "review_decision", interrupted)
    code, out, _ = _run(capsys, str(f), "--game", gid, "--worlds", "16", "-j", "1")
    assert code == 130
    assert "interrupted: " in out.splitlines()[0] and "decision(s) not reviewed" in out
    assert any(x.startswith("seq ") for x in out.splitlines())


def test_a_long_review_uses_every_cpu_by_default_and_gives_the_same_review(toy_log, capsys,
                                                                           monkeypatch):
    from concurrent import futures

    import ingest.run
    from liujia.commands import review
    f, gid = toy_log
    monkeypatch.setattr(ingest.run, "cpu_count", lambda: 2)
    monkeypatch.setattr(ingest.run, "can_fork", lambda: True)
    assert review.local_workers(None, review.AUTO_MIN_DECISIONS) == 2
    assert review.local_workers(None, review.AUTO_MIN_DECISIONS - 1) == 1   # a short review
    assert review.local_workers(1, 100) == 1 and review.local_workers(3, 2) == 3
    pools, real = [], futures.ProcessPoolExecutor

    def counted(*args, **kwargs):
        pools.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(ingest.run, "ProcessPoolExecutor", counted)
    args = (str(f), "--game", gid, "--worlds", "16", "--json", "-q")
    code, here, _ = _run(capsys, *args, "-j", "1")
    assert code == 0 and pools == []
    code, auto, _ = _run(capsys, *args)
    assert code == 0 and pools == [(2,)] and auto == here
    monkeypatch.setattr(ingest.run, "can_fork", lambda: False)     # threads running: here
    code, again, _ = _run(capsys, *args)
    assert code == 0 and pools == [(2,)] and again == here
