"""``liujia validate`` of an Arrow log read as a stream (``engine.verdict.stream_verdict``): the
same rows as the file read whole, byte for byte, in memory that does not grow with the events.

Each game's row is made when its verdict comes, packed (pickled and compressed: a few hundred
bytes instead of a few KB as a dict), and put in its place; what only the file's end decides
(the file-level rows first, each row's ``signature``, the reason of an incomplete game in a
damaged file) is added when the rows are read."""

from __future__ import annotations

import pickle
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator, MutableMapping, MutableSequence
from dataclasses import replace
from pathlib import Path
from typing import Any, overload

from engine.log import GameLog, NotALog
from engine.verdict import GameVerdict, stream_verdict
from liujia.commands.validate import (
    FileReport,
    Link,
    _file_row,
    _fixed_session,
    _game_row,
    _replay_row,
    _report,
    _signature_row,
    _tails,
    session_start,
)

__all__ = ["PackedFinals", "PackedRows", "stream_report"]


def _pack(row: dict[str, Any]) -> bytes:
    return zlib.compress(pickle.dumps(row, protocol=pickle.HIGHEST_PROTOCOL), 1)


class PackedRows(MutableSequence[dict[str, Any]]):
    """A file's report rows kept packed until read; ``tail``'s keys are added to each row read
    (after its own, as the report adds them last). Each row read is a new dict."""

    def __init__(self, rows: Iterable[bytes] = (), tail: dict[str, Any] | None = None) -> None:
        self._rows = list(rows)
        self.tail = dict(tail or {})

    def _open(self, packed: bytes) -> dict[str, Any]:
        row: dict[str, Any] = pickle.loads(zlib.decompress(packed))
        row.update(self.tail)
        return row

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            return [self._open(r) for r in self._rows[i]]
        return self._open(self._rows[i])

    def __setitem__(self, i: Any, row: Any) -> None:
        if isinstance(i, slice):
            self._rows[i] = [_pack(r) for r in row]
        else:
            self._rows[i] = _pack(row)

    def __delitem__(self, i: int | slice) -> None:
        del self._rows[i]

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self._open(r) for r in self._rows)

    def insert(self, index: int, row: dict[str, Any]) -> None:
        """Insert a row before ``index``."""
        self._rows.insert(index, _pack(row))


class PackedFinals(MutableMapping[str, Any]):
    """The final states of a run's games (game id → state, as ``finals``), all but the ``keep``
    last set or read kept packed (pickled, compressed: about 1 KB a game instead of 3-4 KB;
    a state that cannot be pickled is kept as it is). A session's next game, which reads its
    previous game's state, is most often among the last."""

    def __init__(self, keep: int = 64) -> None:
        self.keep = keep
        self._recent: OrderedDict[str, Any] = OrderedDict()
        self._packed: dict[str, bytes] = {}
        self._raw: dict[str, Any] = {}            # the states that cannot be pickled

    def __getitem__(self, key: str) -> Any:
        if key in self._recent:
            self._recent.move_to_end(key)
            return self._recent[key]
        if key in self._raw:
            return self._raw[key]
        return pickle.loads(zlib.decompress(self._packed[key]))

    def __setitem__(self, key: str, value: Any) -> None:
        self._packed.pop(key, None)
        self._raw.pop(key, None)
        self._recent[key] = value
        self._recent.move_to_end(key)
        while len(self._recent) > self.keep:
            old, state = self._recent.popitem(last=False)
            try:
                self._packed[old] = zlib.compress(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
            except (pickle.PicklingError, TypeError, AttributeError):
                self._raw[old] = state

    def __delitem__(self, key: str) -> None:
        for part in (self._recent, self._raw, self._packed):
            if key in part:
                del part[key]
                return
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return key in self._recent or key in self._packed or key in self._raw

    def __iter__(self) -> Iterator[str]:
        for part in (self._packed, self._raw, self._recent):
            yield from list(part)

    def __len__(self) -> int:
        return len(self._recent) + len(self._packed) + len(self._raw)


class _Rows:
    """The rows of a file's games as their verdicts come (in any order, by place); for a file
    validated on its own (``finals`` given: its own), what ``validate_alone`` adds."""

    def __init__(self, path: Path, finals: MutableMapping[str, Any] | None = None) -> None:
        self.path = path
        self.packed: dict[int, bytes] = {}
        self.incomplete: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        self.sessions: dict[int, list[tuple[str, str, int]]] = {}
        self.finals = finals                       # alone: the file's own final states
        self.links: dict[int, Link] = {}
        self.kept: dict[str, int] = {}
        self.starts: dict[int, tuple[bool, str | None] | None] = {}

    def add(self, place: int, g: GameLog, gv: GameVerdict) -> None:
        """The row of one game (``validate._report``'s, before the file's end is known)."""
        self.incomplete.pop(place, None)
        self.sessions.pop(place, None)
        if g.error is not None:
            row = _file_row(self.path, g.error)
            row["game_id"] = g.game_id
            row["intact_events"] = len(g.events)
        else:
            row = _game_row(self.path, gv, False)
            if gv.replay is not None and gv.replay.status == "incomplete" \
                    and gv.code != "engine_error":      # its reason: as the file ends
                self.incomplete[place] = (row, _game_row(self.path, gv, True))
            if g.events and g.events[0].kind == "GAME_START":
                self.sessions[place] = _fixed_session(g.events[0])
        self.packed[place] = _pack(row)
        if self.finals is not None:
            self._alone(place, g, gv)

    def _alone(self, place: int, g: GameLog, gv: GameVerdict) -> None:
        """A game's link to a previous game not in the file, whether its final state is the
        one kept for its id, and its ``session_start``."""
        assert self.finals is not None
        self.links.pop(place, None)
        self.kept.pop(g.game_id, None)
        self.starts[place] = session_start(g.events)
        if gv.replay is not None and g.game_id in self.finals \
                and self.finals[g.game_id] is gv.replay.state:
            self.kept[g.game_id] = place
        if g.error is None and gv.previous_game is not None and gv.replay is not None \
                and gv.code != "engine_error":
            assert gv.commitment is not None
            self.links[place] = Link(-1, place, gv.previous_game, g.events[0],
                                     _replay_row(self.path, gv.replay, False), gv.commitment,
                                     len(g.events))

    def rows(self, first: list[dict[str, Any]], damaged: bool) -> list[bytes]:
        """The file's rows, packed: ``first`` (the file-level rows), then the games'."""
        out = [_pack(r) for r in first]
        for place in sorted(self.packed):
            pair = self.incomplete.get(place)
            out.append(self.packed[place] if pair is None else _pack(pair[damaged]))
        return out

    def alone(self, rep: FileReport, first: int) -> None:
        """Fill in what ``validate_alone`` reports (``first``: the file-level rows)."""
        assert self.finals is not None
        rep.links = [replace(self.links[p], row=first + p) for p in sorted(self.links)]
        rep.kept = dict(sorted(self.kept.items(), key=lambda kv: kv[1]))
        starts = [self.starts.get(p) for p in range(len(self.packed))]
        rep.finals = {gid: self.finals[gid] for gid in _tails(starts, rep.kept)}


def stream_report(path: Path, finals: MutableMapping[str, Any] | None, require: str,
                  trusted: dict[str, str] | None) -> FileReport:
    """``validate_file`` of an Arrow log, read as a stream: the same report, without the log
    (``--salvage`` reads a damaged file again); ``finals`` None: ``validate_alone``'s."""
    rows = _Rows(path, PackedFinals() if finals is None else None)
    try:
        fv = stream_verdict(path, rows.add, finals=finals if finals is not None else rows.finals,
                            require=require, trusted=trusted or {})
    except NotALog as exc:                     # the file cannot be read (code io)
        return FileReport(io_error=f"{path}: {exc.message}")
    except OSError as exc:
        return FileReport(io_error=f"{path}: {exc.strerror or exc}")
    if fv.unreadable is not None:
        return _report(path, fv, require)
    end = fv.stream
    assert end is not None
    first = [_file_row(path, prob) for prob in fv.problems]
    sig_row = _signature_row(path, fv, require)
    if sig_row is not None:
        first.append(sig_row)
    packed = PackedRows(rows.rows(first, bool(fv.problems)), {"signature": fv.signature})
    rep = FileReport(packed, None, signature=fv.signature_text,
                     sessions=[s for place in sorted(rows.sessions)
                               for s in rows.sessions[place]],
                     damaged=not end.ok)
    if finals is None:
        rows.alone(rep, len(first))
    return rep
