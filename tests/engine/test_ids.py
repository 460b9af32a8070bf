"""Game, session and player ids have one alphabet (engine.ids), checked by every game on its
GAME_START: an id that is not one is refused naming the field, with the id escaped."""

from __future__ import annotations

import json

import pytest

from engine.errors import InvalidEvent
from engine.games import GAMES, find_game
from engine.ids import MAX_ID_LENGTH, id_problem, is_id, shown_id
from engine.replay import validate_events
from engine.sim import simulate
from tests.options import options_for

HOSTILE = [
    ("", "is empty"),
    ("x" * (MAX_ID_LENGTH + 1), f"has {MAX_ID_LENGTH + 1} characters, more than 64"),
    ("a b", "holds ' ' (U+0020)"),
    ("a`b", "holds '`' (U+0060)"),
    ("![x](http://h/a.png)", "holds '!' (U+0021)"),
    ("<img>", "holds '<' (U+003C)"),
    ("p52enil\u202eexe.png", "holds U+202E"),
    ("a\x1b[2Jb", "holds U+001B"),
    ("a\nb", "holds U+000A"),
    ("a/b", "holds '/' (U+002F)"),
    ("六家", "holds U+516D"),
    ("-lead", "begins with '-' (U+002D)"),
    (".hidden", "begins with '.' (U+002E)"),
]
GOOD = ["keng-11-0000", "gouji-3-0001-o1a2b3c", "a", "x" * MAX_ID_LENGTH, "user@club.example",
        "wx:123+4", "P_7"]


@pytest.mark.parametrize(("value", "why"), HOSTILE)
def test_what_is_not_an_id(value, why):
    assert why in id_problem(value) and not is_id(value)


@pytest.mark.parametrize("value", GOOD)
def test_ids(value):
    assert id_problem(value) is None and is_id(value)


def test_non_strings_are_not_ids():
    assert id_problem(7) == "must be a string, got int" and not is_id(None)


def test_shown_id_escapes_and_cuts():
    assert shown_id("a\x1b[2J\u202eb") == "'a\\x1b[2J\\u202eb'"
    assert shown_id("y" * 100) == "'" + "y" * 40 + "'…"


def _first(game: str):
    return next(iter(simulate(game, 1, seed=3, options=options_for(game, seats=3)))).events


def _with_start(events, **changes):
    p = json.loads(events[0].payload)
    p.update(changes)
    return events[0]._replace(payload=json.dumps(p))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_refuses_a_bad_game_id(game):
    events = _first(game)
    g = find_game(game)
    with pytest.raises(InvalidEvent, match=r"game id 'g`1' holds '`' \(U\+0060\).*field game_id"):
        g.initial_state(events[0]._replace(game_id="g`1"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_refuses_a_bad_player_id(game):
    events = _first(game)
    g = find_game(game)
    players = json.loads(events[0].payload)["players"]
    players[-1] = "p\u202e1"
    seat = len(players) - 1
    with pytest.raises(InvalidEvent, match=rf"player id of seat {seat} 'p\\u202e1' holds U\+202E"
                       rf".*field payload\.players\[{seat}\]"):
        g.initial_state(_with_start(events, players=players))


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("key", ["session", "previous_game"])
def test_every_game_refuses_a_bad_session_id(game, key):
    events = _first(game)
    with pytest.raises(InvalidEvent, match=rf"GAME_START {key} 'x y' holds ' '.*field "
                       rf"payload\.{key}"):
        find_game(game).initial_state(_with_start(events, **{key: "x y"}))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_simulated_games_have_ids(game):
    events = _first(game)
    p = json.loads(events[0].payload)
    assert is_id(events[0].game_id) and all(map(is_id, p["players"]))
    assert validate_events(events).status == "ok"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_refuses_a_player_in_two_seats(game):
    events = _first(game)
    players = json.loads(events[0].payload)["players"]
    players[2] = players[0]
    with pytest.raises(InvalidEvent, match=r"player id of seat 2 '.*' is also seat 0's: one "
                       r"player, one seat.*field payload\.players\[2\]"):
        find_game(game).initial_state(_with_start(events, players=players))
