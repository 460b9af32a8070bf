"""The tendency catalog and its figures: every tendency against a handful of rows counted by
hand, a small hand corpus for the population rate, percentiles, the relation / side /
teammate / opposite splits and partnerships, the Wilson interval against a known value, and the
SQL and Polars forms agreeing exactly on a seeded self-play corpus of every game."""

from __future__ import annotations

import importlib
import json
import math
import re
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from engine.decisions import DECISIONS_ARROW, decisions_module, decisions_of_games
from engine.games import GAMES, find_game, package_of
from engine.replay import Replay
from engine.sim import simulate
from engine.tendency import option
from ingest.project import game_row, seat_rows, start_payload
from tests.warehouse import tendencies_lazy as TL
from warehouse import schema
from warehouse import tendencies as T
from warehouse.db import SAFE_CONFIG

T0 = datetime(2026, 1, 1, tzinfo=UTC)
TESTS = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- loading rows by hand

def decision_row(**kw) -> dict:
    """A decisions row for player P with defaults for what a case does not care about."""
    row = {"game_id": "h", "game": "keng", "seq": 1, "seat": 0, "player_id": "P",
           "options": [], "chosen": "none", "cards": [], "hand": 5, "phase": "p", "side": None,
           "can_answer": False, "top_seat": -1, "top_relation": "none", "tags": []}
    row.update(kw)
    return row


def game_rows(game_id: str, game: str, seats: int = 6, reason: str | None = None,
              result: dict | None = None) -> dict:
    """A games row with defaults."""
    return {"game_id": game_id, "game": game, "rules_version": "x", "options": "{}",
            "players": [f"s{i}" for i in range(seats)], "session": None,
            "previous_game": None, "opener": None, "started": T0, "ended": T0, "events": 1,
            "seats": seats, "reason": reason, "winning_side": None, "winners": [],
            "result": None if result is None else json.dumps(result), "final_digest": b"",
            "source_file": "hand", "run_id": 0}


def seat_row(game_id: str, seat: int, player: str, side: str | None = None,
             place: int | None = None, result: str = "loss", score: int = 0) -> dict:
    """A seats row."""
    return {"game_id": game_id, "seat": seat, "player_id": player, "side": side,
            "place": place, "result": result, "score": score, "cards_left": None}


def warehouse(decisions=(), games=(), seats=()) -> duckdb.DuckDBPyConnection:
    """An in-memory warehouse (external access off) holding these rows."""
    con = duckdb.connect(":memory:", config=dict(SAFE_CONFIG))
    for ddl in schema.DDL:
        con.execute(ddl)
    for name, rows, arrow in (("decisions", decisions, DECISIONS_ARROW),
                              ("games", games, schema.GAMES_ARROW),
                              ("seats", seats, schema.SEATS_ARROW)):
        if isinstance(rows, pa.Table):
            tbl = rows
        else:
            tbl = pa.Table.from_pylist(list(rows), schema=arrow)
        con.register("_rows", tbl)
        con.execute(f"INSERT INTO {name} SELECT * FROM _rows")
        con.unregister("_rows")
    return con


_FRAMES: dict[int, tuple[duckdb.DuckDBPyConnection, dict]] = {}


def both(con, fn: str, *args, **kw) -> list[dict]:
    """The SQL figures, asserted equal to the Polars ones (exactly); as a list of dicts."""
    sql = getattr(T, fn)(con, *args, **kw).to_pylist()
    if _FRAMES.get(id(con), (None,))[0] is not con:
        _FRAMES[id(con)] = (con, TL.frames_from(con))
    lazy = getattr(TL, f"{fn}_lazy")(_FRAMES[id(con)][1], *args, **kw)
    assert lazy.collect().to_dicts() == sql
    return sql


# ---------------------------------------------------------------- every tendency, by hand

D = dict
# tendency -> (rows of player P, n, k). n counts the rows where the opportunity holds, k those
# where the success holds too; each row says which it is: o = opportunity only, s = both,
# - = neither. Results rows are (place, result, reason, decider, dianpao) of one game each.
CASES = {
    "keng.stacks": ([D(options=["accept", "stack_k"], chosen="stack_k"),                  # s
                     D(options=["accept", "stack_rj"], chosen="accept"),                  # o
                     D(options=["accept", "stack_k", "stack_rj"], chosen="stack_rj"),     # s
                     D(options=["king", "number"], chosen="number")], 3, 2),              # -
    "keng.stacks_k": ([D(options=["accept", "stack_k"], chosen="stack_k"),                # s
                       D(options=["accept", "stack_k", "stack_rj"], chosen="stack_rj"),   # o
                       D(options=["accept", "stack_rj"], chosen="stack_rj")], 2, 1),      # -
    "keng.snatches": ([D(options=["let", "snatch"], chosen="snatch"),                     # s
                       D(options=["let", "snatch"], chosen="let"),                        # o
                       D(options=["let", "snatch"], chosen="let"),                        # o
                       D(options=["number", "jack"], chosen="number")], 3, 1),            # -
    "keng.duels": ([D(options=["duel", "number"], chosen="duel"),                         # s
                    D(options=["duel", "number"], chosen="number"),                       # o
                    D(options=["duel_ace", "duel_number"], chosen="duel_ace")], 2, 1),    # -
    "keng.misses_report": ([D(options=["miss_report", "report"], chosen="report"),        # o
                            D(options=["miss_report", "report"], chosen="miss_report"),   # s
                            D(options=["miss_report", "report"], chosen="miss_report")],  # s
                           3, 2),
    "keng.names_most_held": ([D(chosen="big_joker", tags=["named_most_held"]),            # s
                              D(chosen="small_joker", tags=["named_other", "pair"]),      # o
                              D(chosen="number", tags=["pair"])], 2, 1),                  # -
    "keng.attacks": ([D(options=["king", "number"], chosen="king"),                       # s
                      D(options=["king", "number"], chosen="number"),                     # o
                      D(options=["accept", "stack_k"], chosen="stack_k")], 2, 1),         # -
    "keng.attacks_low": ([D(options=["king", "number"], chosen="king", tags=["next_low"]),  # s
                          D(options=["big_joker", "number"], chosen="number",
                            tags=["next_low"]),                                           # o
                          D(options=["king", "number"], chosen="king")], 2, 1),           # -
    "keng.keeps_functions": ([D(options=["jack", "number"], chosen="number"),             # s
                              D(options=["number", "queen"], chosen="queen"),             # o
                              D(options=["draw", "number"], chosen="number"),             # -
                              D(options=["jack", "queen"], chosen="jack")], 2, 1),        # -
    "keng.plays_after_draw": ([D(options=["number", "pass"], chosen="number"),            # s
                               D(options=["jack", "pass"], chosen="pass"),                # o
                               D(options=["draw", "number"], chosen="draw")], 2, 1),      # -
    "keng.duel_aces": ([D(options=["duel_ace", "duel_number"], chosen="duel_ace"),        # s
                        D(options=["duel_ace", "duel_number"], chosen="duel_number"),     # o
                        D(options=["duel", "number"], chosen="duel")], 2, 1),             # -
    "keng.goes_out": ([(None, "win", "out", True, False),                                 # s
                       (None, "loss", "out", False, False),                               # o
                       (None, "loss", "over_limit", True, False)], 3, 1),                 # o
    "keng.over_limit": ([(None, "win", "out", True, False),                               # o
                         (None, "loss", "out", False, False),                             # o
                         (None, "loss", "over_limit", True, False)], 3, 1),               # s
    "gouji.answers_opposite": ([D(options=["answer", "pass"], chosen="answer",
                                  top_relation="opposite", tags=["top_gouji"]),           # s
                                D(options=["answer", "pass"], chosen="pass",
                                  top_relation="opposite", tags=["top_gouji"]),           # o
                                D(options=["answer", "pass"], chosen="answer",
                                  top_relation="opposite"),                               # -
                                D(options=["answer", "pass"], chosen="answer",
                                  top_relation="teammate", tags=["top_gouji"])], 2, 1),   # -
    "gouji.yields": ([D(options=["pass", "rang"], chosen="rang"),                         # s
                      D(options=["answer", "pass", "rang"], chosen="answer"),             # o
                      D(options=["answer", "pass"], chosen="pass")], 2, 1),               # -
    "gouji.burns": ([D(options=["burn", "pass"], chosen="burn"),                          # s
                     D(options=["burn", "pass"], chosen="pass"),                          # o
                     D(options=["answer", "pass"], chosen="answer")], 2, 1),              # -
    "gouji.opens": ([D(options=["kaidian", "lead"], chosen="kaidian"),                    # s
                     D(options=["kaidian", "lead"], chosen="lead"),                       # o
                     D(options=["lead", "lead_gouji"], chosen="lead")], 2, 1),            # -
    "gouji.first": ([(1, "win", None, False, False),                                      # s
                     (6, "loss", None, False, False),                                     # o
                     (3, "win", None, False, False)], 3, 1),                              # o
    "gouji.last": ([(1, "win", None, False, False),                                       # o
                    (6, "loss", None, False, False),                                      # s
                    (3, "win", None, False, False)], 3, 1),                               # o
    "gouji.leads_gouji": ([D(options=["lead", "lead_gouji"], chosen="lead_gouji"),        # s
                           D(options=["kaidian", "lead", "lead_gouji"], chosen="lead"),   # o
                           D(options=["false_burn", "lead_gouji"],
                             chosen="lead_gouji")], 2, 1),                                # -
    "gouji.relieves": ([D(options=["answer", "pass"], chosen="answer",
                          top_relation="opposite", tags=["top_burner"]),                  # s
                        D(options=["answer", "pass"], chosen="pass",
                          top_relation="opposite", tags=["top_burner"]),                  # o
                        D(options=["answer", "pass"], chosen="answer",
                          top_relation="opponent", tags=["top_burner"])], 2, 1),          # -
    "gouji.covers_teammate": ([D(options=["answer", "pass"], chosen="answer",
                                 top_relation="teammate"),                                # s
                               D(options=["burn", "pass"], chosen="pass",
                                 top_relation="teammate"),                                # o
                               D(options=["burn", "pass"], chosen="burn",
                                 top_relation="teammate"),                                # s
                               D(options=["answer", "pass"], chosen="answer",
                                 top_relation="opposite")], 3, 2),                        # -
    "gouji.answers_ordinary": ([D(options=["answer", "pass"], chosen="answer"),           # s
                                D(options=["answer", "pass"], chosen="pass"),             # o
                                D(options=["answer", "pass"], chosen="answer",
                                  tags=["top_gouji"])], 2, 1),                            # -
    "gouji.false_burns": ([D(options=["false_burn", "lead_gouji"],
                             chosen="false_burn"),                                        # s
                           D(options=["false_burn", "lead"], chosen="lead"),              # o
                           D(options=["lead", "lead_gouji"], chosen="lead")], 2, 1),      # -
    "gouji.agrees": ([D(options=["agree", "refuse"], chosen="agree"),                     # s
                      D(options=["agree", "refuse"], chosen="refuse"),                    # o
                      D(options=["no_xuandian", "xuandian"], chosen="xuandian")], 2, 1),  # -
    "liuhu.claims_hu": ([D(options=["hu", "pass"], chosen="hu"),                        # s
                         D(options=["hu", "pass", "peng"], chosen="pass"),               # o
                         D(options=["pass", "peng"], chosen="peng")], 2, 1),             # -
    "liuhu.passes_hu": ([D(options=["hu", "pass"], chosen="pass"),                      # s
                         D(options=["hu", "pass"], chosen="hu"),                         # o
                         D(options=["chi", "pass"], chosen="pass")], 2, 1),              # -
    "liuhu.zimo": ([D(options=["discard", "zimo"], chosen="zimo"),                      # s
                    D(options=["an_gang", "discard", "zimo"], chosen="discard"),         # o
                    D(options=["an_gang", "discard"], chosen="an_gang")], 2, 1),         # -
    "liuhu.pengs": ([D(options=["pass", "peng"], chosen="peng"),                        # s
                     D(options=["chi", "pass", "peng"], chosen="chi"),                   # o
                     D(options=["hu", "pass", "peng"], chosen="peng")], 2, 1),           # -
    "liuhu.chis": ([D(options=["chi", "pass"], chosen="chi"),                           # s
                    D(options=["chi", "pass"], chosen="pass"),                           # o
                    D(options=["chi", "pass", "peng"], chosen="chi")], 2, 1),            # -
    "liuhu.gangs": ([D(options=["gang", "pass", "peng"], chosen="gang"),                # s
                     D(options=["gang", "pass", "peng"], chosen="peng"),                 # o
                     D(options=["pass", "peng"], chosen="peng")], 2, 1),                 # -
    "liuhu.an_gangs": ([D(options=["an_gang", "discard"], chosen="an_gang"),            # s
                        D(options=["an_gang", "discard"], chosen="discard"),             # o
                        D(options=["discard", "jia_gang"], chosen="jia_gang")], 2, 1),   # -
    "liuhu.jia_gangs": ([D(options=["discard", "jia_gang"], chosen="jia_gang"),         # s
                         D(options=["discard", "jia_gang"], chosen="discard"),           # o
                         D(options=["an_gang", "discard"], chosen="an_gang")], 2, 1),    # -
    "liuhu.discards_drawn": ([D(options=["an_gang", "discard"], chosen="discard",
                                tags=["just_drawn"]),                                   # s
                              D(options=["discard", "zimo"], chosen="discard"),          # o
                              D(options=["discard", "zimo"], chosen="zimo",
                                tags=["dealer"])], 2, 1),                                # -
    "liuhu.wins": ([(None, "win", "win", False, False),                                 # s
                    (None, "loss", "win", False, False),                                 # o
                    (None, "draw", "liuju", False, False)], 3, 1),                       # o
    "modaoshuang.feints": ([D(options=["feint", "follow"], chosen="feint"),               # s
                            D(options=["feint", "follow"], chosen="follow"),              # o
                            D(options=["draw", "joker"], chosen="draw")], 2, 1),          # -
    "modaoshuang.plays_joker": ([D(options=["follow", "joker"], chosen="joker"),          # s
                                 D(options=["draw", "joker"], chosen="draw"),             # o
                                 D(options=["follow", "joker_violation"],
                                   chosen="joker_violation")], 2, 1),                     # -
    "modaoshuang.reports": ([D(options=["miss_report", "report"], chosen="report"),       # s
                             D(options=["miss_report", "report"], chosen="miss_report"),  # o
                             D(options=["miss_report", "report"], chosen="report")],      # s
                            3, 2),
    "modaoshuang.dianpao": ([(None, "loss", "out", False, True),                          # s
                             (None, "loss", "out", False, False),                         # o
                             (1, "win", "out", False, False)], 2, 1),                     # -
    "modaoshuang.violates_joker": ([D(options=["follow", "joker_violation"],
                                      chosen="joker_violation"),                          # s
                                    D(options=["joker", "joker_violation"],
                                      chosen="joker"),                                    # o
                                    D(options=["follow", "joker"], chosen="joker")], 2, 1),  # -
    "modaoshuang.gives": ([D(options=["gift", "no_gift"], chosen="gift"),                 # s
                           D(options=["gift", "no_gift"], chosen="no_gift")], 2, 1),      # o
    "modaoshuang.dumps_final": ([D(options=["follow", "no_play"], chosen="follow",
                                   phase="final"),                                        # s
                                 D(options=["follow", "no_play"], chosen="no_play",
                                   phase="final"),                                        # o
                                 D(options=["follow", "no_play"], chosen="follow",
                                   phase="shou")], 2, 1),                                 # -
    "modaoshuang.tops": ([D(chosen="follow", tags=["could_top", "tops"]),                 # s
                          D(chosen="follow", tags=["could_top"]),                         # o
                          D(chosen="follow", tags=["round1"])], 2, 1),                    # -
    "modaoshuang.draws_for_joker": ([D(options=["draw", "joker"], chosen="draw"),         # s
                                     D(options=["draw", "joker"], chosen="joker"),        # o
                                     D(options=["feint", "joker"], chosen="feint")], 2, 1),  # -
    "modaoshuang.keeps_joker": ([D(options=["joker", "no_play"], chosen="no_play",
                                   phase="shou"),                                         # s
                                 D(options=["joker", "no_play"], chosen="joker",
                                   phase="shou"),                                         # o
                                 D(options=["joker", "no_play"], chosen="no_play",
                                   phase="draw")], 2, 1),                                 # -
    "modaoshuang.wins": ([(1, "win", "out", False, False),                                # s
                          (None, "loss", "out", False, False)], 2, 1),                    # o
}


def _case_warehouse(t: T.Tendency, rows: list) -> duckdb.DuckDBPyConnection:
    if t.source == "decisions":
        return warehouse([decision_row(game=t.game, seq=i, **r) for i, r in enumerate(rows)])
    games, seats = [], []
    for i, (place, result, reason, decider, dianpao) in enumerate(rows):
        facts = {"deciding_seat": 2 if decider else 4, "dianpao": 2 if dianpao else None}
        games.append(game_rows(f"r{i}", t.game, reason=reason, result=facts))
        seats.append(seat_row(f"r{i}", 2, "P", place=place, result=result))
    return warehouse(games=games, seats=seats)


def game_cases() -> dict:
    """The hand-counted cases a game keeps with its test data: ``CASES`` of
    ``tests/games/<package>/tendency_cases.py``, for every registered game's package that has
    one (same form as CASES)."""
    out: dict = {}
    for package in sorted({package_of(g) for g in GAMES}):
        if (TESTS / "games" / package / "tendency_cases.py").is_file():
            out.update(importlib.import_module(f"tests.games.{package}.tendency_cases").CASES)
    return out


ALL_CASES = {**CASES, **game_cases()}


def test_every_tendency_has_a_hand_counted_case():
    from tests.warehouse.test_tendencies_ddz6 import DDZ6_CASES  # 六人斗地主's, with sides
    assert set(ALL_CASES) | set(DDZ6_CASES) == {t.name for t in T.CATALOG}


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_tendency_counts_by_hand(name):
    t = next(x for x in T.CATALOG if x.name == name)
    rows, n, k = ALL_CASES[name]
    assert_hand_counts(_case_warehouse(t, rows), t, n, k)


def assert_hand_counts(con, t, n: int, k: int) -> None:
    """Player P alone has t's n opportunities and k successes: SQL and Polars agree on n, k,
    the rate, its Wilson interval, and P as the whole population (50th of 1)."""
    got = {r["tendency"]: r for r in both(con, "player_tendencies", "P", t.game,
                                          min_opportunities=1, min_qualified=1)}
    r = got[t.name]
    assert (r["n"], r["k"]) == (n, k)
    assert r["rate"] == k / n and (r["low"], r["high"]) == pytest.approx(T.wilson(k, n), 1e-12)
    assert (r["population_rate"], r["percentile"], r["qualified"]) == (k / n, 50.0, 1)
    alone = {r["tendency"]: r for r in both(con, "player_tendencies", "P", t.game,
                                            min_opportunities=1)}[t.name]
    assert (alone["percentile"], alone["qualified"]) == (None, 1)   # no rank among one player


def test_the_catalog_uses_each_games_own_words():
    """At least eight tendencies per registered game; every quoted word of a predicate is one
    of the game's categories, tags, phases, relations or result words."""
    relations = {"none", "self", "teammate", "opposite", "opponent"}
    results = {"win", "loss", "draw", "out", "over_limit"}
    sides = {"landlord", "farmer"}                  # 六人斗地主's side names (DDZ-2)
    for game in GAMES:
        dm = decisions_module(game)
        words = {c for c, _ in dm.DECISIONS} | {t for t, _ in dm.TAGS} | set(dm.PHASES)
        ts = T.catalog(game)
        assert len(ts) >= 8, game
        prefix = find_game(game).RULE_PREFIX
        for t in ts:
            assert t.name.startswith(f"{game}.") and f"{prefix}-" in t.description, t.name
            quoted = set(re.findall(r"'([a-z_0-9]+)'", t.opportunity_sql + t.success_sql))
            assert quoted <= words | relations | results | sides, (t.name, quoted - words)
    assert len({t.name for t in T.CATALOG}) == len(T.CATALOG)
    with pytest.raises(ValueError, match="no tendencies for game"):
        T.player_tendencies(duckdb.connect(":memory:"), "P", "chess")
    with pytest.raises(ValueError):
        option("x' OR 1=1 --")


# ---------------------------------------------------------------- Wilson

def test_wilson_against_a_known_value():
    low, high = T.wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert T.wilson(0, 10)[0] == 0.0 and T.wilson(10, 10)[1] == 1.0
    assert all(map(math.isnan, T.wilson(0, 0)))     # no opportunity, no interval
    con = duckdb.connect(":memory:", config=dict(SAFE_CONFIG))
    low_sql, high_sql = T._wilson_sql("k", "n")
    (got,) = con.execute(f"SELECT {low_sql}, {high_sql} FROM (SELECT 8 AS k, 10 AS n)"
                         ).fetchall()
    assert got == T.wilson(8, 10)


# ---------------------------------------------------------------- a hand corpus of players

def hand_corpus(starts: dict[str, datetime] | None = None) -> duckdb.DuckDBPyConnection:
    """Two 六人坑 games, both started at T0 unless ``starts`` says otherwise. g1: A B C D E F
    at seats 0-5 (even: A C E); A decides it by going out, even wins. g2: B A C D E F (odd:
    A D F); A goes over the limit, odd loses.

    | row | game | seat | player | options | chosen | top relation | tags |
    | 1 | g1 | 0 | A | accept stack_k | stack_k | opponent | |
    | 2 | g1 | 0 | A | accept stack_k stack_rj | accept | opposite | |
    | 3 | g1 | 2 | C | accept stack_rj | stack_rj | opponent | named_most_held |
    | 4 | g1 | 0 | A | let snatch | snatch | teammate | |
    | 5 | g1 | 4 | E | let snatch | let | teammate | |
    | 6 | g1 | 1 | B | accept stack_k | stack_k | opponent | |
    | 7 | g2 | 1 | A | accept stack_k | accept | opponent | |
    | 8 | g2 | 1 | A | big_joker number | big_joker | opponent | named_other |
    | 9 | g2 | 0 | B | accept stack_rj | stack_rj | opposite | named_most_held |
    """
    rows = [("g1", 0, "A", ["accept", "stack_k"], "stack_k", "opponent", []),
            ("g1", 0, "A", ["accept", "stack_k", "stack_rj"], "accept", "opposite", []),
            ("g1", 2, "C", ["accept", "stack_rj"], "stack_rj", "opponent", ["named_most_held"]),
            ("g1", 0, "A", ["let", "snatch"], "snatch", "teammate", []),
            ("g1", 4, "E", ["let", "snatch"], "let", "teammate", []),
            ("g1", 1, "B", ["accept", "stack_k"], "stack_k", "opponent", []),
            ("g2", 1, "A", ["accept", "stack_k"], "accept", "opponent", []),
            ("g2", 1, "A", ["big_joker", "number"], "big_joker", "opponent", ["named_other"]),
            ("g2", 0, "B", ["accept", "stack_rj"], "stack_rj", "opposite", ["named_most_held"])]
    decisions = [decision_row(game_id=g, seq=i, seat=seat, player_id=p, options=o, chosen=c,
                              top_relation=rel, tags=tags, side=("even", "odd")[seat % 2])
                 for i, (g, seat, p, o, c, rel, tags) in enumerate(rows)]
    order = {"g1": "ABCDEF", "g2": "BACDEF"}
    games = [game_rows("g1", "keng", reason="out", result={"deciding_seat": 0}),
             game_rows("g2", "keng", reason="over_limit", result={"deciding_seat": 1})]
    for row in games:
        row["started"] = row["ended"] = (starts or {}).get(row["game_id"], T0)
    win = {"g1": "even", "g2": "even"}
    seats = [seat_row(g, i, p, ("even", "odd")[i % 2],
                      result="win" if ("even", "odd")[i % 2] == win[g] else "loss")
             for g, players in order.items() for i, p in enumerate(players)]
    return warehouse(decisions, games, seats)


def test_player_figures_on_the_hand_corpus():
    """A, with at least 2 opportunities to qualify. stacks: A rows 1 2 7 (n 3, k 1), B rows 6 9
    (2, 2), C row 3 (1, 1): population 4/6; qualified A 1/3 and B 1: A is below B, 25th.
    stacks_k: A rows 1 2 7 (3, 1), B row 6 (1, 1): 2/4; A alone qualifies: 50th. snatches: A
    row 4 (1, 1), E row 5 (1, 0): 1/2, nobody qualifies. names_most_held: A row 8 (1, 0), B, C
    (1, 1) each: 2/3. keeps_functions: A row 8 (1, 0) alone: 0. goes_out and over_limit: every
    player 2 games, A decided g1 by going out and lost g2 over the limit: A 1 of 2, the five
    others 0 of 2: 1/12, A above 5 and level with himself: (5 + 0.5) / 6. (A percentile among
    so few players is shown here with min_qualified=1; by default it needs MIN_QUALIFIED.)"""
    rows = both(hand_corpus(), "player_tendencies", "A", "keng", min_opportunities=2,
                min_qualified=1)
    got = {r["tendency"][5:]: (r["n"], r["k"], r["population_rate"], r["percentile"],
                               r["qualified"]) for r in rows}
    assert got == {
        "stacks": (3, 1, 4 / 6, 25.0, 2),
        "stacks_k": (3, 1, 2 / 4, 50.0, 1),
        "snatches": (1, 1, 1 / 2, None, 0),
        "names_most_held": (1, 0, 2 / 3, None, 0),
        "keeps_functions": (1, 0, 0.0, None, 0),
        "goes_out": (2, 1, 1 / 12, 100 * 5.5 / 6, 6),
        "over_limit": (2, 1, 1 / 12, 100 * 5.5 / 6, 6),
    }
    assert [r["tendency"][5:] for r in rows] == list(got)          # catalog order
    assert both(hand_corpus(), "player_tendencies", "nobody") == []


def _split(con, by: str, tendency: str) -> dict:
    rows = both(con, "tendencies_by", "A", "keng", by=by)
    return {r["grp"]: (r["n"], r["k"]) for r in rows if r["tendency"] == f"keng.{tendency}"}


def test_splits_on_the_hand_corpus():
    """A's stacks (rows 1 2 7) by the top play's relation: opponent rows 1 7 (2, 1), opposite
    row 2 (1, 0); by side: even rows 1 2 of g1 (2, 1), odd row 7 of g2 (1, 0); by teammate:
    C and E in g1 (2, 1) each, D and F in g2 (1, 0) each; by opposite: D (seat 3) in g1
    (2, 1), E (seat 4) in g2 (1, 0). goes_out by opposite: D (1, 1), E (1, 0); results rows
    have no top play, so no relation split."""
    con = hand_corpus()
    assert _split(con, "relation", "stacks") == {"opponent": (2, 1), "opposite": (1, 0)}
    assert _split(con, "relation", "snatches") == {"teammate": (1, 1)}
    assert _split(con, "relation", "goes_out") == {}
    assert _split(con, "side", "stacks") == {"even": (2, 1), "odd": (1, 0)}
    assert _split(con, "teammate", "stacks") == {"C": (2, 1), "E": (2, 1), "D": (1, 0),
                                                "F": (1, 0)}
    assert _split(con, "opposite", "stacks") == {"D": (2, 1), "E": (1, 0)}
    assert _split(con, "opposite", "goes_out") == {"D": (1, 1), "E": (1, 0)}
    rel = T.tendencies_by_relation(con, "A", "keng").to_pylist()
    assert rel == T.tendencies_by(con, "A", "keng", "relation").to_pylist()
    with pytest.raises(ValueError, match="by must be one of"):
        T.tendencies_by(con, "A", "keng", by="moon")


def test_partnerships_on_the_hand_corpus():
    """A won g1 (even, with C and E, D opposite) and lost g2 (odd, with D and F, E
    opposite)."""
    rows = both(hand_corpus(), "partnerships", "A")
    got = [(r["relation"], r["partner"], r["games"], r["wins"]) for r in rows]
    assert got == [("opposite", "D", 1, 1), ("opposite", "E", 1, 0), ("teammate", "C", 1, 1),
                   ("teammate", "D", 1, 0), ("teammate", "E", 1, 1), ("teammate", "F", 1, 0)]
    assert rows[0]["win_rate"] == 1.0 and (rows[0]["low"], rows[0]["high"]) == \
        pytest.approx(T.wilson(1, 1), 1e-12)
    assert both(hand_corpus(), "partnerships", "A", "gouji") == []


def test_a_drawn_game_counts_neither_way_in_partnerships():
    """With g2 drawn, A's g2 partners (D, F as teammates, E opposite) have one game, no win,
    no loss, one draw, nothing decided: no win rate, not 0%; g1's are unchanged."""
    con = hand_corpus()
    con.execute("UPDATE seats SET result = 'draw' WHERE game_id = 'g2'")
    rows = {(r["relation"], r["partner"]): r for r in both(con, "partnerships", "A")}
    for key in (("teammate", "D"), ("teammate", "F"), ("opposite", "E")):
        r = rows[key]
        assert (r["games"], r["wins"], r["losses"], r["draws"], r["decided"]) == (1, 0, 0, 1, 0)
        assert r["win_rate"] is None and r["low"] is None and r["high"] is None
    c = rows[("teammate", "C")]
    assert (c["games"], c["wins"], c["decided"], c["win_rate"]) == (1, 1, 1, 1.0)


# ---------------------------------------------------------------- a seeded corpus

SEEDED = {"keng": (30, None), "gouji": (4, None), "modaoshuang": (30, {"mds_players": 4})}


def seeded_warehouse(spec: dict, seed: int, session_games: int = 1) -> duckdb.DuckDBPyConnection:
    """Self-play of each game of ``spec`` (game -> (games, options)), its decisions replayed
    through the engine and its games and seats projected as ingest does, in one in-memory
    warehouse."""
    tables, games, seats = [], [], []
    for game, (n, opts) in spec.items():
        g = find_game(game)
        sims = list(simulate(game, n, seed=seed, options=g.Options(**opts) if opts else None,
                             session_games=session_games))
        tables.append(decisions_of_games([x.events for x in sims]))
        for x in sims:
            p = start_payload(x.events[0])
            games.append({**game_row(x.events, p, g, x.final, "seeded"), "run_id": 0})
            seats += seat_rows(x.events[0].game_id, p, g, x.final)
    for row in games:
        row["started"] = datetime.fromtimestamp(row["started"] / 1e6, UTC)
        row["ended"] = datetime.fromtimestamp(row["ended"] / 1e6, UTC)
    return warehouse(pa.concat_tables(tables), games, seats)


@pytest.fixture(scope="module")
def seeded() -> duckdb.DuckDBPyConnection:
    """Self-play of every game (SEEDED) in one in-memory warehouse."""
    return seeded_warehouse(SEEDED, seed=31, session_games=4)


def test_sql_and_polars_agree_on_a_seeded_corpus(seeded):
    players = [r[0] for r in seeded.sql("SELECT DISTINCT player_id FROM seats ORDER BY 1")
               .fetchall()]
    some = 0
    for player in players[::3]:
        rows = both(seeded, "player_tendencies", player)
        some += sum(r["percentile"] is not None for r in rows)
        assert all(0 <= r["low"] <= r["rate"] <= r["high"] <= 1 for r in rows)
    assert some > 10                      # enough players reach MIN_OPPORTUNITIES
    split: set[tuple[str, str]] = set()
    for player in players[:3]:
        for game in SEEDED:
            for by in T.BY:
                if both(seeded, "tendencies_by", player, game, by=by):
                    split.add((game, by))
        assert both(seeded, "partnerships", player)
    # 摸到爽 has no sides and no opposite seat (MDS-6): only its relation and side splits
    assert {(g, b) for g in SEEDED for b in T.BY} - split == {
        ("modaoshuang", "teammate"), ("modaoshuang", "opposite")}


def test_seeded_totals_match_the_decisions(seeded):
    """The opportunities of a tendency summed over players are the rows of its predicate."""
    for game in SEEDED:
        players = [r[0] for r in seeded.sql("SELECT DISTINCT player_id FROM seats s JOIN games "
                                            "g USING (game_id) WHERE g.game = ?",
                                            params=[game]).fetchall()]
        got: dict[str, int] = {}
        for p in players:
            for r in T.player_tendencies(seeded, p, game).to_pylist():
                got[r["tendency"]] = got.get(r["tendency"], 0) + r["n"]
        for t in T.catalog(game):
            src = "decisions" if t.source == "decisions" else f"({T.results_sql()})"
            ((want,),) = seeded.execute(f"SELECT count(*) FROM {src} WHERE game = ? AND "
                                        f"{t.opportunity_sql}", [game]).fetchall()
            assert got.get(t.name, 0) == want, t.name


# ---------------------------------------------------------------- stored counts (schema 5)

def _all_figures(con) -> tuple[list[dict], dict[str, float]]:
    players = [r[0] for r in con.sql("SELECT DISTINCT player_id FROM seats ORDER BY 1")
               .fetchall()]
    return (T.figures(con, players, T.catalog()).to_pylist(),
            T.population(con, T.catalog()))


def test_stored_counts_give_the_figures_of_the_scan(seeded):
    """write_counts stores what the scan of decisions counts: every player's figures (rate,
    interval, population, percentile) are the same read from tendency_counts, which is used
    only while its catalog fingerprint is this catalog's."""
    from warehouse import queries as Q

    assert not T.counts_stored(seeded)
    scanned = _all_figures(seeded)
    players = sorted({r["player_id"] for r in scanned[0]})
    by = {(p, d): Q.results_by(seeded, p, d) for p in players[:8] for d in Q.RESULT_DIMENSIONS}
    try:
        rows = T.write_counts(seeded)
        assert {k: Q.results_by(seeded, *k) for k in by} == by        # read from result_counts
        assert seeded.sql("SELECT count(*) FROM result_counts").fetchall()[0][0] > 0
        assert rows == seeded.sql("SELECT count(*) FROM tendency_counts").fetchall()[0][0] > 0
        assert T.counts_stored(seeded)
        assert _all_figures(seeded) == scanned
        scoped = T.player_tendencies(seeded, scanned[0][0]["player_id"], scope=T.Scope(seat=0))
        seeded.execute("UPDATE result_counts SET wins = 0")
        assert all(r["population_rate"] in (0.0, None) for k in by
                   for r in Q.results_by(seeded, *k).to_pylist())
        seeded.execute("UPDATE tendency_counts SET k = 0")        # the stored copy is what
        assert _all_figures(seeded) != scanned                    # an unscoped query reads,
        assert T.player_tendencies(seeded, scanned[0][0]["player_id"],   # never a scoped one
                                   scope=T.Scope(seat=0)) == scoped
        seeded.execute("UPDATE meta SET value = 'another catalog' WHERE key = ?",
                       [T.CATALOG_META])
        assert not T.counts_stored(seeded) and _all_figures(seeded) == scanned
        assert {k: Q.results_by(seeded, *k) for k in by} == by
    finally:
        seeded.execute("DELETE FROM tendency_counts")
        seeded.execute("DELETE FROM result_counts")
        seeded.execute("DELETE FROM meta WHERE key = ?", [T.CATALOG_META])


def test_each_ingest_run_recounts_the_whole_warehouse(tmp_path):
    """A second run that adds games leaves tendency_counts equal to a count over all the
    games (not only the new ones); a run that loads nothing leaves it as it was."""
    from engine.log import write_log
    from ingest import ingest_paths
    from warehouse.db import reader

    games = [x.events for x in simulate("keng", 12, seed=77)]
    db = tmp_path / "w.duckdb"
    for i, part in enumerate((games[:5], games[5:])):
        (tmp_path / f"logs{i}").mkdir()
        write_log(tmp_path / f"logs{i}" / "g.arrows", part)
        ingest_paths([tmp_path / f"logs{i}"], db=db, progress=False, workers=1)
    again = ingest_paths([tmp_path / "logs1"], db=db, progress=False, workers=1)
    assert again.loaded == 0
    with reader(db) as con:
        assert T.counts_stored(con)
        stored = con.sql("SELECT game, tendency, player_id, n, k FROM tendency_counts "
                         "ORDER BY ALL").fetchall()
        sources, params = T._sources_sql(None)
        counted = con.sql(f"WITH {sources} SELECT game, tendency, player_id, n, k FROM "
                          f"({T._counts_sql(T.catalog())}) ORDER BY ALL", params=params).fetchall()
        assert stored == counted
        assert sum(r[3] for r in stored) > 0
        assert {r[2] for r in stored} == {p for g in games for p in Replay(g).final.players}
