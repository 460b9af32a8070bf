"""The HTTP + JSON interface of the recording service (FastAPI; the OpenAPI description at
``/openapi.json``, browsable at ``/docs``). Every ``/v1`` call but ``/v1/health`` needs
``Authorization: Bearer TOKEN`` of a game server named in the tokens file: a game server sees
and writes only the games it opened; an admin token (``--new-token NAME --admin``) may also
list and read every game and the recovery report."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from engine.errors import InvalidEvent
from engine.ids import id_problem
from engine.jsonl import MAX_LINE_BYTES, LineProblem, strict_loads
from liujia.server.store import MAX_BATCH, Refused, Store, refusal
from liujia.server.tokens import who
from liujia.server.wire import read_event

# bytes of a request body: one event line's limit, a batch's too (at most MAX_BATCH events);
# parsed JSON takes up to ~25 times its text, so this bounds a request's memory
MAX_BODY = MAX_LINE_BYTES


def auto_of(request: Request) -> bool:
    """The ``auto`` query parameter: fill in the automatic events after the request's own
    (``true`` / ``false``, default false); anything else is refused."""
    v = request.query_params.get("auto", "false")
    if v not in ("true", "false"):
        raise Refused(422, {"error": "invalid", "field": "auto",
                            "reason": "auto is true or false"})
    return v == "true"


def _too_big(limit: int) -> Refused:
    return Refused(413, {"error": "too_big", "reason": f"the body is more than {limit} bytes "
                         f"(a batch: at most {MAX_BATCH} events and {limit} bytes)"})


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) as soon as it is known to exceed ``limit`` bytes: by its
    Content-Length before a byte is read, else as the chunks arrive (never held whole)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise Refused(400, {"error": "invalid", "field": "content-length",
                                "reason": "Content-Length is not a number"})
        if int(declared) > limit:
            raise _too_big(limit)
    buf = bytearray()
    async for chunk in request.stream():
        if len(buf) + len(chunk) > limit:
            raise _too_big(limit)
        buf += chunk
    return bytes(buf)

_FACE = {"type": "string", "pattern": "^([A23456789TJQK][shcd]|BJ|RJ)$"}
EVENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An event as a liujia.jsonl/1 line object (docs/interchange.md) in which "
    "game_id, seq, ts and digest may be left out: the server numbers (next seq), stamps (its "
    "clock, never before the previous event) and chains the event. A seq given makes a retry "
    "idempotent; a digest given must equal the one the server computes.",
    "required": ["kind"],
    "additionalProperties": False,
    "properties": {
        "game_id": {"type": "string"},
        "seq": {"type": "integer", "minimum": 0},
        "ts": {"oneOf": [{"type": "string", "format": "date-time"}, {"type": "integer"}],
               "description": "ISO 8601 with a zone, or µs since 1970"},
        "kind": {"type": "string", "example": "PLAY"},
        "seat": {"type": "integer", "default": -1},
        "cards": {"type": "array", "items": _FACE, "example": ["Th", "Td"]},
        "target": {"type": "integer", "default": -1},
        "value": {"type": "integer", "default": -1},
        "tag": {"type": "string", "default": ""},
        "payload": {"description": "an object or array (its canonical JSON text), a string "
                    "(the text itself) or null"},
        "digest": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
    },
}
BATCH_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["events"], "additionalProperties": False,
    "properties": {"events": {"type": "array", "items": EVENT_SCHEMA, "maxItems": MAX_BATCH}},
}
ACK = {"description": "acknowledged: on disk (fsync'ed)", "content": {"application/json": {
    "example": {"game_id": "g1", "seq": 7, "ts": 1767225610500000,
                "digest": "4f1c…", "duplicate": False, "over": False}}}}
REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"description": "no or unknown bearer token"},
    403: {"description": "the game belongs to another game server"},
    404: {"description": "no such game"},
    409: {"description": "conflict: another event at this seq, a gap, or the game is over"},
    413: {"description": f"a body of more than {MAX_BODY} bytes (refused while it arrives)"},
    422: {"description": "refused by the engine (error illegal: rule_id, reason; invalid: "
          "field, reason); nothing stored"},
    507: {"description": "the log could not be written; nothing stored"},
}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"requestBody": {"required": True,
                            "content": {"application/json": {"schema": schema}}}}


def create_app(store: Store, tokens: dict[str, str],
               admins: frozenset[str] | set[str] = frozenset(),
               background: bool = False) -> FastAPI:
    """The app over a store (started when the app starts, closed when it stops); the game
    servers named in ``admins`` may read every game and the recovery report. With
    ``background`` (or a store already started so), the app answers once the data folder is
    scanned and recovers the live games in the background (``Store.recover_rest``)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store.start(background)
        if store.pending:
            store.recovery_task = asyncio.ensure_future(store.recover_rest())
        yield
        if store.recovery_task is not None and not store.recovery_task.done():
            store.recovery_task.cancel()
        store.close()

    app = FastAPI(title="liujia record-server", version="1",
                  description="Live recording of card games: open a game with its GAME_START, "
                  "append its events (each checked by the engine, acknowledged once on disk), "
                  "sealed into an Arrow log at GAME_END. See docs/record-server.md.",
                  lifespan=lifespan)

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused) -> JSONResponse:
        # a body refused before it was read whole: the connection is not reused
        headers = {"connection": "close"} if exc.status == 413 else None
        return JSONResponse(exc.body, status_code=exc.status, headers=headers)

    def caller(request: Request) -> str:
        name = who(tokens, request.headers.get("authorization"))
        if name is None:
            raise Refused(401, {"error": "unauthorized", "reason": "an Authorization: Bearer "
                                "header with a game server's token is needed"})
        return name

    def viewer(request: Request) -> str | None:
        """The caller whose games only it may read, or None for an admin (every game)."""
        name = caller(request)
        return None if name in admins else name

    async def json_body(request: Request) -> Any:
        raw = await read_body(request, MAX_BODY)
        try:
            return strict_loads(raw.decode())
        except (LineProblem, UnicodeDecodeError) as exc:
            raise Refused(422, {"error": "invalid", "field": "body",
                                "reason": f"the body is not JSON ({exc})"}) from None

    def game_id_of(gid: str) -> str:
        why = id_problem(gid)
        if why is not None:
            raise Refused(422, {"error": "invalid", "field": "game_id",
                                "reason": f"the game id {why}"})
        return gid

    def event_of(obj: Any, gid: str) -> Any:
        try:
            return read_event(obj, gid)
        except InvalidEvent as exc:
            raise refusal(exc) from None

    @app.get("/v1/health", summary="liveness (no token needed); recovering: the live games "
             "not recovered yet since the start")
    async def health() -> dict[str, Any]:
        return {"ok": True, "live_games": len(store.live) + len(store.pending),
                "recovering": len(store.pending)}

    @app.post("/v1/games", summary="open a game with its GAME_START (idempotent)",
              status_code=201, openapi_extra=_body(EVENT_SCHEMA),
              responses={201: ACK, 200: ACK, **REFUSALS})
    async def open_game(request: Request) -> Any:
        name = caller(request)
        obj = await json_body(request)
        gid = obj.get("game_id") if isinstance(obj, dict) else None
        if not isinstance(gid, str):
            raise Refused(422, {"error": "invalid", "field": "game_id",
                                "reason": "GAME_START needs its game_id"})
        auto = auto_of(request)
        ack = await store.open(name, event_of(obj, game_id_of(gid)))
        if auto:
            ack = dict(ack, filled=await store.append(name, ack["game_id"], [], auto=True))
        return JSONResponse(ack, status_code=200 if ack["duplicate"] else 201)

    @app.post("/v1/games/{game_id}/events", summary="append one event",
              openapi_extra=_body(EVENT_SCHEMA), responses={200: ACK, **REFUSALS})
    async def append(game_id: str, request: Request) -> Any:
        name = caller(request)
        gid = game_id_of(game_id)
        auto = auto_of(request)
        inc = event_of(await json_body(request), gid)
        acks = await store.append(name, gid, [inc], auto=auto)
        return JSONResponse(dict(acks[0], filled=acks[1:]) if auto else acks[0])

    @app.post("/v1/games/{game_id}/batch", summary="append several events, all or none",
              openapi_extra=_body(BATCH_SCHEMA), responses=REFUSALS)
    async def append_batch(game_id: str, request: Request) -> Any:
        name = caller(request)
        gid = game_id_of(game_id)
        auto = auto_of(request)
        obj = await json_body(request)
        if not isinstance(obj, dict) or set(obj) != {"events"} or \
                not isinstance(obj["events"], list):
            raise Refused(422, {"error": "invalid", "field": "events",
                                "reason": "a batch is {\"events\": [event, …]}"})
        if len(obj["events"]) > MAX_BATCH:
            raise Refused(422, {"error": "invalid", "field": "events",
                                "reason": f"more than {MAX_BATCH} events in one batch"})
        incs = []
        for i, o in enumerate(obj["events"]):
            try:
                incs.append(read_event(o, gid))
            except InvalidEvent as exc:
                raise refusal(exc, i) from None
        return JSONResponse({"acks": await store.append(name, gid, incs, auto=auto)})

    @app.post("/v1/games/{game_id}/close", summary="close a game: sealed once GAME_END is in",
              responses=REFUSALS)
    async def close(game_id: str, request: Request) -> Any:
        st = store.status(game_id_of(game_id), caller(request))
        if not st["over"]:
            raise Refused(409, {"error": "not_over", "reason": f"game {game_id} has no "
                                "GAME_END yet", **{k: st[k] for k in
                                                   ("next_seq", "next_auto", "to_move")}})
        return st

    @app.get("/v1/games", summary="the games in progress (a game server's own; an admin: all); "
             "answered once every game is recovered")
    async def games(request: Request) -> Any:
        who_ = viewer(request)
        await store.recovered()
        return {"games": store.in_progress(who_)}

    @app.get("/v1/games/{game_id}", summary="a game's status", responses=REFUSALS)
    async def status(game_id: str, request: Request) -> Any:
        return store.status(game_id_of(game_id), viewer(request))

    @app.get("/v1/recovery", summary="what the last start found and repaired (admin token); "
             "answered once every game is recovered")
    async def recovery(request: Request) -> Any:
        if viewer(request) is not None:
            raise Refused(403, {"error": "forbidden", "reason": "the recovery report is for an "
                                "admin token (`liujia record-server --new-token NAME --admin`)"})
        await store.recovered()
        return {"report": store.report}

    return app
