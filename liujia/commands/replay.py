"""``liujia replay``: the table of one game at one step, rendered in the terminal."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.games import seen_numbers
from engine.replay import Replay, validate_events
from liujia.commands._common import FOUND, OK, fail, load_game, safe_lines, safe_text


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("replay", help="show the table of a game at a step",
                       description="Render the table of one game of any registered kind after the "
                       "event with seq STEP: the hands (under --seat only that seat's; what the "
                       "game lets a seat know of the others), the top play, whose turn and the "
                       "game's other table facts, then the event itself (its cards hidden when "
                       "the seat could not see them).")
    p.add_argument("path", metavar="PATH", help="log file or folder")
    p.add_argument("--game", required=True, metavar="ID", help="game id")
    p.add_argument("--step", type=int, default=None, help="seq of the last event applied "
                   "(default: the end of the game)")
    p.add_argument("--seat", type=int, default=None, metavar="K",
                   help="show only what seat K (0 … the game's last seat) could see "
                   "(default: auditor, all cards)")
    return p


def replay_at(path: str, game_id: str,
              step: int | None) -> tuple[Replay, int, str | None] | str:
    """A Replay of one game in the logs, the step to show (default: the last) and what is
    wrong with the game after it, if anything; or an error message naming what is wrong. A
    game that breaks a rule replays up to the event before the illegal one, a damaged one up
    to its intact prefix, so the moments before the problem can be looked at."""
    found = load_game([path], game_id)
    if isinstance(found, str):
        return found
    events, problem = found
    v = validate_events(events)
    if v.status == "illegal":
        if v.events == 0:
            return f"game {game_id} does not replay: {v.error}"
        events, problem = events[:v.events], str(v.error)
    rep = Replay(events)
    last = len(rep) - 1
    if step is None:
        return rep, last, problem
    if not 0 <= step <= last:
        if problem:
            return f"--step {step}: game {game_id} can be replayed only up to seq {last} " \
                   f"({problem})"
        return f"--step {step} is outside 0-{last} for this game"
    return rep, step, problem


def warn_problem(rep: Replay, problem: str | None) -> int:
    """Say on stderr what is wrong with the game after the steps shown; the exit code."""
    if problem is None:
        return OK
    print(safe_text(f"liujia: note: only seq 0-{len(rep) - 1} of this game replay: {problem}"),
          file=sys.stderr)
    return FOUND


def seen_step(rep: Replay, step: int, seat: int | None) -> int:
    """The seq of the last event at or before the step that the seat saw happen: events the
    game's ``event_hidden`` hides from it are skipped (e.g. another seat's
    RESPOND, LH-70); the auditor (None) sees every step."""
    hidden = rep.game.event_hidden
    if seat is not None and rep.game.hides_events:
        while step > 0 and hidden(rep.events[step], seat):
            step -= 1
    return step


def event_line(rep: Replay, step: int, seat: int | None) -> str:
    """The event at a step in one line as the seat saw it (the game's ``seen_event``: not
    another seat's deal, not the deck order, no private field), hidden cards counted; for a
    seat, the last event at or before the step it saw happen (``seen_step``), numbered in the
    seat's own count (``seen_numbers``: the log's seqs would show how many it did not see)."""
    at = seen_step(rep, step, seat)
    e = rep.events[at]
    seen = rep.game.seen_event(e, seat)
    hidden = len(e.cards) - len(seen.cards)
    if seat is not None and rep.game.hides_events:
        n = seen_numbers(rep.game, rep.events[:at + 1], seat)[at]
        line = f"event {n}" + seen.describe().removeprefix(f"seq {seen.seq}")
        return line + (f" ({hidden} card{'s' * (hidden != 1)} hidden)" if hidden else "")
    line = seen.describe()
    if e.kind == "CUT" and e.value == -1:      # a cut's value is its direction; -1 reads as none
        line += " counted backwards (value -1)"
    return line + (f" ({hidden} card{'s' * (hidden != 1)} hidden)" if hidden else "")


def _strings(obj: Any) -> list[str]:
    """Every string in a JSON value (keys and leaves)."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [x for k, v in obj.items() for x in (*_strings(k), *_strings(v))]
    if isinstance(obj, list):
        return [x for v in obj for x in _strings(v)]
    return []


def shown_table(rep: Replay, text: str) -> str:
    """A rendered table fit for the terminal: the log's own strings (game id, player ids,
    the start's payload text) escaped whole, also their line breaks, then every line
    escaped (the renderer's line breaks kept)."""
    start = rep.events[0]
    try:
        payload = json.loads(start.payload or "null")
    except ValueError:
        payload = None
    untrusted = {s for s in (start.game_id, *_strings(payload)) if s and safe_text(s) != s}
    for s in sorted(untrusted, key=len, reverse=True):
        text = text.replace(s, safe_text(s))
    return safe_lines(text)


def run(args: argparse.Namespace) -> int:
    """Print the rendered table."""
    found = replay_at(args.path, args.game, args.step)
    if isinstance(found, str):
        return fail(found)
    rep, step, problem = found
    n = len(rep.final.players)
    if args.seat is not None and not 0 <= args.seat < n:
        return fail(f"--seat {args.seat}: game {args.game} has seats 0-{n - 1}")
    print(shown_table(rep, rep.game.render(rep.state_at(step), args.seat)))
    line = event_line(rep, step, args.seat)
    if args.seat is not None and rep.game.hides_events:
        print(safe_text(f"seat {args.seat}'s last event seen (numbered as it saw them): {line}"))
    else:
        print(safe_text(f"event {step}/{len(rep) - 1}: {line}"))
    return warn_problem(rep, problem)
