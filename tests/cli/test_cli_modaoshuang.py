"""摸到爽 (``--game modaoshuang``, 3–5 players) through every layer: simulate, validate, replay,
position, check, rules, ingest (a ``seats`` row per seat, no side, the winner's place) — the
proof that the shared layers take their table from the game."""

from __future__ import annotations

import json

import duckdb
import pytest

from engine.events import event_to_json
from engine.games import find_game
from engine.log import read_log
from engine.replay import validate_events
from liujia.cli import main

PLAYERS = (3, 4, 5)


def _sim(out, n, games=4):
    return main(["simulate", "--game", "modaoshuang", "--option", f"mds_players={n}",
                 "--games", str(games), "--seed", str(40 + n), "--session-games", "2",
                 "--out", str(out), "--quiet"])


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    root = tmp_path_factory.mktemp("mds")
    for n in PLAYERS:
        assert _sim(root / f"p{n}", n) == 0
    return root


def _games(folder):
    return [g.events for f in sorted(folder.glob("*.arrows")) for g in read_log(f).games]


@pytest.mark.parametrize("n", PLAYERS)
def test_simulate_seats_as_many_players_as_the_option_says(logs, n, tmp_path):
    games = _games(logs / f"p{n}")
    assert len(games) == 4
    for events in games:
        start = json.loads(events[0].payload)
        assert start["options"]["mds_players"] == n and len(start["players"]) == n
        assert validate_events(events).status == "ok"
    assert _sim(tmp_path / "again", n) == 0
    again = sorted((tmp_path / "again").glob("*.arrows"))
    assert [f.read_bytes() for f in again] == [
        f.read_bytes() for f in sorted((logs / f"p{n}").glob("*.arrows"))]


def test_simulate_without_the_player_count_is_a_clear_usage_error(tmp_path, capsys):
    code = main(["simulate", "--game", "modaoshuang", "--games", "1", "--out",
                 str(tmp_path), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "mds_players" in err and "Traceback" not in err
    assert main(["simulate", "--game", "modaoshuang", "--option", "mds_players=6",
                 "--games", "1", "--out", str(tmp_path), "--quiet"]) == 2
    assert "mds_players" in capsys.readouterr().err


def test_validate_reports_the_winner_of_each_game(logs, capsys):
    assert main(["validate", str(logs), "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    games = [r for r in rows if "game_id" in r and r.get("status") == "ok"]
    assert len(games) == 12
    for r in games:
        results = [o["result"] for o in r["outcomes"]]
        assert results.count("win") == 1 and r["winning_side"] is None
        assert r["outcomes"][results.index("win")]["place"] == 1
    assert main(["validate", str(logs)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum(": ok " in x and x.endswith(" won, deal as committed") for x in lines) == 12


@pytest.mark.parametrize("n", PLAYERS)
def test_replay_shows_the_table_and_refuses_a_seat_the_game_lacks(logs, n, capsys):
    events = _games(logs / f"p{n}")[0]
    gid = events[0].game_id
    assert main(["replay", str(logs / f"p{n}"), "--game", gid, "--step", "5",
                 "--seat", str(n - 1)]) == 0
    assert capsys.readouterr().out.strip()
    assert main(["replay", str(logs / f"p{n}"), "--game", gid, "--seat", str(n)]) == 2
    assert f"seats 0-{n - 1}" in capsys.readouterr().err


def test_position_then_check_for_four_players(logs, tmp_path, capsys):
    events = _games(logs / "p4")[1]
    gid = events[0].game_id
    step = len(events) // 2
    assert main(["position", str(logs / "p4"), "--game", gid, "--step", str(step)]) == 0
    pos = json.loads(capsys.readouterr().out)
    assert pos["game"] == "modaoshuang" and len(pos["players"]) == 4
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos))
    g = find_game("modaoshuang")
    s = g.from_position(pos)
    act = event_to_json(g.legal_actions(s)[0])
    assert main(["check", "--position", str(f), "--action", json.dumps(act)]) == 0
    assert capsys.readouterr().out.startswith("legal\n")
    bad = {"kind": "PLAY", "seat": 3, "cards": ["RJ"], "game_id": gid}
    if g.to_move(s) == 3:
        bad["seat"] = 2
    assert main(["check", "--position", str(f), "--action", json.dumps(bad)]) == 1
    assert capsys.readouterr().out.startswith("illegal MDS-")


def test_rules_prints_an_mds_rule(capsys):
    assert main(["rules", "MDS-40"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("**MDS-40**") and "190" in out


def test_ingest_holds_three_four_and_five_seat_games(logs, tmp_path, capsys):
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(logs), "--db", str(db), "--quiet"]) == 0
    with duckdb.connect(str(db), read_only=True) as con:
        games = con.sql("SELECT game_id, seats, winning_side, winners, result FROM games "
                        "ORDER BY game_id").fetchall()
        seats = con.sql("SELECT game_id, seat, side, place, result, score FROM seats "
                        "ORDER BY game_id, seat").fetchall()
    assert sorted({n for _, n, *_ in games}) == [3, 4, 5] and len(games) == 12
    by_game: dict[str, list] = {}
    for row in seats:
        by_game.setdefault(row[0], []).append(row)
    for gid, n, side, winners, result in games:
        rows = by_game[gid]
        assert len(rows) == n and side is None and len(winners) == 1
        assert all(r[2] is None for r in rows)
        scores = json.loads(result)["scores"]
        assert [r[5] for r in rows] == scores
        assert [r[4] for r in rows] == ["win" if r[1] == winners[0] else "loss" for r in rows]
        assert rows[winners[0]][3] == 1


def test_replay_as_a_seat_hides_whether_another_drawer_held_the_suit(logs, capsys):
    """MDS-41: a turn DRAW records (for auditors) whether the drawer held the round suit; the
    other seats see only that a card was drawn, never its face nor that flag."""
    for events in _games(logs / "p3"):
        draws = [e for e in events if e.kind == "DRAW" and e.tag == "turn" and e.value >= 0]
        if draws:
            break
    e = draws[0]
    other = (e.seat + 1) % 3
    folder, gid = str(logs / "p3"), e.game_id
    assert main(["replay", folder, "--game", gid, "--step", str(e.seq), "--seat",
                 str(other)]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.endswith("DRAW turn (1 card hidden)") and "value" not in line, line
    assert main(["replay", folder, "--game", gid, "--step", str(e.seq), "--seat",
                 str(e.seat)]) == 0
    assert f"value {e.value}" in capsys.readouterr().out.splitlines()[-1]
    assert main(["replay", folder, "--game", gid, "--step", str(e.seq)]) == 0
    assert f"value {e.value}" in capsys.readouterr().out.splitlines()[-1]


def test_other_options_give_other_game_ids_and_files(tmp_path, capsys):
    """The same seed with 3 and with 5 players: distinct files and game ids, so both load into
    one warehouse (no id conflict)."""
    out = tmp_path / "logs"
    for n in (3, 5):
        assert main(["simulate", "--game", "modaoshuang", "--option", f"mds_players={n}",
                     "--games", "2", "--seed", "7", "--out", str(out), "--quiet"]) == 0
    files = sorted(out.glob("*.arrows"))
    assert len(files) == 2
    ids = {g.game_id for f in files for g in read_log(f).games}
    assert len(ids) == 4
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(out), "--db", str(db), "--quiet"]) == 0
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall() == [(4,)]


def test_option_mistakes_are_named(tmp_path, capsys):
    base = ["simulate", "--game", "modaoshuang", "--games", "1", "--out", str(tmp_path),
            "--quiet", "--option", "mds_players=4"]
    assert main([*base, "--option", "mds_players=5"]) == 2
    assert "given twice" in capsys.readouterr().err
    assert main([*base, "--option", "nonsense=1"]) == 2
    err = capsys.readouterr().err
    assert "has no option 'nonsense'" in err and "mds_zhamo" in err
    assert main([*base, "--option", "mds_zhamo"]) == 2
    assert "expected NAME=VALUE" in capsys.readouterr().err


def test_an_illegal_game_replays_up_to_the_bad_event(logs, tmp_path, capsys):
    """replay and position show the moments before an illegal event (exit 1, with a note
    naming the rule); a step after it is refused with the reason."""
    from engine.events import seal_events
    from engine.log import write_log
    events = _games(logs / "p4")[0]
    k = next(i for i, e in enumerate(events) if e.kind == "PLAY" and i > 10)
    bad = events[k]._replace(seat=(events[k].seat + 1) % 4)
    forged = seal_events([*events[:k], bad, *events[k + 1:]])
    write_log(tmp_path / "bad.arrows", [forged])
    gid = events[0].game_id
    assert main(["replay", str(tmp_path), "--game", gid, "--step", str(k - 1)]) == 1
    err = capsys.readouterr().err
    assert f"only seq 0-{k - 1} of this game replay" in err and "MDS-" in err
    assert main(["position", str(tmp_path), "--game", gid, "--step", str(k - 2)]) == 1
    assert json.loads(capsys.readouterr().out)["seq"] == k - 1
    assert main(["replay", str(tmp_path), "--game", gid, "--step", str(k + 3)]) == 2
    assert f"can be replayed only up to seq {k - 1}" in capsys.readouterr().err


def test_salvage_into_a_file_is_a_usage_error(logs, tmp_path, capsys):
    data = next((logs / "p3").glob("*.arrows")).read_bytes()
    (tmp_path / "cut.arrows").write_bytes(data[:len(data) // 2])
    (tmp_path / "afile").write_text("x")
    code = main(["validate", str(tmp_path / "cut.arrows"), "--salvage", str(tmp_path / "afile")])
    err = capsys.readouterr().err
    assert code == 2 and "not a folder" in err and "Traceback" not in err
