"""Fixtures of the ingest tests: seeded games, and damaged copies made the way real damage looks."""

from __future__ import annotations

import pytest

from engine.events import Event, seal_events
from engine.replay import Replay
from engine.sim import simulate


@pytest.fixture(scope="session")
def games() -> list[list[Event]]:
    """Ten seeded 六人坑 games (sealed events)."""
    return [g.events for g in simulate("keng", 10, seed=77)]


@pytest.fixture(scope="session")
def other_games() -> list[list[Event]]:
    """Four more games from another seed (other game ids)."""
    return [g.events for g in simulate("keng", 4, seed=78)]


def make_illegal(events: list[Event], nth_play: int = 2) -> list[Event]:
    """The game with one PLAY's cards replaced by a face the seat does not hold, re-sealed so
    that only the engine (not the hash chain) can tell."""
    plays = [i for i, e in enumerate(events) if e.kind == "PLAY" and len(e.cards) == 1]
    i = plays[nth_play]
    hand = Replay(events[:i]).state_at(i - 1).hands[events[i].seat]
    face = next(f for f in range(54) if f not in hand and f < 52)
    bad = events[i]._replace(cards=(face,), value=-1)
    return seal_events([*events[:i], bad, *events[i + 1:]])


@pytest.fixture(scope="session")
def illegal(games) -> list[Event]:
    """Game 3 of ``games`` with an illegal PLAY (same game id, other content)."""
    return make_illegal(games[3])


def renamed(events: list[Event], game_id: str) -> list[Event]:
    """The events of a game under another game id, re-sealed (a valid game claiming that id)."""
    return seal_events([e._replace(game_id=game_id) for e in events])


@pytest.fixture(scope="session")
def rename():
    """``renamed`` as a fixture: rename(events, game_id) -> a re-sealed game under that id."""
    return renamed
