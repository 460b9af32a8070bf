"""The worked recording sessions of docs/record-server.md: for each built-in game, the HTTP
requests a game server makes to record one whole seeded game with ``?auto=true`` — the
GAME_START, then only the actions and the chance events the engine cannot derive — one request
per line: ``POST PATH`` and the JSON body. tests/server/test_record_auto.py replays every file
against the recorder and checks the sealed log is the whole game, and that the files are what
this writes today.

Regenerate after an intended change, then review the diff:
``.venv/bin/python -m tests.server.worked_sessions``
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.errors import EngineError
from engine.events import Event
from engine.games import BUILT_IN
from engine.jsonl import event_to_obj
from engine.replay import Replay
from engine.sim import simulate
from tests.options import options_for

HERE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "record-sessions"
SEED = 5
FIELDS = ("kind", "seat", "cards", "target", "value", "tag", "payload")


def same(a: Event, b: Event) -> bool:
    """True if two events say the same (everything but game id, seq, time and digest)."""
    return all(getattr(a, f) == getattr(b, f) for f in FIELDS)


def split(events: list[Event]) -> tuple[list[Event], list[Event]]:
    """(the events a game server sends, the events the recorder fills in) of one game: an
    event the engine derives at its point (``auto_event`` without a generator) is filled."""
    rp = Replay(events)
    sent, filled = [events[0]], []
    for i, e in enumerate(events[1:], start=1):
        before = rp.state_at(i - 1)
        try:
            derived = None if rp.game.next_auto(before) in rp.game.CHANCE_AUTO else \
                rp.game.auto_event(before)
        except EngineError:
            derived = None
        (filled if derived is not None and same(derived, e) else sent).append(e)
    return sent, filled


def wire(e: Event) -> dict:
    """An event as a game server sends it: no digest (the recorder chains it)."""
    obj = event_to_obj(e)
    del obj["digest"]
    return obj


def game_of(game: str) -> list[Event]:
    """The seeded game of a session."""
    return list(next(simulate(game, 1, seed=SEED, options=options_for(game))).events)


def session_text(game: str) -> str:
    """The requests of one game's worked session, a request per line pair."""
    sent, _ = split(game_of(game))
    out = [f"# liujia record-server: one whole {game} game, seed {SEED}, recorded with "
           f"?auto=true ({len(sent)} requests)"]
    for i, e in enumerate(sent):
        path = "/v1/games" if i == 0 else f"/v1/games/{e.game_id}/events"
        out.append(f"POST {path}?auto=true")
        out.append(json.dumps(wire(e), ensure_ascii=False, separators=(",", ":")))
    return "\n".join(out) + "\n"


def main() -> None:
    """Write every worked session."""
    HERE.mkdir(parents=True, exist_ok=True)
    for game in BUILT_IN:
        path = HERE / f"{game}.http"
        path.write_text(session_text(game), encoding="utf-8")
        print("wrote", path)


if __name__ == "__main__":
    main()
