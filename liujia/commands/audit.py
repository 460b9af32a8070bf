"""``liujia audit``: the audit report of one game of a log — integrity, the ruleset and its
options, every event's verdict, the disputed moment in full, the result recomputed, the
out-of-turn and timed actions (docs/audit.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from liujia.commands._common import (
    FOUND,
    OK,
    USAGE,
    fail,
    find_game_log,
    make_part,
    place_new,
    safe_json,
    safe_text,
    target_refused,
)


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("audit", help="the audit report of one game: integrity, verdicts, "
                       "views, result, timing",
                       description="Audit one game of a log: the file's seal and chain, its "
                       "signature and key, the file chain, the deal's commitment; the ruleset "
                       "version and every option; every event's verdict; for the disputed "
                       "--seq N (or every decision of --seat K; by default the first illegal "
                       "event) what each seat knew, the legal options with the one chosen and "
                       "the text of every rule cited; the result recomputed against the logged "
                       "one; the out-of-turn and timed actions and impossible timestamps. Exit "
                       "0 if all is well, 1 if anything illegal or corrupt was found, 2 for a "
                       "usage or I/O error.")
    p.add_argument("path", metavar="LOG", help="log file (*.arrows, *.jsonl, *.jsonl.gz) or "
                   "folder of logs")
    p.add_argument("--game", required=True, metavar="ID", help="game id")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--seq", type=int, metavar="N", help="the disputed event (1 … the "
                       "game's last seq)")
    which.add_argument("--seat", type=int, metavar="K", help="every decision of seat K")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="the report as one JSON document")
    out.add_argument("--html", metavar="FILE", help="write the report as one self-contained "
                     "HTML file (prints well)")
    p.add_argument("--force", action="store_true", help="with --html: replace FILE if it "
                   "exists (else an existing FILE is refused)")
    p.add_argument("--all-events", action="store_true", help="text: one line per event "
                   "(default: runs of the same verdict; --json and --html list each)")
    p.add_argument("--db", metavar="FILE", default=None, help="the warehouse whose anchors "
                   "the game is checked against (default: $LIUJIA_DB, else the default one)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar (shown on a "
                   "terminal only, for a folder: the files read in search of the game)")
    return p


def previous_game(log: Any, events: list[Any]) -> list[Any] | None:
    """The intact events of the previous game of the session the game names, when the same
    file holds it."""
    import json
    try:
        prev = json.loads(events[0].payload or "{}").get("previous_game")
    except ValueError:
        return None
    found = next((g for g in log.games if g.game_id == prev), None)
    return found.events if found is not None and found.events else None


def warehouse_anchors(db: str | None) -> tuple[str, dict[str, Any]]:
    """The warehouse's name and its anchors (``warehouse.anchors``; none if it has none)."""
    from warehouse.anchors import load
    from warehouse.db import db_path
    where = db_path(db)
    return str(where), load(where)[0]


def find_game(path: str, game_id: str, quiet: bool = True) -> tuple[Path, Any, Any] | str:
    """The file holding the game, its LogRead and the game's GameLog; or an error line.
    Unless ``quiet``, a folder's files are counted on a bar on stderr as they are read (on a
    terminal only)."""
    files = _FilesBar(quiet)
    try:
        return find_game_log([path], game_id, files.reading)
    finally:
        files.close()


class _FilesBar:
    """The files of a folder read in search of a game, as a bar on stderr (made at the first
    file, when there are several, stderr is a terminal and not ``quiet``)."""

    def __init__(self, quiet: bool) -> None:
        self._quiet, self._bar = quiet, None
        self._asked = False

    def reading(self, i: int, n: int, path: Path) -> None:
        """File i (from 0) of n is about to be read."""
        if not self._asked:
            from liujia.commands._progress import bar
            self._asked = True
            self._bar = bar(self._quiet or n < 2, total=n, unit="file", desc="audit: reading")
        if self._bar is not None:
            self._bar.n = i
            self._bar.set_postfix_str(safe_text(path.name), refresh=False)
            self._bar.refresh()

    def close(self) -> None:
        """Remove the bar."""
        if self._bar is not None:
            self._bar.close()


def write_html(target: str, text: str, force: bool = False) -> str | None:
    """Write the HTML file whole (a temporary file made afresh, never through a link, then
    moved into place; over an existing FILE only with ``force``); the error line, or None."""
    out = Path(target)
    tmp = out.with_name(f".{out.name}.part")
    try:
        make_part(tmp)
        fd = os.open(tmp, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        if force:
            os.replace(tmp, out)                 # replaces a link itself, never its target
        elif not place_new(tmp, out):
            os.unlink(tmp)
            return f"{target}: exists (use --force to replace it)"
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return f"--html {target}: cannot write it ({exc.strerror or exc})"
    return None


def run(args: argparse.Namespace) -> int:
    """Build the report and print it (or write it as HTML)."""
    from engine.audit.html import report_html
    from engine.audit.report import AuditError, build_report
    from engine.audit.text import report_lines
    from liujia.keys import trusted_ids

    refused = target_refused(args.html, args.force)
    if refused is not None:
        return fail(refused, USAGE)
    if args.db is not None and not os.path.isfile(args.db):
        return fail(f"--db {args.db}: no warehouse there (its anchors are what --db is for)")
    found = find_game(args.path, args.game, args.quiet)
    if isinstance(found, str):
        return fail(found)
    path, log, game = found
    if not game.events:
        return fail(f"game {args.game} in {path} is damaged from its start: {game.error}",
                    FOUND)
    try:
        report = build_report(game.events, log=log, game_log=game, path=str(path),
                              seq=args.seq, seat=args.seat, trusted=trusted_ids(),
                              anchors=warehouse_anchors(args.db),
                              previous=previous_game(log, game.events))
    except AuditError as exc:
        return fail(str(exc))
    except Exception as exc:  # noqa: BLE001 - an engine bug: one line, never a traceback
        return fail(f"the engine failed while auditing game {args.game} ({type(exc).__name__}: "
                    f"{exc}); please report this", FOUND)
    code = OK if report["summary"]["ok"] else FOUND
    if args.json:
        print(safe_json(report))
    elif args.html:
        err = write_html(args.html, report_html(report), args.force)
        if err is not None:
            return fail(err)
        word = "no problem found" if code == OK else \
            f"{len(report['summary']['problems'])} problem(s) found"
        print(safe_text(f"wrote {args.html}: audit of game {args.game}, {word}"))
    else:
        for line in report_lines(report, args.all_events):
            sys.stdout.write(safe_text(line) + "\n")
    return code
