"""够级 in the dashboard: its table and its event details.

The table puts the seats around the centre in turn order: the next player (下家) of a seat
sits next to it counter-clockwise, whatever the session direction, so the 对门 of every seat is
drawn across the table. Each seat shows its team colour (the view's side: even blue, odd red),
its 对门, its hand (under a seat's perspective the other hands are card backs without a count,
GJ-47), its place once out (头客 … 拉客, points and how), its outcome once the game is over and
its flags: to act (and what to do), locked / passed, 让牌, 烧牌, opened (开点), 没头, 宣点. The
centre shows the top play (够级 or 会五 marked), the stage and phase, the turn, pending effects,
direction, game number and, once over, the result.

Only formats the view (``engine.games.gouji.position.view``): who is due and what for, the
responders, locks, the 让牌 order, the opposites, places and outcomes are the view's.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from dashboards.tables._legacy import (
    TABLE_CSS,
    card_html,
    cards_html,
    event_payload,
    hand_div,
    layout_html,
    outcome_html,
    outcome_of,
    result_summary,
    seat_area,
    seat_count,
    seat_list,
    seat_names,
    seat_or_none,
    side_of,
    signed,
    to_act_seat,
)
from dashboards.tables.generic import generic_detail
from engine.cards import parse_face
from engine.errors import EngineError
from engine.events import NONE, Event
from engine.games.gouji.cards import CUT_VALUE, STRENGTH_NAMES
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.plays import analyse
from engine.games.gouji.rules import POINTS, POSITION_NAMES
from engine.games.gouji.state import N_SEATS, TEAM_NAMES, opposite

POSITION_ORDINALS = ("", "1st", "2nd", "3rd", "4th", "5th", "6th")
HOW_TEXT = {
    "finished": "went out",
    "men": "闷 (stifled)",
    "zhashao": "诈烧 (false burn)",
    "last": "last left",
    "designated": "designated after 串三户",
}
DIRECTION_ARROWS = {1: "↺", -1: "↻"}
# What the seat the game waits for is to do (the view's due_action).
DUE_TEXT = {
    "choose_direction": "to choose the direction",
    "designate": "to designate (for the swept team)",
    "answer_xuandian": "to answer the 宣点 (和点)",
    "lead_huiwu": "to lead the 会五",
    "lead": "to lead",
    "respond": "to act",
}
BURN_END_TEXT = {
    "relieved": "解烧: the burner's 对门 answered",
    "countered": "反烧: another player took the burn over",
    "meitou": "a 没头 player answered",
    "open_phase": "the phase opened",
    "success": "烧牌成功: the burner went out",
    "fake": "诈烧: the burn failed",
}
ROUND_END_TEXT = {"passes": "all passed", "big_joker": "big joker", "fake_burn": "诈烧"}
STAGE_TEXT = {
    "cut": "the cut (first game)", "direction": "choosing the direction", "deal": "the deal",
    "play": "play", "designate": "designation after 串三户", "over": "game over",
}

GOUJI_CSS = """
.lj-seat.lj-gj-even{border-left:6px solid #2563eb}
.lj-seat.lj-gj-odd{border-left:6px solid #dc2626}
.lj-seat.lj-gj-out{background:#eef0f3}
.lj-gj-team{display:inline-block;padding:0 .35em;border-radius:.3em;font-weight:600}
.lj-gj-team.lj-gj-even{background:#dbeafe;color:#1e3a8a}
.lj-gj-team.lj-gj-odd{background:#fee2e2;color:#7f1d1d}
.lj-gj-place{font-weight:600;color:#166534;font-size:.85rem}
.lj-gj-place.lj-gj-minus{color:#b42318}
.lj-gj-badge{display:inline-block;padding:0 .4em;margin-left:.3em;border-radius:.3em;
 background:#b42318;color:#fff;font-size:.8rem;font-weight:700;vertical-align:middle}
.lj-gj-badge.lj-gj-huiwu{background:#7c3aed}
.lj-gj-hidden{display:inline-block;padding:.05em .4em;border:1px solid #8c959f;
 border-radius:.25em;background:repeating-linear-gradient(45deg,#dbe4f3,#dbe4f3 4px,#c2d0ea 4px,
 #c2d0ea 8px);color:#1f2f55;font-weight:600}
""".strip()


# ---------------------------------------------------------------- reading the view

def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _opposite(view: dict[str, Any], seat: int | None) -> int | None:
    """A seat's 对门 as the view gives it (``opposite_of``)."""
    opp = view.get("opposite_of")
    if seat is None or not isinstance(opp, list) or not 0 <= seat < len(opp):
        return None
    return seat_or_none(view, opp[seat])


def _direction(view: dict[str, Any]) -> int:
    return -1 if view.get("direction") == -1 else 1


def _css_class(side: str | None) -> str:
    """A side name as a CSS class suffix ('even', 'odd'; anything else 'side')."""
    return side if side in ("even", "odd") else "side"


def _outs(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Seat -> its `out` entry (position 1-6, how, the position's name and points)."""
    out = {}
    for o in view.get("out") or []:
        seat, pos = seat_or_none(view, o.get("seat")), _int(o.get("position"))
        if seat is not None and pos is not None and pos >= 1:
            out[seat] = {"position": pos, "how": str(o.get("how", "")),
                         "name": str(o.get("name", "")), "points": _int(o.get("points"))}
    return out


def rang(view: dict[str, Any]) -> tuple[int | None, list[int]]:
    """The yielder (让牌, GJ-26) and the seats still to act before him (the view's
    ``rang.acts_before``)."""
    r = view.get("rang") or {}
    seat = seat_or_none(view, r.get("seat"))
    if seat is None:
        return None, []
    return seat, seat_list(view, r.get("acts_before", r.get("waiting")))


def due(view: dict[str, Any]) -> tuple[int | None, str]:
    """The seat whose decision the game waits for and what it is to do, or (None, '')."""
    seat = to_act_seat(view)
    if seat is None:
        return None, ""
    return seat, DUE_TEXT.get(str(view.get("due_action")), "to act")


def points_text(position: int) -> str:
    """The points of a position as text: '+2', '+1', '0', '−1', '−2'."""
    return signed(POINTS[position] if 1 <= position < len(POINTS) else 0)


def place_words(position: int, name: str, points: int | None, how: str = "") -> str:
    """A finishing position in words: '头客 (1st, +2) · went out'."""
    ordinal = POSITION_ORDINALS[position] if position < len(POSITION_ORDINALS) else f"#{position}"
    text = f"{name or 'position'} ({ordinal}, {signed(points)})"
    return f"{text} · {HOW_TEXT.get(how, how)}" if how else text


def place_text(position: int, how: str = "") -> str:
    """A finishing position of an event in words: '头客 (1st, +2) · went out'."""
    if not 1 <= position < len(POSITION_NAMES):
        return f"position {position}"
    return place_words(position, POSITION_NAMES[position], POINTS[position], how)


def profile_text(faces_or_codes: Sequence[Any]) -> str:
    """A play in words from its cards: '5×T', '7×K incl. 2×2, 1×BJ' (count × base rank)."""
    try:
        codes = tuple(c if isinstance(c, int) else parse_face(c) for c in faces_or_codes)
    except EngineError:
        codes = ()
    info = analyse(codes) if codes and all(0 <= c < 54 for c in codes) else None
    if info is None:
        n = len(faces_or_codes)
        return f"{n} card{'s' * (n != 1)}"
    text = f"{info.n}×{STRENGTH_NAMES.get(info.base, str(info.base))}"
    wilds = [f"{k}×{name}" for k, name, attached in
             ((info.n2, "2", info.base < 15), (info.nbj, "BJ", info.base < 16),
              (info.nrj, "RJ", info.base < 17)) if k and attached]
    return f"{text} incl. {', '.join(wilds)}" if wilds else text


# ---------------------------------------------------------------- seats

def _seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    flags = []
    if seat in seat_list(view, view.get("locked")):
        flags.append("locked (passed, 过牌)")
    if seat in seat_list(view, view.get("passed_since_top")):
        flags.append("passed since the top play")
    rang_seat, waiting = rang(view)
    if rang_seat == seat:
        flags.append("让牌: yielded, waits for seat"
                     + ("s " if len(waiting) != 1 else " ")
                     + ", ".join(map(str, waiting)) if waiting else "让牌: yielded, acts next")
    if rang_seat is not None and seat in waiting:
        flags.append(f"让牌: to act before seat {rang_seat}")
    if seat_or_none(view, view.get("burner")) == seat:
        flags.append("烧牌: burning")
    if seat in seat_list(view, view.get("opened")):
        flags.append("opened (开点)")
    if seat_or_none(view, view.get("kaidian_candidate")) == seat:
        flags.append("may 开点 with a lead of 4s")
    if seat in seat_list(view, view.get("meitou")):
        flags.append("没头 (对门 out)")
    if seat_or_none(view, view.get("xuandian_pending")) == seat:
        flags.append("宣点 declared, awaits 和点")
    top = view.get("top") or {}
    if seat_or_none(view, top.get("seat")) == seat:
        what = "会五" if top.get("huiwu") else "够级 play" if view.get("top_is_gouji") else "play"
        flags.append(f"made the top {what}")
    if view.get("game_no") == 1 and not view.get("played") \
            and seat_or_none(view, view.get("cut_holder")) == seat:
        flags.append("holds the face-up cut card")
    return flags


def _hand_html(hand: Any, out: dict[str, Any] | None) -> tuple[str, str]:
    """(the hand's HTML, the count text for the seat head; '' when the hand is hidden)."""
    if hand is None:
        return ('<span class="lj-gj-hidden" title="hidden hand: no count is shown (GJ-47)">'
                "🂠 hidden</span>", "")
    faces = [str(f) for f in hand] if isinstance(hand, list) else []
    n = len(faces)
    count = f"{n} card{'s' * (n != 1)}"
    if out and out["how"] in ("men", "zhashao") and faces:
        return f'<span class="lj-info">dead cards:</span> {cards_html(faces)}', f"{count} dead"
    return cards_html(faces, empty="no cards"), count


def seat_html(view: dict[str, Any], seat: int, player: str, *, area: str = "") -> str:
    """One seat's panel: player, team colour, 对门, place once out, outcome, hand and flags."""
    me = seat_or_none(view, view.get("perspective")) == seat
    hands = view.get("hands")
    hand = hands[seat] if isinstance(hands, list) and seat < len(hands) else None
    out = _outs(view).get(seat)
    seat_due, what = due(view)
    to_act = seat_due == seat
    outcome = outcome_of(view, seat)
    side = side_of(view, seat)
    classes = ["lj-seat"] + [f"lj-gj-{_css_class(side)}"] * bool(side) + ["lj-act"] * to_act
    classes += ["lj-me"] * me + ["lj-gj-out"] * (out is not None)
    if outcome:
        classes.append({"win": "lj-won", "loss": "lj-lost", "draw": "lj-drew"}[outcome["result"]])
    body, count = _hand_html(hand, out)
    head_bits = []
    if side:
        head_bits.append(f'<span class="lj-gj-team lj-gj-{_css_class(side)}" '
                         f'data-side="{escape(side)}">{escape(side)}</span>')
    opposite = _opposite(view, seat)
    if opposite is not None:
        head_bits.append(f"对门 seat {opposite}")
    if count:
        head_bits.append(count)
    if to_act:
        head_bits.append(escape(what))
    if outcome:
        head_bits.append(outcome_html(outcome))
    place = ""
    if out is not None:
        minus = " lj-gj-minus" if (out["points"] or 0) < 0 else ""
        place = (f'<div class="lj-gj-place{minus}" data-position="{out["position"]}">'
                 f"{escape(place_words(out['position'], out['name'], out['points'], out['how']))}"
                 "</div>")
    flags = _seat_flags(view, seat)
    flag_html = f'<div class="lj-flags">{escape(" · ".join(flags))}</div>' if flags else ""
    marker = "▶ " if to_act else ""
    style = f' style="grid-area:{area}"' if area else ""
    return (
        f'<div data-seat="{seat}" class="{" ".join(classes)}"{style}>'
        f'<div class="lj-seat-head"><span class="lj-name">{marker}seat {seat} · '
        f"{escape(player)}</span>"
        f'<span class="lj-team">{" · ".join(head_bits)}</span></div>'
        f"{place}{hand_div(body, len(hand) if isinstance(hand, list) else 0)}{flag_html}</div>"
    )


# ---------------------------------------------------------------- centre

def _top_html(view: dict[str, Any]) -> str:
    top = view.get("top")
    if not top or not top.get("cards"):
        seat, what = due(view)
        if view.get("stage") == "play" and seat is not None:
            return f'<div class="lj-top">no play on the table: seat {seat} {escape(what)}</div>'
        return '<div class="lj-top">no play on the table</div>'
    faces = [str(f) for f in top["cards"]]
    badges = ""
    if top.get("huiwu"):
        badges += '<span class="lj-gj-badge lj-gj-huiwu" title="GJ-35">会五</span>'
    if view.get("top_is_gouji"):
        badges += '<span class="lj-gj-badge" title="a 够级 play (GJ-19)">够级</span>'
    maker = seat_or_none(view, top.get("seat"))
    who = [profile_text(faces)]
    if maker is not None:
        opp = seat_or_none(view, view.get("opposite_of_top"))
        who.append(f"by seat {maker}" + (f" (对门 seat {opp})" if opp is not None else ""))
    responders = seat_list(view, view.get("responders"))
    who.append("responders: " + (", ".join(f"seat {i}" for i in responders) or "none"))
    return (f'<div class="lj-top" title="top play">{cards_html(faces)}{badges}</div>'
            f'<div class="lj-info">top play {escape(" · ".join(who))}</div>')


def _pending_lines(view: dict[str, Any]) -> list[str]:
    out = []
    burner = seat_or_none(view, view.get("burner"))
    if burner is not None:
        out.append(f"烧牌 in progress: seat {burner} is burning")
    rang_seat, waiting = rang(view)
    if rang_seat is not None:
        out.append(f"让牌 by seat {rang_seat}: "
                   + (f"seat{'s' * (len(waiting) != 1)} {', '.join(map(str, waiting))} "
                      "to act first" if waiting else "the turn returns to him"))
    pending = seat_or_none(view, view.get("xuandian_pending"))
    if pending is not None:
        out.append(f"宣点 by seat {pending}: seat {_opposite(view, pending)} to agree (和点) or "
                   "refuse")
    if view.get("huiwu_due"):
        out.append(f"会五 due: team {escape(str(view.get('huiwu_team')))} leads all its 5s "
                   f"(starter seat {seat_or_none(view, view.get('starter'))})")
    kinds = [str(o.get("kind")) for o in view.get("owed") or [] if isinstance(o, dict)]
    if kinds:
        out.append(f"derived events still to be logged: {escape(', '.join(kinds))}")
    return [f'<div class="lj-pending">{line}</div>' for line in out]


def _totals_text(view: dict[str, Any]) -> str:
    totals = (view.get("result") or {}).get("team_totals") or {}
    return " : ".join(f"{escape(str(side))} {signed(v)}" for side, v in totals.items())


def _turn_line(view: dict[str, Any]) -> str:
    stage = str(view.get("stage", ""))
    summary = result_summary(view)
    if summary:
        head = "game over: " + ("draw (平)" if summary == "draw" else escape(summary))
        totals = _totals_text(view)
        return f'<div class="lj-info"><b>{head}{", " + totals if totals else ""}</b></div>'
    seat, what = due(view)
    text = f"seat {seat} {escape(what)}" if seat is not None else escape(
        STAGE_TEXT.get(stage, stage))
    return f'<div class="lj-info"><b>{text}</b></div>'


def _places_line(view: dict[str, Any]) -> str:
    outs = sorted(_outs(view).items(), key=lambda kv: kv[1]["position"])
    if not outs:
        return ""
    text = " · ".join(f"{o['name']} seat {seat} "
                      f"({signed(o['points'])}, {HOW_TEXT.get(o['how'], o['how'])})"
                      for seat, o in outs)
    return f'<div class="lj-info">places: {escape(text)}</div>'


def _result_lines(view: dict[str, Any]) -> list[str]:
    r = view.get("result") or {}
    if not view.get("outcomes") or not r:
        sweep, designating = view.get("sweep"), view.get("designating_side")
        if sweep and designating:
            return [f'<div class="lj-pending">串三户 by team {escape(str(sweep))}: team '
                    f"{escape(str(designating))} designates its order</div>"]
        return []
    out = []
    if r.get("chuansanhu"):
        design = r.get("designation")
        out.append(f"串三户 by team {r['chuansanhu']}"
                   + (f"; designated order: seats {', '.join(map(str, design))}" if design
                      else ""))
    nxt = seat_or_none(view, r.get("next_starter"))
    if nxt is not None:
        out.append(f"next game: seat {nxt} (拉客) starts"
                   + (f", team {r['next_huiwu_team']} owes the 会五"
                      if r.get("next_huiwu_team") else ""))
    return [f'<div class="lj-info">{escape(line)}</div>' for line in out]


def _setup_line(view: dict[str, Any]) -> str:
    """The first game's cut while the game is being set up (GJ-6)."""
    if view.get("stage") not in ("cut", "direction", "deal") or not view.get("cuts"):
        return ""
    bits = []
    for c in view.get("cuts") or []:
        d = c.get("count_dir")
        count = (f" counting {escape(signed(d))}" if _int(d) is not None
                 else " (a joker: cut again)")
        bits.append(f"seat {escape(str(c.get('seat')))} cut {card_html(str(c.get('card')))}{count}")
    fp = seat_or_none(view, view.get("first_player"))
    if fp is not None:
        bits.append(f"first player seat {fp}")
    return f'<div class="lj-info">cut: {"; ".join(bits)}</div>'


def direction_text(view: dict[str, Any]) -> str:
    """The session's direction: '↺ d = +1: 0→1→2→3→4→5' (from the view's turn order)."""
    if view.get("direction") not in (1, -1):
        return "direction not chosen yet"
    d = _direction(view)
    order = "→".join(str(i) for i in view.get("turn_order") or [])
    return f"direction {DIRECTION_ARROWS[d]} d = {signed(d)}" + (f": {order}" if order else "")


def _pairs_text(view: dict[str, Any], pairs: Any) -> list[str]:
    return [f"{p[0]}–{p[1]}" for p in pairs or []
            if isinstance(p, (list, tuple)) and len(p) == 2]


def centre_html(view: dict[str, Any]) -> str:
    """The middle of the table: top play, turn, pending effects, phase, direction, result."""
    parts = [_top_html(view), _turn_line(view), *_pending_lines(view), *_result_lines(view)]
    stage = str(view.get("stage", ""))
    phase = ("open (two players out: no 够级, nobody locked)" if view.get("open_phase")
             else "restricted")
    game_no = _int(view.get("game_no"))
    pairs = view.get("opposites") or []
    parts.append(
        f'<div class="lj-info">game {game_no if game_no is not None else "?"} · '
        f"{escape(STAGE_TEXT.get(stage, stage))} · phase {escape(phase)}</div>"
        f'<div class="lj-info" title="turn order runs counter-clockwise in this picture">'
        f"{escape(direction_text(view))} · 对门 {escape(' · '.join(_pairs_text(view, pairs)))}"
        "</div>")
    if view.get("window"):
        used = [pairs[p] for p in view.get("xuandian_used") or []
                if _int(p) is not None and 0 <= p < len(pairs)]
        text = ", ".join(_pairs_text(view, used))
        parts.append('<div class="lj-info">宣点 window open'
                     + (f" (used by {escape(text)})" if text else "") + "</div>")
    parts.append(_setup_line(view))
    parts.append(_places_line(view))
    return f'<div class="lj-centre">{"".join(parts)}</div>'


def table_html(view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole 够级 table as one HTML fragment: the seats around the centre, escaped."""
    names = seat_names(view, players)
    d = _direction(view)
    seats = [seat_html(view, seat, names[seat], area=seat_area(view, seat, step=d))
             for seat in range(seat_count(view, players))]
    css = f"<style>{TABLE_CSS}\n{GOUJI_CSS}</style>" if style else ""
    return css + layout_html(view, seats, centre_html(view), style=False)


# ---------------------------------------------------------------- events

def _play_detail(e: Event) -> str:
    flags = e.tag.split("+")
    role = "leads" if flags[0] == "lead" else "plays"
    words = []
    if "gouji" in flags:
        words.append("够级")
    elif "shaped" in flags:
        words.append("够级 shape, not 够级 now")
    if "pure" in flags:
        words.append("pure")
    if "kaidian" in flags:
        words.append("开点")
    if "void" in flags:
        words.append("诈烧: void")
    extra = f" ({', '.join(words)})" if words else ""
    return f"seat {e.seat} {role} {profile_text(e.cards)}{extra}"


def _start_detail(e: Event) -> str:
    p = event_payload(e)
    bits = [f"game {p.get('game_no', e.value)}"]
    if p.get("session"):
        bits[0] += f" of session {p['session']}"
    if e.value == 1:
        bits.append("the cut decides the first player")
    else:
        d = p.get("direction")
        bits.append(f"seat {e.target} (last 拉客) starts" + (f", d = {d:+d}"
                                                            if isinstance(d, int) else ""))
    if e.tag:
        bits.append(f"team {e.tag} owes the 会五")
    opts = p.get("options") or {}
    defaults = GoujiOptions().to_dict()
    changed = [f"{k}={v}" for k, v in opts.items() if k in defaults and v != defaults[k]]
    if changed:
        bits.append("options " + ", ".join(changed))
    return ", ".join(bits)


def _end_detail(e: Event) -> str:
    p = event_payload(e)
    totals = p.get("team_totals") or {}
    res = p.get("result", e.tag)
    head = f"team {res} wins" if res in TEAM_NAMES else "draw (平)"
    text = f"{head}, even {signed(totals.get('even'))} : odd {signed(totals.get('odd'))}"
    if p.get("chuansanhu"):
        text += f", 串三户 by team {p['chuansanhu']}"
    return text + (f", next starter seat {e.value}" if e.value != NONE else "")


def _cut_detail(e: Event) -> str:
    if not e.cards or e.cards[0] >= 52:
        return f"seat {e.seat} cuts a joker: cuts again"
    first = (e.seat + e.value * (CUT_VALUE[e.cards[0]] - 1)) % N_SEATS
    return f"seat {e.seat} cuts, counting {e.value:+d}: seat {first} is the first player"


def event_detail(e: Event) -> str:
    """What a 够级 event means beyond its cards, in a few words (no hidden information)."""
    k = e.kind
    if k == "GAME_START":
        return _start_detail(e)
    if k == "PLAY":
        return _play_detail(e)
    if k == "PASS":
        return f"seat {e.seat} passes"
    if k == "RANG":
        return f"seat {e.seat} yields (让牌) on his 对门's play"
    if k == "ROUND_END":
        why = ROUND_END_TEXT.get(e.tag, e.tag)
        if e.seat < 0:
            return f"round ends ({why}), seat {e.target} leads"
        return (f"round won by seat {e.seat} ({why}), seat {e.target} leads"
                + (" (接风)" if e.value == 1 else ""))
    if k == "OUT":
        pos = e.value if 1 <= e.value <= 6 else 0
        return f"seat {e.seat} out: " + (place_text(pos, e.tag) if pos else e.tag)
    if k == "BURN_START":
        if e.tag == "counter":
            return f"seat {e.seat} burns seat {e.target}'s play (反烧, counter-burn)"
        return f"seat {e.seat} burns seat {e.target}'s play (烧牌)"
    if k == "BURN_END":
        return f"seat {e.seat}'s burn ends: {BURN_END_TEXT.get(e.tag, e.tag)}"
    if k == "HUIWU":
        p = event_payload(e)
        per = "; ".join(f"seat {s}: {len(v) if isinstance(v, list) else '?'}"
                        for s, v in sorted(p.items()))
        return f"seat {e.seat} leads the 会五, {len(e.cards)} fives" + (f" ({per})" if per
                                                                         else "")
    if k == "PHASE_OPEN":
        return "open phase: two players are out (no more 够级, nobody locked)"
    if k == "CUT":
        return _cut_detail(e)
    if k == "DIRECTION":
        if e.value not in DIRECTION_ARROWS:
            return f"seat {e.seat} chooses the direction {e.value}"
        order = "→".join(str(k * e.value % N_SEATS) for k in range(N_SEATS))
        return (f"seat {e.seat} chooses the direction {DIRECTION_ARROWS[e.value]} "
                f"d = {signed(e.value)}: {order}")
    if k == "DEAL":
        text = f"{len(e.cards)} cards dealt, seat {e.seat} draws first ({e.tag or '?'})"
        return text + (f", the face-up cut card is card #{e.value} of the pile"
                       if e.value != NONE else "")
    if k == "XUANDIAN":
        return f"seat {e.seat} declares 宣点; seat {opposite(e.seat) if 0 <= e.seat < N_SEATS else '?'} to answer"
    if k == "HEDIAN":
        return f"seat {e.seat} " + ("agrees (和点)" if e.tag == "agree" else "refuses the 宣点")
    if k == "OPENED":
        return f"seat {e.seat} is opened ({'和点' if e.tag == 'hedian' else '开点'})"
    if k == "DESIGNATE":
        order = event_payload(e).get("order") or []
        return (f"seat {e.seat} designates seat{'s' * (len(order) != 1)} "
                f"{', '.join(map(str, order))} "
                "(best free position first)")
    if k == "GAME_END":
        return _end_detail(e)
    return generic_detail(e)
