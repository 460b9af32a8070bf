"""What seeing hidden cards buys (engine/fairplay.py) and the screen's sight signal
(warehouse/screen.py ``sight``, ``liujia screen --signal sight``)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine.cheats import AnswerKey, Plant
from engine.fairplay import Depth, game_insights, insight
from engine.games import find_game
from engine.log import write_log
from engine.sim import simulate
from ingest.run import ingest_paths
from liujia.cli import main
from tests.engine.test_review import _crafted, _play

GAME = "toy_tricks"


def _believing(g, seat1: str):
    """The game with a sampler that deals seat 1 these cards in every world."""
    fake, _ = _crafted(g, "As 2h", seat1)
    return dataclasses.replace(g, sample_world=lambda s, seat, rng, seen: fake.copy())


def test_a_decision_is_sensitive_where_the_hidden_cards_change_its_best(toy_game):
    # Truly seat 1 holds Ks 3h: only leading 2h wins (test_review's exact case). A seat
    # that believes it holds 3h 3c finds leading As better: 2h would lose trick one to 3h
    # and the last to 3c, As draws out the 3h. So the best choices differ.
    g = _believing(find_game(GAME), "3h 3c")
    s, seen = _crafted(g, "As 2h", "Ks 3h")
    depth = Depth(worlds=2, rollouts=2)
    lead_a = insight(g, s, 0, _play(g, s, "As"), seen, depth, random.Random(1))
    lead_2 = insight(g, s, 0, _play(g, s, "2h"), seen, depth, random.Random(1))
    assert lead_a is not None and lead_2 is not None
    assert lead_a.sensitive and lead_2.sensitive
    assert (lead_a.chose_true, lead_a.chose_info) == (False, True)
    assert (lead_2.chose_true, lead_2.chose_info) == (True, False)


def test_nothing_is_sensitive_when_the_worlds_are_the_truth(toy_game):
    g = find_game(GAME)
    s, seen = _crafted(g, "As 2h", "Ks 3h")
    truth = dataclasses.replace(g, sample_world=lambda st, seat, rng, seen_: s.copy())
    for face in ("As", "2h"):
        got = insight(truth, s, 0, _play(truth, s, face), seen, Depth(worlds=2, rollouts=2),
                      random.Random(3))
        assert got is not None and not got.sensitive and got.chose_true == got.chose_info


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Three greedy 六人坑 games with player 05 omniscient at every decision, ingested."""
    return _corpus(tmp_path_factory.mktemp("fairplay"), 3)


def _corpus(tmp_path, games: int):
    plants = (Plant("omniscient", ("player-05",), 1.0),)
    sims = list(simulate("keng", games, 3, policy_name="greedy", plants=plants,
                         key=AnswerKey("keng", 3, plants)))
    (tmp_path / "logs").mkdir()
    write_log(tmp_path / "logs" / "k.arrows", [x.events for x in sims])
    db = str(tmp_path / "w.duckdb")
    ingest_paths([tmp_path / "logs"], db, progress=False, workers=1)
    return sims, db


def test_every_seat_is_looked_at_as_often_and_the_same_seed_gives_the_same(corpus):
    sims, _ = corpus
    depth = Depth(per_seat=2)
    for i, sim in enumerate(sims):
        got = list(game_insights(sim.events, depth))
        seats = [x.seat for x in got]
        assert all(seats.count(k) <= 2 for k in set(seats)) and len(set(seats)) >= 4
        assert [x.seq for x in got] == sorted(x.seq for x in got)
        if i == 0:
            assert got == list(game_insights(sim.events, depth))
            other = list(game_insights(sim.events, dataclasses.replace(depth, seed=1)))
            assert [x.seq for x in other] != [x.seq for x in got]


def test_the_sight_screen_counts_per_player(corpus, capsys):
    sims, db = corpus
    assert main(["screen", "--db", db, "--signal", "sight", "--game", "keng", "--json",
                 "--limit", "0"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    seats = sum(len(json.loads(x.events[0].payload)["players"]) for x in sims)
    assert sum(r["looked"] for r in rows) <= 2 * seats
    cheat = next(r for r in rows if r["player"] == "player-05")
    assert cheat["looked"] == 2 * len(sims)             # at every table, 2 decisions each
    assert all(r["true_best"] <= r["n"] <= r["looked"] for r in rows)
    assert not any(r["flagged"] for r in rows)          # 3 games: too few to score anyone
    assert main(["screen", "--db", db, "--signal", "sight"]) == 2
    assert "needs --game" in capsys.readouterr().err
    here = json.dumps(rows)
    assert main(["screen", "--db", db, "--signal", "sight", "--game", "keng", "--json",
                 "--limit", "0", "-j", "2"]) == 0
    assert json.dumps([json.loads(x) for x in capsys.readouterr().out.splitlines()]) == here


def test_the_sight_screen_on_a_cluster_gives_the_same(corpus, cluster, capsys):
    _, db = corpus
    args = ["screen", "--db", db, "--signal", "sight", "--game", "keng", "--json",
            "--limit", "0"]
    assert main([*args, "-j", "1"]) == 0
    here = capsys.readouterr().out
    assert main([*args, "--scheduler", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == here and here
