"""Out-of-turn and timed actions, and timestamps that cannot be right.

An action is listed when a seat acted that was not the seat the game waited for
(``to_move`` of the state before it: a 抢 snatch, a 报牌 report, a count), or when its kind
or its decision is one a seat takes within a window (``TIMED_KINDS``, ``TIMED_CHOICES``: bids,
doubles, 烧 burns, 宣点, claim-window responses). For each: who could have acted then (the
seats with a legal action in the state before it), the event it answers (the one just
before it, which opened the moment) with both timestamps and the delay between them. A
standing option let go (a 抢 nobody took: ``lapsed`` of the game's decisions module) is
listed with the seats that held it.

Timestamps are impossible when an event is stamped before the event it answers (the one
before it) or before any earlier event of the game (out of order).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.events import Event

TIMED_KINDS = frozenset({"SNATCH", "LAST_CARD", "COUNT", "REPORT", "BID", "DOUBLE",
                         "SHOW_HAND", "SIDE_CHOICE", "RESPOND", "XUANDIAN", "HEDIAN"})
TIMED_CHOICES = frozenset({"burn", "false_burn", "snatch", "report", "xuandian"})


def when(us: int) -> str:
    """A µs timestamp as ISO 8601 UTC with milliseconds (or 'N µs' when out of range)."""
    try:
        return (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=us)).isoformat(
            timespec="milliseconds").replace("+00:00", "Z")
    except OverflowError:
        return f"{us} µs"


def span(us: int) -> str:
    """A duration in µs for people: '1.500 s', '3.0 min', '1.0 h' (negative: '-1.500 s')."""
    sign, us = ("-", -us) if us < 0 else ("", us)
    s = us / 1e6
    text = f"{s:.3f} s" if s < 120 else f"{s / 60:.1f} min" if s < 7200 else f"{s / 3600:.1f} h"
    return sign + text


def backwards(events: Sequence[Event]) -> list[dict[str, Any]]:
    """Every event stamped before the event before it, or before an earlier one (out of
    order), over the whole game (also after a first illegal event)."""
    out: list[dict[str, Any]] = []
    latest = events[0] if events else None
    for prev, e in zip(events, events[1:], strict=False):
        assert latest is not None
        if e.ts < prev.ts:
            why = f"before the event it answers (seq {prev.seq}, {when(prev.ts)})"
            behind = prev.ts - e.ts
        elif e.ts < latest.ts:
            why = f"out of order: before seq {latest.seq} ({when(latest.ts)})"
            behind = latest.ts - e.ts
        else:
            latest = e
            continue
        out.append({"seq": e.seq, "ts": e.ts, "time": when(e.ts), "behind_us": behind,
                    "text": f"seq {e.seq} is stamped {when(e.ts)}, {span(behind)} {why}"})
        if e.ts > latest.ts:
            latest = e
    return out


def is_timed(e: Event, chosen: str | None) -> bool:
    """True for an action taken within a window (a bid, a burn, a response, a snatch)."""
    return e.kind in TIMED_KINDS or (chosen is not None and chosen in TIMED_CHOICES)


def timed_entry(game: Any, state: Any, e: Event, prev: Event, to_move: int,
                chosen: str | None) -> dict[str, Any]:
    """One out-of-turn or timed action: who could act in the state before it and when;
    ``prev`` the event it answers (the one before it, or the one that opened its window)."""
    together = game.window_seats
    seats = together(state) if together is not None else ()
    if seats:                  # a window its seats answer together (LH-34), logged in order
        could = same = sorted(seats)
    else:
        acts = game.legal_actions(state)
        could = sorted({a.seat for a in acts if a.seat >= 0})
        same = sorted({a.seat for a in acts if a.seat >= 0 and a.kind == e.kind})
    delay = e.ts - prev.ts
    flags = []
    if e.seat != to_move:
        flags.append("out of turn" if to_move >= 0 else "while an automatic event was owed")
    if delay < 0:
        flags.append(f"impossible: stamped {span(-delay)} before the event it answers")
    return {"seq": e.seq, "ts": e.ts, "time": when(e.ts), "seat": e.seat, "kind": e.kind,
            "chosen": chosen, "to_move": to_move, "could_act": could,
            "could_same": same,
            "answers": {"seq": prev.seq, "ts": prev.ts, "time": when(prev.ts),
                        "kind": prev.kind, "seat": prev.seat},
            "delay_us": delay, "delay": span(delay), "flags": flags,
            "impossible": delay < 0}


def lapsed_entry(e: Event, rows: Sequence[Any]) -> dict[str, Any]:
    """The standing options (a 抢 nobody took, a report not made) an event let go."""
    return {"seq": e.seq, "ts": e.ts, "time": when(e.ts), "kind": e.kind,
            "seats": sorted({d.seat for d in rows}),
            "options": sorted({o for d in rows for o in d.options} - {d.chosen for d in rows}),
            "chosen": sorted({d.chosen for d in rows})}
