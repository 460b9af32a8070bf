"""Reading one event log for ingest — an Arrow log, or a liujia.jsonl(.gz) file read by
``engine.jsonl_reader`` into the same verified games — verify it, replay every game, and hand
back the rows to load and the records to quarantine. Pure (no database), so it runs in worker
processes.

Stages, in order (each a quarantine ``stage``):
``file``   the file itself (not a log, unsealed, torn, changed bytes, trailing bytes; JSONL: no
           header, an unsupported version, damaged gzip, over the size limits);
``log``    one game's stored events (hash chain broken, seq gap or duplicate, no GAME_START;
           JSONL: a malformed line, named by its line and field);
``replay`` the engine rejects the game (illegal move with rule id, invalid event, incomplete),
           or a cross-game rule within the file fails (the game's ``check_session``,
           e.g. the KENG-7 opener);
``dedupe`` (decided by the loader) the game id is already loaded with other content.
"""

from __future__ import annotations

import gc
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa
import pyarrow.compute as pc

from engine.decisions import Collecting, DecisionCollector
from engine.errors import EngineError, IllegalMove, LogIntegrityError
from engine.events import Event, events_to_batch
from engine.facts import FactCollector
from engine.jsonl_reader import JsonlRead
from engine.log import LogRead, NotALog
from engine.verdict import FileVerdict, GameVerdict, file_verdict
from ingest import columns
from ingest.project import game_row, seat_rows, start_payload
from warehouse.schema import EVENTS_ARROW, GAMES_ARROW, SEATS_ARROW

RAW_FILE_LIMIT = 1 << 20  # file-level quarantine rows keep the file's bytes up to this size


@dataclass
class QuarantineRecord:
    """One game (or one file) that is not loaded, with where and why."""

    file: str
    stage: str
    code: str
    reason: str
    game_id: str | None = None
    seq: int | None = None
    seat: int | None = None
    rule_id: str | None = None
    offset: int | None = None
    events: int | None = None
    final_digest: bytes | None = None
    raw: bytes | None = None
    key: str = ""

    def as_row(self) -> dict[str, Any]:
        """The record as a dict of the quarantine table's columns (without run and time)."""
        return {"qkey": self.key, "file": self.file, "file_offset": self.offset,
                "game_id": self.game_id, "seq": self.seq, "seat": self.seat,
                "stage": self.stage, "code": self.code, "rule_id": self.rule_id,
                "reason": self.reason, "events": self.events,
                "final_digest": self.final_digest, "raw": self.raw}


def game_key(stage: str, code: str, game_id: str, seq: int | None, digest: bytes | None,
             events: int | None) -> str:
    """Content hash of a game-level quarantine record: same game, same break, same key."""
    h = hashlib.sha256()
    for part in (stage, code, game_id, str(seq), str(events)):
        h.update(part.encode() + b"\0")
    h.update(digest or b"")
    return h.hexdigest()


def file_key(code: str, file_sha256: bytes) -> str:
    """Content hash of a file-level quarantine record: the file's bytes and the problem."""
    return hashlib.sha256(b"file\0" + code.encode() + b"\0" + file_sha256).hexdigest()


def raw_events(events: list[Event]) -> bytes:
    """The events as an Arrow IPC stream (what a quarantine row keeps of a game)."""
    batch = events_to_batch(events)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as w:
        w.write_batch(batch)
    return sink.getvalue().to_pybytes()


class ReadPolicy(NamedTuple):
    """What a file must be to be loaded: ``require`` none, signed or trusted (signed by one of
    the ``trusted`` key ids); a bad signature or a broken commitment is never loaded."""

    require: str = "none"
    trusted: frozenset[str] = frozenset()
    review: Any = None          # engine.review.Settings: review every decision of the games
                                # loaded (of the games that declare a sampler)


@dataclass
class FileResult:
    """What one log file gave: counts, rows of its valid games, and its quarantine records."""

    path: str
    size: int
    games_read: int = 0
    events_read: int = 0
    file_problems: list[QuarantineRecord] = field(default_factory=list)
    bad_games: list[QuarantineRecord] = field(default_factory=list)
    ok_ids: list[str] = field(default_factory=list)
    ok_digests: list[bytes] = field(default_factory=list)
    ok_events: list[int] = field(default_factory=list)
    games: pa.Table | None = None
    seats: pa.Table | None = None
    events: pa.Table | None = None
    decisions: pa.Table | None = None
    facts: pa.Table | None = None
    reviews: pa.Table | None = None
    warnings: list[str] = field(default_factory=list)
    signature: str = "unsigned"            # signature_state of the file
    key_id: str | None = None              # the key that signed it


def _file_records(path: Path, problems: list[LogIntegrityError]) -> list[QuarantineRecord]:
    h = hashlib.sha256()
    head = bytearray()
    with open(path, "rb") as f:            # streamed: the file may be big (a JSONL at its limit)
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
            if len(head) <= RAW_FILE_LIMIT:
                head += chunk
    digest = h.digest()
    raw = bytes(head) if len(head) <= RAW_FILE_LIMIT else None
    return [QuarantineRecord(
        file=str(path), stage="file", code=p.code, reason=str(p),
        offset=p.offset if p.offset >= 0 else None, raw=raw, key=file_key(p.code, digest),
    ) for p in problems]


def _game_record(path: str, game_id: str, events: list[Event], stage: str, code: str,
                 err: EngineError, *, file_note: str = "") -> QuarantineRecord:
    seq = getattr(err, "seq", -1)
    seat = getattr(err, "seat", -1)
    digest = events[-1].digest if events else None
    return QuarantineRecord(
        file=path, stage=stage, code=code, reason=str(err) + file_note, game_id=game_id,
        seq=seq if isinstance(seq, int) and seq >= 0 else None,
        seat=seat if isinstance(seat, int) and seat >= 0 else None,
        rule_id=err.rule_id if isinstance(err, IllegalMove) else None,
        offset=err.offset if isinstance(err, LogIntegrityError) and err.offset >= 0 else None,
        events=len(events), final_digest=digest, raw=raw_events(events) if events else None,
        key=game_key(stage, code, game_id, seq, digest, len(events)),
    )


def _events_table(events: list[Event]) -> pa.Table:
    """The warehouse ``events`` rows: the log's schema with plain strings and binary."""
    batch = events_to_batch(events)
    cols = [c.cast(f.type) if c.type != f.type else c
            for c, f in zip(batch.columns, EVENTS_ARROW, strict=True)]
    return pa.Table.from_arrays(cols, schema=EVENTS_ARROW)


def _stored_events(batches: list[pa.RecordBatch], ok_ids: list[str],
                   n_events: int) -> pa.Table | None:
    """The accepted games' rows exactly as stored (the record batches read_log verified,
    zero-copy); None if the rows do not add up to what was verified."""
    if not batches:
        return None
    table = pa.Table.from_batches(batches)
    if table.num_rows != n_events:
        table = table.filter(pc.is_in(table["game_id"], value_set=columns.strings(ok_ids)))
        if table.num_rows != n_events:
            return None
    return table.cast(EVENTS_ARROW)


def read_file(path: str | Path, strict: bool = False,
              policy: ReadPolicy | None = None) -> FileResult:
    """Verify, replay and project every game of one log file (Arrow or liujia.jsonl; strict:
    a JSONL field the format does not know quarantines its game); never raises for bad
    content.

    The cyclic garbage collector is paused meanwhile: reading a file makes hundreds of
    thousands of acyclic objects (events, states, rows), which it would scan again and again
    for nothing (~9% of the time); it resumes when the file is done."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        return _read_file(Path(path), strict, policy or ReadPolicy())
    finally:
        if was_on:
            gc.enable()


def _line_note(g: Any, spath: str, err: EngineError) -> str:
    """' (at FILE:LINE)' for a replay error of a JSONL game: the line of the event it names."""
    seq = getattr(err, "seq", -1)
    line = g.line_of(seq) if hasattr(g, "line_of") and isinstance(seq, int) else None
    return f" (at {spath}:{line})" if line is not None else ""


def _read_file(p: Path, strict: bool, policy: ReadPolicy) -> FileResult:
    """read_file, with the collector paused."""
    spath = str(p)
    collector = DecisionCollector()
    facts = FactCollector()
    try:
        size = p.stat().st_size
        fv = file_verdict(p, strict=strict, require=policy.require, trusted=policy.trusted,
                          observers=(Collecting(collector), facts))
    except NotALog as exc:                    # the file cannot be read (code io)
        raise OSError(f"{spath}: {exc}") from None
    if fv.unreadable is not None:
        return FileResult(spath, size, file_problems=_file_records(p, [fv.unreadable]))
    log = fv.log
    assert log is not None
    res = FileResult(spath, size)
    if isinstance(log, JsonlRead):
        res.warnings = [str(w) for w in log.warnings]
    if fv.problems:
        res.file_problems = _file_records(p, fv.problems)
    note = " (the file is damaged: see its file-level quarantine row)" if fv.problems else ""
    sig = log.signature if isinstance(log, LogRead) else None
    res.signature = fv.signature
    res.key_id = sig.key_id if sig is not None else None
    replayed = 0                          # games the collector kept the rows of
    ok_games: list[list[Event]] = []
    games: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    for g, gv in zip(log.games, fv.games, strict=True):
        res.games_read += 1
        res.events_read += len(g.events)
        projected = _project(spath, g, gv, fv, note, res)
        if gv.replay is not None and gv.replay.status == "ok" and fv.refusal is None:
            replayed += 1                 # its rows are in the collector
        if projected is None:
            continue
        row, seat_list = projected
        games.append(row)
        seats.extend(seat_list)
        ok_games.append(g.events)
        res.ok_ids.append(g.game_id)
        res.ok_digests.append(g.final_digest)
        res.ok_events.append(len(g.events))
    gschema = GAMES_ARROW.remove(GAMES_ARROW.get_field_index("run_id"))
    res.games = columns.table(games, gschema)
    res.seats = columns.table(seats, SEATS_ARROW)
    n_ok = sum(res.ok_events)
    events = None
    if n_ok and not log.problems:
        events = _stored_events(log.batches, res.ok_ids, n_ok)
    if events is None:
        events = (_events_table([e for g in ok_games for e in g]) if n_ok
                  else pa.Table.from_batches([], schema=EVENTS_ARROW))
    # one chunk, not one per game: DuckDB appends it in half the time
    res.events = events.combine_chunks()
    decisions = collector.table()
    res.decisions = decisions if replayed == len(res.ok_ids) else _kept(decisions, res.ok_ids)
    found = facts.table()
    res.facts = found if replayed == len(res.ok_ids) else _kept(found, res.ok_ids)
    res.reviews = _reviews(ok_games, policy.review, res)
    return res


def _reviews(games: list[list[Event]], settings: Any, res: FileResult) -> pa.Table:
    """The reviews of every decision of the valid games (``engine.review``; none unless
    asked); a game whose type declares no sampler is named in a warning, not reviewed."""
    from engine.replay import game_module
    from engine.review import review_game, review_rows, reviews_arrow

    rows: list[dict[str, Any]] = []
    for events in games if settings is not None else ():
        game = game_module(events[0])
        if game.sample_world is None:
            res.warnings.append(f"{res.path}: game {events[0].game_id}: {game.TITLE} "
                                "cannot be reviewed yet (no world sampler)")
            continue
        players = json.loads(events[0].payload or "{}").get("players") or []
        rows += review_rows(review_game(events, range(len(players)), settings), events)
    return pa.Table.from_pylist(rows, schema=reviews_arrow())


def _project(spath: str, g: Any, gv: GameVerdict, fv: FileVerdict, note: str,
             res: FileResult) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The games and seats rows of a game the verdict accepts; else its quarantine record is
    added to ``res`` and None returned."""
    if g.error is not None:
        res.bad_games.append(_game_record(spath, g.game_id, g.events, "log", g.error.code,
                                          g.error))
        return None
    if fv.refusal is not None:
        res.bad_games.append(_game_record(spath, g.game_id, g.events, "signature",
                                          fv.refusal.code, fv.refusal))
        return None
    if gv.code == "engine_error":
        err = EngineError(f"game {g.game_id}: {gv.error}")
        res.bad_games.append(_game_record(spath, g.game_id, g.events, "replay", gv.code, err))
        return None
    v = gv.replay
    assert v is not None
    if not gv.ok:
        assert isinstance(gv.error, EngineError)
        file_note = note if v.status == "incomplete" else \
            _line_note(g, spath, gv.error) if v.status != "ok" else ""
        res.bad_games.append(_game_record(spath, g.game_id, g.events, "replay", gv.code,
                                          gv.error, file_note=file_note))
        return None
    try:
        module = v.game
        assert module is not None, "a game that replayed has its engine game"
        payload = start_payload(g.events[0])
        return (game_row(g.events, payload, module, v.state, spath),
                seat_rows(g.game_id, payload, module, v.state))
    except Exception as exc:  # noqa: BLE001 - an engine bug must not lose the game
        err = EngineError(f"game {g.game_id}: the engine failed while replaying it "
                          f"({type(exc).__name__}: {exc}); please report this")
        res.bad_games.append(_game_record(spath, g.game_id, g.events, "replay",
                                          "engine_error", err))
        return None


def _kept(table: pa.Table, ok_ids: list[str]) -> pa.Table:
    """The rows of the accepted games (a game the replay accepted may still be refused by the
    session check or fail to project)."""
    if table.num_rows == 0:
        return table
    return table.filter(pc.is_in(table["game_id"], value_set=columns.strings(ok_ids)))
