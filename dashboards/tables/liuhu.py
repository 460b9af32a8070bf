"""扑克六湖 (``liuhu``) in the dashboard: its table (six seats, each for himself) and its event
details.

Only formats the view (``engine.games.liuhu.info.view``, LH-69, LH-70). Each seat shows its
player, the dealer mark, its concealed hand (faces for the viewer and the auditor, the winner's
whole hand at a win, else a hidden count), its melds face up (吃 / 碰 / 明杠 as the view gives
them; a 暗杠 shows its one public face and the rest face down, all four to its owner and the
auditor), the card it just drew (when the viewer may see it), its chip balance in the session,
whether it is to act or to answer a claim window, and once over its outcome and chip change.
The centre shows the hand number, dealer, dice and the wall's size, whose turn it is, the
open claim window (its card and discarder; the eligible seats, their claims and the answers
for the auditor only; a seat learns only that it is the one to answer; the calls once
awarded), the pool of discards in order with who made each (the latest highlighted), at a win
the winner's split (each group with its kind, cards, exposure and value, the pair, the bonus,
the total) and the settlement per seat; a 流局 as such. Everything from the view or the
events is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from dashboards.tables._legacy import (
    card_html,
    cards_html,
    event_payload,
    hand_div,
    hidden_html,
    outcome_html,
    outcome_of,
    result_summary,
    seat_count,
    seat_or_none,
    seats_table_html,
    signed,
    to_act_seat,
)
from dashboards.tables.generic import generic_detail
from engine.cards import format_face
from engine.events import NONE, Event

AN_GANG = "an_gang"
MELD_TEXT = {"chi": "吃 chi", "peng": "碰 peng", "ming_gang": "明杠 exposed kong",
             AN_GANG: "暗杠 concealed kong"}
GROUP_TEXT = {"seq": "sequence", "special": "special sequence (壹贰叁 / 贰柒拾)",
              "triplet": "triplet", "ming_gang": "明杠 exposed kong",
              AN_GANG: "暗杠 concealed kong"}
CLAIM_TEXT = {"hu": "胡 hu", "gang": "杠 kong", "peng": "碰 peng", "chi": "吃 chi",
              "pass": "pass"}
WIN_TEXT = {"zimo": "自摸 self-drawn win", "fangchong": "放铳 win on a discard",
            "qianggang": "抢杠胡 robbing a kong"}
WINDOW_TEXT = {"discard": "claim window on a discard",
               "rob": "robbing window (抢杠胡) on a 加杠"}
PHASE_TEXT = {
    "deal": "the deal", "turn": "post-draw: 自摸, a kong or a discard",
    "claimed": "a discard after a claim", "draw": "a draw from the front of the wall",
    "tail": "a replacement draw from the tail", "window": "a claim window",
    "respond": "a claim window: answers in turn order", "award": "a claim window: the award",
    "claim": "the awarded claim", "settle": "the settlement", "end": "the hand's result",
    "over": "hand over",
}
# What the seat the game waits for is to do, by phase.
DUE_TEXT = {
    "turn": "to declare 自摸, a kong, or discard", "claimed": "to discard after the claim",
    "respond": "to answer the claim window", "window": "to answer the claim window",
    "claim": "to make the awarded claim",
}
AUTO_TEXT = {"DEAL": "the deal", "DRAW": "a draw", "WINDOW": "the claim window",
             "AWARD": "the award", "SETTLE": "the settlement", "LIUJU": "流局 (the wall is empty)",
             "GAME_END": "the hand's result"}

LIUHU_CSS = """
.lj-lh-melds{margin-top:.15rem;font-size:.85rem}
.lj-lh-meld{display:inline-block;margin:.05em .3em .05em 0;padding:0 .2em;
 border:1px dashed #8c959f;border-radius:.3em;background:#fff}
.lj-lh-meld .lj-back{padding:.05em .25em}
.lj-lh-badge{display:inline-block;padding:0 .35em;border-radius:.3em;background:#fde68a;
 color:#78350f;font-weight:600}
.lj-lh-pool{font-size:.85rem;line-height:1.5;text-align:left}
.lj-lh-discard{display:inline-block;white-space:nowrap}
.lj-lh-discard sub{font-size:.65rem;color:#57606a}
.lj-lh-discard.lj-lh-latest .lj-card{outline:2px solid #d97706}
.lj-lh-split{font-size:.8rem;border-collapse:collapse;margin:.2rem auto}
.lj-lh-split td,.lj-lh-split th{border:1px solid #c9ccd1;padding:.05rem .3rem}
.lj-lh-wild{font-size:.7rem;color:#c8102e;font-weight:700}
.lj-lh-window{border:1px solid #b42318;border-radius:.4rem;padding:.15rem .4rem;
 background:#fff7f5}
""".strip()


# ---------------------------------------------------------------- reading the view

def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def _list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def _faces(v: Any) -> list[str]:
    return [str(f) for f in _list(v)]


def _seat_text(view: dict[str, Any], v: Any) -> str:
    seat = seat_or_none(view, v)
    return f"seat {seat}" if seat is not None else "?"


def _auditor(view: dict[str, Any]) -> bool:
    return view.get("perspective") == "auditor"


def _melds(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    rows = _list(view.get("melds"))
    row = rows[seat] if seat < len(rows) else []
    return [m for m in _list(row) if isinstance(m, dict)]


def _wins(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [w for w in _list(view.get("wins")) if isinstance(w, dict)]


def _window(view: dict[str, Any]) -> dict[str, Any]:
    return _dict(view.get("window"))


def _result(view: dict[str, Any]) -> dict[str, Any]:
    return _dict(view.get("result"))


def _at(values: Any, i: int) -> Any:
    values = _list(values)
    return values[i] if i < len(values) else None


# ---------------------------------------------------------------- seats

def meld_html(view: dict[str, Any], seat: int, m: dict[str, Any]) -> str:
    """One meld face up: its kind, its cards (a 暗杠: one public face and three backs, all four
    to its owner and the auditor), the claimed card and the seat it came from."""
    kind = str(m.get("kind", ""))
    faces = _faces(m.get("cards"))
    if kind == AN_GANG and faces and not (_auditor(view) or
                                          seat_or_none(view, view.get("perspective")) == seat):
        body = card_html(faces[0]) + "".join(
            '<span class="lj-back" title="face down">🂠</span>' for _ in faces[1:])
    else:
        body = cards_html(faces)
    bits = []
    if m.get("card") is not None and seat_or_none(view, m.get("from")) is not None:
        bits.append(f"took {escape(str(m['card']))} from seat {m['from']}")
    tail = f' <span class="lj-info">{" ".join(bits)}</span>' if bits else ""
    return (f'<span class="lj-lh-meld" data-meld="{escape(kind)}">'
            f'<span class="lj-info">{escape(MELD_TEXT.get(kind, kind))}</span> {body}{tail}</span>')


def _chips(view: dict[str, Any], seat: int) -> str:
    before = _int(_at(view.get("balances"), seat))
    after = _int(_at(_result(view).get("balances"), seat))
    change = _int(_at(view.get("changes"), seat))
    text = f"chips {signed(before)}"
    if after is not None:
        text += f" → {signed(after)}"
    if change is not None:
        text += f" (this hand {signed(change)})"
    return text


def seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    """The seat's flags as plain text: the card it drew, on turn, its win and payment."""
    flags = []
    if view.get("drawn") is not None and seat_or_none(view, view.get("turn")) == seat:
        flags.append(f"drew {view['drawn']}")
    w = _window(view)
    if (seat_or_none(view, view.get("turn")) == seat and to_act_seat(view) != seat and not w
            and view.get("phase") not in ("over", "end", "settle")):
        flags.append("on turn")
    if w and seat_or_none(view, w.get("from")) == seat:
        flags.append(f"its {'加杠' if w.get('kind') == 'rob' else 'discard'} "
                     f"{w.get('card')} is open to claims")
    for win in _wins(view):
        if seat_or_none(view, win.get("seat")) == seat:
            flags.append(f"{WIN_TEXT.get(win.get('type'), win.get('type'))}, "
                         f"{win.get('total')} hu")
        elif seat_or_none(view, win.get("payer")) == seat:
            flags.append(f"pays seat {win.get('seat')}")
    return flags


def seat_html(view: dict[str, Any], seat: int, player: str, *, area: str = "") -> str:
    """One seat's panel: player, dealer mark, concealed hand, melds face up, chips, to act,
    outcome and flags."""
    me = seat_or_none(view, view.get("perspective")) == seat
    to_act = to_act_seat(view) == seat
    outcome = outcome_of(view, seat)
    classes = ["lj-seat"] + ["lj-act"] * to_act + ["lj-me"] * me
    if outcome:
        classes.append({"win": "lj-won", "loss": "lj-lost", "draw": "lj-drew"}[outcome["result"]])
    hand = _at(view.get("hands"), seat)
    if isinstance(hand, list):
        faces = _faces(hand)
        body, shown = cards_html(faces, empty="no cards"), len(faces)
        count = f"{shown} card{'s' * (shown != 1)}"
    else:
        n = _int(hand)
        body, shown = hidden_html(n), 0
        count = f"{n} card{'s' * (n != 1)}" if n is not None else ""
    head = []
    if seat_or_none(view, view.get("dealer")) == seat:
        head.append('<span class="lj-lh-badge" title="dealer">dealer</span>')
    if count:
        head.append(count)
    head.append(escape(_chips(view, seat)))
    if to_act:
        head.append(escape(DUE_TEXT.get(str(view.get("phase")), "to act")))
    if outcome:
        head.append(outcome_html(outcome))
    melds = "".join(meld_html(view, seat, m) for m in _melds(view, seat))
    meld_div = f'<div class="lj-lh-melds">{melds}</div>' if melds else ""
    flags = seat_flags(view, seat)
    flag_html = f'<div class="lj-flags">{escape(" · ".join(flags))}</div>' if flags else ""
    style = f' style="grid-area:{area}"' if area else ""
    return (
        f'<div data-seat="{seat}" class="{" ".join(classes)}"{style}>'
        f'<div class="lj-seat-head"><span class="lj-name">{"▶ " if to_act else ""}seat {seat} · '
        f"{escape(player)}</span>"
        f'<span class="lj-team">{" · ".join(head)}</span></div>'
        f"{hand_div(body, shown)}{meld_div}{flag_html}</div>"
    )


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


def _head_line(view: dict[str, Any]) -> str:
    hand, hands = _int(view.get("hand")), _int(_dict(view.get("options")).get("hands"))
    bits = [f"hand (局) {hand if hand is not None else '?'}"
            + (f" of {hands}" if hands is not None else "")]
    bits.append(f"dealer {_seat_text(view, view.get('dealer'))}")
    first = seat_or_none(view, view.get("first_dealer"))
    if first is not None and first != seat_or_none(view, view.get("dealer")):
        bits.append(f"first dealer seat {first}")
    dice = [d for d in _list(view.get("dice")) if _int(d) is not None]
    if dice:
        bits.append("dice " + " + ".join(map(str, dice)))
    return f'<div class="lj-info">{escape(" · ".join(bits))}</div>'


def wall_html(view: dict[str, Any]) -> str:
    """The wall's size (the view's ``wall_size``); for the auditor the next front and tail
    draws as well."""
    size = _int(view.get("wall_size"))
    text = f'wall <b data-wall="{size if size is not None else ""}">' \
           f"{size if size is not None else '?'}</b> card{'s' * (size != 1)}"
    wall = _faces(view.get("wall"))
    if wall:
        text += (f" · next front draw {card_html(wall[0], data=False)}"
                 f" · next tail draw {card_html(wall[-1], data=False)}")
    return f'<div class="lj-info lj-lh-wall">{text}</div>'


def _claims_text(claims: Any) -> str:
    out = []
    for c in _list(claims):
        c = [str(x) for x in _list(c)]
        if c:
            word = CLAIM_TEXT.get(c[0], c[0])
            out.append(word + (f" with {' '.join(c[1:])}" if len(c) > 1 else ""))
    return ", ".join(out) or "none"


def window_html(view: dict[str, Any]) -> str:
    """The open claim window: its card and discarder; for the auditor the eligible seats with
    their claims and the answers so far; for a seat only whether it is the one to answer;
    the calls once awarded ('' when no window is open)."""
    w = _window(view)
    if not w:
        return ""
    kind = str(w.get("kind", ""))
    last = "the last " if view.get("phase") in ("settle", "end", "over") else ""
    lines = [f"{last}{escape(WINDOW_TEXT.get(kind, kind))}: "
             f"{card_html(str(w.get('card')), data=False)} from "
             f"{escape(_seat_text(view, w.get('from')))}"]
    me = seat_or_none(view, view.get("perspective"))
    if _auditor(view):
        elig = _dict(w.get("eligible"))
        rows = [f"seat {escape(str(s))}: {escape(_claims_text(c))}" for s, c in elig.items()]
        lines.append('<span data-lh-eligible="1">eligible: '
                     f'{"; ".join(rows) or "nobody"}</span>')
        answers = []
        for a in _list(w.get("answers")):
            a = [str(x) for x in _list(a)]
            if len(a) >= 2:
                what = CLAIM_TEXT.get(a[1], a[1]) + (f" {' '.join(a[2:])}" if a[2:] else "")
                answers.append(f"seat {a[0]} {what}")
        lines.append("answers: " + escape("; ".join(answers) or "none yet"))
    elif me is not None and to_act_seat(view) == me and view.get("phase") == "window":
        lines.append("you may claim: your answer is due")
    calls = [str(c) for c in _list(w.get("calls"))]
    if calls:
        words = []
        for c in calls:
            s, _, k = c.partition(" ")
            words.append(f"seat {s} {CLAIM_TEXT.get(k, k)}")
        lines.append("calls (public at the award): " + escape("; ".join(words)))
    body = "".join(f"<div>{line}</div>" for line in lines)
    return f'<div class="lj-info lj-lh-window" data-window="{escape(kind)}">{body}</div>'


def pool_html(view: dict[str, Any]) -> str:
    """The pool of discards in order, each with the seat that made it; the latest
    highlighted."""
    pool = [p for p in _list(view.get("pool")) if isinstance(p, dict)]
    if not pool:
        return '<div class="lj-info lj-lh-pool">pool: no discards</div>'
    items = []
    for i, p in enumerate(pool):
        seat = seat_or_none(view, p.get("seat"))
        latest = " lj-lh-latest" if i == len(pool) - 1 else ""
        items.append(f'<span class="lj-lh-discard{latest}" data-pool-seat="'
                     f'{seat if seat is not None else ""}">{card_html(str(p.get("card")))}'
                     f'<sub>{seat if seat is not None else "?"}</sub></span>')
    return (f'<div class="lj-info lj-lh-pool">pool ({len(pool)} discards, oldest first; '
            f'small number: the discarder): {"".join(items)}</div>')


def _scored_cards(part: dict[str, Any]) -> str:
    """A split part's cards in a cell (``data-cards``: the faces as scored), an RJ shown with
    the face it stands for."""
    wild = _faces(part.get("wild"))
    out = []
    for f in _faces(part.get("cards")):
        if f in wild:
            wild.remove(f)
            out.append(f'<span class="lj-lh-wild" title="{escape(f"RJ standing for {f}")}">'
                       f"RJ as</span>{card_html(f, data=False)}")
        else:
            out.append(card_html(f, data=False))
    listed = escape(" ".join(_faces(part.get("cards"))))
    return f'<td data-cards="{listed}">{"".join(out)}</td>'



def split_html(view: dict[str, Any], win: dict[str, Any]) -> str:
    """One win: its type, card, payer and total, the winner's concealed cards, and the
    recorded split (each group's kind, cards, exposure and value, the pair, bonus, total)."""
    seat = seat_or_none(view, win.get("seat"))
    kind = str(win.get("type", ""))
    bits = [f"{_seat_text(view, seat)} wins: {WIN_TEXT.get(kind, kind)}"]
    if win.get("card") is not None:
        bits.append(f"on {win['card']}")
    payer = seat_or_none(view, win.get("payer"))
    bits.append(f"paid by seat {payer}" if payer is not None else "paid by every other seat")
    split = _dict(win.get("split"))
    rows = []
    for g in _list(split.get("groups")):
        g = _dict(g)
        how = "exposed" if g.get("exposed") else "concealed"
        if g.get("meld"):
            how += ", meld"
        if g.get("holds_winning"):
            how += ", holds the winning card"
        gk = str(g.get("kind", ""))
        rows.append(f'<tr data-group="{escape(gk)}"><td>{escape(GROUP_TEXT.get(gk, gk))}</td>'
                    f"{_scored_cards(g)}<td>{escape(how)}</td>"
                    f'<td data-value="{escape(str(g.get("value")))}">'
                    f"{escape(str(g.get('value')))}</td></tr>")
    pair = _dict(split.get("pair"))
    if pair:
        rows.append(f'<tr data-group="pair"><td>对子 pair</td>{_scored_cards(pair)}'
                    f'<td>{"holds the winning card" if pair.get("holds_winning") else ""}</td>'
                    f'<td data-value="{escape(str(pair.get("value")))}">'
                    f"{escape(str(pair.get('value')))}</td></tr>")
    rows.append(f'<tr><td colspan="3">bonus (自摸 +3, else 0)</td><td data-bonus="'
                f'{escape(str(split.get("bonus")))}">{escape(str(split.get("bonus")))}</td></tr>')
    total = split.get("total", win.get("total"))
    rows.append(f'<tr><th colspan="3">total</th><th data-total="{escape(str(total))}">'
                f"{escape(str(total))} hu</th></tr>")
    conc = _faces(win.get("concealed"))
    hand = f"<div>concealed cards {cards_html(conc)}</div>" if conc else ""
    return (f'<div class="lj-info lj-lh-win" data-win-seat="{seat if seat is not None else ""}">'
            f"<b>{escape(' · '.join(bits))}</b>{hand}"
            f'<table class="lj-lh-split"><tr><th>group</th><th>cards</th><th>exposure</th>'
            f'<th>hu</th></tr>{"".join(rows)}</table></div>')


def _settlement_lines(view: dict[str, Any]) -> list[str]:
    r = _result(view)
    changes = _list(view.get("changes")) or _list(r.get("changes"))
    out = []
    if r.get("reason") == "liuju":
        out.append("流局 (exhaustive draw): the wall is empty, nobody pays, hands stay hidden")
    if changes:
        after = _list(r.get("balances"))
        rows = [f"seat {i} {signed(c)}" + (f" → {signed(after[i])}" if i < len(after) else "")
                for i, c in enumerate(changes[:seat_count(view)])]
        out.append("settlement (chips this hand → balance): " + " · ".join(rows))
    if r:
        nd = seat_or_none(view, r.get("next_dealer"))
        if nd is not None:
            out.append(f"next dealer seat {nd}"
                       + (" · the game's last hand" if r.get("game_over") else ""))
    return [f'<div class="lj-info lj-lh-settle">{escape(line)}</div>' for line in out]


def centre_html(view: dict[str, Any]) -> str:
    """The middle of the table: hand, dealer, dice, wall, turn, claim window, pool, the wins
    with their splits and the settlement."""
    phase = str(view.get("phase", ""))
    turn = turn_text(view)
    parts = [f'<div class="lj-info"><b>{escape(turn)}</b></div>', _head_line(view),
             wall_html(view)]
    if PHASE_TEXT.get(phase, phase) != turn and phase != "over":
        parts.append(f'<div class="lj-info">now: {escape(PHASE_TEXT.get(phase, phase))}</div>')
    parts += [window_html(view), pool_html(view)]
    parts += [split_html(view, w) for w in _wins(view)]
    parts += _settlement_lines(view)
    return f'<div class="lj-centre">{"".join(parts)}</div>'


def table_html(view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole 扑克六湖 table as one HTML fragment: six seats around the centre, escaped."""
    return seats_table_html(view, players, seat_html, centre_html(view), css=LIUHU_CSS,
                            style=style)


# ---------------------------------------------------------------- events

def _face(e: Event) -> str:
    c = e.cards[0] if e.cards else None
    return format_face(c) if isinstance(c, int) and 0 <= c < 54 else "?"


def _start_detail(e: Event) -> str:
    p = event_payload(e)
    hands = _dict(p.get("options")).get("hands", "?")
    dice = "+".join(str(d) for d in _list(p.get("dice")))
    return (f"扑克六湖 hand {p.get('hand', e.value)} of {hands}, dealer seat "
            f"{p.get('dealer', e.target)}" + (f", dice {dice}" if dice else ""))


def _window_detail(e: Event) -> str:
    what = (f"robbing window on seat {e.target}'s 加杠 of {_face(e)}" if e.tag == "rob"
            else f"claim window on {_face(e)} from seat {e.target}")
    if e.value == NONE:
        return what
    eligible = [i for i in range(6) if e.value >> i & 1]
    return what + (": eligible seats " + ", ".join(map(str, eligible)) if eligible
                   else ": nobody may claim")


def _respond_detail(e: Event) -> str:
    if not e.tag:
        return "answers the window (hidden)"
    if e.tag == "pass":
        return "passes"
    cards = " ".join(format_face(c) for c in e.cards if isinstance(c, int) and 0 <= c < 54)
    return f"calls {CLAIM_TEXT.get(e.tag, e.tag)}" + (f" with {cards}" if cards else "")


def _award_detail(e: Event) -> str:
    p = event_payload(e)
    calls = []
    for c in _list(p.get("calls")):
        c = [str(x) for x in _list(c)]
        if len(c) >= 2:
            calls.append(f"seat {c[0]} {CLAIM_TEXT.get(c[1], c[1])}")
    if not calls:
        return "nobody claims"
    done = ", ".join(f"seat {s}" for s in _list(p.get("executed")))
    return f"calls: {'; '.join(calls)}; awarded to {done or 'nobody'}"


def _hu_detail(e: Event) -> str:
    what = WIN_TEXT.get(e.tag, e.tag).split(" ")[0]
    if e.tag == "zimo":
        return f"{what} — {e.value} hu"
    return f"{what} on {_face(e)} from seat {e.target} — {e.value} hu"


def _end_detail(e: Event) -> str:
    p = event_payload(e)
    if e.tag == "liuju":
        text = "hand over: 流局, nobody pays"
    else:
        wins = [w for w in _list(p.get("wins")) if isinstance(w, dict)]
        text = "hand over: " + (", ".join(f"seat {w.get('seat')} wins {w.get('total')} hu"
                                          for w in wins) or "won")
    text += f", next dealer seat {e.target}" if e.target != NONE else ""
    return text + (" (the game's last hand)" if p.get("game_over") else "")


def event_detail(e: Event) -> str:
    """What a 扑克六湖 event means beyond its cards, in a few words (only what the event as
    given shows: a seat's view has others' draws, the window's eligibility and answers
    removed)."""
    k = e.kind
    if k == "GAME_START":
        return _start_detail(e)
    if k == "WINDOW":
        return _window_detail(e)
    if k == "RESPOND":
        return _respond_detail(e)
    if k == "AWARD":
        return _award_detail(e)
    if k == "HU":
        return _hu_detail(e)
    if k == "GAME_END":
        return _end_detail(e)
    if k in ("CHI", "PENG", "MING_GANG"):
        word = {"CHI": "吃", "PENG": "碰", "MING_GANG": "明杠"}[k]
        return f"claims {word} on {_face(e)} from seat {e.target}"
    if k == "SETTLE":
        changes = _list(event_payload(e).get("changes"))
        return "settlement: " + " ".join(signed(c) for c in changes)
    simple = {
        "DEAL": f"the deal (dealer seat {e.target} holds one card more)",
        "DRAW": ("replacement draw from the tail" if e.tag == "tail"
                 else "draws from the front of the wall"),
        "DISCARD": "discards",
        "AN_GANG": "暗杠 concealed kong: one face shown, a replacement draw follows",
        "JIA_GANG": "加杠 adds the fourth card to his 碰: a robbing window opens",
        "LIUJU": "流局: the wall is empty, nobody wins",
    }.get(k)
    return simple if simple is not None else generic_detail(e)

