"""The open interchange format ``liujia.jsonl/1``: one event per line of readable JSON after a
header line, streamed with limits on reading, written game by game (docs/interchange.md).

A file is UTF-8 text, optionally gzip-compressed (``*.jsonl.gz``). Line 1 is the header
``{"format": "liujia.jsonl/1", "event_schema": 1}``; every other non-blank line is one event
of the one event schema (``engine/events.py``) with faces as text (``"Th"``), the timestamp as
ISO 8601 UTC and the event's chained digest in hex, so that a reader checks the hash chain
exactly as for an Arrow log. The lines of one game are contiguous. There is no file seal: a
file cut at a line boundary is found only by the replay (a game without its ``GAME_END``).

Everything read is untrusted: a line longer than ``MAX_LINE_BYTES``, more than ``MAX_LINES``
lines or ``MAX_BYTES`` of (decompressed) text are refused without holding them in memory, and
an error message never quotes a value of the file except an id (ids have a safe alphabet) or a
field name escaped by ``engine.ids.shown_id``.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from io import BufferedIOBase
from pathlib import Path
from typing import Any

from engine.cards import N_FACES, format_face
from engine.errors import LogIntegrityError
from engine.events import (
    DIGEST_SIZE,
    NO_SEAT,
    NONE,
    PAYLOAD_MAX_DEPTH,
    SCHEMA_VERSION,
    Event,
    event_fields,
    too_deep,
)
from engine.ids import id_problem, shown_id
from engine.log import LOG_SUFFIX

FORMAT = "liujia.jsonl/1"
FORMAT_FAMILY = "liujia.jsonl/"
JSONL_SUFFIX = ".jsonl"
GZ_SUFFIX = ".jsonl.gz"
SUFFIXES = (JSONL_SUFFIX, GZ_SUFFIX)
SCHEMA_PATH = Path(__file__).with_name("liujia.jsonl-1.schema.json")

MAX_LINE_BYTES = 1 << 20          # one line (a GAME_START of four decks is ~2 KB)
MAX_LINES = 1_000_000             # lines of one file; split bigger inputs
MAX_BYTES = 256 << 20             # text of one file (after gzip); bounds a gzip bomb too
MAX_GAME_EVENTS = 100_000         # events of one game (self-play stops at the same number)
MAX_DISTINCT = 128                # distinct kinds, and tags, of one game (Arrow int8 dictionary)
MAX_KIND = 64                     # characters of a kind
MAX_TAG = 255                     # characters of a tag
MAX_CARDS = 65_535                # cards of one event (u16 in the canonical bytes)
MAX_GENERATOR = 200               # characters of the header's generator note
MAX_NAMED = 100                   # distinct unknown field names a read keeps apart

EVENT_FIELDS = ("game_id", "seq", "ts", "kind", "seat", "cards", "target", "value", "tag",
                "payload", "digest")
REQUIRED = ("game_id", "seq", "ts", "kind", "digest")
HEADER_FIELDS = ("format", "event_schema", "generator")

KIND_RE = re.compile(r"[A-Z][A-Z0-9_]*")
DIGEST_RE = re.compile(r"[0-9a-f]{32}")
TS_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?"
                   r"(Z|[+-]\d{2}:\d{2})")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DAY_US: dict[str, int] = {}          # "YYYY-MM-DD" -> µs at its start (UTC), of valid days
I64 = (-(1 << 63), (1 << 63) - 1)
INT_RANGES = {"seq": (0, (1 << 32) - 1), "seat": (-128, 127), "target": (-128, 127),
              "value": (-(1 << 15), (1 << 15) - 1)}
_FACE_CODE = {format_face(c): c for c in range(N_FACES)}
_EVENT_SET = frozenset(EVENT_FIELDS)


class JsonlError(LogIntegrityError):
    """A problem of a liujia.jsonl file: a code, a one-line reason that does not quote the
    file's values, and where: the file, the line (from 1), the field, the game and seq."""

    def __init__(self, code: str, message: str, *, path: str = "", line: int = -1,
                 field: str = "", game_id: str = "", seq: int = -1, offset: int = -1) -> None:
        super().__init__(code, message, path=path, game_id=game_id, seq=seq, offset=offset)
        self.message = message
        self.line = line
        self.field = field

    def __str__(self) -> str:
        if self.path and self.line >= 0:
            where = [f"{self.path}:{self.line}"]
        else:
            where = [p for p in (self.path, f"line {self.line}" if self.line >= 0 else "") if p]
        where += [p for p in (f"field {self.field}" if self.field else "",
                              f"game {self.game_id}" if self.game_id else "",
                              f"seq {self.seq}" if self.seq >= 0 else "") if p]
        return f"{self.code}: {self.message}" + (f" [{', '.join(where)}]" if where else "")


class LineProblem(Exception):
    """What is wrong with one line, before it is placed (becomes a JsonlError with the path,
    line and game)."""

    def __init__(self, code: str, message: str, field: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


def is_jsonl(path: str | os.PathLike[str]) -> bool:
    """True for a file name of the interchange format: ``*.jsonl`` or ``*.jsonl.gz``."""
    return str(path).endswith(SUFFIXES)


def is_log_name(name: str) -> bool:
    """True for the name of a file liujia reads as a log: ``*.arrows``, ``*.jsonl(.gz)``."""
    return name.endswith((LOG_SUFFIX, *SUFFIXES))


# --- writing -------------------------------------------------------------------------------


def canonical_payload(value: Any) -> str:
    """The payload text a JSON value in a line's ``payload`` stands for: sorted keys, no
    spaces, non-ASCII kept (``json.dumps(v, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def _payload_out(text: str | None) -> Any:
    """A payload as a line holds it: the JSON value itself when its canonical text is exactly
    the stored text (so that it reads back byte for byte), else the text as a string."""
    if not text or text[0] not in "[{":
        return text
    try:
        value = strict_loads(text)
        if isinstance(value, (dict, list)) and not too_deep(value) \
                and canonical_payload(value) == text:
            return value
    except (LineProblem, ValueError, RecursionError):
        pass
    return text


def format_ts(ts: int) -> str | int:
    """A timestamp (µs since the epoch, UTC) as ISO 8601 with six decimals and ``Z``; as the
    integer itself outside the years 1-9999."""
    try:
        dt = EPOCH + timedelta(microseconds=ts)
    except OverflowError:
        return ts
    return (f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d}T{dt.hour:02d}:{dt.minute:02d}:"
            f"{dt.second:02d}.{dt.microsecond:06d}Z")


def event_to_obj(e: Event) -> dict[str, Any]:
    """The JSON object of one event line (fields at their default left out, except seat)."""
    return {"game_id": e.game_id, "seq": e.seq, "ts": format_ts(e.ts),
            **event_fields(e, lambda x: _payload_out(x.payload)), "digest": e.digest.hex()}


def _dump(obj: Any) -> str:
    text = json.dumps(obj, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)
    # JSON allows them raw, some JavaScript-era line splitters do not
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def event_line(e: Event) -> str:
    """One event as its line of text (without the newline)."""
    return _dump(event_to_obj(e))


def header_line(generator: str = "") -> str:
    """The header line (without the newline)."""
    obj: dict[str, Any] = {"format": FORMAT, "event_schema": SCHEMA_VERSION}
    if generator:
        obj["generator"] = generator
    return _dump(obj)


class JsonlWriter:
    """Writes games to a new liujia.jsonl file (gzip-compressed when the name ends in
    ``.gz``, or as ``compress`` says): the header at once, then one line per event."""

    def __init__(self, path: str | os.PathLike[str], *, compress: bool | None = None,
                 generator: str = "") -> None:
        self.path = Path(path)
        gz = str(path).endswith(".gz") if compress is None else compress
        self._raw = open(self.path, "wb")  # noqa: SIM115 - closed by close()
        self._out: BufferedIOBase = (gzip.GzipFile(filename="", mode="wb", fileobj=self._raw,
                                              mtime=0) if gz else self._raw)
        self.games = 0
        self.events = 0
        self._closed = False
        self._out.write((header_line(generator) + "\n").encode())

    def write_game(self, events: Sequence[Event]) -> None:
        """Append the sealed events of one game, one line each."""
        if not events:
            return
        self._out.write("".join(event_line(e) + "\n" for e in events).encode())
        if self._out is self._raw:
            self._raw.flush()
        self.games += 1
        self.events += len(events)

    def close(self) -> None:
        """Finish the file (the gzip trailer), flush it to disk and close it."""
        if self._closed:
            return
        self._closed = True
        if self._out is not self._raw:
            self._out.close()
        self._raw.flush()
        os.fsync(self._raw.fileno())
        self._raw.close()

    def abort(self) -> None:
        """Give up the file after a failed write: close it, ignore errors."""
        self._closed = True
        for f in (self._out, self._raw):
            try:
                f.close()
            except (OSError, ValueError):
                pass

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_jsonl(path: str | os.PathLike[str], games: Iterable[Sequence[Event]]) -> int:
    """Write several games to a new liujia.jsonl(.gz) file; returns the number of events."""
    with JsonlWriter(path) as w:
        for g in games:
            w.write_game(g)
    return w.events


# --- reading one line ----------------------------------------------------------------------


def _no_dupes(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise LineProblem("bad_json", f"the key {shown_id(k)} appears twice in one object")
            seen.add(k)
    return d


def _no_constant(name: str) -> Any:
    raise LineProblem("bad_json", f"{name} is not a JSON number")


def _finite(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise LineProblem("bad_json", "a number too large for a double")
    return v


_STRICT = json.JSONDecoder(object_pairs_hook=_no_dupes, parse_constant=_no_constant,
                           parse_float=_finite)


def strict_loads(text: str) -> Any:
    """Parsed strict JSON (no duplicate keys, no NaN/Infinity, no overflowing number); raises
    LineProblem."""
    try:
        if type(text) is str and not text.startswith("\ufeff"):
            return _STRICT.decode(text)     # json.loads's own path, without a decoder per call
        return json.loads(text, object_pairs_hook=_no_dupes, parse_constant=_no_constant,
                          parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise LineProblem("bad_json", f"not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise LineProblem("bad_json", "not JSON liujia reads (nested too deeply)") from None
    except ValueError:       # an integer of more digits than int() takes
        raise LineProblem("bad_json", "not JSON liujia reads (a number too long)") from None


def _text(name: str, v: Any, limit: int) -> str:
    if not isinstance(v, str):
        raise LineProblem("bad_field", f"{name!r} must be a string, got {_type(v)}", name)
    if len(v) > limit:
        raise LineProblem("bad_field", f"{name!r} has {len(v)} characters, more than {limit}", name)
    try:
        v.encode()
    except UnicodeEncodeError:
        raise LineProblem("bad_field", f"{name!r} holds a lone surrogate (\\ud800-\\udfff): not "
                   "UTF-8 text", name) from None
    return v


def _type(v: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            int: "an integer", float: "a number", type(None): "null"}.get(type(v), "a value")


def _int(obj: dict[str, Any], name: str, default: int) -> int:
    v = obj.get(name, default)
    if type(v) is float and v.is_integer():       # JSON Schema's integers include 2.0
        v = int(v)
    if type(v) is not int:
        raise LineProblem("bad_field", f"{name!r} must be an integer, got {_type(v)}", name)
    lo, hi = INT_RANGES[name]
    if not lo <= v <= hi:
        raise LineProblem("bad_field", f"{name!r} is outside {lo}..{hi}", name)
    return v


def parse_ts(v: Any) -> int:
    """Microseconds since the epoch of a line's ``ts`` (ISO 8601 with a zone, or an integer);
    raises ValueError with the reason."""
    if type(v) is float and v.is_integer():
        v = int(v)
    if type(v) is int:
        if not I64[0] <= v <= I64[1]:
            raise ValueError("'ts' as an integer (µs since 1970) must fit in 64 bits")
        return v
    if not isinstance(v, str):
        raise ValueError(f"'ts' must be an ISO 8601 time or an integer, got {_type(v)}")
    m = TS_RE.fullmatch(v)
    if m is None:
        raise ValueError("'ts' is not an ISO 8601 time like 2026-01-01T00:00:01.500000Z")
    y, mo, d, h, mi, s, frac, zone = m.groups()
    if zone == "Z":                      # the form liujia writes: the day's start, cached
        day = _DAY_US.get(v[:10])
        if day is not None and h < "24" and mi < "60" and s < "60":
            return day + ((int(h) * 60 + int(mi)) * 60 + int(s)) * 1_000_000 \
                + int((frac or "").ljust(6, "0"))
    try:
        offset = timedelta(0) if zone == "Z" else \
            (1 if zone[0] == "+" else -1) * timedelta(hours=int(zone[1:3]),
                                                      minutes=int(zone[4:6]))
        dt = datetime(int(y), int(mo), int(d), int(h), int(mi), int(s),
                      int((frac or "").ljust(6, "0")), tzinfo=UTC) - offset
    except (ValueError, OverflowError):
        raise ValueError("'ts' is not a valid date and time") from None
    us = (dt - EPOCH) // timedelta(microseconds=1)
    if zone == "Z":
        if len(_DAY_US) >= 4096:
            _DAY_US.clear()
        _DAY_US[v[:10]] = us - ((int(h) * 60 + int(mi)) * 60 + int(s)) * 1_000_000 \
            - int((frac or "").ljust(6, "0"))
    return us


def _cards(v: Any) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise LineProblem("bad_field", f"'cards' must be an array of faces like [\"Th\", \"RJ\"], got "
                   f"{_type(v)}", "cards")
    if len(v) > MAX_CARDS:
        raise LineProblem("bad_field", f"'cards' has more than {MAX_CARDS} faces", "cards")
    out = []
    for i, face in enumerate(v):
        code = _FACE_CODE.get(face) if isinstance(face, str) else None
        if code is None:
            raise LineProblem("bad_field", f"'cards' item {i} is not a card face (rank "
                       "A23456789TJQK + suit shcd, or BJ/RJ)", "cards")
        out.append(code)
    return tuple(out)


def _payload(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, str):
        return _text("payload", v, MAX_LINE_BYTES)
    if isinstance(v, (dict, list)):
        if too_deep(v):
            raise LineProblem("bad_field", f"'payload' nests more than {PAYLOAD_MAX_DEPTH} deep",
                       "payload")
        try:
            text = canonical_payload(v)
            text.encode()
        except UnicodeEncodeError:
            raise LineProblem("bad_field", "'payload' holds a lone surrogate (\\ud800-\\udfff): not "
                       "UTF-8 text", "payload") from None
        except (ValueError, RecursionError):
            raise LineProblem("bad_field", "'payload' cannot be written as JSON text",
                       "payload") from None
        return text
    raise LineProblem("bad_field", f"'payload' must be an object, an array, a string (the payload's "
               f"text) or null, got {_type(v)}", "payload")


def line_game_id(obj: Any) -> str | None:
    """The game id of a parsed line if it has a valid one, else None."""
    if isinstance(obj, dict):
        gid = obj.get("game_id")
        if isinstance(gid, str) and id_problem(gid) is None:
            return gid
    return None


def event_from_obj(obj: Any) -> tuple[Event, list[str]]:
    """The event of a parsed event line, and the names of the fields it has that the format
    does not know (not covered by the digest: ignored); raises JsonlError (no path, no line)
    naming the field."""
    try:
        return line_event(obj)
    except LineProblem as exc:
        raise JsonlError(exc.code, exc.message, field=exc.field) from None


def line_event(obj: Any) -> tuple[Event, list[str]]:
    """The event of a parsed line and its unknown field names; raises LineProblem."""
    if not isinstance(obj, dict):
        raise LineProblem("bad_json", f"an event line must be a JSON object, got {_type(obj)}")
    missing = [f for f in REQUIRED if f not in obj]
    if missing:
        raise LineProblem("missing_field", f"{missing[0]!r} is missing (an event line needs "
                   f"{', '.join(REQUIRED)})", missing[0])
    gid = obj["game_id"]
    why = id_problem(gid)
    if why is not None:
        raise LineProblem("bad_field", f"'game_id' {why}", "game_id")
    seq = _int(obj, "seq", 0)
    try:
        ts = parse_ts(obj["ts"])
    except ValueError as exc:
        raise LineProblem("bad_field", str(exc), "ts") from None
    kind = _text("kind", obj["kind"], MAX_KIND)
    if KIND_RE.fullmatch(kind) is None:
        raise LineProblem("bad_field", "'kind' must be a name of capital letters, digits and _ "
                   "beginning with a letter, like PLAY", "kind")
    digest = obj["digest"]
    if not isinstance(digest, str) or DIGEST_RE.fullmatch(digest) is None:
        raise LineProblem("bad_field", f"'digest' must be {2 * DIGEST_SIZE} lowercase hex digits",
                   "digest")
    e = Event(kind=kind, seat=_int(obj, "seat", NO_SEAT),
              cards=_cards(obj["cards"]) if "cards" in obj else (),
              target=_int(obj, "target", NONE), value=_int(obj, "value", NONE),
              tag=_text("tag", obj.get("tag", ""), MAX_TAG), payload=_payload(obj.get("payload")),
              game_id=gid, seq=seq, ts=ts, digest=bytes.fromhex(digest))
    unknown = [k for k in obj if k not in _EVENT_SET] if len(obj) > len(REQUIRED) else []
    return e, unknown


def parse_line(text: str) -> tuple[Event, list[str]]:
    """The event of one event line's text and its unknown field names; raises JsonlError
    (no path, no line) with the code and the field."""
    try:
        return line_event(strict_loads(text))
    except LineProblem as exc:
        raise JsonlError(exc.code, exc.message, field=exc.field) from None


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a liujia.jsonl/1 line, as shipped with the package."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


# --- the plain lines liujia writes, read faster ----------------------------------------------

_PLAIN_SEEN: dict[str, set[str]] = {"game_id": set(), "kind": set(), "tag": set()}


def _seen(name: str, v: str, ok: bool) -> bool:
    """Whether ``v`` is a valid value of field ``name``, remembering the valid ones (bounded)."""
    if ok:
        seen = _PLAIN_SEEN[name]
        if len(seen) >= 4096:
            seen.clear()
        seen.add(v)
    return ok


def plain_event(obj: Any) -> Event | None:
    """The event of a parsed line in the plain form liujia writes (no payload, no unknown
    field, ts as ISO text, each field of its exact type), checked faster than ``line_event``
    (valid ids, kinds and tags remembered); None for any other line, to be read by
    ``line_event``. Whenever it returns an event, ``line_event(obj)`` returns the same event
    and no unknown field (tested over damaged and hostile lines)."""
    if type(obj) is not dict or not obj.keys() <= _EVENT_SET or \
            obj.get("payload") is not None:
        return None
    gid, seq, ts = obj.get("game_id"), obj.get("seq"), obj.get("ts")
    kind, digest, tag = obj.get("kind"), obj.get("digest"), obj.get("tag", "")
    seat, target, value = obj.get("seat", NO_SEAT), obj.get("target", NONE), \
        obj.get("value", NONE)
    if type(gid) is not str or type(seq) is not int or type(ts) is not str or \
            type(kind) is not str or type(digest) is not str or type(tag) is not str or \
            type(seat) is not int or type(target) is not int or type(value) is not int:
        return None
    if not (0 <= seq <= INT_RANGES["seq"][1] and -128 <= seat <= 127 and
            -128 <= target <= 127 and -(1 << 15) <= value < (1 << 15)):
        return None
    seen = _PLAIN_SEEN
    if gid not in seen["game_id"] and not _seen("game_id", gid, id_problem(gid) is None):
        return None
    if kind not in seen["kind"] and not _seen("kind", kind, len(kind) <= MAX_KIND and
                                              KIND_RE.fullmatch(kind) is not None):
        return None
    if tag not in seen["tag"] and not _seen("tag", tag, _plain_text(tag, MAX_TAG)):
        return None
    if DIGEST_RE.fullmatch(digest) is None:
        return None
    cards: tuple[int, ...] = ()
    if "cards" in obj:
        faces = obj["cards"]
        if type(faces) is not list or len(faces) > MAX_CARDS:
            return None
        try:
            cards = tuple([_FACE_CODE[f] for f in faces])
        except (KeyError, TypeError):
            return None
    try:
        us = parse_ts(ts)
    except ValueError:
        return None
    return Event(kind=kind, seat=seat, cards=cards, target=target, value=value, tag=tag,
                 payload=None, game_id=gid, seq=seq, ts=us, digest=bytes.fromhex(digest))


def _plain_text(v: str, limit: int) -> bool:
    """Whether a string is a valid text field of at most ``limit`` characters (as ``_text``)."""
    if len(v) > limit:
        return False
    try:
        v.encode()
    except UnicodeEncodeError:
        return False
    return True


def parse_own_line(text: str) -> tuple[Event, list[str]]:
    """``parse_line`` with the fast path for the plain lines liujia writes (``plain_event``):
    the same event, unknown fields and refusals for any text."""
    try:
        obj = strict_loads(text)
    except LineProblem as exc:
        raise JsonlError(exc.code, exc.message, field=exc.field) from None
    e = plain_event(obj)
    if e is not None:
        return e, []
    return event_from_obj(obj)
