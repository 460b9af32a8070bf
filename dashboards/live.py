"""The games a recording service (``liujia record-server --data DIR``) has open: read from its
append logs ``DIR/live/*.jsonl.live`` (``liujia serve --live DIR`` sets ``$LIUJIA_LIVE``).

The files are untrusted input: only the first event line and the last line of each are parsed
(a line of at most ``MAX_LINE`` bytes), at most ``MAX_FILES`` files, and what is shown is plain
text in a data frame, never Markdown or HTML.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

LIVE_ENV = "LIUJIA_LIVE"
LIVE_SUFFIX = ".jsonl.live"
MAX_FILES = 500
MAX_LINE = 1 << 20
TAIL = 1 << 16


def live_folder() -> Path | None:
    """The recording service's data folder the dashboard was given, if any."""
    value = os.environ.get(LIVE_ENV)
    return Path(value) if value else None


def _obj(line: bytes) -> dict[str, Any] | None:
    try:
        v = json.loads(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return v if isinstance(v, dict) else None


def _game(path: Path) -> dict[str, Any] | None:
    """One live game's row: id, game, players, events so far, last event's kind and time."""
    try:
        with open(path, "rb") as f:
            f.readline(MAX_LINE)                          # the format header
            first = _obj(f.readline(MAX_LINE))
            size = os.fstat(f.fileno()).st_size
            f.seek(max(0, size - TAIL))
            tail = f.read(TAIL).splitlines()
        with open(path, "rb") as f:
            lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    except OSError:
        return None
    if first is None:
        return None
    last = next((o for o in map(_obj, reversed(tail)) if o is not None), first)
    payload = first.get("payload")
    start = payload if isinstance(payload, dict) else {}
    players = start.get("players")
    return {"game_id": str(first.get("game_id", "")), "game": str(start.get("game", "")),
            "players": ", ".join(map(str, players)) if isinstance(players, list) else "",
            "events": max(0, lines - 1), "last event": str(last.get("kind", "")),
            "last at": str(last.get("ts", "")),
            "file changed": datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(
                timespec="seconds")}


def live_games(folder: Path) -> list[dict[str, Any]]:
    """The open games of a recording service's data folder, newest file first."""
    d = folder / "live"
    try:
        paths = sorted((p for p in d.iterdir() if p.name.endswith(LIVE_SUFFIX)),
                       key=lambda p: p.stat().st_mtime, reverse=True)[:MAX_FILES]
    except OSError:
        return []
    return [g for g in map(_game, paths) if g is not None]
