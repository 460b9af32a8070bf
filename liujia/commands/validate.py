"""``liujia validate``: replay every game of the logs (Arrow, liujia.jsonl) and report ok /
illegal / incomplete / corrupt."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import LogIntegrityError
from engine.games import find_game
from engine.games.frame import outcome_text
from engine.jsonl_reader import JsonlRead, scan_files
from engine.log import LogRead, LogWriter, NotALog
from engine.replay import game_module
from engine.verdict import REQUIRE, FileVerdict, GameVerdict, file_verdict
from liujia.commands._common import (
    FOUND,
    OK,
    USAGE,
    fail,
    find_logs,
    make_part,
    place_new,
    safe_json,
    safe_text,
)
from liujia.keys import trusted_ids

SALVAGE_SUFFIX = ".salvaged.arrows"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("validate", help="replay and check every game in event logs (Arrow, "
                       "liujia.jsonl)",
                       description="Replay every game in the logs (*.arrows, *.jsonl, "
                       "*.jsonl.gz) through the engine. Per game: "
                       "ok, illegal (seq, seat, rule id, reason), incomplete (no GAME_END) or "
                       "corrupt (what and where). Exit 0 if all is ok, 1 if anything is not, 2 "
                       "if a file or folder could not be read or a salvage not written.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="log files or folders of *.arrows, "
                   "*.jsonl and *.jsonl.gz")
    p.add_argument("--strict", action="store_true",
                   help="a field of a *.jsonl line that the format does not know makes its "
                   "game corrupt (default: a warning on stderr, the field ignored)")
    p.add_argument("--require", choices=REQUIRE, default="none",
                   help="refuse (report as refused, exit 1) the logs that are not signed "
                   "(signed) or not signed by a key trusted here (trusted: `liujia keys "
                   "trust`); default none: every log is read, its signature reported")
    p.add_argument("--json", action="store_true", help="one JSON object per game (and per "
                   "damaged file) on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--salvage", metavar="DIR", help="write the intact, verified prefix of every "
                   "damaged file to DIR/<name>.salvaged.arrows")
    return p


def _file_row(path: Path, err: LogIntegrityError) -> dict[str, Any]:
    row = {"file": str(path), "game_id": err.game_id or None, "status": "corrupt",
           "code": err.code, "offset": err.offset if err.offset >= 0 else None,
           "reason": str(err)}
    line = getattr(err, "line", -1)           # a liujia.jsonl problem: its line and field
    if line >= 0:
        row.update(line=line, field=getattr(err, "field", "") or None)
    return row


def find_inputs(paths: list[str]) -> tuple[list[Path], list[str]] | str:
    """The log files (*.arrows, *.jsonl, *.jsonl.gz) under the paths and one message per path
    or folder that cannot be read; or a usage error (a path that does not exist, no log)."""
    return find_logs(paths, scan_files, "*.arrows log files (nor *.jsonl, *.jsonl.gz ones)")


def _line(row: dict[str, Any]) -> str:
    """A report row as one line of text (not yet escaped for the terminal)."""
    st = row["status"]
    gid = row.get("game_id") or "-"
    if st == "ok":
        r = row.get("result") or {}
        how = str(r.get("reason", "ended")) if r else ""
        if "deciding_seat" in r:
            how += f" by seat {r['deciding_seat']}"
        won = outcome_text(row.get("outcomes"), row.get("winning_side"))
        dealt = ", deal as committed" if row.get("commitment") == "verified" else ""
        return f"ok          {gid}  {row['events']} events  {how}".rstrip() + f", {won}{dealt}"
    if st == "illegal":
        seat = row.get("seat")
        where = f"seq {row.get('seq')} seat {seat if seat is not None and seat >= 0 else '-'}"
        rid = row.get("rule_id")
        reason = str(row["reason"])
        if rid and not reason.startswith(f"{rid}:"):
            reason = f"{rid}: {reason}"
        return f"illegal     {gid}  {where}  {reason}"
    if st == "incomplete":
        return f"incomplete  {gid}  {row['reason']}"
    if st == "error":
        return f"error       {gid}  {row['reason']}"
    if st == "refused":
        return f"refused     {row['reason']}"
    return f"corrupt     {gid}  {row['reason']}"


def _game_row(path: Path, gv: GameVerdict, has_problems: bool) -> dict[str, Any]:
    """The row of one game of a file whose chain verifies, from its verdict."""
    if gv.code == "engine_error":
        return {"file": str(path), "game_id": gv.game_id, "status": "error",
                "code": "engine_error", "events": len(gv.events), "reason": str(gv.error)}
    v = gv.replay
    assert v is not None
    row = {"file": str(path), **v.to_json()}
    if v.status == "incomplete" and has_problems:
        row["reason"] += " (the file is damaged: see the file-level row)"
    elif v.status == "incomplete":
        row["reason"] = str(v.error)
    if v.status == "ok":
        if gv.previous_game is not None:
            row["previous_game"] = gv.previous_game   # noted at the end if never seen
        err = gv.session
        if err is not None:
            row.update(status="illegal", seq=0, seat=err.seat, rule_id=err.rule_id,
                       reason=err.reason)
        assert gv.commitment is not None
        row["commitment"] = gv.commitment.state
        if gv.code == "commitment":
            row.update(status="corrupt", code="commitment",
                       reason=f"commitment: {gv.commitment.message}")
    return row


def _signature_row(path: Path, fv: FileVerdict, require: str) -> dict[str, Any] | None:
    """A file-level row when the signature is bad or the policy refuses the file (unsigned,
    or not trusted)."""
    if fv.refusal is None:
        return None
    if fv.refusal.code == "bad_signature":
        return {"file": str(path), "game_id": None, "status": "corrupt",
                "code": "bad_signature", "offset": None, "reason": fv.signature_text}
    return {"file": str(path), "game_id": None, "status": "refused", "code": fv.signature,
            "offset": None, "reason": f"--require {require}: the file is {fv.signature}"}


@dataclass
class FileReport:
    """What validating one file gave: its rows, the log read (None if it is no log) and,
    for a file that could not be read at all, why (an I/O problem: exit 2)."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    log: LogRead | None = None
    io_error: str | None = None
    warnings: list[str] = field(default_factory=list)
    signature: str = ""              # the file's signature in words (signature_text)
    sessions: list[tuple[str, str, int]] = field(default_factory=list)
    #                                # (session, game, its length) of each ok game whose game
    #                                # has sessions of a fixed length (e.g. LH-68)


def validate_file(path: Path, finals: dict[str, Any] | None = None,
                  strict: bool = False, require: str = "none",
                  trusted: dict[str, str] | None = None) -> FileReport:
    """Rows of the validation report for one file: one per game, one per file-level problem;
    finals (game id → final state) links the games of a session across files; strict: an
    unknown field of a liujia.jsonl line makes its game corrupt."""
    finals = {} if finals is None else finals
    try:
        fv = file_verdict(path, finals=finals, strict=strict, require=require,
                          trusted=trusted or {})
    except NotALog as exc:                     # the file cannot be read (code io)
        return FileReport(io_error=f"{path}: {exc.message}")
    except OSError as exc:
        return FileReport(io_error=f"{path}: {exc.strerror or exc}")
    if fv.unreadable is not None:
        row = _file_row(path, fv.unreadable)
        if isinstance(fv.unreadable, NotALog):
            row["status"] = "not_a_log"
        return FileReport([row])
    log = fv.log
    assert log is not None
    rows = [_file_row(path, prob) for prob in fv.problems]
    sessions: list[tuple[str, str, int]] = []
    sig_row = _signature_row(path, fv, require)
    if sig_row is not None:
        rows.append(sig_row)
    for g, gv in zip(log.games, fv.games, strict=True):
        if g.error is not None:
            row = _file_row(path, g.error)
            row["game_id"] = g.game_id
            row["intact_events"] = len(g.events)
            rows.append(row)
            continue
        row = _game_row(path, gv, bool(fv.problems))
        seq = row.get("seq")
        line = g.line_of(seq) if hasattr(g, "line_of") and isinstance(seq, int) else None
        if line is not None:                      # a liujia.jsonl game: the event's line
            row["line"] = line
        rows.append(row)
        if g.events and g.events[0].kind == "GAME_START":
            sessions.extend(_fixed_session(g.events[0]))
    warnings = [str(w) for w in log.warnings] if isinstance(log, JsonlRead) else []
    for r in rows:
        r["signature"] = fv.signature            # trusted, untrusted, unsigned or bad
    return FileReport(rows, log, warnings=warnings, signature=fv.signature_text,
                      sessions=sessions)


def _fixed_session(start: Any) -> list[tuple[str, str, int]]:
    """[(session, game, length)] for a game whose sessions have a fixed number of games (the
    game's ``session_length`` hook), else []."""
    game = game_module(start)
    hook = game.session_length
    p = json.loads(start.payload or "{}")
    if hook is None or not isinstance(p.get("session"), str):
        return []
    try:
        return [(p["session"], game.GAME_ID, int(hook(game.Options.from_dict(p["options"]))))]
    except Exception:  # noqa: BLE001 - the game replayed: its options read; never fatal here
        return []


def session_notes(sessions: list[tuple[str, str, int]],
                  rows: Sequence[dict[str, Any]] = ()) -> list[str]:
    """A note for each game whose previous game is not in the logs (the link between them is
    not checked), and for each fixed-length session of which fewer games than its length
    are here."""
    ids = {r.get("game_id") for r in rows}
    out = [f"note: game {r['game_id']} names previous game {r['previous_game']}, which is not "
           "in these logs: the link between them (the session's rules) is not checked"
           for r in rows if r.get("previous_game") and r["previous_game"] not in ids]
    seen: dict[tuple[str, str], list[int]] = {}
    for session, game, length in sessions:
        seen.setdefault((session, game), [0, length])[0] += 1
    return out + [f"note: session {s} ({find_game(g).TITLE}): {n} of its {length} games are in "
                  "these logs: the game is unfinished, or its other games are in other files"
                  for (s, g), (n, length) in sorted(seen.items()) if n < length]


def _free_name(stem: str, folder: Path, used: set[str]) -> str:
    """The first of stem.salvaged.arrows, stem-2.salvaged.arrows, ... not used in this run
    and not an existing file in folder (a folder of that name is left to fail)."""
    name, k = stem + SALVAGE_SUFFIX, 1
    while name in used or (os.path.lexists(folder / name) and not (folder / name).is_dir()):
        k += 1
        name = f"{stem}-{k}{SALVAGE_SUFFIX}"
    return name


def salvage_file(path: Path, log: LogRead, folder: Path, used: set[str]) -> Path | str | None:
    """Write the intact prefix of a damaged log to folder under a new name (never replacing a
    file there, nor one written earlier in this run); the file written, None when nothing is
    intact, or what went wrong. Written to a temporary name and moved into place, so a failed
    write (a full disk) leaves nothing behind; neither name is followed if a symbolic link."""
    if not any(g.events for g in log.games):
        return None
    name = _free_name(path.stem, folder, used)
    used.add(name)
    target = folder / name
    tmp = folder / f".{name}.part"
    writer: LogWriter | None = None
    try:
        if target.is_dir():
            raise IsADirectoryError(21, "a folder of that name is in the way")
        make_part(tmp)
        made = os.lstat(tmp)
        writer = LogWriter(tmp)
        for g in log.games:
            writer.write_game(g.events)
        writer.close()
        now = os.lstat(tmp)
        if (now.st_dev, now.st_ino) != (made.st_dev, made.st_ino):
            raise OSError(f"{tmp} was replaced while being written")
        while not place_new(tmp, target):          # appeared meanwhile: the next free name
            name = _free_name(path.stem, folder, used)
            used.add(name)
            target = folder / name
    except OSError as exc:
        if writer is not None:
            writer.abort()
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return f"--salvage {target}: cannot write ({exc.strerror or exc})"
    return target


def _salvage_folder(arg: str | None) -> Path | str | None:
    """The --salvage folder, made if need be; or why it cannot be used."""
    if arg is None:
        return None
    folder = Path(arg)
    try:
        if folder.exists() and not folder.is_dir():
            return f"--salvage {arg}: not a folder"
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:                    # a dangling symbolic link is in the way
        return f"--salvage {arg}: not a folder"
    except OSError as exc:
        return f"--salvage {arg}: cannot make the folder ({exc.strerror or exc})"
    return folder


def _summary(n_files: int, rows: list[dict[str, Any]], n_io: int) -> str:
    counts: dict[str, int] = {}
    for row in rows:
        if row.get("game_id") or row["status"] == "ok":
            counts[row["status"]] = counts.get(row["status"], 0) + 1
    bad_files = len({r["file"] for r in rows if r["status"] != "ok"})
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "no games"
    unread = f"; {n_io} file(s) or folder(s) could not be read" if n_io else ""
    return f"{n_files} file(s): {summary}; {bad_files} file(s) with problems{unread}"


def mixed_commitments(rows: list[dict[str, Any]]) -> str | None:
    """A note when a file's games mix committed deals and uncommitted ones (a game without a
    commitment among committed ones may have been substituted), else None."""
    states = [r.get("commitment") for r in rows if r.get("game_id") and r.get("commitment")]
    bare = sum(s == "none" for s in states)
    if not bare or bare == len(states):
        return None
    return (f"mixes {len(states) - bare} game(s) with a committed deal and {bare} without one: "
            "nothing shows the uncommitted deals were dealt before play")


def unsigned_note(n_unsigned: int) -> str:
    """What the summary adds for unsigned files: that they prove nothing of their writer."""
    if not n_unsigned:
        return ""
    return (f"; {n_unsigned} unsigned: a seal and a chain show damage, not who wrote a log "
            "(anyone can rewrite and re-seal an unsigned one: sign with 'liujia sign', check "
            "with --require trusted)")


def run(args: argparse.Namespace) -> int:
    """Validate and print the report, file by file."""
    found = find_inputs(args.paths)
    if isinstance(found, str):
        return fail(found)
    files, io_errors = found
    for msg in io_errors:
        fail(msg)
    salvage = _salvage_folder(args.salvage)
    if isinstance(salvage, str):
        return fail(salvage)
    from tqdm import tqdm
    bar = tqdm(files, unit="file", desc="validate", leave=False,
               disable=args.quiet or not sys.stderr.isatty())
    out: Callable[[str], None] = bar.write if not bar.disable else print
    rows: list[dict[str, Any]] = []
    finals: dict[str, Any] = {}
    used: set[str] = set()
    salvaged = failed = unsigned = 0
    trusted = trusted_ids()
    sessions: list[tuple[str, str, int]] = []
    for path in bar:
        rep = validate_file(path, finals, strict=args.strict, require=args.require,
                            trusted=trusted)
        if rep.io_error is not None:
            io_errors.append(rep.io_error)
            fail(rep.io_error)
        if rep.signature and not args.json and not rep.signature.startswith("BAD") and (
                rep.signature != "unsigned" or args.require != "none"):   # a bad one: its row
            out(safe_text(f"{path}: {rep.signature}"))
        unsigned += rep.signature == "unsigned"
        mixed = mixed_commitments(rep.rows)
        if mixed is not None and not args.json:
            out(safe_text(f"{path}: {mixed}"))
        sessions.extend(rep.sessions)
        for w in rep.warnings:
            print(safe_text(f"liujia: warning: {w}"), file=sys.stderr)
        for row in rep.rows:
            where = f"{row['file']}:{row['line']}" if row.get("line") is not None \
                else row["file"]
            out(safe_json(row) if args.json else safe_text(f"{where}: " + _line(row)))
        rows.extend(rep.rows)
        if salvage is not None and rep.log is not None and not rep.log.ok:
            done = salvage_file(path, rep.log, salvage, used)
            salvaged += isinstance(done, Path)
            if isinstance(done, Path):
                print(safe_text(f"{path}: intact prefix written to {done}"), file=sys.stderr)
            if isinstance(done, str):
                failed += 1
                fail(done)
    bar.close()
    for note in session_notes(sessions, rows):
        print(safe_text(f"liujia: {note}"), file=sys.stderr)
    print(_summary(len(files), rows, len(io_errors)) + unsigned_note(unsigned),
          file=sys.stderr if args.json else sys.stdout)
    if salvaged:
        print(safe_text(f"intact prefixes written to {args.salvage} ({salvaged} file(s))"),
              file=sys.stderr)
    if io_errors or failed:
        return USAGE
    return FOUND if any(r["status"] != "ok" for r in rows) else OK
