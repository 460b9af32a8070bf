"""The worked analyst queries of docs/warehouse.md, run as written against a Parquet export of
a small warehouse, give the answers the engine's own replay of the same logs gives: the
export's layout (partitions, ``faces``, ``label``) is what the docs say, and the queries are
right."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

import duckdb
import polars as pl
import pytest

from engine.cards import format_face
from engine.decisions import decisions_table
from engine.facts import facts_table
from engine.games import find_game
from engine.log import read_log
from engine.replay import Replay
from liujia.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "warehouse.md"
_QUERY = re.compile(r"<!-- query: (\w+) \((duckdb|polars)\) -->\n```(?:sql|python)\n(.*?)```",
                    re.S)


def queries() -> dict[str, tuple[str, str]]:
    """name -> (engine, code) of every worked query in the docs."""
    return {m[1]: (m[2], m[3]) for m in _QUERY.finditer(DOC.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, list[list]]:
    root = tmp_path_factory.mktemp("analyst")
    logs = root / "logs"
    assert main(["simulate", "--game", "modaoshuang", "--games", "40", "--seed", "3",
                 "--option", "mds_players=4", "--out", str(logs / "mds"), "--quiet"]) == 0
    assert main(["simulate", "--game", "gouji", "--games", "4", "--seed", "3",
                 "--out", str(logs / "gouji"), "--quiet"]) == 0
    db = root / "w.duckdb"
    assert main(["ingest", str(logs), "--db", str(db), "--quiet"]) == 0
    assert main(["export", "--db", str(db), "--out", str(root / "export")]) == 0
    games = [g.events for f in sorted(logs.rglob("*.arrows")) for g in read_log(f).games]
    return root, games


def _run(root: Path, name: str, monkeypatch) -> list[tuple]:
    engine, code = queries()[name]
    monkeypatch.chdir(root)
    if engine == "duckdb":
        return duckdb.sql(code).fetchall()
    scope: dict = {}
    exec(compile(code, f"docs/warehouse.md:{name}", "exec"), scope)      # noqa: S102
    return scope["result"].rows()


def test_the_docs_hold_the_three_queries():
    assert set(queries()) == {"both_jokers", "pass_rate", "faces_played"}


def test_both_jokers(exported, monkeypatch):
    root, games = exported
    mds = [g for g in games if "modaoshuang" in g[0].payload]
    held = {(r["game_id"], r["seat"]) for r in facts_table(mds).to_pylist()
            if r["fact"] == "held_both_jokers"}
    tally: dict[bool, list[int]] = defaultdict(lambda: [0, 0])
    for events in mds:
        final = Replay(events).state_at(len(events) - 1)
        for seat, o in enumerate(find_game("modaoshuang").outcomes(final)):
            t = tally[(events[0].game_id, seat) in held]
            t[0] += 1
            t[1] += o.result == "win"
    want = [(k, n, round(w / n, 3)) for k, (n, w) in sorted(tally.items())]
    assert _run(root, "both_jokers", monkeypatch) == want and len(want) == 2


def test_pass_rate(exported, monkeypatch):
    root, games = exported
    rows = [r for g in games if '"gouji"' in g[0].payload
            for r in decisions_table(g).to_pylist() if r["can_answer"]]
    by: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        by[r["player_id"]][0] += 1
        by[r["player_id"]][1] += r["chosen"] == "pass"
    want = [(p, n, round(k / n, 3)) for p, (n, k) in sorted(by.items())]
    got = _run(root, "pass_rate", monkeypatch)
    assert got == want and want


def test_faces_played(exported, monkeypatch):
    root, games = exported
    played = Counter(format_face(c) for g in games if "modaoshuang" in g[0].payload
                     for e in g if e.kind == "PLAY" for c in e.cards)
    want = sorted(played.items(), key=lambda x: (-x[1], x[0]))[:5]
    assert _run(root, "faces_played", monkeypatch) == want


def test_export_layout_matches_the_table(exported):
    root, _ = exported
    for table in ("games", "seats", "events", "decisions", "facts"):
        parts = {p.name for p in (root / "export" / table).iterdir()}
        assert parts == {"game=gouji", "game=modaoshuang"}, table
    events = pl.scan_parquet(root / "export" / "events" / "**" / "*.parquet",
                             hive_partitioning=True)
    head = events.filter(pl.col("kind") == "PLAY").select("cards", "faces").head(20).collect()
    for cards, faces in head.iter_rows():
        assert faces == [format_face(c) for c in cards]
    facts = pl.read_parquet(root / "export" / "facts" / "**" / "*.parquet",
                            hive_partitioning=True)
    for game, fact, label in facts.select("game", "fact", "label").unique().iter_rows():
        assert label == find_game(game).facts.label(fact) and label != fact
