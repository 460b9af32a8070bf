"""A small client of ``liujia record-server`` (stdlib only): open a game, append its events
one by one or in batches, with retries that are safe because appends are idempotent by
(game id, seq). Importing it loads nothing but the standard library (a game server may copy
``liujia/__init__.py`` and this file alone); only sending ``engine.events.Event`` objects
rather than wire dicts needs the engine.

    from liujia.client import RecordClient
    c = RecordClient("http://127.0.0.1:8765", token)
    c.open(start_event)                   # an engine.events.Event, or a wire dict
    ack = c.append(game_id, event)        # on disk when it returns
    c.append_batch(game_id, events)       # all or none

An event is sent as its ``liujia.jsonl/1`` line object without the digest (the server chains
it); its ``seq`` is sent when it has one, so a retry is recognised. A refusal raises
``Refused`` with the HTTP status and the server's reason (``rule_id`` of an illegal move).
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:                 # the engine is needed only to send its Event objects
    from engine.events import Event


class Refused(Exception):
    """The server refused a request: ``status`` and the JSON ``body`` (``error``, ``reason``,
    ``rule_id`` or ``field``)."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"HTTP {status}: {body.get('error', '')}: {body.get('reason', '')}")
        self.status = status
        self.body = body

    @property
    def rule_id(self) -> str | None:
        """The rule an illegal event breaks, if that is why it was refused."""
        return self.body.get("rule_id")


def _auto(auto: bool) -> str:
    return "?auto=true" if auto else ""


def to_wire(e: Event | dict[str, Any]) -> dict[str, Any]:
    """An event as the server reads it: its line object without the digest (and without
    seq when it has none, ts when it is 0)."""
    if isinstance(e, dict):
        return e
    from engine.jsonl import event_to_obj  # an Event: the engine is installed
    obj = event_to_obj(e)
    del obj["digest"]
    if e.seq < 0:
        del obj["seq"]
    if e.ts == 0:
        del obj["ts"]
    return obj


class RecordClient:
    """One keep-alive connection to a recording server (not thread-safe: one per thread)."""

    def __init__(self, url: str, token: str, *, timeout: float = 30.0, retries: int = 5,
                 backoff: float = 0.05, max_backoff: float = 1.0) -> None:
        u = urlsplit(url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self._https = u.scheme == "https"
        self._host = u.hostname
        self._port = u.port or (443 if self._https else 80)
        self._token = token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._conn: http.client.HTTPConnection | None = None

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = cls(self._host, self._port, timeout=self.timeout)
        return self._conn

    def close(self) -> None:
        """Close the connection."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> RecordClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def request(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        """One call, retried on a lost connection or a 503 (safe for appends that carry
        their seq: they are idempotent); raises Refused for any other status but 200/201."""
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode()
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in range(self.retries + 1):
            try:
                conn = self._connection()
                conn.request(method, path, body=data, headers=headers)
                resp = conn.getresponse()
                raw = resp.read()
                status = resp.status
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt == self.retries:
                    raise
                self._wait(attempt)
                continue
            try:
                out = json.loads(raw) if raw else {}
            except ValueError:
                out = {"error": "bad_response", "reason": raw[:200].decode(errors="replace")}
            if status == 503 and attempt < self.retries:
                self._wait(attempt)
                continue
            if status not in (200, 201):
                raise Refused(status, out if isinstance(out, dict) else {"body": out})
            return out
        raise AssertionError("unreachable")

    def _wait(self, attempt: int) -> None:
        time.sleep(min(self.backoff * (2 ** min(attempt, 20)), self.max_backoff))

    def open(self, start: Event | dict[str, Any], *, auto: bool = False) -> dict[str, Any]:
        """Open a game with its GAME_START (a retry of the same start is acknowledged); with
        ``auto`` the recorder then fills in the automatic events the engine derives (their
        acknowledgements under ``"filled"``)."""
        return self.request("POST", "/v1/games" + _auto(auto), to_wire(start))

    def append(self, game_id: str, event: Event | dict[str, Any], *,
               auto: bool = False) -> dict[str, Any]:
        """Append one event; the acknowledgement (seq, ts, digest, duplicate, over) once it
        is on disk; with ``auto`` also the automatic events filled in after it (``"filled"``)."""
        return self.request("POST", f"/v1/games/{game_id}/events" + _auto(auto),
                            to_wire(event))

    def append_batch(self, game_id: str, events: Sequence[Event | dict[str, Any]], *,
                     auto: bool = False) -> list[dict[str, Any]]:
        """Append several events, all or none; one acknowledgement per event (with ``auto``
        then one per automatic event filled in, marked ``"auto": true``)."""
        return self.request("POST", f"/v1/games/{game_id}/batch" + _auto(auto),
                            {"events": [to_wire(e) for e in events]})["acks"]

    def close_game(self, game_id: str) -> dict[str, Any]:
        """The sealed game's status (refused while the game has no GAME_END)."""
        return self.request("POST", f"/v1/games/{game_id}/close")

    def status(self, game_id: str) -> dict[str, Any]:
        """A game's status: next seq, last digest, over, sealed."""
        return self.request("GET", f"/v1/games/{game_id}")

    def games(self) -> list[dict[str, Any]]:
        """The games in progress."""
        return self.request("GET", "/v1/games")["games"]
