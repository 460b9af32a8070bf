"""The games of the recording service: each live game's append log (a ``liujia.jsonl/1``
file under ``DATA/live/``), checked by the engine before anything is written, acknowledged only
once fsync'ed (group commit: one fsync covers every append written to the file before it
began, fsyncs of different tables run side by side in a thread pool), sealed into
``DATA/sealed/GAME.arrows`` when the game ends, and recovered after a crash by cutting a torn
tail back to the last complete, chained and legal line.

Every file of the data folder is opened relative to a descriptor of its folder and without
following a symbolic link (``O_NOFOLLOW``, ``O_EXCL`` for a new one); a data folder holding
links is refused at start (``DataProblem``).

Everything happens on one asyncio loop: the check of an event, its write to the file and the
update of the game's state run without a pause in between, so the appends of one game are
serialised; only the fsyncs, the creation of a file and the sealing leave the loop (threads).

Recovery at start can run in the background (``start(background=True)``, as ``liujia
record-server`` does): the start only scans the folders, then ``recover_rest`` reopens the live
games one at a time on the loop, and a request that names a game not reopened yet reopens that
game first (``ensure``). Each game's recovery runs whole without a pause, so no request ever
sees a game half recovered.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.commit import for_engine
from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import GENESIS, Event, chain_digest, payload_json
from engine.games.base import Game
from engine.jsonl import (
    FORMAT,
    JsonlError,
    event_line,
    format_ts,
    header_line,
    parse_own_line,
    strict_loads,
)
from engine.log import LOG_SUFFIX, write_log
from engine.replay import Fold
from engine.verdict import FileVerdict, GameVerdict, file_verdict, session_link
from liujia.server.files import (
    LIVE_SUFFIX,
    NOFOLLOW,
    OWNERS,
    TMP_SUFFIX,
    DataProblem,
    create,
    entries,
    folder,
    keep_cut,
    note_owner,
    read_all,
    read_owners,
    write_all,
)
from liujia.server.wire import Incoming, now_us

__all__ = ["LIVE_SUFFIX", "TMP_SUFFIX", "DataProblem", "Refused", "Store", "refusal"]

OWNER_RE = re.compile(r"liujia record-server; owner=([A-Za-z0-9][A-Za-z0-9_.-]{0,63})")
MAX_BATCH = 1000
MAX_AUTO = 1000                      # automatic events filled in after one request
MAX_AHEAD = 300                     # seconds a client's ts may be ahead of the server's clock
MAX_BEHIND = 86_400                 # ... and behind it (None: no bound)


class Refused(Exception):
    """A request the service refuses: the HTTP status and the JSON body that says why."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("reason", ""))
        self.status = status
        self.body = body


def refusal(exc: EngineError, index: int | None = None) -> Refused:
    """The 422 refusal of an event the engine rejects: the rule id and reason of an illegal
    move, the field of a malformed event."""
    body: dict[str, Any]
    if isinstance(exc, IllegalMove):
        body = {"error": "illegal", "rule_id": exc.rule_id, "reason": exc.reason,
                "seq": exc.seq, "seat": exc.seat}
    elif isinstance(exc, InvalidEvent):
        body = {"error": "invalid", "field": exc.field, "reason": str(exc), "seq": exc.seq}
    else:
        body = {"error": "invalid", "reason": str(exc)}
    if index is not None:
        body["index"] = index
    return Refused(422, body)


def _same(stored: Event, inc: Incoming) -> bool:
    """Whether an incoming event is the one stored at its seq (a retry): every field the
    client gave is the stored one."""
    e = inc.event
    if (e.kind, e.seat, e.cards, e.target, e.value, e.tag, e.payload) != \
            (stored.kind, stored.seat, stored.cards, stored.target, stored.value, stored.tag,
             stored.payload):
        return False
    if inc.ts is not None and inc.ts != stored.ts:
        return False
    return inc.digest is None or inc.digest == stored.digest


@dataclass(eq=False)
class LiveGame:
    """A game being recorded: its events so far, the engine state after them, its file."""

    game_id: str
    owner: str
    game: Game
    state: Any
    events: list[Event]
    path: Path
    fd: int
    written: int                   # bytes in the file (everything written)
    synced: int                    # bytes known to be on disk
    sync_task: asyncio.Future[None] | None = None
    seal_task: asyncio.Future[Path] | None = None
    failed: str = ""               # why the game takes no more appends (a failed write)

    @property
    def over(self) -> bool:
        """True once GAME_END is applied."""
        return bool(self.game.is_over(self.state))

    def status(self) -> dict[str, Any]:
        """The game's state as the status endpoint shows it."""
        last = self.events[-1]
        out = {"game_id": self.game_id, "game": self.game.GAME_ID, "owner": self.owner,
               "next_seq": len(self.events), "last_digest": last.digest.hex(),
               "over": self.over, "sealed": False}
        if not self.over:
            out["next_auto"] = self.game.next_auto(self.state)
            out["to_move"] = self.game.to_move(self.state)
        return out


@dataclass(frozen=True)
class SealedGame:
    """A game sealed into its Arrow log."""

    game_id: str
    owner: str
    path: Path


class Store:
    """Every game of one data folder: open, append, seal, recover."""

    def __init__(self, data: str | os.PathLike[str], signer: Any = None,
                 threads: int = 32, *, max_ahead: int | None = MAX_AHEAD,
                 max_behind: int | None = MAX_BEHIND,
                 say: Callable[[str], None] | None = None) -> None:
        self.data = Path(data)
        self.max_ahead = max_ahead            # the clock window of a client's ts, seconds
        self.max_behind = max_behind
        self.live_fd = self.sealed_fd = -1
        self.live_dir = self.data / "live"
        self.sealed_dir = self.data / "sealed"
        self.signer = signer
        self.live: dict[str, LiveGame] = {}
        self.sealed: dict[str, SealedGame] = {}
        # the clean verdict of each sealed game read so far, by its file's (inode, size, mtime)
        self.verdicts: dict[str, tuple[tuple[int, int, int], GameVerdict]] = {}
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="liujia-fsync")
        self.report: list[str] = []            # what recovery found and did, one line each
        self.say = say                          # also told each line of the report at once
        self.pending: dict[str, str] = {}       # live games not recovered yet: id -> file name
        self.unrecovered: dict[str, str] = {}   # live games whose recovery failed: id -> why
        self.recovery_task: asyncio.Future[None] | None = None
        self.stats = {"appends": 0, "fsyncs": 0}
        self.started = False

    # --- start and stop --------------------------------------------------------------------

    def start(self, background: bool = False) -> list[str]:
        """Make the folders, check and scan them, and recover every live game found (once);
        with ``background``, only scan them: the live games wait in ``pending`` for
        ``recover_rest`` or a request that names one (``ensure``). Returns the report."""
        if self.started:
            return self.report
        self.started = True
        self.live_fd = folder(self.data, "live")
        self.sealed_fd = folder(self.data, "sealed")
        live, sealed = entries(self.live_dir, self.live_fd), entries(self.sealed_dir,
                                                                        self.sealed_fd)
        owners = read_owners(self.sealed_fd) if OWNERS in sealed else {}
        for name in sealed:
            if name.endswith(TMP_SUFFIX):
                os.unlink(name, dir_fd=self.sealed_fd)   # an unfinished seal: the live log has it
                self._note(f"removed unfinished seal {name}")
            elif name.endswith(LOG_SUFFIX):
                gid = name[:-len(LOG_SUFFIX)]
                self.sealed[gid] = SealedGame(gid, owners.get(gid, ""), self.sealed_dir / name)
        for name in live:
            if name.endswith(LIVE_SUFFIX):
                self.pending[name[:-len(LIVE_SUFFIX)]] = name
        if background:
            os.fsync(self.sealed_fd)
            return self.report
        for gid in list(self.pending):
            self._recover(self.live_dir / self.pending.pop(gid))
        os.fsync(self.sealed_fd)
        os.fsync(self.live_fd)
        return self.report

    def _note(self, line: str) -> None:
        """One line of the recovery report (told to ``say`` too)."""
        self.report.append(line)
        if self.say is not None:
            self.say(line)

    def ensure(self, gid: str) -> None:
        """Recover the game ``gid`` now if its log waits for recovery (a request names it);
        a game whose recovery failed is refused (503)."""
        name = self.pending.pop(gid, None)
        if name is not None:
            try:
                self._recover(self.live_dir / name)
            except Exception as exc:           # noqa: BLE001 - this game only; the rest served
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else \
                    f"{type(exc).__name__}: {exc}"
                self.unrecovered[gid] = f"its log could not be recovered at start ({why}): " \
                    "restart the server to try again"
                self._note(f"{name}: cannot be recovered ({why}): left as it is")
        if gid in self.unrecovered:
            raise Refused(503, {"error": "storage", "reason": f"game {gid}: "
                                f"{self.unrecovered[gid]}"})

    async def recover_rest(self) -> None:
        """Recover every game still pending, one at a time, letting requests in between."""
        while self.pending:
            gid = next(iter(self.pending))
            try:
                self.ensure(gid)
            except Refused:
                pass                           # noted in the report; its requests are refused
            await asyncio.sleep(0)
        if self.live_fd >= 0:
            os.fsync(self.live_fd)

    async def recovered(self) -> None:
        """Wait until no game waits for recovery (the background task's end, or recover the
        rest here if no task runs)."""
        while self.pending:
            t = self.recovery_task
            if t is None or t.done():
                t = self.recovery_task = asyncio.ensure_future(self.recover_rest())
            await asyncio.shield(t)

    def close(self) -> None:
        """Close every live game's file (their logs stay, to be reopened on restart)."""
        for g in self.live.values():
            try:
                os.close(g.fd)
            except OSError:
                pass
        self.live.clear()
        self.pool.shutdown(wait=True)
        for fd in (self.live_fd, self.sealed_fd):
            if fd >= 0:
                os.close(fd)
        self.live_fd = self.sealed_fd = -1

    # --- recovery --------------------------------------------------------------------------

    def _recover(self, path: Path) -> None:
        """Reopen one append log: keep its intact prefix (complete lines, chained, legal),
        cut what follows, seal it if its game is over."""
        name = path.name
        data = read_all(self.live_fd, name)
        nl = data.find(b"\n")
        header_ok = False
        owner = ""
        if nl >= 0:
            try:
                head = strict_loads(data[:nl].decode())
                header_ok = isinstance(head, dict) and head.get("format") == FORMAT
                m = OWNER_RE.fullmatch(str(head.get("generator", ""))) if header_ok else None
                owner = m.group(1) if m else ""
            except Exception:                 # noqa: BLE001 - any unreadable header
                header_ok = False
        if not header_ok:
            os.unlink(name, dir_fd=self.live_fd)
            self._note(f"{name}: no complete header ({len(data)} bytes): the game was "
                       "never acknowledged; removed")
            return
        events: list[Event] = []
        fold: Fold | None = None
        prev = GENESIS
        pos = nl + 1
        why = ""
        while pos < len(data):
            end = data.find(b"\n", pos)
            if end < 0:
                why = f"a torn last line ({len(data) - pos} bytes without a newline)"
                break
            try:
                e, _ = parse_own_line(data[pos:end].decode())
                if e.seq != len(events):
                    raise InvalidEvent(f"seq {e.seq} where {len(events)} was due", field="seq")
                if chain_digest(prev, e) != e.digest:           # (the digest is not hashed)
                    raise InvalidEvent("the line does not match its digest", field="digest")
                if fold is None:
                    fold = Fold.start(e)
                else:
                    fold.push(e)
            except (JsonlError, EngineError, UnicodeDecodeError) as exc:
                why = f"line {len(events) + 2} cannot be kept ({exc})"
                break
            events.append(e)
            prev = e.digest
            pos = end + 1
        if pos < len(data):
            kept = keep_cut(self.live_fd, f"{name}.cut-{len(events)}", data[pos:])
            fd = os.open(name, os.O_WRONLY | NOFOLLOW, dir_fd=self.live_fd)
            try:
                os.ftruncate(fd, pos)
                os.fsync(fd)
            finally:
                os.close(fd)
            self._note(f"{name}: cut {len(data) - pos} bytes after event "
                       f"{len(events) - 1} (kept in {kept}): {why}")
        gid = name[:-len(LIVE_SUFFIX)]
        if not events or fold is None:
            os.unlink(name, dir_fd=self.live_fd)
            self._note(f"{name}: no GAME_START: the game was never acknowledged; "
                       "removed")
            return
        if events[0].game_id != gid:
            self._note(f"{name}: holds game {events[0].game_id}, not {gid}: left alone")
            return
        fd = os.open(name, os.O_WRONLY | os.O_APPEND | NOFOLLOW, dir_fd=self.live_fd)
        g = LiveGame(gid, owner, fold.game, fold.state, events, path, fd, pos, pos)
        if g.over:
            try:
                self._seal_now(g)
                self._note(f"{gid}: over ({len(events)} events): sealed")
                return
            except OSError as exc:
                self._note(f"{gid}: over but cannot be sealed ({exc.strerror or exc}): "
                           "kept live, a retry of GAME_END seals it")
        self.live[gid] = g
        self._note(f"{gid}: reopened at seq {len(events)}")

    # --- open ------------------------------------------------------------------------------

    async def open(self, owner: str, inc: Incoming) -> dict[str, Any]:
        """Open a game with its GAME_START (idempotent); returns the acknowledgement."""
        e = inc.event
        gid = e.game_id
        if e.kind != "GAME_START":
            raise Refused(422, {"error": "invalid", "field": "kind",
                                "reason": "a game opens with its GAME_START"})
        if inc.seq not in (None, 0):
            raise Refused(422, {"error": "invalid", "field": "seq",
                                "reason": "GAME_START has seq 0"})
        self.ensure(gid)
        g = self.live.get(gid)
        if g is not None:
            self._owned(g.owner, owner, gid)
            if not _same(g.events[0], inc):
                raise Refused(409, {"error": "conflict", "seq": 0, "reason": f"game {gid} is "
                                    "open with another GAME_START"})
            await self._durable(g, g.written)
            return self._ack(g, g.events[0], duplicate=True)
        s = self.sealed.get(gid)
        if s is not None:
            stored = self._sealed_events(s)
            if not _same(stored[0], inc):
                raise Refused(409, {"error": "conflict", "seq": 0, "reason": f"game {gid} is "
                                    "sealed with another GAME_START"})
            return _sealed_ack(s, stored[0], duplicate=True)
        if inc.ts is not None:
            self._on_the_clock(inc.ts, 0, None)
        e = e._replace(seq=0, ts=inc.ts if inc.ts is not None else now_us())
        try:
            fold = Fold.start(e)
            game, state = fold.game, fold.state
            prev = self._previous_final(e)
            bad = session_link(for_engine(e), prev) if prev is not None else None
        except EngineError as exc:
            raise refusal(exc) from None
        if bad is not None:
            raise refusal(bad)
        e = e._replace(digest=chain_digest(GENESIS, e))
        if inc.digest is not None and inc.digest != e.digest:
            raise Refused(422, {"error": "invalid", "field": "digest", "seq": 0,
                                "reason": "the digest sent is not the event's chained digest"})
        path = self.live_dir / f"{gid}{LIVE_SUFFIX}"
        text = (header_line(f"liujia record-server; owner={owner}") + "\n"
                + event_line(e) + "\n").encode()
        loop = asyncio.get_running_loop()
        # claim the id at once, so that a second open of it waits for this one
        g = LiveGame(gid, owner, game, state, [e], path, -1, len(text), 0)
        self.live[gid] = g
        try:
            g.fd = await loop.run_in_executor(self.pool, create, self.live_fd, path.name, text)
        except OSError as exc:
            g.failed = f"its log could not be created ({exc.strerror or exc})"
            del self.live[gid]
            raise Refused(507, {"error": "storage", "reason": f"cannot create the game's log "
                                f"({exc.strerror or exc})"}) from None
        g.synced = g.written
        return self._ack(g, e, duplicate=False)

    def _previous_final(self, start: Event) -> Any:
        """The final state of the game a GAME_START names as its session's previous game, if
        that game was recorded here and has ended (else None: not checked here)."""
        prev_id = payload_json(start).get("previous_game")
        if not isinstance(prev_id, str):
            return None
        self.ensure(prev_id)
        g = self.live.get(prev_id)
        if g is not None:
            return g.state if g.over else None
        s = self.sealed.get(prev_id)
        if s is None:
            return None
        v = self._sealed_game(s).replay
        return v.state if v is not None and v.status == "ok" else None

    # --- append ----------------------------------------------------------------------------

    async def append(self, owner: str, gid: str, incs: Sequence[Incoming], *,
                     auto: bool = False) -> list[dict[str, Any]]:
        """Append events to a game, in order, all or none (a batch): each checked by the
        engine; with ``auto``, then every automatic event the engine derives from the game
        so far without chance (``fill_auto``). Returns one acknowledgement per event (the
        filled ones marked ``"auto": true``) once all are on disk."""
        if not incs and not auto:
            raise Refused(422, {"error": "invalid", "field": "events", "reason": "no events"})
        if len(incs) > MAX_BATCH:
            raise Refused(422, {"error": "invalid", "field": "events",
                                "reason": f"more than {MAX_BATCH} events in one batch"})
        self.ensure(gid)
        g = self.live.get(gid)
        if g is None:
            s = self.sealed.get(gid)
            if s is None:
                raise Refused(404, {"error": "unknown_game", "reason": f"no game {gid}: open "
                                    "it with its GAME_START first"})
            self._owned(s.owner, owner, gid)
            stored = self._sealed_events(s)
            out = []
            for i, inc in enumerate(incs):
                if inc.seq is None or inc.seq >= len(stored):
                    raise Refused(409, {"error": "over", "index": i, "reason": f"game {gid} "
                                        "is over and sealed"})
                if not _same(stored[inc.seq], inc):
                    raise _conflict(gid, inc.seq, i)
                out.append(_sealed_ack(s, stored[inc.seq], duplicate=True))
            return out
        self._owned(g.owner, owner, gid)
        if g.failed:
            raise Refused(503, {"error": "storage", "reason": g.failed})
        if g.fd < 0:                           # its open is still being written
            await self._durable(g, g.written)
        acks: list[tuple[Event, bool]] = []
        new: list[Event] = []
        fold: Fold | None = None
        n = len(g.events)
        for i, inc in enumerate(incs):
            seq = inc.seq if inc.seq is not None else n + len(new)
            if seq < n:
                if new:
                    raise _conflict(gid, seq, i, "a retried event after new ones in a batch")
                if not _same(g.events[seq], inc):
                    raise _conflict(gid, seq, i)
                acks.append((g.events[seq], True))
                continue
            if seq > n + len(new):
                raise Refused(409, {"error": "gap", "index": i, "seq": seq,
                                    "next_seq": n + len(new),
                                    "reason": f"seq {seq} is ahead: the next event of game "
                                    f"{gid} is seq {n + len(new)}"})
            last = new[-1] if new else g.events[-1]
            if fold is None:
                if g.over:
                    raise Refused(409, {"error": "over", "index": i, "reason": f"game {gid} "
                                        "is over"})
                fold = Fold(g.game, g.state.copy(), ts=last.ts, game_id=gid)
            if inc.ts is not None:
                self._on_the_clock(inc.ts, seq, i if len(incs) > 1 else None)
            e = inc.event._replace(game_id=gid, seq=seq,
                                   ts=inc.ts if inc.ts is not None else max(now_us(), last.ts))
            try:
                fold.push(e)
            except EngineError as exc:
                raise refusal(exc, i if len(incs) > 1 else None) from None
            e = e._replace(digest=chain_digest(last.digest, e))
            if inc.digest is not None and inc.digest != e.digest:
                raise Refused(422, {"error": "invalid", "field": "digest", "seq": seq,
                                    "index": i, "reason": "the digest sent is not the event's "
                                    "chained digest"})
            new.append(e)
            acks.append((e, False))
        if auto and not (fold is None and g.over):
            if fold is None:
                fold = Fold(g.game, g.state.copy(), ts=g.events[-1].ts, game_id=gid)
            filled = fill_auto(fold, new[-1] if new else g.events[-1])
            new += filled
            acks += [(e, False) for e in filled]
        if new:
            data = "".join(event_line(e) + "\n" for e in new).encode()
            try:
                write_all(g.fd, data)
            except OSError as exc:
                try:
                    os.ftruncate(g.fd, g.written)
                except OSError:
                    g.failed = "a write to its log failed and could not be undone: restart " \
                        "the server to recover it"
                raise Refused(507, {"error": "storage", "reason": "cannot write the game's log "
                                    f"({exc.strerror or exc}); nothing was stored"}) from None
            g.written += len(data)
            g.events.extend(new)
            assert fold is not None, "new events were stepped by the fold"
            g.state = fold.state
            self.stats["appends"] += len(new)
        await self._durable(g, g.written)
        n_sent = len(incs)
        out = [self._ack(g, e, dup) | ({"auto": True} if i >= n_sent else {})
               for i, (e, dup) in enumerate(acks)]
        if g.over:
            path = await self._seal(g)
            return [dict(a, sealed=str(path)) for a in out]
        return out

    def _on_the_clock(self, ts: int, seq: int, index: int | None) -> None:
        """Refuse a client's ts outside the window around the server's clock (a ts far ahead
        would block every later event of its game: time never goes back within a game)."""
        now = now_us()
        if self.max_ahead is not None and ts > now + self.max_ahead * 1_000_000:
            side = f"more than {self.max_ahead} s ahead of"
        elif self.max_behind is not None and ts < now - self.max_behind * 1_000_000:
            side = f"more than {self.max_behind} s behind"
        else:
            return
        window = (f"-{self.max_behind} s" if self.max_behind is not None else "any time before",
                  f"+{self.max_ahead} s" if self.max_ahead is not None else "any time after")
        body: dict[str, Any] = {
            "error": "invalid", "field": "ts", "seq": seq,
            "reason": f"ts {format_ts(ts)} is {side} the server's clock ({format_ts(now)}); "
            f"a ts must lie within [{window[0]}, {window[1]}] of it (--max-behind, "
            "--max-ahead), or be left out for the server to stamp"}
        if index is not None:
            body["index"] = index
        raise Refused(422, body)

    def _owned(self, game_owner: str, owner: str, gid: str) -> None:
        if game_owner and game_owner != owner:
            raise Refused(403, {"error": "forbidden", "reason": f"game {gid} belongs to "
                                "another game server"})

    def _ack(self, g: LiveGame, e: Event, duplicate: bool) -> dict[str, Any]:
        return {"game_id": g.game_id, "seq": e.seq, "ts": e.ts, "digest": e.digest.hex(),
                "duplicate": duplicate, "over": g.over}

    # --- durability ------------------------------------------------------------------------

    async def _durable(self, g: LiveGame, upto: int) -> None:
        """Wait until the game's file is on disk up to byte ``upto`` (one fsync serves every
        append written before it began)."""
        while g.synced < upto:
            if g.failed:
                raise Refused(503, {"error": "storage", "reason": g.failed})
            t = g.sync_task
            if t is None or t.done():
                t = g.sync_task = asyncio.ensure_future(self._sync(g))
            try:
                await asyncio.shield(t)
            except OSError:
                pass                             # g.failed says why; the loop raises it

    async def _sync(self, g: LiveGame) -> None:
        if g.fd < 0:
            await asyncio.sleep(0.0005)
            return
        upto = g.written
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self.pool, os.fsync, g.fd)
        except OSError as exc:
            g.failed = f"fsync of its log failed ({exc.strerror or exc}): restart the " \
                "server to recover what is on disk"
            raise
        self.stats["fsyncs"] += 1
        g.synced = max(g.synced, upto)

    # --- sealing ---------------------------------------------------------------------------

    async def _seal(self, g: LiveGame) -> Path:
        """Seal a finished game (once; a failed seal is tried again by the next retry)."""
        if g.seal_task is None:
            loop = asyncio.get_running_loop()
            g.seal_task = loop.run_in_executor(self.pool, self._seal_now, g)
        task = g.seal_task
        try:
            return await asyncio.shield(task)
        except OSError as exc:
            if g.seal_task is task:
                g.seal_task = None
            raise Refused(507, {"error": "storage", "reason": "the game's events are on disk "
                                f"but its sealed log could not be written ({exc.strerror or exc})"
                                "; retry GAME_END to seal it"}) from None

    def _seal_now(self, g: LiveGame) -> Path:
        """Write the finished game's sealed (and signed) Arrow log, then drop its append log;
        the temporary file is made anew (O_EXCL), never written through a link."""
        final = f"{g.game_id}{LOG_SUFFIX}"
        tmp = f".{g.game_id}{TMP_SUFFIX}"
        try:
            os.unlink(tmp, dir_fd=self.sealed_fd)        # a leftover entry (the link itself)
        except FileNotFoundError:
            pass
        fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644,
                     dir_fd=self.sealed_fd)
        try:
            write_log(f"/dev/fd/{fd}", [g.events], self.signer)   # this very file, by its fd
            if g.owner:
                note_owner(self.sealed_fd, g.game_id, g.owner)
            os.replace(tmp, final, src_dir_fd=self.sealed_fd, dst_dir_fd=self.sealed_fd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=self.sealed_fd)
            except OSError:
                pass
            raise
        finally:
            os.close(fd)
        os.fsync(self.sealed_fd)
        self.sealed[g.game_id] = SealedGame(g.game_id, g.owner, self.sealed_dir / final)
        self.live.pop(g.game_id, None)
        try:
            os.close(g.fd)
        except OSError:
            pass
        try:
            os.unlink(g.path.name, dir_fd=self.live_fd)
        except FileNotFoundError:
            pass
        os.fsync(self.live_fd)
        return self.sealed_dir / final

    def sealed_verdict(self, path: Path) -> FileVerdict:
        """The verdict of a sealed log (``engine.verdict.file_verdict``, as ``liujia
        validate`` and ``liujia ingest`` give it), opened without following a link."""
        fd = os.open(path.name, os.O_RDONLY | NOFOLLOW, dir_fd=self.sealed_fd)
        try:
            return file_verdict(f"/dev/fd/{fd}")
        finally:
            os.close(fd)

    def _sealed_game(self, s: SealedGame) -> GameVerdict:
        """The one game of a sealed log, served only when its file's verdict is clean (kept
        while the file is the same one: inode, size and mtime)."""
        try:
            st = os.stat(s.path.name, dir_fd=self.sealed_fd, follow_symlinks=False)
            key = (st.st_ino, st.st_size, st.st_mtime_ns)
            hit = self.verdicts.get(s.game_id)
            if hit is not None and hit[0] == key:
                return hit[1]
            fv = self.sealed_verdict(s.path)
        except OSError as exc:
            raise Refused(500, {"error": "storage", "reason": f"the sealed log of game "
                                f"{s.game_id} cannot be opened ({exc.strerror or exc})"}) \
                from None
        if fv.unreadable is not None or fv.problems or fv.refusal is not None or \
                len(fv.games) != 1 or not fv.games[0].ok:
            raise Refused(500, {"error": "storage", "reason": f"the sealed log of game "
                                f"{s.game_id} does not verify"})
        self.verdicts[s.game_id] = (key, fv.games[0])
        return fv.games[0]

    def _sealed_events(self, s: SealedGame) -> list[Event]:
        return list(self._sealed_game(s).events)

    # --- listing ---------------------------------------------------------------------------

    def status(self, gid: str, viewer: str | None = None) -> dict[str, Any]:
        """A game's status (live or sealed), for the game server ``viewer`` only if it opened
        the game (None: an admin, any game)."""
        self.ensure(gid)
        g = self.live.get(gid)
        s = self.sealed.get(gid)
        if g is None and s is None:
            raise Refused(404, {"error": "unknown_game", "reason": f"no game {gid}"})
        owner = g.owner if g is not None else s.owner if s is not None else ""
        if viewer is not None and owner != viewer:
            raise Refused(403, {"error": "forbidden", "reason": f"game {gid} belongs to "
                                "another game server" if owner else f"game {gid} was sealed "
                                "before owners were kept: an admin token may read it"})
        if g is not None:
            return g.status()
        assert s is not None
        ev = self._sealed_events(s)
        return {"game_id": gid, "next_seq": len(ev), "last_digest": ev[-1].digest.hex(),
                "over": True, "sealed": True, "path": str(s.path)}

    def in_progress(self, viewer: str | None = None) -> list[dict[str, Any]]:
        """The games being recorded (for game server ``viewer`` only those it opened; None:
        every one) among those recovered so far (``await recovered()`` first for all)."""
        return [g.status() for g in self.live.values()
                if g.fd >= 0 and (viewer is None or g.owner == viewer)]


def fill_auto(fold: Fold, last: Event, limit: int = MAX_AUTO) -> list[Event]:
    """The automatic events the engine owes after the fold's state, stepped and chained
    after ``last`` and stamped with its time (they follow from it at once, and the same
    requests give the same log): each ``auto_event`` of the game until none is owed, the game is over,
    or the next one is a chance event the engine cannot derive (a shuffle, a cut: the game
    server sends those, as it knows them). At most ``limit`` (a game that owed more would
    be a bug of its engine)."""
    game = fold.game
    out: list[Event] = []
    while len(out) < limit and not game.is_over(fold.state):
        if game.next_auto(fold.state) in game.CHANCE_AUTO:
            break                           # drawn by chance: the game server's to send
        try:
            e = game.auto_event(fold.state)
        except EngineError:                 # a chance event: the game server's to send
            break
        if e is None:
            break
        e = e._replace(game_id=last.game_id, seq=last.seq + 1, ts=last.ts)
        fold.push(e)
        last = e._replace(digest=chain_digest(last.digest, e))
        out.append(last)
    return out


def _sealed_ack(s: SealedGame, e: Event, duplicate: bool) -> dict[str, Any]:
    return {"game_id": s.game_id, "seq": e.seq, "ts": e.ts, "digest": e.digest.hex(),
            "duplicate": duplicate, "over": True, "sealed": str(s.path)}


def _conflict(gid: str, seq: int, index: int, why: str = "") -> Refused:
    return Refused(409, {"error": "conflict", "seq": seq, "index": index,
                         "reason": why or f"game {gid} holds another event at seq {seq}"})


def log_line(text: str) -> None:
    """A line of the server's own report on stderr."""
    print(f"liujia record-server: {text}", file=sys.stderr, flush=True)


def dumps(obj: Any) -> str:
    """Compact JSON."""
    return json.dumps(obj, separators=(",", ":"))
