"""Where the warehouse file is (no DuckDB import: the command line reads these to word its
help before a command that opens the warehouse is chosen)."""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "LIUJIA_DB"


def _data_home() -> Path:
    xdg = os.environ.get("XDG_DATA_HOME")
    return Path(xdg) if xdg else Path.home() / ".local" / "share"


DEFAULT_DB: Path = _data_home() / "liujia" / "liujia.duckdb"


def default_db() -> Path:
    """The warehouse file: $LIUJIA_DB if set, else DEFAULT_DB."""
    env = os.environ.get(ENV_VAR)
    return Path(env).expanduser() if env else DEFAULT_DB


def db_path(path: str | os.PathLike[str] | None = None) -> Path:
    """The warehouse path to use: the given one (user ~ expanded) or default_db()."""
    return Path(path).expanduser() if path is not None else default_db()
