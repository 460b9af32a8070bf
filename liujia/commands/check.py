"""``liujia check``: is one action legal in a position? Prints the verdict and the new position."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import event_from_json
from engine.games import find_game
from liujia.commands._common import FOUND, OK, fail


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("check", help="check one action against a position",
                       description="Check one action (JSON, docs/actions.md) against a "
                       "position (JSON, docs/positions.md). Prints 'legal' and the resulting "
                       "position, or 'illegal RULE-ID: reason' (exit 1).")
    p.add_argument("--position", required=True, metavar="FILE",
                   help="position JSON file ('-' for standard input)")
    p.add_argument("--action", required=True, metavar="JSON",
                   help="the action as JSON, e.g. '{\"kind\":\"PLAY\",\"seat\":2,"
                   "\"cards\":[\"Th\"]}', or @FILE")
    return p


def _read_json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} is not JSON: {exc}") from None


def run(args: argparse.Namespace) -> int:
    """Check the action and print the verdict."""
    try:
        if args.position == "-":
            pos_text = sys.stdin.read()
        else:
            pos_text = Path(args.position).read_text(encoding="utf-8")
        act_text = args.action
        if act_text.startswith("@"):
            act_text = Path(act_text[1:]).read_text(encoding="utf-8")
        pos = _read_json(pos_text, f"position {args.position}")
        act = _read_json(act_text, "--action")
    except OSError as exc:
        return fail(f"{exc.filename}: {exc.strerror}")
    except ValueError as exc:
        return fail(str(exc))
    where = f"position {args.position}"
    if not isinstance(pos, dict) or "game" not in pos:
        return fail(f"{where}: a position is a JSON object with a 'game' field")
    try:
        game = find_game(str(pos["game"]))
        state = game.from_position(pos)
    except EngineError as exc:
        return fail(f"{where}: {exc}")
    try:
        event = event_from_json(act)
    except EngineError as exc:
        return fail(f"--action: {exc}")
    if not event.game_id:
        event = event._replace(game_id=state.game_id)
    if event.seq < 0:
        event = event._replace(seq=state.seq)
    annotate = getattr(game, "annotate", None)
    if annotate is not None:        # 够级: a play's derived annotation may be left out
        event = annotate(state, event)
    try:
        new = game.apply(state, event)
    except IllegalMove as exc:
        print(f"illegal {exc.rule_id}: {exc.reason}")
        return FOUND
    except InvalidEvent as exc:
        print(f"invalid: {exc}")
        return FOUND
    print("legal")
    print(json.dumps(game.to_position(new), ensure_ascii=False, indent=1))
    return OK
