"""``liujia stats``: a player's tendencies from the warehouse, as text and JSON, equal to the
catalog's query, also under a scope (--since, --until, --seat, --before: the scoped query,
named in the header); a player without games (in the scope) exits 1, a bad warehouse or a bad
scope value 2."""

from __future__ import annotations

import json
from datetime import date, datetime

import duckdb
import pytest

from engine.log import write_log
from engine.sim import simulate
from engine.table import shown_width
from ingest import ingest_paths
from liujia.cli import main
from warehouse.db import SAFE_CONFIG
from warehouse.tendencies import Scope, labels, player_tendencies


@pytest.fixture(scope="module")
def stats_db(tmp_path_factory):
    root = tmp_path_factory.mktemp("stats")
    write_log(root / "keng.arrows", [g.events for g in simulate("keng", 30, seed=5)])
    write_log(root / "gouji.arrows", [g.events for g in simulate("gouji", 6, seed=5)])
    db = root / "w.duckdb"
    assert ingest_paths([root], db=db, progress=False, workers=1).clean
    return db


def _busiest(db, game: str) -> str:
    with duckdb.connect(str(db), read_only=True, config=dict(SAFE_CONFIG)) as con:
        return con.execute("SELECT player_id FROM seats JOIN games USING (game_id) WHERE game = "
                           "? GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1", [game]
                           ).fetchall()[0][0]


def test_json_is_the_catalog_query(stats_db, capsys):
    player = _busiest(stats_db, "keng")
    assert main(["stats", "--player", player, "--db", str(stats_db), "--json"]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    with duckdb.connect(str(stats_db), read_only=True, config=dict(SAFE_CONFIG)) as con:
        want = player_tendencies(con, player).to_pylist()
    named = labels()
    assert [r.pop("label") for r in got] == [named[r["tendency"]] for r in want]  # the id's
    assert got == json.loads(json.dumps(want)) and len(got) >= 8
    assert {r["game"] for r in got} == {"keng"}
    assert all(0 <= r["k"] <= r["n"] and r["low"] <= r["rate"] <= r["high"] for r in got)


def test_text_has_one_line_per_tendency_with_its_sample(stats_db, capsys):
    player = _busiest(stats_db, "gouji")
    assert main(["stats", "--player", player, "--game", "gouji", "--db", str(stats_db)]) == 0
    out = capsys.readouterr().out.splitlines()
    with duckdb.connect(str(stats_db), read_only=True, config=dict(SAFE_CONFIG)) as con:
        want = player_tendencies(con, player, "gouji").to_pylist()
    assert out[0].startswith(f"player {player}: 6 game(s)")
    assert out[1].split()[:3] == ["tendency", "did", "/"] and len(out) == 2 + len(want)
    named = labels("gouji")
    for line, r in zip(out[2:], want, strict=True):    # named by the label, not the id
        assert line.startswith(named[r["tendency"]] + " ") and r["tendency"] not in line
        assert line[len(named[r["tendency"]]):].split()[:3] == [str(r["k"]), "/", str(r["n"])]
    # the columns line up on a terminal, where a Chinese character takes two columns
    ends = [shown_width(out[1][:out[1].index("did / could") + len("did / could")])]
    for line, r in zip(out[2:], want, strict=True):
        sample = f"{r['k']} / {r['n']}"
        ends.append(shown_width(line[:line.index(sample, len(named[r["tendency"]]))
                                     + len(sample)]))
    assert len(set(ends)) == 1, ends


def test_text_names_keng_tendencies_with_their_term(stats_db, capsys):
    player = _busiest(stats_db, "keng")
    assert main(["stats", "--player", player, "--game", "keng", "--db", str(stats_db)]) == 0
    out = capsys.readouterr().out
    assert "\nstacks a draw (叠加)  " in out and "keng.stacks" not in out


def test_unknown_player_and_bad_warehouse(stats_db, tmp_path, capsys):
    assert main(["stats", "--player", "nobody", "--db", str(stats_db)]) == 1
    assert "player nobody has no game in the warehouse" in capsys.readouterr().err
    assert main(["stats", "--player", "p", "--db", str(tmp_path / "none.duckdb")]) == 2
    assert "no warehouse at" in capsys.readouterr().err


def _json(capsys, *argv: str) -> list[dict]:
    assert main(["stats", *argv, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_scope_options_are_the_scoped_query(stats_db, capsys):
    """30 六人坑 games an hour apart from 1 January 2026 00:00 UTC: 24 that day, 6 the next."""
    with duckdb.connect(str(stats_db), read_only=True, config=dict(SAFE_CONFIG)) as con:
        (player,) = con.execute("SELECT s.player_id FROM seats s JOIN games g USING (game_id) "
                                "WHERE g.game = 'keng' GROUP BY 1 HAVING max(g.started) >= "
                                "'2026-01-02'::TIMESTAMPTZ ORDER BY count(*) DESC, 1 LIMIT 1"
                                ).fetchall()[0]
        games = con.execute("SELECT g.game_id, g.started, s.seat FROM seats s JOIN games g "
                            "USING (game_id) WHERE s.player_id = ? AND g.game = 'keng' "
                            "ORDER BY g.started, g.game_id", [player]).fetchall()
        seat = max({s for *_, s in games}, key=lambda k: sum(g[2] == k for g in games))
        middle = games[len(games) // 2][0]
        scopes = {("--seat", str(seat)): Scope(seat=seat),
                  ("--before", middle): Scope(before=middle),
                  ("--since", "2026-01-02"): Scope(since=date(2026, 1, 2)),
                  ("--until", "2026-01-01T12:00"): Scope(until=datetime(2026, 1, 1, 12))}
        want = {k: player_tendencies(con, player, "keng", scope=v).to_pylist()
                for k, v in scopes.items()}
        whole = player_tendencies(con, player, "keng").to_pylist()
    db = ["--db", str(stats_db), "--player", player, "--game", "keng"]
    for argv, rows in want.items():
        got = _json(capsys, *db, *argv)
        assert all(r.pop("label") for r in got)
        assert got == json.loads(json.dumps(rows)) and got != json.loads(json.dumps(whole))
    assert main(["stats", *db, "--seat", str(seat), "--before", middle]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    n = sum(g[2] == seat and g[0] < middle for g in games)      # ids sort like the starts
    assert head.startswith(f"player {player}: {n} game(s) (at seat {seat}, before game "
                           f"{middle}; everyone's figures in the same scope)")


def test_scope_without_games_and_bad_scope_values(stats_db, capsys):
    player = _busiest(stats_db, "keng")
    db = ["--db", str(stats_db), "--player", player]
    assert main(["stats", *db, "--since", "2027-01-01"]) == 1
    assert f"player {player} has no game in the warehouse in that scope" in \
        capsys.readouterr().err
    for bad in (["--since", "yesterday"], ["--until", "2026-13-01"], ["--seat", "-1"],
                ["--seat", "x"]):
        with pytest.raises(SystemExit) as exc:
            main(["stats", *db, *bad])
        assert exc.value.code == 2, bad
        err = capsys.readouterr().err
        assert "error: argument" in err and len(err.strip().splitlines()) == 1


def test_an_empty_range_and_an_unknown_game_are_usage_errors(stats_db, capsys):
    """--since after --until, and --before a game the warehouse does not hold, say so (exit
    2) instead of reading as a player without games (exit 1)."""
    player = _busiest(stats_db, "keng")
    db = ["--db", str(stats_db), "--player", player]
    assert main(["stats", *db, "--since", "2026-03-01", "--until", "2026-02-01"]) == 2
    err = capsys.readouterr().err
    assert "--since 2026-03-01 is after --until 2026-02-01" in err and "no game" not in err
    assert main(["stats", *db, "--before", "no-such-game"]) == 2
    assert "--before: no game 'no-such-game' in the warehouse" in capsys.readouterr().err
    assert main(["stats", *db, "--game", "keng", "--seat", "6"]) == 2   # keng has seats 0-5
    assert "--seat 6: the keng games in the warehouse have seats 0-5" in capsys.readouterr().err
    assert main(["stats", *db, "--game", "keng", "--seat", "5"]) in (0, 1)


def test_usage_errors_are_one_line(capsys):
    for argv in (["stats", "--player", "p", "--seat", "-1"], ["no-such-command"],
                 ["stats", "--player", "p", "--game", "moon"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "error:" in err and "--help" in err, err


def test_small_rates_keep_a_decimal():
    from liujia.commands.stats import _pct

    assert [_pct(x) for x in (None, 0.0, 0.0043, 0.25, 0.955, 1.0)] == [
        "–", "0%", "0.4%", "25%", "95.5%", "100%"]
