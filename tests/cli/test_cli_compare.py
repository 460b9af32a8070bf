"""``liujia compare A B``: two players side by side — the records, the games together by
relation and the tendencies, checked against what the engine says of the same simulated games
(who sat where, on which side, who won, the score); a player without a game exits 1, the same
player twice 2."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.games import find_game
from engine.log import write_log
from engine.sim import simulate
from ingest import ingest_paths
from liujia.cli import main

GAME = "keng"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("compare")
    games = list(simulate(GAME, 24, seed=5))
    write_log(root / "keng.arrows", [g.events for g in games])
    db = root / "w.duckdb"
    assert ingest_paths([root], db=db, progress=False, workers=1).clean
    g = find_game(GAME)
    seated = []
    for sim in games:
        players = json.loads(sim.events[0].payload)["players"]
        out = g.outcomes(sim.final)
        sides = g.sides(sim.final)
        seated.append([(p, sides[k], out[k]) for k, p in enumerate(players)])
    return db, seated


def _pair(seated) -> tuple[str, str]:
    """The two players who sat together most often."""
    together = Counter((a, b) for table in seated for a, _, _ in table for b, _, _ in table
                       if a < b)
    return together.most_common(1)[0][0]


def _run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["compare", *args])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_json_agrees_with_the_engine(corpus, capsys):
    db, seated = corpus
    a, b = _pair(seated)
    code, out, err = _run(capsys, a, b, "--db", str(db), "--json")
    assert code == 0 and err == ""
    rows = [json.loads(x) for x in out.splitlines()]
    records = {r["who"]: r for r in rows if r["section"] == "record"}
    for who, p in (("A", a), ("B", b)):
        mine = [o for table in seated for q, _, o in table if q == p]
        assert records[who]["player_id"] == p and records[who]["games"] == len(mine)
        assert records[who]["wins"] == sum(o.result == "win" for o in mine)
        assert records[who]["score"] == sum(o.score for o in mine)
    want: Counter = Counter()
    a_wins: Counter = Counter()
    for table in seated:
        seat = {p: (side, o) for p, side, o in table}
        if a in seat and b in seat:
            (sa, oa), (sb, _) = seat[a], seat[b]
            rel = "same table" if sa is None or sb is None else \
                "partners" if sa == sb else "opponents"
            want[rel] += 1
            a_wins[rel] += oa.result == "win"
    together = {r["relation"]: r for r in rows if r["section"] == "together"}
    assert {k: r["games"] for k, r in together.items()} == dict(want) and want
    assert {k: r["a_wins"] for k, r in together.items()} == {k: a_wins[k] for k in want}
    tendencies = [r for r in rows if r["section"] == "tendency"]
    assert tendencies and {r["game"] for r in tendencies} == {GAME}
    for r in tendencies:
        if r["A n"] is not None and r["B n"] is not None:
            apart = r["A high"] < r["B low"] or r["B high"] < r["A low"]
            assert r["apart"] == apart
        else:
            assert r["apart"] is False


def test_text_has_every_section(corpus, capsys):
    db, seated = corpus
    a, b = _pair(seated)
    code, out, _ = _run(capsys, a, b, "--db", str(db))
    assert code == 0
    assert out.splitlines()[0] == f"A = {a}, B = {b}"
    for head in ("records (per game type, never pooled):", "together:", "tendencies · keng"):
        assert head in out
    assert f"A: {a}" in out and f"B: {b}" in out


def test_bad_players(corpus, capsys):
    db, seated = corpus
    a, _ = _pair(seated)
    code, out, err = _run(capsys, a, "nobody-here", "--db", str(db))
    assert code == 1 and out == "" and "player nobody-here has no game" in err
    code, out, err = _run(capsys, a, a, "--db", str(db))
    assert code == 2 and "two different players" in err
    code, out, err = _run(capsys, a, "x", "--db", str(db), "--game", "gouji")
    assert code == 1 and f"player {a} has no game of gouji" in err
