"""扑克六湖 facts (engine.facts, docs/facts.md): what happened to each seat in one hand, as a
strong player searches for it — how it won (自摸, on a discard, 抢杠胡, on the dealer's first
turn), what its winning hand held, who paid (放铳, a robbed 加杠, another's 自摸), its claims and
kongs, a 胡 passed up or cut off (截胡), the dealer and the exhaustive draw (流局).

Every fact is read from the state after the event and the event itself, dispatched on the
event's kind; no legal moves are listed and no state is copied. A fact names the seat it
happened to: the winner's facts the winner, 放铳 the discarder, a robbed 加杠 its declarer. The
one fact drawn from a hidden event (a pass, LH-70) is about the passing seat itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from engine.events import Event
from engine.games.liuhu.cards import SEATS
from engine.games.liuhu.state import FANGCHONG, HU, PASS, QIANGGANG, ZIMO, LhState

BIG_HU = 30             # twice the default min_hu (LH-45)
ONE_COLOUR_SPECIAL = 12  # the value of a 全红 / 全黑 special sequence (LH-52)

FACTS = (
    ("won_zimo", "won by self-draw (自摸)",
     "the seat declared 胡 in its own post-draw phase: a 自摸, +3 bonus, each other seat pays "
     "(LH-28, LH-55, LH-60); includes the dealer's first turn and a win on a replacement draw"),
    ("won_on_discard", "won on a discard (胡 on a 放铳)",
     "the seat's 胡 claim on another seat's discard was executed and it won (LH-27, LH-33, "
     "LH-35); the discarder pays (LH-61)"),
    ("won_qianggang", "won by robbing a kong (抢杠胡)",
     "the seat's 胡 claim on the card of another seat's 加杠 was executed and it won "
     "(LH-29, LH-35); the declarer pays (LH-62)"),
    ("won_first_turn", "won on the dealer's first turn (庄家首轮自摸)",
     "the seat, the dealer, declared 自摸 in its first post-draw phase before any draw, "
     "with no winning card (LH-13, LH-28)"),
    ("won_one_colour_special", "won with a one-colour special sequence (全红 / 全黑)",
     "the seat won and its recorded split holds a 壹贰叁 or 贰柒拾 of one colour, worth 12 "
     "(LH-38, LH-44, LH-52), counted per such group, melded (吃) or concealed"),
    ("won_30_hu", "won with 30 胡 or more (胡数 ≥ 30)",
     "the seat won with a total of at least 30 hu points, twice the default min_hu "
     "(LH-45, LH-58; the 自摸 bonus included, LH-55)"),
    ("dealt_in", "dealt in (放铳)",
     "another seat won on the seat's discard, so the seat pays that winner's total "
     "(LH-27, LH-61); counted per winner (LH-35, LH-63)"),
    ("kong_robbed", "kong robbed (被抢杠胡)",
     "another seat won on the card of the seat's 加杠, so the kong is not made and the seat "
     "pays (LH-29, LH-62); counted per winner (LH-35, LH-63)"),
    ("paid_for_zimo", "paid for another's self-draw (被自摸)",
     "another seat won by 自摸 and the seat paid it the full total (LH-60), counted at the "
     "settlement (LH-59); with dealt_in and kong_robbed every payment there is (LH-63)"),
    ("hu_cut_off", "胡 cut off by a nearer claimant (被截胡)",
     "the seat claimed 胡 on a card but a claimant nearer in turn order after the discarder "
     "or declarer won it instead (multi_win = nearest, LH-35); the call is public (LH-69)"),
    ("passed_hu", "passed up a win (过胡)",
     "the seat could claim 胡 on a discard or a 加杠 and answered pass (LH-30, LH-34); "
     "its own hidden answer (LH-70)"),
    ("peng", "claimed a triplet (碰)",
     "the seat made an executed 碰 on another seat's discard (LH-20, LH-33)"),
    ("chi", "claimed a sequence (吃)",
     "the seat made an executed 吃 on the previous seat's discard (LH-26, LH-33)"),
    ("ming_gang", "kong on a discard (明杠)",
     "the seat made an executed 杠 on another seat's discard, an exposed kong (LH-21, LH-33)"),
    ("jia_gang", "added kong (加杠)",
     "the seat declared 加杠, adding a fourth card to its 碰 (LH-22), counted when declared, "
     "whether it stands or is robbed (LH-29)"),
    ("an_gang", "concealed kong (暗杠)",
     "the seat declared a 暗杠 of four concealed cards of one face (LH-23)"),
    ("dealer", "dealer (庄家)",
     "the seat was the hand's dealer (LH-7, LH-65 … LH-67), counted at the deal (LH-12)"),
    ("liuju", "exhaustive draw (流局)",
     "the hand ended without a winner on an empty wall (LH-64), counted for every seat"),
)

Pairs = tuple[tuple[int, str], ...]
_WON = {ZIMO: "won_zimo", FANGCHONG: "won_on_discard", QIANGGANG: "won_qianggang"}
_PAID = {FANGCHONG: "dealt_in", QIANGGANG: "kong_robbed"}
_CLAIM = {"PENG": "peng", "CHI": "chi", "MING_GANG": "ming_gang", "AN_GANG": "an_gang",
          "JIA_GANG": "jia_gang"}


def _hu(s: LhState, e: Event) -> Pairs:
    """A win: its type, the payer, the first-turn 自摸, the split's one-colour specials and a
    total of 30 or more (LH-27 … LH-29, LH-52, LH-58)."""
    seat = e.seat
    out: list[tuple[int, str]] = [(seat, _WON[e.tag])]
    paid = _PAID.get(e.tag)
    if paid is not None:
        out.append((e.target, paid))
    elif not e.cards:                       # 自摸 with no winning card: the first turn (LH-13)
        out.append((seat, "won_first_turn"))
    groups = json.loads(e.payload or "{}")["split"]["groups"]
    out += [(seat, "won_one_colour_special") for g in groups
            if g["kind"] == "special" and g["value"] == ONE_COLOUR_SPECIAL]
    if e.value >= BIG_HU:
        out.append((seat, "won_30_hu"))
    return tuple(out)


def _claim(s: LhState, e: Event) -> Pairs:
    """A claim or a kong made by the seat of the event (LH-20 … LH-23, LH-26)."""
    return ((e.seat, _CLAIM[e.kind]),)


def _respond(s: LhState, e: Event) -> Pairs:
    """A pass by a seat that could claim 胡 (LH-30): its claims are still in the window."""
    if e.tag != PASS:
        return ()
    for seat, claims in s.eligible:
        if seat == e.seat:
            return ((seat, "passed_hu"),) if claims[0][0] == HU else ()
    return ()


def _award(s: LhState, e: Event) -> Pairs:
    """A 胡 executed while other 胡 calls lose to it (截胡, LH-35)."""
    if e.tag != HU:
        return ()
    winners = {seat for seat, _ in s.pending}
    return tuple((seat, "hu_cut_off") for seat, c in s.calls
                 if c[0] == HU and seat not in winners)


def _settle(s: LhState, e: Event) -> Pairs:
    """The five payers of each 自摸 (LH-60)."""
    return tuple((x, "paid_for_zimo") for seat, kind, *_ in s.hus if kind == ZIMO
                 for x in range(SEATS) if x != seat)


def _deal(s: LhState, e: Event) -> Pairs:
    """The hand's dealer (LH-7)."""
    return ((s.dealer, "dealer"),)


def _liuju(s: LhState, e: Event) -> Pairs:
    """流局: every seat (LH-64)."""
    return tuple((x, "liuju") for x in range(SEATS))


BY_KIND: dict[str, Callable[[LhState, Event], Pairs]] = {
    "HU": _hu, "PENG": _claim, "CHI": _claim, "MING_GANG": _claim, "AN_GANG": _claim,
    "JIA_GANG": _claim, "RESPOND": _respond, "AWARD": _award, "SETTLE": _settle,
    "DEAL": _deal, "LIUJU": _liuju,
}
KINDS = frozenset(BY_KIND)


def after(s: LhState, e: Event) -> Pairs:
    """The facts this event makes happen, from the state after it."""
    f = BY_KIND.get(e.kind)
    return () if f is None else f(s, e)
