"""Hostile event payloads (not JSON, a huge number, deep nesting, not an object) are refused
with a typed InvalidEvent/IllegalMove, never a bare ValueError or RecursionError."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import Event, event_to_json, payload_json, seal_events
from engine.games import GAMES, find_game
from engine.log import write_log
from engine.replay import Replay, game_type, validate_events
from engine.sim import simulate
from tests.options import options_for

BIG = "9" * 5000
DEEP = "[" * 100_000 + "]" * 100_000
LIUJIA = Path(sys.executable).with_name("liujia")


@cache
def _game(game: str) -> tuple[Event, ...]:
    opts = options_for(game, seats=3)
    return tuple(next(iter(simulate(game, 1, seed=3, options=opts))).events)


def _with_big(payload: str, key: str) -> str:
    """The payload's JSON text with the value of key replaced by a 5000-digit integer."""
    p = json.loads(payload)
    p[key] = "\0BIG\0"
    return json.dumps(p, sort_keys=True).replace(json.dumps("\0BIG\0"), BIG)


def _resealed(events: tuple[Event, ...], index: int, payload: str | None) -> list[Event]:
    out = list(events)
    out[index] = out[index]._replace(payload=payload)
    return seal_events(e._replace(digest=b"") for e in out)


def _variants(game: str) -> list[tuple[str, list[Event]]]:
    ev = _game(game)
    start, end = ev[0].payload, ev[-1].payload
    assert ev[-1].kind == "GAME_END"
    out = [(f"start.{k}=big", _resealed(ev, 0, _with_big(start, k))) for k in json.loads(start)]
    out += [(f"end.{k}=big", _resealed(ev, -1, _with_big(end, k))) for k in json.loads(end)]
    for name, text in (("not json", "{not json"), ("list", "[]"), ("deep", DEEP),
                       ("deep 900", "[" * 900 + "]" * 900), ("number", "5"), ("empty", ""),
                       ("none", None)):
        out.append((f"start {name}", _resealed(ev, 0, text)))
        out.append((f"end {name}", _resealed(ev, -1, text)))
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hostile_payloads_give_a_verdict(game: str) -> None:
    assert validate_events(list(_game(game))).status == "ok"
    for name, events in _variants(game):
        v = validate_events(events)
        assert v.status == "illegal", (name, v)
        assert isinstance(v.error, (InvalidEvent, IllegalMove)), (name, v.error)
        text = str(v.error)
        assert BIG not in text and len(text) < 1000, name
        if isinstance(v.error, InvalidEvent) and v.error.field == "payload":
            assert v.error.seq == (0 if name.startswith("start") else len(events) - 1), name
        v.to_json()
        try:
            Replay(events)
        except EngineError:
            pass


@pytest.mark.parametrize("game", sorted(GAMES))
def test_reasons_name_the_trouble(game: str) -> None:
    ev = _game(game)
    cases = {"{not json": "is not JSON", "[]": "is not a JSON object",
             DEEP: "(nested too deeply)", "[" * 900 + "]" * 900: "(nested too deeply)",
             '{"a":' + BIG + "}": "(a number of more than 4300 digits)"}
    for text, reason in cases.items():
        events = _resealed(ev, -1, text)
        v = validate_events(events)
        assert isinstance(v.error, InvalidEvent), (text[:20], v.error)
        assert v.error.field == "payload" and v.error.seq == len(events) - 1
        assert "GAME_END payload " in str(v.error) and reason in str(v.error), str(v.error)


def test_payload_json_helper() -> None:
    e = Event("GAME_END", game_id="g-1", seq=7)
    assert payload_json(e._replace(payload='{"a": [1, {"b": 2}]}')) == {"a": [1, {"b": 2}]}
    assert payload_json(e._replace(payload="[1]"), obj=False) == [1]
    assert payload_json(e, default="{}") == {}
    for text in (None, "", "x", "[]", "1", DEEP, "[" + BIG + "]"):
        with pytest.raises(InvalidEvent) as info:
            payload_json(e._replace(payload=text))
        assert info.value.seq == 7 and info.value.field == "payload"
    with pytest.raises(InvalidEvent):
        event_to_json(e._replace(payload=DEEP))
    with pytest.raises(InvalidEvent, match="nested too deeply"):
        game_type(Event("GAME_START", seq=0, payload=DEEP))
    with pytest.raises(InvalidEvent, match="4300 digits"):
        game_type(Event("GAME_START", seq=0, payload='{"game":' + BIG + "}"))


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("where", ["start", "end"])
def test_cli_prints_no_traceback(tmp_path: Path, game: str, where: str) -> None:
    ev = _game(game)
    if where == "start":
        key = find_game(game).CONFORMANCE["hostile_start_key"]   # a key the game reads
        events = _resealed(ev, 0, _with_big(ev[0].payload, key))
    else:
        events = _resealed(ev, -1, "{not json")
    log = tmp_path / "hostile.arrow"
    write_log(log, [events])
    gid = events[0].game_id
    for cmd in ("replay", "position"):
        r = subprocess.run([str(LIUJIA), cmd, str(log), "--game", gid, "--step", "3"],
                           capture_output=True, text=True, timeout=120)
        assert "Traceback" not in r.stderr, (cmd, r.stderr[-2000:])
        if where == "start":
            assert r.returncode != 0, (cmd, r.stdout[-500:])
