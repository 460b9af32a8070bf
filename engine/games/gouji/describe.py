"""够级 in words: what an event means beyond its cards (``describe``), and the words the table
shares with it: a play's profile ('5×T incl. 1×2'), a finishing place ('头客 (1st, +2) · went
out'), the direction's arrows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import parse_face
from engine.errors import EngineError
from engine.events import NONE, Event
from engine.games.gouji.cards import CUT_VALUE, STRENGTH_NAMES
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.plays import analyse
from engine.games.gouji.rules import POINTS, POSITION_NAMES
from engine.games.gouji.state import N_SEATS, TEAM_NAMES, opposite
from engine.table import event_payload, generic_detail, signed

POSITION_ORDINALS = ("", "1st", "2nd", "3rd", "4th", "5th", "6th")
HOW_TEXT = {
    "finished": "went out",
    "men": "闷 (stifled)",
    "zhashao": "诈烧 (false burn)",
    "last": "last left",
    "designated": "designated after 串三户",
}
DIRECTION_ARROWS = {1: "↺", -1: "↻"}
BURN_END_TEXT = {
    "relieved": "解烧: the burner's 对门 answered",
    "countered": "反烧: another player took the burn over",
    "meitou": "a 没头 player answered",
    "open_phase": "the phase opened",
    "success": "烧牌成功: the burner went out",
    "fake": "诈烧: the burn failed",
}
ROUND_END_TEXT = {"passes": "all passed", "big_joker": "big joker", "fake_burn": "诈烧"}


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


def _round_end_detail(e: Event) -> str:
    why = ROUND_END_TEXT.get(e.tag, e.tag)
    if e.seat < 0:
        return f"round ends ({why}), seat {e.target} leads"
    return (f"round won by seat {e.seat} ({why}), seat {e.target} leads"
            + (" (接风)" if e.value == 1 else ""))


def _huiwu_detail(e: Event) -> str:
    p = event_payload(e)
    per = "; ".join(f"seat {s}: {len(v) if isinstance(v, list) else '?'}"
                    for s, v in sorted(p.items()))
    return f"seat {e.seat} leads the 会五, {len(e.cards)} fives" + (f" ({per})" if per else "")


def _direction_detail(e: Event) -> str:
    if e.value not in DIRECTION_ARROWS:
        return f"seat {e.seat} chooses the direction {e.value}"
    order = "→".join(str(k * e.value % N_SEATS) for k in range(N_SEATS))
    return (f"seat {e.seat} chooses the direction {DIRECTION_ARROWS[e.value]} "
            f"d = {signed(e.value)}: {order}")


def _deal_detail(e: Event) -> str:
    text = f"{len(e.cards)} cards dealt, seat {e.seat} draws first ({e.tag or '?'})"
    return text + (f", the face-up cut card is card #{e.value} of the pile"
                   if e.value != NONE else "")


def _designate_detail(e: Event) -> str:
    order = event_payload(e).get("order") or []
    return (f"seat {e.seat} designates seat{'s' * (len(order) != 1)} "
            f"{', '.join(map(str, order))} (best free position first)")


def _burn_start_detail(e: Event) -> str:
    if e.tag == "counter":
        return f"seat {e.seat} burns seat {e.target}'s play (反烧, counter-burn)"
    return f"seat {e.seat} burns seat {e.target}'s play (烧牌)"


def _out_detail(e: Event) -> str:
    pos = e.value if 1 <= e.value <= 6 else 0
    return f"seat {e.seat} out: " + (place_text(pos, e.tag) if pos else e.tag)


def _xuandian_detail(e: Event) -> str:
    answerer = opposite(e.seat) if 0 <= e.seat < N_SEATS else "?"
    return f"seat {e.seat} declares 宣点; seat {answerer} to answer"


DETAILS = {
    "GAME_START": _start_detail, "PLAY": _play_detail, "ROUND_END": _round_end_detail,
    "OUT": _out_detail, "BURN_START": _burn_start_detail, "HUIWU": _huiwu_detail,
    "CUT": _cut_detail, "DIRECTION": _direction_detail, "DEAL": _deal_detail,
    "XUANDIAN": _xuandian_detail, "DESIGNATE": _designate_detail, "GAME_END": _end_detail,
}


def describe(e: Event) -> str:
    """What a 够级 event means beyond its cards, in a few words (no hidden information)."""
    k = e.kind
    if k in DETAILS:
        return DETAILS[k](e)
    if k == "PASS":
        return f"seat {e.seat} passes"
    if k == "RANG":
        return f"seat {e.seat} yields (让牌) on his 对门's play"
    if k == "BURN_END":
        return f"seat {e.seat}'s burn ends: {BURN_END_TEXT.get(e.tag, e.tag)}"
    if k == "PHASE_OPEN":
        return "open phase: two players are out (no more 够级, nobody locked)"
    if k == "HEDIAN":
        return f"seat {e.seat} " + ("agrees (和点)" if e.tag == "agree" else "refuses the 宣点")
    if k == "OPENED":
        return f"seat {e.seat} is opened ({'和点' if e.tag == 'hedian' else '开点'})"
    return generic_detail(e)
