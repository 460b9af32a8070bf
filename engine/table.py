"""The table as a small neutral model, and its one text rendering.

A game says what its table shows with ``table(view, players) -> TableModel`` (a field of its
``Game``): the seats (name, side or role as the viewer knows it, hand faces or a hidden count,
labelled card groups such as melds or a share of the kitty, flags, the outcome) and the centre
(lines of words and cards: the top play, pending effects, whose turn, the score grid). The
dashboard draws every game from this model with one HTML renderer (``dashboards.table``) and
``liujia replay`` with the one text renderer here (``text_table``). Neither renderer knows a
game; a game never draws. Nothing here is escaped: each renderer escapes for its medium.

The view readers (``seat_or_none``, ``to_act_seat``, ``side_of``, ``outcome_of``,
``result_summary`` …) read the keys every view has (docs/dashboard.md) defensively, since the
dashboard also draws views of logs that strangers wrote.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.cards import SUIT_SYMBOLS, parse_face, pretty_face
from engine.errors import EngineError
from engine.events import NONE, Event

# Colours a game may give a side, a role or a badge; the renderers map them to their medium.
Tone = Literal["", "blue", "red", "amber", "green", "violet", "grey"]
TONES: tuple[Tone, ...] = ("", "blue", "red", "amber", "green", "violet", "grey")
LineKind = Literal["top", "turn", "pending", "info", "box"]
RESULT_WORDS = {"win": "won", "loss": "lost", "draw": "drew"}
Data = tuple[tuple[str, str], ...]   # (name, value): a fact a test or a script can find


@dataclass(frozen=True, slots=True)
class Faces:
    """A run of card faces inside a line ('Th', 'BJ' …), drawn as cards."""

    faces: tuple[str, ...]
    counted: bool = True     # False: a preview of cards shown in full elsewhere


@dataclass(frozen=True, slots=True)
class Badge:
    """A small coloured label: a side, a role, a claim."""

    text: str
    tone: Tone = ""
    side: str | None = None  # the side it names, when it names one (data-side)


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit named inside a line ('s', 'h', 'c', 'd'), drawn as its symbol (red or black)."""

    letter: str


@dataclass(frozen=True, slots=True)
class Hidden:
    """Cards inside a line that the viewer may not see: a card back with their count (None:
    the count is not known either)."""

    count: int | None


@dataclass(frozen=True, slots=True)
class Text:
    """Words with a weight inside a line: 'strong' (a number that matters), 'small' (a
    label beside cards)."""

    text: str
    style: Literal["strong", "small"] = "strong"


Part = str | Faces | Badge | Suit | Hidden | Text


@dataclass(frozen=True, slots=True)
class Line:
    """One line of words, cards and badges; ``kind`` says its weight (top play, whose turn,
    a pending effect, information, a boxed notice)."""

    parts: tuple[Part, ...]
    kind: LineKind = "info"
    title: str = ""          # a longer explanation (a tooltip in HTML)
    data: Data = ()


@dataclass(frozen=True, slots=True)
class Grid:
    """A small table in the centre (a settlement, a split of points): a caption, column
    headers and rows of cells, each cell a tuple of parts."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[tuple[Part, ...], ...], ...]
    row_data: tuple[Data, ...] = ()   # the facts of each row, in order (may be shorter)


@dataclass(frozen=True, slots=True)
class Group:
    """A labelled group of cards at a seat (a meld, the last play, a share of the kitty)."""

    label: str
    faces: tuple[str, ...] = ()
    note: str = ""
    tone: Tone = ""
    data: Data = ()
    face_down: int = 0        # cards of the group the viewer sees only the backs of
    counted: bool = True      # False: cards shown in full elsewhere too (a last play)


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """A seat's outcome once the game is over: win / loss / draw, place, score."""

    result: str
    place: int | None = None
    score: int | None = None


@dataclass(frozen=True, slots=True)
class SeatModel:
    """One seat as the viewer sees it. ``hand``: the faces, a hidden count, or None (a hidden
    hand whose count the viewer does not know)."""

    seat: int
    name: str
    hand: tuple[str, ...] | int | None
    badges: tuple[Badge, ...] = ()   # side or role first
    tone: Tone = ""                  # the panel's edge colour (a team)
    to_act: bool = False
    me: bool = False
    outcome: SeatOutcome | None = None
    flags: tuple[str, ...] = ()
    groups: tuple[Group, ...] = ()
    notes: tuple[Line, ...] = ()     # lines under the hand (a place, a chip count)
    done: bool = False               # out of the game already (drawn greyed)
    data: Data = ()


@dataclass(frozen=True, slots=True)
class TableModel:
    """The whole table at one step: who looks, the seats, the centre. ``turn_step`` is +1
    when seat i+1 plays after seat i, −1 when play runs the other way (the layout follows)."""

    title: str
    game_id: str
    seq: int                          # the next sequence number: the table is after seq − 1
    perspective: int | None           # None: the auditor
    seats: tuple[SeatModel, ...]
    centre: tuple[Line | Grid, ...] = ()
    turn_step: int = 1
    extras: Mapping[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------- building lines

def line(*parts: Part | Iterable[str] | None, kind: LineKind = "info", title: str = "",
         data: Data = ()) -> Line:
    """A line from its parts: strings, ``Faces``, ``Badge``s, ``Suit``s, ``Hidden``,
    ``Text``, or a list of faces (drawn as cards); None and '' parts are left out."""
    out: list[Part] = []
    for p in parts:
        if p is None or p == "":
            continue
        out.append(p if isinstance(p, (str, Faces, Badge, Suit, Hidden, Text))
                   else Faces(tuple(map(str, p))))
    return Line(tuple(out), kind=kind, title=title, data=data)


# ---------------------------------------------------------------- reading the common view keys

def as_int(v: Any) -> int | None:
    """v when it is an int (not a bool), else None."""
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def as_dict(v: Any) -> dict[str, Any]:
    """v when it is a dict, else {}."""
    return v if isinstance(v, dict) else {}


def as_list(v: Any) -> list[Any]:
    """v when it is a list, else []."""
    return v if isinstance(v, list) else []


def faces_of(v: Any) -> tuple[str, ...]:
    """The card faces of a list (anything else: none)."""
    return tuple(map(str, v)) if isinstance(v, (list, tuple)) else ()


def seat_count(view: Mapping[str, Any], players: Sequence[str] | None = None) -> int:
    """How many seats the table has: the length of the view's players (else of the names
    given, else of its hands)."""
    found = view.get("players")
    if type(found) is list and found:       # the common case, first
        return len(found)
    for seq in (found, players, view.get("hands")):
        if isinstance(seq, (list, tuple)) and seq:
            return len(seq)
    return 0


def seat_or_none(view: Mapping[str, Any], v: Any) -> int | None:
    """v if it is a seat of this table (0 … n−1), else None."""
    if type(v) is not int:              # bools and everything else: not a seat
        return None
    return v if 0 <= v < seat_count(view) else None


def seat_list(view: Mapping[str, Any], v: Any) -> list[int]:
    """The seats of this table in a list (anything else dropped)."""
    if not isinstance(v, list):
        return []
    return [i for i in v if seat_or_none(view, i) is not None]


def to_act_seat(view: Mapping[str, Any]) -> int | None:
    """The seat the game waits for (the view's ``to_act``), or None."""
    return seat_or_none(view, view.get("to_act"))


def side_of(view: Mapping[str, Any], seat: int) -> str | None:
    """The seat's side as the view gives it (None: no side, or not known to this viewer)."""
    sides = view.get("sides")
    if not isinstance(sides, list) or not 0 <= seat < len(sides) or sides[seat] is None:
        return None
    return str(sides[seat])


def outcome_of(view: Mapping[str, Any], seat: int) -> SeatOutcome | None:
    """The seat's outcome once the game is over, else None."""
    outcomes = view.get("outcomes")
    if not isinstance(outcomes, list) or not 0 <= seat < len(outcomes):
        return None
    o = outcomes[seat]
    if not isinstance(o, dict) or o.get("result") not in RESULT_WORDS:
        return None
    return SeatOutcome(str(o["result"]), as_int(o.get("place")), as_int(o.get("score")))


def signed(v: Any) -> str:
    """A score as text: '+3', '0', '−3' ('?' when missing)."""
    i = as_int(v)
    return "?" if i is None else f"{i:+d}".replace("+0", "0").replace("-", "−")


def outcome_text(outcome: SeatOutcome | None) -> str:
    """A seat's outcome in words: 'won · place 1 · score +2' ('' before the end)."""
    if outcome is None or outcome.result not in RESULT_WORDS:
        return ""
    bits = [RESULT_WORDS[outcome.result]]
    if outcome.place is not None:
        bits.append(f"place {outcome.place}")
    if outcome.score is not None:
        bits.append(f"score {signed(outcome.score)}")
    return " · ".join(bits)


def seat_names(view: Mapping[str, Any], players: Sequence[str] | None) -> list[str]:
    """The player name of every seat: the given ones, else the view's, padded with ''."""
    n = seat_count(view, players)
    names = [str(p) for p in (players if players is not None else view.get("players") or [])]
    return (names + [""] * n)[:n]


def result_summary(view: Mapping[str, Any], players: Sequence[str] | None = None) -> str:
    """Who won, from the view's outcomes and sides: 'even won', 'draw', 'seat 2 (p7) won',
    'seats 1, 3 won' ('' before the end)."""
    n = seat_count(view, players)
    outcomes = [outcome_of(view, i) for i in range(n)]
    if not n or any(o is None for o in outcomes):
        return ""
    winners = [i for i, o in enumerate(outcomes) if o is not None and o.result == "win"]
    if not winners:
        every_draw = all(o is not None and o.result == "draw" for o in outcomes)
        return "draw" if every_draw else "nobody won"
    sides = {side_of(view, i) for i in winners}
    if len(sides) == 1 and None not in sides:
        return f"{sides.pop()} won"
    if len(winners) == 1:
        names = seat_names(view, players)
        name = f" ({names[winners[0]]})" if names[winners[0]] else ""
        return f"seat {winners[0]}{name} won"
    return f"seats {', '.join(map(str, winners))} won"


def hand_of(view: Mapping[str, Any], seat: int) -> tuple[str, ...] | int | None:
    """A seat's hand from the view's ``hands``: faces, a hidden count, or None."""
    hands = view.get("hands")
    h = hands[seat] if isinstance(hands, list) and 0 <= seat < len(hands) else None
    if isinstance(h, (list, tuple)):
        return faces_of(h)
    return as_int(h)


def base_seat(view: Mapping[str, Any], seat: int, name: str,
              tones: Mapping[str, Tone] | None = None, **more: Any) -> SeatModel:
    """A seat with what every view says of it (hand, side as a badge coloured by ``tones``,
    to act, the viewer, the outcome); ``more`` sets or replaces fields (flags, groups …)."""
    side = side_of(view, seat)
    tone: Tone = (tones or {}).get(side, "") if side else ""
    more.setdefault("hand", hand_of(view, seat))
    more.setdefault("badges", (Badge(side, tone, side=side),) if side else ())
    more.setdefault("tone", tone)
    more.setdefault("to_act", view.get("to_act") == seat and to_act_seat(view) == seat)
    more.setdefault("me", seat_or_none(view, view.get("perspective")) == seat)
    more.setdefault("outcome", outcome_of(view, seat))
    return SeatModel(seat=seat, name=name, **more)


def model(title: str, view: Mapping[str, Any], seats: Iterable[SeatModel],
          centre: Iterable[Line | Grid], *, turn_step: int = 1,
          extras: Mapping[str, str] | None = None) -> TableModel:
    """The table model of a view: its game id, step and perspective, with the game's seats
    and centre."""
    return TableModel(title=title, game_id=str(view.get("game_id", "")),
                      seq=as_int(view.get("seq")) or 1,
                      perspective=seat_or_none(view, view.get("perspective")),
                      seats=tuple(seats), centre=tuple(centre), turn_step=turn_step,
                      extras=dict(extras or {}))


def event_payload(e: Event) -> dict[str, Any]:
    """An event's JSON payload as a dict ({} when absent or not an object)."""
    try:
        obj = json.loads(e.payload or "{}")
    except json.JSONDecodeError:
        return {}
    return obj if isinstance(obj, dict) else {}


# ---------------------------------------------------------------- the generic table

SHOWN_ELSEWHERE = frozenset({"format", "game", "game_id", "seq", "players", "hands",
                             "options", "perspective", "sides", "outcomes", "to_act"})
MAX_CARDS = 24      # longer card lists (a deck, a stock) are shown as a count
MAX_TEXT = 240


def _is_faces(v: Any) -> bool:
    if not isinstance(v, list) or not v or not all(isinstance(f, str) for f in v):
        return False
    try:
        for f in v:
            parse_face(f)
    except EngineError:
        return False
    return True


def _value_parts(v: Any) -> tuple[Part, ...]:
    if _is_faces(v):
        return (Faces(tuple(v)),) if len(v) <= MAX_CARDS else (f"{len(v)} cards",)
    text = json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)
    return (text[:MAX_TEXT] + " …" if len(text) > MAX_TEXT else text,)


def turn_text(view: Mapping[str, Any], players: Sequence[str] | None = None) -> str:
    """Whose turn it is, or the result once over, or the phase: plain text."""
    summary = result_summary(view, players)
    if summary:
        return f"game over: {summary}"
    to_act = to_act_seat(view)
    if to_act is not None:
        return f"seat {to_act} to act"
    return str(view.get("phase", ""))


def generic_table(view: Mapping[str, Any], players: Sequence[str] | None = None,
                  title: str = "") -> TableModel:
    """The table of a game that declares none: the seats with their hands, sides and
    outcomes; in the centre whose turn it is and every other field of the view."""
    names = seat_names(view, players)
    centre: list[Line | Grid] = [line(turn_text(view, players), kind="turn")]
    for key, value in view.items():
        if key in SHOWN_ELSEWHERE or value is None or value == [] or value == {}:
            continue
        centre.append(Line((f"{key}: ", *_value_parts(value))))
    seats = [base_seat(view, i, names[i]) for i in range(len(names))]
    return model(title or str(view.get("game", "")), view, seats, centre)


def generic_detail(e: Event) -> str:
    """An event's target, value and tag in a few words (for kinds without a description)."""
    bits = []
    if e.target != NONE:
        bits.append(f"target {e.target}")
    if e.value != NONE:
        bits.append(f"value {e.value}")
    if e.tag:
        bits.append(e.tag)
    return " ".join(bits)


def generic_describe(e: Event) -> str:
    """What an event means beyond its cards, from its generic fields only."""
    if e.kind == "GAME_START":
        n = len(e.cards)
        return f"game start, {n} card{'s' * (n != 1)}"
    if e.kind == "GAME_END":
        bits = generic_detail(e)
        return f"game over: {bits}" if bits else "game over"
    return generic_detail(e)


# ---------------------------------------------------------------- the text renderer

def face_text(face: str) -> str:
    """A face as the terminal shows it ('T♥'); an unknown face as it came."""
    try:
        return pretty_face(parse_face(face))
    except EngineError:
        return face


def faces_text(faces: Iterable[str], empty: str = "-") -> str:
    """Faces as the terminal shows them, space-separated, or ``empty``."""
    return " ".join(map(face_text, faces)) or empty


def part_text(p: Part) -> str:
    """One part of a line as plain text (a badge in brackets, hidden cards as a count)."""
    if isinstance(p, Faces):
        return faces_text(p.faces)
    if isinstance(p, Badge):
        return f"[{p.text}]"
    if isinstance(p, Suit):
        return SUIT_SYMBOLS.get(p.letter, "?")
    if isinstance(p, Hidden):
        return "hidden cards" if p.count is None else \
            f"{p.count} hidden card{'s' * (p.count != 1)}"
    if isinstance(p, Text):
        return p.text
    return p


def line_text(ln: Line) -> str:
    """A line as plain text; a pending effect starts with '! ', a titled top line with its
    title ('top play: K♠')."""
    text = "".join(part_text(p) for p in ln.parts)
    if ln.kind == "pending":
        return f"! {text}"
    return f"{ln.title}: {text}" if ln.kind == "top" and ln.title else text


def grid_text(g: Grid) -> list[str]:
    """A grid as aligned plain-text rows under its caption."""
    rows = [list(g.header)] + [["".join(part_text(p) for p in cell) for cell in row]
                               for row in g.rows]
    width = max((len(r) for r in rows), default=0)
    cols = [max((shown_width(r[i]) for r in rows if i < len(r)), default=0)
            for i in range(width)]
    out = [g.caption] if g.caption else []
    out += ["  " + "  ".join(c + " " * (cols[i] - shown_width(c)) for i, c in enumerate(r))
            .rstrip() for r in rows]
    return out


def shown_width(text: str) -> int:
    """Columns a terminal gives the text: two for a wide character (CJK), one otherwise."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def hand_text(hand: tuple[str, ...] | int | None) -> str:
    """A hand: 'N: faces', 'N cards (hidden)' or 'hidden'."""
    if hand is None:
        return "hidden"
    if isinstance(hand, int):
        return f"{hand} card{'s' * (hand != 1)} (hidden)"
    return f"{len(hand):2d}: {faces_text(hand)}"


def seat_text(s: SeatModel) -> list[str]:
    """A seat's lines: marker, number, badges, name, hand, outcome, flags; then its groups
    and notes indented."""
    mark = "▶" if s.to_act else " "
    badges = " ".join(f"[{b.text}]" for b in s.badges)
    head = f" {mark} seat {s.seat} {badges + ' ' if badges else ''}{s.name}  {hand_text(s.hand)}"
    if s.outcome is not None:
        head += f"  {outcome_text(s.outcome)}"
    if s.flags:
        head += f"   ({', '.join(s.flags)})"
    out = [head]
    for g in s.groups:
        note = f"  {g.note}" if g.note else ""
        down = f" + {g.face_down} face down" if g.face_down else ""
        out.append(f"       {g.label}: {faces_text(g.faces)}{down}{note}")
    out += [f"       {line_text(n)}" for n in s.notes]
    return out


def text_table(m: TableModel) -> str:
    """The table as plain text for a terminal: a head line, the centre, then every seat.
    The caller makes the strangers' strings safe (``engine.text.safe_lines``)."""
    who = "auditor (all cards)" if m.perspective is None else f"seat {m.perspective}"
    out = [f"{m.title} {m.game_id}  after seq {m.seq - 1}  view: {who}"]
    for c in m.centre:
        out += grid_text(c) if isinstance(c, Grid) else [line_text(c)]
    for s in m.seats:
        out += seat_text(s)
    return "\n".join(out)
