"""An event as a game server sends it: a ``liujia.jsonl/1`` event line object
(``engine/jsonl.py``) in which ``game_id``, ``seq``, ``ts`` and ``digest`` may be left out —
the game id comes from the URL, the server numbers the event and stamps it when the client
does not, and computes the chained digest itself (a digest sent must equal it)."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidEvent
from engine.events import Event
from engine.ids import shown_id
from engine.jsonl import LineProblem, line_event

WIRE_FIELDS = ("game_id", "seq", "ts", "kind", "seat", "cards", "target", "value", "tag",
               "payload", "digest")
_PLACEHOLDER_DIGEST = "0" * 32
_INTEGERS = ("seq", "ts", "seat", "target", "value")   # JSON integers, never 5.0 nor true
_PLAIN = re.compile(r"[A-Za-z0-9_]{1,64}")


@dataclass(frozen=True)
class Incoming:
    """An event read from the wire, not yet numbered, stamped or chained when the client left
    that to the server: ``seq`` / ``ts`` None, ``digest`` None."""

    event: Event                 # game_id set; seq, ts as given (else -1 / 0); no digest
    seq: int | None
    ts: int | None
    digest: bytes | None


def now_us() -> int:
    """The server's clock: microseconds since 1970 (UTC)."""
    return time.time_ns() // 1000


def _not_integer(v: bool | float) -> str:
    if isinstance(v, bool):
        return "a boolean"
    return f"the number {v!r} (an integer has no decimal point)"


def read_event(obj: Any, game_id: str) -> Incoming:
    """The event of a wire object for game ``game_id``; raises InvalidEvent naming the field
    (the checks of a line of a ``liujia.jsonl/1`` file, see docs/interchange.md, and integers
    as the JSON Schema types them: no ``5.0``, no ``true``)."""
    if not isinstance(obj, dict):
        raise InvalidEvent("an event must be a JSON object", game_id=game_id, field="event")
    unknown = [k for k in obj if k not in WIRE_FIELDS]
    if unknown:
        name = unknown[0] if _PLAIN.fullmatch(unknown[0]) else shown_id(unknown[0])
        raise InvalidEvent(f"unknown field {name} (an event has {', '.join(WIRE_FIELDS)})",
                           game_id=game_id, field=name)
    if "game_id" in obj and obj["game_id"] != game_id:
        raise InvalidEvent("'game_id' differs from the game of the URL", game_id=game_id,
                           field="game_id")
    for name in _INTEGERS:
        v = obj.get(name)
        if isinstance(v, (bool, float)):
            what = "an ISO 8601 time or an integer" if name == "ts" else "an integer"
            raise InvalidEvent(f"'{name}' must be {what}, got {_not_integer(v)}",
                               game_id=game_id, field=name)
    seq = obj.get("seq")
    ts = obj.get("ts")
    digest = obj.get("digest")
    line = dict(obj)
    line["game_id"] = game_id
    line["seq"] = 0 if seq is None else seq
    line["ts"] = 0 if ts is None else ts
    line["digest"] = _PLACEHOLDER_DIGEST if digest is None else digest
    try:
        e, _ = line_event(line)
    except LineProblem as exc:
        raise InvalidEvent(exc.message, game_id=game_id,
                           seq=seq if isinstance(seq, int) else -1, field=exc.field) from None
    return Incoming(e._replace(digest=b"", seq=-1 if seq is None else e.seq),
                    None if seq is None else e.seq, None if ts is None else e.ts,
                    None if digest is None else e.digest)
