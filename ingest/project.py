"""Projection of a replayed game onto warehouse rows: one ``games`` row and one ``seats`` row per
seat, from the GAME_START payload, the final state and the game module's functions (``result``,
``outcomes``, ``sides``), so every registered game projects the same way: any number of seats,
sides that may be null, each seat's place, score and win / loss / draw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.events import Event
from engine.games.base import Game
from engine.games.frame import WIN, winning_side


def start_payload(start: Event) -> dict[str, Any]:
    """The GAME_START payload as a dict (the engine has already accepted it)."""
    p = json.loads(start.payload or "{}")
    return p if isinstance(p, dict) else {}


def _json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _int_or_none(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _str_or_none(v: Any) -> str | None:
    return None if v is None else str(v)


def game_row(events: Sequence[Event], payload: dict[str, Any], game: Game,
             state: Any, source_file: str) -> dict[str, Any]:
    """The ``games`` row of a validated game (run_id is added by the loader)."""
    result = game.result(state) or {}
    players = payload.get("players") or list(getattr(state, "players", ()))
    outcomes = game.outcomes(state) or ()
    return {
        "game_id": events[0].game_id,
        "game": str(payload.get("game", "")),
        "rules_version": str(payload.get("rules_version", "")),
        "options": _json(payload.get("options") or {}),
        "players": [str(p) for p in players],
        "session": payload.get("session"),
        "previous_game": payload.get("previous_game"),
        "opener": _int_or_none(payload.get("opener")),
        "started": events[0].ts,
        "ended": events[-1].ts,
        "events": len(events),
        "reason": _str_or_none(result.get("reason")),
        "seats": len(players),
        "winning_side": winning_side(outcomes, game.sides(state)),
        "winners": [seat for seat, o in enumerate(outcomes) if o.result == WIN],
        "result": _json(result) if result else None,
        "final_digest": events[-1].digest,
        "source_file": source_file,
    }


def seat_rows(game_id: str, payload: dict[str, Any], game: Game,
              state: Any) -> list[dict[str, Any]]:
    """The ``seats`` rows of a validated game: player, side (null without one), place, win /
    loss / draw, score, cards left (when the result lists final hands)."""
    result = game.result(state) or {}
    outcomes = game.outcomes(state)
    sides = game.sides(state)
    players = payload.get("players") or list(getattr(state, "players", ()))
    hands = result.get("final_hands")
    rows = []
    for seat, player in enumerate(players):
        o = outcomes[seat] if outcomes else None
        rows.append({
            "game_id": game_id,
            "seat": seat,
            "player_id": str(player),
            "side": sides[seat],
            "place": None if o is None else o.place,
            "result": "draw" if o is None else o.result,
            "score": 0 if o is None else int(o.score),
            "cards_left": len(hands[seat]) if isinstance(hands, list) and seat < len(hands)
            else None,
        })
    return rows
