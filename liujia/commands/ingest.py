"""``liujia ingest``: replay every game of event logs (Arrow, liujia.jsonl) and load the valid
ones into the
warehouse; quarantine the rest with the reason. Exit 0 all loaded or already present, 1 something
was quarantined, 2 usage or I/O error (no log files, a missing path or warehouse folder, a
permission denied, a failed write: the warehouse is then unchanged)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from liujia.commands._common import (
    FOUND,
    OK,
    USAGE,
    add_executor_options,
    fail,
    safe_json,
    safe_text,
)
from warehouse.paths import ENV_VAR, default_db

if TYPE_CHECKING:      # the warehouse and ingest load when a command runs, not for --help
    from ingest.run import IngestSummary

MAX_LINES = 20


def add_common(p: argparse.ArgumentParser, db: bool = True) -> argparse.ArgumentParser:
    """The arguments ingest, rebuild and lake build share (--db unless told not to)."""
    p.add_argument("paths", nargs="+", metavar="PATH", help="log files or folders of *.arrows, "
                   "*.jsonl and *.jsonl.gz")
    p.add_argument("--strict", action="store_true",
                   help="a field of a *.jsonl line that the format does not know quarantines "
                   "its game (default: reported as a warning and ignored)")
    if db:
        p.add_argument("--db", metavar="FILE", default=None,
                       help=f"warehouse file (default ${ENV_VAR}, else {default_db()}); its "
                       "folder must exist (only the default one is created)")
    add_executor_options(
        p, "worker processes reading and replaying files (default: one per CPU for big runs, "
        "none for small ones); never more than the files to read or the CPUs; they die with "
        "this process", "read and replay the files",
        "the workers must see the same paths and run the same liujia")
    p.add_argument("--require", choices=("none", "signed", "trusted"), default="none",
                   help="quarantine the games of logs that are not signed (signed) or not "
                   "signed by a key trusted here (trusted: `liujia keys trust`); default "
                   "none. A bad signature or a broken deal commitment is always quarantined")
    p.add_argument("--review", action="store_true",
                   help="review every decision of the games loaded (docs/review.md) into the "
                   "warehouse's reviews table, for the games that declare a world sampler; "
                   "slow: minutes per game at the default --review-worlds")
    p.add_argument("--review-worlds", type=_worlds, default=32, metavar="N",
                   help="at most N sampled worlds per decision (default 32; from 4 to 1024): "
                   "more worlds, fewer grades withheld, longer runs")
    p.add_argument("--review-seed", type=int, default=0, metavar="S",
                   help="seed of the reviews (default 0): the same seed, the same reviews")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true",
                   help="print the run summary (with every quarantined item) as one JSON object")
    return p


def _worlds(text: str) -> int:
    """A --review-worlds value: a whole number from 4 to 1024."""
    if not (text.isascii() and text.isdigit()) or not 4 <= int(text) <= 1024:
        raise argparse.ArgumentTypeError(f"not a whole number from 4 to 1024: {text!r}")
    return int(text)


def review_settings(args: argparse.Namespace) -> object:
    """The review settings --review asks for (None without it)."""
    if not getattr(args, "review", False):
        return None
    from engine.review import Settings
    n = args.review_worlds
    return Settings(seed=args.review_seed, min_worlds=min(16, n), max_worlds=n,
                    batch=min(16, n))


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser(
        "ingest", help="load event logs (Arrow, liujia.jsonl) into the warehouse (validated, "
        "de-duplicated)",
        description="Read event logs (Arrow *.arrows, and *.jsonl / *.jsonl.gz in the "
        "liujia.jsonl interchange format: docs/interchange.md), replay every game through the engine and load the "
        "valid games into the DuckDB warehouse. A game that fails (illegal move, broken hash "
        "chain, torn log, id already loaded with other content) goes to the quarantine table "
        "with its reason; the other games still load. Re-running on the same input changes "
        "nothing. Each run reconciles: games read = loaded + already present + quarantined. "
        "A file byte for byte equal to one an earlier run ingested whole is not read again.")
    add_common(p)
    p.add_argument("--recheck", action="store_true", help="read and replay every file again, "
                   "also files unchanged since an earlier run ingested them whole")
    return p


def _issue_line(rec: object) -> str:
    r = rec.as_row()  # type: ignore[attr-defined]
    where = " ".join(x for x in (
        f"game {r['game_id']}" if r["game_id"] else "",
        f"seq {r['seq']}" if r["seq"] is not None else "",
        f"byte {r['file_offset']}" if r["file_offset"] is not None else "") if x)
    rule = f" {r['rule_id']}" if r["rule_id"] else ""
    return f"  {r['stage']}/{r['code']}{rule}  {r['file']}{'  ' + where if where else ''}: " \
        f"{r['reason']}"


def report(s: IngestSummary, as_json: bool) -> int:
    """Print a run summary; the exit code it calls for."""
    if as_json:
        print(safe_json(json.loads(json.dumps(s.to_json(), default=str))))
    else:
        print(safe_text(s.describe()))
        signed = {k: n for k, n in s.signatures.items() if k != "unsigned" and n}
        if signed:
            words = {"trusted": "signed by a trusted key", "untrusted": "signed by a key not "
                     "trusted here", "bad": "with a bad signature"}
            print("signatures: " + ", ".join(f"{n} file(s) {words.get(k, k)}"
                                             for k, n in sorted(signed.items()))
                  + (f", {s.signatures['unsigned']} unsigned" if s.signatures.get("unsigned")
                     else ""))
        for w in s.warnings[:MAX_LINES]:
            print(safe_text(f"warning: {w}"), file=sys.stderr)
        if len(s.warnings) > MAX_LINES:
            print(f"warning: ... and {len(s.warnings) - MAX_LINES} more", file=sys.stderr)
        if s.issues:
            print(f"quarantined ({len(s.issues)}):")
            for rec in s.issues[:MAX_LINES]:
                print(safe_text(_issue_line(rec)))
            if len(s.issues) > MAX_LINES:
                print(f"  ... and {len(s.issues) - MAX_LINES} more: see the quarantine table")
    return OK if s.clean else FOUND


def run_with(fn: Callable[..., IngestSummary], args: argparse.Namespace,
             what: str = "warehouse", **kw: object) -> int:
    """Run ingest_paths, rebuild_paths or build_lake with the parsed arguments, mapping errors
    to exits (``what`` is written, the warehouse or the lake, said to be unchanged)."""
    from concurrent.futures.process import BrokenProcessPool

    import duckdb

    from ingest.executor import ClusterError, scheduler_address
    from ingest.run import IngestIOError
    from warehouse.db import WarehouseError
    if args.workers is not None and args.workers < 1:
        return fail("--workers must be at least 1")
    try:
        from liujia.keys import trusted_ids
        s = fn(args.paths, getattr(args, "db", None), progress=not args.quiet, workers=args.workers,
               strict=getattr(args, "strict", False), require=args.require,
               trusted=trusted_ids(), review=review_settings(args),
               scheduler=scheduler_address(args.scheduler),
               allow_insecure=args.allow_insecure_cluster, **kw)
    except (IngestIOError, WarehouseError) as exc:
        return fail(str(exc), USAGE)
    except ClusterError as exc:
        return fail(f"{exc}; the {what} is unchanged", USAGE)
    except duckdb.Error as exc:
        return fail(f"{' '.join(str(exc).split())}; the {what} is unchanged", USAGE)
    except BrokenProcessPool as exc:
        return fail(f"a worker process died ({exc}); the {what} is unchanged", USAGE)
    except OSError as exc:   # PermissionError and the like: one line, never a traceback
        return fail(f"{exc.filename or ''}{': ' if exc.filename else ''}"
                    f"{exc.strerror or exc}", USAGE)
    except Exception as exc:        # a cluster's own error types (a lost scheduler …)
        if scheduler_address(args.scheduler) is None:
            raise
        return fail(f"the cluster failed ({type(exc).__name__}: {exc}); the {what} is "
                    "unchanged", USAGE)
    sys.stdout.flush()
    return report(s, args.json)


def run(args: argparse.Namespace) -> int:
    """Ingest the logs and print the summary."""
    from ingest.run import ingest_paths
    return run_with(ingest_paths, args, recheck=args.recheck)
