"""扑克六湖 decision points (docs/decisions.md): the option categories of a seat's choice, read
off the state before the event.

In its post-draw phase a seat chooses between 自摸 (LH-28), 暗杠 (LH-23), 加杠 (LH-22) and a
discard (LH-16); an eligible seat answers a claim window with a pass or a claim (胡, 杠, 碰,
吃: LH-20 … LH-27, LH-29, LH-34). The post-claim discard (LH-18), the draws and the awarded
claim's own event are no choice of kinds. The hooks never list the legal actions: the
categories come from counts and the window's eligibility.
"""

from __future__ import annotations

from engine.decisions import Decision
from engine.events import Event
from engine.games.liuhu.cards import RJ
from engine.games.liuhu.scoring import can_zimo
from engine.games.liuhu.state import RESPOND, ROB_WINDOW, TURN, LhState
from engine.games.liuhu.window import responder

DECISIONS = (
    ("discard", "discard a card from the concealed hand (出牌, LH-16)"),
    ("zimo", "declare 自摸 (LH-28)"),
    ("an_gang", "declare a 暗杠 of four concealed cards (LH-23)"),
    ("jia_gang", "add a card to an exposed 碰: 加杠 (LH-22)"),
    ("pass", "let a claim window go (LH-30, LH-34)"),
    ("hu", "claim 胡 on a discard (放铳, LH-27) or a 加杠 (抢杠胡, LH-29)"),
    ("gang", "claim 明杠 on a discard (LH-21)"),
    ("peng", "claim 碰 on a discard (LH-20)"),
    ("chi", "claim 吃 on the previous player's discard (LH-26)"),
)
STANDING: dict[str, str] = {}
TAGS = (
    ("just_drawn", "the discard is the card just drawn (LH-14, LH-24)"),
    ("dealer", "the seat is this hand's dealer (LH-7)"),
    ("wall_low", "at most 12 cards are left in the wall (LH-11, LH-64)"),
)
PHASES = ("post_draw", "discard_window", "rob_window")
KIND_OF = {"DISCARD": "discard", "HU": "zimo", "AN_GANG": "an_gang", "JIA_GANG": "jia_gang"}


def opposite_seat(seat: int, n_seats: int) -> int:
    """扑克六湖 has no opposite seat: each plays for himself (LH-1)."""
    return -1


def turn_options(s: LhState) -> frozenset[str]:
    """The categories open to the seat in its post-draw phase (LH-15, LH-22, LH-23, LH-25,
    LH-28)."""
    seat, hand = s.turn, s.hands[s.turn]
    opts = {"discard"}
    if s.wall_size() >= 1:
        if any(hand.count(c) >= 4 for c in set(hand) if c != RJ):
            opts.add("an_gang")
        if any(m[0] == "peng" and m[1][0] in hand for m in s.melds[seat]):
            opts.add("jia_gang")
    if can_zimo(s):
        opts.add("zimo")
    return frozenset(opts)


def _tags(s: LhState, seat: int, e: Event) -> tuple[str, ...]:
    tags: tuple[str, ...] = ()
    if e.kind == "DISCARD" and s.drawn >= 0 and e.cards == (s.drawn,):
        tags += ("just_drawn",)
    if seat == s.dealer:
        tags += ("dealer",)
    if s.wall_size() <= 12:
        tags += ("wall_low",)
    return tags


def _turn(s: LhState, e: Event) -> Decision | None:
    if s.phase != TURN or e.seat != s.turn:
        return None
    opts = turn_options(s)
    chosen = KIND_OF[e.kind]
    if len(opts) < 2 or chosen not in opts:
        return None
    cards = e.cards if e.kind != "HU" else ()
    return Decision(e.seat, opts, chosen, _tags(s, e.seat, e), cards, len(s.hands[e.seat]),
                    "post_draw", False, -1)


def _respond(s: LhState, e: Event) -> Decision | None:
    if s.phase != RESPOND or e.seat != responder(s):
        return None
    claims = dict(s.eligible)[e.seat]
    opts = frozenset({"pass"} | {c[0] for c in claims})
    if e.tag not in opts:
        return None
    phase = "rob_window" if s.w_kind == ROB_WINDOW else "discard_window"
    return Decision(e.seat, opts, e.tag, _tags(s, e.seat, e), e.cards, len(s.hands[e.seat]),
                    phase, True, s.w_from)


BY_KIND = {"DISCARD": _turn, "HU": _turn, "AN_GANG": _turn, "JIA_GANG": _turn,
           "RESPOND": _respond}
LAPSING: frozenset[str] = frozenset()


def decision(s: LhState, e: Event) -> Decision | None:
    """The decision ``e`` makes in ``s`` (the state before it), or None (docs/decisions.md)."""
    h = BY_KIND.get(e.kind)
    return None if h is None else h(s, e)


def lapsed(s: LhState, e: Event) -> tuple[Decision, ...]:
    """扑克六湖 has no standing option: every choice is an answer at its point."""
    return ()


def action_category(s: LhState, a: Event) -> str | None:
    """The category of a listed legal action, None for an automatic event or the awarded
    claim's own event."""
    if a.kind == "RESPOND":
        return a.tag
    if a.kind in KIND_OF and s.phase in (TURN, "claimed"):
        return KIND_OF[a.kind]
    return None
