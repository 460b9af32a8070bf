"""扑克六湖's words: the names of melds, split groups, claims, wins, windows and phases, and what
an event means in a few words (``describe``, only what the event as given shows: a seat's view
has others' draws, the window's eligibility and answers removed)."""

from __future__ import annotations

from engine.cards import format_face
from engine.events import NONE, Event
from engine.table import as_dict, as_list, event_payload, generic_detail, signed

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


def _face(e: Event) -> str:
    c = e.cards[0] if e.cards else None
    return format_face(c) if isinstance(c, int) and 0 <= c < 54 else "?"


def _start_detail(e: Event) -> str:
    p = event_payload(e)
    hands = as_dict(p.get("options")).get("hands", "?")
    dice = "+".join(str(d) for d in as_list(p.get("dice")))
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
    for c in as_list(p.get("calls")):
        c = [str(x) for x in as_list(c)]
        if len(c) >= 2:
            calls.append(f"seat {c[0]} {CLAIM_TEXT.get(c[1], c[1])}")
    if not calls:
        return "nobody claims"
    done = ", ".join(f"seat {s}" for s in as_list(p.get("executed")))
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
        wins = [w for w in as_list(p.get("wins")) if isinstance(w, dict)]
        text = "hand over: " + (", ".join(f"seat {w.get('seat')} wins {w.get('total')} hu"
                                          for w in wins) or "won")
    text += f", next dealer seat {e.target}" if e.target != NONE else ""
    return text + (" (the game's last hand)" if p.get("game_over") else "")


SIMPLE_KINDS = ("DEAL", "DRAW", "DISCARD", "AN_GANG", "JIA_GANG", "LIUJU")


def _simple_detail(e: Event) -> str:
    return {
        "DEAL": f"the deal (dealer seat {e.target} holds one card more)",
        "DRAW": ("replacement draw from the tail" if e.tag == "tail"
                 else "draws from the front of the wall"),
        "DISCARD": "discards",
        "AN_GANG": "暗杠 concealed kong: one face shown, a replacement draw follows",
        "JIA_GANG": "加杠 adds the fourth card to his 碰: a robbing window opens",
        "LIUJU": "流局: the wall is empty, nobody wins",
    }[e.kind]


def describe(e: Event) -> str:
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
        changes = as_list(event_payload(e).get("changes"))
        return "settlement: " + " ".join(signed(c) for c in changes)
    return _simple_detail(e) if k in SIMPLE_KINDS else generic_detail(e)
