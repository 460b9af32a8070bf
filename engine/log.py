"""The append-only event log on disk: an Arrow IPC stream, one batch per game, sealed at close.

File layout: an Arrow IPC stream in the one event schema (readable by any Arrow reader),
followed by a 56-byte liujia seal: ``LJSEAL01`` + SHA-256 of every byte before the seal +
the stream's length (u64, little-endian) + ``LJEND001``, and, in a signed file, a signature
block after the seal (``engine.signing``: a recorder key's Ed25519 signature of a manifest
of the seal's SHA-256 and of every game, in order). The seal makes the file's end
explicit, so a file cut at a batch boundary, a zero-filled tail or a changed padding byte is
noticed; each event's chained digest then says which game and seq a change touched.
"""

from __future__ import annotations

import functools
import hashlib
import mmap
import os
import stat
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import LogIntegrityError
from engine.events import DIGEST_SIZE, GENESIS, Event, decode_batch, events_to_batch, schema
from engine.signing import (
    SIG_END,
    BadSignatureBlock,
    GameEntry,
    Signature,
    check_against,
    signature_block,
    split_signature,
)

if TYPE_CHECKING:       # pyarrow loads when a log is first read or written, not on import
    import pyarrow as pa

SEAL_MAGIC = b"LJSEAL01"
SEAL_END = b"LJEND001"
SEAL_SIZE = 8 + 32 + 8 + 8
LOG_SUFFIX = ".arrows"


class LogWriter:
    """Writes games to a new log file; each ``write_game`` is one flushed record batch."""

    def __init__(self, path: str | os.PathLike[str], signer: Any = None) -> None:
        self.path = Path(path)
        import pyarrow as pa
        self._sink = pa.OSFile(str(self.path), "wb")
        self._writer = pa.ipc.new_stream(self._sink, schema())
        self.games = 0
        self.events = 0
        self._closed = False
        self._signer = signer                   # an Ed25519 private key, or None: unsigned
        self._entries: list[GameEntry] = []

    def write_game(self, events: Sequence[Event]) -> None:
        """Append the sealed events of one game (or of a part of one) as one batch."""
        if not events:
            return
        self._writer.write_batch(events_to_batch(events))
        self._sink.flush()
        self.games += 1
        self.events += len(events)
        if self._signer is not None:
            self._note(events)

    def _note(self, events: Sequence[Event]) -> None:
        """Keep each game's manifest entry (a game written in parts: one entry)."""
        first, last = events[0], events[-1]
        prev = self._entries[-1] if self._entries else None
        if prev is not None and prev.game_id == first.game_id:
            self._entries[-1] = GameEntry(prev.game_id, prev.events + len(events),
                                          last.digest.hex(), prev.first_ts, last.ts)
        else:
            self._entries.append(GameEntry(first.game_id, len(events), last.digest.hex(),
                                           first.ts, last.ts))

    def close(self) -> None:
        """End the stream and write the seal."""
        if self._closed:
            return
        self._writer.close()
        self._sink.close()
        h = hashlib.sha256()
        with open(self.path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        size = self.path.stat().st_size
        with open(self.path, "ab") as f:
            f.write(SEAL_MAGIC + h.digest() + struct.pack("<Q", size) + SEAL_END)
            if self._signer is not None:
                f.write(signature_block(self._signer, h.digest(), size, self._entries))
            f.flush()
            os.fsync(f.fileno())
        self._closed = True

    def __enter__(self) -> LogWriter:
        return self

    def abort(self) -> None:
        """Give up the file without a seal (after a failed write): close it, ignore errors."""
        self._closed = True
        try:
            self._sink.close()
        except OSError:
            pass

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_log(path: str | os.PathLike[str], games: Iterable[Sequence[Event]],
              signer: Any = None) -> int:
    """Write several games to a new sealed log file (signed with ``signer``, an Ed25519
    private key, if given); returns the number of events."""
    with LogWriter(path, signer) as w:
        for g in games:
            w.write_game(g)
    return w.events


@dataclass
class GameLog:
    """The verified events of one game in a log, and what is wrong with the rest."""

    game_id: str
    events: list[Event] = field(default_factory=list)
    error: LogIntegrityError | None = None
    complete: bool = False

    @property
    def final_digest(self) -> bytes:
        """Digest of the last verified event: the game's fingerprint."""
        return self.events[-1].digest if self.events else GENESIS


@dataclass
class LogRead:
    """Everything read from one log file: verified games, and file-level problems."""

    path: Path
    games: list[GameLog]
    problems: list[LogIntegrityError]
    sealed: bool
    batches: list[pa.RecordBatch] = field(default_factory=list)   # decoded, zero-copy
    signature: Signature | None = None      # a signed file's signature, checked; None unsigned

    @property
    def ok(self) -> bool:
        """True when the file is sealed and every game's chain verifies."""
        return self.sealed and not self.problems and all(g.error is None for g in self.games)


class NotALog(LogIntegrityError):
    """A file that is not a liujia event log at all (code ``not_a_log``), or that cannot be
    read (code ``io``: cannot be opened, or not a regular file)."""

    def __init__(self, code: str, message: str, *, path: str = "") -> None:
        super().__init__(code, message, path=path)
        self.message = message          # without the code and the path


@functools.cache
def stream_header() -> bytes:
    """The bytes every log begins with: the Arrow stream's schema message (as this pyarrow
    writes it), before the first record batch."""
    import pyarrow as pa
    sink = pa.BufferOutputStream()
    pa.ipc.new_stream(sink, schema()).close()
    return sink.getvalue().to_pybytes()[:-8]       # without the end-of-stream marker


def __getattr__(name: str) -> Any:
    """``STREAM_HEADER`` (``stream_header()``) on first use (PEP 562)."""
    if name == "STREAM_HEADER":
        return stream_header()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def unfinished_log(data: memoryview, path: str) -> LogRead | None:
    """A file cut before its first batch began (empty, or a prefix of the stream header: a
    writer that died right after creating the file) read as an unsealed log of no games."""
    size = len(data)
    header = stream_header()
    if size >= len(header) or bytes(data) != header[:size]:
        return None
    what = "the file is empty" if size == 0 else \
        f"the file ends within the log's header ({size} of {len(header)} bytes)"
    return LogRead(Path(path), [], [LogIntegrityError(
        "unsealed", f"{what}: its writer stopped right after creating it; no events",
        path=path, offset=size)], sealed=False)


def read_seal(data: memoryview, path: str) -> tuple[int, list[LogIntegrityError], bytes | None]:
    """Length of the Arrow stream part, what is wrong with the seal, and the SHA-256 a whole
    seal holds, which the stream's bytes are still to be checked against (``data``: the file
    without a signature block)."""
    size = len(data)
    if size >= SEAL_SIZE:
        tail = bytes(data[size - SEAL_SIZE:])
        if tail[:8] == SEAL_MAGIC and tail[-8:] == SEAL_END:
            (length,) = struct.unpack("<Q", tail[40:48])
            if length != size - SEAL_SIZE:
                return size - SEAL_SIZE, [LogIntegrityError(
                    "seal_length", f"seal says the stream has {length} bytes, file has "
                    f"{size - SEAL_SIZE}", path=path, offset=size - SEAL_SIZE)], None
            return length, [], tail[8:40]
        # A seal followed by junk (e.g. a zero-filled tail)?
        pos = _rfind(data, SEAL_MAGIC)
        if pos >= 0 and bytes(data[pos + 48:pos + 56]) == SEAL_END:
            return pos, [LogIntegrityError(
                "tail_after_seal", f"{size - pos - SEAL_SIZE} unexpected bytes after the seal "
                "(zero-filled or appended tail)", path=path, offset=pos + SEAL_SIZE)], None
    return size, [LogIntegrityError(
        "unsealed", "no seal at the end of the file: the log was cut or its writer did not "
        "finish (torn tail)", path=path, offset=size)], None


def _rfind(data: memoryview, needle: bytes, chunk: int = 1 << 20) -> int:
    """Where ``needle`` last begins in ``data`` (-1: nowhere), read a chunk at a time from the
    end (the file is never copied whole)."""
    end = len(data)
    while end > 0:
        start = max(0, end - chunk)
        pos = bytes(data[start:end + len(needle) - 1]).rfind(needle)
        if pos >= 0:
            return start + pos
        end = start
    return -1


def checksum_error(path: str) -> LogIntegrityError:
    """The problem of a stream whose bytes do not hash to its seal's SHA-256."""
    return LogIntegrityError("checksum", "file checksum does not match its seal: bytes were "
                             "changed", path=path)


def _check_seal(data: memoryview, path: str) -> tuple[int, list[LogIntegrityError]]:
    """Length of the Arrow stream part, and what is wrong with the seal (``data``: the file
    without a signature block)."""
    length, problems, sha = read_seal(data, path)
    if sha is not None and hashlib.sha256(data[:length]).digest() != sha:
        return length, [checksum_error(path)]
    return length, problems


class LateEvent(Exception):
    """An event of a game that ``ChainCheck`` was told was handed on (``hand_on``)."""


class ChainCheck:
    """The event chains of a log's games, checked batch by batch in file order (games may
    interleave): per game, seq density from 0 and the digest chain."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.games: dict[str, GameLog] = {}     # the games held, in the order first seen
        self.place: dict[str, int] = {}         # their places among the file's games
        self.ready: list[GameLog] = []          # games that ended or broke (to take, cleared)
        self.done: set[str] = set()             # games handed on: an event of one is late
        self.held = 0                           # verified events held
        self._last: dict[str, bytes] = {}       # each held game's last verified digest

    def add(self, events: Sequence[Event], canon: Sequence[bytes]) -> None:
        """Check the next events of the file (``canon``: their canonical bytes); LateEvent
        for an event of a game handed on."""
        games, prev, path, ready = self.games, self._last, self.path, self.ready
        cur: GameLog | None = None
        last = GENESIS
        held = 0
        for e, cb in zip(events, canon, strict=True):
            if cur is None or e.game_id != cur.game_id:
                if cur is not None:
                    prev[cur.game_id] = last
                cur = games.get(e.game_id)
                if cur is None:
                    cur = self._new(e.game_id)
                last = prev[e.game_id]
            if cur.error is not None:
                continue
            expected = len(cur.events)
            if e.seq != expected:
                if e.seq < expected:
                    code, what = ("duplicate", f"seq {e.seq} appears again after seq "
                                  f"{expected - 1}")
                else:
                    code, what = ("gap", f"seq {expected} is missing: next event has seq {e.seq}")
                cur.error = LogIntegrityError(code, what + " (missing, duplicated or reordered "
                                              "event)", path=path, game_id=e.game_id, seq=expected)
                ready.append(cur)
                continue
            d = blake2b(last + cb, digest_size=DIGEST_SIZE).digest()
            if d != e.digest:
                cur.error = LogIntegrityError(
                    "digest", "event does not match its digest: a field was changed, or the "
                    "events before it were", path=path, game_id=e.game_id, seq=e.seq)
                ready.append(cur)
                continue
            last = d
            cur.events.append(e)
            held += 1
            if e.kind == "GAME_END":
                cur.complete = True
                ready.append(cur)
        if cur is not None:
            prev[cur.game_id] = last
        self.held += held

    def _new(self, game_id: str) -> GameLog:
        """A game's first event: the game held, at the next place."""
        if game_id in self.done:
            raise LateEvent(game_id)
        g = self.games[game_id] = GameLog(game_id)
        self.place[game_id] = len(self.place) + len(self.done)
        self._last[game_id] = GENESIS
        return g

    def close(self, game: GameLog) -> GameLog:
        """The game as the whole file gives it if no event of it follows: a first event that is
        not GAME_START breaks an unbroken chain (``no_start``)."""
        if game.error is None and game.events and game.events[0].kind != "GAME_START":
            game.error = LogIntegrityError("no_start", "first event is not GAME_START",
                                           path=self.path, game_id=game.game_id, seq=0)
        return game

    def hand_on(self, game: GameLog) -> None:
        """Forget a game (its events are no longer held); a later event of it is late."""
        gid = game.game_id
        del self.games[gid], self._last[gid], self.place[gid]
        self.done.add(gid)
        self.held -= len(game.events)

    def finish(self) -> list[GameLog]:
        """The games held, in the order first seen, closed (the file ended)."""
        return [self.close(g) for g in self.games.values()]


def iter_batches(
    data: pa.Buffer, path: str
) -> Iterator[tuple[pa.RecordBatch | None, Exception | None, int]]:
    """Record batches of the stream with the byte position after each; (None, None, end) last."""
    import pyarrow as pa
    src = pa.BufferReader(data)
    try:
        reader = pa.ipc.open_stream(src)
    except (pa.ArrowInvalid, pa.ArrowException, OSError) as exc:
        raise NotALog("not_a_log", f"not an Arrow IPC stream ({exc})", path=path) from None
    if not reader.schema.equals(schema(), check_metadata=False) or \
            (reader.schema.metadata or {}).get(b"liujia.log") != b"events":
        raise NotALog("not_a_log", "an Arrow stream, but not in the liujia event schema",
                      path=path)
    while True:
        try:
            batch = reader.read_next_batch()
        except StopIteration:
            yield None, None, src.tell()
            return
        except (pa.ArrowInvalid, pa.ArrowException, OSError) as exc:
            yield None, exc, src.tell()
            return
        yield batch, None, src.tell()


def open_regular(path: str) -> tuple[int, os.stat_result]:
    """A read-only descriptor of a regular file and its stat; NotALog (code ``io``) if it
    cannot be opened or is not a regular file (a FIFO would block, a device never end)."""
    def refuse(why: str) -> NotALog:
        return NotALog("io", why, path=path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise refuse("not a regular file")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise refuse(f"cannot open: {exc.strerror or exc}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):               # replaced after the check above
        os.close(fd)
        raise refuse("not a regular file")
    return fd, st


def map_file(path: str) -> mmap.mmap | None:
    """The bytes of a regular file (``open_regular``), memory-mapped; None if it is empty."""
    fd, st = open_regular(path)
    try:
        if st.st_size == 0:
            return None
        return mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as exc:           # ValueError: emptied since the fstat
        raise NotALog("io", f"cannot read: {getattr(exc, 'strerror', None) or exc}",
                      path=path) from None
    finally:
        os.close(fd)


def torn_error(exc: Exception, end: int, path: str) -> LogIntegrityError:
    """The problem of a record batch that cannot be read after byte ``end``."""
    return LogIntegrityError("torn", f"unreadable record batch after byte {end} ({exc}); "
                             "the events before it are intact", path=path, offset=end)


def decoded(batch: pa.RecordBatch, pos: int, end: int, path: str
            ) -> tuple[list[Event], list[bytes]] | LogIntegrityError:
    """A record batch's events and their canonical bytes, or its ``bad_batch`` problem (the
    batch is from byte ``end`` to byte ``pos``)."""
    import pyarrow as pa
    try:
        batch.validate(full=True)
        return decode_batch(batch)
    except (pa.ArrowException, ValueError, IndexError, OverflowError,
            struct.error) as exc:
        return LogIntegrityError(
            "bad_batch", f"record batch ending at byte {pos} cannot be decoded ({exc})",
            path=path, offset=end)


def trailing_error(end: int, stream_len: int, path: str) -> LogIntegrityError:
    """The problem of bytes between the end of the Arrow stream and the seal."""
    return LogIntegrityError("trailing", f"{stream_len - end} bytes after the end of the Arrow "
                             "stream", path=path, offset=end)


def is_sealed(problems: Sequence[LogIntegrityError]) -> bool:
    """True unless a problem says the seal is missing, misplaced or of the wrong length."""
    return not any(pr.code in ("unsealed", "tail_after_seal", "seal_length") for pr in problems)


def read_log(path: str | os.PathLike[str]) -> LogRead:
    """Read and verify a log file; never accepts damaged data, always keeps the intact prefix."""
    import pyarrow as pa
    p = Path(path)
    spath = str(p)
    mm = map_file(spath)
    buf = pa.py_buffer(mm if mm is not None else b"")
    data = memoryview(buf)
    unfinished = unfinished_log(data, spath)
    if unfinished is not None:
        return unfinished
    if len(data) < 8 or bytes(data[:4]) != b"\xff\xff\xff\xff":
        raise NotALog("not_a_log", "not an Arrow IPC stream (no stream header)", path=spath)
    data, signature, problems = file_signature(data, spath)
    stream_len, seal_problems = _check_seal(data, spath)
    problems += seal_problems
    check = ChainCheck(spath)
    batches: list[pa.RecordBatch] = []
    end = 0
    for batch, exc, pos in iter_batches(buf.slice(0, stream_len), spath):
        if batch is None:               # the end of the stream, or a torn batch (exc)
            if exc is None:
                end = pos
            else:
                problems.append(torn_error(exc, end, spath))
            break
        got = decoded(batch, pos, end, spath)
        if isinstance(got, LogIntegrityError):
            problems.append(got)
            break
        check.add(*got)
        batches.append(batch)
        end = pos
    if not problems and end != stream_len:
        problems.append(trailing_error(end, stream_len, spath))
    games = check.finish()
    if signature is not None:
        sha = None if problems else bytes(data[len(data) - SEAL_SIZE + 8:len(data) - 16])
        check_against(signature, sha, stream_len, game_entries(games))
    return LogRead(p, games, problems, sealed=is_sealed(problems), batches=batches,
                   signature=signature)


def game_entries(games: Sequence[GameLog]) -> list[GameEntry]:
    """The manifest entries of verified games (``engine.signing``)."""
    return [game_entry(g) for g in games]


def game_entry(g: GameLog) -> GameEntry:
    """The manifest entry of one verified game."""
    return GameEntry(g.game_id, len(g.events), g.final_digest.hex(),
                     g.events[0].ts if g.events else 0, g.events[-1].ts if g.events else 0)


def file_signature(data: memoryview, path: str
                   ) -> tuple[memoryview, Signature | None, list[LogIntegrityError]]:
    """The file without its signature block, the signature, and a problem if the block is
    there but cannot be read (the file is then read as it is: its seal will not be found)."""
    try:
        end, sig = split_signature(data)
    except BadSignatureBlock as exc:
        return data, None, [LogIntegrityError("bad_signature", f"{exc}", path=path)]
    return data[:end], sig, []


def sign_file(path: str | os.PathLike[str], signer: Any) -> Signature:
    """Sign a sealed, unsigned, intact log file in place (append its signature block)."""
    log = read_log(path)
    if log.signature is not None:
        raise LogIntegrityError("signed", "the file is signed already", path=str(path))
    if not log.ok:
        first = (log.problems or [g.error for g in log.games if g.error])[0]
        raise LogIntegrityError("not_intact", f"only an intact sealed log is signed ({first})",
                                path=str(path))
    size = os.path.getsize(path)
    sha = sealed_sha256(path)
    assert sha is not None
    block = signature_block(signer, sha, size - SEAL_SIZE, game_entries(log.games))
    with open(path, "ab") as f:
        f.write(block)
        f.flush()
        os.fsync(f.fileno())
    sig = read_log(path).signature
    assert sig is not None
    return sig


def sealed_sha256(path: str | os.PathLike[str]) -> bytes | None:
    """The SHA-256 in the file's seal if the seal is whole and the file's bytes still hash to
    it (the file is exactly as its writer sealed it), else None."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            if size >= 16:
                f.seek(size - 16)
                tail = f.read(16)
                if tail[8:] == SIG_END:             # a signed file: the seal is before it
                    size -= struct.unpack("<Q", tail[:8])[0]
            if size < SEAL_SIZE:
                return None
            f.seek(size - SEAL_SIZE)
            tail = f.read(SEAL_SIZE)
            if tail[:8] != SEAL_MAGIC or tail[-8:] != SEAL_END:
                return None
            (length,) = struct.unpack("<Q", tail[40:48])
            if length != size - SEAL_SIZE:
                return None
            f.seek(0)
            h = hashlib.sha256()
            left = length
            while left:
                chunk = f.read(min(left, 1 << 20))
                if not chunk:
                    return None
                h.update(chunk)
                left -= len(chunk)
    except OSError:
        return None
    return h.digest() if h.digest() == tail[8:40] else None


def scan_log_files(
    paths: Iterable[str | os.PathLike[str]],
    is_log: Callable[[str], bool] = lambda name: name.endswith(LOG_SUFFIX),
) -> tuple[list[Path], list[OSError]]:
    """Like ``log_files`` (folders: every file below them whose name ``is_log``, by default
    every *.arrows, sorted; symbolic links to folders not followed), and the errors met on
    the way (a path or a folder below one that cannot be read) instead of skipping them
    silently."""
    out: list[Path] = []
    errors: list[OSError] = []
    for p in map(Path, paths):
        try:
            is_dir = stat.S_ISDIR(os.stat(p).st_mode)
        except OSError as exc:
            errors.append(exc)
            continue
        if not is_dir:
            out.append(p)
            continue
        found: list[Path] = []
        for top, _dirs, names in os.walk(p, onerror=errors.append):
            found.extend(Path(top, n) for n in names if is_log(n))
        out.extend(sorted(found))
    return out, errors


def log_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Expand files and folders into a sorted list of files (folders: every *.arrows)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(p.rglob(f"*{LOG_SUFFIX}")))
        else:
            out.append(p)
    return out
