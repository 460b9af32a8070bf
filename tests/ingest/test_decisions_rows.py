"""The decisions rows ingest loads are exactly the hooks' decisions: for every registered game,
the collector's Arrow table (built from buffers, rows numbered, relations cached) and the
warehouse's ``decisions`` rows equal a table made the plain way — every event's ``decision``
and ``lapsed`` called on the replayed state, sides and relations asked of the engine, and
``pa.Table.from_pylist``."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest

from engine import decisions as D
from engine.games import GAMES, find_game
from engine.log import write_log
from engine.sim import simulate
from ingest import ingest_paths

GAMES_PER_SET = 3


def _corpus(game: str) -> list[list]:
    g = find_game(game)
    out = []
    for i, opts in enumerate(g.CONFORMANCE["option_sets"]):
        for j, policy in enumerate(("random", "greedy")):
            out += [x.events for x in simulate(game, GAMES_PER_SET, seed=9300 + 10 * i + j,
                                                policy_name=policy, options=g.Options(**opts),
                                                session_games=3)]
    return out


@pytest.fixture(scope="module", params=sorted(GAMES))
def corpus(request) -> tuple[str, list[list]]:
    """A seeded self-play corpus of one registered game over its conformance option sets."""
    return request.param, _corpus(request.param)


def reference_table(game: str, games: list[list]) -> pa.Table:
    """The decisions rows of the games, made without the collector."""
    g, dm = find_game(game), D.decisions_module(game)
    rows = []
    for events in games:
        s = g.initial_state(events[0])
        players = tuple(s.players)
        for e in events[1:]:
            d = dm.decision(s, e)
            for x in ((d,) if d is not None else ()) + tuple(dm.lapsed(s, e)):
                sides = tuple(g.sides(s, x.seat))
                opposite = dm.opposite_seat(x.seat, len(sides))
                rows.append({
                    "game_id": e.game_id, "game": game, "seq": e.seq, "seat": x.seat,
                    "player_id": players[x.seat], "options": sorted(x.options),
                    "chosen": x.chosen, "cards": list(x.cards), "hand": x.hand,
                    "phase": x.phase, "side": sides[x.seat], "can_answer": x.can_answer,
                    "top_seat": x.top_seat,
                    "top_relation": D.relation(sides, opposite, x.seat, x.top_seat),
                    "tags": sorted(x.tags)})
            g.step(s, e)
    return pa.Table.from_pylist(rows, schema=D.DECISIONS_ARROW)


def test_collector_rows_are_the_hooks_decisions(corpus, monkeypatch):
    game, games = corpus
    want = reference_table(game, games)
    assert want.num_rows > 0
    assert D.decisions_of_games(games).equals(want)
    monkeypatch.setattr(D, "FLUSH_ROWS", 7)          # many small batches, the same rows
    got = D.decisions_of_games(games)
    assert got.equals(want) and got.schema.equals(D.DECISIONS_ARROW)


def test_ingest_loads_the_hooks_decisions(corpus, tmp_path):
    game, games = corpus
    write_log(tmp_path / f"{game}.arrows", games)
    db = tmp_path / "w.duckdb"
    s = ingest_paths([tmp_path], db=db, progress=False, workers=1)
    assert s.loaded == len(games) and s.reconciles
    cols = ", ".join(D.COLUMNS)
    with duckdb.connect(str(db), read_only=True) as con:
        got = con.sql(f"SELECT {cols} FROM decisions ORDER BY game_id, seq, seat, chosen"
                      ).to_arrow_table()
    want = reference_table(game, games)
    want = want.take(pa.compute.sort_indices(want, sort_keys=[
        ("game_id", "ascending"), ("seq", "ascending"), ("seat", "ascending"),
        ("chosen", "ascending")]))
    assert got.cast(D.DECISIONS_ARROW).equals(want)
