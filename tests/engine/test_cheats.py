"""Planted cheaters (engine/cheats.py, ``liujia simulate --plant``): seeded and recorded only in
the answer key; the omniscient seat finds the play only the hidden cards justify; the soft
player never answers its accomplice where an honest one does."""

from __future__ import annotations

import io
import json
import random

import pytest

from engine.cards import parse_face
from engine.cheats import AnswerKey, SoftPlay, parse_plant, true_best
from engine.errors import EngineError
from engine.games import find_game
from engine.replay import validate_events
from engine.review import seat_options
from engine.sim import player_pool, simulate
from liujia.cli import main
from tests.engine.test_review import _crafted

POOL = player_pool()


def _run(game: str, games: int, seed: int, specs: list[str]):
    plants = tuple(parse_plant(s, POOL) for s in specs)
    key = AnswerKey(game, seed, plants)
    sims = list(simulate(game, games, seed, policy_name="greedy", plants=plants, key=key))
    out = io.StringIO()
    key.write(out)
    return sims, out.getvalue()


def test_the_same_seed_gives_the_same_games_and_key_and_the_logs_hold_none_of_it():
    specs = ["omniscient:player-03:0.5", "soft:player-05,player-06:1"]
    a, key_a = _run("keng", 3, 4, specs)
    b, key_b = _run("keng", 3, 4, specs)
    assert [s.events for s in a] == [s.events for s in b] and key_a == key_b
    head, *records = [json.loads(line) for line in key_a.splitlines()]
    assert head["format"] == "liujia.answer_key/1" and head["records"] == len(records) > 0
    assert {r["kind"] for r in records} <= {"omniscient", "soft"}
    honest = next(iter(simulate("keng", 1, 4, policy_name="greedy")))
    for sim in a:
        players = json.loads(sim.events[0].payload)["players"]
        assert {"player-03", "player-05", "player-06"} <= set(players)   # at every table
        start = json.loads(sim.events[0].payload)
        assert set(start) == set(json.loads(honest.events[0].payload))    # no extra field
        assert "plant" not in sim.events[0].payload and "omniscient" not in str(sim.events)
        assert validate_events(sim.events).status == "ok"                   # ordinary events


def test_the_omniscient_seat_plays_what_only_the_hidden_cards_justify(toy_game):
    # Seat 0 holds As 2h, seat 1 Ks 3h, the last trick counts two: only a seat that sees
    # seat 1's hand knows leading 2h wins (test_review's exact case); the honest lead is As.
    g = find_game("toy_tricks")
    s, _seen = _crafted(g, "As 2h", "Ks 3h")
    options = seat_options(g, s, 0)
    honest = next(a for a in options if a.cards == (parse_face("As"),))
    best = true_best(g, s, 0, honest, options, random.Random(1))
    assert best.cards == (parse_face("2h"),)
    s2, _ = _crafted(g, "As Ah", "Ks Qh")        # both tricks won whatever the order
    kept = true_best(g, s2, 0, honest, seat_options(g, s2, 0), random.Random(1))
    assert kept == honest                         # no better play: the honest one kept


def _states(game: str, sims):
    """(state before, event) of every event of the games (a fold by the engine)."""
    g = find_game(game)
    for sim in sims:
        s = g.initial_state(sim.events[0])
        for e in sim.events[1:]:
            yield sim, s, e
            s = g.apply(s, e)


def _answered(game: str, sims, player: str, accomplice: str) -> tuple[int, int]:
    """(answers, declines) by ``player`` at decisions where ``accomplice`` made the top play
    and ``player`` could answer it."""
    g = find_game(game)
    aggressive = set(g.style_categories["aggressive"])
    answers = declines = 0
    for sim, s, e in _states(game, sims):
        players = json.loads(sim.events[0].payload)["players"]
        d = g.decisions.decision(s, e)
        if d is None or players[d.seat] != player or d.top_seat < 0 \
                or players[d.top_seat] != accomplice or not d.can_answer:
            continue
        answers += d.chosen in aggressive
        declines += d.chosen not in aggressive
    return answers, declines


@pytest.mark.parametrize("game", ["gouji", "ddz6_3v3"])
def test_the_soft_player_never_answers_its_accomplice_where_an_honest_one_does(game):
    sims, key = _run(game, 6, 2, ["soft:player-05,player-06:1"])
    for a, b in (("player-05", "player-06"), ("player-06", "player-05")):
        assert _answered(game, sims, a, b)[0] == 0
    soft = [json.loads(x) for x in key.splitlines()[1:]]
    assert soft and all(r["kind"] == "soft" and r["changed"] for r in soft)
    # the same seats played honestly (the same players, seated the same way) do answer
    honest_plants = (parse_plant("soft:player-05,player-06:1", POOL),)
    honest = AnswerKey(game, 2, honest_plants)
    orig = SoftPlay._cheat
    try:
        SoftPlay._cheat = lambda self, s, seat, honest_, rng: None    # type: ignore[method-assign]
        plain = list(simulate(game, 6, 2, policy_name="greedy", plants=honest_plants,
                              key=honest))
    finally:
        SoftPlay._cheat = orig                                          # type: ignore[method-assign]
    assert sum(_answered(game, plain, a, b)[0]
               for a, b in (("player-05", "player-06"), ("player-06", "player-05"))) > 0


@pytest.mark.parametrize("spec, why", [
    ("omniscient:player-99:1", "not a player of the pool"),
    ("soft:player-01:1", "takes 2 distinct player(s)"),
    ("soft:player-01,player-01:1", "takes 2 distinct player(s)"),
    ("omniscient:player-01:1.5", "RATE must be a number in (0, 1]"),
    ("omniscient:player-01:x", "RATE must be a number in (0, 1]"),
    ("peek:player-01:1", "unknown kind 'peek'"),
    ("omniscient:player-01", "expected KIND:PLAYER[,PLAYER]:RATE"),
])
def test_a_bad_plant_is_one_line_naming_it(spec, why, tmp_path, capsys):
    with pytest.raises(EngineError, match=None):
        parse_plant(spec, POOL)
    assert main(["simulate", "--game", "keng", "--games", "1", "--out", str(tmp_path / "o"),
                 "--plant", spec, "--answer-key", str(tmp_path / "k")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and why in err
    assert not (tmp_path / "k").exists()


def test_the_cli_writes_the_key_apart_and_needs_both_options(tmp_path, capsys):
    out, key = tmp_path / "logs", tmp_path / "key.jsonl"
    assert main(["simulate", "--game", "keng", "--games", "2", "--seed", "3", "--policy",
                 "greedy", "--out", str(out), "--quiet", "--plant",
                 "omniscient:player-02:1", "--answer-key", str(key)]) == 0
    head = json.loads(key.read_text().splitlines()[0])
    assert head["plants"] == [{"kind": "omniscient", "players": ["player-02"], "rate": 1.0}]
    assert head["opportunities"]["player-02"] >= head["records"] > 0
    assert [p.name for p in out.iterdir()] == ["keng-seed3-0000.arrows"]
    capsys.readouterr()
    assert main(["simulate", "--game", "keng", "--games", "1", "--out", str(out),
                 "--plant", "omniscient:player-02:1"]) == 2
    assert "--answer-key" in capsys.readouterr().err
