"""The players page under AppTest: the players list (every player, counts equal to SQL over the
warehouse, search and game filter, a selected row opens the profile), the profile's tendencies
per game (k / n equal warehouse.tendencies.player_tendencies), the charts (results over time,
by seat, by side, one per game's tendencies), the partnerships, the game, seat and date
filters over the whole profile (every table equal to the scoped queries, the population's
figures too), the block size of the results over time, and a player id holding Markdown shown
as plain text."""

from __future__ import annotations

import json
import math
from datetime import UTC, date, datetime
from html import unescape
from pathlib import Path

import pandas as pd
import pyarrow.compute as pc
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import profile_data as pd_
from engine.events import seal_events
from engine.games import find_game
from engine.log import write_log
from engine.sim import simulate
from tests.dashboards.test_dashboard_seats import _assert_plain
from warehouse import queries as wq
from warehouse import tendencies as wt
from warehouse.db import reader
from warehouse.tendencies import Scope

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
EVIL = "p-`x`-![y](http://127.0.0.1:9/b.png)"
COUNTS_SQL = """SELECT s.player_id, count(*) AS games,
    sum(CASE WHEN s.result = 'win' THEN 1 ELSE 0 END) AS wins,
    sum(CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END) AS losses,
    sum(CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END) AS draws
    FROM seats s JOIN games g USING (game_id) WHERE g.game LIKE ? GROUP BY 1"""


def _page(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    at.switch_page("views/players.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _sql_counts(db, game: str = "%") -> dict[str, tuple[int, int, int, int]]:
    with reader(db) as con:
        rows = con.sql(COUNTS_SQL, params=[game]).fetchall()
    return {p: (int(g), int(w), int(lo), int(d)) for p, g, w, lo, d in rows}


def _listed(at: AppTest) -> dict[str, tuple[int, int, int, int]]:
    """Each listed player's games, wins, losses and draws, summed over the player's rows (one
    per game type)."""
    (table,) = [d.value for d in at.dataframe if d.key and d.key.startswith("pl_list_")]
    out: dict[str, tuple[int, int, int, int]] = {}
    for r in table.itertuples():
        had = out.get(r.player, (0, 0, 0, 0))
        out[r.player] = tuple(a + b for a, b in zip(had, (r.games, r.wins, r.losses, r.draws),
                                                    strict=True))
    return out


def _tendency_tables(at: AppTest):
    return [d.value for d in at.dataframe if "did" in d.value.columns]


FRAMES = {"record": ["game", "seat", "side", "games", "wins", "losses", "draws"],
          "over": "first", "by_seat": "game · seat", "by_side": "game · side",
          "partners": "partner", "games": "game_id"}


def _frame(at: AppTest, name: str):
    """The profile's one data frame of this name (told apart by its columns)."""
    want = FRAMES[name]
    (found,) = [d.value for d in at.dataframe
                if (list(d.value.columns) == want if isinstance(want, list)
                    else want in d.value.columns)]
    return found


def _charts(at: AppTest) -> dict[str, dict]:
    """The page's Altair charts by title."""
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    return {spec.get("title"): spec for spec in specs}


def _chart_data(at: AppTest, title: str) -> list:
    """The Arrow tables an Altair chart of this title carries (Streamlit ships them apart
    from the spec)."""
    import pyarrow as pa

    (chart,) = [c for c in at.get("vega_lite_chart")
                if json.loads(c.proto.spec).get("title") == title]
    return [pa.ipc.open_stream(d.data.data).read_all() for d in chart.proto.datasets]


RESULT_CHARTS = {"results over time", "results by seat", "results by side",
                 "net score over time"}


def _notes(at: AppTest) -> str:
    return unescape("\n".join(h.proto.body for h in at.html if "lj-note" in h.proto.body))


@pytest.fixture(scope="module")
def mixed_db(tmp_path_factory, dash_games, gouji_games):
    """A warehouse of both games: the twenty 六人坑 games and the seven 够级 games."""
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("players-warehouse")
    logs = root / "logs"
    logs.mkdir()
    write_log(logs / "keng.arrows", dash_games)
    write_log(logs / "gouji.arrows", gouji_games)
    db = root / "mixed.duckdb"
    summary = ingest_paths([logs], db=db, progress=False)
    assert summary.loaded == len(dash_games) + len(gouji_games), summary
    return db


@pytest.fixture
def mixed_app_db(mixed_db, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(mixed_db))
    return mixed_db


def _both_games_player(db) -> str:
    with reader(db) as con:
        return con.sql("SELECT s.player_id FROM seats s JOIN games g USING (game_id) "
                       "GROUP BY 1 HAVING count(DISTINCT g.game) = 2 "
                       "ORDER BY count(*) DESC, 1 LIMIT 1").fetchall()[0][0]


# ---------------------------------------------------------------- the list

def test_list_shows_every_player_with_sql_counts(app_db):
    at = _page()
    assert "Type a player id, or select a player" in "\n".join(c.value for c in at.caption)
    listed = _listed(at)
    assert listed == _sql_counts(app_db)
    with reader(app_db) as con:
        (players,) = con.sql("SELECT count(DISTINCT player_id) FROM seats").fetchall()[0]
    assert len(listed) == players
    (table,) = [d.value for d in at.dataframe if d.key and d.key.startswith("pl_list_")]
    assert {"rate", "n", "rate is", "net score", "per game", "last seen"} <= set(table.columns)
    with reader(app_db) as con:
        score = dict(con.sql("SELECT player_id, sum(score) FROM seats GROUP BY 1").fetchall())
    for r in table.itertuples():
        decided = r.wins + r.losses
        assert r.n == decided and r._9 == "win rate"      # 六人坑: wins / decided
        if decided:
            assert r.rate == pytest.approx(r.wins / decided)
        else:
            assert pd.isna(r.rate)
        assert r._10 == score[r.player] and r._11 == pytest.approx(r._10 / r.games)


def test_search_and_game_filter_narrow_the_list(mixed_app_db):
    at = _page()
    everyone = _listed(at)
    assert everyone == _sql_counts(mixed_app_db)
    part = sorted(everyone)[0][-2:]
    at.text_input(key="pl_search").input(part).run()
    assert not at.exception
    found = _listed(at)
    assert found and len(found) < len(everyone)
    assert found == {p: c for p, c in everyone.items() if part in p}
    at.text_input(key="pl_search").input("").run()
    assert at.selectbox(key="pl_list_game").options == ["all games", "够级 (gouji)", "六人坑 (keng)"]
    at.selectbox(key="pl_list_game").set_value("gouji").run()
    assert not at.exception
    assert _listed(at) == _sql_counts(mixed_app_db, "gouji")
    at.text_input(key="pl_search").input("nobody-has-this").run()
    assert _listed(at) == {}


def test_selecting_a_row_opens_the_profile(app_db):
    at = _page()
    (frame,) = [d for d in at.dataframe if d.key and d.key.startswith("pl_list_")]
    chosen = frame.value["player"].iloc[2]
    at.session_state[frame.key] = {"selection": {"rows": [2], "columns": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["player"] == chosen
    assert at.text_input(key="pl_player").value == chosen
    assert {m.label: m.value for m in at.metric}["games"] == str(_sql_counts(app_db)[chosen][0])
    # clearing the player shows the list again, with no row selected
    at.text_input(key="pl_player").input("").run()
    assert not at.exception and _listed(at) == _sql_counts(app_db)


# ---------------------------------------------------------------- the profile

def test_profile_tendencies_per_game_chart_and_partnerships(mixed_app_db):
    player = _both_games_player(mixed_app_db)
    at = _page(player=player)
    assert not any(s.value == "How this player plays 够级" for s in at.subheader)
    assert [m.value for m in at.markdown if m.value.startswith("####")] == [
        "#### 六人坑 (keng)", "#### 够级 (gouji)"]
    tables = _tendency_tables(at)
    assert len(tables) == 2
    with reader(mixed_app_db) as con:
        for game, shown in zip(("keng", "gouji"), tables, strict=True):
            want = wt.player_tendencies(con, player, game).to_pylist()
            named = wt.labels(game)
            assert list(shown["tendency"]) == [named[r["tendency"]] for r in want]
            assert not {r["tendency"] for r in want} & set(shown["tendency"])   # no id shown
            assert list(shown["did"]) == [r["k"] for r in want]
            assert list(shown["could"]) == [r["n"] for r in want]
            about = {t.name: t.description for t in wt.catalog(game)}
            assert list(shown["description"]) == [about[r["tendency"]] for r in want]
            assert {"rate", "95% interval", "population_rate", "percentile"} <= set(
                shown.columns)
        partners = wt.partnerships(con, player).to_pylist()
    charts = _charts(at)
    assert set(charts) == RESULT_CHARTS | {"tendencies · keng", "tendencies · gouji"}
    for title in ("tendencies · gouji", "results by seat", "results by side"):
        marks = {layer["mark"]["type"] for layer in charts[title]["layer"]}
        assert marks == {"rule", "point", "tick"}, title
    assert {layer["mark"]["type"] for layer in charts["results over time"]["layer"]} == {
        "rule", "line"}
    (pt,) = [d.value for d in at.dataframe if "partner" in d.value.columns]
    assert list(zip(pt["partner"], pt["relation"], pt["n"], pt["wins"], strict=True)) == [
        (r["partner"], r["relation"], r["games"], r["wins"]) for r in partners]


def test_tendencies_read_as_labels_with_the_id_in_the_tooltips(mixed_app_db):
    """The tendency tables and charts name each tendency by its label (the game's term
    included), never by its snake_case id; the id is in the tendency column's help and in the
    chart's tooltip."""
    player = _both_games_player(mixed_app_db)
    at = _page(player=player)
    charts = _charts(at)
    shown = [d for d in at.dataframe if "did" in d.value.columns]
    with reader(mixed_app_db) as con:
        for game, table in zip(("keng", "gouji"), shown, strict=True):
            ids = [r["tendency"] for r in wt.player_tendencies(con, player, game).to_pylist()]
            named = wt.labels(game)
            assert list(table.value["tendency"]) == [named[i] for i in ids]
            assert all(" " in n and "_" not in n for n in table.value["tendency"])
            help_ = json.loads(table.proto.columns)["tendency"]["help"]
            for i in ids:
                assert f"- {named[i]}: `{i}`" in help_
            spec = charts[f"tendencies · {game}"]
            (rows,) = [t for t in _chart_data(at, spec["title"]) if "key" in t.column_names]
            assert list(zip(rows["label"].to_pylist(), rows["key"].to_pylist(),
                            strict=True)) == [(named[i], i) for i in ids]
            point = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "point")
            tips = {t["field"]: t.get("title") for t in point["encoding"]["tooltip"]}
            assert tips["label"] == "tendency" and tips["key"] == "id"
            assert point["encoding"]["y"]["field"] == "label"  # the axis reads the labels
    assert "stacks a draw (叠加)" in set(shown[0].value["tendency"])


def test_game_filter_applies_to_the_whole_profile(mixed_app_db):
    player = _both_games_player(mixed_app_db)
    at = _page(player=player)
    assert at.selectbox(key="pl_game").options == ["all games", "够级 (gouji)", "六人坑 (keng)"]
    at.selectbox(key="pl_game").set_value("gouji").run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["games"] == str(_sql_counts(mixed_app_db, "gouji")[player][0])
    assert [m.value for m in at.markdown if m.value.startswith("####")] == ["#### 够级 (gouji)"]
    assert len(_tendency_tables(at)) == 1
    assert set(_charts(at)) == RESULT_CHARTS | {"tendencies · gouji"}
    assert set(_frame(at, "by_seat")["game · seat"].str.split(" · ").str[0]) == {"gouji"}
    record = _frame(at, "record")
    assert set(record["game"]) == {"gouji"}
    (pt,) = [d.value for d in at.dataframe if "partner" in d.value.columns]
    assert set(pt["game"]) == {"gouji"}
    games = at.dataframe[-1].value
    assert set(games["game"]) == {"gouji"} and len(games) == int(metrics["games"])


# ---------------------------------------------------------------- the filters

@pytest.fixture(scope="module")
def days_db(tmp_path_factory):
    """Forty seeded 六人坑 games an hour apart: 24 on 1 January 2026, 16 on 2 January."""
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("players-days")
    write_log(root / "keng.arrows", [g.events for g in simulate("keng", 40, seed=17)])
    db = root / "days.duckdb"
    assert ingest_paths([root], db=db, progress=False, workers=1).loaded == 40
    return db


@pytest.fixture
def days_app_db(days_db, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(days_db))
    return days_db


def _games_of(db, player: str) -> list[tuple[datetime, int, str]]:
    """(started, seat, game_id) of every game of the player."""
    with reader(db) as con:
        return con.sql("SELECT g.started, s.seat, g.game_id FROM seats s JOIN games g "
                       "USING (game_id) WHERE s.player_id = ?", params=[player]).fetchall()


def _in(scope: Scope, started: datetime, seat: int) -> bool:
    day = started.astimezone(UTC).date()
    return ((scope.seat is None or seat == scope.seat)
            and (scope.since is None or day >= scope.since)
            and (scope.until is None or day <= scope.until))


def _two_day_player(db) -> tuple[str, int]:
    """The busiest player with games on both days, and the seat he sat at most."""
    best = None
    with reader(db) as con:
        players = [r[0] for r in con.sql("SELECT player_id FROM seats GROUP BY 1 "
                                         "ORDER BY count(*) DESC, 1").fetchall()]
    for p in players:
        games = _games_of(db, p)
        if len({g[0].astimezone(UTC).date() for g in games}) == 2:
            seats = [g[1] for g in games]
            best = (p, max(set(seats), key=lambda k: (seats.count(k), -k)))
            break
    assert best is not None
    return best


def _assert_profile(at: AppTest, db, player: str, scope: Scope) -> int:
    """Every table of the profile is the scoped query's, and the game count the scope's games
    counted here; returns that count."""
    assert not at.exception, [e.value for e in at.exception]
    want = [g for g in _games_of(db, player) if _in(scope, g[0], g[1])]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["games"] == f"{len(want):,}"
    with reader(db) as con:
        record = wq.player_results(con, player, scope).to_pylist()
        tend = wt.player_tendencies(con, player, "keng", scope=scope).to_pylist()
        partners = wt.partnerships(con, player, scope=scope).to_pylist()
        by_seat = wq.results_by(con, player, "seat", scope=scope).to_pylist()
    assert _frame(at, "record").to_dict("records") == record
    (shown,) = _tendency_tables(at)
    named = wt.labels("keng")
    assert list(zip(shown["tendency"], shown["did"], shown["could"], strict=True)) == [
        (named[r["tendency"]], r["k"], r["n"]) for r in tend]
    assert list(shown["population_rate"]) == [r["population_rate"] for r in tend]
    pt = _frame(at, "partners")
    assert list(zip(pt["partner"], pt["n"], pt["wins"], strict=True)) == [
        (r["partner"], r["games"], r["wins"]) for r in partners]
    seats = _frame(at, "by_seat")
    assert list(seats["n (decided)"]) == [r["decided"] for r in by_seat if r["decided"]]
    assert list(seats["population_rate"]) == [r["population_rate"] for r in by_seat
                                              if r["decided"]]
    games = _frame(at, "games")
    assert sorted(games["game_id"]) == sorted(g[2] for g in want)
    assert int(_frame(at, "over")["games"].sum()) == len(want)
    assert RESULT_CHARTS <= set(_charts(at))
    return len(want)


def test_seat_filter_scopes_every_number(days_app_db):
    player, seat = _two_day_player(days_app_db)
    at = _page(player=player)
    whole = _assert_profile(at, days_app_db, player, Scope())
    assert at.selectbox(key="pl_seat").options[0] == "all seats"
    at.selectbox(key="pl_seat").set_value(seat).run()
    part = _assert_profile(at, days_app_db, player, Scope(seat=seat))
    assert 0 < part < whole
    assert set(_frame(at, "record")["seat"]) == {seat}
    assert set(_frame(at, "games")["seat"]) == {seat}
    assert list(_frame(at, "by_seat")["game · seat"]) == [f"keng · seat {seat}"]
    # the population's rates are those at this seat: they differ from everyone's somewhere
    with reader(days_app_db) as con:
        every = {wt.labels("keng")[r["tendency"]]: r["population_rate"]
                 for r in wt.player_tendencies(con, player, "keng").to_pylist()}
    (shown,) = _tendency_tables(at)
    assert any(every[t] != p for t, p in zip(shown["tendency"], shown["population_rate"],
                                             strict=True))


def test_date_filter_scopes_every_number(days_app_db):
    player, _ = _two_day_player(days_app_db)
    at = _page(player=player)
    whole = _assert_profile(at, days_app_db, player, Scope())
    at.date_input(key="pl_since").set_value(date(2026, 1, 2)).run()
    late = _assert_profile(at, days_app_db, player, Scope(since=date(2026, 1, 2)))
    assert all(d.date() == date(2026, 1, 2) for d in _frame(at, "games")["started"])
    at.date_input(key="pl_since").set_value(None)
    at.date_input(key="pl_until").set_value(date(2026, 1, 1)).run()
    early = _assert_profile(at, days_app_db, player, Scope(until=date(2026, 1, 1)))
    assert 0 < early < whole and 0 < late < whole and early + late == whole
    at.date_input(key="pl_since").set_value(date(2026, 1, 1))
    at.selectbox(key="pl_seat").set_value(_two_day_player(days_app_db)[1]).run()
    _assert_profile(at, days_app_db, player,
                    Scope(since=date(2026, 1, 1), until=date(2026, 1, 1),
                          seat=_two_day_player(days_app_db)[1]))


def test_results_over_time_in_blocks(days_app_db):
    player, _ = _two_day_player(days_app_db)
    at = _page(player=player)
    games = int({m.label: m.value for m in at.metric}["games"])
    assert at.selectbox(key="pl_block").value == 5            # the smallest of ≤ 20 blocks
    for block in (5, 10):
        at.selectbox(key="pl_block").set_value(block).run()
        assert not at.exception
        over = _frame(at, "over")
        assert len(over) == math.ceil(games / block)
        assert list(over["games"]) == [block] * (games // block) + (
            [games % block] if games % block else [])
        assert list(over["wins"] + over["losses"]) == list(over["decided"])
        with reader(days_app_db) as con:
            want = wq.results_over_time(con, player, block=block).to_pylist()
        assert list(over["win_rate"]) == pytest.approx([r["win_rate"] for r in want],
                                                       nan_ok=True)
    spec = _charts(at)["results over time"]
    assert "blocks of 10" in json.dumps(spec)


def test_the_block_size_starts_afresh_when_the_filters_change(days_app_db):
    """A block size chosen for all the player's games is not kept for the few of one day:
    the default follows the games the filters leave."""
    player, _ = _two_day_player(days_app_db)
    at = _page(player=player)
    at.selectbox(key="pl_block").set_value(500).run()
    assert at.selectbox(key="pl_block").value == 500
    at.date_input(key="pl_since").set_value(date(2026, 1, 2)).run()
    games = int({m.label: m.value for m in at.metric}["games"])
    assert at.selectbox(key="pl_block").value == pd_.default_block(games) < 500


def test_whole_profile_runs_every_query_of_the_page(days_app_db):
    """``profile_data.whole_profile`` (for the benchmark): every table the page shows, from
    the same queries under the same scope, on one uncached connection."""
    from dashboards import profile_data as pd_

    player, seat = _two_day_player(days_app_db)
    scope = Scope(seat=seat, since=date(2026, 1, 1))
    out = pd_.whole_profile(player, "keng", scope)
    assert set(out) == {"record_all", "span", "record", "by_seat", "by_side", "tendencies",
                        "partnerships", "games", "over_time", "block", "scores"}
    with reader(days_app_db) as con:
        assert out["span"] == wq.player_span(con, player)
        assert out["by_seat"] == wq.results_by(con, player, "seat", "keng", scope)
        assert out["record_all"] == wq.player_results(con, player)
        assert out["record"] == wq.player_results(con, player, scope)
        assert out["tendencies"]["keng"] == wt.player_tendencies(con, player, "keng",
                                                                 scope=scope)
        assert out["partnerships"] == wt.partnerships(con, player, "keng", scope)
        assert out["by_side"] == wq.results_by(con, player, "side", "keng", scope)
        games = sum(out["record"]["games"].to_pylist())
        assert out["over_time"] == wq.results_over_time(con, player, "keng", scope,
                                                        pd_.default_block(games))
    assert out["games"].num_rows == games == sum(
        _in(scope, s, k) for s, k, _ in _games_of(days_app_db, player))
    assert list(out["tendencies"]) == ["keng"] and out["span"]["games"] > games
    assert [pd_.default_block(n) for n in (0, 100, 101, 4000, 10**6)] == [5, 5, 10, 200, 500]


def test_the_slice_gives_the_whole_warehouses_answers(mixed_app_db):
    """The profile reads the player's own rows from his slice (warehouse.slices): every table
    equals the same query over the whole warehouse, unscoped (populations from the stored
    counts) and scoped, for every game and for all; the slice is gone afterwards."""
    from dashboards import profile_data as pd_

    player = _both_games_player(mixed_app_db)
    with reader(mixed_app_db) as con:
        for game in (None, "keng", "gouji"):
            for scope in (None, Scope(seat=1)):
                out = pd_.base_tables(con, player) | pd_.profile_tables(con, player, game, scope)
                assert out["record_all"] == wq.player_results(con, player)
                assert out["span"] == wq.player_span(con, player)
                record = wq.player_results(con, player, scope)
                if game is not None:
                    record = record.filter(pc.equal(record["game"], game))
                assert out["record"] == record
                for by in ("seat", "side"):
                    assert out[f"by_{by}"] == wq.results_by(con, player, by, game, scope)
                assert out["partnerships"] == wt.partnerships(con, player, game, scope)
                assert out["games"] == wq.player_games(con, player, game, scope,
                                                       pd_.GAMES_SHOWN)
                assert out["over_time"] == wq.results_over_time(con, player, game, scope,
                                                                out["block"])
        assert not [r for r in con.sql("SELECT view_name FROM duckdb_views()").fetchall()
                    if "slice" in r[0]]


def test_profile_tendencies_of_several_games_in_one_query(mixed_app_db):
    """``profile_tables`` asks for the tendencies of every game the player played at once: the
    same rows as one ``player_tendencies`` per game, with and without a scope."""
    from dashboards import profile_data as pd_

    player, seen = _both_games_player(mixed_app_db), set()
    with reader(mixed_app_db) as con:
        for scope in (None, Scope(seat=0), Scope(since=date(2026, 1, 1))):
            tables = pd_.profile_tables(con, player, None, scope)
            got, played = tables["tendencies"], set(tables["record"]["game"].to_pylist())
            assert list(got) == [g for g in pd_.tendency_games() if g in played]
            seen |= played
            for g, table in got.items():
                assert table == wt.player_tendencies(con, player, g, scope=scope), (g, scope)
    assert seen == {"gouji", "keng"}


# ---------------------------------------------------------------- untrusted text

@pytest.fixture(scope="module")
def evil_db(tmp_path_factory, dash_games):
    """Two 六人坑 games whose first player id holds Markdown, ingested with the engine's id
    check switched off (a warehouse someone else wrote)."""
    from ingest import ingest_paths

    games = []
    for events in dash_games[:2]:
        payload = json.loads(events[0].payload)
        payload["players"][0] = EVIL
        start = events[0]._replace(payload=json.dumps(payload, sort_keys=True,
                                                      separators=(",", ":")))
        games.append(seal_events([start, *events[1:]]))
    root = tmp_path_factory.mktemp("players-evil")
    write_log(root / "evil.arrows", games)
    db = root / "evil.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("engine.games.common.id_problem", lambda value: None)
        summary = ingest_paths([root / "evil.arrows"], db=db, progress=False, workers=1)
    assert summary.loaded == 2, summary
    return db


def test_markdown_player_id_is_plain_text_in_list_and_profile(evil_db, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(evil_db))
    at = _page()
    _assert_plain(at, EVIL)
    assert EVIL in _listed(at)
    at.text_input(key="pl_search").input("`x`-![y]").run()
    assert not at.exception and list(_listed(at)) == [EVIL]
    _assert_plain(at, EVIL)
    (frame,) = [d for d in at.dataframe if d.key and d.key.startswith("pl_list_")]
    at.session_state[frame.key] = {"selection": {"rows": [0], "columns": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["player"] == EVIL
    _assert_plain(at, EVIL)
    assert f"match {EVIL}." in _notes(at)
    assert len(_tendency_tables(at)) == 1
    # the profile from the URL, and a teammate's profile listing the evil id as a partner
    at = _page(player=EVIL)
    _assert_plain(at, EVIL)
    with reader(evil_db) as con:
        mate = con.sql("SELECT player_id FROM seats WHERE seat = 2 LIMIT 1").fetchall()[0][0]
    at = _page(player=mate)
    _assert_plain(at, EVIL)
    (pt,) = [d.value for d in at.dataframe if "partner" in d.value.columns]
    assert EVIL in set(pt["partner"])


def test_record_per_game_type_never_pooled_with_scores_and_seat_links(mixed_app_db):
    """Two game types: no pooled metric; one row per type with its own rate, n, net score
    and score per game (the seats' scores), the running net score charted per type; the
    games' links open the player's own seat."""
    player = _both_games_player(mixed_app_db)
    at = _page(player=player)
    assert not at.metric
    (per_type,) = [d.value for d in at.dataframe if "net score" in d.value.columns]
    with reader(mixed_app_db) as con:
        want = con.sql("SELECT g.game, count(*), sum(s.score), "
                       "count(*) FILTER (WHERE s.result = 'win'), "
                       "count(*) FILTER (WHERE s.result IN ('win', 'loss')) "
                       "FROM seats s JOIN games g USING (game_id) WHERE s.player_id = ? "
                       "GROUP BY 1", params=[player]).fetchall()
        seats = dict(con.sql("SELECT game_id, seat FROM seats WHERE player_id = ?",
                             params=[player]).fetchall())
    got = {r.game: r for r in per_type.itertuples()}
    assert set(got) == {"六人坑 (keng)", "够级 (gouji)"}
    for game, n, score, wins, decided in want:
        r = got[f"{find_game(game).TITLE} ({game})"]
        assert (r.games, r._10) == (n, score) and r.n == decided
        assert r.value == pytest.approx(wins / decided)
        assert r._11 == pytest.approx(score / n)
    spec = _charts(at)["net score over time"]
    assert "total" in json.dumps(spec)
    games = _frame(at, "games")
    for gid, link in zip(games["game_id"], games["replay"], strict=True):
        assert link.endswith(f"&view={seats[gid]}")


def test_profile_filters_live_in_the_url(mixed_app_db):
    """A link with the profile's filters opens the profile filtered so; a filter changed goes
    back into the URL; planted values that are not allowed are dropped from page and URL."""
    player = _both_games_player(mixed_app_db)
    with reader(mixed_app_db) as con:
        seat, n = con.sql("SELECT s.seat, count(*) FROM seats s JOIN games g USING (game_id) "
                          "WHERE s.player_id = ? AND g.game = 'gouji' GROUP BY 1 ORDER BY 2 "
                          "DESC, 1 LIMIT 1", params=[player]).fetchall()[0]
    at = _page(player=player, game="gouji", seat=str(seat))
    assert at.selectbox(key="pl_game").value == "gouji"
    assert at.selectbox(key="pl_seat").value == seat
    assert {m.label: m.value for m in at.metric}["games"] == str(n)
    at.selectbox(key="pl_game").set_value("keng").run()
    assert not at.exception and at.query_params["game"] == "keng"
    at.selectbox(key="pl_game").set_value(None).run()
    assert "game" not in at.query_params
    at = _page(player=player, game="<script>", seat="99", since="not-a-day")
    assert at.selectbox(key="pl_game").value is None and at.selectbox(key="pl_seat").value is None
    assert at.date_input(key="pl_since").value is None
    assert not {"game", "seat", "since"} & set(at.query_params)
