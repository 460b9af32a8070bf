"""扑克六湖's table as the neutral model (``engine.table``): six seats, each for himself.

Each seat shows its player, the dealer badge, its concealed hand (faces for the viewer and the
auditor, the winner's whole hand at a win, else a hidden count), its melds face up (吃 / 碰 /
明杠 as the view gives them; a 暗杠 shows its one public face and the rest face down, all four
to its owner and the auditor), its chips in the session, what it is due to do, the card it just
drew (when the viewer may see it), and once over its outcome. The centre shows whose turn it
is, the hand number, dealer, dice and the wall's size, the open claim window (its card and
discarder; the eligible seats, their claims and the answers for the auditor only; a seat
learns only that it is the one to answer; the calls once awarded), the pool of discards (short
lines per seat, each card with its place in the pool's order, and the latest discard),
at a win the winner's split as a grid, and the settlement per seat; a 流局 as such.

Only reads the view (``engine.games.liuhu.info.view``, LH-69, LH-70); nothing here draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.games.liuhu.describe import (
    AN_GANG,
    AUTO_TEXT,
    CLAIM_TEXT,
    DUE_TEXT,
    GROUP_TEXT,
    MELD_TEXT,
    PHASE_TEXT,
    WIN_TEXT,
    WINDOW_TEXT,
    describe,
)
from engine.table import (
    Badge,
    Data,
    Faces,
    Grid,
    Group,
    Line,
    Part,
    SeatModel,
    TableModel,
    as_dict,
    as_int,
    as_list,
    base_seat,
    faces_of,
    line,
    model,
    result_summary,
    seat_count,
    seat_names,
    seat_or_none,
    signed,
    to_act_seat,
)

TITLE = "扑克六湖"
OVER = ("over", "end", "settle")
POOL_LINE = 8      # discards a line of the pool shows at most
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

__all__ = ["describe", "table"]


# ---------------------------------------------------------------- reading the view

def _seat_text(view: dict[str, Any], v: Any) -> str:
    seat = seat_or_none(view, v)
    return f"seat {seat}" if seat is not None else "?"


def _at(values: Any, i: int) -> Any:
    values = as_list(values)
    return values[i] if i < len(values) else None


def _melds(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [m for m in as_list(_at(view.get("melds"), seat)) if isinstance(m, dict)]


def _wins(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [w for w in as_list(view.get("wins")) if isinstance(w, dict)]


def _result(view: dict[str, Any]) -> dict[str, Any]:
    return as_dict(view.get("result"))


def _window(view: dict[str, Any]) -> dict[str, Any]:
    return as_dict(view.get("window"))


# ---------------------------------------------------------------- seats

def meld_group(view: dict[str, Any], seat: int, m: dict[str, Any]) -> Group:
    """One meld face up: its kind, its cards (a 暗杠 to another seat: its one public face, the
    rest as card backs, ``data-face-down``), the claimed card and the seat it came from."""
    kind = str(m.get("kind", ""))
    faces = faces_of(m.get("cards"))
    notes = []
    owner = view.get("perspective") == "auditor" or \
        seat_or_none(view, view.get("perspective")) == seat
    down = len(faces) - 1 if kind == AN_GANG and faces and not owner else 0
    if down:
        faces = faces[:1]
    if m.get("card") is not None and seat_or_none(view, m.get("from")) is not None:
        notes.append(f"took {m['card']} from seat {m['from']}")
    return Group(MELD_TEXT.get(kind, kind), faces, " · ".join(notes),
                 data=(("meld", kind), ("face-down", str(down))), face_down=down)


def chips_text(view: dict[str, Any], seat: int) -> str:
    """The seat's chips: its balance before the hand, after it, and this hand's change."""
    before = as_int(_at(view.get("balances"), seat))
    after = as_int(_at(_result(view).get("balances"), seat))
    change = as_int(_at(view.get("changes"), seat))
    text = f"chips {signed(before)}"
    if after is not None:
        text += f" → {signed(after)}"
    if change is not None:
        text += f" (this hand {signed(change)})"
    return text


def seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    """The seat's flags as plain text: the card it drew, on turn, its discard open to claims,
    its win and payment."""
    flags = []
    if view.get("drawn") is not None and seat_or_none(view, view.get("turn")) == seat:
        flags.append(f"drew {view['drawn']}")
    w = _window(view)
    if (seat_or_none(view, view.get("turn")) == seat and to_act_seat(view) != seat and not w
            and view.get("phase") not in OVER):
        flags.append("on turn")
    if w and seat_or_none(view, w.get("from")) == seat:
        flags.append(f"its {'加杠' if w.get('kind') == 'rob' else 'discard'} "
                     f"{w.get('card')} is open to claims")
    for win in _wins(view):
        if seat_or_none(view, win.get("seat")) == seat:
            kind = str(win.get("type"))
            flags.append(f"{WIN_TEXT.get(kind, kind)}, "
                         f"{win.get('total')} hu")
        elif seat_or_none(view, win.get("payer")) == seat:
            flags.append(f"pays seat {win.get('seat')}")
    return flags


def _seat(view: dict[str, Any], seat: int, name: str) -> SeatModel:
    notes = [line(chips_text(view, seat))]
    if to_act_seat(view) == seat:
        notes.insert(0, line(DUE_TEXT.get(str(view.get("phase")), "to act"), kind="turn"))
    dealer = seat_or_none(view, view.get("dealer")) == seat
    return base_seat(view, seat, name, badges=(Badge("dealer", "amber"),) * dealer,
                     groups=tuple(meld_group(view, seat, m) for m in _melds(view, seat)),
                     notes=tuple(notes), flags=tuple(seat_flags(view, seat)))


# ---------------------------------------------------------------- centre

def turn_text(view: dict[str, Any], players: Sequence[str] | None = None) -> str:
    """Whose turn it is (and what for), the automatic event owed, or the result: plain text."""
    summary = result_summary(view, players)
    if summary:
        if _result(view).get("reason") == "liuju" or summary == "draw":
            return "hand over: 流局 (exhaustive draw), nobody wins"
        return f"hand over: {summary}"
    seat = to_act_seat(view)
    phase = str(view.get("phase", ""))
    if seat is not None:
        return f"seat {seat} {DUE_TEXT.get(phase, 'to act')}"
    auto = view.get("next_auto")
    if auto:
        return f"next: {AUTO_TEXT.get(str(auto), str(auto))} (the engine's)"
    if phase == "window":
        return "a claim window is open: waiting for the answers"
    return PHASE_TEXT.get(phase, phase)


def head_lines(view: dict[str, Any]) -> list[Line]:
    """The hand (局) of the game, the dealer (and the first dealer), the dice, the wall's size
    (``data-wall``) and, for the auditor, the next front and tail draws."""
    hand, hands = as_int(view.get("hand")), as_int(as_dict(view.get("options")).get("hands"))
    bits = [f"hand (局) {hand if hand is not None else '?'}"
            + (f" of {hands}" if hands is not None else ""),
            f"dealer {_seat_text(view, view.get('dealer'))}"]
    first = seat_or_none(view, view.get("first_dealer"))
    if first is not None and first != seat_or_none(view, view.get("dealer")):
        bits.append(f"first dealer seat {first}")
    out = [line(" · ".join(bits))]
    dice = [str(d) for d in as_list(view.get("dice")) if as_int(d) is not None]
    size = as_int(view.get("wall_size"))
    wall = f"wall {size if size is not None else '?'} card{'s' * (size != 1)}"
    out.append(line(*(["dice " + " + ".join(dice) + " · "] if dice else []), wall,
                    data=(("wall", "" if size is None else str(size)),)))
    front = faces_of(view.get("wall"))
    if front:
        out.append(line("next draw: front ", Faces(front[:1], counted=False), " · tail ",
                        Faces(front[-1:], counted=False)))
    return out


def _claims_text(claims: Any) -> str:
    out = []
    for c in as_list(claims):
        c = [str(x) for x in as_list(c)]
        if c:
            word = CLAIM_TEXT.get(c[0], c[0])
            out.append(word + (f" with {' '.join(c[1:])}" if len(c) > 1 else ""))
    return ", ".join(out) or "none"


def _answers_text(answers: Any) -> str:
    out = []
    for a in as_list(answers):
        a = [str(x) for x in as_list(a)]
        if len(a) >= 2:
            out.append(f"seat {a[0]} " + CLAIM_TEXT.get(a[1], a[1])
                       + (f" {' '.join(a[2:])}" if a[2:] else ""))
    return "; ".join(out) or "none yet"


def window_lines(view: dict[str, Any]) -> list[Line]:
    """The open claim window: its card and discarder (boxed); for the auditor each eligible
    seat with its claims and the answers so far; for a seat only whether it is the one to
    answer; the calls once awarded (none when no window is open)."""
    w = _window(view)
    if not w:
        return []
    kind = str(w.get("kind", ""))
    last = "the last " if view.get("phase") in OVER else ""
    out = [line(f"{last}{WINDOW_TEXT.get(kind, kind)}: ",
                Faces((str(w.get("card")),), counted=False),
                f" from {_seat_text(view, w.get('from'))}", kind="box",
                data=(("window", kind),))]
    me = seat_or_none(view, view.get("perspective"))
    if view.get("perspective") == "auditor":
        elig = as_dict(w.get("eligible"))
        out += [line(f"eligible seat {s}: {_claims_text(c)}", data=(("lh-eligible", "1"),))
                for s, c in elig.items()] or [line("eligible: nobody",
                                                   data=(("lh-eligible", "1"),))]
        out.append(line(f"answers: {_answers_text(w.get('answers'))}"))
    elif me is not None and to_act_seat(view) == me and view.get("phase") == "window":
        out.append(line("you may claim: your answer is due", kind="pending"))
    words = []
    for c in as_list(w.get("calls")):
        s, _, k = str(c).partition(" ")
        words.append(f"seat {s} {CLAIM_TEXT.get(k, k)}")
    if words:
        out.append(line("calls (public at the award): " + "; ".join(words)))
    return out


def pool_lines(view: dict[str, Any]) -> list[Line]:
    """The pool of discards: short lines per seat (eight cards at most) with its discards in
    order, each card with its place in the whole pool (small figures; ``data-pool-at``), then
    the latest discard and who made it."""
    pool = [p for p in as_list(view.get("pool")) if isinstance(p, dict)]
    if not pool:
        return [line("pool: no discards")]
    out = [line(f"pool: {len(pool)} discard{'s' * (len(pool) != 1)} (small figure: the order)")]
    by_seat: dict[str, list[int]] = {}
    for i, p in enumerate(pool):
        seat = seat_or_none(view, p.get("seat"))
        by_seat.setdefault("?" if seat is None else str(seat), []).append(i)
    for key in sorted(by_seat, key=lambda k: (k == "?", k)):
        places = by_seat[key]
        for start in range(0, len(places), POOL_LINE):   # short lines: no wrap in the centre
            chunk = places[start:start + POOL_LINE]
            parts: list[Part] = [f"seat {key}:"]
            for i in chunk:
                parts += [" ", Faces((str(pool[i].get("card")),)),
                          str(i + 1).translate(SUPERSCRIPT)]
            out.append(Line(tuple(parts), data=(("pool-seat", "" if key == "?" else key),
                                                ("pool-at", " ".join(map(str, chunk))))))
    last = pool[-1]
    out.append(line("latest discard: ", Faces((str(last.get("card")),), counted=False),
                    f" by {_seat_text(view, last.get('seat'))}",
                    data=(("pool-latest", str(len(pool) - 1)),)))
    return out


def _scored_cards(part: dict[str, Any]) -> tuple[Part, ...]:
    """A split part's cards as scored, an RJ shown with the face it stands for."""
    wild = list(faces_of(part.get("wild")))
    out: list[Part] = []
    for f in faces_of(part.get("cards")):
        out.append(" " if out else "")
        if f in wild:
            wild.remove(f)
            out.append("RJ as ")
        out.append(Faces((f,), counted=False))
    return tuple(p for p in out if p != "")


def _split_data(kind: str, part: dict[str, Any]) -> Data:
    """A split row's facts: its kind (``data-group``), its faces as scored (``data-cards``),
    its value (``data-value``)."""
    return (("group", kind), ("cards", " ".join(faces_of(part.get("cards")))),
            ("value", str(part.get("value"))))


def _split_row(kind: str, part: dict[str, Any]) -> tuple[tuple[Part, ...], ...]:
    if kind == "pair":
        label, how = "对子 pair", "holds the winning card" if part.get("holds_winning") else ""
    else:
        label = GROUP_TEXT.get(kind, kind)
        how = "exposed" if part.get("exposed") else "concealed"
        how += ", meld" * bool(part.get("meld"))
        how += ", holds the winning card" * bool(part.get("holds_winning"))
    return ((label,), _scored_cards(part), (how,), (str(part.get("value")),))


def win_items(view: dict[str, Any], win: dict[str, Any]) -> list[Line | Grid]:
    """One win: who won how (``data-win-seat``, ``data-total``, ``data-bonus``), on which card
    and who pays, the winner's concealed cards, and the recorded split as a grid (each group's
    kind, cards, exposure and value, the pair, the bonus, the total; a row's facts as data:
    ``data-group``, ``data-cards``, ``data-value``, then ``data-bonus``, ``data-total``)."""
    seat = seat_or_none(view, win.get("seat"))
    kind = str(win.get("type", ""))
    split = as_dict(win.get("split"))
    total = split.get("total", win.get("total"))
    bits = []
    if win.get("card") is not None:
        bits.append(f"on {win['card']}")
    payer = seat_or_none(view, win.get("payer"))
    bits.append(f"paid by seat {payer}" if payer is not None else "paid by every other seat")
    out: list[Line | Grid] = [
        line(f"{_seat_text(view, seat)} wins: {WIN_TEXT.get(kind, kind)}", kind="top",
             data=(("win-seat", "" if seat is None else str(seat)), ("total", str(total)),
                   ("bonus", str(split.get("bonus"))))),
        line(" · ".join(bits))]
    conc = faces_of(win.get("concealed"))
    if conc:
        out.append(line("concealed cards ", conc))
    parts = [(str(as_dict(g).get("kind", "")), as_dict(g)) for g in as_list(split.get("groups"))]
    if as_dict(split.get("pair")):
        parts.append(("pair", as_dict(split.get("pair"))))
    rows = [_split_row(k, p) for k, p in parts]
    data = [_split_data(k, p) for k, p in parts]
    rows.append((("bonus (自摸 +3, else 0)",), (), (), (str(split.get("bonus")),)))
    data.append((("bonus", str(split.get("bonus"))),))
    rows.append((("total",), (), (), (f"{total} hu",)))
    data.append((("total", str(total)),))
    out.append(Grid("the split", ("group", "cards", "exposure", "hu"), tuple(rows),
                    row_data=tuple(data)))
    return out


def settlement_items(view: dict[str, Any]) -> list[Line | Grid]:
    """A 流局 as such; the chips each seat wins or pays this hand and its balance after (a
    grid); the next dealer and whether this was the game's last hand."""
    r = _result(view)
    changes = as_list(view.get("changes")) or as_list(r.get("changes"))
    out: list[Line | Grid] = []
    if r.get("reason") == "liuju":
        out += [line("流局 (exhaustive draw): the wall is empty"),
                line("nobody pays, hands stay hidden")]
    if changes:
        after = as_list(r.get("balances"))
        rows = tuple(((f"seat {i}",), (signed(c),), (signed(after[i]) if i < len(after) else "",))
                     for i, c in enumerate(changes[:seat_count(view)]))
        out.append(Grid("settlement (chips this hand → balance)",
                        ("seat", "this hand", "balance"), rows))
    nd = seat_or_none(view, r.get("next_dealer")) if r else None
    if nd is not None:
        out.append(line(f"next dealer seat {nd}"
                        + (" · the game's last hand" if r.get("game_over") else "")))
    return out


def centre(view: dict[str, Any], players: Sequence[str] | None = None) -> list[Line | Grid]:
    """The middle of the table: turn, hand, dealer, dice, wall, phase, claim window, pool, the
    wins with their splits and the settlement."""
    phase = str(view.get("phase", ""))
    turn = turn_text(view, players)
    out: list[Line | Grid] = [line(turn, kind="turn"), *head_lines(view)]
    if PHASE_TEXT.get(phase, phase) != turn and phase != "over":
        out.append(line(f"now: {PHASE_TEXT.get(phase, phase)}"))
    out += [*window_lines(view), *pool_lines(view)]
    for w in _wins(view):
        out += win_items(view, w)
    return out + settlement_items(view)


def table(view: dict[str, Any], players: Sequence[str] | None = None) -> TableModel:
    """The 扑克六湖 table of a view (``engine.table.TableModel``)."""
    names = seat_names(view, players)
    return model(TITLE, view, (_seat(view, i, names[i]) for i in range(len(names))),
                 centre(view, players))
