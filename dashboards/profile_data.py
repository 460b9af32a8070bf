"""The players page's profile queries: named, cached wrappers of ``warehouse.tendencies``
(the tendency catalog, docs/decisions.md), cached like ``dashboards.data`` by the file's
identity and run on a short-lived read-only connection."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import streamlit as st

from dashboards import data
from warehouse import tendencies as wt

# The named queries of warehouse.tendencies the players page runs.
QUERIES = frozenset({"player_tendencies", "partnerships"})


@st.cache_data(show_spinner=False, max_entries=256, ttl=3600)
def _cached(path: str, fp: data.Fingerprint, name: str, args: tuple[Any, ...]) -> Any:
    try:
        with data.warehouse(path).connect() as con:
            return getattr(wt, name)(con, *args)
    except FileNotFoundError:
        raise data.NoWarehouse(path) from None


def _query(name: str, *args: Any) -> Any:
    if name not in QUERIES:
        raise KeyError(f"not a profile query: {name!r}")
    path = str(data.db_path())
    fp = data.fingerprint(path)
    if fp is None:
        raise data.NoWarehouse(path)
    return _cached(path, fp, name, args)


def tendency_games() -> tuple[str, ...]:
    """The games the tendency catalog covers, in catalog order."""
    return tuple(dict.fromkeys(t.game for t in wt.catalog()))


def descriptions(game: str) -> dict[str, str]:
    """Tendency name -> description for one game's catalog."""
    return {t.name: t.description for t in wt.catalog(game)}


def player_tendencies(player: str, game: str) -> pa.Table:
    """One player's tendencies in one game (``warehouse.tendencies.player_tendencies``)."""
    return _query("player_tendencies", player, game)


def partnerships(player: str, game: str | None = None) -> pa.Table:
    """How the player does with each teammate and opposite (``partnerships``)."""
    return _query("partnerships", player, game)
