"""The Compare page under Streamlit's AppTest, over the tiny 六人坑 warehouse: both players'
records are theirs (players_list), their games together are counted as the seats say (partners
/ opponents, wins each, the score each took), every tendency of the game shows both players'
figures; the two players live in the URL; a missing player or one player twice is said."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from warehouse import queries as wq
from warehouse import tendencies as wt
from warehouse.db import reader

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")


def _page(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    at.switch_page("views/compare.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _pair(db) -> tuple[str, str]:
    """The two players who sat together most (partners, opponents or both)."""
    with reader(db) as con:
        rows = con.sql("SELECT x.player_id, y.player_id FROM seats x JOIN seats y "
                       "ON x.game_id = y.game_id AND x.seat <> y.seat "
                       "GROUP BY 1, 2 ORDER BY count(*) DESC, 1, 2 LIMIT 1").fetchall()
    return rows[0][0], rows[0][1]


def _notes(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.html if "lj-note" in h.proto.body)


def test_two_players_side_by_side(app_db):
    a, b = _pair(app_db)
    at = _page(a=a, b=b)
    frames = [d.value for d in at.dataframe]
    records = frames[0]
    with reader(app_db) as con:
        for who, player in (("A", a), ("B", b)):
            (want,) = wq.players_list(con, None, "", player).to_pylist()
            (row,) = records[records["player"] == f"{who}: {player}"].itertuples()
            assert (row.games, row.wins, row.losses) == (want["games"], want["wins"],
                                                         want["losses"])
            assert row._11 == want["score"]
        seats = con.sql("SELECT x.game_id, x.side = y.side, x.result, y.result, x.score, "
                        "y.score FROM seats x JOIN seats y ON x.game_id = y.game_id "
                        "WHERE x.player_id = ? AND y.player_id = ?", params=[a, b]).fetchall()
        tend_a = wt.player_tendencies(con, a, "keng").to_pylist()
    together = frames[1]
    got = {r.relation: r for r in together.itertuples()}
    assert set(got) == {"partners" if s[1] else "opponents" for s in seats}
    for relation, same in (("partners", True), ("opponents", False)):
        mine = [s for s in seats if s[1] is same]
        if not mine:
            continue
        counts = Counter(r for s in mine for r in (("a",) if s[2] == "win" else ())
                         + (("b",) if s[3] == "win" else ()))
        r = got[relation]
        assert r.games == len(mine) and r._4 == counts["a"] and r._5 == counts["b"]
        assert r._7 == sum(s[4] for s in mine) and r._8 == sum(s[5] for s in mine)
    (tend,) = [f for f in frames if "A rate" in f.columns]
    shown = {r.tendency: r for r in tend.itertuples()}
    for t in tend_a:
        assert shown[t["tendency"]]._4 == t["n"]           # A's n
        assert shown[t["tendency"]]._5 == pytest.approx(t["rate"], nan_ok=True)
    assert at.query_params["a"] == a and at.query_params["b"] == b


def test_url_inputs_and_refusals(app_db):
    a, _ = _pair(app_db)
    at = _page(a=a)
    assert "Type two player ids" in _notes(at) and not at.dataframe
    at.text_input(key="cmp_b").input(a).run()
    assert "Choose two different players" in _notes(at)
    evil = "<img src=x onerror=alert(1)>"
    at.text_input(key="cmp_b").input(evil).run()
    assert not at.exception and "&lt;img src=x" in _notes(at) and "<img" not in _notes(at)
    assert at.query_params["b"] == evil
