"""够级 in the dashboard: its table and its event details.

The table puts the six seats around the centre in turn order: the next player (下家) of a seat
sits next to it counter-clockwise, whatever the session direction, so the 对门 of every seat is
drawn across the table. Each seat shows its team colour (even blue, odd red), its 对门, its hand
(under a seat's perspective the other hands are card backs without a count, GJ-47), its place
once out (头客 … 拉客, points and how) and its flags: to act, locked / passed, 让牌, 烧牌,
opened (开点), 没头, 宣点. The centre shows the top play (够级 or 会五 marked), the stage and
phase, the turn, pending effects, direction, game number and, once over, the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from dashboards.table import (
    N_SEATS,
    POSITIONS,
    TABLE_CSS,
    bottom_seat,
    card_html,
    cards_html,
    event_payload,
    layout_html,
    seat_names,
)
from dashboards.tables.generic import generic_detail
from engine.cards import parse_face
from engine.errors import EngineError
from engine.events import NONE, Event
from engine.games.gouji.cards import CUT_VALUE, STRENGTH_NAMES
from engine.games.gouji.options import ALLOWED
from engine.games.gouji.plays import analyse
from engine.games.gouji.rules import POINTS, POSITION_NAMES

TEAMS = ("even", "odd")
POSITION_ORDINALS = ("", "1st", "2nd", "3rd", "4th", "5th", "6th")
HOW_TEXT = {
    "finished": "went out",
    "men": "闷 (stifled)",
    "zhashao": "诈烧 (false burn)",
    "last": "last left",
    "designated": "designated after 串三户",
}
DIRECTION_TEXT = {
    1: ("↺", "d = +1: 0→1→2→3→4→5"),
    -1: ("↻", "d = −1: 0→5→4→3→2→1"),
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


def _seat_or_none(v: Any) -> int | None:
    i = _int(v)
    return i if i is not None and 0 <= i < N_SEATS else None


def _seat_list(v: Any) -> list[int]:
    return [i for i in (v or []) if _seat_or_none(i) is not None]


def _opposite(seat: int) -> int:
    return (seat + 3) % N_SEATS


def _team(seat: int) -> str:
    return TEAMS[seat % 2]


def _direction(view: dict[str, Any]) -> int:
    return -1 if view.get("direction") == -1 else 1


def _outs(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Seat -> its `out` entry (position 1-6 and how)."""
    out = {}
    for o in view.get("out") or []:
        seat, pos = _seat_or_none(o.get("seat")), _int(o.get("position"))
        if seat is not None and pos is not None and 1 <= pos <= 6:
            out[seat] = {"position": pos, "how": str(o.get("how", ""))}
    return out


def _signed(v: Any) -> str:
    """A team total as text: '+3', '0', '−3' ('?' when missing)."""
    i = _int(v)
    return "?" if i is None else f"{i:+d}".replace("+0", "0").replace("-", "−")


def _winning_team(view: dict[str, Any]) -> str | None:
    result = view.get("result") or {}
    team = result.get("result")
    return team if view.get("stage") == "over" and team in TEAMS else None


def rang(view: dict[str, Any]) -> tuple[int | None, list[int]]:
    """The yielder (让牌, GJ-26) and the seats still to act before him: those of the engine's
    waiting seats that are responders (an out or locked seat among them is skipped)."""
    r = view.get("rang") or {}
    seat = _seat_or_none(r.get("seat"))
    if seat is None:
        return None, []
    waiting = _seat_list(r.get("waiting"))
    if "responders" in view:
        responders = set(_seat_list(view.get("responders")))
        waiting = [i for i in waiting if i in responders]
    return seat, waiting


def due(view: dict[str, Any]) -> tuple[int | None, str]:
    """The seat whose decision the game waits for and what it is to do, or (None, '')."""
    stage = view.get("stage")
    if stage == "direction":
        return _seat_or_none(view.get("first_player")), "to choose the direction"
    if stage == "designate":
        return _seat_or_none(view.get("to_act")), "to designate (for the swept team)"
    if stage != "play":
        return None, ""
    pending = _seat_or_none(view.get("xuandian_pending"))
    if pending is not None:
        return _opposite(pending), "to answer the 宣点 (和点)"
    if view.get("huiwu_due"):
        return _seat_or_none(view.get("starter")), "to lead the 会五"
    seat = _seat_or_none(view.get("to_act"))
    return seat, "to lead" if view.get("top") is None else "to act"


def points_text(position: int) -> str:
    """The points of a position as text: '+2', '+1', '0', '−1', '−2'."""
    return _signed(POINTS[position] if 1 <= position <= 6 else 0)


def place_text(position: int, how: str = "") -> str:
    """A finishing position in words: '头客 (1st, +2) · went out'."""
    if not 1 <= position <= 6:
        return f"position {position}"
    text = f"{POSITION_NAMES[position]} ({POSITION_ORDINALS[position]}, {points_text(position)})"
    return f"{text} · {HOW_TEXT.get(how, how)}" if how else text


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
    open_phase = bool(view.get("open_phase"))
    if seat in _seat_list(view.get("passed")):
        flags.append("passed since the top play" if open_phase else "locked (passed, 过牌)")
    rang_seat, waiting = rang(view)
    if rang_seat == seat:
        flags.append("让牌: yielded, waits for seat"
                     + ("s " if len(waiting) != 1 else " ")
                     + ", ".join(map(str, waiting)) if waiting else "让牌: yielded, acts next")
    if rang_seat is not None and seat in waiting:
        flags.append(f"让牌: to act before seat {rang_seat}")
    if _seat_or_none(view.get("burner")) == seat:
        flags.append("烧牌: burning")
    if seat in _seat_list(view.get("opened")):
        flags.append("opened (开点)")
    if _seat_or_none(view.get("kaidian_candidate")) == seat:
        flags.append("may 开点 with a lead of 4s")
    if seat in _seat_list(view.get("meitou")):
        flags.append("没头 (对门 out)")
    if _seat_or_none(view.get("xuandian_pending")) == seat:
        flags.append("宣点 declared, awaits 和点")
    top = view.get("top") or {}
    if _seat_or_none(top.get("seat")) == seat:
        what = "会五" if top.get("huiwu") else "够级 play" if view.get("top_is_gouji") else "play"
        flags.append(f"made the top {what}")
    if view.get("game_no") == 1 and not view.get("played") \
            and _seat_or_none(view.get("cut_holder")) == seat:
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
    """One seat's panel: player, team colour, 对门, place once out, hand and flags."""
    persp = view.get("perspective", "auditor")
    hands = view.get("hands")
    hand = hands[seat] if isinstance(hands, list) and seat < len(hands) else None
    out = _outs(view).get(seat)
    seat_due, what = due(view)
    to_act = seat_due == seat
    won = _winning_team(view) == _team(seat)
    team = _team(seat)
    classes = ["lj-seat", f"lj-gj-{team}"] + ["lj-act"] * to_act + ["lj-me"] * (seat == persp)
    classes += ["lj-won"] * won + ["lj-gj-out"] * (out is not None)
    body, count = _hand_html(hand, out)
    head_bits = [f'<span class="lj-gj-team lj-gj-{team}">{team}</span>',
                 f"对门 seat {_opposite(seat)}"]
    if count:
        head_bits.append(count)
    if to_act:
        head_bits.append(escape(what))
    if won:
        head_bits.append("won")
    place = ""
    if out is not None:
        minus = " lj-gj-minus" if POINTS[out["position"]] < 0 else ""
        place = (f'<div class="lj-gj-place{minus}" data-position="{out["position"]}">'
                 f"{escape(place_text(out['position'], out['how']))}</div>")
    flags = _seat_flags(view, seat)
    flag_html = f'<div class="lj-flags">{escape(" · ".join(flags))}</div>' if flags else ""
    marker = "▶ " if to_act else ""
    return (
        f'<div data-seat="{seat}" class="{" ".join(classes)}" style="grid-area:{area}">'
        f'<div class="lj-seat-head"><span class="lj-name">{marker}seat {seat} · '
        f"{escape(player)}</span>"
        f'<span class="lj-team">{" · ".join(head_bits)}</span></div>'
        f"{place}<div>{body}</div>{flag_html}</div>"
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
    maker = _seat_or_none(top.get("seat"))
    who = [profile_text(faces)]
    if maker is not None:
        who.append(f"by seat {maker} (对门 seat {_opposite(maker)})")
    responders = _seat_list(view.get("responders"))
    who.append("responders: " + (", ".join(f"seat {i}" for i in responders) or "none"))
    return (f'<div class="lj-top" title="top play">{cards_html(faces)}{badges}</div>'
            f'<div class="lj-info">top play {escape(" · ".join(who))}</div>')


def _pending_lines(view: dict[str, Any]) -> list[str]:
    out = []
    burner = _seat_or_none(view.get("burner"))
    if burner is not None:
        out.append(f"烧牌 in progress: seat {burner} is burning")
    rang_seat, waiting = rang(view)
    if rang_seat is not None:
        out.append(f"让牌 by seat {rang_seat}: "
                   + (f"seat{'s' * (len(waiting) != 1)} {', '.join(map(str, waiting))} "
                      "to act first" if waiting else "the turn returns to him"))
    pending = _seat_or_none(view.get("xuandian_pending"))
    if pending is not None:
        out.append(f"宣点 by seat {pending}: seat {_opposite(pending)} to agree (和点) or refuse")
    if view.get("huiwu_due"):
        out.append(f"会五 due: team {escape(str(view.get('huiwu_team')))} leads all its 5s "
                   f"(starter seat {_seat_or_none(view.get('starter'))})")
    kinds = [str(o.get("kind")) for o in view.get("owed") or [] if isinstance(o, dict)]
    if kinds:
        out.append(f"derived events still to be logged: {escape(', '.join(kinds))}")
    return [f'<div class="lj-pending">{line}</div>' for line in out]


def _turn_line(view: dict[str, Any]) -> str:
    stage = str(view.get("stage", ""))
    if stage == "over":
        r = view.get("result") or {}
        team = r.get("result")
        totals = r.get("team_totals") or {}
        score = f"even {_signed(totals.get('even'))} : odd {_signed(totals.get('odd'))}"
        head = (f"game over: team {escape(str(team))} wins" if team in TEAMS
                else "game over: draw (平)") + f", {escape(score)}"
        return f'<div class="lj-info"><b>{head}</b></div>'
    seat, what = due(view)
    text = f"seat {seat} {escape(what)}" if seat is not None else escape(
        STAGE_TEXT.get(stage, stage))
    return f'<div class="lj-info"><b>{text}</b></div>'


def _places_line(view: dict[str, Any]) -> str:
    outs = sorted(_outs(view).items(), key=lambda kv: kv[1]["position"])
    if not outs:
        return ""
    text = " · ".join(f"{POSITION_NAMES[o['position']]} seat {seat} "
                      f"({points_text(o['position'])}, {HOW_TEXT.get(o['how'], o['how'])})"
                      for seat, o in outs)
    return f'<div class="lj-info">places: {escape(text)}</div>'


def _result_lines(view: dict[str, Any]) -> list[str]:
    r = view.get("result") or {}
    if view.get("stage") != "over" or not r:
        sweep = view.get("sweep")
        if sweep in TEAMS:
            return [f'<div class="lj-pending">串三户 by team {sweep}: team '
                    f"{TEAMS[1 - TEAMS.index(sweep)]} designates its order</div>"]
        return []
    out = []
    if r.get("chuansanhu") in TEAMS:
        design = r.get("designation")
        out.append(f"串三户 by team {r['chuansanhu']}"
                   + (f"; designated order: seats {', '.join(map(str, design))}" if design
                      else ""))
    nxt = _seat_or_none(r.get("next_starter"))
    if nxt is not None:
        out.append(f"next game: seat {nxt} (拉客) starts"
                   + (f", team {r['next_huiwu_team']} owes the 会五"
                      if r.get("next_huiwu_team") in TEAMS else ""))
    return [f'<div class="lj-info">{escape(line)}</div>' for line in out]


def _setup_line(view: dict[str, Any]) -> str:
    """The first game's cut while the game is being set up (GJ-6)."""
    if view.get("stage") not in ("cut", "direction", "deal") or not view.get("cuts"):
        return ""
    bits = []
    for c in view.get("cuts") or []:
        d = c.get("count_dir")
        count = (f" counting {escape(_signed(d))}" if _int(d) is not None
                 else " (a joker: cut again)")
        bits.append(f"seat {escape(str(c.get('seat')))} cut {card_html(str(c.get('card')))}{count}")
    fp = _seat_or_none(view.get("first_player"))
    if fp is not None:
        bits.append(f"first player seat {fp}")
    return f'<div class="lj-info">cut: {"; ".join(bits)}</div>'


def centre_html(view: dict[str, Any]) -> str:
    """The middle of the table: top play, turn, pending effects, phase, direction, result."""
    parts = [_top_html(view), _turn_line(view), *_pending_lines(view), *_result_lines(view)]
    stage = str(view.get("stage", ""))
    phase = ("open (two players out: no 够级, nobody locked)" if view.get("open_phase")
             else "restricted")
    if view.get("direction") in (1, -1):
        arrow, dir_text = DIRECTION_TEXT[_direction(view)]
        direction = f"direction {arrow} {dir_text}"
    else:
        direction = "direction not chosen yet"
    game_no = _int(view.get("game_no"))
    parts.append(
        f'<div class="lj-info">game {game_no if game_no is not None else "?"} · '
        f"{escape(STAGE_TEXT.get(stage, stage))} · phase {escape(phase)}</div>"
        f'<div class="lj-info" title="turn order runs counter-clockwise in this picture">'
        f"{escape(direction)} · 对门 0–3 · 1–4 · 2–5</div>")
    if view.get("window"):
        used = [f"{p}–{p + 3}" for p in view.get("xuandian_used") or [] if _int(p) is not None]
        parts.append('<div class="lj-info">宣点 window open'
                     + (f" (used by {escape(', '.join(used))})" if used else "") + "</div>")
    parts.append(_setup_line(view))
    parts.append(_places_line(view))
    return f'<div class="lj-centre">{"".join(parts)}</div>'


def table_html(view: dict[str, Any], players: Sequence[str] | None = None, *,
               style: bool = True) -> str:
    """The whole 够级 table as one HTML fragment: six seats around the centre, escaped."""
    names = seat_names(view, players)
    bottom = bottom_seat(view)
    d = _direction(view)
    seats = [seat_html(view, seat, names[seat], area=POSITIONS[((seat - bottom) * d) % N_SEATS])
             for seat in range(N_SEATS)]
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
    changed = [f"{k}={v}" for k, v in opts.items() if k in ALLOWED and v != ALLOWED[k][1]]
    if changed:
        bits.append("options " + ", ".join(changed))
    return ", ".join(bits)


def _end_detail(e: Event) -> str:
    p = event_payload(e)
    totals = p.get("team_totals") or {}
    res = p.get("result", e.tag)
    head = f"team {res} wins" if res in TEAMS else "draw (平)"
    text = f"{head}, even {_signed(totals.get('even'))} : odd {_signed(totals.get('odd'))}"
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
        arrow, text = DIRECTION_TEXT.get(e.value, ("?", str(e.value)))
        return f"seat {e.seat} chooses the direction {arrow} {text}"
    if k == "DEAL":
        text = f"{len(e.cards)} cards dealt, seat {e.seat} draws first ({e.tag or '?'})"
        return text + (f", the face-up cut card is card #{e.value} of the pile"
                       if e.value != NONE else "")
    if k == "XUANDIAN":
        return f"seat {e.seat} declares 宣点; seat {_opposite(e.seat)} to answer"
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
