"""'As of that game' (warehouse.tendencies.as_of and dashboards/views/as_of.py): each seat's
key tendencies from the player's games before the game only. They do not change when later
games are ingested, they equal the figures of a warehouse holding only the earlier games (the
population's rate and the percentile too), the first game has nothing before it, and the
renderer shows them as one data frame with a seat column, player ids as plain text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine.log import write_log
from engine.replay import Replay
from tests.dashboards.test_dashboard_seats import _assert_plain
from tests.dashboards.test_players_page import EVIL, evil_db
from warehouse import tendencies as wt
from warehouse.db import reader

assert evil_db              # the players page's warehouse with a Markdown player id
X = 12                      # the game replayed: the 13th of the twenty
FIGURES = ("n", "k", "rate", "low", "high", "population_rate", "percentile")


def _ingest(root: Path, name: str, games) -> Path:
    from ingest import ingest_paths

    (root / name).mkdir()
    write_log(root / name / "games.arrows", games)
    db = root / f"{name}.duckdb"
    assert ingest_paths([root / name], db=db, progress=False, workers=1).loaded == len(games)
    return db


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory, dash_games):
    """Three warehouses of the twenty 六人坑 games: all, up to game X (X included) and the
    games before X only."""
    root = tmp_path_factory.mktemp("as-of")
    return {"all": _ingest(root, "all", dash_games),
            "upto": _ingest(root, "upto", dash_games[:X + 1]),
            "before": _ingest(root, "before", dash_games[:X])}


def _as_of(db, game_id: str) -> list[dict]:
    with reader(db) as con:
        return wt.as_of(con, game_id).to_pylist()


def test_as_of_ignores_later_games_and_equals_the_earlier_warehouse(warehouses, dash_games):
    gid = dash_games[X][0].game_id
    players = Replay(dash_games[X]).final.players
    got = _as_of(warehouses["all"], gid)
    assert got == _as_of(warehouses["upto"], gid)               # later games change nothing
    keys = wt.KEY_TENDENCIES["keng"]
    assert [(r["seat"], r["player_id"], r["tendency"]) for r in got] == [
        (s, p, k) for s, p in enumerate(players) for k in keys]
    with reader(warehouses["before"]) as con:
        for r in got:
            want = {w["tendency"]: w for w in wt.player_tendencies(
                con, r["player_id"], "keng").to_pylist()}.get(r["tendency"])
            (games,) = con.sql("SELECT count(*) FROM seats WHERE player_id = ?",
                               params=[r["player_id"]]).fetchall()[0]
            assert r["games"] == games == sum(r["player_id"] in Replay(g).final.players
                                              for g in dash_games[:X])
            if want is None:
                assert (r["n"], r["k"], r["rate"]) == (0, 0, None)
            else:
                assert {c: r[c] for c in FIGURES} == {c: want[c] for c in FIGURES}
    assert any(r["n"] > 0 for r in got) and any(r["games"] > 0 for r in got)
    # never the future: today's figures of the whole warehouse differ for some seat
    with reader(warehouses["all"]) as con:
        now = {(p, w["tendency"]): w["n"] for p in set(players)
               for w in wt.player_tendencies(con, p, "keng").to_pylist()}
    assert any(now.get((r["player_id"], r["tendency"]), 0) != r["n"] for r in got)


def test_the_first_game_has_nothing_before_it(warehouses, dash_games):
    rows = _as_of(warehouses["all"], dash_games[0][0].game_id)
    assert len(rows) == 6 * len(wt.KEY_TENDENCIES["keng"])
    assert all((r["games"], r["n"], r["rate"], r["population_rate"]) == (0, 0, None, None)
               for r in rows)
    assert _as_of(warehouses["all"], "keng-no-such-game") == []


def _render(game_id: str) -> None:
    from dashboards.views.as_of import render

    render(game_id)


def _rendered(db, monkeypatch, game_id: str) -> AppTest:
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = AppTest.from_function(_render, args=(game_id,), default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_render_shows_one_row_per_seat(warehouses, dash_games, monkeypatch):
    from dashboards.views.as_of import _cell

    gid = dash_games[X][0].game_id
    at = _rendered(warehouses["all"], monkeypatch, gid)
    assert [s.value for s in at.subheader] == ["As of this game"]
    (shown,) = at.dataframe
    frame = shown.value
    keys = wt.KEY_TENDENCIES["keng"]
    named = [wt.labels("keng")[k] for k in keys]        # headed by labels, never by ids
    assert list(frame.columns) == ["seat", "player", "games before", *named]
    assert "stacks a draw (叠加)" in named
    helps = json.loads(shown.proto.columns)
    for name, key in zip(named, keys, strict=True):
        assert helps[name]["help"].endswith(f"Id: `{key}`.")   # the id in the tooltip
    got = _as_of(warehouses["all"], gid)
    assert list(frame["seat"]) == list(range(6))
    assert list(frame["player"]) == list(Replay(dash_games[X]).final.players)
    for row in frame.to_dict("records"):
        for name, key in zip(named, keys, strict=True):
            (r,) = [r for r in got if r["seat"] == row["seat"] and r["tendency"] == key]
            assert row[name] == _cell(r["k"], r["n"], r["low"], r["high"])
            assert row["games before"] == r["games"]
    assert _cell(3, 10, 0.108, 0.603) == "30% (3/10, 11–60%)" and _cell(0, 0, None, None) == (
        "– (0/0)")


def test_render_of_an_unknown_game_and_of_hostile_ids(warehouses, evil_db, monkeypatch):
    at = _rendered(warehouses["all"], monkeypatch, "keng-no-such-game")
    assert not at.dataframe and "No key tendencies" in at.caption[0].value
    with reader(evil_db) as con:
        (gid,) = con.sql("SELECT game_id FROM seats WHERE player_id = ? ORDER BY game_id DESC "
                         "LIMIT 1", params=[EVIL]).fetchall()[0]
    at = _rendered(evil_db, monkeypatch, gid)
    _assert_plain(at, EVIL)
    (frame,) = [d.value for d in at.dataframe]
    assert EVIL in set(frame["player"])


def test_the_replay_page_shows_each_seat_as_of_the_game(warehouses, dash_games, monkeypatch):
    """The replay page of game X carries the as-of table: one row per seat, the games each
    player had before X (not the later ones the warehouse also holds)."""
    from tests.dashboards.test_replay_perspective import _replay

    monkeypatch.setenv("LIUJIA_DB", str(warehouses["all"]))
    gid = dash_games[X][0].game_id
    at = _replay(game=gid, step="3")
    assert "As of this game" in [s.value for s in at.subheader]
    (frame,) = [d.value for d in at.dataframe if "games before" in d.value.columns]
    players = list(Replay(dash_games[X]).final.players)
    assert list(frame["player"]) == players
    before = {p: sum(p in Replay(g).final.players for g in dash_games[:X]) for p in players}
    assert list(frame["games before"]) == [before[p] for p in players]
    assert any(v < sum(p in Replay(g).final.players for g in dash_games) for v, p in
               zip(frame["games before"], players, strict=True))      # later games exist


def test_hud_line_beside_each_seat_on_the_replay_page(warehouses, dash_games, monkeypatch):
    """The replay page's table carries, in each seat's panel, the HUD line: games before and
    each key tendency's rate by its term, withheld ('–') under HUD_MIN_N chances; the full
    figures in its tooltip; everything escaped."""
    from html import unescape
    from pathlib import Path

    from dashboards.views.as_of import HUD_MIN_N, _term

    gid = dash_games[X][0].game_id
    monkeypatch.setenv("LIUJIA_DB", str(warehouses["all"]))
    app = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
    at = AppTest.from_file(app, default_timeout=60)
    at.query_params.update(game=gid, step="3")
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception, [e.value for e in at.exception]
    (table,) = [h.proto.body for h in at.html if "lj-table" in h.proto.body]
    got = _as_of(warehouses["all"], gid)
    labels = wt.labels("keng")
    withheld = 0
    for seat in range(6):
        part = table.split(f'data-seat="{seat}"', 1)[1].split('class="lj-hand', 1)[0]
        line = unescape(part.split('class="lj-hud"', 1)[1].split(">", 1)[1].split("<", 1)[0])
        rows = [r for r in got if r["seat"] == seat]
        want = [f"{rows[0]['games']}g"]
        for key in wt.KEY_TENDENCIES["keng"]:
            (r,) = [r for r in rows if r["tendency"] == key]
            shown = f"{r['k'] / r['n']:.0%}" if r["n"] >= HUD_MIN_N else "–"
            withheld += shown == "–"
            want.append(f"{_term(labels[key])} {shown}")
        assert line == " · ".join(want)
        assert "叠加 " in line and "games before this one" in unescape(part)
    assert _term("stacks a draw (叠加)") == "叠加" and _term("goes over the hand limit") == "goes"
    assert len(wt.KEY_TENDENCIES["keng"]) == 5
