"""A game's event list for people: one row per event, private cards hidden from a seat's view.

Pure functions (no Streamlit). The auditor sees every card; what a seat sees is the game's own
rule, its engine module's ``seen_event`` (e.g. KENG-50: the cards of public actions and of its
own draws, never another seat's dealt or drawn cards, the deck order or a new stock). What
an event means in words is the game's own ``describe``. A long
card list (a deck, a deal: more than ``FOLD_OVER`` faces) is folded into a closed <details>: a
summary ('deck: 216 cards' and the first faces), the whole list on a click.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from dashboards.table import card_html, cards_html, describer, hidden_html
from engine.cards import format_face, parse_face, pretty_face
from engine.events import Event
from engine.games import find_game, seen_numbers
from engine.replay import game_type

AUDITOR = "auditor"
FOLD_OVER = 12       # a card list longer than this is folded: a summary, the whole list on demand
FOLD_PREVIEW = 6     # faces shown in a folded list's summary
# What a folded card list is called, by event kind ("cards" for the others).
FOLD_NAMES = {"GAME_START": "deck", "DEAL": "dealt", "RESHUFFLE": "new stock"}


def _seat(perspective: int | str) -> int | None:
    return None if perspective == AUDITOR else int(perspective)


def can_see_cards(e: Event, perspective: int | str, game: str) -> bool:
    """True if this perspective (AUDITOR or a seat) may see the event's cards (the game's
    ``cards_visible`` rule)."""
    return find_game(game).cards_visible(e, _seat(perspective))


def event_detail(e: Event, game: str) -> str:
    """What an event of this game means beyond its cards, in a few words (no hidden
    information)."""
    return describer(game)(e)


def _row(e: Event, seat: int | None, players: Sequence[str],
         seen_event: Callable[[Event, int | None], Event],
         detail: Callable[[Event], str]) -> dict[str, Any]:
    seen = seen_event(e, seat)
    return {
        "seq": e.seq,
        "seat": e.seat if e.seat >= 0 else None,
        "player": players[e.seat] if 0 <= e.seat < len(players) else "",
        "kind": e.kind,
        "cards": [format_face(c) for c in seen.cards],
        "hidden": len(e.cards) - len(seen.cards),
        # the details never show faces (the cards column does); they see the private fields
        # the seat saw (a private flag of another seat cleared) and the card count
        "detail": detail(seen._replace(cards=e.cards)),
    }


def event_row(e: Event, perspective: int | str, players: Sequence[str] = (), *,
              game: str) -> dict[str, Any]:
    """One event of a game as a display row: seq, seat, player, kind, cards (faces or hidden),
    detail."""
    return _row(e, _seat(perspective), players, find_game(game).seen_event,
                describer(game))


def event_rows(events: Sequence[Event], perspective: int | str = AUDITOR,
               players: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Display rows of a game's events (GAME_START first) as this perspective may see them:
    a seat's rows leave out the events it does not see happen (the game's optional
    ``event_hidden`` hook, e.g. other seats' RESPOND under LH-70). Every row is numbered by
    the log's seq ("seq", also "at"), the one number of a moment on the page and in a link;
    a seat's row of a game that hides events also says which of the events the seat saw it
    was ("seen": 1 for the first, ``seen_numbers`` + 1)."""
    if not events:
        return []
    game = game_type(events[0])
    g = find_game(game)
    seen_event = g.seen_event
    detail = describer(game)
    seat = _seat(perspective)
    if seat is None or not g.hides_events:
        return [{**_row(e, seat, players, seen_event, detail), "at": e.seq} for e in events]
    numbers = seen_numbers(g, events, seat)
    return [{**_row(e, seat, players, seen_event, detail), "at": e.seq, "seen": n + 1}
            for e, n in zip(events, numbers, strict=True) if n >= 0]


def ordinal(n: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th', 23 -> '23rd'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def seen_text(row: dict[str, Any], perspective: int | str) -> str:
    """For a seat's row of a game that hides events: 'the 141st event seat 2 saw' (else '')."""
    if row.get("seen") is None or perspective == AUDITOR:
        return ""
    return f"the {ordinal(int(row['seen']))} event seat {int(perspective)} saw"


def row_index(rows: Sequence[dict[str, Any]], seq: int) -> int:
    """The index of the last row at or before the log's ``seq`` (rows in seq order; 0 if
    none): the row of the event a perspective last saw at that step."""
    return max(0, bisect_right([r.get("at", r["seq"]) for r in rows], seq) - 1)


def events_text_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with cards as one plain-text string with suit symbols (for a data frame)."""
    return [{**r, "cards": f"{r['hidden']} hidden" if r["hidden"]
             else " ".join(pretty_face(parse_face(f)) for f in r["cards"])} for r in rows]


def fold_name(kind: str) -> str:
    """What a long card list of this event kind is called in its summary: 'deck', 'dealt'."""
    return FOLD_NAMES.get(str(kind), "cards")


def event_cards_html(row: dict[str, Any], *, fold_over: int = FOLD_OVER,
                     preview: int = FOLD_PREVIEW) -> str:
    """An event row's cards, escaped: the card back with the count when hidden, the faces, or
    for more than ``fold_over`` faces a closed <details> whose summary says 'deck: 216 cards'
    with the first ``preview`` faces and whose body holds the whole list."""
    if row["hidden"]:
        return hidden_html(row["hidden"])
    faces = [str(f) for f in row["cards"]]
    if len(faces) <= fold_over:
        return cards_html(faces, empty="")
    shown = "".join(card_html(f, data=False) for f in faces[:preview])
    return (f'<details class="lj-fold" data-cards="{len(faces)}"><summary>'
            f"<b>{escape(fold_name(row['kind']))}: {len(faces)} cards</b>"
            f'<span class="lj-fold-preview"> {shown} …</span> '
            f'<span class="lj-fold-hint">(show all)</span></summary>'
            f'<div class="lj-fold-all">{cards_html(faces)}</div></details>')


FOLD_CSS = """
.lj-fold,.lj-fold>summary{display:inline}
.lj-fold>summary{cursor:pointer;list-style:none}
.lj-fold>summary::-webkit-details-marker{display:none}
.lj-fold>summary::before{content:"▸ ";color:#57606a}
.lj-fold[open]>summary::before{content:"▾ "}
.lj-fold[open]>summary .lj-fold-preview,.lj-fold[open]>summary .lj-fold-hint{display:none}
.lj-fold-hint{color:#57606a;font-size:.8rem}
.lj-fold-all{display:block;max-width:60rem;margin:.15rem 0}
""".strip()


def event_line_html(row: dict[str, Any], last: int | None, *, style: bool = True,
                    seen: str = "") -> str:
    """The current event as one escaped line: 'seq 12 / 88 · seat 3 (p) PLAY T♥' (a long card
    list folded, ``event_cards_html``); without ``last`` (a seat, which does not know how many
    events follow) 'seq 12 · …'; ``seen`` (``seen_text``) follows the seq in brackets: 'seq 150
    (the 141st event seat 2 saw) · …'."""
    css = f"<style>{FOLD_CSS}</style>" if style else ""
    who = (f"seat {int(row['seat'])} ({escape(str(row['player']))}) "
           if row["seat"] is not None else "")
    at = f"seq {int(row['seq'])}" + (f" / {int(last)}" if last is not None else "")
    more = f' <span class="lj-seen">({escape(seen)})</span>' if seen else ""
    return (f'{css}<div class="lj-now-line" style="font-size:1.05rem" '
            f'data-seq="{int(row["seq"])}"><b>{at}</b>{more} · {who}'
            f'<b>{escape(str(row["kind"]))}</b> '
            f"{event_cards_html(row)} {escape(str(row['detail']))}</div>")


EVENTS_CSS = """
.lj-events{width:100%;border-collapse:collapse;font-family:system-ui,sans-serif;font-size:.85rem}
.lj-events td,.lj-events th{padding:.15rem .4rem;border-bottom:1px solid #e5e7eb;text-align:left}
.lj-events tr.lj-now{background:#fff3c4;font-weight:600}
.lj-events tr.lj-now td:first-child{border-left:4px solid #d97706}
.lj-events .lj-more{color:#57606a;font-style:italic}
""".strip() + "\n" + FOLD_CSS


def events_html(rows: Sequence[dict[str, Any]], current: int, before: int = 8,
                after: int = 12, *, style: bool = True, future: bool = True) -> str:
    """A window of the event list around the current seq, that row highlighted, escaped;
    without ``future`` (a seat's perspective) nothing after the current seq, not even how
    many events follow."""
    at = row_index(rows, current)            # a seat's rows may skip seqs (event_hidden)
    lo = max(0, at - before)
    hi = min(len(rows), at + (after if future else 0) + 1)
    out = [f"<style>{EVENTS_CSS}</style>" if style else "",
           '<table class="lj-events"><thead><tr><th>seq</th><th>seat</th><th>player</th>'
           "<th>event</th><th>cards</th><th>detail</th></tr></thead><tbody>"]
    if lo > 0:
        out.append(f'<tr><td colspan="6" class="lj-more">… {lo} earlier events</td></tr>')
    for i, r in enumerate(rows[lo:hi], start=lo):
        now = i == at and r.get("at", r["seq"]) <= current
        cards = event_cards_html(r)
        seat = "" if r["seat"] is None else str(int(r["seat"]))
        cls = ' class="lj-now"' if now else ""
        out.append(
            f'<tr{cls} data-seq="{int(r["seq"])}">'
            f"<td>{'▶ ' if now else ''}{int(r['seq'])}</td><td>{seat}</td>"
            f"<td>{escape(str(r['player']))}</td><td>{escape(str(r['kind']))}</td>"
            f"<td>{cards}</td><td>{escape(str(r['detail']))}</td></tr>")
    if hi < len(rows) and future:
        out.append(f'<tr><td colspan="6" class="lj-more">… {len(rows) - hi} later events</td>'
                   "</tr>")
    out.append("</tbody></table>")
    return "".join(out)
