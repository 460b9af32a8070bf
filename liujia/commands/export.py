"""``liujia export``: the warehouse as Parquet, partitioned by game and month."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from liujia.commands._common import OK, fail, open_warehouse, os_error_text, safe_text
from warehouse.paths import ENV_VAR, default_db


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("export", help="write the warehouse as Parquet (by game and month)",
                       description="Write games, seats and events as Parquet datasets "
                       "partitioned by game and month (hive folders game=…/month=YYYY-MM), and "
                       "quarantine and ingest_runs as single files. DuckDB, Polars and "
                       "distributed engines read them without conversion.")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (its other "
                   "files are left alone)")
    p.add_argument("--force", action="store_true", help="replace a previous export in DIR "
                   "(its games/, seats/, events/ folders and *.parquet files); else refused")
    p.add_argument("--db", metavar="FILE", default=None,
                   help=f"warehouse file (default ${ENV_VAR}, else {default_db()})")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar (shown on a "
                   "terminal only: the table being written and the rows written)")
    return p


def run(args: argparse.Namespace) -> int:
    """Export and say where."""
    import duckdb

    from warehouse.frames import export_parquet
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    shown = None
    try:
        why = _clear(Path(args.out), args.force)
        if why is None:
            shown = _Progress.start(con, args.quiet)
            out = export_parquet(con, args.out, shown.update if shown is not None else None)
    except OSError as exc:
        why = f"export to {args.out} failed: {os_error_text(exc)}"
    except duckdb.Error as exc:
        why = f"export to {args.out} failed: {exc}"
    finally:
        if shown is not None:
            shown.close()                # the bar goes before any line is printed
        con.close()
    if why is not None:
        return fail(why)
    print(safe_text(f"wrote the warehouse as Parquet to {out}"))
    return OK


def _clear(out_dir: Path, force: bool) -> str | None:
    """Why the export may not go to out_dir (a previous export there, without force), or
    None; with force, a link in the way is removed (never followed)."""
    from warehouse.frames import FLAT, PARTITIONED
    if out_dir.exists() and not out_dir.is_dir():
        return f"--out {out_dir}: not a folder"
    names = [*PARTITIONED, *(f"{n}.parquet" for n in FLAT)]
    there = [out_dir / n for n in names if os.path.lexists(out_dir / n)]
    if there and not force:
        return f"{there[0]}: exists (a previous export? use --force to replace it)"
    for p in there:
        if p.is_symlink():
            p.unlink()                           # replaced: the link, never what it points to
    return None


class _Progress:
    """The export's bar on stderr: rows written of all tables' rows, the table being written
    (its number of all) as the bar's title."""

    def __init__(self, bar: Any, sizes: dict[str, int]) -> None:
        self._bar, self._order = bar, list(sizes)

    @classmethod
    def start(cls, con: Any, quiet: bool) -> _Progress | None:
        """The bar, or None when quiet or stderr is no terminal (then no count is run)."""
        from liujia.commands._progress import bar, on_terminal
        if quiet or not on_terminal():
            return None
        from warehouse.frames import export_sizes
        sizes = export_sizes(con)
        return cls(bar(False, total=sum(sizes.values()), unit="row", unit_scale=True,
                       desc="export"), sizes)

    def update(self, table: str, rows: int) -> None:
        """A table started (rows 0) or wrote this many more rows."""
        if not rows:
            n = self._order.index(table) + 1 if table in self._order else 0
            self._bar.set_description_str(f"export {table} ({n}/{len(self._order)} tables)")
        self._bar.update(rows)

    def close(self) -> None:
        """Remove the bar."""
        self._bar.close()
