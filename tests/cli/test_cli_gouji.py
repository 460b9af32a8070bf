"""The command line for 够级 (``--game gouji``), end to end through ``liujia.cli.main``: the same
commands as for 六人坑 (tests/cli/test_cli.py), with 够级's sessions, options and annotations."""

from __future__ import annotations

import json
import re

import pytest

from engine.cards import format_face
from engine.events import Event, event_to_json
from engine.games import find_game
from engine.games.gouji.cards import STRENGTH, TWO_S
from engine.log import read_log, write_log
from engine.replay import Replay, validate_events
from liujia.cli import main
from tests.gouji_logs import tampered, wrong_starter_game

GAMES, SEED = 6, 4
ARGS = ["simulate", "--game", "gouji", "--games", str(GAMES), "--seed", str(SEED),
        "--per-file", "3", "--session-games", "4", "--quiet"]


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    out = tmp_path_factory.mktemp("gouji")
    assert main([*ARGS, "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def games(logs) -> list[list[Event]]:
    return [g.events for f in sorted(logs.glob("*.arrows")) for g in read_log(f).games]


def _start(events):
    return json.loads(events[0].payload)


def _end(events):
    return json.loads(events[-1].payload)


def test_simulate_writes_sessions_deterministically(logs, games, tmp_path, capsys):
    files = sorted(logs.glob("*.arrows"))
    assert [f.name for f in files] == ["gouji-seed4-0000.arrows", "gouji-seed4-0001.arrows"]
    assert [e[0].game_id for e in games] == [f"gouji-{SEED}-{i:06d}" for i in range(GAMES)]
    again = tmp_path / "again"
    assert main([*ARGS, "--out", str(again)]) == 0
    assert "wrote 6 games" in capsys.readouterr().out
    for f in files:
        assert (again / f.name).read_bytes() == f.read_bytes()


def test_game_start_links_the_games_of_a_session(games):
    sessions = [games[:4], games[4:]]
    for session in sessions:
        first = _start(session[0])
        assert first["game"] == "gouji" and first["game_no"] == 1
        assert first["previous_game"] is None
        assert not {"direction", "starter", "huiwu_team"} & set(first)
        direction = next(e.value for e in session[0] if e.kind == "DIRECTION")
        for prev, game in zip(session, session[1:], strict=False):
            p, end = _start(game), _end(prev)
            assert p["session"] == first["session"] and p["players"] == first["players"]
            assert p["previous_game"] == prev[0].game_id
            assert p["game_no"] == _start(prev)["game_no"] + 1 == game[0].value
            assert p["direction"] == direction                          # GJ-5
            assert p["starter"] == end["next_starter"] == prev[-1].value  # GJ-9: the 拉客
            assert p["starter"] == game[0].target
            assert p["huiwu_team"] == end["next_huiwu_team"]            # GJ-35
            assert game[0].tag == (p["huiwu_team"] or "")
    assert _start(games[4])["session"] != _start(games[3])["session"]


def test_simulate_options_are_recorded_and_checked(tmp_path, capsys):
    out = tmp_path / "opts"
    assert main(["simulate", "--game", "gouji", "--games", "3", "--seed", "2", "--out", str(out),
                 "--quiet", "--option", "kaidian_effect=record", "--policy", "greedy"]) == 0
    [f] = sorted(out.glob("*.arrows"))
    starts = [g.events[0] for g in read_log(f).games]
    assert len(starts) == 3
    for e in starts:                         # every game of the session, defaults written out
        assert json.loads(e.payload)["options"] == {
            "kaidian_effect": "record", "men_scope": "single_three",
            "judged_counts_as_out": True}
    assert main(["validate", str(out)]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad"
    assert main(["simulate", "--game", "gouji", "--out", str(bad), "--option",
                 "kaidian_effect=always"]) == 2
    err = capsys.readouterr().err
    assert "GJ-48" in err and "kaidian_effect" in err and not bad.exists()
    assert main(["simulate", "--game", "gouji", "--out", str(bad), "--option",
                 "keng_hand_limit=30"]) == 2
    assert "kaidian_effect" in capsys.readouterr().err       # names the game's options


def test_validate_ok(logs, capsys):
    assert main(["validate", str(logs)]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok ") == GAMES and f"{GAMES} ok" in out
    assert main(["validate", "--json", str(logs)]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert all(r["status"] == "ok" and r["result"]["points"] for r in rows)


def test_validate_reports_an_illegal_game(games, tmp_path, capsys):
    bad = tampered(games[1])
    write_log(tmp_path / "t.arrows", [games[0], bad, games[2]])
    assert main(["validate", str(tmp_path / "t.arrows")]) == 1
    out = capsys.readouterr().out
    err = validate_events(bad).error
    assert err.rule_id.startswith("GJ-")
    line = next(x for x in out.splitlines() if bad[0].game_id in x)
    assert re.search(rf"illegal +{bad[0].game_id} +seq {err.seq} seat {err.seat} +"
                     rf"{err.rule_id}: ", line), line
    assert out.count(": ok ") == 2 and "1 illegal" in out


def test_validate_checks_the_session_rule(games, tmp_path, capsys):
    wrong = wrong_starter_game(games[0])
    write_log(tmp_path / "s.arrows", [games[0], wrong])
    assert main(["validate", "--json", str(tmp_path / "s.arrows")]) == 1
    rows = {r["game_id"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    row = rows["gouji-wrong-starter"]
    assert (row["status"], row["rule_id"], row["seq"]) == ("illegal", "GJ-9", 0)
    assert "starter" in row["reason"] and rows[games[0][0].game_id]["status"] == "ok"
    write_log(tmp_path / "alone.arrows", [wrong])     # without the previous game: not judged
    assert main(["validate", str(tmp_path / "alone.arrows")]) == 0
    capsys.readouterr()


def test_replay_renders_the_auditor_and_a_seat(logs, games, capsys):
    gid = games[1][0].game_id
    step = 120
    assert main(["replay", str(logs), "--game", gid, "--step", str(step)]) == 0
    auditor = capsys.readouterr().out
    assert auditor.startswith(f"够级 {gid}") and f"event {step}/" in auditor
    assert "view: auditor" in auditor and "hidden" not in auditor
    hands = Replay(games[1]).state_at(step).hands
    assert main(["replay", str(logs), "--game", gid, "--step", str(step), "--seat", "2"]) == 0
    seat2 = capsys.readouterr().out
    rows = [x for x in seat2.splitlines() if re.match(r"^ . seat \d ", x)]
    assert len(rows) == 6
    for i, row in enumerate(rows):
        if i == 2:
            assert f" {len(hands[2]):2d}: " in row and "hidden" not in row
        else:                                  # no cards and no hand count (GJ-47)
            assert " hidden" in row and re.search(r"\d+: ", row) is None, row
    assert main(["replay", str(logs), "--game", gid, "--step", "99999"]) == 2
    assert main(["replay", str(logs), "--game", "no-such-game"]) == 2


def test_a_seat_never_sees_the_deal(logs, games, capsys):
    gid = games[0][0].game_id
    deal = next(e for e in games[0] if e.kind == "DEAL")
    assert len(deal.cards) == 196
    assert main(["replay", str(logs), "--game", gid, "--step", str(deal.seq), "--seat",
                 "0"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.endswith(f"DEAL value {deal.value} {deal.tag} (196 cards hidden)"), line
    assert main(["replay", str(logs), "--game", gid, "--step", str(deal.seq)]) == 0
    assert len(capsys.readouterr().out.splitlines()[-1].split()) > 196   # the auditor does


def _check_spot(events: list[Event]) -> tuple[int, object, int]:
    """A step where the seat to act answers a single natural card and holds a natural card
    (no 3) that does not beat it: (step, state, that card)."""
    rep = Replay(events)
    for step in range(len(events)):
        s = rep.state_at(step)
        if s.stage != "play" or s.owed or s.top_seat < 0 or s.top_huiwu or len(s.top) != 1 \
                or s.burner >= 0 or s.rang_seat >= 0 or s.xd_pending >= 0:
            continue
        top = STRENGTH[s.top[0]]
        low = [c for c in s.hands[s.to_act] if 4 <= STRENGTH[c] <= top]
        if top < TWO_S and low:
            return step, s, low[0]
    raise AssertionError("no such step")


def test_position_then_check_without_annotation(logs, games, tmp_path, capsys):
    g = find_game("gouji")
    gid = games[2][0].game_id
    step, state, low = _check_spot(games[2])
    assert main(["position", str(logs), "--game", gid, "--step", str(step)]) == 0
    pos = json.loads(capsys.readouterr().out)
    assert (pos["format"], pos["game"], pos["game_id"], pos["seq"]) == (
        "liujia.gouji.position/1", "gouji", gid, step + 1)
    assert g.from_position(pos) == state
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos, ensure_ascii=False), encoding="utf-8")
    seat = state.to_act
    plays = [a for a in g.legal_actions(state) if a.kind == "PLAY"]
    assert plays
    act = {k: v for k, v in event_to_json(plays[0]).items() if k in ("kind", "seat", "cards")}
    assert main(["check", "--position", str(f), "--action", json.dumps(act)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("legal\n")
    new = json.loads(out.split("\n", 1)[1])
    assert new["seq"] == step + 2 and new["played"][-len(act["cards"]):] == act["cards"]
    assert len(new["hands"][seat]) == len(pos["hands"][seat]) - len(act["cards"])
    bad = {"kind": "PLAY", "seat": seat, "cards": [format_face(low)]}
    assert main(["check", "--position", str(f), "--action", json.dumps(bad)]) == 1
    assert capsys.readouterr().out.startswith("illegal GJ-14: ")
    wrong_seat = {"kind": "PASS", "seat": (seat + 1) % 6}
    assert main(["check", "--position", str(f), "--action", json.dumps(wrong_seat)]) == 1
    assert capsys.readouterr().out.startswith("illegal GJ-")
    assert main(["check", "--position", str(f), "--action", "{not json"]) == 2


def test_rules(capsys):
    assert main(["rules", "GJ-14"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("**GJ-14 (Beating, 管).**") and "**GJ-15" not in out
    for argv in (["rules"], ["rules", "--list"]):
        assert main(argv) == 0
        ids = capsys.readouterr().out.split()
        assert {"KENG-1", "KENG-51", "GJ-1", "GJ-14", "GJ-49"} <= set(ids)


def test_ingest_then_export_parquet(logs, tmp_path, capsys):
    import polars as pl
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(logs), "--db", str(db), "--quiet"]) == 0
    assert f"{GAMES} game(s) read = {GAMES} loaded" in capsys.readouterr().out
    out = tmp_path / "parquet"
    assert main(["export", "--db", str(db), "--out", str(out)]) == 0
    assert (out / "events" / "game=gouji" / "month=2026-01").is_dir()
    games = pl.scan_parquet(out / "games" / "**" / "*.parquet", hive_partitioning=True).collect()
    assert games.height == GAMES and set(games["game"]) == {"gouji"}


def test_replay_names_a_backwards_cut_gj6(tmp_path, capsys):
    """A cut counted backwards (value -1, which Event.describe drops as "none") says so."""
    from engine.log import write_log
    from engine.sim import simulate
    events = next(iter(simulate("gouji", 1, seed=1))).events
    cut = next(e for e in events if e.kind == "CUT")
    assert cut.value == -1
    write_log(tmp_path / "g.arrows", [events])
    assert main(["replay", str(tmp_path / "g.arrows"), "--game", events[0].game_id,
                 "--step", str(cut.seq), "--seat", "0"]) == 0
    assert "counted backwards (value -1)" in capsys.readouterr().out.splitlines()[-1]
