"""The 六人斗地主 tendency catalogs (one per variant: ddz6_3v3, ddz6_2v4, ddz6_zhengfan): every
tendency against a handful of rows counted by hand (decisions rows, or results rows with the
seat's side), and every tendency's opportunity met on seeded self-play of its variant, with the
SQL and Polars figures agreeing exactly."""

from __future__ import annotations

import pytest

from engine.games import GAMES, package_of
from tests.warehouse.test_tendencies import (
    assert_hand_counts,
    both,
    decision_row,
    game_rows,
    seat_row,
    seeded_warehouse,
    warehouse,
)
from warehouse import tendencies as T

D = dict
# short name -> (rows of player P, n, k), the same rows for every variant that has the
# tendency. o = opportunity only, s = both, - = neither. Results rows are (side, result) of one
# game each.
SHORT_CASES = {
    "bids": ([D(options=["bid", "no_bid"], chosen="bid", phase="bidding"),              # s
              D(options=["bid", "no_bid"], chosen="no_bid", phase="bidding"),           # o
              D(options=["double", "no_double"], chosen="double")], 2, 1),              # -
    "doubles": ([D(options=["double", "no_double"], chosen="double", side="landlord"),  # s
                 D(options=["double", "no_double"], chosen="no_double"),                # o
                 D(options=["double", "no_double"], chosen="no_double", side="farmer"),  # o
                 D(options=["bid", "no_bid"], chosen="bid")], 3, 1),                    # -
    "doubles_as_farmer": ([D(options=["double", "no_double"], chosen="double",
                             side="farmer"),                                            # s
                           D(options=["double", "no_double"], chosen="no_double",
                             side="farmer"),                                            # o
                           D(options=["double", "no_double"], chosen="double",
                             side="landlord")], 2, 1),                                  # -
    "shows": ([D(options=["no_show", "show"], chosen="show", side="landlord"),          # s
               D(options=["no_show", "show"], chosen="no_show", side="landlord"),       # o
               D(options=["double", "no_double"], chosen="double")], 2, 1),             # -
    "joins_fan": ([D(options=["fan", "zheng"], chosen="fan", phase="sides"),            # s
                   D(options=["fan", "zheng"], chosen="zheng", phase="sides"),          # o
                   D(options=["fan", "zheng"], chosen="zheng", phase="sides"),          # o
                   D(options=["bid", "no_bid"], chosen="bid")], 3, 1),                  # -
    "bombs": ([D(options=["bomb", "pass"], chosen="bomb"),                              # s
               D(options=["bomb", "pass", "play"], chosen="play"),                      # o
               D(options=["bomb", "play"], chosen="bomb", tags=["lead"]),               # -
               D(options=["pass", "play"], chosen="play")], 2, 1),                      # -
    "bombs_when_only_bomb": ([D(options=["bomb", "pass"], chosen="bomb"),               # s
                              D(options=["bomb", "pass"], chosen="pass"),               # o
                              D(options=["bomb", "pass", "play"], chosen="bomb"),       # -
                              D(options=["bomb", "play"], chosen="bomb",
                                tags=["lead"])], 2, 1),                                 # -
    "leads_bomb": ([D(options=["bomb", "play"], chosen="bomb", tags=["lead"]),          # s
                    D(options=["bomb", "play"], chosen="play", tags=["lead"]),          # o
                    D(options=["bomb", "play"], chosen="play", tags=["foe_low", "lead"]),  # o
                    D(options=["bomb", "pass"], chosen="bomb")], 3, 1),                 # -
    "lets_partner_run": ([D(options=["pass", "play"], chosen="pass", top_relation="teammate",
                            tags=["partner_top"]),                                      # s
                          D(options=["bomb", "pass"], chosen="bomb", top_relation="teammate",
                            tags=["partner_top"]),                                      # o
                          D(options=["pass", "play"], chosen="pass",
                            top_relation="opponent"),                                   # -
                          D(options=["pass", "play"], chosen="play", top_relation="teammate",
                            tags=["foe_low", "partner_top"])], 3, 1),                   # o
    "contests": ([D(options=["pass", "play"], chosen="play", top_relation="opponent"),  # s
                  D(options=["bomb", "pass"], chosen="bomb", top_relation="opponent"),  # s
                  D(options=["pass", "play"], chosen="pass", top_relation="opponent"),  # o
                  D(options=["pass", "play"], chosen="play", top_relation="teammate",
                    tags=["partner_top"])], 3, 2),                                      # -
    "stops_foe_low": ([D(options=["pass", "play"], chosen="play", top_relation="opponent",
                         tags=["foe_low"]),                                             # s
                       D(options=["bomb", "pass"], chosen="pass", top_relation="opponent",
                         tags=["foe_low"]),                                             # o
                       D(options=["pass", "play"], chosen="play",
                         top_relation="opponent"),                                      # -
                       D(options=["pass", "play"], chosen="pass", top_relation="teammate",
                         tags=["foe_low", "partner_top"])], 2, 1),                      # -
    "wins_as_landlord": ([("landlord", "win"), ("landlord", "loss"),                    # s o
                          ("farmer", "win")], 2, 1),                                    # -
    "wins_as_farmer": ([("farmer", "win"), ("farmer", "loss"), ("farmer", "loss"),      # s o o
                        ("landlord", "win")], 3, 1),                                    # -
    "wins": ([("fan", "win"), ("zheng", "loss"), ("zheng", "win")], 3, 2),              # s o s
    "wins_fan": ([("fan", "win"), ("fan", "loss"), ("zheng", "win")], 2, 1),            # s o -
}
DDZ6_GAMES = tuple(g for g in GAMES if package_of(g) == "ddz6")
DDZ6_CASES = {t.name: SHORT_CASES[t.name.split(".", 1)[1]] for t in T.CATALOG
              if package_of(t.game) == "ddz6"}
VARIANT_TENDENCIES = {  # what each variant's catalog has beyond the six shared play ones
    "ddz6_3v3": {"bids", "doubles", "doubles_as_farmer", "wins_as_landlord", "wins_as_farmer"},
    "ddz6_2v4": {"bids", "shows", "wins_as_landlord", "wins_as_farmer"},
    "ddz6_zhengfan": {"shows", "joins_fan", "wins", "wins_fan"},
}
SHARED = {"bombs", "bombs_when_only_bomb", "leads_bomb", "lets_partner_run", "contests",
          "stops_foe_low"}


def _warehouse(t: T.Tendency, rows: list):
    if t.source == "decisions":
        return warehouse([decision_row(game=t.game, seq=i, **r) for i, r in enumerate(rows)])
    games = [game_rows(f"r{i}", t.game, reason="out") for i in range(len(rows))]
    seats = [seat_row(f"r{i}", 2, "P", side=side, result=result)
             for i, (side, result) in enumerate(rows)]
    return warehouse(games=games, seats=seats)


def test_each_variant_has_its_catalog():
    ddz6_games = {g for g in GAMES if package_of(g) == "ddz6"}
    assert set(VARIANT_TENDENCIES) == ddz6_games
    for game, extra in VARIANT_TENDENCIES.items():
        assert {t.name.split(".", 1)[1] for t in T.catalog(game)} == extra | SHARED, game
        assert all(t.game == game for t in T.catalog(game))
    assert set(DDZ6_CASES) == {t.name for t in T.CATALOG if t.game in ddz6_games}


@pytest.mark.parametrize("name", sorted(DDZ6_CASES))
def test_ddz6_tendency_counts_by_hand(name):
    t = next(x for x in T.CATALOG if x.name == name)
    rows, n, k = DDZ6_CASES[name]
    assert_hand_counts(_warehouse(t, rows), t, n, k)


@pytest.fixture(scope="module")
def seeded():
    """Twelve self-played games of each variant (its first conformance option set), decisions
    and seats projected as ingest does, in one in-memory warehouse."""
    return seeded_warehouse({game: (12, None) for game in DDZ6_GAMES}, seed=41,
                            session_games=8)


def test_every_ddz6_tendency_meets_its_opportunity_in_self_play(seeded):
    """The predicates match what the engine records: each tendency of each variant has
    opportunities (its side words, phases and tags are the ones the rows carry), and the
    successes are some but not all of them for the play choices the bots vary."""
    for game in DDZ6_GAMES:
        players = [r[0] for r in seeded.sql(
            "SELECT DISTINCT player_id FROM seats JOIN games USING (game_id) WHERE game = ? "
            "ORDER BY 1", params=[game]).fetchall()]
        n: dict[str, int] = {}
        k: dict[str, int] = {}
        for player in players:
            for r in both(seeded, "player_tendencies", player, game, min_opportunities=1):
                n[r["tendency"]] = n.get(r["tendency"], 0) + r["n"]
                k[r["tendency"]] = k.get(r["tendency"], 0) + r["k"]
        assert {t.name for t in T.catalog(game) if n.get(t.name, 0) == 0} == set(), game
        for short in ("bombs", "contests", "lets_partner_run"):
            assert 0 < k[f"{game}.{short}"] < n[f"{game}.{short}"], (game, short)
