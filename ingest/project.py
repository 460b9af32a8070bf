"""Projection of a replayed game onto warehouse rows: one ``games`` row and one ``seats`` row per
seat, from the GAME_START payload, the final state and the game module's functions (``result``,
``winning_team``, ``scores``, ``team_of``), so every registered game projects the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from engine.events import Event


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


def game_row(events: Sequence[Event], payload: dict[str, Any], game: ModuleType,
             state: Any, source_file: str) -> dict[str, Any]:
    """The ``games`` row of a validated game (run_id is added by the loader)."""
    result = game.result(state) or {}
    players = payload.get("players") or list(getattr(state, "players", ()))
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
        "winning_team": game.winning_team(state),
        "result": _json(result) if result else None,
        "final_digest": events[-1].digest,
        "source_file": source_file,
    }


def seat_rows(game_id: str, payload: dict[str, Any], game: ModuleType,
              state: Any) -> list[dict[str, Any]]:
    """The ``seats`` rows of a validated game: player, team, win/loss/draw (of the seat's team),
    score, cards left (when the result lists final hands)."""
    result = game.result(state) or {}
    scores = list(game.scores(state))
    players = payload.get("players") or list(getattr(state, "players", ()))
    hands = result.get("final_hands")
    won = game.winning_team(state)
    rows = []
    for seat, player in enumerate(players):
        score = int(scores[seat]) if seat < len(scores) else 0
        team = game.team_of(seat)
        rows.append({
            "game_id": game_id,
            "seat": seat,
            "player_id": str(player),
            "team": team,
            "result": "draw" if won is None else "win" if team == won else "loss",
            "score": score,
            "cards_left": len(hands[seat]) if isinstance(hands, list) and seat < len(hands)
            else None,
        })
    return rows
