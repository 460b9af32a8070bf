"""A player's slice of the warehouse for the queries of one profile: the player's ``seats``
rows and the ``games`` rows of those seats, fetched once and registered on the connection as
two small relations that the per-player queries read instead of joining the whole tables
(each such join scans every seat and game: ~5–10 ms a query on 10M events, a few µs on the
slice). The queries name their tables through ``Tables``; ``FULL`` is the warehouse itself.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import duckdb
import pyarrow as pa


class Tables(NamedTuple):
    """The relation names a per-player query reads for ``seats`` and ``games``."""

    seats: str = "seats"
    games: str = "games"


FULL = Tables()
# The games columns no per-player query reads: the big text ones, left out of the slice (a
# heavy player's 3,856 games with their results and options cost ~2× the slice's time).
SLICE_DROPS = "options, players, result, final_digest, source_file"
_names = itertools.count()


@contextmanager
def player_slice(con: duckdb.DuckDBPyConnection, player: str) -> Iterator[Tables]:
    """The player's seat rows and their games registered on ``con`` for the block (only for
    queries about this player's own rows: never for a population), unregistered after."""
    n = next(_names)
    names = Tables(f"_slice_seats_{n}", f"_slice_games_{n}")
    seats = con.sql("SELECT * FROM seats WHERE player_id = $player",
                    params={"player": str(player)}).to_arrow_table()
    ids = f"_slice_ids_{n}"
    con.register(ids, pa.table({"game_id": seats["game_id"]}))
    try:
        games = con.sql(f"SELECT g.* EXCLUDE ({SLICE_DROPS}) FROM games g SEMI JOIN {ids} i "
                        "ON i.game_id = g.game_id"
                        ).to_arrow_table()
    finally:
        con.unregister(ids)
    con.register(names.seats, seats)
    con.register(names.games, games)
    try:
        yield names
    finally:
        con.unregister(names.seats)
        con.unregister(names.games)
