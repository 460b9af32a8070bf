"""``liujia validate``: replay every game of the logs (Arrow, liujia.jsonl) and report ok /
illegal / incomplete / corrupt: file by file here, or each file on its own in local worker
processes (``-j``) or on a Dask cluster (``--scheduler``), the same report byte for byte.

A file validated on its own links the games of a session within it; a game whose previous game
is in an earlier file comes back as a ``Link``, which the run makes in file order against the
final state of that game: sent back by its worker when a later file is likely to name it (the
last game of each session in its file), else replayed again here."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import stat
import sys
from collections import deque
from collections.abc import (
    Callable,
    Collection,
    Generator,
    Iterable,
    Iterator,
    MutableMapping,
    MutableSequence,
    Sequence,
)
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.commit import CommitStatus
from engine.errors import IllegalMove, LogIntegrityError
from engine.events import Event
from engine.games import find_game
from engine.games.frame import outcome_text
from engine.jsonl import is_jsonl
from engine.jsonl_reader import JsonlRead, read_any, scan_files
from engine.log import LogRead, LogWriter, NotALog
from engine.replay import Verdict, fold, game_module
from engine.verdict import (
    REQUIRE,
    FileVerdict,
    GameVerdict,
    engine_failure,
    file_verdict,
    previous_game,
    session_link,
)
from liujia.commands._common import (
    FOUND,
    OK,
    USAGE,
    add_executor_options,
    fail,
    find_logs,
    make_part,
    place_new,
    safe_json,
    safe_text,
)
from liujia.keys import trusted_ids

SALVAGE_SUFFIX = ".salvaged.arrows"
SCHEDULER_ENV = "LIUJIA_SCHEDULER"     # as ingest.executor (not imported for a lone file)
INTERRUPTED = 130
_UNSENT: Any = object()                # a final state its worker did not send


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("validate", help="replay and check every game in event logs (Arrow, "
                       "liujia.jsonl)",
                       description="Replay every game in the logs (*.arrows, *.jsonl, "
                       "*.jsonl.gz) through the engine. Per game: "
                       "ok, illegal (seq, seat, rule id, reason), incomplete (no GAME_END) or "
                       "corrupt (what and where). Files are validated here one by one, or "
                       "each on its own in local worker processes (-j) or on a Dask cluster "
                       "(--scheduler): the same report, the sessions linked across files alike. "
                       "Exit 0 if all is ok, 1 if anything is not, 2 if a file or folder could "
                       "not be read, a salvage not written, or the workers or the cluster "
                       "failed; 130 on Ctrl-C.")
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
    add_executor_options(
        p, "validate the files in N local worker processes, the same report (default: one "
        "per CPU for big runs of several files, else here; never more than the files or the "
        "CPUs; 1: here)", "validate the files",
        "the workers must see the same paths and run the same liujia")
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


def _error_row(path: Path, game_id: str, events: int, error: object) -> dict[str, Any]:
    """The row of a game on which the engine failed (a bug)."""
    return {"file": str(path), "game_id": game_id, "status": "error", "code": "engine_error",
            "events": events, "reason": str(error)}


def _replay_row(path: Path, v: Verdict, has_problems: bool) -> dict[str, Any]:
    """The row of a game's replay, before its session link and commitment."""
    row = {"file": str(path), **v.to_json()}
    if v.status == "incomplete" and has_problems:
        row["reason"] += " (the file is damaged: see the file-level row)"
    elif v.status == "incomplete":
        row["reason"] = str(v.error)
    return row


def _link_row(row: dict[str, Any], previous: str | None, session: IllegalMove | None,
              commitment: CommitStatus) -> None:
    """Add to the row of a game that replayed its session link (``previous``: the previous
    game named, not at hand; ``session``: the link's break) and its commitment, whose break
    outranks the link's."""
    if previous is not None:
        row["previous_game"] = previous            # noted at the end if never seen
    if session is not None:
        row.update(status="illegal", seq=0, seat=session.seat, rule_id=session.rule_id,
                   reason=session.reason)
    row["commitment"] = commitment.state
    if not commitment.ok:
        row.update(status="corrupt", code="commitment",
                   reason=f"commitment: {commitment.message}")


def _game_row(path: Path, gv: GameVerdict, has_problems: bool) -> dict[str, Any]:
    """The row of one game of a file whose chain verifies, from its verdict."""
    if gv.code == "engine_error":
        return _error_row(path, gv.game_id, len(gv.events), gv.error)
    v = gv.replay
    assert v is not None
    row = _replay_row(path, v, has_problems)
    if v.status == "ok":
        assert gv.commitment is not None
        _link_row(row, gv.previous_game, gv.session, gv.commitment)
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


@dataclass(frozen=True)
class Link:
    """A game of a file validated on its own whose previous game is not in that file: what the
    run needs to link it, in file order, as a run file by file would."""

    row: int                         # its row in the file's rows
    game: int                        # its place among the file's games
    previous: str                    # the previous game it names
    start: Event                     # its GAME_START (its game's check_session reads it)
    base: dict[str, Any]             # its row before the link: the file and the replay
    commitment: CommitStatus
    events: int                      # its events (an engine failure's row counts them)
    line: int | None = None          # liujia.jsonl: the line of its GAME_START


@dataclass
class FileReport:
    """What validating one file gave: its rows, the log read (None if it is no log) and,
    for a file that could not be read at all, why (an I/O problem: exit 2). A file validated
    on its own (``validate_alone``) keeps no log but what the run needs to link its games
    to the files before it and the files after it to its games."""

    rows: MutableSequence[dict[str, Any]] = field(default_factory=list)
    log: LogRead | None = None
    io_error: str | None = None
    warnings: list[str] = field(default_factory=list)
    signature: str = ""              # the file's signature in words (signature_text)
    sessions: list[tuple[str, str, int]] = field(default_factory=list)
    #                                # (session, game, its length) of each ok game whose game
    #                                # has sessions of a fixed length (e.g. LH-68)
    damaged: bool = False            # a log, damaged: --salvage writes its intact prefix
    links: list[Link] = field(default_factory=list)      # its games to link (alone)
    kept: dict[str, int] = field(default_factory=dict)   # game id → the place of the game
    #                                # whose final state a later game naming it is linked to
    finals: dict[str, Any] = field(default_factory=dict)  # the final states of those of
    #                                # them a later file most likely names (alone)


def _verdict(path: Path, finals: MutableMapping[str, Any], strict: bool, require: str,
             trusted: dict[str, str] | None) -> FileVerdict | FileReport:
    """The file's verdict, or the report of a file that cannot be read at all."""
    try:
        return file_verdict(path, finals=finals, strict=strict, require=require,
                            trusted=trusted or {})
    except NotALog as exc:                     # the file cannot be read (code io)
        return FileReport(io_error=f"{path}: {exc.message}")
    except OSError as exc:
        return FileReport(io_error=f"{path}: {exc.strerror or exc}")


def validate_file(path: Path, finals: MutableMapping[str, Any] | None = None,
                  strict: bool = False, require: str = "none",
                  trusted: dict[str, str] | None = None) -> FileReport:
    """Rows of the validation report for one file: one per game, one per file-level problem;
    finals (game id → final state) links the games of a session across files; strict: an
    unknown field of a liujia.jsonl line makes its game corrupt. An Arrow log is read as a
    stream (``validate_stream``): the same rows, in memory that does not grow with it."""
    if not is_jsonl(path):
        from liujia.commands.validate_stream import stream_report
        return stream_report(path, {} if finals is None else finals, require, trusted)
    fv = _verdict(path, {} if finals is None else finals, strict, require, trusted)
    return fv if isinstance(fv, FileReport) else _report(path, fv, require)


def validate_alone(path: Path, strict: bool = False, require: str = "none",
                   trusted: dict[str, str] | None = None) -> FileReport:
    """``validate_file`` of a file on its own (a worker's task): the sessions linked within
    it, each game whose previous game it lacks left as a ``Link`` (``Linker`` makes them),
    and no log kept (the run reads a damaged file again to salvage it). An Arrow log is read
    as a stream, as by ``validate_file``."""
    if not is_jsonl(path):
        from liujia.commands.validate_stream import stream_report
        return stream_report(path, None, require, trusted)
    return alone_whole(path, strict, require, trusted)


def alone_whole(path: Path, strict: bool = False, require: str = "none",
                trusted: dict[str, str] | None = None) -> FileReport:
    """``validate_alone`` of the file read whole (a liujia.jsonl file; any log, to compare)."""
    finals: dict[str, Any] = {}
    fv = _verdict(path, finals, strict, require, trusted)
    if isinstance(fv, FileReport):
        return fv
    rep = _report(path, fv, require, alone=True)
    for i, gv in enumerate(fv.games):        # the game whose state finals holds, per id
        if gv.replay is not None and gv.game_id in finals \
                and finals[gv.game_id] is gv.replay.state:
            rep.kept[gv.game_id] = i
    starts = [session_start(gv.events) for gv in fv.games]
    rep.finals = {gid: finals[gid] for gid in _tails(starts, rep.kept)}
    rep.log = None
    return rep


def session_start(events: Sequence[Event]) -> tuple[bool, str | None] | None:
    """Of a game's events, what ``_tails`` needs: None if they do not begin with GAME_START,
    else whether it names a session and the previous game it names."""
    if not events or events[0].kind != "GAME_START":
        return None
    return _in_session(events[0]), previous_game(events[0])


def _tails(starts: Sequence[tuple[bool, str | None] | None], kept: dict[str, int]
           ) -> list[str]:
    """The games of ``kept`` that a later file most likely names: the games of a session that
    no later game of this file names (its last game in the file); ``starts``: each game's
    ``session_start``, in file order."""
    places = {i: gid for gid, i in kept.items()}
    named: set[str] = set()
    out = []
    for i in range(len(starts) - 1, -1, -1):
        start = starts[i]
        if start is None:
            continue
        in_session, prev = start
        gid = places.get(i)
        if gid is not None and gid not in named and in_session:
            out.append(gid)
        if prev is not None:
            named.add(prev)
    return out


def _in_session(start: Event) -> bool:
    """True if the GAME_START names a session."""
    try:
        return isinstance(json.loads(start.payload or "{}").get("session"), str)
    except (ValueError, AttributeError):
        return False


def _report(path: Path, fv: FileVerdict, require: str, alone: bool = False) -> FileReport:
    """The report of a file from its verdict (``alone``: its unlinked games as links)."""
    if fv.unreadable is not None:
        row = _file_row(path, fv.unreadable)
        if isinstance(fv.unreadable, NotALog):
            row["status"] = "not_a_log"
        return FileReport([row])
    log = fv.log
    assert log is not None
    rows = [_file_row(path, prob) for prob in fv.problems]
    sessions: list[tuple[str, str, int]] = []
    links: list[Link] = []
    sig_row = _signature_row(path, fv, require)
    if sig_row is not None:
        rows.append(sig_row)
    for i, (g, gv) in enumerate(zip(log.games, fv.games, strict=True)):
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
        if alone and gv.previous_game is not None and gv.replay is not None \
                and gv.code != "engine_error":
            assert gv.commitment is not None
            links.append(Link(len(rows), i, gv.previous_game, g.events[0],
                              _replay_row(path, gv.replay, bool(fv.problems)), gv.commitment,
                              len(g.events), g.line_of(0) if hasattr(g, "line_of") else None))
        rows.append(row)
        if g.events and g.events[0].kind == "GAME_START":
            sessions.extend(_fixed_session(g.events[0]))
    warnings = [str(w) for w in log.warnings] if isinstance(log, JsonlRead) else []
    for r in rows:
        r["signature"] = fv.signature            # trusted, untrusted, unsigned or bad
    return FileReport(rows, log, warnings=warnings, signature=fv.signature_text,
                      sessions=sessions, damaged=not log.ok, links=links)


class Linker:
    """The final states of the games validated so far, as a run file by file holds them (game
    id → the state of the last game of that id that replayed), for files validated on their
    own: ``link`` makes a file's links in file order, then remembers its games. A state its
    worker did not send is replayed again from its file when a later game names it."""

    def __init__(self, strict: bool = False) -> None:
        self.strict = strict
        self.known: dict[str, tuple[Path, int, Any]] = {}     # id → (file, place, state)
        self._read: tuple[Path, LogRead] | None = None          # the file last read again

    def link(self, path: Path, rep: FileReport) -> None:
        """Link the file's games whose previous game is in an earlier file (their rows become
        those of a run file by file), then remember the final states of its games."""
        for ln in rep.links:
            if ln.previous not in self.known:
                continue                           # not at hand: its row names the game
            row = _linked_row(path, ln, self._final(ln.previous), rep.rows[ln.row])
            rep.rows[ln.row] = row
            if row["status"] == "error" and rep.kept.get(row["game_id"]) == ln.game:
                del rep.kept[row["game_id"]]      # the engine failed: no final state kept
        for gid, i in rep.kept.items():
            self.known[gid] = (path, i, rep.finals.get(gid, _UNSENT))

    def _final(self, game_id: str) -> Any:
        """The final state of the game remembered under this id."""
        path, i, state = self.known[game_id]
        if state is not _UNSENT:
            return state
        if self._read is None or self._read[0] != path:
            try:
                self._read = (path, read_any(path, strict=self.strict))
            except LogIntegrityError as exc:
                raise OSError(f"{path} changed while it was validated ({exc})") from None
        games = self._read[1].games
        v = fold(games[i].events) if i < len(games) and games[i].game_id == game_id else None
        if v is None or v.status != "ok":
            raise OSError(f"{path} changed while it was validated (game {game_id})")
        return v.state


def _linked_row(path: Path, ln: Link, final: Any, unlinked: dict[str, Any]) -> dict[str, Any]:
    """The row of a game linked to its previous game's final state: the row a run file by
    file makes (``unlinked``: its row as its file alone gave it)."""
    try:
        err = session_link(ln.start, final)
    except Exception as exc:  # noqa: BLE001 - an engine bug: reported as game_verdict does
        row = _error_row(path, unlinked["game_id"], ln.events, engine_failure(exc))
    else:
        row = dict(ln.base)
        _link_row(row, None, err, ln.commitment)
        if row.get("seq") == 0 and ln.line is not None:
            row["line"] = ln.line
    row["signature"] = unlinked["signature"]
    return row


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
                  rows: Sequence[dict[str, Any]] = (), ids: Collection[Any] | None = None
                  ) -> list[str]:
    """A note for each game whose previous game is not in the logs (the link between them is
    not checked; ``ids``: the game ids of the logs' rows, by default those of ``rows``), and
    for each fixed-length session of which fewer games than its length are here."""
    ids = {r.get("game_id") for r in rows} if ids is None else ids
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


@dataclass
class Tally:
    """What the summary, the session notes and the exit code need of a run's rows, kept
    instead of the rows (a big file has many)."""

    counts: dict[str, int] = field(default_factory=dict)   # per status, the games' rows
    bad_files: set[str] = field(default_factory=set)
    ids: set[Any] = field(default_factory=set)             # every row's game id
    named: list[dict[str, Any]] = field(default_factory=list)   # rows naming a previous game

    def add(self, row: dict[str, Any]) -> None:
        """Count one row."""
        st = row["status"]
        if row.get("game_id") or st == "ok":
            self.counts[st] = self.counts.get(st, 0) + 1
        if st != "ok":
            self.bad_files.add(row["file"])
        self.ids.add(row.get("game_id"))
        if row.get("previous_game"):
            self.named.append(row)


def _summary(n_files: int, tally: Tally, n_io: int) -> str:
    summary = ", ".join(f"{n} {k}" for k, n in sorted(tally.counts.items())) or "no games"
    unread = f"; {n_io} file(s) or folder(s) could not be read" if n_io else ""
    return f"{n_files} file(s): {summary}; {len(tally.bad_files)} file(s) with problems{unread}"


def mixed_commitments(rows: Iterable[dict[str, Any]]) -> str | None:
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
    """Validate and print the report, file by file (here, or each file in a worker)."""
    if args.workers is not None and args.workers < 1:
        return fail("--workers must be at least 1")
    found = find_inputs(args.paths)
    if isinstance(found, str):
        return fail(found)
    files, io_errors = found
    for msg in io_errors:
        fail(msg)
    salvage = _salvage_folder(args.salvage)
    if isinstance(salvage, str):
        return fail(salvage)
    if (len(files) < 2 or args.workers == 1) and not args.scheduler \
            and not os.environ.get(SCHEDULER_ENV):        # here: no executor to load
        return _print_report(args, files, io_errors, salvage, _here(args, files))
    from concurrent.futures.process import BrokenProcessPool

    from ingest.executor import ClusterError
    try:
        with _reports(args, files) as reports:
            return _print_report(args, files, io_errors, salvage, reports)
    except ClusterError as exc:
        return fail(str(exc), USAGE)
    except BrokenProcessPool as exc:
        return fail(f"a worker process died ({exc})", USAGE)


def _here(args: argparse.Namespace, files: list[Path]) -> Generator[FileReport, None, None]:
    """The files' reports, validated here one after the other, the sessions linked across
    them (the final states of their games kept packed: ``validate_stream.PackedFinals``)."""
    from liujia.commands.validate_stream import PackedFinals
    finals = PackedFinals()
    trusted = trusted_ids()
    for path in files:
        yield validate_file(path, finals, strict=args.strict, require=args.require,
                            trusted=trusted)


@contextlib.contextmanager
def _reports(args: argparse.Namespace, files: list[Path]
             ) -> Iterator[Generator[FileReport, None, None]]:
    """The files' reports in file order: validated here, or each on its own in local worker
    processes (-j, ingest's default) or on the Dask cluster asked for; the same reports."""
    from ingest.executor import cluster_executor, scheduler_address, submit
    from ingest.run import AHEAD, worker_count, worker_pool
    address = scheduler_address(args.scheduler)
    if address is not None:
        with cluster_executor(address, args.allow_insecure_cluster) as (ex, threads):
            yield _alone(args, files, lambda *a: submit(ex, *a), AHEAD * threads, True)
        return
    workers = worker_count(args.workers, _regular(files))
    if workers < 2:
        yield _here(args, files)
        return
    pool = worker_pool(workers, quiet_interrupt=True)
    try:
        yield _alone(args, files, lambda *a: submit(pool, *a), AHEAD * workers, False)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)   # what runs ends with its file
        raise
    pool.shutdown()


def _regular(files: list[Path]) -> list[Path]:
    """The files that are regular files (the others are reported as they are reached)."""
    out = []
    for f in files:
        try:
            if stat.S_ISREG(os.stat(f).st_mode):
                out.append(f)
        except OSError:
            pass
    return out


def _alone(args: argparse.Namespace, files: list[Path], submit: Callable[..., Future[Any]],
           ahead: int, cluster: bool) -> Generator[FileReport, None, None]:
    """The files' reports, each file validated on its own by ``submit`` (at most ``ahead``
    handed out and not yet taken), taken back in file order and linked (``Linker``)."""
    from ingest.executor import ClusterError
    trusted = trusted_ids()
    linker = Linker(args.strict)
    todo = deque(files)
    window: deque[tuple[Path, Future[Any]]] = deque()
    try:
        while todo or window:
            while todo and len(window) < ahead:
                path = todo.popleft()
                window.append((path, submit(validate_alone, path, args.strict, args.require,
                                            trusted)))
            path, future = window.popleft()
            try:
                rep: FileReport = future.result()
            except ClusterError:
                raise
            except Exception as exc:
                if not cluster:
                    raise
                raise ClusterError(f"the cluster failed while validating {path} "
                                   f"({type(exc).__name__}: {exc})") from None
            linker.link(path, rep)
            yield rep
    finally:
        for _, future in window:
            future.cancel()


def _print_report(args: argparse.Namespace, files: list[Path], io_errors: list[str],
                  salvage: Path | None, reports: Generator[FileReport, None, None]) -> int:
    """Print each file's report as it comes (in file order), the notes and the summary; the
    exit code. Ctrl-C: one line, what was validated is printed, exit 130."""
    from tqdm import tqdm
    bar = tqdm(files, unit="file", desc="validate", leave=False,
               disable=args.quiet or not sys.stderr.isatty())
    out: Callable[[str], None] = bar.write if not bar.disable else print
    tally = Tally()
    used: set[str] = set()
    salvaged = failed = unsigned = done = 0
    sessions: list[tuple[str, str, int]] = []
    try:
        for path, rep in zip(bar, reports, strict=True):
            if rep.io_error is not None:
                io_errors.append(rep.io_error)
                fail(rep.io_error)
            if rep.signature and not args.json and not rep.signature.startswith("BAD") and (
                    rep.signature != "unsigned" or args.require != "none"):   # bad: its row
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
                tally.add(row)
            if salvage is not None and rep.damaged:
                got = _salvaged(path, rep, salvage, used, args.strict)
                salvaged += isinstance(got, Path)
                if isinstance(got, Path):
                    print(safe_text(f"{path}: intact prefix written to {got}"), file=sys.stderr)
                if isinstance(got, str):
                    failed += 1
                    fail(got)
            done += 1
    except KeyboardInterrupt:
        reports.close()                        # the files handed to workers and not begun
        bar.close()
        return fail(f"interrupted: {done} of {len(files)} file(s) validated, their rows "
                    "printed; no summary", INTERRUPTED)
    bar.close()
    for note in session_notes(sessions, tally.named, tally.ids):
        print(safe_text(f"liujia: {note}"), file=sys.stderr)
    print(_summary(len(files), tally, len(io_errors)) + unsigned_note(unsigned),
          file=sys.stderr if args.json else sys.stdout)
    if salvaged:
        print(safe_text(f"intact prefixes written to {args.salvage} ({salvaged} file(s))"),
              file=sys.stderr)
    if io_errors or failed:
        return USAGE
    return FOUND if tally.bad_files else OK


def _salvaged(path: Path, rep: FileReport, folder: Path, used: set[str],
              strict: bool) -> Path | str | None:
    """salvage_file of a damaged file, read again if its report kept no log (validated in a
    worker)."""
    log = rep.log
    if log is None:
        try:
            log = read_any(path, strict=strict)
        except (OSError, LogIntegrityError) as exc:
            return f"--salvage: cannot read {path} again ({exc})"
    return salvage_file(path, log, folder, used)
