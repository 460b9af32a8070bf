"""The event type shared by every game, its one Arrow schema, canonical bytes and hash chain."""

from __future__ import annotations

import functools
import json
import struct
import sys
from collections.abc import Callable, Iterable, Sequence
from hashlib import blake2b
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.cards import format_face, parse_face
from engine.errors import InvalidEvent

if TYPE_CHECKING:
    import pyarrow as pa

    SCHEMA: pa.Schema

SCHEMA_VERSION = 1
DIGEST_SIZE = 16
GENESIS = bytes(DIGEST_SIZE)
NO_SEAT = -1
NONE = -1


class Event(NamedTuple):
    """One recorded event; an action proposed by a player or bot is an Event without ts/digest."""

    kind: str
    seat: int = NO_SEAT
    cards: tuple[int, ...] = ()
    target: int = NONE
    value: int = NONE
    tag: str = ""
    payload: str | None = None
    game_id: str = ""
    seq: int = -1
    ts: int = 0
    digest: bytes = b""

    def describe(self) -> str:
        """A short human line: 'seq 12 seat 3 PLAY Th Td'."""
        parts = [f"seq {self.seq}"]
        if self.seat >= 0:
            parts.append(f"seat {self.seat}")
        parts.append(self.kind)
        if self.cards:
            parts.append(" ".join(format_face(c) for c in self.cards))
        if self.target >= 0:
            parts.append(f"target {self.target}")
        if self.value != NONE:
            parts.append(f"value {self.value}")
        if self.tag:
            parts.append(self.tag)
        return " ".join(parts)


@functools.cache
def schema() -> pa.Schema:
    """The one Arrow schema of events, built once (``engine.events.SCHEMA`` is the same);
    pyarrow is loaded here, on first use, not when the module is imported: a command that
    never touches Arrow starts without it."""
    import pyarrow as pa
    fields = (
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("seq", pa.uint32(), nullable=False),
        pa.field("ts", pa.timestamp("us", tz="UTC"), nullable=False),
        pa.field("seat", pa.int8(), nullable=False),
        pa.field("kind", pa.dictionary(pa.int8(), pa.string()), nullable=False),
        pa.field("cards", pa.list_(pa.uint8()), nullable=False),
        pa.field("target", pa.int8(), nullable=False),
        pa.field("value", pa.int16(), nullable=False),
        pa.field("tag", pa.dictionary(pa.int8(), pa.string()), nullable=False),
        pa.field("payload", pa.string(), nullable=True),
        pa.field("digest", pa.binary(DIGEST_SIZE), nullable=False),
    )
    return pa.schema(
        fields, metadata={"liujia.log": "events", "liujia.schema_version": str(SCHEMA_VERSION)})


def __getattr__(name: str) -> Any:
    """``SCHEMA`` on first use (PEP 562)."""
    if name == "SCHEMA":
        return schema()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_HEAD = struct.Struct("<IqbbhHHHBI")
_ENC: dict[str, bytes] = {}


def _enc(text: str) -> bytes:
    b = _ENC.get(text)
    if b is None:
        b = _ENC[text] = text.encode()
    return b


def canonical_bytes(e: Event) -> bytes:
    """The bytes a digest covers: every field but the digest, in a fixed length-prefixed layout:
    u16 len + game id, then u32 seq, i64 ts, i8 seat, i8 target, i16 value, u16 #cards,
    u16 len(kind), u16 len(tag), u8 has-payload, u32 len(payload), then cards, kind, tag,
    payload (all little-endian, strings UTF-8)."""
    gid = e.game_id.encode()
    kind = _enc(e.kind)
    tag = _enc(e.tag)
    p = e.payload
    payload = b"" if p is None else p.encode()
    return (len(gid).to_bytes(2, "little") + gid
            + _HEAD.pack(e.seq, e.ts, e.seat, e.target, e.value, len(e.cards), len(kind),
                         len(tag), p is not None, len(payload))
            + bytes(e.cards) + kind + tag + payload)


def chain_digest(prev: bytes, e: Event) -> bytes:
    """Digest of an event chained to the previous digest of its game."""
    return blake2b(prev + canonical_bytes(e), digest_size=DIGEST_SIZE).digest()


def seal_events(events: Iterable[Event], prev: bytes = GENESIS) -> list[Event]:
    """Give each event (already numbered) its chained digest."""
    out = []
    for e in events:
        prev = chain_digest(prev, e)
        out.append(e._replace(digest=prev))
    return out


def events_to_batch(events: Sequence[Event]) -> pa.RecordBatch:
    """Arrow record batch of events in the one schema."""
    cols: list[Sequence[Any]] = (list(zip(*events, strict=True)) if events
                                 else [[] for _ in Event._fields])
    kind, seat, cards, target, value, tag, payload, game_id, seq, ts, digest = cols
    import pyarrow as pa
    sch = schema()
    return pa.RecordBatch.from_arrays(
        [
            pa.array(game_id, pa.string()),
            pa.array(seq, pa.uint32()),
            pa.array(ts, pa.int64()).cast(pa.timestamp("us", tz="UTC")),
            pa.array(seat, pa.int8()),
            pa.array(kind, pa.string()).dictionary_encode().cast(sch.field("kind").type),
            pa.array(cards, pa.list_(pa.uint8())),
            pa.array(target, pa.int8()),
            pa.array(value, pa.int16()),
            pa.array(tag, pa.string()).dictionary_encode().cast(sch.field("tag").type),
            pa.array(payload, pa.string()),
            pa.array(digest, pa.binary(DIGEST_SIZE)),
        ],
        schema=sch,
    )


def _dict_words(col: pa.Array) -> list[tuple[str, bytes]]:
    """Per row: the word and its UTF-8 bytes, decoded once per dictionary entry."""
    import pyarrow as pa
    if pa.types.is_dictionary(col.type):
        words = [(w, w.encode()) for w in col.dictionary.to_pylist()]
        return [words[i] for i in col.indices.to_pylist()]
    return [(w, w.encode()) for w in col.to_pylist()]


def _card_bytes(col: pa.Array) -> list[bytes]:
    offs = col.offsets.to_pylist()
    values = col.values
    data = values.buffers()[1].to_pybytes()[values.offset:] if len(values) else b""
    return [data[offs[i]:offs[i + 1]] for i in range(len(col))]


def decode_batch(batch: pa.RecordBatch) -> tuple[list[Event], list[bytes]]:
    """Events of an Arrow record batch in the one schema, with each event's canonical bytes
    (what its digest covers), built from the columns without a second pass."""
    import pyarrow as pa
    c = batch.column
    n = batch.num_rows
    game_id = c(0).to_pylist()
    seq = c(1).to_pylist()
    ts = c(2).view(pa.int64()).to_pylist()
    seat = c(3).to_pylist()
    kind = _dict_words(c(4))
    card_bytes = _card_bytes(c(5))
    target = c(6).to_pylist()
    value = c(7).to_pylist()
    tag = _dict_words(c(8))
    payload = c(9).to_pylist()
    dcol = c(10)
    draw = dcol.buffers()[1].to_pybytes()
    o = dcol.offset * DIGEST_SIZE
    events: list[Event] = []
    canon: list[bytes] = []
    add_event, add_canon, pack = events.append, canon.append, _HEAD.pack
    last_gid, gid_prefix = None, b""
    for i in range(n):
        gid = game_id[i]
        if gid != last_gid:
            gb = gid.encode()
            last_gid, gid_prefix = gid, len(gb).to_bytes(2, "little") + gb
        cb = card_bytes[i]
        k, kb = kind[i]
        t, tb = tag[i]
        p = payload[i]
        pb = b"" if p is None else p.encode()
        add_canon(gid_prefix + pack(seq[i], ts[i], seat[i], target[i], value[i], len(cb),
                                    len(kb), len(tb), p is not None, len(pb)) + cb + kb + tb + pb)
        add_event(Event(k, seat[i], tuple(cb), target[i], value[i], t, p, gid, seq[i], ts[i],
                        draw[o + DIGEST_SIZE * i: o + DIGEST_SIZE * (i + 1)]))
    return events, canon


def batch_to_events(batch: pa.RecordBatch) -> list[Event]:
    """Events of an Arrow record batch in the one schema."""
    return decode_batch(batch)[0]


def event_fields(e: Event, payload: Callable[[Event], Any]) -> dict[str, Any]:
    """An event's own fields as JSON values, those at their default left out but kind and
    seat: cards as text faces, the payload as ``payload(e)`` gives it."""
    out: dict[str, Any] = {"kind": e.kind, "seat": e.seat}
    if e.cards:
        out["cards"] = [format_face(c) for c in e.cards]
    if e.target != NONE:
        out["target"] = e.target
    if e.value != NONE:
        out["value"] = e.value
    if e.tag:
        out["tag"] = e.tag
    if e.payload is not None:
        out["payload"] = payload(e)
    return out


def event_to_json(e: Event) -> dict[str, Any]:
    """A JSON-ready dict of an event or action, cards as text faces."""
    out = event_fields(e, lambda x: payload_json(x, obj=False))
    if e.game_id:
        out["game_id"] = e.game_id
    if e.seq >= 0:
        out["seq"] = e.seq
    return out


PAYLOAD_MAX_DEPTH = 64


def too_deep(obj: Any, limit: int = PAYLOAD_MAX_DEPTH) -> bool:
    """Whether a parsed JSON value nests lists/objects more than limit deep (no recursion)."""
    stack = [(obj, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        elif not isinstance(v, list):
            continue
        if d > limit:
            return True
        stack.extend((x, d + 1) for x in v if isinstance(x, (list, dict)))
    return False


def payload_json(e: Event, *, obj: bool = True, default: str = "") -> Any:
    """The parsed JSON payload of an event (a dict unless obj is False), or an InvalidEvent
    (field ``payload``, the event's seq) with a one-line reason that does not echo the
    payload: not JSON, a too-long number, nested too deeply, not a JSON object. A missing
    or empty payload reads as default (by default: not JSON)."""
    what = f"{e.kind or 'event'} payload"
    text = e.payload or default

    def bad(reason: str) -> InvalidEvent:
        return InvalidEvent(f"{what} {reason}", game_id=e.game_id, seq=e.seq, field="payload")

    try:
        p = json.loads(text)
    except RecursionError:
        raise bad("is not JSON liujia reads (nested too deeply)") from None
    except json.JSONDecodeError as exc:
        raise bad(f"is not JSON ({exc.msg} at char {exc.pos})" if text else "is missing") \
            from None
    except ValueError as exc:
        if "digits" in str(exc):
            raise bad("is not JSON liujia reads (a number of more than "
                      f"{sys.get_int_max_str_digits()} digits)") from None
        raise bad("is not JSON liujia reads") from None
    if too_deep(p):
        raise bad("is not JSON liujia reads (nested too deeply)")
    if obj and not isinstance(p, dict):
        raise bad("is not a JSON object")
    return p


_JSON_KEYS = {"kind", "seat", "cards", "target", "value", "tag", "payload", "game_id", "seq",
              "suit"}


def event_from_json(obj: Any) -> Event:
    """An action/event from its JSON form (see docs/actions.md); raises InvalidEvent."""
    if not isinstance(obj, dict):
        raise InvalidEvent("an action must be a JSON object", field="action")
    unknown = set(obj) - _JSON_KEYS
    if unknown:
        raise InvalidEvent(f"unknown keys {sorted(unknown)}", field=sorted(unknown)[0])
    kind = obj.get("kind")
    if not isinstance(kind, str) or not kind:
        raise InvalidEvent("'kind' must be a non-empty string", field="kind")

    def _int(name: str, default: int) -> int:
        v = obj.get(name, default)
        if not isinstance(v, int) or isinstance(v, bool):
            raise InvalidEvent(f"'{name}' must be an integer", field=name)
        return v

    cards = obj.get("cards", [])
    if isinstance(cards, str):
        cards = cards.split()
    if not isinstance(cards, list):
        raise InvalidEvent("'cards' must be a list of faces like [\"Th\", \"RJ\"]", field="cards")
    value = _int("value", NONE)
    if "suit" in obj:
        suit = obj["suit"]
        if suit not in ("s", "h", "c", "d"):
            raise InvalidEvent("'suit' must be one of s h c d", field="suit")
        value = "shcd".index(suit)
    payload = obj.get("payload")
    return Event(
        kind=kind.upper(),
        seat=_int("seat", NO_SEAT),
        cards=tuple(parse_face(c) for c in cards),
        target=_int("target", NONE),
        value=value,
        tag=str(obj.get("tag", "")),
        payload=None if payload is None else json.dumps(payload, sort_keys=True),
        game_id=str(obj.get("game_id", "")),
        seq=_int("seq", -1),
    )
