"""TRANSITIONAL (issue 23): the per-game table dispatch of before the table model, kept only while the games move to ``Game.table``; removed when the last one has.

``table_html(game, view, players)`` and ``centre_html(game, view)`` dispatch to the game's
table module in ``dashboards/tables/`` (``table_module``: ``dashboards.tables.<package>`` for a
game of ``engine.games.GAMES`` whose package has one, else the generic table), which builds on
the shared pieces here: card faces, hidden hands, seat panels, the layout for 2 to 6 seats.
The seat count is the length of the view's ``players``; sides, the seat to act and outcomes
are the view's ``sides``, ``to_act`` and ``outcomes`` (docs/dashboard.md), never worked out
here. Pure functions (no Streamlit), so the rendering is unit-tested on its own. Everything
taken from the view (player ids, faces, reasons) is escaped; red is hearts, diamonds and ``RJ``.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
from collections.abc import Callable, Iterable, Sequence
from html import escape
from types import ModuleType
from typing import Any

from engine import games as _games
from engine.cards import SUIT_SYMBOLS, is_red, parse_face, pretty_face
from engine.errors import InvalidEvent
from engine.events import Event

JOKER_NAMES = {"BJ": "小王 black joker", "RJ": "大王 red joker"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "c": "clubs", "d": "diamonds"}
TABLES_PACKAGE = "dashboards.tables"
GENERIC = f"{TABLES_PACKAGE}.generic"
# Where the seats sit, per seat count, from the bottom of the picture counter-clockwise: the
# k-th entry is the place of the k-th seat in turn order after the seat drawn at the bottom.
SEAT_AREAS = {
    2: ("bottom", "top"),
    3: ("bottom", "upper-right", "upper-left"),
    4: ("bottom", "right", "top", "left"),
    5: ("bottom", "lower-right", "upper-right", "upper-left", "lower-left"),
    6: ("bottom", "lower-right", "upper-right", "top", "upper-left", "lower-left"),
}
MANY_CARDS = 20    # a hand of more cards is drawn with smaller faces (a 够级 hand holds 33)
RESULT_WORDS = {"win": "won", "loss": "lost", "draw": "drew"}
RESULT_CLASSES = {"win": "lj-won", "loss": "lj-lost", "draw": "lj-drew"}

TABLE_CSS = """
.lj-table{display:grid;gap:.45rem;grid-template-columns:1fr 1.55fr 1fr;
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
.lj-centre{grid-area:centre;border:2px solid #166534;border-radius:45%/22%;
 background:#e9f5ec;padding:.6rem 1.5rem;text-align:center;display:flex;
 flex-direction:column;justify-content:center;gap:.2rem}
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
""".strip()


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


# ---------------------------------------------------------------- reading the common view keys

def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def seat_count(view: dict[str, Any], players: Sequence[str] | None = None) -> int:
    """How many seats the table has: the length of the view's players (else of the names
    given, else of its hands)."""
    for seq in (view.get("players"), players, view.get("hands")):
        if isinstance(seq, (list, tuple)) and seq:
            return len(seq)
    return 0


def seat_or_none(view: dict[str, Any], v: Any) -> int | None:
    """v if it is a seat of this table (0 … n−1), else None."""
    i = _int(v)
    return i if i is not None and 0 <= i < seat_count(view) else None


def seat_list(view: dict[str, Any], v: Any) -> list[int]:
    """The seats of this table in a list (anything else dropped)."""
    if not isinstance(v, list):
        return []
    return [i for i in v if seat_or_none(view, i) is not None]


def to_act_seat(view: dict[str, Any]) -> int | None:
    """The seat the game waits for (the view's ``to_act``), or None."""
    return seat_or_none(view, view.get("to_act"))


def side_of(view: dict[str, Any], seat: int) -> str | None:
    """The seat's side as the view gives it (None: no side, or not known to this viewer)."""
    sides = view.get("sides")
    if not isinstance(sides, list) or not 0 <= seat < len(sides) or sides[seat] is None:
        return None
    return str(sides[seat])


def outcome_of(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The seat's outcome ({place, score, result}) once the game is over, else None."""
    outcomes = view.get("outcomes")
    if not isinstance(outcomes, list) or not 0 <= seat < len(outcomes):
        return None
    o = outcomes[seat]
    return o if isinstance(o, dict) and o.get("result") in RESULT_WORDS else None


def signed(v: Any) -> str:
    """A score as text: '+3', '0', '−3' ('?' when missing)."""
    i = _int(v)
    return "?" if i is None else f"{i:+d}".replace("+0", "0").replace("-", "−")


def outcome_text(outcome: dict[str, Any] | None) -> str:
    """A seat's outcome in words: 'won · place 1 · score +2' ('' before the end)."""
    if not outcome or outcome.get("result") not in RESULT_WORDS:
        return ""
    bits = [RESULT_WORDS[outcome["result"]]]
    place = _int(outcome.get("place"))
    if place is not None:
        bits.append(f"place {place}")
    if _int(outcome.get("score")) is not None:
        bits.append(f"score {signed(outcome['score'])}")
    return " · ".join(bits)


def outcome_html(outcome: dict[str, Any] | None) -> str:
    """A seat's outcome as a marker span (won / lost / drew, place, score), '' before the end."""
    text = outcome_text(outcome)
    if not text:
        return ""
    result = outcome["result"]  # type: ignore[index]
    return (f'<span class="lj-outcome {RESULT_CLASSES[result]}" data-result="{result}">'
            f"{escape(text)}</span>")


def result_summary(view: dict[str, Any], players: Sequence[str] | None = None) -> str:
    """Who won, from the view's outcomes and sides: 'even won', 'draw', 'seat 2 (p7) won',
    'seats 1, 3 won' ('' before the end)."""
    n = seat_count(view, players)
    outcomes = [outcome_of(view, i) for i in range(n)]
    if not n or any(o is None for o in outcomes):
        return ""
    winners = [i for i, o in enumerate(outcomes) if o["result"] == "win"]  # type: ignore[index]
    if not winners:
        return "draw" if all(o["result"] == "draw" for o in outcomes) else "nobody won"  # type: ignore[index]
    sides = {side_of(view, i) for i in winners}
    if len(sides) == 1 and None not in sides:
        return f"{sides.pop()} won"
    if len(winners) == 1:
        names = list(players) if players is not None else view.get("players") or []
        name = f" ({names[winners[0]]})" if winners[0] < len(names) else ""
        return f"seat {winners[0]}{name} won"
    return f"seats {', '.join(map(str, winners))} won"


# ---------------------------------------------------------------- seats and layout

def seat_areas(n: int) -> tuple[str, ...]:
    """The places of n seats around the centre, counter-clockwise from the bottom (no named
    places beyond six seats: the seats then flow under the centre)."""
    return SEAT_AREAS.get(n, ("",) * n)


def bottom_seat(view: dict[str, Any]) -> int:
    """The seat drawn at the bottom: the viewing seat, or seat 0 for the auditor."""
    persp = seat_or_none(view, view.get("perspective"))
    return 0 if persp is None else persp


def seat_area(view: dict[str, Any], seat: int, step: int = 1) -> str:
    """Where a seat sits: the viewer at the bottom, then the turn order counter-clockwise
    (``step`` +1: seat i+1 follows seat i; −1: seat i−1 does)."""
    n = seat_count(view)
    if not n:
        return ""
    return seat_areas(n)[((seat - bottom_seat(view)) * (1 if step >= 0 else -1)) % n]


def hand_div(body: str, cards: int) -> str:
    """A seat's hand (its HTML ``body`` holding ``cards`` faces) in its block; more than
    ``MANY_CARDS`` faces are drawn smaller, so that a big hand takes fewer lines."""
    many = " lj-many" if cards > MANY_CARDS else ""
    return f'<div class="lj-hand{many}">{body}</div>'


def seat_panel_html(seat: int, player: str, hand: Any, *, side: str | None = None,
                    outcome: dict[str, Any] | None = None, flags: Sequence[str] = (),
                    to_act: bool = False, me: bool = False, area: str = "") -> str:
    """One seat's panel: number, player, side (when given), hand (faces, a hidden count, or a
    card back without count for None), the outcome marker and flags."""
    result = outcome.get("result") if outcome else None
    classes = ["lj-seat"] + ["lj-act"] * to_act + ["lj-me"] * me
    classes += [RESULT_CLASSES[result]] if result in RESULT_CLASSES else []
    if hand is None:
        count, body = "", hidden_html(None)
    elif isinstance(hand, int) and not isinstance(hand, bool):
        count, body = f"{hand} card{'s' * (hand != 1)}", hidden_html(hand)
    else:
        faces = [str(f) for f in hand] if isinstance(hand, (list, tuple)) else []
        n = len(faces)
        count, body = f"{n} card{'s' * (n != 1)}", cards_html(faces, empty="no cards")
    head = []
    if side:
        head.append(f'<span class="lj-side" data-side="{escape(side)}">{escape(side)}</span>')
    if count:
        head.append(count)
    if to_act:
        head.append("to act")
    mark = outcome_html(outcome)
    if mark:
        head.append(mark)
    flag_html = (f'<div class="lj-flags">{escape(" · ".join(flags))}</div>' if flags else "")
    style = f' style="grid-area:{area}"' if area else ""
    return (
        f'<div data-seat="{seat}" class="{" ".join(classes)}"{style}>'
        f'<div class="lj-seat-head"><span class="lj-name">{"▶ " if to_act else ""}seat {seat} · '
        f"{escape(player)}</span>"
        f'<span class="lj-team">{" · ".join(head)}</span></div>'
        f"{hand_div(body, len(hand) if isinstance(hand, (list, tuple)) else 0)}{flag_html}</div>"
    )


def seat_names(view: dict[str, Any], players: Sequence[str] | None) -> list[str]:
    """The player name of every seat: the given ones, else the view's, padded with ''."""
    n = seat_count(view, players)
    names = [str(p) for p in (players if players is not None else view.get("players") or [])]
    return (names + [""] * n)[:n]


def seats_table_html(view: dict[str, Any], players: Sequence[str] | None,
                     seat_html: Callable[..., str], centre: str, *, css: str = "",
                     style: bool = True) -> str:
    """A game's whole table: each seat's panel (``seat_html(view, seat, name, area=…)``)
    around the centre, with the table's CSS and the game's own ``css`` when styled."""
    names = seat_names(view, players)
    seats = [seat_html(view, seat, names[seat], area=seat_area(view, seat))
             for seat in range(seat_count(view, players))]
    head = f"<style>{TABLE_CSS}\n{css}</style>" if style and css else ""
    return head + layout_html(view, seats, centre, style=style and not css)


def layout_html(view: dict[str, Any], seats: Sequence[str], centre: str, *,
                style: bool = True) -> str:
    """The whole table: the seat panels around the centre, then the perspective line under
    them (so that the seats start right at the top of the table)."""
    css = f"<style>{TABLE_CSS}</style>" if style else ""
    n = len(seats)
    shape = f"lj-n{n}" if n in SEAT_AREAS else "lj-flow"
    head = (f'<div class="lj-perspective">view: {escape(perspective_label(view))} · '
            f"{escape(str(view.get('game_id', '')))} · after seq "
            f"{(_int(view.get('seq')) or 1) - 1}</div>")
    return (f'{css}<div class="lj-table {shape}" data-seats="{n}">'
            f'{"".join(seats)}{centre}</div>{head}')


def event_payload(e: Event) -> dict[str, Any]:
    """An event's JSON payload as a dict ({} when absent or not an object)."""
    try:
        obj = json.loads(e.payload or "{}")
    except json.JSONDecodeError:
        return {}
    return obj if isinstance(obj, dict) else {}


# ---------------------------------------------------------------- the table modules

def table_module_name(game: str) -> str:
    """The table module of a game id: ``dashboards.tables.<package>`` when the game is
    registered (``engine.games.GAMES``) and its package has one, else the generic table."""
    if game not in _games.GAMES:
        return GENERIC
    return _module_for(_games.package_of(game))


@functools.lru_cache(maxsize=64)
def _module_for(package: str) -> str:
    name = f"{TABLES_PACKAGE}.{package}"
    try:
        found = importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        found = False
    return name if found else GENERIC


def tables() -> dict[str, str]:
    """Every registered game id -> the name of its table module (``table_module_name``)."""
    return {game: table_module_name(game) for game in _games.GAMES}


TABLES = tables()   # at import; table_module looks each game up afresh


def table_module(game: str) -> ModuleType:
    """The table module of a game id (``table_module_name``), imported."""
    return importlib.import_module(table_module_name(game))


def table_html(game: str, view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole table of a game as one HTML fragment: the seats around the centre, escaped."""
    return table_module(game).table_html(view, players, style=style)


def centre_html(game: str, view: dict[str, Any]) -> str:
    """The middle of a game's table (top play, pending effects, turn, result), escaped."""
    return table_module(game).centre_html(view)
