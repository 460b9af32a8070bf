"""The eighth game end to end: 小墩 (toy_tricks), registered by the tests only, goes through
``liujia simulate``, ``validate``, ``ingest`` (worker processes forked and spawned: a spawned
worker learns the game from ``LIUJIA_GAMES``), the warehouse's decisions and tendencies, the
dashboard's replay page (generic table) and ``liujia replay``; ``liujia`` started as a
subprocess knows it through ``LIUJIA_GAMES`` too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from engine.events import seal_events
from engine.games import PLUGIN_ENV
from engine.log import read_log, write_log
from engine.replay import Replay
from liujia.cli import main

GAME = "toy_tricks"
APP = str(Path(__file__).resolve().parents[3] / "dashboards" / "app.py")


def _logs(folder: Path) -> list:
    return [g.events for f in sorted(folder.glob("*.arrows")) for g in read_log(f).games]


@pytest.fixture(scope="module")
def toy_logs(tmp_path_factory, toy_game) -> Path:
    """Three folders of simulated 小墩 games, 2, 3 and 4 seats, written by ``liujia
    simulate`` in this process."""
    root = tmp_path_factory.mktemp("toy")
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        out = root / f"p{n}"
        assert main(["simulate", "--game", toy_game, "--games", "12", "--seed", str(seed),
                     "--out", str(out), "--option", f"trick_players={n}",
                     "--session-games", "4", "--per-file", "6", "--quiet"]) == 0
    return root


@pytest.fixture(scope="module")
def toy_db(toy_logs, tmp_path_factory) -> Path:
    """A warehouse of the 36 games, ingested with two forked worker processes."""
    db = tmp_path_factory.mktemp("toydb") / "toy.duckdb"
    assert main(["ingest", str(toy_logs), "--db", str(db), "-j", "2", "-q"]) == 0
    return db


def test_simulate_writes_every_seat_count(toy_logs):
    for n in (2, 3, 4):
        games = _logs(toy_logs / f"p{n}")
        assert len(games) == 12
        assert {len(json.loads(g[0].payload)["players"]) for g in games} == {n}
        assert all(g[-1].kind == "GAME_END" for g in games)


@pytest.mark.parametrize("lead, rule", [(False, "TRICK-6"), (True, "TRICK-10")])
def test_validate_accepts_them_and_names_the_rule_broken(toy_logs, tmp_path, capsys, lead, rule):
    assert main(["validate", str(toy_logs), "--quiet"]) == 0
    events = _logs(toy_logs / "p4")[0]
    rp = Replay(events)
    # a play to a trick under way (TRICK-6) or the lead of a later trick (TRICK-10)
    i = next(i for i, e in enumerate(events) if e.kind == "PLAY" and i > 8
             and (not rp.state_at(i - 1).trick) == lead)
    bad = events[i]._replace(seat=(events[i].seat + 1) % 4)
    write_log(tmp_path / "bad.arrows", [seal_events([*events[:i], bad, *events[i + 1:]])])
    capsys.readouterr()
    assert main(["validate", str(tmp_path / "bad.arrows"), "--json"]) == 1
    (row,) = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert (row["status"], row["rule_id"], row["seq"]) == ("illegal", rule, i)


def test_ingest_loads_every_game_with_decisions(toy_db):
    con = duckdb.connect(str(toy_db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM games WHERE game = ?", [GAME]).fetchone() \
            == (36,)
        assert con.execute("SELECT count(*) FROM quarantine").fetchone() == (0,)
        seats = dict(con.execute("SELECT seats, count(*) FROM games GROUP BY ALL").fetchall())
        assert seats == {2: 12, 3: 12, 4: 12}
        chosen = {r[0] for r in con.execute(
            "SELECT DISTINCT chosen FROM decisions WHERE game = ?", [GAME]).fetchall()}
        assert chosen == {"lead_high", "lead_low", "take", "duck", "shed_high", "shed_low"}
    finally:
        con.close()


def test_ingest_with_spawned_workers(toy_logs, tmp_path, monkeypatch):
    """Spawned workers import nothing of the test session: the game reaches them through
    LIUJIA_GAMES (set by tests/conftest.py for every process the tests start)."""
    import ingest.run

    assert f"{GAME}=tests.toygame" in os.environ[PLUGIN_ENV]
    monkeypatch.setattr(ingest.run, "can_fork", lambda: False)
    db = tmp_path / "spawned.duckdb"
    assert main(["ingest", str(toy_logs / "p3"), "--db", str(db), "-j", "2", "-q"]) == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (12,)
    finally:
        con.close()


def test_tendencies_of_the_ingested_games(toy_db, capsys):
    from warehouse.tendencies import player_tendencies

    con = duckdb.connect(str(toy_db), read_only=True)
    try:
        player = con.execute("SELECT player_id FROM seats GROUP BY ALL ORDER BY count(*) DESC, "
                             "player_id LIMIT 1").fetchone()[0]
        rows = player_tendencies(con, player, GAME, min_opportunities=1).to_pylist()
    finally:
        con.close()
    names = {r["tendency"]: r for r in rows}
    assert {"toy_tricks.takes", "toy_tricks.wins"} <= set(names)
    assert all(0 <= r["k"] <= r["n"] for r in rows) and names["toy_tricks.takes"]["n"] > 0
    capsys.readouterr()
    assert main(["stats", "--player", player, "--game", GAME, "--db", str(toy_db),
                 "--json"]) == 0
    assert "toy_tricks.takes" in capsys.readouterr().out


def test_replay_command_renders_the_table(toy_logs, capsys):
    events = _logs(toy_logs / "p3")[0]
    gid = events[0].game_id
    capsys.readouterr()
    assert main(["replay", "--game", gid, "--step", "6", "--seat", "1",
                 str(toy_logs / "p3")]) == 0
    out = capsys.readouterr().out
    assert "小墩" in out and "view: seat 1" in out and "cards (hidden)" in out
    assert main(["replay", "--game", gid, str(toy_logs / "p3")]) == 0
    assert "result: scores" in capsys.readouterr().out


def test_replay_page_draws_the_table_its_package_declares(toy_db, toy_logs, monkeypatch):
    from dashboards.table import model_html, table_html
    from engine.games import find_game

    g = find_game(GAME)          # the table and words come from the game's package only
    assert g.table.__module__ == g.describe.__module__ == "tests.toygame.table"
    rp = Replay(_logs(toy_logs / "p4")[1])
    view = g.view(rp.state_at(9), 2)
    assert table_html(GAME, view, rp.final.players) == model_html(g.table(view,
                                                                          rp.final.players))
    monkeypatch.setenv("LIUJIA_DB", str(toy_db))
    gid = _logs(toy_logs / "p4")[1][0].game_id
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(game=gid, step="9", view="2")
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception, [e.value for e in at.exception]
    (table,) = [h.proto.body for h in at.html if "lj-table" in h.proto.body]
    assert 'data-seats="4"' in table and table.count('class="lj-back"') == 3
    (listed,) = [h.proto.body for h in at.html if "lj-events" in h.proto.body]
    assert 'data-seq="9"' in listed and 'data-seq="10"' not in listed
    assert at.selectbox(key="rp_type").options == ["all games", "小墩 (toy_tricks)"]


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "liujia.cli", *args], env=env,
                          capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[3])


def test_a_liujia_subprocess_knows_the_game_through_liujia_games(tmp_path):
    env = dict(os.environ)
    done = _cli(env, "simulate", "--game", GAME, "--games", "2", "--seed", "1", "--out",
                str(tmp_path / "a"), "--quiet")
    assert done.returncode == 0, done.stderr
    assert len(_logs(tmp_path / "a")) == 2
    env.pop(PLUGIN_ENV)
    done = _cli(env, "simulate", "--game", GAME, "--out", str(tmp_path / "b"))
    assert done.returncode == 2 and "invalid choice" in done.stderr
    env[PLUGIN_ENV] = f"{GAME}=tests.no_such_module"
    done = _cli(env, "validate", str(tmp_path / "a"))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "toy_tricks" in done.stderr and "cannot be loaded" in done.stderr
