"""够级 logs damaged the way the CLI, ingest and warehouse tests need: an illegal play, and a
session whose next game is started by the wrong seat (GJ-9). Both are re-sealed, so only the
engine (not the hash chain) can tell."""

from __future__ import annotations

import json
import random

from engine.events import Event, seal_events
from engine.games import find_game
from engine.replay import Replay, validate_events
from engine.sim import play_game, policy


def tampered(events: list[Event], nth_play: int = 4) -> list[Event]:
    """The game with one single-card PLAY replaced by a face the seat does not hold."""
    i = [i for i, e in enumerate(events) if e.kind == "PLAY" and len(e.cards) == 1][nth_play]
    hand = Replay(events[:i]).state_at(i - 1).hands[events[i].seat]
    face = next(f for f in range(52) if f not in hand)
    return seal_events([*events[:i], events[i]._replace(cards=(face,)), *events[i + 1:]])


def wrong_starter_game(prev: list[Event], game_id: str = "gouji-wrong-starter") -> list[Event]:
    """A next game of prev's session, legal on its own, but started by the 拉客's team mate
    two seats on instead of the 拉客 (GJ-9; the team is right, so GJ-34 holds)."""
    g, p = find_game("gouji"), json.loads(prev[0].payload)
    kwargs = g.session_start(Replay(prev).final)
    kwargs["starter"] = (kwargs["starter"] + 2) % 6
    pols = [policy("gouji", "random") for _ in range(6)]
    sim = play_game("gouji", game_id, p["players"], random.Random(9), pols,
                    options=g.Options(**p["options"]), previous_game=prev[0].game_id,
                    session=p["session"], ts0=prev[-1].ts + 60_000_000, **kwargs)
    assert validate_events(sim.events).status == "ok"
    return sim.events
