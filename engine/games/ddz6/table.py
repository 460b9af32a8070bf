"""六人斗地主's table as the neutral model (``engine.table``), shared by ``ddz6_3v3``, ``ddz6_2v4``
and ``ddz6_zhengfan``.

Each seat shows its player, its role and side as this viewer knew them at this step (the view's
``roles``: 明 / 暗 open or hidden landlord, 大 / 二 big or second landlord, 正 / 反 landlord,
solo landlord, farmer; and ``sides``) as a coloured badge (landlord amber, farmer green, 正
blue, 反 red, unknown grey; a landlord's panel has the edge of his colour), its hand (faces, or
a hidden count), what it is due to do, its last act in the round, the outcome once over and
its flags: the marks it holds, its bid, its doubling or show-hand choice, its side choice
(站隊), its kitty share, the top play it made, the joker a 七星聚 locks in its hand. The centre
shows the top play and who made it, the turn, the variant and phase, the marks and the case,
the bidding, the choices, the multiplier N and its parts (the view's ``N_parts``), the kitty
(a hidden count until a share is seen; the auditor sees the cards not yet taken), the lock and
the settlement (its per-seat scores as a grid).

Only reads the view (``engine.games.ddz6.info.view``): a role or side unknown to the viewer
stays unknown here and nothing hidden is worked out. Nothing here draws or escapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.games.ddz6.describe import (
    CASE_TEXT,
    CHOICE_SHORT,
    CHOICE_WORDS,
    LANDLORD_GLOSS,
    REASON_TEXT,
    SIDE_WORDS,
    bid_text,
    describe,
)
from engine.games.ddz6.game import TITLES
from engine.table import (
    Badge,
    Faces,
    Grid,
    Group,
    Hidden,
    Line,
    SeatModel,
    TableModel,
    Text,
    Tone,
    as_dict,
    as_int,
    base_seat,
    faces_of,
    line,
    model,
    result_summary,
    seat_count,
    seat_list,
    seat_names,
    seat_or_none,
    side_of,
    signed,
    to_act_seat,
)

__all__ = ["describe", "table"]

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
ROLE_TEXT = {  # the view's ``roles``: (kind, label)
    "open_landlord": ("landlord", "明地主 open landlord"),
    "hidden_landlord": ("landlord", "暗地主 hidden landlord"),
    "big_landlord": ("landlord", "大地主 big landlord"),
    "second_landlord": ("landlord", "二地主 second landlord"),
    "zheng_landlord": ("zheng", "正地主 positive landlord"),
    "fan_landlord": ("fan", "反地主 negative landlord"),
    "solo_landlord": ("landlord", "地主 landlord · 一打五 solo"),
    "farmer": ("farmer", "farmer"),
}
ROLE_TONES: dict[str, Tone] = {"landlord": "amber", "farmer": "green", "zheng": "blue",
                               "fan": "red", "unknown": "grey"}
AUTO_TEXT = {  # the automatic event the engine owes next (auditor's view); else its kind
    "BID": "the hidden landlord's recorded pass", "SIDE_CHOICE": "a placed farmer",
    "AUTO_END": "the auto-win", "SHOW_END": "the show-hand decisions",
    "LOCK": "the 七星聚 lock", "GAME_END": "the settlement",
}
PER_LINE = 3      # bids, choices and side choices per centre line (the oval is narrow)


def _chunks(bits: list[str], sep: str = "; ") -> list[str]:
    """Bits joined ``PER_LINE`` to a line."""
    return [sep.join(bits[i:i + PER_LINE]) for i in range(0, len(bits), PER_LINE)]


# ---------------------------------------------------------------- reading the view

def variant(view: dict[str, Any]) -> str:
    """The variant of the view's game: '3v3', '2v4', 'zhengfan' ('' when unknown)."""
    v = str(view.get("game", "")).removeprefix("ddz6_")
    return v if v in TITLES else ""


def _mark_seat(view: dict[str, Any]) -> int | None:
    return seat_or_none(view, as_dict(view.get("open_mark")).get("seat"))


def _seat_choices(view: dict[str, Any], key: str) -> dict[int, int]:
    """Seat -> a choice of the view's ``doubling`` / ``show_hand`` (those it shows)."""
    out = {}
    for k, v in as_dict(as_dict(view.get(key)).get("choices")).items():
        seat = seat_or_none(view, int(k)) if str(k).isdecimal() else None
        if seat is not None and as_int(v) is not None:
            out[seat] = v
    return out


def bids(view: dict[str, Any]) -> list[tuple[int, int]]:
    """The bids made so far, in order: (seat, 0 for 不叫 or 1-3 points)."""
    b = as_dict(view.get("bidding"))
    order, made = b.get("order") or [], b.get("bids") or []
    if not isinstance(order, list) or not isinstance(made, list):
        return []
    return [(seat, v) for seat, v in zip(order, made, strict=False)
            if seat_or_none(view, seat) is not None and as_int(v) is not None]


def kitty_shares(view: dict[str, Any]) -> list[tuple[int, tuple[str, ...] | int]]:
    """The kitty shares taken: (seat, its faces when this viewer sees them, else the count)."""
    taken = as_dict(view.get("kitty")).get("taken")
    out: list[tuple[int, tuple[str, ...] | int]] = []
    for seat, share in enumerate(taken if isinstance(taken, list) else []):
        if seat_or_none(view, seat) is None:
            continue
        if isinstance(share, list) and share:
            out.append((seat, faces_of(share)))
        elif as_int(share):
            out.append((seat, share))
    return out


def _role_of(view: dict[str, Any], seat: int) -> str | None:
    """The view's ``roles`` entry of a seat (None when the view gives none)."""
    roles = view.get("roles")
    r = roles[seat] if isinstance(roles, list) and 0 <= seat < len(roles) else None
    return r if r in ROLE_TEXT else None


def role(view: dict[str, Any], seat: int) -> tuple[str, str]:
    """A seat's role and side as this viewer knew them (the view's ``roles`` and ``sides``):
    (kind, label), the kind a key of ``ROLE_TONES``; ('unknown', …) when the view gives
    neither."""
    side = side_of(view, seat)
    r = _role_of(view, seat)
    if r == "farmer" and side in ("zheng", "fan"):
        return side, f"{SIDE_WORDS[side]} farmer (with the {SIDE_WORDS[side]} landlord)"
    if r is not None:
        kind, label = ROLE_TEXT[r]
        if r == "farmer" and variant(view) == "zhengfan" and side is None:
            label += " · side unknown"
        return kind, label
    if side is None:
        if view.get("perspective") == "auditor":
            return "unknown", "no side yet"
        return "unknown", "side unknown"
    if side in ("zheng", "fan"):
        return side, f"{SIDE_WORDS[side]} {LANDLORD_GLOSS[side]}"
    return ("landlord", "地主 landlord") if side == "landlord" else (
        ("farmer", "farmer") if side == "farmer" else ("unknown", side))


def last_act(view: dict[str, Any], seat: int) -> Any:
    """A seat's last act in the current round as the view gives it: None, 'pass', or
    (faces, combination)."""
    last = as_dict(view.get("round")).get("last")
    a = last[seat] if isinstance(last, list) and 0 <= seat < len(last) else None
    if a == "pass":
        return a
    if isinstance(a, dict) and isinstance(a.get("cards"), list):
        return faces_of(a["cards"]), str(a.get("combo") or "")
    return None


# ---------------------------------------------------------------- seats

def _mark_flags(view: dict[str, Any], seat: int) -> list[str]:
    flags = []
    v = variant(view)
    if _mark_seat(view) == seat:
        face = as_dict(view.get("open_mark")).get("face")
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
    b = as_dict(view.get("bidding"))
    if seat_or_none(view, b.get("winner")) == seat:
        flags.append(f"won the bidding with {b.get('bid')}")
    for key, kind in (("doubling", "DOUBLE"), ("show_hand", "SHOW_HAND")):
        choice = _seat_choices(view, key).get(seat)
        if choice in (0, 1):
            flags.append(CHOICE_WORDS[kind][choice])
    if seat in seat_list(view, view.get("shown")):
        flags.append("hand face up (明牌加倍)")
    sc = as_dict(view.get("side_choosing"))
    side = as_dict(sc.get("sides")).get(str(seat))
    if side in ("zheng", "fan"):
        how = "placed on" if seat in seat_list(view, sc.get("placed")) else "站隊 chose"
        flags.append(f"{how} {SIDE_WORDS[side]} ({side})")
    for s, share in kitty_shares(view):
        if s == seat:
            n = share if isinstance(share, int) else len(share)
            flags.append(f"took {n} kitty cards" + ("" if not isinstance(share, int)
                                                     else " (hidden)"))
    return flags


def _play_flags(view: dict[str, Any], seat: int) -> list[str]:
    flags = []
    r = as_dict(view.get("round"))
    if seat_or_none(view, r.get("leader")) == seat and view.get("phase") == "play":
        flags.append("led this round")
    top = as_dict(r.get("top"))
    if seat_or_none(view, top.get("seat")) == seat:
        flags.append(f"made the top play ({top.get('combo')})")
    lock = seat_or_none(view, view.get("locked_seat"))
    if lock == seat and view.get("locked"):
        flags.append(f"holds the locked {view['locked']} (七星聚 lock)")
    if seat_or_none(view, as_dict(view.get("result")).get("out_seat")) == seat:
        flags.append("went out")
    return flags


def seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    """What the view says of one seat: marks, bid, choices, side choice, kitty, this round."""
    return _mark_flags(view, seat) + _choice_flags(view, seat) + _play_flags(view, seat)


def seat_notes(view: dict[str, Any], seat: int) -> list[Line]:
    """The lines under a seat's hand: what it is due to do (outside play), a pass as its
    last act in the round (``data-last-seat``)."""
    out = []
    phase = str(view.get("phase", ""))
    if to_act_seat(view) == seat and phase in DUE_TEXT:
        out.append(line(DUE_TEXT[phase], kind="turn"))
    if last_act(view, seat) == "pass":
        out.append(line("this round: 不出 passed", data=(("last-seat", str(seat)),)))
    return out


def seat_groups(view: dict[str, Any], seat: int) -> list[Group]:
    """A play as the seat's last act in the round: its cards and combination, labelled 'this
    round' (``data-last-seat``); not counted, since the cards lie on the table or in the top
    play."""
    a = last_act(view, seat)
    if a is None or a == "pass":
        return []
    faces, combo = a
    return [Group("this round", faces, note=combo, counted=False,
                  data=(("last-seat", str(seat)),))]


def seat_model(view: dict[str, Any], seat: int, name: str) -> SeatModel:
    """One seat: the role badge (with its side), the hand, the due act, the last act, flags;
    a landlord's panel has the edge of his colour."""
    kind, label = role(view, seat)
    tone = ROLE_TONES.get(kind, "grey")
    r = _role_of(view, seat)
    lord = kind in ("landlord", "zheng", "fan") and r not in (None, "farmer")
    return base_seat(view, seat, name, badges=(Badge(label, tone, side=side_of(view, seat)),),
                     tone=tone if lord else "", flags=tuple(seat_flags(view, seat)),
                     groups=tuple(seat_groups(view, seat)), notes=tuple(seat_notes(view, seat)),
                     data=(("role", r),) if r is not None else ())


# ---------------------------------------------------------------- centre

def _top_lines(view: dict[str, Any]) -> list[Line]:
    r = as_dict(view.get("round"))
    top = as_dict(r.get("top"))
    faces = faces_of(top.get("cards"))
    if not faces:
        leader = seat_or_none(view, r.get("leader"))
        if view.get("phase") == "play" and leader is not None:
            return [line(f"no play on the table: seat {leader} leads", kind="top")]
        return [line("no play on the table", kind="top")]
    maker = seat_or_none(view, top.get("seat"))
    who = f"by seat {maker}" if maker is not None else "by ?"
    passes = as_int(r.get("passes")) or 0
    return [line(faces, kind="top", title="top play"),
            line(f"top play {top.get('combo', '')} {who} · "
                 f"{passes} pass{'es' * (passes != 1)} since")]


def turn_text(view: dict[str, Any], players: Sequence[str] | None = None) -> str:
    """Whose turn it is (and what for), the automatic event owed, or the result: plain text."""
    summary = result_summary(view, players)
    if summary:
        return f"hand over: {summary}"
    seat = to_act_seat(view)
    phase = str(view.get("phase", ""))
    if seat is not None:
        if phase == "play":
            top = as_dict(view.get("round")).get("top")
            return f"seat {seat} " + ("to play or pass" if top else "to lead")
        return f"seat {seat} {DUE_TEXT.get(phase, 'to act')}"
    auto = view.get("next_auto")
    if auto:
        name = AUTO_TEXT.get(str(auto), "the " + str(auto).lower().replace("_", " "))
        return f"next: {name} (the engine's)"
    if phase in DUE_TEXT and view.get("perspective") != "auditor":
        return f"{PHASE_TEXT[phase]}: waiting for another seat or the engine"
    return PHASE_TEXT.get(phase, phase)


def _mark_lines(view: dict[str, Any]) -> list[Line]:
    """The open mark (3v3: the marked card F, M, the case, P; else the dark mark too)."""
    m = _mark_seat(view)
    if m is None:
        return []
    face = Faces((str(as_dict(view.get("open_mark")).get("face")),), counted=False)
    if variant(view) == "3v3":
        out = [line("marked card (明牌) F ", face, f", M = seat {m}")]
        case = view.get("case")
        if case:
            out.append(line(f"case {case}: {CASE_TEXT.get(case, '')}"))
        p = seat_or_none(view, view.get("P"))
        if p is not None:
            out.append(line(f"P = seat {p}"))
        return out
    dark = ""
    if "dark_mark_seat" in view:
        dm = seat_or_none(view, view.get("dark_mark_seat"))
        dark = (f" · dark mark at seat {dm}" if dm is not None else
                " · dark mark: secret until the first landlord is fixed")
    return [line("open mark (明牌) ", face, f" at seat {m}{dark}")]


def _landlord_lines(view: dict[str, Any]) -> list[Line]:
    out = []
    lords = seat_list(view, view.get("landlords"))
    if lords:
        names = ", ".join(f"seat {x}" for x in lords)
        solo = " · 一打五 solo" if view.get("solo") else ""
        public = view.get("perspective") == "auditor" or view.get("phase") in ("end", "over")
        known = "" if public else " (as this seat knows them)"
        out.append(line(f"地主 landlords{known}: {names}{solo}"))
    hidden = seat_list(view, view.get("hidden"))
    if hidden:
        revealed = seat_list(view, view.get("revealed"))
        out.append(line("hidden landlords: " + ", ".join(
            f"seat {x}" + (" (revealed)" if x in revealed else "") for x in hidden)))
    return out


def _bidding_lines(view: dict[str, Any]) -> list[Line]:
    if "bidding" not in view:
        return []
    b = as_dict(view.get("bidding"))
    made = bids(view)
    if not made and not b.get("order"):
        return []
    rows = _chunks([f"seat {s} {bid_text(v)}" for s, v in made]) or ["no bid yet"]
    winner = seat_or_none(view, b.get("winner"))
    if winner is not None:
        rows[-1] += f" · winner seat {winner} with {b.get('bid')}"
    return [line("叫分 bidding: " + rows[0]), *(line(r) for r in rows[1:])]


def _choices_lines(view: dict[str, Any]) -> list[Line]:
    key, kind, name = (("doubling", "DOUBLE", "加倍 doubling") if "doubling" in view
                       else ("show_hand", "SHOW_HAND", "明牌加倍 show hand"))
    d = as_dict(view.get(key))
    choices = _seat_choices(view, key)
    if not d or (not choices and view.get("phase") not in ("double", "show")):
        return []
    rows = _chunks([f"seat {s} {CHOICE_SHORT[kind][c]}"
                    for s, c in sorted(choices.items()) if c in (0, 1)])
    if not d.get("complete"):
        rows.append("the choices are shown together once all are made")
    rows = rows or ["none"]
    return [line(f"{name}: {rows[0]}"), *(line(r) for r in rows[1:])]


def _sides_lines(view: dict[str, Any]) -> list[Line]:
    sc = as_dict(view.get("side_choosing"))
    farmers = seat_list(view, sc.get("farmers"))
    if not farmers:
        return []
    seen = as_dict(sc.get("sides"))
    bits = [f"seat {x} {SIDE_WORDS[seen[str(x)]]}" for x in farmers
            if seen.get(str(x)) in ("zheng", "fan")]
    state = "ended" if sc.get("ended") else "in progress"
    return [line(f"站隊 side choosing: farmers in order: {', '.join(map(str, farmers))} · "
                 f"{state}"), *(line(r) for r in _chunks(bits))]


def _mult_lines(view: dict[str, Any]) -> list[Line]:
    """The multiplier N (``data-n``), the base score S, W once settled; then N's parts."""
    n, s = as_int(view.get("N")), as_int(view.get("S"))
    r = as_dict(view.get("result"))
    bits = [f"base score S = {s if s is not None else '?'}"]
    if as_int(r.get("W")) is not None:
        bits.append(f"W = {r['W']}")
    out = [line("倍数 multiplier ", Text(f"N = {n if n is not None else '?'}"),
                " · " + " · ".join(bits), data=(("n", "" if n is None else str(n)),))]
    parts = as_dict(r.get("N_parts") if isinstance(r.get("N_parts"), dict)
                    else view.get("N_parts"))
    words = []
    for key, word in (("doubles", "加倍 doubles"), ("show_hand", "明牌加倍 show hand")):
        if as_int(parts.get(key)) is not None:
            words.append(f"{word} +{parts[key]}")
    if words:
        out.append(line("N = 1 + " + ", ".join(words)))
    incs = parts.get("bombs")
    if isinstance(incs, list):
        shown = " ".join(f"+{x}" for x in incs if as_int(x) is not None)
        out.append(line(f"炸彈 bombs {shown or 'none'}"))
    return out


def kitty_lines(view: dict[str, Any]) -> list[Line]:
    """The kitty, a line each: the cards not yet taken (faces for the auditor, else a hidden
    count, ``data-kitty-untaken``), each share taken (faces when this viewer sees them, else
    a hidden count, ``data-kitty-seat``); none for a game without a kitty."""
    k = as_dict(view.get("kitty"))
    left = as_int(k.get("left")) or 0
    out = []
    untaken = faces_of(k.get("cards"))
    if left and untaken:
        out.append(line("kitty: not yet taken ", untaken,
                        data=(("kitty-untaken", str(left)),)))
    elif left:
        out.append(line("kitty: not yet taken ", Hidden(left)))
    for seat, share in kitty_shares(view):
        body = Hidden(share) if isinstance(share, int) else share
        out.append(line(f"kitty: seat {seat} took ", body, data=(("kitty-seat", str(seat)),)))
    return out


def _lock_lines(view: dict[str, Any]) -> list[Line]:
    if not view.get("locked"):
        return []
    holder = seat_or_none(view, view.get("locked_seat"))
    held = f" (held by seat {holder})" if holder is not None else ""
    return [line("七星聚 lock: ", [str(view["locked"])], f"{held} can no longer be played",
                 kind="pending")]


def settlement(view: dict[str, Any]) -> list[Line | Grid]:
    """The settlement: how the hand ended, then under which side wins a grid of each seat's
    side and score, a row a seat (``data-settle-seat``, ``-side`` the view's side code,
    ``-score`` the number)."""
    r = as_dict(view.get("result"))
    if not r:
        return []
    reason = str(r.get("reason", ""))
    out_seat = seat_or_none(view, r.get("out_seat"))
    how = (f"seat {out_seat} went out" if reason == "out" and out_seat is not None
           else REASON_TEXT.get(reason, reason))
    win = r.get("winning_side")
    wins = f"the {SIDE_WORDS.get(win, win)} side wins" if win else "no side wins"
    out: list[Line | Grid] = [line(f"settlement: {how}")]
    scores, sides = r.get("scores"), r.get("sides")
    if not isinstance(scores, list):
        out.append(line(wins))
    else:
        n = min(len(scores), seat_count(view))
        side = [sides[i] if isinstance(sides, list) and i < len(sides) and sides[i] else ""
                for i in range(n)]
        rows = tuple(((str(i),), (SIDE_WORDS.get(side[i], str(side[i])),),
                      (signed(scores[i]),)) for i in range(n))
        data = tuple((("settle-seat", str(i)), ("settle-side", str(side[i])),
                      ("settle-score", str(scores[i]))) for i in range(n))
        out.append(Grid(wins, ("seat", "side", "score"), rows, row_data=data))
    return out


def centre(view: dict[str, Any], players: Sequence[str] | None = None) -> list[Line | Grid]:
    """The middle of the table: top play, turn, the settlement once there is one, marks and
    case, bids, choices, side choosing, multiplier, kitty, 七星聚 lock, landlords, and last
    (short, where the oval narrows) the variant, phase and round."""
    v = variant(view)
    phase = str(view.get("phase", ""))
    number = as_int(as_dict(view.get("round")).get("number")) or 0
    where = f" · round {number}" if number else ""
    return [*_top_lines(view), line(turn_text(view, players), kind="turn"), *settlement(view),
            *_mark_lines(view), *_bidding_lines(view), *_choices_lines(view),
            *_sides_lines(view), *_mult_lines(view), *kitty_lines(view), *_lock_lines(view),
            *_landlord_lines(view),
            line(f"{TITLES.get(v, str(view.get('game', '')))} · "
                 f"{PHASE_TEXT.get(phase, phase)}{where}")]


def table(view: dict[str, Any], players: Sequence[str] | None = None) -> TableModel:
    """The 六人斗地主 table of a view (``engine.table.TableModel``), for all three variants."""
    names = seat_names(view, players)
    title = TITLES.get(variant(view), str(view.get("game", "")) or "六人斗地主")
    return model(title, view, (seat_model(view, i, names[i]) for i in range(len(names))),
                 centre(view, players))
