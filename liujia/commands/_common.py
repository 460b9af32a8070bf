"""Helpers shared by the sub-commands: printing untrusted text safely, finding logs and a game
in them, printing errors.

Everything a log holds (game ids, player ids, payload text, reasons quoting them) and every
file name is untrusted: a disputed log must not be able to clear the auditor's screen, recolour
it, set the window title or hide text behind a right-to-left override. Whatever a command prints
goes through ``safe_text`` / ``safe_lines`` (terminal text) or ``safe_json`` (JSON output).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Container, Sequence
from pathlib import Path
from typing import Any

from engine.errors import LogIntegrityError
from engine.events import Event
from engine.text import safe_json, safe_lines, safe_text

__all__ = ["FOUND", "OK", "USAGE", "add_db_option", "fail", "find_game_log", "find_logs",
           "load_game", "moment_text", "whole_number",
           "make_part", "open_warehouse", "place_new",
           "os_error_text", "safe_json",
           "safe_lines", "safe_text"]

OK, FOUND, USAGE = 0, 1, 2

def add_db_option(p: Any, what: str = "FILE") -> None:
    """The ``--db FILE`` and ``--lake DIR`` options of the commands that read the warehouse
    (either one; both land in ``args.db``: a folder is read as a lake)."""
    from warehouse.paths import ENV_VAR, default_db
    one = p.add_mutually_exclusive_group()
    one.add_argument("--db", metavar=what, default=None,
                     help=f"warehouse file (default ${ENV_VAR}, else {default_db()})")
    one.add_argument("--lake", dest="db", metavar="DIR", type=lake_folder, default=None,
                     help="read a Parquet lake (`liujia lake build`) instead of the "
                     "warehouse file")


def add_executor_options(p: Any, workers: str, work: str, note: str = "") -> None:
    """The ``-j/--workers``, ``--scheduler`` and ``--allow-insecure-cluster`` options of a
    command whose work runs on the executor (``ingest.executor``): ``workers`` the help of
    -j, ``work`` what runs on the cluster ("validate the files"), ``note`` what its workers
    need."""
    extra = f"; {note}" if note else ""
    p.add_argument("-j", "--workers", type=int, default=None, metavar="N", help=workers)
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help=f"{work} on this Dask cluster (tcp://HOST:PORT or tls://HOST:PORT; "
                   f"default $LIUJIA_SCHEDULER, else this machine{extra}; docs/cluster.md)")
    p.add_argument("--allow-insecure-cluster", action="store_true",
                   help="allow a scheduler that is not on this machine without TLS")


def lake_folder(text: str) -> str:
    """A --lake value: a folder holding a lake manifest (else a usage error)."""
    import argparse

    from warehouse.lake import MANIFEST, is_lake
    if not is_lake(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a liujia lake (a folder with "
                                         f"{MANIFEST}: `liujia lake build LOGS --out DIR`)")
    return text


def whole_number(text: str) -> int:
    """A --limit value: a whole number >= 0 (an argparse type)."""
    import argparse
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    return int(text)


def moment_text(x: Any) -> str:
    """A start or end time as 'YYYY-MM-DD HH:MM', '–' when there is none."""
    return "–" if x is None else x.strftime("%Y-%m-%d %H:%M")


def fail(message: str, code: int = USAGE) -> int:
    """Print an error line (escaped: it may quote a log or a file name) to stderr and return
    the exit code."""
    print(f"liujia: {safe_text(message)}", file=sys.stderr)
    return code


def os_error_text(exc: OSError) -> str:
    """'PATH: Permission denied': an OSError in the words of one error line."""
    what = exc.strerror or str(exc)
    name = exc.filename
    if name is None:
        return what
    return f"{os.fsdecode(name) if isinstance(name, bytes) else name}: {what}"


def find_logs(paths: Sequence[str], scan: Callable[..., Any] | None = None,
              kinds: str = "*.arrows log files") -> tuple[list[Path], list[str]] | str:
    """The log files under the given paths (``scan``: which) and one message per path or
    folder that cannot be read; or a usage error (a path that does not exist, no log file
    at all: 'no KINDS under …')."""
    if scan is None:
        from engine.log import scan_log_files
        scan = scan_log_files
    for p in paths:
        try:
            os.stat(p)
        except (FileNotFoundError, NotADirectoryError):
            return f"{p}: no such file or folder"
        except ValueError as exc:                   # an embedded NUL
            return f"{p}: {exc}"
        except OSError:
            pass                                    # reported below with the others
    files, errors = scan(paths)
    problems = [os_error_text(e) for e in errors]
    if not files and not problems:
        return f"no {kinds} under {', '.join(paths)}"
    return files, problems


def find_game_log(paths: Sequence[str], game_id: str,
                  progress: Callable[[int, int, Path], None] | None = None,
                  ) -> tuple[Path, Any, Any] | str:
    """The log file holding a game (*.arrows, *.jsonl, *.jsonl.gz under the paths), its
    reading and the game's GameLog; or an error message (files that are not logs or cannot
    be read are passed over, and named if the game is not found). ``progress(i, n, file)``
    is told before the i-th (from 0) of the n files is read."""
    from engine.jsonl_reader import read_any, scan_files
    from engine.log import NotALog

    found = find_logs(paths, scan_files, "*.arrows log files (nor *.jsonl, *.jsonl.gz ones)")
    if isinstance(found, str):
        return found
    files, skipped = found
    for i, f in enumerate(files):
        if progress is not None:
            progress(i, len(files), f)
        try:
            log = read_any(f)
        except LogIntegrityError as exc:
            io = isinstance(exc, NotALog) and exc.code == "io"
            skipped.append(f"{f}: {exc.message}" if io else str(exc))  # type: ignore[attr-defined]
            continue
        for g in log.games:
            if g.game_id == game_id:
                return f, log, g
    where = ", ".join(map(str, paths))
    if skipped:
        more = f" (and {len(skipped) - 1} more)" if len(skipped) > 1 else ""
        return f"game {game_id!r} is not in {where}; not read: {skipped[0]}{more}"
    return f"game {game_id!r} is not in {where}"


def load_game(paths: list[str], game_id: str) -> tuple[list[Event], str | None] | str:
    """The verified events of one game found in the logs and, for a damaged game, what is
    wrong (its events are then the intact prefix); or an error message (``find_game_log``)."""
    found = find_game_log(paths, game_id)
    if isinstance(found, str):
        return found
    f, _, g = found
    if g.error is not None:
        if not g.events:
            return f"game {game_id} in {f} is damaged: {g.error}"
        return g.events, f"{f} is damaged after seq {len(g.events) - 1}: {g.error}"
    return g.events, None


def open_warehouse(db: str | None) -> Any:
    """A read-only, verified connection to the warehouse (--db, else the default), or the
    one-line message of why it cannot be opened (a str)."""
    import duckdb

    from warehouse.db import WarehouseError, connect

    try:
        return connect(db, read_only=True)
    except (WarehouseError, duckdb.Error) as exc:
        return str(exc)
    except OSError as exc:
        return os_error_text(exc)


def make_part(tmp: Path) -> None:
    """Create the temporary file afresh: a leftover (even a symbolic link) is removed, never
    followed, and the new one is made with O_EXCL | O_NOFOLLOW so no link is written through."""
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    os.close(os.open(tmp, flags, 0o644))


def place_new(tmp: Path, target: Path) -> bool:
    """Move tmp to target unless target exists (never replacing a file): True when moved."""
    try:
        os.link(tmp, target)           # atomic, and fails when target exists
    except FileExistsError:
        return False
    except OSError:                    # no hard links here (some file systems): check, rename
        if os.path.lexists(target):
            return False
        os.rename(tmp, target)
        return True
    os.unlink(tmp)
    return True


def target_refused(target: str | None, force: bool) -> str | None:
    """Why a file to write (``--html FILE``) is refused before any work: a folder, or an
    existing file without ``--force``; None when it may be written."""
    if target and os.path.lexists(target):
        if os.path.isdir(target):
            return f"{target}: is a folder"
        if not force:
            return f"{target}: exists (use --force to replace it)"
    return None


def aligned(rows: Sequence[Sequence[str]], left: Container[int] = ()) -> list[str]:
    """Rows of text cells as aligned columns, one line each: the columns in ``left``
    left-aligned, the others right-aligned, each as wide as a terminal shows its widest cell
    (two columns for a Chinese character), two spaces apart, no trailing blanks."""
    from engine.table import shown_width

    widths = [max(shown_width(row[i]) for row in rows) for i in range(len(rows[0]))]

    def cell(i: int, c: str) -> str:
        pad = " " * (widths[i] - shown_width(c))
        return c + pad if i in left else pad + c
    return ["  ".join(cell(i, c) for i, c in enumerate(row)).rstrip() for row in rows]
