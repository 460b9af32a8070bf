"""``liujia export``: the warehouse as Parquet, partitioned by game and month."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

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
    return p


def run(args: argparse.Namespace) -> int:
    """Export and say where."""
    import duckdb

    from warehouse.frames import export_parquet
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    try:
        why = _clear(Path(args.out), args.force)
        if why is not None:
            return fail(why)
        out = export_parquet(con, args.out)
    except OSError as exc:
        return fail(f"export to {args.out} failed: {os_error_text(exc)}")
    except duckdb.Error as exc:
        return fail(f"export to {args.out} failed: {exc}")
    finally:
        con.close()
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
