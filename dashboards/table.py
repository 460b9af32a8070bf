"""The card table as HTML: one renderer that draws every game from its table model.

``table_html(game, view, players)`` asks the game for its table (``Game.table``, the neutral
``engine.table.TableModel``; a game id not registered gets ``engine.table.generic_table``) and
draws it: the seats around the centre, the viewer at the bottom and the others counter-clockwise
in turn order (``SEAT_AREAS``, 2 to 6 seats; more flow under the centre), each seat's badges,
hand (faces, or a card back with the count), groups, notes, flags and outcome; the centre's
lines and grids. Nothing here knows a game. Pure functions (no Streamlit), so the rendering is
unit-tested on its own. Every string of the model is escaped (player ids, faces and reasons
come from logs strangers wrote); red is hearts, diamonds and ``RJ``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape as _html_escape
from typing import Any

from engine import games as _games
from engine.cards import SUIT_SYMBOLS, is_red, parse_face, pretty_face
from engine.errors import InvalidEvent
from engine.events import Event
from engine.table import (
    Badge,
    Data,
    Faces,
    Grid,
    Group,
    Hidden,
    Line,
    Part,
    SeatModel,
    SeatOutcome,
    Suit,
    TableModel,
    Text,
    generic_table,
    outcome_text,
)


def escape(text: str) -> str:
    """Text for HTML (``html.escape`` with quotes), returned as it is when it holds nothing
    to escape: most strings of a table are short words (this is the renderer's hot path)."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return _html_escape(text)
    return text


JOKER_NAMES = {"BJ": "小王 black joker", "RJ": "大王 red joker"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "c": "clubs", "d": "diamonds"}
# Where the seats sit, per seat count, from the bottom of the picture counter-clockwise: the
# k-th entry is the place of the k-th seat in turn order after the seat drawn at the bottom.
SEAT_AREAS = {
    2: ("bottom", "top"),
    3: ("bottom", "upper-right", "upper-left"),
    4: ("bottom", "right", "top", "left"),
    5: ("bottom", "lower-right", "upper-right", "upper-left", "lower-left"),
    6: ("bottom", "lower-right", "upper-right", "top", "upper-left", "lower-left"),
}
MANY_CARDS = 20    # a hand of more cards is drawn with smaller faces (the largest hands hold 33)
RESULT_CLASSES = {"win": "lj-won", "loss": "lj-lost", "draw": "lj-drew"}
LINE_CLASSES = {"top": "lj-top", "turn": "lj-info lj-turn", "pending": "lj-pending",
                "info": "lj-info", "box": "lj-box"}

TABLE_CSS = """
.lj-table{display:grid;gap:.45rem;grid-template-columns:1.15fr 1.3fr 1.15fr;
 font-family:system-ui,sans-serif;font-size:.92rem;color:#1f2328}
.lj-table.lj-n2{grid-template-areas:". top ." ". centre ." ". bottom ."}
.lj-table.lj-n3{grid-template-areas:"upper-left centre upper-right" ". bottom ."}
.lj-table.lj-n4{grid-template-areas:". top ." "left centre right" ". bottom ."}
.lj-table.lj-n5{grid-template-areas:"upper-left centre upper-right"
 "lower-left centre lower-right" ". bottom ."}
.lj-table.lj-n6{grid-template-areas:"upper-left top upper-right"
 "lower-left centre lower-right" "bottom bottom bottom"}
.lj-table.lj-flow{grid-template-columns:repeat(auto-fill,minmax(15rem,1fr))}
.lj-table.lj-flow .lj-centre{grid-area:auto;grid-column:1/-1;border-radius:1rem}
.lj-seat{border:1px solid #c9ccd1;border-radius:.6rem;padding:.4rem .55rem;background:#f7f8fa}
.lj-seat.lj-act{border:2px solid #d97706;background:#fff7e6}
.lj-seat.lj-me{box-shadow:0 0 0 2px #2563eb inset}
.lj-seat.lj-won{background:#ecfdf3}
.lj-seat.lj-lost{background:#fdf2f2}
.lj-seat.lj-drew{background:#f1f5f9}
.lj-seat-head{display:flex;justify-content:space-between;gap:.4rem;flex-wrap:wrap}
.lj-name{font-weight:600}
.lj-team{font-size:.75rem;color:#57606a}
.lj-side{display:inline-block;padding:0 .35em;border-radius:.3em;background:#e5e7eb;
 color:#1f2328;font-weight:600}
.lj-outcome{font-weight:700}
.lj-outcome.lj-won{color:#166534}
.lj-outcome.lj-lost{color:#b42318}
.lj-outcome.lj-drew{color:#475569}
.lj-flags{font-size:.75rem;color:#9a3412;margin-top:.15rem}
.lj-hud{font-size:.7rem;line-height:1.2;color:#1f6feb;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;cursor:help}
.lj-centre{grid-area:centre;border:2px solid #166534;border-radius:2.2rem;
 background:#e9f5ec;padding:.6rem 1.5rem;text-align:center;display:flex;
 flex-direction:column;justify-content:safe center;gap:.2rem;
 max-height:max(12rem,calc(100vh - 37rem));overflow-y:auto;scrollbar-width:thin}
.lj-centre>*{flex-shrink:0}
@media print{.lj-centre{max-height:none;overflow:visible}}
.lj-top{font-size:1.35rem}
.lj-info{font-size:.82rem;line-height:1.3;color:#24292f}
.lj-centre .lj-info{font-size:.78rem;line-height:1.25}
.lj-pending{font-weight:600;color:#b42318}
.lj-card{display:inline-block;min-width:1.9em;padding:.05em .25em;margin:.08em;
 border:1px solid #8c959f;border-radius:.25em;background:#fff;text-align:center;
 font-weight:600;font-family:ui-monospace,monospace;color:#111}
.lj-card.lj-red{color:#c8102e}
.lj-card.lj-joker{font-style:italic}
.lj-many .lj-card{font-size:.88em;min-width:1.75em;padding:.03em .2em;margin:.06em}
.lj-back{display:inline-block;padding:.05em .4em;border:1px solid #8c959f;
 border-radius:.25em;background:repeating-linear-gradient(45deg,#dbe4f3,#dbe4f3 4px,#c2d0ea 4px,
 #c2d0ea 8px);color:#1f2f55;font-weight:600}
.lj-suit-red{color:#c8102e}
.lj-perspective{font-size:.8rem;color:#57606a;text-align:right;margin-top:.2rem}
.lj-badge{display:inline-block;padding:0 .35em;border-radius:.3em;background:#e5e7eb;
 color:#1f2328;font-weight:600}
.lj-badge.lj-tone-blue{background:#dbeafe;color:#1e3a8a}
.lj-badge.lj-tone-red{background:#fee2e2;color:#7f1d1d}
.lj-badge.lj-tone-amber{background:#fde68a;color:#78350f}
.lj-badge.lj-tone-green{background:#d1fae5;color:#064e3b}
.lj-badge.lj-tone-violet{background:#ede9fe;color:#4c1d95}
.lj-badge.lj-tone-grey{background:#f1f5f9;color:#57606a;font-weight:400}
.lj-seat.lj-tone-blue{border-left:6px solid #2563eb}
.lj-seat.lj-tone-red{border-left:6px solid #dc2626}
.lj-seat.lj-tone-amber{border-left:6px solid #d97706}
.lj-seat.lj-tone-green{border-left:6px solid #16a34a}
.lj-seat.lj-tone-violet{border-left:6px solid #7c3aed}
.lj-seat.lj-tone-grey{border-left:6px solid #94a3b8}
.lj-seat.lj-done{background:#eef0f3}
.lj-group{font-size:.85rem;margin-top:.12rem;line-height:1.25}
.lj-seat .lj-group{display:inline-block;vertical-align:top;margin-right:.8rem}
.lj-seat .lj-group .lj-info{font-size:.74rem}
.lj-seat .lj-group .lj-card{font-size:.86em;min-width:1.7em;padding:0 .15em;margin:.04em}
.lj-group-label{color:#57606a;margin-right:.25em}
.lj-group.lj-tone-blue .lj-group-label{color:#1e3a8a}
.lj-group.lj-tone-red .lj-group-label{color:#b42318}
.lj-group.lj-tone-amber .lj-group-label{color:#92400e}
.lj-group.lj-tone-green .lj-group-label{color:#166534}
.lj-seatnote{font-size:.82rem;margin-top:.12rem}
.lj-box{border:1px solid #b42318;border-radius:.4rem;padding:.15rem .4rem;font-size:.8rem;
 background:#fff}
.lj-grid{font-size:.76rem;line-height:1.15;border-collapse:collapse;margin:.15rem auto}
.lj-grid caption{font-weight:600;font-size:.76rem}
.lj-grid th,.lj-grid td{border:1px solid #c9ccd1;padding:0 .3em}
.lj-strong{font-weight:700;font-size:1.1em}
.lj-small{font-size:.78em;color:#57606a}
""".strip()


@functools.lru_cache(maxsize=512)
def card_html(face: str, *, data: bool = True) -> str:
    """One card face as a span: 'Th' -> T♥ in red; jokers show BJ/RJ with their Chinese name.
    ``data`` False leaves out the ``data-face`` attribute (a preview of a list shown in full
    elsewhere, so that each card of it is counted once)."""
    try:
        code = parse_face(face)
    except InvalidEvent:
        return f'<span class="lj-card" title="unknown face">{escape(str(face))}</span>'
    classes = "lj-card"
    if is_red(code):
        classes += " lj-red"
    if code >= 52:
        classes += " lj-joker"
    title = JOKER_NAMES.get(face, face)
    attr = f' data-face="{escape(face)}"' if data else ""
    return (f'<span class="{classes}"{attr} title="{escape(title)}">'
            f"{escape(pretty_face(code))}</span>")


def cards_html(faces: Iterable[str], empty: str = "–") -> str:
    """Several faces as card spans, or ``empty`` when there are none."""
    out = "".join(card_html(f) for f in faces)
    return out or f'<span class="lj-info">{escape(empty)}</span>'


def suit_html(suit: str | None) -> str:
    """A suit letter as its symbol, red for hearts and diamonds."""
    if suit not in SUIT_SYMBOLS:
        return ""
    cls = "lj-suit-red" if suit in ("h", "d") else "lj-suit"
    return f'<span class="{cls}" title="{SUIT_NAMES[suit]}">{SUIT_SYMBOLS[suit]}</span>'


def hidden_html(n: int | None) -> str:
    """A hidden hand: the card back and how many cards it holds (no count when None)."""
    if n is None:
        return '<span class="lj-back" title="hidden hand">🂠 hidden</span>'
    return f'<span class="lj-back" title="{int(n)} hidden cards">🂠 × {int(n)}</span>'


def perspective_label(view: dict[str, Any]) -> str:
    """Who is looking: 'auditor (all cards)' or 'seat 3 (own cards only)'."""
    p = view.get("perspective", "auditor")
    return "auditor (all cards)" if p == "auditor" else f"seat {p} (own cards only)"


# ---------------------------------------------------------------- drawing the model

def _data_attrs(data: Data) -> str:
    out = []
    for name, value in data:
        key = "".join(c for c in str(name).lower() if c.isalnum() or c == "-")
        if key:
            out.append(f' data-{key}="{escape(str(value))}"')
    return "".join(out)


def _tone(prefix: str, tone: str) -> str:
    return f" {prefix}lj-tone-{tone}" if tone else ""


def badge_html(b: Badge) -> str:
    """A badge as a coloured span (``data-side`` when it names a side)."""
    side = f' data-side="{escape(b.side)}"' if b.side is not None else ""
    return f'<span class="lj-badge{_tone("", b.tone)}"{side}>{escape(b.text)}</span>'


def part_html(p: Part) -> str:
    """One part of a line: words escaped, faces as cards, a badge as its span, a suit as its
    symbol, hidden cards as a card back with the count, weighted words in their style."""
    if isinstance(p, str):
        return escape(p)
    if isinstance(p, Faces):
        if not p.counted:
            return "".join(card_html(f, data=False) for f in p.faces)
        return cards_html(p.faces)
    if isinstance(p, Badge):
        return badge_html(p)
    if isinstance(p, Suit):
        return suit_html(p.letter) or "?"
    if isinstance(p, Hidden):
        return hidden_html(p.count)
    if isinstance(p, Text):
        return f'<span class="lj-{p.style}">{escape(p.text)}</span>'
    return escape(p)


def line_html(ln: Line) -> str:
    """A line as a div of its kind (the turn line in bold)."""
    body = "".join(part_html(p) for p in ln.parts)
    if ln.kind == "turn":
        body = f"<b>{body}</b>"
    title = f' title="{escape(ln.title)}"' if ln.title else ""
    return f'<div class="{LINE_CLASSES[ln.kind]}"{title}{_data_attrs(ln.data)}>{body}</div>'


def grid_html(g: Grid) -> str:
    """A grid as a small HTML table with its caption and header."""
    head = "".join(f"<th>{escape(h)}</th>" for h in g.header)
    data = list(g.row_data) + [()] * (len(g.rows) - len(g.row_data))
    rows = "".join(f"<tr{_data_attrs(d)}>" + "".join(
        f"<td>{''.join(part_html(p) for p in cell)}</td>" for cell in row) + "</tr>"
        for row, d in zip(g.rows, data, strict=False))
    caption = f"<caption>{escape(g.caption)}</caption>" if g.caption else ""
    return f'<table class="lj-grid">{caption}<tr>{head}</tr>{rows}</table>'


def group_html(g: Group) -> str:
    """A seat's labelled card group (a meld, the last play, a share of the kitty)."""
    note = f' <span class="lj-info">{escape(g.note)}</span>' if g.note else ""
    cards = "".join(card_html(f, data=g.counted) for f in g.faces)
    if g.face_down:
        cards += (f'<span class="lj-back" title="{int(g.face_down)} cards face down">'
                  f"🂠 × {int(g.face_down)}</span>")
    return (f'<div class="lj-group{_tone("", g.tone)}"{_data_attrs(g.data)}>'
            f'<span class="lj-group-label">{escape(g.label)}</span>{cards}{note}</div>')


def outcome_html(outcome: SeatOutcome | None) -> str:
    """A seat's outcome as a marker span (won / lost / drew, place, score), '' before the end."""
    text = outcome_text(outcome)
    if outcome is None or not text:
        return ""
    result = outcome.result
    return (f'<span class="lj-outcome {RESULT_CLASSES[result]}" data-result="{result}">'
            f"{escape(text)}</span>")


def _hand_html(hand: tuple[str, ...] | int | None) -> tuple[str, str, int]:
    """(count words, body, number of faces drawn) of a hand."""
    if hand is None:
        return "", hidden_html(None), 0
    if isinstance(hand, int):
        return f"{hand} card{'s' * (hand != 1)}", hidden_html(hand), 0
    n = len(hand)
    return f"{n} card{'s' * (n != 1)}", cards_html(hand, empty="no cards"), n


def seat_html(s: SeatModel, area: str = "", hud: tuple[str, str] | None = None) -> str:
    """One seat's panel: number, player, badges, hand count, turn and outcome markers, the
    player's HUD line (``hud``: line and tooltip, the replay page's stats as of the game);
    the hand, its groups and notes, and the flags."""
    classes = ["lj-seat"] + [f"lj-tone-{s.tone}"] * bool(s.tone) + ["lj-act"] * s.to_act
    classes += ["lj-me"] * s.me + ["lj-done"] * s.done
    if s.outcome is not None and s.outcome.result in RESULT_CLASSES:
        classes.append(RESULT_CLASSES[s.outcome.result])
    count, body, n = _hand_html(s.hand)
    head = [badge_html(b) for b in s.badges] + [escape(count)] * bool(count)
    head += ["to act"] * s.to_act + [outcome_html(s.outcome)] * (s.outcome is not None)
    many = " lj-many" if n > MANY_CARDS else ""
    more = "".join(map(group_html, s.groups))
    more += "".join(line_html(ln).replace('class="', 'class="lj-seatnote ', 1) for ln in s.notes)
    flags = f'<div class="lj-flags">{escape(" · ".join(s.flags))}</div>' if s.flags else ""
    style = f' style="grid-area:{area}"' if area else ""
    line = "" if hud is None else (f'<div class="lj-hud" title="{escape(hud[1])}">'
                                   f"{escape(hud[0])}</div>")
    return (f'<div data-seat="{s.seat}" class="{" ".join(classes)}"{style}'
            f'{_data_attrs(s.data)}><div class="lj-seat-head"><span class="lj-name">'
            f'{"▶ " if s.to_act else ""}seat {s.seat} · {escape(s.name)}</span>'
            f'<span class="lj-team">{" · ".join(h for h in head if h)}</span></div>{line}'
            f'<div class="lj-hand{many}">{body}</div>{more}{flags}</div>')


def seat_areas(n: int) -> tuple[str, ...]:
    """The places of n seats around the centre, counter-clockwise from the bottom (no named
    places beyond six seats: the seats then flow under the centre)."""
    return SEAT_AREAS.get(n, ("",) * n)


def seat_area(m: TableModel, seat: int) -> str:
    """Where a seat sits: the viewer (seat 0 for the auditor) at the bottom, then the turn
    order counter-clockwise (``turn_step`` +1: seat i+1 follows seat i; −1: seat i−1 does)."""
    n = len(m.seats)
    if not n:
        return ""
    bottom = m.perspective if m.perspective is not None else 0
    return seat_areas(n)[((seat - bottom) * (1 if m.turn_step >= 0 else -1)) % n]


def model_centre_html(m: TableModel) -> str:
    """The middle of the table: the model's centre lines and grids."""
    body = "".join(grid_html(c) if isinstance(c, Grid) else line_html(c) for c in m.centre)
    return f'<div class="lj-centre">{body}</div>'


def model_html(m: TableModel, *, style: bool = True, step: int | None = None,
               seen: str = "", hud: Mapping[int, tuple[str, str]] | None = None) -> str:
    """The whole table of a model as one HTML fragment: the seat panels around the centre,
    then the perspective line under them (so that the seats start right at the top). The
    line says 'after seq N': ``step`` when given (the log's seq: the replay page's number of
    the moment, also for a seat whose view counts only the events it saw), else the model's;
    ``seen`` follows it ('the 141st event seat 2 saw')."""
    css = f"<style>{TABLE_CSS}</style>" if style else ""
    n = len(m.seats)
    shape = f"lj-n{n}" if n in SEAT_AREAS else "lj-flow"
    hud = hud or {}
    seats = "".join(seat_html(s, seat_area(m, s.seat), hud.get(s.seat)) for s in m.seats)
    who = "auditor (all cards)" if m.perspective is None else \
        f"seat {m.perspective} (own cards only)"
    after = m.seq - 1 if step is None else int(step)
    more = f" ({escape(seen)})" if seen else ""
    foot = (f'<div class="lj-perspective" data-after="{after}">view: {escape(who)} · '
            f"{escape(m.game_id)} · after seq {after}{more}</div>")
    return (f'{css}<div class="lj-table {shape}" data-seats="{n}">{seats}'
            f"{model_centre_html(m)}</div>{foot}")


def table_model(game: str, view: dict[str, Any],
                players: Sequence[str] | None = None) -> TableModel:
    """The table model of a game's view: the registered game's own ``table``, else the
    generic table of the view's keys."""
    if game in _games.GAMES:
        return _games.find_game(game).table(view, players)
    return generic_table(view, players)


def table_html(game: str, view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True, step: int | None = None, seen: str = "",
               hud: Mapping[int, tuple[str, str]] | None = None) -> str:
    """The whole table of a game as one HTML fragment: the seats around the centre, escaped
    (``step``, ``seen``: the perspective line's number; ``hud``: each seat's HUD line;
    ``model_html``)."""
    return model_html(table_model(game, view, players), style=style, step=step, seen=seen,
                      hud=hud)


def centre_html(game: str, view: dict[str, Any]) -> str:
    """The middle of a game's table (top play, pending effects, turn, result), escaped."""
    return model_centre_html(table_model(game, view))


def describer(game: str) -> Callable[[Event], str]:
    """How a registered game says what an event means beyond its cards (``Game.describe``)."""
    return _games.find_game(game).describe
