"""Projection of a replayed game onto warehouse rows: one ``games`` row and one ``seats`` row per
seat, from the GAME_START payload, the final state and the game module's result and scores.

Game-specific facts (team names, session rules) are small hooks keyed by game id.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from engine.events import Event


def _keng_team(seat: int) -> str:
    """六人坑 teams (KENG-5): even seats against odd seats."""
    return ("even", "odd")[seat & 1]


TEAM_OF: dict[str, Callable[[int], str]] = {"keng": _keng_team}


def start_payload(start: Event) -> dict[str, Any]:
    """The GAME_START payload as a dict (the engine has already accepted it)."""
    p = json.loads(start.payload or "{}")
    return p if isinstance(p, dict) else {}


def _json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _int_or_none(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


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
        "reason": result.get("reason"),
        "deciding_seat": _int_or_none(result.get("deciding_seat")),
        "winning_team": result.get("winning_team"),
        "result": _json(result) if result else None,
        "final_digest": events[-1].digest,
        "source_file": source_file,
    }


def seat_rows(game_id: str, payload: dict[str, Any], game: ModuleType,
              state: Any) -> list[dict[str, Any]]:
    """The ``seats`` rows of a validated game: player, team, win/loss/draw, score, cards left."""
    result = game.result(state) or {}
    scores = list(game.scores(state))
    players = payload.get("players") or list(getattr(state, "players", ()))
    team_of = TEAM_OF.get(str(payload.get("game", "")))
    hands = result.get("final_hands")
    decider = result.get("deciding_seat")
    rows = []
    for seat, player in enumerate(players):
        score = int(scores[seat]) if seat < len(scores) else 0
        rows.append({
            "game_id": game_id,
            "seat": seat,
            "player_id": str(player),
            "team": team_of(seat) if team_of else None,
            "result": "win" if score > 0 else "loss" if score < 0 else "draw",
            "score": score,
            "cards_left": len(hands[seat]) if isinstance(hands, list) and seat < len(hands)
            else None,
            "deciding": decider == seat,
        })
    return rows
