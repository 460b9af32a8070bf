"""The command line, end to end, through ``liujia.cli.main`` (exit codes 0 / 1 / 2)."""

from __future__ import annotations

import json

import pytest

from liujia.cli import main


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    assert main(["simulate", "--games", "12", "--seed", "5", "--out", str(out), "--per-file",
                 "5", "--quiet"]) == 0
    return out


def _ids(logs, capsys):
    assert main(["validate", "--json", str(logs)]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    return [r["game_id"] for r in rows]


def test_simulate_writes_files_and_is_deterministic(logs, tmp_path):
    files = sorted(logs.glob("*.arrows"))
    assert len(files) == 3
    again = tmp_path / "again"
    assert main(["simulate", "--games", "12", "--seed", "5", "--out", str(again),
                 "--per-file", "5", "--quiet"]) == 0
    for f in files:
        assert (again / f.name).read_bytes() == f.read_bytes()


def test_validate_ok(logs, capsys):
    assert main(["validate", str(logs)]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok ") == 12 and "12 ok" in out


def test_validate_reports_each_problem(logs, tmp_path, capsys):
    files = sorted(logs.glob("*.arrows"))
    data = files[0].read_bytes()
    cut = tmp_path / "cut.arrows"
    cut.write_bytes(data[: len(data) // 2])
    junk = tmp_path / "junk.arrows"
    junk.write_text("not a log")
    assert main(["validate", "--json", str(cut), str(junk), str(files[1])]) == 1
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    by_file = {}
    for r in rows:
        by_file.setdefault(r["file"], []).append(r)
    assert any(r["status"] == "corrupt" and r["code"] == "unsealed" for r in by_file[str(cut)])
    assert by_file[str(junk)][0]["status"] == "not_a_log"
    assert all(r["status"] == "ok" for r in by_file[str(files[1])])


def test_validate_salvage_writes_intact_prefix(logs, tmp_path, capsys):
    data = sorted(logs.glob("*.arrows"))[0].read_bytes()
    cut = tmp_path / "cut.arrows"
    cut.write_bytes(data[: int(len(data) * 0.7)])
    out = tmp_path / "salvaged"
    assert main(["validate", str(cut), "--salvage", str(out)]) == 1
    capsys.readouterr()
    salvaged = out / "cut.salvaged.arrows"
    assert salvaged.exists()
    assert main(["validate", "--json", str(salvaged)]) in (0, 1)
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rows and all(r["status"] in ("ok", "incomplete") for r in rows)
    assert any(r["status"] == "ok" for r in rows)


def test_validate_missing_path_is_usage_error(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "nope")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_replay_renders_views(logs, capsys):
    gid = _ids(logs, capsys)[0]
    assert main(["replay", str(logs), "--game", gid, "--step", "20"]) == 0
    auditor = capsys.readouterr().out
    assert gid in auditor and "event 20/" in auditor and "top play" in auditor
    assert main(["replay", str(logs), "--game", gid, "--step", "20", "--seat", "2"]) == 0
    seat2 = capsys.readouterr().out
    assert seat2.count("(hidden)") == 5
    assert main(["replay", str(logs), "--game", gid, "--step", "99999"]) == 2
    assert main(["replay", str(logs), "--game", "no-such-game"]) == 2


def test_replay_event_line_hides_what_the_seat_cannot_see(logs, capsys):
    from engine.log import read_log
    events = read_log(sorted(logs.glob("*.arrows"))[0]).games[0].events
    deal = next(e for e in events if e.kind == "DEAL")     # dealt to deal.seat only
    other = (deal.seat + 1) % 6
    gid = events[0].game_id
    for seat, shown in ((deal.seat, True), (other, False)):
        assert main(["replay", str(logs), "--game", gid, "--step", str(deal.seq), "--seat",
                     str(seat)]) == 0
        line = capsys.readouterr().out.splitlines()[-1]
        assert line.endswith(f"({len(deal.cards)} cards hidden)") is not shown, line
    assert main(["replay", str(logs), "--game", gid, "--step", "0", "--seat", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("cards hidden)")  # the deck


def test_position_then_check(logs, tmp_path, capsys):
    gid = _ids(logs, capsys)[0]
    assert main(["position", str(logs), "--game", gid, "--step", "30"]) == 0
    pos = json.loads(capsys.readouterr().out)
    assert pos["game_id"] == gid and pos["seq"] == 31
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos))
    from engine.games import find_game
    g = find_game("keng")
    s = g.from_position(pos)
    legal = g.legal_actions(s)[0]
    from engine.events import event_to_json
    act = event_to_json(legal)
    assert main(["check", "--position", str(f), "--action", json.dumps(act)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("legal\n")
    assert json.loads(out.split("\n", 1)[1])["seq"] == 32
    wrong = (s.to_act + 1) % 6 if s.duel is None else (s.duel.to_act + 1) % 6
    bad = {"kind": "PASS", "seat": wrong}
    assert main(["check", "--position", str(f), "--action", json.dumps(bad)]) == 1
    assert capsys.readouterr().out.startswith("illegal KENG-")
    assert main(["check", "--position", str(f), "--action", "{not json"]) == 2
    assert main(["check", "--position", str(tmp_path / "none.json"), "--action", "{}"]) == 2


def test_rules_lookup(capsys):
    assert main(["rules", "KENG-12"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("**KENG-12** Draw two") and "KENG-13" not in out.split("\n")[0]
    assert main(["rules", "KENG-999"]) == 2
    assert main(["rules", "--list"]) == 0
    assert "KENG-51" in capsys.readouterr().out


def test_gouji_rules_lookup(capsys):
    from liujia.commands.rules import rule_ids, rule_text
    ids = rule_ids("GJ")
    assert ids[:2] == ["GJ-1", "GJ-2"] and "GJ-49" in ids and len(ids) == len(set(ids))
    assert main(["rules", "gj-20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("**GJ-20 (Who may answer).**") and "**GJ-21" not in out
    assert rule_text("GJ-2").startswith("**GJ-2 (Pack).**")   # not GJ-20 … GJ-29
    assert rule_text("GJ-999") is None


def test_rules_defined_as_table_rows(capsys):
    """扑克六湖's scoring table defines LH-47 … LH-57 as rows: each is found (the table's header
    and its row), listed in file order, and every id LH-1 … LH-73 resolves."""
    from liujia.commands.rules import rule_ids, rule_text
    assert rule_ids("LH") == [f"LH-{i}" for i in range(1, 74)]
    assert main(["rules", "LH-54"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| id | part | hu |") and out[1].startswith("| --- ")
    assert out[2].startswith("| LH-54 | pair of rank 2, 5, 8 or T") and len(out) == 3
    assert rule_text("LH-48").startswith("**LH-48** in detail")    # its paragraph first
    assert all(rule_text(f"LH-{i}") for i in range(1, 74)) and rule_text("LH-74") is None


def test_every_registered_game_ships_its_rules():
    from importlib import resources

    from engine.games import GAMES, find_game
    from liujia.commands.rules import PREFIX_FILES, rule_ids
    for game in GAMES:
        prefix = find_game(game).RULE_PREFIX
        assert prefix in PREFIX_FILES, f"{game}: rules prefix {prefix} has no shipped file"
    for prefix, (package, name) in PREFIX_FILES.items():
        assert resources.files(package).joinpath(name).is_file(), name
        assert rule_ids(prefix) and all(r.startswith(prefix + "-") for r in rule_ids(prefix))


def _shipped_rules():
    from importlib import resources
    return sorted(f.name for f in resources.files("engine").joinpath("rules").iterdir()
                  if f.name.endswith(".md"))


@pytest.mark.parametrize("name", _shipped_rules())
def test_shipped_rules_match_the_shared_spec(name):
    from importlib import resources
    from pathlib import Path
    shared = Path(__file__).resolve().parents[2].parent / "shared" / "rules" / name
    if not shared.parent.exists():
        pytest.skip("../shared is not beside the checkout")
    assert shared.exists(), f"engine/rules/{name} is not in ../shared/rules"
    shipped = resources.files("engine").joinpath("rules", name).read_text(encoding="utf-8")
    assert shipped == shared.read_text(encoding="utf-8")


def test_shipped_rules_are_package_data():
    import tomllib
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["engine"]
    for name in _shipped_rules():
        assert any(Path("rules", name).match(p) for p in patterns), name


def test_help_and_usage(capsys):
    assert main([]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--help"])
    assert exc.value.code == 0
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--games", "x", "--out", "y"])
    assert exc.value.code == 2


def test_simulate_options_are_recorded_and_checked(tmp_path, capsys):
    out = tmp_path / "opts"
    assert main(["simulate", "--games", "2", "--seed", "1", "--out", str(out), "--quiet",
                 "--option", "keng_hand_limit=30", "--option", "keng_pair_action=once",
                 "--policy", "greedy"]) == 0
    from engine.log import read_log
    [f] = sorted(out.glob("*.arrows"))
    start = read_log(f).games[0].events[0]
    opts = json.loads(start.payload)["options"]
    assert opts["keng_hand_limit"] == 30 and opts["keng_pair_action"] == "once"
    assert opts["keng_tens"] is True          # defaults written out in full (KENG-6)
    assert main(["validate", str(out)]) == 0
    capsys.readouterr()
    assert main(["simulate", "--out", str(out), "--option", "keng_hand_limit=99"]) == 2
    assert "KENG-6" in capsys.readouterr().err
    assert main(["simulate", "--out", str(out), "--option", "no_such=1"]) == 2


def test_ingest_then_export_parquet(logs, tmp_path, capsys):
    import polars as pl
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(logs), "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    out = tmp_path / "parquet"
    assert main(["export", "--db", str(db), "--out", str(out)]) == 0
    games = pl.scan_parquet(out / "games" / "**" / "*.parquet", hive_partitioning=True).collect()
    events = pl.scan_parquet(out / "events" / "**" / "*.parquet",
                             hive_partitioning=True).collect()
    assert games.height == 12
    assert set(games["game"].to_list()) == {"keng"}
    total = sum(len(f.read_bytes()) > 0 for f in (out / "events").rglob("*.parquet"))
    assert total >= 1 and events.height == games["events"].sum()
    assert main(["export", "--db", str(tmp_path / "none.duckdb"), "--out", str(out)]) == 2


def test_version_and_the_games_in_the_help(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"liujia {version('liujia')}"
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert all(f"({g})" in out for g in ("keng", "gouji", "modaoshuang"))
