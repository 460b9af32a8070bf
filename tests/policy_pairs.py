"""Side by side: a policy's fast choice and its reference choice (the slow path that lists
every legal action) over the decision states of seeded self-play, with the same generator
state. Both must return the same action and leave the generator in the same state, so that
self-play, demo corpora and reviews stay byte for byte what they were."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engine.events import Event
from engine.games import find_game
from engine.sim import policy

Choice = Callable[[Any, random.Random], Event]


def decision_states(game: str, options: dict[str, Any], driver: str, games: int,
                    seed: int) -> Iterator[Any]:
    """Every state of ``games`` seeded self-play games (every seat playing ``driver``) at which
    a seat's policy is asked to act (no automatic event owed): a copy of each."""
    g = find_game(game)
    opts = g.Options(**options)
    rng = random.Random(seed)
    bot = policy(game, driver)
    for i in range(games):
        players = [f"p{k}" for k in range(g.seat_count(opts))]
        s = g.initial_state(g.start_event(f"{game}-pairs-{i}", players, rng, opts))
        while not g.is_over(s):
            a = g.auto_event(s, rng)
            if a is None:
                yield s.copy()
                a = bot.choose(s, rng)
            g.step(s, a)


def compare(fast: Choice, reference: Choice, states: Iterator[Any], seed: int) -> int:
    """Assert that both choices agree in every state (the same action and the same generator
    state after it); the number of states compared."""
    n = 0
    for n, s in enumerate(states, 1):
        a, b = random.Random(f"{seed}:{n}"), random.Random(f"{seed}:{n}")
        got, want = fast(s, a), reference(s, b)
        assert got == want, f"state {n} (seq {s.seq}): fast {got}, reference {want}"
        assert type(got) is type(want)
        assert a.getstate() == b.getstate(), f"state {n}: the generators differ after it"
    return n
