"""A disputed moment in full: what each seat knew before the event (its view, and the table as
it saw it), the legal options then with the one chosen marked, the verdict, and the text of
every rule cited (the rule broken and the others it breaks, or the rules the chosen kind of
decision names)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from engine.audit.timing import when
from engine.errors import EngineError, IllegalMove
from engine.events import Event

LEGAL_LIMIT = 400          # legal options listed at one moment (a large hand has hundreds)
_RULE_ID = re.compile(r"\b([A-Z]{2,5}-\d+[a-z]?)\b")
_RANGE = re.compile(r"\b([A-Z]{2,5})-(\d+) to \1-(\d+)\b")


def rule_ids(text: str) -> list[str]:
    """The rule ids a text names, a range 'KENG-17 to KENG-19' spelled out."""
    text = _RANGE.sub(lambda m: ", ".join(f"{m.group(1)}-{i}" for i in range(
        int(m.group(2)), int(m.group(3)) + 1)) if int(m.group(3)) - int(m.group(2)) <= 12
        else m.group(0), text)
    return list(dict.fromkeys(_RULE_ID.findall(text)))


def action_text(e: Event) -> str:
    """An event without its seq: 'seat 2 PLAY Th Td', 'DEAL target 3'."""
    return e.describe().partition(" ")[2].partition(" ")[2]


def _key(e: Event) -> tuple[Any, ...]:
    return (e.kind, e.seat, tuple(sorted(e.cards)), e.target, e.value, e.tag)


def _loose(e: Event) -> tuple[Any, ...]:
    return (e.kind, e.seat, tuple(sorted(e.cards)))


def legal_options(game: Any, state: Any, chosen: Event) -> dict[str, Any]:
    """The legal actions in the state, the chosen one marked (by kind, seat, cards, target,
    value and tag; else by kind, seat and cards), at most ``LEGAL_LIMIT`` listed."""
    acts = list(game.legal_actions(state))
    exact = [i for i, a in enumerate(acts) if _key(a) == _key(chosen)]
    marked = exact or [i for i, a in enumerate(acts) if _loose(a) == _loose(chosen)]
    pick = set(marked[:1])
    shown = list(range(min(len(acts), LEGAL_LIMIT)))
    if pick and max(pick) >= LEGAL_LIMIT:
        shown[-1] = max(pick)
    rows = [{"action": action_text(acts[i]), "kind": acts[i].kind, "seat": acts[i].seat,
             "chosen": i in pick} for i in shown]
    return {"count": len(acts), "listed": len(rows), "chosen_listed": bool(pick),
            "options": rows}


def untrusted_strings(start: Event) -> list[str]:
    """The log's own strings (game id, player ids, option values) that the terminal would
    act on, longest first: rendered tables get them escaped whole."""
    from engine.text import safe_text

    try:
        payload = json.loads(start.payload or "null")
    except ValueError:
        payload = None
    found: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            found.add(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(payload)
    found.add(start.game_id)
    return sorted((s for s in found if s and safe_text(s) != s), key=len, reverse=True)


def table_text(game: Any, state: Any, seat: int | None, hostile: Sequence[str]) -> str:
    """The table as the seat saw it (the game's ``render``), the log's strings escaped."""
    from engine.text import safe_text

    text = game.render(state, seat)
    for s in hostile:
        text = text.replace(s, safe_text(s))
    return text


def views(game: Any, state: Any, players: Sequence[str], hostile: Sequence[str]
          ) -> list[dict[str, Any]]:
    """What the auditor and each seat knew in the state: the view and the table text."""
    out = [{"seat": None, "who": "auditor (every card)", "view": game.view(state, None),
            "table": table_text(game, state, None, hostile)}]
    for k, player in enumerate(players):
        out.append({"seat": k, "who": f"seat {k} ({player})", "view": game.view(state, k),
                    "table": table_text(game, state, k, hostile)})
    return out


def cited_rules(error: EngineError | None, category: str | None, descriptions: dict[str, str]
                ) -> list[dict[str, Any]]:
    """The full text of every rule cited: the rule broken and the others an illegal event
    breaks, else the rules the description of the action's category names (the game's
    ``DECISIONS``)."""
    from engine.rules_text import plain, rule_text

    if isinstance(error, IllegalMove):
        ids = [error.rule_id, *error.also]
    elif category is not None:
        ids = rule_ids(descriptions.get(category, ""))
    else:
        ids = []
    out = []
    for rid in dict.fromkeys(ids):
        text = rule_text(rid)
        out.append({"id": rid, "text": plain(text) if text is not None else
                    f"(no rule {rid} in the rules shipped with liujia)"})
    return out


def error_json(error: EngineError | None) -> dict[str, Any] | None:
    """An illegal or invalid event's verdict as a dict (rule, reason, also, legal)."""
    if error is None:
        return None
    if isinstance(error, IllegalMove):
        return {"type": "illegal", "rule_id": error.rule_id, "seq": error.seq,
                "seat": error.seat, "cause": error.cause, "reason": error.reason,
                "also": list(error.also), "legal": error.legal, "message": str(error)}
    return {"type": "invalid", "rule_id": None, "seq": getattr(error, "seq", -1),
            "field": getattr(error, "field", "") or None, "reason": str(error),
            "also": [], "legal": "", "message": str(error)}


def focus_entry(game: Any, state: Any, e: Event, players: Sequence[str], *,
                error: EngineError | None, decision: Any, category: str | None,
                descriptions: dict[str, str], hostile: Sequence[str]) -> dict[str, Any]:
    """One disputed moment: the event, its verdict, the views before it, the legal options
    with the chosen one marked, and the rules cited."""
    seat = e.seat if 0 <= e.seat < len(players) else None
    return {
        "seq": e.seq, "ts": e.ts, "time": when(e.ts), "seat": e.seat,
        "player": players[seat] if seat is not None else None, "kind": e.kind,
        "action": action_text(e), "to_move": game.to_move(state),
        "owed": game.next_auto(state),
        "verdict": "illegal" if error is not None else "ok", "error": error_json(error),
        "decision": None if decision is None else {
            "options": sorted(decision.options), "chosen": decision.chosen},
        "category": category,
        "views": views(game, state, players, hostile),
        "legal": legal_options(game, state, e),
        "rules": cited_rules(error, category, descriptions),
    }
