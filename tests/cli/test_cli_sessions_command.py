"""``liujia sessions``: the list as text and as JSON lines (against totals computed from the
logs alone, tests/sessions_corpus.py), one session's games with running totals, exit codes
(0 found, 1 nothing found, 2 usage), bad input in one line, a hostile player id escaped.

(tests/cli/test_cli_sessions.py is about ``validate`` and the session rule; this file is the
``sessions`` command.)"""

from __future__ import annotations

import json

import pytest

from liujia.cli import main
from tests.sessions_corpus import LOOSE, build, expected

EVIL = "![x](http://127.0.0.1:9/a.png)\x1b[2J\u202e"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli-sessions")
    return str(build(root)), expected(root / "logs")


@pytest.fixture(scope="module")
def evil_db(tmp_path_factory):
    return str(build(tmp_path_factory.mktemp("cli-sessions-evil"), evil=EVIL))


def _run(capsys, *argv):
    try:
        code = main(["sessions", *argv])
    except SystemExit as exc:                  # argparse's usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def _newest_first(want):
    return sorted(want["sessions"], key=lambda s: want["sessions"][s]["games"][0]["ts"],
                  reverse=True)


def test_the_list_as_json_lines(corpus, capsys):
    db, want = corpus
    code, out, err = _run(capsys, "--json", "--db", db)
    assert code == 0 and err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["session"] for r in rows] == _newest_first(want)
    for r in rows:
        w = want["sessions"][r["session"]]
        assert {p["player_id"]: p["total"] for p in r["players"]} == w["totals"]
        assert r["winners"] == w["winners"] and r["level"] is w["level"]
        assert r["games"] == 4 and r["started"].startswith("2026-01-01T")


def test_the_list_as_text(corpus, capsys):
    db, want = corpus
    code, out, _ = _run(capsys, "--db", db)
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["session", "game", "started"]
    body = lines[1:4]
    assert [line.split()[0] for line in body] == _newest_first(want)
    for line in body:
        w = want["sessions"][line.split()[0]]
        if w["level"]:
            assert f"nobody (all level, {w['top']:+d})" in line
        else:
            assert f"{', '.join(w['winners'])} ({w['top']:+d})" in line
        for p, t in w["totals"].items():
            assert f"{p} {t:+d}" in line
    assert lines[4] == f"({LOOSE} game(s) without a session id are not listed)"


def test_filters_and_limit(corpus, capsys):
    db, want = corpus
    order = _newest_first(want)
    code, out, _ = _run(capsys, "--limit", "1", "--db", db)
    assert code == 0 and out.splitlines()[1].split()[0] == order[0]
    assert "the newest 1 sessions shown; more match" in out
    code, out, err = _run(capsys, "--limit", "2", "--json", "--db", db)
    assert len(out.splitlines()) == 2 and "note: more sessions match than --limit 2" in err
    player = next(iter(want["sessions"][order[-1]]["totals"]))
    code, out, _ = _run(capsys, "--player", player, "--json", "--db", db)
    mine = [s for s in order if player in want["sessions"][s]["totals"]]
    assert code == 0 and [json.loads(x)["session"] for x in out.splitlines()] == mine
    code, out, _ = _run(capsys, "--since", "2026-01-01T07:30", "--game", "keng", "--json",
                        "--db", db)
    assert [json.loads(x)["session"] for x in out.splitlines()] == order[:1]


def test_one_session(corpus, capsys):
    db, want = corpus
    sid = next(s for s, v in want["sessions"].items() if v["winners"])
    w = want["sessions"][sid]
    code, out, _ = _run(capsys, sid, "--json", "--db", db)
    (obj,) = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and obj["session"] == sid and obj["winners"] == w["winners"]
    running: dict[str, int] = {}
    for row, g in zip(obj["game_rows"], w["games"], strict=True):
        assert row["game_id"] == g["game_id"]
        for seat, p, s in zip(row["seats"], g["players"], g["scores"], strict=True):
            running[p] = running.get(p, 0) + s
            assert (seat["player_id"], seat["score"], seat["total"]) == (p, s, running[p])
    code, out, _ = _run(capsys, sid, "--db", db)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"session {sid} · keng · 4 game(s)")
    assert lines[1].startswith(f"won by {', '.join(w['winners'])} ({w['top']:+d})")
    assert lines[2].split()[:4] == ["#", "started", "game", "id"]
    assert [line.split()[3] for line in lines[3:7]] == [g["game_id"] for g in w["games"]]
    total = lines[7].split()
    assert total[0] == "total" and total[1:] == [f"{w['totals'][p]:+d}"
                                                 for p in w["games"][0]["players"]]


@pytest.mark.parametrize("argv, code, words", [
    (["no-such-session"], 1, "no session no-such-session in the warehouse"),
    (["--player", "nobody"], 1, "no session (of player nobody) in the warehouse"),
    (["--game", "gouji"], 1, "no session (of gouji) in the warehouse"),
    (["--since", "2026-01-01T19:00"], 1, "2 game(s) without a session id match"),
    (["--since", "2026-02-01", "--until", "2026-01-01"], 2, "the range is empty"),
    (["--since", "yesterday"], 2, "not a date or ISO date-time: 'yesterday'"),
    (["--limit", "-1"], 2, "--limit"),
    (["--game", "chess"], 2, "invalid choice: 'chess'"),
    (["keng-s3-00000", "--player", "player-04"], 2, "filters of the list"),
])
def test_exit_codes_and_one_line_errors(corpus, capsys, argv, code, words):
    db, _ = corpus
    got, out, err = _run(capsys, *argv, "--db", db)
    assert got == code and out == ""
    assert len(err.splitlines()) == 1 and words in err and "Traceback" not in err


def test_a_missing_warehouse(tmp_path, capsys):
    got, out, err = _run(capsys, "--db", str(tmp_path / "none.duckdb"))
    assert got == 2 and out == "" and len(err.splitlines()) == 1 and "no warehouse" in err


def test_a_hostile_player_id_is_escaped(evil_db, capsys):
    for argv in ([], ["--json"], ["keng-s3-00000"], ["keng-s3-00000", "--json"],
                 ["--player", EVIL]):
        code, out, _ = _run(capsys, *argv, "--db", evil_db)
        assert code == 0, argv
        assert "\x1b" not in out and "\u202e" not in out, argv
        if "--json" in argv:
            assert "\\u001b[2J" in out and "\\u202e" in out, argv
            rows = [json.loads(line) for line in out.splitlines()]
            assert any(p["player_id"] == EVIL for r in rows for p in r["players"])
        else:
            assert "\\x1b[2J" in out and "\\u202e" in out, argv
    code, _, err = _run(capsys, "no-such-" + EVIL, "--db", evil_db)
    assert code == 1 and "\x1b" not in err and "\\x1b" in err
