"""Shared fixtures: small seeded corpora of simulated games, and the eighth game.

The test-only game 小墩 (``toy_tricks``, package ``tests.toygame``, its data under
``tests/games/toygame/``) is registered for the whole session before collection (the suites
parametrised over ``engine.games.GAMES`` include it), and through ``LIUJIA_GAMES`` for every
process the tests start (ingest workers, ``liujia`` commands run as subprocesses).
"""

from __future__ import annotations

import os

import pytest

from engine.games import PLUGIN_ENV, register_plugins
from engine.sim import simulate

TOY_GAME = "toy_tricks"
TOY_ENTRY = f"{TOY_GAME}=tests.toygame"


def pytest_configure(config: pytest.Config) -> None:
    """Register the eighth game here and in every process started from the tests."""
    entries = [x for x in os.environ.get(PLUGIN_ENV, "").split(",") if x and x != TOY_ENTRY]
    os.environ[PLUGIN_ENV] = ",".join([*entries, TOY_ENTRY])
    register_plugins()


@pytest.fixture(scope="session")
def toy_game() -> str:
    """The id of the test-only eighth game (registered by ``pytest_configure``)."""
    return TOY_GAME


@pytest.fixture(scope="session")
def small_games():
    """Three seeded 六人坑 games (sealed events)."""
    return [g.events for g in simulate("keng", 3, seed=2024)]


@pytest.fixture(scope="module")
def cluster():
    """A Dask ``LocalCluster`` of two worker processes (one thread each, loopback only), as a
    user's cluster would run, for the tests of one module; skipped without distributed."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, host="127.0.0.1") as c:
        yield c
