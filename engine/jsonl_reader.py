"""Reading a liujia.jsonl(.gz) file as a stream of games, each verified as ``engine.log``
verifies an Arrow log's (seq dense from 0, the digest chain, GAME_START first), with limits
on what is held in memory (docs/interchange.md)."""

from __future__ import annotations

import gzip
import os
import zlib
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from io import BufferedIOBase
from pathlib import Path

from engine.events import GENESIS, Event, chain_digest
from engine.ids import shown_id
from engine.jsonl import (
    FORMAT,
    FORMAT_FAMILY,
    HEADER_FIELDS,
    MAX_BYTES,
    MAX_DISTINCT,
    MAX_GAME_EVENTS,
    MAX_GENERATOR,
    MAX_LINE_BYTES,
    MAX_LINES,
    MAX_NAMED,
    SCHEMA_VERSION,
    JsonlError,
    LineProblem,
    is_jsonl,
    is_log_name,
    line_event,
    line_game_id,
    strict_loads,
)
from engine.log import GameLog, LogRead, NotALog, open_regular, read_log, scan_log_files

MAX_PENDING = 10_000        # latest lines of no known game kept to place them by the next line


@dataclass
class JsonlGame(GameLog):
    """The verified events of one game of a liujia.jsonl file, with the line of each."""

    lines: list[int] = field(default_factory=list)
    first_line: int = 0

    def line_of(self, seq: int) -> int | None:
        """The line of the event with this seq, if it was read."""
        return self.lines[seq] if 0 <= seq < len(self.lines) else None


@dataclass
class JsonlRead(LogRead):
    """Everything read from one liujia.jsonl file: its games in file order, file-level
    problems, and warnings (fields the format does not know, ignored)."""

    warnings: list[JsonlError] = field(default_factory=list)
    lines: int = 0

    @property
    def ok(self) -> bool:
        """True when nothing is wrong with the file or any game's chain (there is no seal)."""
        return not self.problems and all(g.error is None for g in self.games)


def _open(path: str) -> tuple[BufferedIOBase, BufferedIOBase]:
    """The file's bytes as a binary stream (decompressed for *.gz) and the file itself;
    NotALog ``io`` if it cannot be opened or is not a regular file (``open_regular``)."""
    fd, _ = open_regular(path)
    try:
        raw = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    if path.endswith(".gz"):
        return gzip.GzipFile(filename="", mode="rb", fileobj=raw), raw
    return raw, raw


_GZ_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile)


class JsonlReader:
    """Streams the games of one liujia.jsonl(.gz) file, one at a time, each checked as
    ``engine.log`` checks an Arrow log's: seq dense from 0, the digest chain, GAME_START first.

    A line that is not a well-formed event ends its game's verified events there (the game
    keeps the intact prefix and an error naming the line and field); the other games are read
    on. A line is of the game its ``game_id`` names; one whose game id cannot be read is
    placed by the next good line (``_resolve``). Iterating (once) may raise NotALog (``io``:
    cannot be read; ``not_a_log``: no header; ``unsupported_format``); ``problems`` (file
    level) and ``warnings`` are complete when the iteration ends. ``strict``: a field the
    format does not know is an error, not a warning."""

    def __init__(self, path: str | os.PathLike[str], *, strict: bool = False) -> None:
        self.path = str(path)
        self.strict = strict
        self.problems: list[JsonlError] = []
        self.warnings: list[JsonlError] = []
        self.lines = 0
        self._unknown: dict[str, list[int]] = {}       # name -> [first line, lines]
        self._unknown_other = [0, 0]
        self._cur: JsonlGame | None = None              # the game being read
        self._last = GENESIS                            # its last verified digest
        self._kinds: set[str] = set()                   # its distinct kinds and tags
        self._tags: set[str] = set()
        self._seen: dict[str, tuple[int, int]] = {}     # finished game id -> its lines
        # lines of no known game (not JSON ...) since the last good line: the first of them,
        # and the latest ones (a run of them may end in the next game's first lines)
        self._pending_first: tuple[LineProblem, int, int] | None = None
        self._pending: deque[tuple[LineProblem, int, int]] = deque(maxlen=MAX_PENDING)

    def _error(self, code: str, message: str, line: int, *, field: str = "",
               game: str = "", seq: int = -1, offset: int = -1) -> JsonlError:
        return JsonlError(code, message, path=self.path, line=line, field=field, game_id=game,
                          seq=seq, offset=offset)

    def _raw_lines(self, f: BufferedIOBase) -> Iterator[tuple[int, int, bytes | None, bool]]:
        """(line number, byte offset, bytes or None if too long, last line without newline),
        stopping at the limits (a file-level problem)."""
        offset = 0
        n = 0
        while True:
            raw = f.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            n += 1
            self.lines = n
            start = offset
            offset += len(raw)
            if n > MAX_LINES or offset > MAX_BYTES:
                self.problems.append(self._error(
                    "too_big", f"more than {MAX_LINES:,} lines or {MAX_BYTES >> 20} MiB of "
                    "text: not read from here on (split the file)", n, offset=start))
                return
            if len(raw) > MAX_LINE_BYTES:
                while not raw.endswith(b"\n"):           # skip the rest, never holding it
                    raw = f.readline(1 << 16)
                    offset += len(raw)
                    if not raw or offset > MAX_BYTES:
                        break
                yield n, start, None, False
                continue
            yield n, start, raw, not raw.endswith(b"\n")

    def _header(self, n: int, raw: bytes | None) -> None:
        not_log = f"line {n}: not a liujia.jsonl file (its first line must be the header " \
                  f"{{\"format\": \"{FORMAT}\"}})"
        if raw is None:
            raise NotALog("not_a_log", not_log, path=self.path)
        try:
            obj = strict_loads(raw.decode().removeprefix("\ufeff"))
        except (LineProblem, UnicodeDecodeError):
            raise NotALog("not_a_log", not_log, path=self.path) from None
        fmt = obj.get("format") if isinstance(obj, dict) else None
        if not isinstance(fmt, str) or not fmt.startswith(FORMAT_FAMILY):
            raise NotALog("not_a_log", not_log, path=self.path)
        if fmt != FORMAT:
            raise NotALog("unsupported_format", f"line {n}: format {shown_id(fmt)} is not one "
                          f"this liujia reads ({FORMAT})", path=self.path)
        schema = obj.get("event_schema", SCHEMA_VERSION)
        if schema != SCHEMA_VERSION or type(schema) is not int:
            raise NotALog("unsupported_format", f"line {n}: event schema {shown_id(schema)} is "
                          f"not one this liujia reads ({SCHEMA_VERSION})", path=self.path)
        gen = obj.get("generator", "")
        if not isinstance(gen, str) or len(gen) > MAX_GENERATOR:
            self.problems.append(self._error(
                "bad_header", f"'generator' must be a string of at most {MAX_GENERATOR} "
                "characters", n, field="generator"))
        for name in obj:
            if name not in HEADER_FIELDS:
                if self.strict:
                    self.problems.append(self._error(
                        "unknown_field", f"the header has a field the format does not know, "
                        f"{shown_id(name)}", n, field=shown_id(name)))
                else:
                    self._note_unknown(name, n)

    def _note_unknown(self, name: str, n: int) -> None:
        seen = self._unknown.get(name)
        if seen is not None:
            seen[1] += 1
        elif len(self._unknown) < MAX_NAMED:
            self._unknown[name] = [n, 1]
        else:
            self._unknown_other[0] = self._unknown_other[0] or n
            self._unknown_other[1] += 1

    def _finish_warnings(self) -> None:
        for name, (first, count) in self._unknown.items():
            more = f" (and on {count - 1} more line(s))" if count > 1 else ""
            self.warnings.append(self._error(
                "unknown_field", f"field {shown_id(name)} is not in the format: ignored (the "
                f"digest does not cover it){more}", first, field=shown_id(name)))
        first, count = self._unknown_other
        if count:
            self.warnings.append(self._error(
                "unknown_field", f"{count} more unknown field(s) of other names: ignored",
                first))

    def __iter__(self) -> Iterator[JsonlGame]:
        f, raw = _open(self.path)
        try:
            yield from self._games(f)
        finally:
            for stream in (f, raw):
                try:
                    stream.close()
                except (OSError, *_GZ_ERRORS):
                    pass
            self._finish_warnings()

    def _games(self, f: BufferedIOBase) -> Iterator[JsonlGame]:
        lines = self._raw_lines(f)
        got_header = False
        while True:
            try:
                item = next(lines, None)
            except _GZ_ERRORS as exc:
                if not got_header:
                    raise NotALog("not_a_log", f"not gzip-compressed text ({exc})",
                                  path=self.path) from None
                self.problems.append(self._error(
                    "bad_gzip", f"the compressed data is damaged or cut after line "
                    f"{self.lines} ({type(exc).__name__}); the lines before it are read",
                    self.lines + 1))
                break
            except OSError as exc:
                raise NotALog("io", f"cannot read: {exc.strerror or exc}",
                              path=self.path) from None
            if item is None:
                break
            n, offset, raw, cut = item
            if raw is not None and not raw.strip():
                continue                                   # blank lines are allowed
            if not got_header:
                self._header(n, raw)
                got_header = True
                continue
            done = self._line(n, offset, raw, cut)
            if done is not None:
                yield done
        if self._pending_first is not None:                # bad lines at the very end
            self._resolve(same_game=True, seq_hint=None)
        if self._cur is not None:
            yield self._done(self._cur)
        if not got_header and not self.problems:
            self.problems.append(self._error(
                "empty", "the file is empty: no header, no events", self.lines or -1))

    def _blame(self, game: JsonlGame | None, pending: tuple[LineProblem, int, int]) -> None:
        """Make a line that is not a well-formed event the error of a game (the first error
        of a game stands), or of the file when it is of no game."""
        p, n, offset = pending
        if game is None:
            self.problems.append(self._error(
                p.code, p.message + " (a line of no game that can be told)", n,
                field=p.field, offset=offset))
        elif game.error is None:
            game.error = self._error(p.code, p.message, n, field=p.field, game=game.game_id,
                                     seq=len(game.events), offset=offset)

    def _resolve(self, *, same_game: bool, seq_hint: int | None,
                 ) -> tuple[LineProblem, int, int] | None:
        """Place the pending lines whose game id cannot be read, now that the next line of a
        game is known. If the game being read goes on, they are its own; if the next line
        begins another game at seq k, the last k of them are that game's first lines (all of
        them when k cannot be read) and the others the end of the game being read. Blames
        the game being read; returns the first line to blame the next game for, once made."""
        first, tail = self._pending_first, list(self._pending)
        self._pending_first = None
        self._pending.clear()
        assert first is not None
        if same_game:
            self._blame(self._cur, first)
            return None
        k = len(tail) if seq_hint is None else min(seq_hint, len(tail))
        if k < len(tail):
            self._blame(self._cur, first)
        return tail[-k] if k else None

    def _line(self, n: int, offset: int, raw: bytes | None, cut: bool) -> JsonlGame | None:
        """Read one event line into its game; the game finished by it, if any."""
        gid, event, err, unknown, seq_hint = self._parse(n, raw, cut)
        if gid is None:                   # its game cannot be told until the next line
            assert err is not None
            if self._pending_first is None:
                self._pending_first = (err, n, offset)
            self._pending.append((err, n, offset))
            return None
        cur = self._cur
        new_game = cur is None or gid != cur.game_id
        carried = None
        if self._pending_first is not None:
            carried = self._resolve(same_game=not new_game, seq_hint=seq_hint)
        finished = None
        if new_game:
            if cur is not None:
                self._seen.setdefault(cur.game_id, (cur.first_line, n - 1))
                finished = self._done(cur)
            cur = self._cur = JsonlGame(gid, first_line=n)
            self._last, self._kinds, self._tags = GENESIS, set(), set()
            if carried is not None:
                cur.first_line = carried[1]
                self._blame(cur, carried)
            if gid in self._seen:
                a, b = self._seen[gid]
                cur.error = self._error(
                    "split", f"the lines of game {gid} are not contiguous: it was read from "
                    f"lines {a}-{b} already, and this line is of it again; its lines from here "
                    "are not read", n, game=gid, offset=offset)
        assert cur is not None
        if cur.error is not None:
            return finished
        if err is not None:
            cur.error = self._error(err.code, err.message, n, field=err.field, game=gid,
                                    seq=len(cur.events), offset=offset)
            return finished
        assert event is not None
        if unknown:
            if self.strict:
                name = shown_id(unknown[0])
                cur.error = self._error(
                    "unknown_field", f"field {name} is not in the format (--strict)", n,
                    field=name, game=gid, seq=event.seq, offset=offset)
                return finished
            for name in unknown:
                self._note_unknown(name, n)
        bad = self._check(cur, event, self._last, self._kinds, self._tags, n, offset)
        if bad is not None:
            cur.error = bad
            return finished
        self._last = event.digest
        cur.events.append(event)
        cur.lines.append(n)
        if event.kind == "GAME_END":
            cur.complete = True
        return finished

    def _parse(self, n: int, raw: bytes | None, cut: bool,
               ) -> tuple[str | None, Event | None, LineProblem | None, list[str], int | None]:
        """A line's game id (None if it has no valid one), its event or what is wrong, its
        unknown field names, and its seq if it has an integer one."""
        if raw is None:
            return None, None, LineProblem("line_too_long", f"the line is longer than "
                                           f"{MAX_LINE_BYTES:,} bytes: not read"), [], None
        try:
            text = raw.decode()
        except UnicodeDecodeError as exc:
            return None, None, LineProblem("bad_json", f"not UTF-8 text (byte {exc.start + 1} "
                                           "of the line)"), [], None
        try:
            obj = strict_loads(text)
        except LineProblem as exc:
            torn = LineProblem("torn", "the last line is cut (no newline at its end) and is "
                               "not JSON: its writer stopped in the middle of it")
            return None, None, torn if cut else exc, [], None
        gid = line_game_id(obj)
        seq = obj.get("seq") if isinstance(obj, dict) else None
        seq_hint = seq if type(seq) is int else None
        try:
            event, unknown = line_event(obj)
        except LineProblem as exc:
            return gid, None, exc, [], seq_hint
        return gid, event, None, unknown, seq_hint

    def _check(self, cur: JsonlGame, e: Event, last: bytes, kinds: set[str], tags: set[str],
               n: int, offset: int) -> JsonlError | None:
        """What is wrong with the next event of a game in its context, or None."""
        expected = len(cur.events)
        gid = cur.game_id
        if e.seq != expected:
            if e.seq < expected:
                code, what = "duplicate", f"seq {e.seq} appears again after seq {expected - 1}"
            else:
                code, what = "gap", f"seq {expected} is missing: this line has seq {e.seq}"
            return self._error(code, what + " (a missing, duplicated or reordered line)", n,
                               field="seq", game=gid, seq=expected, offset=offset)
        if chain_digest(last, e) != e.digest:
            return self._error("digest", "the event does not match its digest: a field of "
                               "this line was changed, or an earlier line of the game", n,
                               field="digest", game=gid, seq=e.seq, offset=offset)
        if expected >= MAX_GAME_EVENTS:
            return self._error("too_long", f"the game has more than {MAX_GAME_EVENTS:,} "
                               "events", n, game=gid, seq=e.seq, offset=offset)
        for name, value, pool in (("kind", e.kind, kinds), ("tag", e.tag, tags)):
            if value not in pool:
                if len(pool) >= MAX_DISTINCT:
                    return self._error("bad_field", f"the game has more than {MAX_DISTINCT} "
                                       f"distinct {name}s", n, field=name, game=gid,
                                       seq=e.seq, offset=offset)
                pool.add(value)
        return None

    def _done(self, g: JsonlGame) -> JsonlGame:
        if g.error is None and g.events and g.events[0].kind != "GAME_START":
            g.error = self._error("no_start", "the first event of the game is not GAME_START",
                                  g.first_line, field="kind", game=g.game_id, seq=0)
        return g


def read_jsonl(path: str | os.PathLike[str], *, strict: bool = False) -> JsonlRead:
    """Read and verify a liujia.jsonl(.gz) file as ``engine.log.read_log`` reads an Arrow log
    (never accepts damaged data, keeps each game's intact prefix); raises NotALog."""
    reader = JsonlReader(path, strict=strict)
    games: list[GameLog] = list(reader)
    return JsonlRead(Path(path), games, list(reader.problems), sealed=False,
                     warnings=reader.warnings, lines=reader.lines)


def read_any(path: str | os.PathLike[str], *, strict: bool = False) -> LogRead:
    """read_jsonl for a *.jsonl(.gz) name, else engine.log.read_log."""
    return read_jsonl(path, strict=strict) if is_jsonl(path) else read_log(path)


def scan_files(
    paths: Iterable[str | os.PathLike[str]],
) -> tuple[list[Path], list[OSError]]:
    """Like ``engine.log.scan_log_files``, for every log liujia reads: folders give each
    *.arrows, *.jsonl and *.jsonl.gz below them, sorted (links to folders not followed); the
    errors met on the way are returned, not skipped."""
    return scan_log_files(paths, is_log_name)


