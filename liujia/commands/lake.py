"""``liujia lake build|info``: the warehouse as a partitioned Parquet lake (docs/lake.md).
``build`` exits as ``liujia ingest`` does: 0 all loaded or already present, 1 something was
quarantined, 2 usage or I/O error (the lake then unchanged); ``info`` 0, or 2 when the folder
is not a lake."""

from __future__ import annotations

import argparse
import json
from typing import Any

from liujia.commands._common import OK, USAGE, fail, safe_json, safe_text
from liujia.commands.ingest import add_common, run_with


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser(
        "lake", help="build and describe a Parquet lake: the warehouse at scale",
        description="A Parquet lake holds the warehouse's tables as Parquet files partitioned "
        "by game type and month, with a manifest written last: readers (`liujia serve, "
        "stats, players, find --lake DIR`, DuckDB, Polars, Dask, Spark) never see half a "
        "run. See docs/lake.md.")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True,
                             parser_class=type(p))
    build = verbs.add_parser(
        "build", help="add the games of logs to a lake (validated, de-duplicated)",
        description="Read event logs exactly as `liujia ingest` does (the same verdicts, "
        "quarantine, de-duplication, --review, --scheduler) and add the new games to the "
        "lake at --out (created if new). A re-run adds nothing; a changed log claiming a game "
        "the lake holds is quarantined. Exit 0 all loaded or already present, 1 something "
        "quarantined, 2 usage or I/O error (the lake unchanged).")
    build.add_argument("--out", metavar="DIR", required=True,
                       help="the lake folder: an existing lake, an empty folder, or a new one")
    add_common(build, db=False)
    info = verbs.add_parser("info", help="what a lake holds: files, rows and bytes per table")
    info.add_argument("lake", metavar="DIR")
    info.add_argument("--json", action="store_true", help="as one JSON object")
    return p


def _build(paths: Any, _db: Any, progress: bool, *, out: str, **kw: Any) -> Any:
    from ingest.lake import build_lake
    return build_lake(paths, out, progress, **kw)


def _info(args: argparse.Namespace) -> int:
    import duckdb

    from warehouse.db import WarehouseError
    from warehouse.lake import lake_summary, open_lake
    try:
        summary = lake_summary(args.lake)
        open_lake(args.lake).close()          # every listed file there, of the right shape
    except (WarehouseError, duckdb.Error) as exc:
        return fail(" ".join(str(exc).split()))
    if args.json:
        print(safe_json(json.loads(json.dumps(summary))))
        return OK
    print(safe_text(f"lake {args.lake}: version {summary['version']}"))
    for t, d in summary["tables"].items():
        print(f"  {t:<16} {d['files']:>6} file(s) {d['rows']:>14,} rows {d['bytes']:>15,} B")
    return OK


def run(args: argparse.Namespace) -> int:
    """Build a lake, or describe one."""
    if args.verb == "info":
        return _info(args)
    if not args.out:
        return fail("--out DIR is required", USAGE)
    return run_with(_build, args, what="lake", out=args.out)
