"""Pieces every game module shares: reading GAME_START, multiset hands, position fields."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.cards import format_face
from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event, payload_json
from engine.ids import id_problem, shown_id

# ---------------------------------------------------------------- GAME_START

def start_error(e: Event, rule: str, reason: str) -> IllegalMove:
    """An IllegalMove against a GAME_START."""
    return IllegalMove(rule, f"GAME_START at seq 0: {reason}", game_id=e.game_id, seq=0,
                       seat=-1, event=e)


def start_payload(e: Event, game_id: str, rules_version: str) -> dict[str, Any]:
    """The JSON payload of a game's GAME_START, checked for kind, seq, game and rules version."""
    if e.kind != "GAME_START" or e.seq != 0:
        raise InvalidEvent("the first event must be GAME_START with seq 0", game_id=e.game_id,
                           seq=e.seq, field="kind")
    p = payload_json(e)
    if p.get("game") != game_id:
        raise InvalidEvent(f"GAME_START payload is not a {game_id} start", game_id=e.game_id,
                           seq=0, field="payload")
    _check_ids(e, p)
    if p.get("rules_version") != rules_version:
        raise InvalidEvent(f"rules version {p.get('rules_version')!r} is not {rules_version}",
                           game_id=e.game_id, seq=0, field="payload")
    return p


def start_options(e: Event, p: dict[str, Any], options_cls: Any, rule: str) -> Any:
    """The recorded options of a GAME_START (every option written out), or the rule broken."""
    try:
        return options_cls.from_dict(p.get("options") or {})
    except TypeError as exc:
        raise start_error(e, rule, str(exc)) from None
    except IllegalMove as exc:
        raise start_error(e, rule, exc.reason) from None


def start_players(e: Event, p: dict[str, Any], rule: str, n: int) -> tuple[str, ...]:
    """The n player ids of a GAME_START, seat by seat."""
    players = p.get("players")
    if not isinstance(players, list) or len(players) != n or not all(
            isinstance(x, str) and x for x in players):
        raise start_error(e, rule, f"players must name {n} seats 0-{n - 1}")
    for seat, player in enumerate(players):
        if problem := id_problem(player):
            raise InvalidEvent(f"GAME_START player id of seat {seat} {shown_id(player)} "
                               f"{problem}", game_id=e.game_id, seq=0,
                               field=f"payload.players[{seat}]")
        if player in players[:seat]:
            raise InvalidEvent(f"GAME_START player id of seat {seat} {shown_id(player)} is "
                               f"also seat {players.index(player)}'s: one player, one seat",
                               game_id=e.game_id, seq=0, field=f"payload.players[{seat}]")
    return tuple(players)


def _check_ids(e: Event, p: dict[str, Any]) -> None:
    """Refuse a GAME_START whose game, session or previous-game id is not an id (engine.ids)."""
    problem = id_problem(e.game_id)
    if problem:
        raise InvalidEvent(f"game id {shown_id(e.game_id)} {problem}", seq=0, field="game_id")
    for key in ("session", "previous_game"):
        value = p.get(key)
        if value is not None and (problem := id_problem(value)):
            raise InvalidEvent(f"GAME_START {key} {shown_id(value)} {problem}",
                               game_id=e.game_id, seq=0, field=f"payload.{key}")


# ---------------------------------------------------------------- hands as multisets

def holds(hand: tuple[int, ...], cards: tuple[int, ...]) -> bool:
    """True if the hand holds every card (with multiplicity)."""
    if len(cards) == 1:
        return cards[0] in hand
    for c in set(cards):
        if hand.count(c) < cards.count(c):
            return False
    return True


def remove_cards(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    """The hand without these cards (which it holds), order kept."""
    h = list(hand)
    for c in cards:
        h.remove(c)
    return tuple(h)


# ---------------------------------------------------------------- position JSON fields

def faces(cards: Iterable[int]) -> list[str]:
    """Face codes as text faces."""
    return [format_face(c) for c in cards]
