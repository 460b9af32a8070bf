"""六人斗地主 in the dashboard (``ddz6_3v3``, ``ddz6_2v4``, ``ddz6_zhengfan``): its table and its
event details.

Each seat shows its player, its role and side as this viewer knew them at this step (the view's
``roles``: 明 / 暗 open or hidden landlord, 大 / 二 big or second landlord, 正 / 反 landlord,
solo landlord, farmer; and ``sides``), its hand (faces, or a hidden count), its last act in
the round, the outcome once over and its flags: the marks it holds, its bid, its doubling or
show-hand choice, its side choice (站隊), its kitty share, the top play it made, the joker a
七星聚 locks in its hand. The centre shows the top play and who made it, the turn, the variant
and phase, the marks and the case, the bidding, the choices, the multiplier N and its parts
(the view's ``N_parts``), the kitty (a hidden count until a share is seen; the auditor sees
the cards not yet taken) and the settlement.

Only formats the view (``engine.games.ddz6.info.view``): a role or side unknown to the viewer
stays unknown here and nothing hidden is worked out. Everything from the view or the events is
escaped.
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
    seat_list,
    seat_or_none,
    seats_table_html,
    side_of,
    signed,
    to_act_seat,
)
from dashboards.tables.generic import generic_detail
from engine.cards import format_face
from engine.events import NONE, Event
from engine.games.ddz6.game import TITLES

PHASE_TEXT = {
    "start": "the deal, landlords and kitty", "bid": "叫分 bidding",
    "side": "站隊 side choosing", "double": "加倍 doubling", "show": "明牌加倍 show hand",
    "play": "出牌 play", "end": "the hand has ended: settlement next", "over": "hand over",
}
# What the seat the game waits for is to do, by phase.
DUE_TEXT = {
    "bid": "to bid (叫分)", "side": "to choose a side (站隊)", "double": "to double or not (加倍)",
    "show": "to decide on show hand (明牌加倍)",
}
CASE_TEXT = {
    "A": "M and two hidden landlords (each known only to himself until he plays an F card)",
    "B1": "M holds two F cards, one hidden landlord; the bid winner is the third landlord",
    "B2": "M and P (two F cards) are open landlords; the bid winner is the third",
    "C": "M holds all three F cards: 一打五, he plays alone",
}
REASON_TEXT = {
    "out": "went out", "case_c": "case C (M holds all three F cards, 一打五)",
    "a": "不打自贏 auto-win, condition (a)", "b": "不打自贏 auto-win, condition (b)",
    "c": "不打自贏 auto-win, condition (c)", "void": "void hand (scores 0)",
    "auto": "不打自贏 auto-win",
}
SIDE_WORDS = {"zheng": "正", "fan": "反", "landlord": "landlord", "farmer": "farmer"}
CHOICE_WORDS = {"DOUBLE": ("放棄 declines", "加倍 doubles"),
                "SHOW_HAND": ("keeps his hand hidden", "明牌加倍 shows his hand")}
CHOICE_SHORT = {"DOUBLE": ("declined", "doubled"), "SHOW_HAND": ("kept hidden", "shown")}
LANDLORD_GLOSS = {"zheng": "positive", "fan": "negative"}
ROLE_TEXT = {  # the view's ``roles``: (css class, label)
    "open_landlord": ("landlord", "明地主 open landlord"),
    "hidden_landlord": ("landlord", "暗地主 hidden landlord"),
    "big_landlord": ("landlord", "大地主 big landlord"),
    "second_landlord": ("landlord", "二地主 second landlord"),
    "zheng_landlord": ("zheng", "正地主 positive landlord"),
    "fan_landlord": ("fan", "反地主 negative landlord"),
    "solo_landlord": ("landlord", "地主 landlord · 一打五 solo"),
    "farmer": ("farmer", "farmer"),
}
AUTO_TEXT = {  # the automatic event the engine owes next (auditor's view); else its kind
    "BID": "the hidden landlord's recorded pass", "SIDE_CHOICE": "a placed farmer",
    "AUTO_END": "the auto-win", "SHOW_END": "the show-hand decisions",
    "LOCK": "the 七星聚 lock", "GAME_END": "the settlement",
}

DDZ6_CSS = """
.lj-ddz-role{display:inline-block;padding:0 .35em;border-radius:.3em;font-weight:600;
 background:#e5e7eb;color:#1f2328}
.lj-ddz-role.lj-ddz-landlord{background:#fde68a;color:#78350f}
.lj-ddz-role.lj-ddz-farmer{background:#d1fae5;color:#064e3b}
.lj-ddz-role.lj-ddz-zheng{background:#dbeafe;color:#1e3a8a}
.lj-ddz-role.lj-ddz-fan{background:#fee2e2;color:#7f1d1d}
.lj-ddz-role.lj-ddz-unknown{background:#f1f5f9;color:#57606a;font-weight:400}
.lj-seat.lj-ddz-lord{border-left:6px solid #d97706}
.lj-ddz-kitty,.lj-ddz-mult,.lj-ddz-last{font-size:.8rem}
.lj-ddz-mult b{font-size:1rem}
""".strip()


# ---------------------------------------------------------------- reading the view

def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _dict(d: dict[str, Any], key: str) -> dict[str, Any]:
    v = d.get(key)
    return v if isinstance(v, dict) else {}


def variant(view: dict[str, Any]) -> str:
    """The variant of the view's game: '3v3', '2v4', 'zhengfan' ('' when unknown)."""
    v = str(view.get("game", "")).removeprefix("ddz6_")
    return v if v in TITLES else ""


def _landlords(view: dict[str, Any]) -> list[int]:
    return seat_list(view, view.get("landlords"))


def _mark_seat(view: dict[str, Any]) -> int | None:
    return seat_or_none(view, _dict(view, "open_mark").get("seat"))


def _seat_choices(view: dict[str, Any], key: str) -> dict[int, int]:
    """Seat -> a choice of the view's ``doubling`` / ``show_hand`` / bids (those it shows)."""
    out = {}
    for k, v in (_dict(view, key).get("choices") or {}).items():
        seat = seat_or_none(view, int(k)) if str(k).isdecimal() else None
        if seat is not None and _int(v) is not None:
            out[seat] = v
    return out


def bids(view: dict[str, Any]) -> list[tuple[int, int]]:
    """The bids made so far, in order: (seat, 0 for 不叫 or 1-3 points)."""
    b = _dict(view, "bidding")
    order, made = b.get("order") or [], b.get("bids") or []
    if not isinstance(order, list) or not isinstance(made, list):
        return []
    return [(seat, v) for seat, v in zip(order, made, strict=False)
            if seat_or_none(view, seat) is not None and _int(v) is not None]


def bid_text(value: int) -> str:
    """A bid in words: '不叫 pass' or 'bids 2'."""
    return "不叫 pass" if value == 0 else f"bids {value}"


def kitty_shares(view: dict[str, Any]) -> list[tuple[int, Any]]:
    """The kitty shares taken: (seat, its faces when this viewer sees them, else the count)."""
    taken = _dict(view, "kitty").get("taken")
    out: list[tuple[int, Any]] = []
    for seat, share in enumerate(taken if isinstance(taken, list) else []):
        if seat_or_none(view, seat) is None:
            continue
        if isinstance(share, list) and share:
            out.append((seat, [str(f) for f in share]))
        elif _int(share):
            out.append((seat, share))
    return out


def _role_of(view: dict[str, Any], seat: int) -> str | None:
    """The view's ``roles`` entry of a seat (None when the view gives none)."""
    roles = view.get("roles")
    r = roles[seat] if isinstance(roles, list) and 0 <= seat < len(roles) else None
    return r if r in ROLE_TEXT else None


def role(view: dict[str, Any], seat: int) -> tuple[str, str]:
    """A seat's role and side as this viewer knew them (the view's ``roles`` and ``sides``):
    (css class, label); ('unknown', …) when the view gives neither."""
    side = side_of(view, seat)
    r = _role_of(view, seat)
    if r == "farmer" and side in ("zheng", "fan"):
        return side, f"{SIDE_WORDS[side]} farmer (with the {SIDE_WORDS[side]} landlord)"
    if r is not None:
        cls, label = ROLE_TEXT[r]
        if r == "farmer" and variant(view) == "zhengfan" and side is None:
            label += " · side unknown"
        return cls, label
    if side is None:
        if view.get("perspective") == "auditor":
            return "unknown", "no side yet"
        return "unknown", "side unknown"
    if side in ("zheng", "fan"):
        return side, f"{SIDE_WORDS[side]} {LANDLORD_GLOSS[side]}"
    return ("landlord", "地主 landlord") if side == "landlord" else (
        ("farmer", "farmer") if side == "farmer" else ("unknown", side))


# ---------------------------------------------------------------- seats

def _mark_flags(view: dict[str, Any], seat: int) -> list[str]:
    flags = []
    v = variant(view)
    om = _dict(view, "open_mark")
    if _mark_seat(view) == seat:
        face = om.get("face")
        flags.append(f"M: received the marked card (明牌) {face}" if v == "3v3"
                     else f"holds the open mark (明牌) {face}")
    if seat_or_none(view, view.get("dark_mark_seat")) == seat:
        flags.append("holds the dark mark")
    if v == "3v3":
        if seat_or_none(view, view.get("P")) == seat:
            flags.append("P: holds two F cards")
        revealed = seat_list(view, view.get("revealed"))
        if seat in seat_list(view, view.get("hidden")) and seat not in revealed:
            flags.append("hidden landlord: known only to himself")
        me = seat_or_none(view, view.get("perspective")) == seat
        if me and _role_of(view, seat) == "hidden_landlord" and seat not in revealed \
                and view.get("phase") not in ("end", "over"):
            flags.append("you are the hidden landlord (暗地主): only you know it until you "
                         "play an F card")
        if seat in revealed:
            flags.append("revealed: played an F card")
    return flags


def _choice_flags(view: dict[str, Any], seat: int) -> list[str]:
    flags = [bid_text(value) for s, value in bids(view) if s == seat]
    b = _dict(view, "bidding")
    if seat_or_none(view, b.get("winner")) == seat:
        flags.append(f"won the bidding with {b.get('bid')}")
    for key, kind in (("doubling", "DOUBLE"), ("show_hand", "SHOW_HAND")):
        choice = _seat_choices(view, key).get(seat)
        if choice in (0, 1):
            flags.append(CHOICE_WORDS[kind][choice])
    if seat in seat_list(view, view.get("shown")):
        flags.append("hand face up (明牌加倍)")
    sc = _dict(view, "side_choosing")
    side = _dict(sc, "sides").get(str(seat))
    if side in ("zheng", "fan"):
        how = "placed on" if seat in seat_list(view, sc.get("placed")) else "站隊 chose"
        flags.append(f"{how} {SIDE_WORDS[side]} ({side})")
    for s, share in kitty_shares(view):
        if s == seat:
            n = len(share) if isinstance(share, list) else share
            flags.append(f"took {n} kitty cards" + ("" if isinstance(share, list)
                                                     else " (hidden)"))
    return flags


def _play_flags(view: dict[str, Any], seat: int) -> list[str]:
    flags = []
    r = _dict(view, "round")
    if seat_or_none(view, r.get("leader")) == seat and view.get("phase") == "play":
        flags.append("led this round")
    top = r.get("top") if isinstance(r.get("top"), dict) else {}
    if seat_or_none(view, top.get("seat")) == seat:
        flags.append(f"made the top play ({top.get('combo')})")
    lock = seat_or_none(view, view.get("locked_seat"))
    if lock == seat and view.get("locked"):
        flags.append(f"holds the locked {view['locked']} (七星聚 lock)")
    result = _dict(view, "result")
    if seat_or_none(view, result.get("out_seat")) == seat:
        flags.append("went out")
    return flags


def seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    """What the view says of one seat: marks, bid, choices, side choice, kitty, this round."""
    return _mark_flags(view, seat) + _choice_flags(view, seat) + _play_flags(view, seat)


def _hand(view: dict[str, Any], seat: int) -> tuple[str, str, int]:
    """(the hand's HTML, the count for the seat head, the number of faces shown)."""
    hands = view.get("hands")
    hand = hands[seat] if isinstance(hands, list) and seat < len(hands) else None
    n = _int(hand)
    if n is not None:
        return hidden_html(n), f"{n} card{'s' * (n != 1)}", 0
    if not isinstance(hand, list):
        return hidden_html(None), "", 0
    faces = [str(f) for f in hand]
    k = len(faces)
    return cards_html(faces, empty="no cards"), f"{k} card{'s' * (k != 1)}", k


def last_act(view: dict[str, Any], seat: int) -> Any:
    """A seat's last act in the current round as the view gives it: None, 'pass', or
    (faces, combination)."""
    last = _dict(view, "round").get("last")
    a = last[seat] if isinstance(last, list) and 0 <= seat < len(last) else None
    if a == "pass":
        return a
    if isinstance(a, dict) and isinstance(a.get("cards"), list):
        return [str(f) for f in a["cards"]], str(a.get("combo") or "")
    return None


def _last_html(view: dict[str, Any], seat: int) -> str:
    a = last_act(view, seat)
    if a is None:
        return ""
    if a == "pass":
        body = "不出 passed"
    else:
        faces, combo = a
        body = "".join(card_html(f, data=False) for f in faces) + f" {escape(combo)}"
    return f'<div class="lj-ddz-last" data-last-seat="{seat}">this round: {body}</div>'


def seat_html(view: dict[str, Any], seat: int, player: str, *, area: str = "") -> str:
    """One seat's panel: player, side as this viewer knew it, hand, outcome and flags."""
    me = seat_or_none(view, view.get("perspective")) == seat
    to_act = to_act_seat(view) == seat
    outcome = outcome_of(view, seat)
    cls, label = role(view, seat)
    side = side_of(view, seat)
    lord = cls in ("landlord", "zheng", "fan") and _role_of(view, seat) not in (None, "farmer")
    classes = ["lj-seat"] + ["lj-ddz-lord"] * lord + ["lj-act"] * to_act
    classes += ["lj-me"] * me
    if outcome:
        classes.append({"win": "lj-won", "loss": "lj-lost", "draw": "lj-drew"}[outcome["result"]])
    body, count, shown = _hand(view, seat)
    data_side = f' data-side="{escape(side)}"' if side else ""
    head = [f'<span class="lj-ddz-role lj-ddz-{cls}"{data_side}>{escape(label)}</span>']
    if count:
        head.append(count)
    if to_act:
        head.append(escape(DUE_TEXT.get(str(view.get("phase")), "to act")))
    if outcome:
        head.append(outcome_html(outcome))
    flags = seat_flags(view, seat)
    flag_html = f'<div class="lj-flags">{escape(" · ".join(flags))}</div>' if flags else ""
    style = f' style="grid-area:{area}"' if area else ""
    return (
        f'<div data-seat="{seat}" class="{" ".join(classes)}"{style}>'
        f'<div class="lj-seat-head"><span class="lj-name">{"▶ " if to_act else ""}seat {seat} · '
        f"{escape(player)}</span>"
        f'<span class="lj-team">{" · ".join(head)}</span></div>'
        f"{hand_div(body, shown)}{_last_html(view, seat)}{flag_html}</div>"
    )


# ---------------------------------------------------------------- centre

def _top_html(view: dict[str, Any]) -> str:
    r = _dict(view, "round")
    top = r.get("top") if isinstance(r.get("top"), dict) else {}
    faces = [str(f) for f in top.get("cards") or []] if isinstance(top.get("cards"), list) else []
    if not faces:
        leader = seat_or_none(view, r.get("leader"))
        if view.get("phase") == "play" and leader is not None:
            return f'<div class="lj-top">no play on the table: seat {leader} leads</div>'
        return '<div class="lj-top">no play on the table</div>'
    maker = seat_or_none(view, top.get("seat"))
    who = f"by seat {maker}" if maker is not None else "by ?"
    passes = _int(r.get("passes")) or 0
    return (f'<div class="lj-top" title="top play">{cards_html(faces)}</div>'
            f'<div class="lj-info">top play {escape(str(top.get("combo", "")))} {who} · '
            f"{passes} pass{'es' * (passes != 1)} since</div>")


def turn_text(view: dict[str, Any], players: Sequence[str] | None = None) -> str:
    """Whose turn it is (and what for), the automatic event owed, or the result: plain text."""
    summary = result_summary(view, players)
    if summary:
        return f"hand over: {summary}"
    seat = to_act_seat(view)
    phase = str(view.get("phase", ""))
    if seat is not None:
        if phase == "play":
            top = _dict(view, "round").get("top")
            return f"seat {seat} " + ("to play or pass" if top else "to lead")
        return f"seat {seat} {DUE_TEXT.get(phase, 'to act')}"
    auto = view.get("next_auto")
    if auto:
        name = AUTO_TEXT.get(str(auto), "the " + str(auto).lower().replace("_", " "))
        return f"next: {name} (the engine's)"
    if phase in DUE_TEXT and view.get("perspective") != "auditor":
        return f"{PHASE_TEXT[phase]}: waiting for another seat or the engine"
    return PHASE_TEXT.get(phase, phase)


def _identity_lines(view: dict[str, Any]) -> list[str]:
    v = variant(view)
    om = _dict(view, "open_mark")
    m = _mark_seat(view)
    out = []
    if m is not None:
        face = card_html(str(om.get("face")), data=False)
        if v == "3v3":
            line = f"marked card (明牌) F {face}, M = seat {m}"
            case = view.get("case")
            if case:
                line += f" · case {escape(str(case))}: {escape(CASE_TEXT.get(case, ''))}"
            p = seat_or_none(view, view.get("P"))
            if p is not None:
                line += f" · P = seat {p}"
        else:
            line = f"open mark (明牌) {face} at seat {m}"
            if "dark_mark_seat" in view:
                dm = seat_or_none(view, view.get("dark_mark_seat"))
                line += (f" · dark mark at seat {dm}" if dm is not None else
                         " · dark mark: secret until the first landlord is fixed")
        out.append(line)
    lords = _landlords(view)
    if lords:
        names = ", ".join(f"seat {x}" for x in lords)
        solo = " · 一打五 solo" if view.get("solo") else ""
        public = view.get("perspective") == "auditor" or view.get("phase") in ("end", "over")
        known = "" if public else " (as this seat knows them)"
        out.append(f"地主 landlords{known}: {names}{solo}")
    hidden = seat_list(view, view.get("hidden"))
    if hidden:
        revealed = seat_list(view, view.get("revealed"))
        out.append("hidden landlords: " + ", ".join(
            f"seat {x}" + (" (revealed)" if x in revealed else "") for x in hidden))
    return [f'<div class="lj-info">{line}</div>' for line in out]


def _bidding_line(view: dict[str, Any]) -> str:
    if "bidding" not in view:
        return ""
    b = _dict(view, "bidding")
    made = bids(view)
    if not made and not b.get("order"):
        return ""
    text = "; ".join(f"seat {s} {bid_text(v)}" for s, v in made) or "no bid yet"
    winner = seat_or_none(view, b.get("winner"))
    if winner is not None:
        text += f" · winner seat {winner} with {b.get('bid')}"
    return f'<div class="lj-info">叫分 bidding: {escape(text)}</div>'


def _choices_line(view: dict[str, Any]) -> str:
    key, kind, name = (("doubling", "DOUBLE", "加倍 doubling") if "doubling" in view
                       else ("show_hand", "SHOW_HAND", "明牌加倍 show hand"))
    d = _dict(view, key)
    choices = _seat_choices(view, key)
    if not d or (not choices and view.get("phase") not in ("double", "show")):
        return ""
    text = "; ".join(f"seat {s} {CHOICE_SHORT[kind][c]}"
                     for s, c in sorted(choices.items()) if c in (0, 1))
    if not d.get("complete"):
        text = (text + " · " if text else "") + "the choices are shown together once all are made"
    return f'<div class="lj-info">{escape(name)}: {escape(text or "none")}</div>'


def _sides_line(view: dict[str, Any]) -> str:
    sc = _dict(view, "side_choosing")
    farmers = seat_list(view, sc.get("farmers"))
    if not farmers:
        return ""
    seen = _dict(sc, "sides")
    bits = [f"seat {x} {SIDE_WORDS[seen[str(x)]]}" for x in farmers
            if seen.get(str(x)) in ("zheng", "fan")]
    state = "ended" if sc.get("ended") else "in progress"
    text = f"farmers in order: {', '.join(map(str, farmers))} · {state}"
    if bits:
        text += " · " + "; ".join(bits)
    return f'<div class="lj-info">站隊 side choosing: {escape(text)}</div>'


def _mult_html(view: dict[str, Any]) -> str:
    n, s = _int(view.get("N")), _int(view.get("S"))
    r = _dict(view, "result")
    bits = [f"倍数 multiplier <b>N = {n if n is not None else '?'}</b>",
            f"base score S = {s if s is not None else '?'}"]
    if _int(r.get("W")) is not None:
        bits.append(f"W = {r['W']}")
    parts = r.get("N_parts") if isinstance(r.get("N_parts"), dict) else _dict(view, "N_parts")
    words = []
    for key, word in (("doubles", "加倍 doubles"), ("show_hand", "明牌加倍 show hand")):
        if _int(parts.get(key)) is not None:
            words.append(f"{word} +{parts[key]}")
    incs = parts.get("bombs")
    if isinstance(incs, list):
        shown = " ".join(f"+{x}" for x in incs if _int(x) is not None)
        words.append(f"炸彈 bombs {shown or 'none'}")
    if words:
        bits.append("N = 1 + " + escape(", ".join(words)))
    return (f'<div class="lj-info lj-ddz-mult" data-n="{n if n is not None else ""}">'
            f'{" · ".join(bits)}</div>')


def kitty_html(view: dict[str, Any]) -> str:
    """The kitty: the cards not yet taken as a hidden count, each share taken as faces when this
    viewer sees them (else a hidden count); '' for a game without a kitty."""
    k = _dict(view, "kitty")
    left = _int(k.get("left")) or 0
    shares = kitty_shares(view)
    if not left and not shares:
        return ""
    bits = []
    untaken = k.get("cards")
    if left and isinstance(untaken, list) and untaken:
        bits.append(f'<span data-kitty-untaken="{left}">not yet taken '
                    f"{cards_html([str(f) for f in untaken])}</span>")
    elif left:
        bits.append(f"not yet taken {hidden_html(left)}")
    for seat, share in shares:
        body = cards_html(share) if isinstance(share, list) else hidden_html(share)
        bits.append(f'<span data-kitty-seat="{seat}">seat {seat} took {body}</span>')
    return f'<div class="lj-info lj-ddz-kitty">kitty: {" · ".join(bits)}</div>'


def _settlement_lines(view: dict[str, Any]) -> list[str]:
    r = _dict(view, "result")
    if not r:
        return []
    reason = str(r.get("reason", ""))
    out_seat = seat_or_none(view, r.get("out_seat"))
    how = (f"seat {out_seat} went out" if reason == "out" and out_seat is not None
           else REASON_TEXT.get(reason, reason))
    win = r.get("winning_side")
    head = f"settlement: {how} · " + (f"the {SIDE_WORDS.get(win, win)} side wins" if win
                                      else "no side wins")
    scores, sides = r.get("scores"), r.get("sides")
    rows = []
    if isinstance(scores, list):
        for i in range(min(len(scores), seat_count(view))):
            side = sides[i] if isinstance(sides, list) and i < len(sides) else None
            rows.append(f"seat {i}" + (f" ({SIDE_WORDS.get(side, side)})" if side else "")
                        + f" {signed(scores[i])}")
    lines = [head] + ([" · ".join(rows)] if rows else [])
    return [f'<div class="lj-info">{escape(line)}</div>' for line in lines]


def centre_html(view: dict[str, Any]) -> str:
    """The middle of the table: top play, turn, variant and phase, marks and landlords, bids,
    choices, side choosing, multiplier, kitty, 七星聚 lock and the settlement."""
    v = variant(view)
    r = _dict(view, "round")
    phase = str(view.get("phase", ""))
    number = _int(r.get("number")) or 0
    where = f" · round {number}" if number else ""
    parts = [_top_html(view),
             f'<div class="lj-info"><b>{escape(turn_text(view))}</b></div>',
             f'<div class="lj-info">{escape(TITLES.get(v, str(view.get("game", ""))))} · '
             f"{escape(PHASE_TEXT.get(phase, phase))}{where}</div>",
             *_identity_lines(view), _bidding_line(view), _choices_line(view),
             _sides_line(view), _mult_html(view), kitty_html(view)]
    if view.get("locked"):
        holder = seat_or_none(view, view.get("locked_seat"))
        held = f" (held by seat {holder})" if holder is not None else ""
        parts.append(f'<div class="lj-pending">七星聚 lock: {card_html(str(view["locked"]))}'
                     f"{held} can no longer be played</div>")
    parts += _settlement_lines(view)
    return f'<div class="lj-centre">{"".join(parts)}</div>'


def table_html(view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole 六人斗地主 table as one HTML fragment: six seats around the centre, escaped."""
    return seats_table_html(view, players, seat_html, centre_html(view), css=DDZ6_CSS,
                            style=style)


# ---------------------------------------------------------------- events

def _side_names(payload: dict[str, Any]) -> tuple[str, str]:
    """The words of side codes 0 and 1 in a HAND_END: 正 / 反 when its sides are named so."""
    sides = payload.get("sides")
    if isinstance(sides, list) and {"zheng", "fan"} & set(map(str, sides)):
        return "正 (zheng)", "反 (fan)"
    return "landlord", "farmer"


def _choice_detail(e: Event) -> str:
    words = CHOICE_WORDS[e.kind]
    if e.value in (0, 1):
        return words[e.value]
    what = "doubling" if e.kind == "DOUBLE" else "show hand"
    return f"decides on {what} (shown when all have decided)"


def _hand_end_detail(e: Event) -> str:
    p = event_payload(e)
    names = _side_names(p)
    how = (f"seat {e.seat} went out" if e.tag == "out" and e.seat >= 0
           else REASON_TEXT.get(e.tag, e.tag))
    win = f"the {names[e.value]} side wins" if e.value in (0, 1) else "no side wins"
    return f"hand over: {how}, {win}; every hand and side is shown"


def _game_end_detail(e: Event) -> str:
    p = event_payload(e)
    win = p.get("winning_side")
    bits = [f"S {p.get('S')} × N {p.get('N')}, W {p.get('W')}",
            f"the {SIDE_WORDS.get(win, win)} side wins" if win else "no side wins"]
    scores = p.get("scores")
    if isinstance(scores, list):
        bits.append("scores " + " ".join(signed(x) for x in scores))
    return "settlement: " + ", ".join(str(b) for b in bits)


def _deal_detail(e: Event) -> str:
    text = f"{len(e.cards)} cards dealt, the mark (明牌) at deck position {e.value}"
    dark = event_payload(e).get("dark")
    if _int(dark) is not None:
        text += f", dark mark at deck position {dark}"
    return text


def _start_detail(e: Event) -> str:
    p = event_payload(e)
    v = str(p.get("game", "")).removeprefix("ddz6_")
    return f"{TITLES.get(v, '六人斗地主')}, {len(e.cards) or 'a'} card deck order recorded"


def _landlords_detail(e: Event) -> str:
    if e.value == 1:
        return f"seat {e.seat} holds both marks: 一打五, he plays alone and takes all 12 kitty cards"
    if not e.tag:
        return f"landlords: 正 seat {e.seat} (open mark), 反 seat {e.target} (dark mark)"
    how = {"bid": "won the bidding", "om": "nobody bid: the open mark's holder"}.get(e.tag, e.tag)
    return f"landlords: big seat {e.seat} ({how}), second seat {e.target} (the dark mark)"


def _sides_end_detail(e: Event) -> str:
    if e.value == NONE:
        return "side choosing has ended"
    fan = [i for i in range(6) if e.value >> i & 1]
    return ("side choosing has ended; 反 side: seats " + ", ".join(map(str, fan)))


def _simple_detail(e: Event) -> str | None:
    """The details that need only the event's own fields."""
    k = e.kind
    return {
        "CASE": (f"case {e.tag}: {CASE_TEXT.get(e.tag, '')}"
                 + (f"; P = seat {e.target}" if e.target != NONE else "")),
        "BID": bid_text(e.value) if e.value != NONE else "speaks",
        "BID_END": (f"seat {e.seat} wins the bidding with {e.value}" if e.seat >= 0
                    else "nobody bid (不叫)"),
        "KITTY": f"seat {e.seat} takes {e.value} kitty cards",
        "REVEAL": f"seat {e.seat} played an F card: revealed as a landlord",
        "SHOW_END": f"show hand decided: N = {e.value}"
                    + (", hands shown: seats " + ", ".join(str(i) for i in range(6)
                                                           if e.target >> i & 1)
                       if e.target > 0 else ", no hand shown"),
        "AUTO_END": f"{REASON_TEXT.get(e.tag, e.tag)}"
                    + (f" by seat {e.seat}" if e.seat >= 0 else ""),
        "PLAY": f"{e.tag}, N = {e.value}",
        "PASS": "不出 passes",
        "LOCK": f"七星聚 lock: seat {e.seat}'s "
                + (format_face(e.cards[0]) if e.cards and 0 <= e.cards[0] < 54 else "joker")
                + " can no longer be played",
        "ROUND_END": (f"round {e.value} won by seat {e.target}, seat {e.seat} leads"
                      + (" (the lead passes on: 七星聚 lock)" if e.tag == "lock" else "")),
    }.get(k)


def event_detail(e: Event) -> str:
    """What a 六人斗地主 event means beyond its cards, in a few words (only what the event as
    given shows: a seat's view has the hidden choices removed)."""
    k = e.kind
    if k == "GAME_START":
        return _start_detail(e)
    if k == "DEAL":
        return _deal_detail(e)
    if k == "LANDLORDS":
        return _landlords_detail(e)
    if k in ("DOUBLE", "SHOW_HAND"):
        return _choice_detail(e)
    if k == "SIDE_CHOICE":
        if e.value in (0, 1):
            side = ("正", "反")[e.value]
            return f"placed on {side}" if e.tag == "placed" else f"chooses {side}"
        return "is given a side (站隊)"
    if k == "SIDES_END":
        return _sides_end_detail(e)
    if k == "HAND_END":
        return _hand_end_detail(e)
    if k == "GAME_END":
        return _game_end_detail(e)
    simple = _simple_detail(e)
    return simple if simple is not None else generic_detail(e)
