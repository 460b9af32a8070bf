"""``liujia find`` end to end: simulate, ingest, then search by facts — the seats found agree
with the facts counted straight from the logs, every condition and filter narrows as it says,
and bad input is a one-line usage error (exit 2), nothing found exit 1."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engine.facts import facts_table
from engine.log import read_log
from liujia.cli import main

TOY = "toy_tricks"


@pytest.fixture(scope="module")
def toy_db(tmp_path_factory, toy_game) -> tuple[Path, list]:
    root = tmp_path_factory.mktemp("find")
    logs, db = root / "logs", root / "w.duckdb"
    assert main(["simulate", "--game", TOY, "--games", "30", "--seed", "11", "--out", str(logs),
                 "--quiet"]) == 0
    assert main(["ingest", str(logs), "--db", str(db), "--quiet"]) == 0
    games = [g.events for f in sorted(logs.glob("*.arrows")) for g in read_log(f).games]
    return db, games


def _find(capsys, db, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["find", "--db", str(db), *args])
    got = capsys.readouterr()
    return code, got.out, got.err


def _json(out: str) -> list[dict]:
    return [json.loads(x) for x in out.splitlines()]


def test_found_seats_are_those_the_logs_say(toy_db, capsys):
    db, games = toy_db
    facts = facts_table(games).to_pylist()
    want = {(r["game_id"], r["seat"]) for r in facts
            if r["fact"] == "held_ace" and r["count"] >= 2}
    code, out, err = _find(capsys, db, "--fact", "held_ace>=2", "--limit", "10000", "--json")
    assert code == 0 and err == ""
    rows = _json(out)
    assert {(r["game_id"], r["seat"]) for r in rows} == want and want
    first = {(r["game_id"], r["seat"]): r["first_seq"] for r in facts if r["fact"] == "held_ace"}
    for r in rows:
        (f,) = r["facts"]
        assert f["count"] >= 2 and f["first_seq"] == first[(r["game_id"], r["seat"])]


def test_conditions_combine_on_one_seat_with_result_and_player(toy_db, capsys):
    db, games = toy_db
    facts = facts_table(games).to_pylist()
    by_seat: dict = {}
    for r in facts:
        by_seat.setdefault((r["game_id"], r["seat"]), Counter())[r["fact"]] = r["count"]
    code, out, _ = _find(capsys, db, "--fact", "held_ace", "--fact", "top_score=0",
                         "--limit", "10000", "--json")
    rows = _json(out)
    assert code == 0 and rows
    want = {k for k, c in by_seat.items() if c["held_ace"] >= 1 and c["top_score"] == 0}
    want |= set()    # seats with no fact at all hold no ace: not found
    assert {(r["game_id"], r["seat"]) for r in rows} == want
    assert all(r["result"] == "loss" for r in rows)       # not the top score: lost
    player = rows[0]["player_id"]
    code, out, _ = _find(capsys, db, "--fact", "held_ace", "--player", player,
                         "--result", "win", "--json", "--limit", "10000")
    mine = _json(out)
    assert code == 0 and mine
    assert {r["player_id"] for r in mine} == {player} and {r["result"] for r in mine} == {"win"}


def test_text_output_names_the_moment_and_the_replay_command(toy_db, capsys):
    db, _ = toy_db
    code, out, _ = _find(capsys, db, "--fact", "won_last_trick", "--limit", "3")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["started", "game", "game"]
    assert "won_last_trick: 1 (first at seq " in out
    replay = [x.strip() for x in lines if x.strip().startswith("liujia replay ")]
    assert len(replay) == 3 and all(" --step " in x and " --seat " in x for x in replay)
    assert lines[-1].startswith("… the latest 3 shown")


def test_dates_and_nothing_found(toy_db, capsys):
    db, _ = toy_db
    code, out, _ = _find(capsys, db, "--fact", "held_ace", "--until", "1999-01-01")
    assert code == 1 and out == ""
    code, out, err = _find(capsys, db, "--fact", "held_ace", "--since", "1999-01-01",
                           "--limit", "1")
    assert code == 0 and err == ""


@pytest.mark.parametrize(("args", "message"), [
    (("--fact", "no_such_fact"), "'no_such_fact' is not a fact of any game"),
    (("--fact", "held_ace>>2"), "fact condition 'held_ace>>2' is not NAME or NAME>=N"),
    (("--fact", "held_ace", "--game", "keng"), "'held_ace' is not a keng fact"),
])
def test_bad_conditions_are_usage_errors(toy_db, capsys, args, message):
    db, _ = toy_db
    code, out, err = _find(capsys, db, *args)
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1


def test_list_facts(capsys, toy_game):
    assert main(["find", "--list-facts", "--game", TOY]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "小墩 (toy_tricks): 6 facts"
    assert any(x.split()[0] == "held_ace" and "TRICK-" in x for x in out[1:])


def _sessions_from_logs(games: list) -> tuple[dict, dict]:
    """From the logs alone: each game's session and start (its GAME_START)."""
    session, start = {}, {}
    for events in games:
        session[events[0].game_id] = json.loads(events[0].payload)["session"]
        start[events[0].game_id] = events[0].ts
    return session, start


def test_per_session_sums_a_players_facts_over_the_session(toy_db, capsys):
    db, games = toy_db
    session, start = _sessions_from_logs(games)
    assert len(set(session.values())) >= 3            # the corpus has several sessions
    totals: dict = {}
    firsts: dict = {}
    for r in facts_table(games).to_pylist():
        if r["fact"] != "held_ace":
            continue
        key = (session[r["game_id"]], r["player_id"])
        totals[key] = totals.get(key, 0) + r["count"]
        firsts[key] = min(firsts.get(key, (9e18,)),
                          (start[r["game_id"]], r["game_id"], r["first_seq"], r["seat"]))
    want = {k for k, n in totals.items() if n >= 4}
    assert want and want != set(totals)               # the condition keeps some, not all
    code, out, err = _find(capsys, db, "--fact", "held_ace>=4", "--per-session", "--json",
                           "--limit", "10000")
    rows = _json(out)
    assert code == 0 and err == ""
    assert {(r["session"], r["player_id"]) for r in rows} == want
    for r in rows:
        key = (r["session"], r["player_id"])
        (f,) = r["facts"]
        assert f["count"] == totals[key]
        _, gid, seq, seat = firsts[key]
        assert (f["first"]["game_id"], f["first"]["seq"], f["first"]["seat"]) == (gid, seq, seat)
        assert r["games"] == sum(1 for g in games if session[g[0].game_id] == r["session"]
                                 and r["player_id"] in json.loads(g[0].payload)["players"])
    code, out, _ = _find(capsys, db, "--fact", "held_ace>=4", "--per-session", "--limit", "2")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["started", "game", "session"]
    assert "held_ace>=4: " in out and "(first in " in out
    assert sum(x.strip().startswith("liujia replay ") for x in lines) == 2


def test_per_session_refuses_a_result(toy_db, capsys):
    db, _ = toy_db
    code, out, err = _find(capsys, db, "--fact", "held_ace", "--per-session", "--result", "win")
    assert code == 2 and out == "" and "a session has no result" in err
