"""Shared fixtures: small seeded corpora of simulated games."""

from __future__ import annotations

import pytest

from engine.sim import simulate


@pytest.fixture(scope="session")
def small_games():
    """Three seeded 六人坑 games (sealed events)."""
    return [g.events for g in simulate("keng", 3, seed=2024)]
