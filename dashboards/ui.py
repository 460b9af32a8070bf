"""Small Streamlit helpers shared by the pages: the missing-warehouse notice and error display."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import duckdb
import streamlit as st

from dashboards import data
from engine.errors import EngineError

T = TypeVar("T")

HOW_TO_FILL = ("Run `liujia demo` to simulate and load a demo corpus, or "
               "`liujia ingest LOGS --db FILE` to load your own hand histories.")


def require_warehouse() -> dict[str, int]:
    """The warehouse's counts; stops the page with a hint when it is missing or unreadable."""
    path = data.db_path()
    try:
        return load(data.counts)
    except data.NoWarehouse:
        st.warning(f"No warehouse at `{path}`. {HOW_TO_FILL}")
        st.stop()


def load(fn: Callable[..., T], *args: Any) -> T:
    """Call a data function; on a database error show it and stop the page."""
    try:
        return fn(*args)
    except data.NoWarehouse:
        raise
    except duckdb.Error as exc:
        st.error(f"Could not read the warehouse `{data.db_path()}`: {exc}")
        st.caption(HOW_TO_FILL)
        st.stop()
    except EngineError as exc:   # a stored game the engine cannot replay (e.g. rules changed)
        st.error(f"The engine cannot replay this game: {exc}")
        st.stop()
