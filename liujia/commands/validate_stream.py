"""``liujia validate`` of an Arrow log read as a stream (``engine.verdict.stream_verdict``): the
same rows as the file read whole, byte for byte, in memory that does not grow with the events.

Each game's row is made when its verdict comes, packed (pickled and compressed: a few hundred
bytes instead of a few KB as a dict), and put in its place; what only the file's end decides
(the file-level rows first, each row's ``signature``, the reason of an incomplete game in a
damaged file) is added when the rows are read."""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Iterable, Iterator, MutableMapping, MutableSequence
from pathlib import Path
from typing import Any, overload

from engine.log import GameLog, NotALog
from engine.verdict import GameVerdict, stream_verdict
from liujia.commands.validate import (
    FileReport,
    _file_row,
    _fixed_session,
    _game_row,
    _report,
    _signature_row,
)

__all__ = ["PackedRows", "stream_report"]


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


class _Rows:
    """The rows of a file's games as their verdicts come (in any order, by place)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.packed: dict[int, bytes] = {}
        self.incomplete: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        self.sessions: dict[int, list[tuple[str, str, int]]] = {}

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

    def rows(self, first: list[dict[str, Any]], damaged: bool) -> list[bytes]:
        """The file's rows, packed: ``first`` (the file-level rows), then the games'."""
        out = [_pack(r) for r in first]
        for place in sorted(self.packed):
            pair = self.incomplete.get(place)
            out.append(self.packed[place] if pair is None else _pack(pair[damaged]))
        return out


def stream_report(path: Path, finals: MutableMapping[str, Any], require: str,
                  trusted: dict[str, str] | None) -> FileReport:
    """``validate_file`` of an Arrow log, read as a stream: the same report, without the log
    (``--salvage`` reads a damaged file again)."""
    rows = _Rows(path)
    try:
        fv = stream_verdict(path, rows.add, finals=finals, require=require,
                            trusted=trusted or {})
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
    return FileReport(packed, None, signature=fv.signature_text,
                      sessions=[s for place in sorted(rows.sessions)
                                for s in rows.sessions[place]],
                      damaged=not end.ok)

