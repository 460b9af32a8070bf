"""``liujia convert IN OUT``: an Arrow log to the liujia.jsonl interchange format and back (also
gzip-compressed, ``*.jsonl.gz``); every event, and its digest, is carried over unchanged.

The input is verified first as ``liujia validate`` verifies it (seq, hash chain, seal, lines):
a damaged input is not converted (exit 1), never "repaired". The output is written under a
temporary name in OUT's folder and moved into place when complete, so a failed run leaves
nothing behind; an existing OUT is replaced only with ``--force``. Whether the games are legal
is not checked here: that is ``liujia validate``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from engine.errors import LogIntegrityError
from engine.events import Event
from engine.jsonl import SUFFIXES, JsonlWriter, is_jsonl
from engine.jsonl_reader import JsonlReader
from engine.log import LOG_SUFFIX, LogWriter, NotALog, read_log
from liujia.commands._common import FOUND, OK, USAGE, fail, make_part, place_new, safe_text

FORMATS = (LOG_SUFFIX, *SUFFIXES)


class Damaged(Exception):
    """The input is not a whole, verified log: the one-line reason."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser(
        "convert", help="convert an Arrow log to liujia.jsonl(.gz) and back",
        description="Convert a log between the Arrow log format (*.arrows) and the liujia.jsonl "
        "interchange format (*.jsonl, gzip-compressed *.jsonl.gz; docs/interchange.md), chosen "
        "by the file names. Events and digests are carried over unchanged; the input's hash "
        "chains (and an Arrow log's seal) are verified first and a damaged input is not "
        "converted. Exit 0 converted, 1 the input is damaged or not a log, 2 usage or I/O "
        "error.")
    p.add_argument("input", metavar="IN", help="a *.arrows, *.jsonl or *.jsonl.gz file")
    p.add_argument("output", metavar="OUT", help="the file to write: *.arrows, *.jsonl or "
                   "*.jsonl.gz (its folder must exist)")
    p.add_argument("--force", action="store_true", help="replace OUT if it exists")
    p.add_argument("--strict", action="store_true", help="a field of a *.jsonl line that the "
                   "format does not know makes the input damaged (default: a warning, and "
                   "the field is dropped)")
    return p


def _fmt(path: str) -> str | None:
    return next((s for s in sorted(FORMATS, key=len, reverse=True) if path.endswith(s)), None)


def _arrow_games(path: str) -> Iterator[list[Event]]:
    """The verified games of a whole Arrow log; Damaged if anything is wrong with it."""
    log = read_log(path)
    problems: list[LogIntegrityError] = list(log.problems)
    problems += [g.error for g in log.games if g.error is not None]
    if problems:
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise Damaged(f"{problems[0]}{more}")
    for g in log.games:
        yield g.events


def _jsonl_games(reader: JsonlReader) -> Iterator[list[Event]]:
    """The games of a liujia.jsonl file, one at a time; Damaged at the first problem."""
    for g in reader:
        if reader.problems:
            raise Damaged(str(reader.problems[0]))
        if g.error is not None:
            raise Damaged(str(g.error))
        yield g.events
    if reader.problems:
        raise Damaged(str(reader.problems[0]))


def _part(out: Path) -> Path:
    """A new, empty temporary file beside out (``make_part``)."""
    tmp = out.with_name(f".{out.name}.part")
    make_part(tmp)
    return tmp


def _place(tmp: Path, out: Path, force: bool) -> None:
    """Move the finished file into place; without force never over an existing file."""
    if force:
        os.replace(tmp, out)
    elif not place_new(tmp, out):
        raise FileExistsError(17, "exists (use --force to replace it)", str(out))


def convert(src: str, dst: str, *, strict: bool = False, force: bool = False,
            ) -> tuple[int, int, list[str]]:
    """Convert one log file to another format; (games, events, warnings). Raises Damaged
    (input damaged), NotALog (not a log, or io: unreadable), OSError (cannot write)."""
    out = Path(dst)
    reader = JsonlReader(src, strict=strict) if is_jsonl(src) else None
    games = _jsonl_games(reader) if reader is not None else _arrow_games(src)
    tmp = _part(out)
    writer: LogWriter | JsonlWriter | None = None
    try:
        writer = JsonlWriter(tmp, compress=dst.endswith(".gz")) if is_jsonl(dst) \
            else LogWriter(tmp)
        for events in games:
            writer.write_game(events)
        writer.close()
        _place(tmp, out, force)
    except BaseException:
        if writer is not None:
            writer.abort()
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    warnings = [str(w) for w in reader.warnings] if reader is not None else []
    return writer.games, writer.events, warnings


def run(args: argparse.Namespace) -> int:
    """Convert IN to OUT and say what was written."""
    src, dst = args.input, args.output
    fin, fout = _fmt(src), _fmt(dst)
    if fin is None:
        return fail(f"{src}: not a log file name (*.arrows, *.jsonl or *.jsonl.gz)")
    if fout is None:
        return fail(f"{dst}: the output must be named *.arrows, *.jsonl or *.jsonl.gz")
    try:
        if not os.path.isfile(src):
            return fail(f"{src}: {'not a regular file' if os.path.exists(src) else 'no such file'}")
        if os.path.lexists(dst):
            if os.path.exists(dst) and os.path.samefile(src, dst):
                return fail(f"{dst}: is the input itself")
            if not args.force:
                return fail(f"{dst}: exists (use --force to replace it)")
            if os.path.isdir(dst):
                return fail(f"{dst}: is a folder")
        parent = Path(dst).parent
        if not parent.is_dir():
            return fail(f"{parent}: no such folder")
    except (OSError, ValueError) as exc:
        return fail(f"{src}: {exc}")
    try:
        games, events, warnings = convert(src, dst, strict=args.strict, force=args.force)
    except Damaged as exc:
        return fail(f"{src}: not converted, the input is damaged: {exc}", FOUND)
    except NotALog as exc:
        if exc.code == "io":
            return fail(f"{src}: {exc.message}", USAGE)
        return fail(f"{src}: not converted: {exc.message}", FOUND)
    except OSError as exc:
        name = exc.filename if exc.filename is not None else dst
        return fail(f"{name}: cannot write ({exc.strerror or exc}); nothing written", USAGE)
    for w in warnings:
        print(safe_text(f"liujia: warning: {w}"), file=sys.stderr)
    print(safe_text(f"converted {games} game(s), {events} event(s): {src} ({fin[1:]}) -> "
                    f"{dst} ({fout[1:]})"))
    return OK
