"""六人坑's table as the neutral model (``engine.table``): seats with duel, ban, report and
count flags; in the centre the top play, pending draws and duels, whose turn, the direction,
the stock, the cycle and the 抢 window. Also what an event means in words (``describe``).

Only reads the view (``engine.games.keng.position.view``); nothing here draws."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import SUIT_SYMBOLS, SUITS
from engine.events import NONE, Event
from engine.table import (
    Line,
    TableModel,
    Tone,
    as_dict,
    as_int,
    base_seat,
    event_payload,
    faces_of,
    generic_detail,
    line,
    model,
    result_summary,
    seat_names,
    seat_or_none,
    to_act_seat,
)

TITLE = "六人坑"
DIRECTION_WORDS = {1: ("↺", "counter-clockwise"), -1: ("↻", "clockwise, reversed by J")}
SIDE_TONES: dict[str, Tone] = {"even": "blue", "odd": "red"}
END_FLAGS = {"out": "went out", "over_limit": "over the hand limit"}


def direction_text(view: dict[str, Any]) -> tuple[str, str]:
    """The direction of play as (arrow, '0→1→2→3→4→5 (counter-clockwise)'), from the view's
    direction and turn order."""
    arrow, words = DIRECTION_WORDS.get(view.get("direction"), ("?", "unknown"))  # type: ignore[arg-type]
    order = [str(i) for i in view.get("turn_order") or []]
    return arrow, f"{'→'.join(order)} ({words})" if order else words


def _flag(view: dict[str, Any], key: str, seat: int) -> bool:
    v = view.get(key)
    return isinstance(v, list) and seat < len(v) and bool(v[seat])


def seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    """A seat's flags: its part in a duel, a 抢 ban, the last-card report it owes, the count
    right used, the top card it played, how it decided the game."""
    flags = []
    duel = as_dict(view.get("duel"))
    if duel.get("challenger") == seat:
        flags.append("duel: challenger")
    if duel.get("defender") == seat:
        flags.append("duel: defender")
    if _flag(view, "banned", seat):
        flags.append("banned from 抢")
    if view.get("last_card_obligation") == seat:
        flags.append("must report last card")
    if _flag(view, "count_used", seat):
        flags.append("count right used")
    top = as_dict(view.get("top"))
    if top.get("seat") == seat and top.get("cards"):
        flags.append("played the top card")
    result = as_dict(view.get("result"))
    if view.get("outcomes") and result.get("deciding_seat") == seat:
        flags.append(END_FLAGS.get(result.get("reason"), "decided the game"))  # type: ignore[arg-type]
    return flags


def _top_lines(view: dict[str, Any]) -> list[Line]:
    top = as_dict(view.get("top"))
    faces = faces_of(top.get("cards"))
    if not faces:
        return [line("no card on the table yet", kind="top")]
    joker_or_pair = len(faces) > 1 or faces[0] in ("BJ", "RJ")
    suit = top.get("suit")
    named = f" suit {SUIT_SYMBOLS[suit]}" if suit in SUIT_SYMBOLS and joker_or_pair else ""
    out = [line(faces, named, kind="top", title="top play")]
    who = []
    seat = as_int(top.get("seat"))
    if seat is not None and seat >= 0:
        who.append(f"by seat {seat}")
    if top.get("start_card"):
        who.append("start card")
    if top.get("duel_card"):
        who.append("duel card")
    if who:
        out.append(line(f"top play {', '.join(who)}"))
    return out


def pending_texts(view: dict[str, Any]) -> list[str]:
    """Pending effects in words: a draw and who faces it, a duel, owed cards, penalties."""
    out = []
    p = as_int(view.get("pending_draw")) or 0
    facing = seat_or_none(view, view.get("pending_draw_seat"))
    if p:
        out.append(f"pending draw: {p} cards" + (f" for seat {facing}" if facing is not None
                                                 else ""))
    duel = as_dict(view.get("duel"))
    if duel:
        out.append(f"duel: seat {duel.get('challenger')} (challenger) vs seat "
                   f"{duel.get('defender')} (defender), seat {duel.get('to_act')} to play")
    due = as_dict(view.get("duel_start_due"))
    if due:
        out.append(f"duel about to start: seat {due.get('challenger')} vs seat "
                   f"{due.get('defender')}")
    owed = as_dict(view.get("owed_draw"))
    if owed:
        out.append(f"seat {owed.get('seat')} still owed {owed.get('cards')} cards "
                   f"({owed.get('kind')})")
    pen = as_dict(view.get("penalty_due"))
    if pen:
        out.append(f"penalty due: {pen.get('kind')} for seat {pen.get('seat')}")
    if view.get("reshuffle_due"):
        out.append("reshuffle due")
    turn = seat_or_none(view, view.get("turn_seat"))
    if view.get("drawn_two") and view.get("phase") == "play" and turn is not None:
        out.append(f"seat {turn} has drawn two this turn")
    return out


def turn_text(view: dict[str, Any]) -> str:
    """Whose turn it is, or the result once over ('game over: out, even won'), or the phase."""
    summary = result_summary(view)
    if summary:
        return f"game over: {as_dict(view.get('result')).get('reason', '?')}, {summary}"
    to_act = to_act_seat(view)
    return f"seat {to_act} to act" if to_act is not None else str(view.get("phase", ""))


def centre(view: dict[str, Any]) -> list[Line]:
    """The middle of the table: top play, pending effects, turn, direction, stock, cycle."""
    stock = view.get("stock")
    n_stock = stock if isinstance(stock, int) else len(stock or [])
    arrow, dir_text = direction_text(view)
    window = "open" if view.get("snatch_window_open") else "closed"
    return [*_top_lines(view), *(line(t, kind="pending") for t in pending_texts(view)),
            line(turn_text(view), kind="turn"),
            line(f"direction {arrow} {dir_text}", title=dir_text),
            line(f"stock {n_stock} · played under top {len(view.get('table') or [])} · "
                 f"cycle {as_int(view.get('cycle')) or 1} · snatch (抢) window {window} · "
                 f"passes in a row {as_int(view.get('passes_in_a_row')) or 0}")]


def table(view: dict[str, Any], players: Sequence[str] | None = None) -> TableModel:
    """The 六人坑 table of a view (``engine.table.TableModel``)."""
    names = seat_names(view, players)
    seats = (base_seat(view, i, names[i], SIDE_TONES, flags=tuple(seat_flags(view, i)))
             for i in range(len(names)))
    return model(TITLE, view, seats, centre(view))


def _suit_name(value: int) -> str:
    return SUIT_SYMBOLS[SUITS[value]] if 0 <= value < 4 else "?"


DRAW_WORDS = {"ACCEPT": "accepts the pending draw", "DUEL_END": "loses the duel",
              "REPORT_PENALTY": "forgot to report the last card",
              "SNATCH_PENALTY": "false 抢 call"}


def describe(e: Event) -> str:
    """What a 六人坑 event means beyond its cards, in a few words (no hidden information)."""
    k = e.kind
    if k == "GAME_START":
        p = event_payload(e)
        return (f"{p.get('game', '?')} game, deck of {len(e.cards)} cards, opener seat "
                f"{p.get('opener', e.value)} ({e.tag or p.get('opener_rule', '?')})")
    if k == "DEAL":
        return f"{len(e.cards)} cards dealt, stock {e.value}"
    if k in ("PLAY", "START_CARD") and e.value != NONE:
        return f"names suit {_suit_name(e.value)}"
    if k in ("DRAW", *DRAW_WORDS):
        n = len(e.cards)
        extra = ", continued after the reshuffle" if e.tag == "continued" else ""
        return f"{DRAW_WORDS.get(k, 'draws')}: {n} card{'s' * (n != 1)}{extra}"
    if k == "SNATCH":
        return f"抢 claim: {e.tag or '?'}"
    if k == "COUNT":
        return f"counts seat {e.target}: {e.value} cards"
    if k == "DUEL_START":
        return f"duel: seat {e.seat} challenges seat {e.target}"
    if k == "RESHUFFLE":
        return f"new stock of {len(e.cards)} cards, cycle {e.value}"
    if k == "LAST_CARD":
        return "reports the last card"
    if k == "BAN_END":
        return "抢 ban ends"
    if k == "GAME_END":
        p = event_payload(e)
        team = p.get("winning_team")
        return f"{e.tag or p.get('reason', '?')}: " + (f"team {team} wins" if team else "draw")
    return generic_detail(e)
