"""Fixtures of the warehouse tests: a small known corpus, ingested once into a real DuckDB file."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.events import Event, seal_events
from engine.log import write_log
from engine.replay import Replay
from engine.sim import simulate
from ingest.run import ingest_paths


def _illegal(events: list[Event]) -> list[Event]:
    """The game with its third single-card PLAY replaced by a face the seat lacks, re-sealed."""
    i = [i for i, e in enumerate(events) if e.kind == "PLAY" and len(e.cards) == 1][2]
    hand = Replay(events[:i]).state_at(i - 1).hands[events[i].seat]
    face = next(f for f in range(52) if f not in hand)
    return seal_events([*events[:i], events[i]._replace(cards=(face,), value=-1),
                        *events[i + 1:]])


@pytest.fixture(scope="session")
def corpus() -> list[list[Event]]:
    """Twelve seeded 六人坑 games: the good part of the known corpus."""
    return [g.events for g in simulate("keng", 12, seed=91)]


@pytest.fixture(scope="session")
def bad_game() -> list[Event]:
    """A game (own id) with an illegal PLAY, which the ingest quarantines."""
    return _illegal(next(iter(simulate("keng", 1, seed=92))).events)


@pytest.fixture(scope="session")
def corpus_logs(tmp_path_factory, corpus, bad_game) -> Path:
    """The corpus as log files: two good files, one with the bad game, one that is no log."""
    logs = tmp_path_factory.mktemp("logs")
    write_log(logs / "a.arrows", corpus[:7])
    write_log(logs / "b.arrows", [*corpus[7:], bad_game])
    (logs / "junk.arrows").write_bytes(b"\xff\xff\xff\xff" + b"\0" * 40)
    return logs


@pytest.fixture(scope="session")
def wh(tmp_path_factory, corpus_logs) -> Path:
    """The warehouse file of the corpus (one ingest run); tests only read it."""
    db = tmp_path_factory.mktemp("wh") / "corpus.duckdb"
    s = ingest_paths([corpus_logs], db=db, progress=False)
    assert (s.loaded, s.quarantined, s.files_quarantined) == (12, 1, 1), s.describe()
    return db


@pytest.fixture(scope="session")
def gouji_corpus() -> list[list[Event]]:
    """Five seeded 够级 games (one session), loaded beside the 六人坑 corpus in ``mixed_wh``."""
    return [g.events for g in simulate("gouji", 5, seed=93)]


@pytest.fixture(scope="session")
def mixed_wh(tmp_path_factory, corpus, gouji_corpus) -> Path:
    """A warehouse of both games: the 六人坑 corpus, the 够级 corpus and one 够级 game with an
    illegal play (quarantined); tests only read it."""
    from tests.gouji_logs import tampered

    logs = tmp_path_factory.mktemp("mixed-logs")
    bad = tampered(next(iter(simulate("gouji", 1, seed=94))).events)
    write_log(logs / "keng.arrows", corpus)
    write_log(logs / "gouji.arrows", [*gouji_corpus, bad])
    db = tmp_path_factory.mktemp("mixed-wh") / "mixed.duckdb"
    s = ingest_paths([logs], db=db, progress=False)
    assert (s.loaded, s.quarantined) == (17, 1), s.describe()
    return db
