"""六人斗地主's words (``ddz6_3v3``, ``ddz6_2v4``, ``ddz6_zhengfan``): what an event means beyond
its cards (``describe``, a field of each variant's ``Game``) and the word tables the table
(``engine.games.ddz6.table``) shares with it: the cases, the end reasons, the sides, the
doubling and show-hand choices, a bid.

Only the event as given is read: a seat's view has the hidden choices removed."""

from __future__ import annotations

from typing import Any

from engine.cards import format_face
from engine.events import NONE, Event
from engine.games.ddz6.game import TITLES
from engine.table import as_int, event_payload, generic_detail, signed

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


def bid_text(value: int) -> str:
    """A bid in words: '不叫 pass' or 'bids 2'."""
    return "不叫 pass" if value == 0 else f"bids {value}"


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
    if as_int(dark) is not None:
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


def describe(e: Event) -> str:
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
