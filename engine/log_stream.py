"""Reading a log file as a stream, so that a file of any size is verified in bounded memory.

The same checks as ``engine.log.read_log`` and the same problems, in the same order, with the
same codes, offsets and messages, but: the tail is read first (the signature block and the
seal), then the Arrow stream from its start, one record batch at a time, hashed for the seal
as it is read; the pages of the file already read are given back to the system
(``MADV_DONTNEED``); and each game is handed on as soon as it ended (``GAME_END``) or its
chain broke, then forgotten. Only the events of games still open are held (``max_held``).

A game is handed on in the order of its first event unless an earlier game still open is not
one it depends on (``previous``: the game a GAME_START names as the one before it, so that a
session's games reach the caller in an order in which each game's previous one is decided
first, as ``read_log``'s list gives them). An event of a game already handed on (the file
continues a game after its end) raises ``LateEvent``: the caller reads the file again whole.
"""

from __future__ import annotations

import hashlib
import mmap
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.errors import LogIntegrityError
from engine.events import Event
from engine.log import (
    SEAL_SIZE,
    ChainCheck,
    GameLog,
    LateEvent,
    NotALog,
    checksum_error,
    decoded,
    file_signature,
    game_entry,
    is_sealed,
    iter_batches,
    map_file,
    read_seal,
    torn_error,
    trailing_error,
    unfinished_log,
)
from engine.signing import GameEntry, Signature, check_against

__all__ = ["LateEvent", "StreamEnd", "stream_log"]

HASH_CHUNK = 8 << 20          # bytes hashed (and let go of) at once after the stream's end
FREE_STEP = 1 << 20           # let go of the pages read once this many bytes were read
FREE_BEHIND = 1 << 20         # and of the pages this far before them, mapped again meanwhile


@dataclass
class StreamEnd:
    """What a log file read as a stream says besides its games: its problems, its seal, its
    signature (checked), how many games it has and how many of them are broken."""

    path: Path
    problems: list[LogIntegrityError]
    sealed: bool
    signature: Signature | None = None
    games: int = 0
    broken: int = 0                 # games whose chain breaks
    max_held: int = 0               # the most verified events held at once

    @property
    def ok(self) -> bool:
        """True when the file is sealed and every game's chain verifies (``LogRead.ok``)."""
        return self.sealed and not self.problems and not self.broken


class _Pages:
    """A read-only mapping of the file, its bytes hashed in order and let go of once read."""

    def __init__(self, mm: mmap.mmap, sha: bytes | None) -> None:
        self.mm = mm
        self.view = memoryview(mm)
        self.hash = hashlib.sha256() if sha is not None else None
        self.hashed = 0                 # bytes hashed from the start
        self.freed = 0                  # bytes let go of from the start (whole pages)

    def free(self, start: int, end: int) -> None:
        """Let the system take back the pages in [start, end) (read again if touched)."""
        start -= start % mmap.PAGESIZE
        if end > start and hasattr(self.mm, "madvise"):
            try:
                self.mm.madvise(mmap.MADV_DONTNEED, start, end - start)
            except (OSError, ValueError, AttributeError):
                pass

    def read_to(self, pos: int) -> None:
        """Hash the bytes up to ``pos`` and let go of the pages before it, a few at a time and
        again from ``FREE_BEHIND`` before (a page fault maps the pages around the one touched,
        those before it too)."""
        while self.hashed < pos:
            stop = min(pos, self.hashed + HASH_CHUNK)
            if self.hash is not None:
                self.hash.update(self.view[self.hashed:stop])
            self.hashed = stop
            if stop - self.freed >= FREE_STEP or stop == len(self.mm):
                self.free(max(0, self.freed - FREE_BEHIND), stop)
                self.freed = stop - stop % mmap.PAGESIZE


class _Handout:
    """Hands the checked games on (``on_game(place, game)``) as soon as they may go."""

    def __init__(self, check: ChainCheck, on_game: Callable[[int, GameLog], None],
                 previous: Callable[[Event], str | None] | None, signed: bool) -> None:
        self.check = check
        self.on_game = on_game
        self.previous = previous
        self.waiting: dict[str, GameLog] = {}      # ended, held back by an earlier game
        self.named: dict[str, str | None] = {}     # game id → the previous game it names
        self.entries: dict[int, GameEntry] | None = {} if signed else None
        self.games = self.broken = 0

    def step(self) -> None:
        """Hand on what the last batch ended, and what it let go."""
        for g in self.check.ready:
            if g.game_id in self.check.games:
                self.waiting[g.game_id] = g
        self.check.ready.clear()
        moved = True
        while moved and self.waiting:
            moved = False
            for g in sorted(self.waiting.values(), key=lambda g: self.check.place[g.game_id]):
                if self._free(g):
                    del self.waiting[g.game_id]
                    self.give(self.check.close(g))
                    moved = True

    def _names(self, g: GameLog) -> str | None:
        """The previous game the game's first event names (None: none, or no ``previous``)."""
        if self.previous is None or not g.events:
            return None
        if g.game_id not in self.named:
            self.named[g.game_id] = self.previous(g.events[0])
        return self.named[g.game_id]

    def _free(self, g: GameLog) -> bool:
        """True if no earlier game held is the one ``g`` names or names ``g``; a broken game
        (never replayed: its chain breaks, or it does not begin with GAME_START) is always
        free. Without ``previous``: g is the first game held."""
        if self.previous is not None and (g.error is not None or g.events[0].kind != "GAME_START"):
            return True
        for p in self.check.games.values():
            if p is g:
                return True
            if self.previous is None:
                return False
            if p.error is None and (p.game_id == self._names(g) or self._names(p) == g.game_id):
                return False
        return True

    def give(self, g: GameLog) -> None:
        """Hand the game on, then forget it."""
        place = self.check.place[g.game_id]
        self.games += 1
        self.broken += g.error is not None
        if self.entries is not None:
            self.entries[place] = game_entry(g)
        self.on_game(place, g)
        self.check.hand_on(g)
        self.named.pop(g.game_id, None)


def stream_log(path: str | os.PathLike[str], on_game: Callable[[int, GameLog], None],
               previous: Callable[[Event], str | None] | None = None) -> StreamEnd:
    """Read and verify a log file as a stream: each game to ``on_game(place, game)`` (place:
    its place among the file's games, the index of ``read_log(path).games``) once it ended or
    broke, then the file's problems; LateEvent if the file continues a game handed on."""
    p = Path(path)
    spath = str(p)
    mm = map_file(spath)
    view = memoryview(mm if mm is not None else b"")
    unfinished = unfinished_log(view, spath)
    if unfinished is not None:
        return StreamEnd(p, unfinished.problems, sealed=False)
    assert mm is not None
    if len(view) < 8 or bytes(view[:4]) != b"\xff\xff\xff\xff":
        raise NotALog("not_a_log", "not an Arrow IPC stream (no stream header)", path=spath)
    data, signature, problems = file_signature(view, spath)
    stream_len, seal_problems, sha = read_seal(data, spath)
    pages = _Pages(mm, sha)
    pages.free(0, len(mm))                       # what the tail's search touched
    check = ChainCheck(spath)
    hand = _Handout(check, on_game, previous, signature is not None)
    end, read_problems, max_held = _read_stream(pages, stream_len, check, hand, spath)
    pages.read_to(stream_len)                    # the bytes after the stream's end, if any
    if pages.hash is not None and pages.hash.digest() != sha:
        seal_problems = [checksum_error(spath)]
    problems += seal_problems + read_problems
    if not problems and end != stream_len:
        problems.append(trailing_error(end, stream_len, spath))
    for g in check.finish():
        hand.give(g)
    out = StreamEnd(p, problems, is_sealed(problems), signature, hand.games, hand.broken,
                    max_held)
    if signature is not None:
        assert hand.entries is not None
        seal_sha = None if problems else bytes(data[len(data) - SEAL_SIZE + 8:len(data) - 16])
        check_against(signature, seal_sha, stream_len,
                      [hand.entries[i] for i in sorted(hand.entries)])
    return out


def _read_stream(pages: _Pages, stream_len: int, check: ChainCheck, hand: _Handout,
                 path: str) -> tuple[int, list[LogIntegrityError], int]:
    """Read the Arrow stream batch by batch into the chain check, handing games on: where the
    intact stream ends, the problems met (torn, bad_batch), the most events held at once."""
    import pyarrow as pa
    buf = pa.py_buffer(pages.mm)
    problems: list[LogIntegrityError] = []
    end = max_held = 0
    for batch, exc, pos in iter_batches(buf.slice(0, stream_len), path):
        if batch is None:                        # the end of the stream, or a torn batch
            if exc is None:
                end = pos
            else:
                problems.append(torn_error(exc, end, path))
            break
        got = decoded(batch, pos, end, path)
        del batch
        if isinstance(got, LogIntegrityError):
            problems.append(got)
            break
        check.add(*got)
        del got
        max_held = max(max_held, check.held)
        hand.step()
        end = pos
        pages.read_to(end)
    return end, problems, max_held

