"""The scope of a player's figures (warehouse.tendencies.Scope): a date range, a seat and
"before game X" limit the player's rows and the population's alike. Counted by hand on the
two-game hand corpus (ties at the same start broken by game id); on the seeded corpus of every
game the SQL and Polars forms agree under every scope, the seats and a split date range
partition the player's opportunities, and "before X" gives exactly the figures of a warehouse
holding only the games that started before X (ordered here in Python, not by the SQL)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pyarrow as pa
import pytest

from engine.games import BUILT_IN
from tests.warehouse.test_tendencies import T0, both, hand_corpus, seeded, warehouse
from warehouse import queries as q
from warehouse import tendencies as T
from warehouse.tendencies import Scope

assert seeded            # the seeded corpus fixture of test_tendencies, used below
DAY = timedelta(days=1)
US = timedelta(microseconds=1)


def _figures(con, player: str = "A", min_opportunities: int = 2, **scope) -> dict:
    rows = both(con, "player_tendencies", player, "keng", min_opportunities=min_opportunities,
                scope=Scope(**scope), min_qualified=1)
    return {r["tendency"][5:]: (r["n"], r["k"], r["population_rate"], r["percentile"],
                                r["qualified"]) for r in rows}


# ---------------------------------------------------------------- the Scope value

def test_scope_bounds_and_validation():
    assert Scope().bounds() == (None, None) and Scope().is_all()
    day = int(DAY / US)
    t0 = int((T0 - datetime(1970, 1, 1, tzinfo=UTC)) / US)
    assert Scope(since=date(2026, 1, 1), until=date(2026, 1, 1)).bounds() == (t0, t0 + day)
    assert Scope(until=T0).bounds() == (None, t0 + 1)               # a datetime: inclusive
    assert Scope(since=datetime(2026, 1, 1)).bounds() == (t0, None)  # naive: UTC
    assert not Scope(seat=0).is_all()
    for bad in ({"seat": -1}, {"seat": True}, {"seat": "2"}, {"since": "2026-01-01"},
                {"until": 5}, {"before": 7}):
        with pytest.raises(ValueError):
            Scope(**bad)


# ---------------------------------------------------------------- the hand corpus

G1_ONLY = {"stacks": (2, 1, 3 / 4, 50.0, 1), "stacks_k": (2, 1, 2 / 3, 50.0, 1),
           "snatches": (1, 1, 1 / 2, None, 0), "goes_out": (1, 1, 1 / 6, None, 0),
           "over_limit": (1, 0, 0.0, None, 0)}
G2_ONLY = {"stacks": (1, 0, 1 / 2, None, 0), "stacks_k": (1, 0, 0.0, None, 0),
           "names_most_held": (1, 0, 1 / 2, None, 0), "keeps_functions": (1, 0, 0.0, None, 0),
           "goes_out": (1, 0, 0.0, None, 0), "over_limit": (1, 1, 1 / 6, None, 0)}


def test_before_a_game_on_the_hand_corpus():
    """Both games start at T0, so g1 comes before g2 by its id. Before g2: g1 alone — A's
    stacks rows 1 2 (2, 1) among C row 3 (1, 1) and B row 6 (1, 1): 3/4; stacks_k A (2, 1)
    and B (1, 1): 2/3; snatches A (1, 1), E (1, 0); goes_out: A decided g1 by going out, 1
    of the 6 seats; nobody went over the limit in g1. Before g1: nothing; an unknown game:
    nothing. With g2 a day earlier, before g1 is g2 alone."""
    con = hand_corpus()
    assert _figures(con, before="g2") == G1_ONLY
    assert _figures(con, before="g1") == {}
    assert _figures(con, before="no-such-game") == {}
    earlier = hand_corpus({"g2": T0 - DAY})
    assert _figures(earlier, before="g1") == G2_ONLY
    assert _figures(earlier, before="g2") == {}


def test_date_range_on_the_hand_corpus():
    """g1 on 1 January, g2 on 2 January: a day keeps its game; a datetime until is inclusive
    to the microsecond."""
    con = hand_corpus({"g2": T0 + DAY})
    assert _figures(con, until=date(2026, 1, 1)) == G1_ONLY
    assert _figures(con, since=date(2026, 1, 2)) == G2_ONLY
    assert _figures(con, since=date(2026, 1, 1), until=date(2026, 1, 1)) == G1_ONLY
    assert _figures(con, until=T0 + DAY - US) == G1_ONLY
    assert _figures(con, until=T0 + DAY) == _figures(con)
    assert _figures(con, since=T0 + US) == G2_ONLY
    assert _figures(con, since=date(2026, 1, 3)) == {}


def test_seat_on_the_hand_corpus():
    """Seat 0 holds A in g1 (rows 1 2 4) and B in g2 (row 9). stacks: A (2, 1), B (1, 1):
    population 2/3, A below B: 25th of 2; snatches A alone (1, 1); goes_out: A at seat 0
    decided g1, B at seat 0 did not decide g2: 1/2, A above B: 75th; over_limit: both 0."""
    got = _figures(hand_corpus(), min_opportunities=1, seat=0)
    assert got == {"stacks": (2, 1, 2 / 3, 25.0, 2), "stacks_k": (2, 1, 1 / 2, 50.0, 1),
                   "snatches": (1, 1, 1.0, 50.0, 1), "goes_out": (1, 1, 1 / 2, 75.0, 2),
                   "over_limit": (1, 0, 0.0, 50.0, 2)}
    # seat 1: A in g2 (rows 7 8), B in g1 (row 6)
    assert _figures(hand_corpus(), min_opportunities=1, seat=1)["stacks"] == (
        1, 0, 1 / 2, 25.0, 2)


def test_splits_partnerships_and_results_in_scope():
    con = hand_corpus()
    rows = both(con, "tendencies_by", "A", "keng", by="teammate", scope=Scope(before="g2"))
    assert {r["grp"]: (r["n"], r["k"]) for r in rows if r["tendency"] == "keng.stacks"} == {
        "C": (2, 1), "E": (2, 1)}
    rows = both(con, "tendencies_by", "A", "keng", by="side", scope=Scope(seat=1))
    assert {r["grp"]: (r["n"], r["k"]) for r in rows if r["tendency"] == "keng.stacks"} == {
        "odd": (1, 0)}
    pairs = both(con, "partnerships", "A", scope=Scope(seat=1))
    assert [(r["relation"], r["partner"], r["games"], r["wins"]) for r in pairs] == [
        ("opposite", "E", 1, 0), ("teammate", "D", 1, 0), ("teammate", "F", 1, 0)]
    assert both(con, "partnerships", "A", scope=Scope(before="g1")) == []
    assert q.player_results(con, "A", Scope(seat=1)).to_pylist() == [
        {"game": "keng", "seat": 1, "side": "odd", "games": 1, "wins": 0, "losses": 1,
         "draws": 0}]
    assert [r["game_id"] for r in q.player_games(con, "A", scope=Scope(before="g2")
                                                  ).to_pylist()] == ["g1"]


def test_results_by_seat_and_side_and_over_time():
    """A won g1 (even, seat 0) and lost g2 (odd, seat 1); every even seat won both games."""
    con = hand_corpus()
    sides = q.results_by(con, "A", "side").to_pylist()
    assert [(r["side"], r["games"], r["wins"], r["decided"], r["win_rate"],
             r["population_rate"]) for r in sides] == [("even", 1, 1, 1, 1.0, 1.0),
                                                      ("odd", 1, 0, 1, 0.0, 0.0)]
    assert (sides[0]["low"], sides[0]["high"]) == pytest.approx(T.wilson(1, 1), 1e-12)
    seats = q.results_by(con, "B", "seat", scope=Scope(seat=0)).to_pylist()
    assert [(r["seat"], r["games"], r["wins"], r["population_rate"]) for r in seats] == [
        (0, 1, 1, 1.0)]
    with pytest.raises(ValueError, match="by must be one of"):
        q.results_by(con, "A", "moon")
    blocks = q.results_over_time(con, "A", block=1).to_pylist()
    assert [(r["block"], r["games"], r["wins"], r["losses"]) for r in blocks] == [
        (0, 1, 1, 0), (1, 1, 0, 1)]                       # g1 then g2 (same start: by id)
    blocks = q.results_over_time(hand_corpus({"g2": T0 - DAY}), "A", block=1).to_pylist()
    assert [(r["wins"], r["first"]) for r in blocks] == [(0, T0 - DAY), (1, T0)]
    (one,) = q.results_over_time(con, "A", block=5).to_pylist()
    assert (one["games"], one["decided"], one["win_rate"]) == (2, 2, 0.5)
    assert q.results_over_time(con, "A", scope=Scope(before="g1")).num_rows == 0
    with pytest.raises(ValueError, match="block"):
        q.results_over_time(con, "A", block=0)


def test_results_over_time_keep_game_types_apart():
    """Blocks are counted per game type: with g2 made a 够级 game, A's two games are two
    blocks of one game each (one per type), never one block mixing them."""
    con = hand_corpus()
    con.execute("UPDATE games SET game = 'gouji' WHERE game_id = 'g2'")
    blocks = q.results_over_time(con, "A", block=5).to_pylist()
    assert [(r["game"], r["block"], r["games"], r["wins"]) for r in blocks] == [
        ("gouji", 0, 1, 0), ("keng", 0, 1, 1)]
    assert [r["game"] for r in q.results_over_time(con, "A", "keng").to_pylist()] == ["keng"]


# ---------------------------------------------------------------- the seeded corpus

def _ordered_games(con) -> list[tuple[datetime, str]]:
    return sorted(con.sql("SELECT started, game_id FROM games").fetchall())


def _some_players(con, k: int = 4) -> list[str]:
    return [r[0] for r in con.sql("SELECT player_id FROM seats GROUP BY 1 "
                                  "ORDER BY count(*) DESC, 1 LIMIT ?", params=[k]).fetchall()]


def _scopes(con) -> list[Scope]:
    games = _ordered_games(con)
    mid_start, mid_id = games[len(games) // 2]
    return [Scope(seat=2), Scope(until=date(2026, 1, 1)), Scope(since=mid_start),
            Scope(before=mid_id), Scope(since=games[5][0], until=mid_start, seat=1),
            Scope(before=mid_id, seat=0)]


def test_sql_and_polars_agree_under_every_scope(seeded):
    scopes = _scopes(seeded)
    players = _some_players(seeded, 3)
    whole = {player: both(seeded, "player_tendencies", player) for player in players}
    for scope in scopes:
        for player in players:
            rows = both(seeded, "player_tendencies", player, scope=scope)
            assert rows != whole[player], scope
            for game in ("keng", "gouji", "modaoshuang"):
                for by in T.BY:
                    both(seeded, "tendencies_by", player, game, by=by, scope=scope)
            both(seeded, "partnerships", player, scope=scope)


def _n(con, player: str, scope: Scope | None = None) -> dict[str, int]:
    return {r["tendency"]: r["n"] for r in T.player_tendencies(con, player, scope=scope)
            .to_pylist()}


def test_seats_and_a_split_date_range_partition_the_opportunities(seeded):
    games = _ordered_games(seeded)
    cut = games[len(games) // 3][0]
    for player in _some_players(seeded):
        whole = _n(seeded, player)
        by_seat: dict[str, int] = {}
        for seat in range(6):
            for name, n in _n(seeded, player, Scope(seat=seat)).items():
                by_seat[name] = by_seat.get(name, 0) + n
        assert by_seat == whole
        early, late = _n(seeded, player, Scope(until=cut - US)), _n(seeded, player,
                                                                     Scope(since=cut))
        assert early and late
        assert {k: early.get(k, 0) + late.get(k, 0) for k in whole} == whole


def _only(con, game_ids: set[str]):
    """A new warehouse holding only these games (their games, seats and decisions rows)."""
    tables = {}
    for name in ("decisions", "games", "seats"):
        tbl = con.sql(f"SELECT * FROM {name}").to_arrow_table()
        keep = pa.array([g in game_ids for g in tbl["game_id"].to_pylist()])
        tables[name] = tbl.filter(keep)
    return warehouse(tables["decisions"], tables["games"], tables["seats"])


def test_before_a_game_is_a_warehouse_of_the_earlier_games(seeded):
    """For three games X (one whose start ties with other games'), every figure under
    Scope(before=X) equals the unscoped figure on a warehouse of the games before X only —
    the population and percentile included; as_of(X) too."""
    games = _ordered_games(seeded)
    ties = [i for i, (s, _) in enumerate(games) if sum(s == t for t, _ in games) > 1]
    for i in (ties[len(ties) // 2], len(games) // 3, 2 * len(games) // 3):
        x = games[i][1]
        earlier = _only(seeded, {g for _, g in games[:i]})
        scope = Scope(before=x)
        for player in _some_players(seeded, 5):
            assert (T.player_tendencies(seeded, player, scope=scope).to_pylist()
                    == T.player_tendencies(earlier, player).to_pylist())
            assert (T.partnerships(seeded, player, scope=scope).to_pylist()
                    == T.partnerships(earlier, player).to_pylist())
            assert (T.tendencies_by(seeded, player, "gouji", "opposite", scope).to_pylist()
                    == T.tendencies_by(earlier, player, "gouji", "opposite").to_pylist())
            for fn in (q.player_results, q.results_over_time, q.player_games):
                assert (fn(seeded, player, scope=scope).to_pylist()
                        == fn(earlier, player).to_pylist()), fn.__name__
            for by in q.RESULT_DIMENSIONS:
                assert (q.results_by(seeded, player, by, scope=scope).to_pylist()
                        == q.results_by(earlier, player, by).to_pylist())
        _assert_as_of(seeded, earlier, x)


def _assert_as_of(con, earlier, game_id: str) -> None:
    """as_of(game_id) on the whole corpus is, seat by seat, the key tendencies of the seat's
    player on the warehouse of the earlier games (n = 0 where the player had no chance)."""
    rows = T.as_of(con, game_id).to_pylist()
    seats = con.sql("SELECT s.seat, s.player_id, g.game FROM seats s JOIN games g USING "
                    "(game_id) WHERE game_id = ? ORDER BY seat", params=[game_id]).fetchall()
    game = seats[0][2]
    keys = T.KEY_TENDENCIES[game]
    assert [(r["seat"], r["player_id"], r["tendency"]) for r in rows] == [
        (s, p, k) for s, p, _ in seats for k in keys]
    pop = {t: None for t in keys}
    figures: dict[str, dict[str, dict]] = {}      # each seat's player's, asked once
    for r in rows:
        if r["player_id"] not in figures:
            figures[r["player_id"]] = {w["tendency"]: w for w in T.player_tendencies(
                earlier, r["player_id"], game).to_pylist()}
        want = figures[r["player_id"]].get(r["tendency"])
        (games,) = earlier.sql("SELECT count(*) FROM seats JOIN games USING (game_id) WHERE "
                               "player_id = ? AND game = ?", params=[r["player_id"], game]
                               ).fetchall()[0]
        assert r["games"] == games
        if want is None:
            assert (r["n"], r["k"], r["rate"]) == (0, 0, None)
        else:
            assert {c: r[c] for c in ("n", "k", "rate", "low", "high", "population_rate",
                                      "percentile")} == {
                c: want[c] for c in ("n", "k", "rate", "low", "high", "population_rate",
                                     "percentile")}
        pop[r["tendency"]] = pop[r["tendency"]] or r["population_rate"]
    assert all(0 <= (p or 0) <= 1 for p in pop.values())


def test_key_tendencies_are_in_the_catalog():
    names = {t.name for t in T.CATALOG}
    for game, keys in T.KEY_TENDENCIES.items():
        # issue 26: the HUD's 4–6 per shipped game (the test-only game has two)
        assert (4 <= len(keys) <= 6 or game not in BUILT_IN) and set(keys) <= names
        assert all(k.startswith(f"{game}.") for k in keys)
    assert set(T.KEY_TENDENCIES) == {t.game for t in T.CATALOG}
    assert T.as_of(hand_corpus(), "no-such-game").num_rows == 0
