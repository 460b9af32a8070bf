"""``liujia position``: the full position (JSON) of a game after a step."""

from __future__ import annotations

import argparse

from liujia.commands._common import fail, safe_json
from liujia.commands.replay import replay_at, warn_problem


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("position", help="print the position JSON of a game after a step",
                       description="Print the full state (position JSON, docs/positions.md) "
                       "after the event with seq STEP.")
    p.add_argument("path", metavar="PATH", help="log file or folder")
    p.add_argument("--game", required=True, metavar="ID", help="game id")
    p.add_argument("--step", type=int, required=True, help="seq of the last event applied")
    return p


def run(args: argparse.Namespace) -> int:
    """Print the position."""
    found = replay_at(args.path, args.game, args.step)
    if isinstance(found, str):
        return fail(found)
    rep, step, problem = found
    print(safe_json(rep.game.to_position(rep.state_at(step)), indent=1))
    return warn_problem(rep, problem)
