"""Soft-play screening (warehouse/screen.py, ``liujia screen``): a planted soft pair is flagged,
the same games played honestly flag nobody; the stratified score and its thresholds; the
command's output and exit codes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from engine.cheats import AnswerKey, Plant
from engine.log import write_log
from engine.sim import simulate
from ingest.run import ingest_paths
from liujia.cli import main
from warehouse.db import writing
from warehouse.screen import MIN_N, Z_FLAG, Direction


def _warehouse(tmp_path, name: str, rate: float) -> str:
    """64 greedy 够级 games, seed 5, players 05 and 06 at every table as a soft pair at this
    rate (at 1e-12: honest, seated as the pair is), ingested into a new warehouse."""
    plants = (Plant("soft", ("player-05", "player-06"), rate),)
    key = AnswerKey("gouji", 5, plants)
    games = [g.events for g in simulate("gouji", 64, 5, policy_name="greedy", plants=plants,
                                        key=key)]
    assert bool(key.records) == (rate == 1)
    logs = tmp_path / name
    logs.mkdir()
    write_log(logs / "g.arrows", games)
    db = str(tmp_path / f"{name}.duckdb")
    ingest_paths([logs], db, progress=False, workers=1)
    return db


@pytest.fixture(scope="module")
def dbs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("screen")
    return _warehouse(tmp, "planted", 1.0), _warehouse(tmp, "honest", 1e-12)


def test_the_planted_pair_is_flagged_and_nobody_else(dbs, capsys):
    planted, honest = dbs
    assert main(["screen", "--db", planted, "--json", "--limit", "0"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    flagged = [r for r in rows if r["flagged"]]
    assert [r["players"] for r in flagged] == [["player-05", "player-06"]]
    assert flagged[0]["z"] <= Z_FLAG and rows[0] == flagged[0]       # most suspicious first
    spared = [d for d in flagged[0]["directions"] if d["n"] >= MIN_N]
    assert spared and all(d["answered"] == 0 and d["base_rate"] > 0.3 for d in spared)
    assert main(["screen", "--db", honest, "--json", "--limit", "0"]) == 0
    calm = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert calm and not any(r["flagged"] for r in calm)
    pair = next(r for r in calm if r["players"] == ["player-05", "player-06"])
    assert pair["z"] is None or pair["z"] > Z_FLAG
    assert sum(d.get("answered", 0) for d in pair["directions"]) > 0  # honest: they do answer


def test_the_text_says_how_unlikely_not_who_cheated(dbs, capsys):
    assert main(["screen", "--db", dbs[0], "--limit", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("soft play: ") and "1 flagged" in out[0]
    assert "FLAGGED" in out[1] and "for an honest pair" in out[1]
    assert "cheat" not in " ".join(out).lower()
    assert out[-1].startswith("… 2 of ")


def test_a_warehouse_without_pairs_is_exit_1(tmp_path, capsys):
    db = tmp_path / "empty.duckdb"
    with writing(db, fresh=True):
        pass
    assert main(["screen", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no pair of players" in err


def test_the_stratified_score():
    # one stratum: P answered Q 2 of 30, everyone else 60 of 100
    d = Direction(((30, 2, 100, 60),))
    n, hits, total = 30, 62, 130
    var = n * 100 * hits * (total - hits) / (total * total * (total - 1))
    assert d.z == pytest.approx((2 - n * hits / total) / math.sqrt(var))
    assert d.rate == pytest.approx(2 / 30) and d.base_rate == pytest.approx(0.6)
    assert Direction(((MIN_N - 1, 0, 100, 60),)).z is None
    assert Direction(((30, 2, MIN_N - 1, 10),)).z is None
    # two strata with different honest rates: a player who answers each at its own rate is
    # not suspicious, though its pooled rate against Q differs from its rate against others
    fair = Direction(((40, 36, 10, 9), (10, 2, 40, 8)))
    assert fair.z == pytest.approx(0.0, abs=1e-9)
    assert fair.rate != fair.base_rate


def test_a_lake_screens_as_the_warehouse(dbs, tmp_path, capsys):
    planted = dbs[0]
    logs = Path(planted).with_suffix("")
    assert main(["lake", "build", str(logs), "--out", str(tmp_path / "lake"), "-q"]) == 0
    capsys.readouterr()
    assert main(["screen", "--db", planted, "--json", "--limit", "0"]) == 0
    from_db = capsys.readouterr().out
    assert main(["screen", "--lake", str(tmp_path / "lake"), "--json", "--limit", "0"]) == 0
    assert capsys.readouterr().out == from_db and '"flagged": true' in from_db


def _pair_n(out: str) -> list[int]:
    """The planted pair's opportunities each way in the screen's JSON (0, 0 when the pair
    never met across sides in those games)."""
    rows = [json.loads(x) for x in out.splitlines()]
    pair = next((r for r in rows if r["players"] == ["player-05", "player-06"]), None)
    return [0, 0] if pair is None else [d["n"] for d in pair["directions"]]


def test_a_window_scores_the_games_started_in_it(dbs, capsys):
    # the simulated games start an hour apart from 2026-01-01T00:00Z: 24 on the first day
    planted = dbs[0]
    assert main(["screen", "--db", planted, "--json", "--limit", "0"]) == 0
    whole = _pair_n(capsys.readouterr().out)
    assert main(["screen", "--db", planted, "--json", "--limit", "0",
                 "--until", "2026-01-01"]) == 0
    first = _pair_n(capsys.readouterr().out)
    assert main(["screen", "--db", planted, "--json", "--limit", "0",
                 "--since", "2026-01-02"]) == 0
    rest = _pair_n(capsys.readouterr().out)
    assert sum(whole) > 0 and [a + b for a, b in zip(first, rest, strict=True)] == whole
    assert main(["screen", "--db", planted, "--since", "2027-01-01"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "dates" in err
    with pytest.raises(SystemExit) as exc:
        main(["screen", "--db", planted, "--since", "yesterday"])
    assert exc.value.code == 2
