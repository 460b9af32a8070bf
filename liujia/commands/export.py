"""``liujia export``: the warehouse as Parquet, partitioned by game and month."""

from __future__ import annotations

import argparse

import duckdb

from liujia.commands._common import OK, fail, open_warehouse, os_error_text, safe_text
from warehouse.db import ENV_VAR, default_db
from warehouse.frames import export_parquet


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("export", help="write the warehouse as Parquet (by game and month)",
                       description="Write games, seats and events as Parquet datasets "
                       "partitioned by game and month (hive folders game=…/month=YYYY-MM), and "
                       "quarantine and ingest_runs as single files. DuckDB, Polars and "
                       "distributed engines read them without conversion.")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--db", metavar="FILE", default=None,
                   help=f"warehouse file (default ${ENV_VAR}, else {default_db()})")
    return p


def run(args: argparse.Namespace) -> int:
    """Export and say where."""
    con = open_warehouse(args.db)
    if isinstance(con, str):
        return fail(con)
    try:
        out = export_parquet(con, args.out)
    except OSError as exc:
        return fail(f"export to {args.out} failed: {os_error_text(exc)}")
    except duckdb.Error as exc:
        return fail(f"export to {args.out} failed: {exc}")
    finally:
        con.close()
    print(safe_text(f"wrote the warehouse as Parquet to {out}"))
    return OK
