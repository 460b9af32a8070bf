"""``liujia replay``: the table of one game at one step, rendered in the terminal."""

from __future__ import annotations

import argparse

from engine.errors import EngineError
from engine.replay import Replay
from liujia.commands._common import OK, USAGE, fail, load_game


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("replay", help="show the table of a game at a step",
                       description="Render the table of one game after the event with seq "
                       "STEP: hands (or hidden counts), top play and pending effects, "
                       "direction, stock, whose turn, cycle.")
    p.add_argument("path", metavar="PATH", help="log file or folder")
    p.add_argument("--game", required=True, metavar="ID", help="game id")
    p.add_argument("--step", type=int, default=None, help="seq of the last event applied "
                   "(default: the end of the game)")
    p.add_argument("--seat", type=int, default=None, choices=range(6), metavar="K",
                   help="show only what seat K could see (default: auditor, all cards)")
    return p


def open_replay(path: str, game_id: str) -> Replay | str:
    """A Replay of one game in the logs, or an error message."""
    events = load_game([path], game_id)
    if isinstance(events, str):
        return events
    try:
        return Replay(events)
    except EngineError as exc:
        return f"game {game_id} does not replay: {exc}"


def resolve_step(rep: Replay, step: int | None) -> int | str:
    """The step to show, or an error message for one outside the game."""
    last = len(rep) - 1
    if step is None:
        return last
    if not 0 <= step <= last:
        return f"--step {step} is outside 0-{last} for this game"
    return step


def run(args: argparse.Namespace) -> int:
    """Print the rendered table."""
    rep = open_replay(args.path, args.game)
    if isinstance(rep, str):
        return fail(rep)
    step = resolve_step(rep, args.step)
    if isinstance(step, str):
        return fail(step, USAGE)
    state = rep.state_at(step)
    print(rep.game.render(state, args.seat))
    e = rep.events[step]
    print(f"event {step}/{len(rep) - 1}: {e.describe()}")
    return OK
