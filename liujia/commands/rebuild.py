"""``liujia rebuild``: build a fresh warehouse from the logs and swap it in atomically (the
warehouse is a projection of the logs). Exit codes as for ``liujia ingest``."""

from __future__ import annotations

import argparse

from liujia.commands.ingest import add_common, run_with


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser(
        "rebuild", help="rebuild the warehouse from the logs into a fresh file, swapped in whole",
        description="Drop the warehouse and build it again from the given logs: everything is "
        "ingested into a fresh file which then replaces the old one in one atomic rename. "
        "Readers see the old warehouse until the new one is complete. Games found only in the "
        "old warehouse (not in these logs) are gone afterwards.")
    return add_common(p)


def run(args: argparse.Namespace) -> int:
    """Rebuild and print the summary."""
    from ingest.run import rebuild_paths
    return run_with(rebuild_paths, args)
