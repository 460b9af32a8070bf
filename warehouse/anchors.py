"""Anchors: every game's final digest as first ingested, kept beside the warehouse so that it
outlives ``liujia rebuild`` (which makes a fresh warehouse file).

``<warehouse>.anchors`` holds one JSON object per line and game, appended after each ingest or
rebuild run has committed: ``game_id``, ``final_digest`` (hex), ``events``, ``file`` (where it
was first read), ``key`` (the id of the key that signed that file, or null) and ``first_seen``.
A later copy of a game whose final digest differs from its anchor contradicts it: it is
quarantined (stage ``anchor``) and the anchor kept — a rebuild from rewritten logs cannot make
the warehouse forget what it first saw. A warehouse made before anchors existed gets them from
its ``games`` table the first time a run opens it.

The file is read as untrusted input: a line that cannot be read is reported (and skipped), a
game's first anchor wins.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb

MAX_LINE = 4096


@dataclass(frozen=True)
class Anchor:
    """A game's final digest as first ingested."""

    game_id: str
    final_digest: str
    events: int
    file: str
    key: str | None
    first_seen: str


def anchor_path(db: str | os.PathLike[str]) -> Path:
    """The anchor file of a warehouse file."""
    return Path(f"{os.fspath(db)}.anchors")     # not *.jsonl: never taken for a log


def _parse(line: bytes) -> Anchor | None:
    try:
        d = json.loads(line.decode("utf-8"))
        a = Anchor(**d)
    except (ValueError, TypeError):
        return None
    ok = isinstance(a.game_id, str) and isinstance(a.final_digest, str) and \
        isinstance(a.events, int) and isinstance(a.file, str)
    return a if ok else None


def load(db: str | os.PathLike[str]) -> tuple[dict[str, Anchor], list[str]]:
    """The anchors of a warehouse (the first per game) and a line per one that cannot be read."""
    out: dict[str, Anchor] = {}
    problems: list[str] = []
    path = anchor_path(db)
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return out, problems
    with f:
        for no, line in enumerate(f, start=1):
            a = _parse(line[:MAX_LINE]) if len(line) <= MAX_LINE else None
            if a is None:
                if line.strip():
                    problems.append(f"{path}:{no}: not an anchor line; skipped")
                continue
            out.setdefault(a.game_id, a)
    return out, problems


def from_games(con: duckdb.DuckDBPyConnection) -> list[Anchor]:
    """Anchors for the games a warehouse holds (for one made before anchors existed)."""
    rows = con.execute("SELECT game_id, final_digest, events, source_file FROM games "
                       "ORDER BY game_id").fetchall()
    now = datetime.now(UTC).isoformat(timespec="seconds")
    return [Anchor(g, bytes(d).hex(), int(n), str(src), None, now) for g, d, n, src in rows]


def append(db: str | os.PathLike[str], anchors: Iterable[Anchor]) -> int:
    """Append anchors (flushed and synced); returns how many."""
    lines = [json.dumps(asdict(a), sort_keys=True, ensure_ascii=True) + "\n" for a in anchors]
    if not lines:
        return 0
    path = anchor_path(db)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o644)
    with os.fdopen(fd, "ab") as f:
        f.write("".join(lines).encode("ascii"))
        f.flush()
        os.fsync(f.fileno())
    return len(lines)


def new_anchor(game_id: str, digest: bytes, events: int, file: str,
               key: str | None) -> Anchor:
    """The anchor of a game first seen now."""
    return Anchor(game_id, digest.hex(), events, file, key,
                  datetime.now(UTC).isoformat(timespec="seconds"))
