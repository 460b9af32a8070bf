"""``liujia check``: is one action legal in a position? Prints the verdict and the new position.

Both inputs are untrusted: a position file is refused unless it is a position some game can
reach (each game's ``from_position`` checks it, docs/positions.md), and every refusal is one
line naming the file or ``--action`` and, for a position, the field. Exit codes: 0 legal, 1
illegal (or a malformed action: ``invalid``), 2 the inputs cannot be read or are refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import Event, event_from_json
from engine.games import GAMES, find_game
from engine.games.codec import MAX_DEPTH, shown, too_deep
from liujia.commands._common import FOUND, OK, USAGE, fail

MAX_INPUT = 16 << 20      # bytes: no position or action is anywhere near this


class InputError(Exception):
    """An input that cannot be read or is refused: the one line to print (exit 2)."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("check", help="check one action against a position",
                       description="Check one action (JSON, docs/actions.md) against a "
                       "position (JSON, docs/positions.md). Prints 'legal' and the resulting "
                       "position, or 'illegal RULE-ID: reason' (exit 1); an unreadable or "
                       "impossible position exits 2.")
    p.add_argument("--position", required=True, metavar="FILE",
                   help="position JSON file ('-' for standard input)")
    p.add_argument("--action", required=True, metavar="JSON",
                   help="the action as JSON, e.g. '{\"kind\":\"PLAY\",\"seat\":2,"
                   "\"cards\":[\"Th\"]}', or @FILE")
    return p


def one_line(text: str) -> str:
    """Text safe to print on one terminal line: every unprintable character (controls, line
    breaks, bidirectional and other format characters) as an escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _read_text(source: str, what: str, kind: str = "a position") -> str:
    """The UTF-8 text of a file ('-': standard input), at most MAX_INPUT bytes of it."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_INPUT + 1)
        else:
            with open(source, "rb") as f:
                data = f.read(MAX_INPUT + 1)
    except OSError as exc:
        raise InputError(f"{what}: {exc.strerror or exc}") from None
    if len(data) > MAX_INPUT:
        raise InputError(f"{what} is larger than {MAX_INPUT >> 20} MiB: not {kind}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} is not UTF-8 text (byte {exc.start} is 0x{data[exc.start]:02x}"
                         "): a position is a JSON file") from None


def _max_digits() -> int:
    get = getattr(sys, "get_int_max_str_digits", None)
    return get() if get is not None else 4300


def read_json(text: str, what: str) -> Any:
    """The JSON value of a text, nested no deeper than a position; or InputError."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} is not JSON: {exc.msg} at line {exc.lineno} column "
                         f"{exc.colno}") from None
    except RecursionError:
        raise InputError(f"{what} is nested too deeply to be read (more than "
                         f"{MAX_DEPTH} levels is never a position or an action)") from None
    except ValueError as exc:          # e.g. an integer longer than Python converts
        if "int_max_str_digits" in str(exc) or "Exceeds the limit" in str(exc):
            raise InputError(f"{what} is not JSON liujia reads: a number of more than "
                             f"{_max_digits()} digits") from None
        raise InputError(f"{what} is not JSON liujia reads: {one_line(str(exc))[:120]}") \
            from None
    where = too_deep(value)
    if where is not None:
        raise InputError(f"{what}: {where or 'the value'!s} is nested more than {MAX_DEPTH} "
                         "levels deep (never a position or an action)")
    return value


def load_position(pos: Any, where: str) -> tuple[Any, Any]:
    """The game and the state of a position; InputError naming the field otherwise."""
    if not isinstance(pos, dict) or "game" not in pos:
        raise InputError(f"{where}: a position is a JSON object with a 'game' field")
    name = pos["game"]
    if not isinstance(name, str) or name not in GAMES:
        raise InputError(f"{where}: position field 'game': must be one of "
                         f"{', '.join(sorted(GAMES))}, got {shown(name)}")
    game = find_game(name)
    try:
        return game, game.from_position(pos)
    except EngineError as exc:
        raise InputError(f"{where}: {exc}") from None


def action_event(game: Any, state: Any, act: Any) -> Event:
    """The action as an event of the position's game at its next seq (a play's derived
    annotation, where the game has one, filled in when left out); InputError when it is not an action."""
    try:
        event = event_from_json(act)
    except EngineError as exc:
        raise InputError(f"--action: {exc}") from None
    if not event.game_id:
        event = event._replace(game_id=state.game_id)
    if event.seq < 0:
        event = event._replace(seq=state.seq)
    event = game.annotate(state, event)     # a derived annotation may be left out
    return event


def verdict(game: Any, state: Any, event: Event) -> tuple[int, str, Any]:
    """(exit code, verdict line, new state or None) of one event against a state: legal,
    ``illegal RULE-ID: reason`` or ``invalid: reason``."""
    try:
        new = game.apply(state, event)
    except IllegalMove as exc:
        return FOUND, f"illegal {exc.rule_id}: {exc.reason}", None
    except InvalidEvent as exc:
        return FOUND, f"invalid: {exc}", None
    return OK, "legal", new


def check_texts(position_text: str, action_text: str, where: str) -> tuple[int, str]:
    """The whole check on two texts: (exit code, what to print); InputError for exit 2."""
    pos = read_json(position_text, where)
    act = read_json(action_text, "--action")
    game, state = load_position(pos, where)
    code, line, new = verdict(game, state, action_event(game, state, act))
    out = one_line(line)
    if new is not None:
        out += "\n" + json.dumps(game.to_position(new), ensure_ascii=False, indent=1)
    return code, out


def run(args: argparse.Namespace) -> int:
    """Check the action and print the verdict."""
    where = f"position {one_line(args.position)}"
    try:
        pos_text = _read_text(args.position, where)
        act_text = args.action
        if act_text.startswith("@"):
            act_text = _read_text(act_text[1:], f"--action file {one_line(act_text[1:])}",
                                  "an action")
        code, out = check_texts(pos_text, act_text, where)
    except InputError as exc:
        return fail(one_line(str(exc)))
    except Exception as exc:  # noqa: BLE001 - a bug must not exit 1, which means "illegal"
        return fail(one_line(f"internal error, please report it: {type(exc).__name__}: "
                             f"{exc}")[:300], USAGE)
    print(out)
    return code
