"""六人斗地主 decision points (docs/decisions.md): the option categories of a seat's choice, read
off the state before the event, for the three variants.

A seat bids or passes (DDZ-14), doubles or declines (DDZ-37), shows its hand or not (DDZ-38),
joins the 正 or the 反 landlord (DDZ-35); in play it plays a combination, a bomb or passes
(DDZ-40 … DDZ-42, DDZ-72). The forced pass of a hidden landlord (DDZ-16) and a placed farmer
(DDZ-35) are the engine's, not choices. The hooks never list the legal actions: a lead is
"play" (a single is always possible) plus "bomb" when the hand holds one; a follower can pass,
and can "play" / "bomb" when the move generator's first answer of that kind exists.
"""

from __future__ import annotations

from engine.decisions import Decision
from engine.events import Event
from engine.games.ddz6.autowin import holds_bomb
from engine.games.ddz6.combos import classify
from engine.games.ddz6.info import sides
from engine.games.ddz6.moves import has_answer, iter_plays
from engine.games.ddz6.state import BID, DOUBLE, PLAY, SHOW, SIDE, DdzState

DECISIONS = (
    ("bid", "bid 1, 2 or 3 points, above every bid before (叫分, DDZ-14)"),
    ("no_bid", "pass in the bidding (不叫, DDZ-14)"),
    ("double", "double: N + 1 (加倍, DDZ-37)"),
    ("no_double", "decline to double (放棄, DDZ-37)"),
    ("show", "show the hand face up (明牌加倍, DDZ-38, DDZ-39)"),
    ("no_show", "keep the hand hidden (DDZ-38)"),
    ("zheng", "a farmer joins the 正 (open-mark) landlord (站隊, DDZ-35)"),
    ("fan", "a farmer joins the 反 (dark-mark) landlord (DDZ-35)"),
    ("play", "play a combination that is not a bomb (DDZ-40, DDZ-41)"),
    ("bomb", "play a bomb or a joker bomb (DDZ-42, DDZ-54, DDZ-69)"),
    ("pass", "pass (不出, DDZ-72, DDZ-73)"),
)
STANDING: dict[str, str] = {}
TAGS = (
    ("lead", "the seat leads the round (DDZ-72)"),
    ("partner_top", "the top play is by a seat the player knows to be on its side (DDZ-72)"),
    ("foe_low", "a seat the player knows to be an opponent holds three cards or fewer"),
)
PHASES = ("bidding", "sides", "doubling", "show", "play")
PHASE_WORD = {BID: "bidding", SIDE: "sides", DOUBLE: "doubling", SHOW: "show", PLAY: "play"}
PAIRS = {"BID": ("bid", "no_bid"), "DOUBLE": ("double", "no_double"),
         "SHOW_HAND": ("show", "no_show"), "SIDE_CHOICE": ("fan", "zheng")}


def opposite_seat(seat: int, n_seats: int) -> int:
    """六人斗地主 has no opposite seat: sides are formed in each hand (DDZ-2)."""
    return -1


def _choice(s: DdzState, e: Event) -> Decision | None:
    """A two-way choice before play: bid, double, show hand, side."""
    if s.owed or e.kind not in PAIRS:
        return None
    from engine.games.ddz6.game import to_move
    if e.seat != to_move(s):
        return None
    yes, no = PAIRS[e.kind]
    chosen = yes if e.value and e.value > 0 else no
    if e.kind == "SIDE_CHOICE":
        chosen = "fan" if e.value == 1 else "zheng"
    return Decision(e.seat, frozenset((yes, no)), chosen, (), (), len(s.hands[e.seat]),
                    PHASE_WORD.get(s.phase, "play"), False, -1)


def play_options(s: DdzState, seat: int) -> tuple[frozenset[str], bool]:
    """The play categories open to the seat to act and whether it could answer the top play
    (a lead: True)."""
    hand = s.hands[seat]
    locked = s.locked if s.locked >= 0 else None
    free = tuple(c for c in hand if c != locked)
    if s.top is None:
        return frozenset(("play", "bomb") if holds_bomb(free) else ("play",)), True
    opts = {"pass"}
    if s.top.level:
        if has_answer(hand, s.top, s.variant, s.options, locked):
            opts.add("bomb")
    else:
        first = next(iter_plays(hand, s.top, s.variant, s.options, locked), None)
        if first is not None and not first.combo.level:
            opts.add("play")
        if holds_bomb(free):
            opts.add("bomb")
    return frozenset(opts), len(opts) > 1


def _tags(s: DdzState, seat: int) -> tuple[str, ...]:
    known = sides(s, seat)
    mine = known[seat]
    tags: list[str] = []
    if s.top is None:
        tags.append("lead")
    elif mine is not None and s.top_seat != seat and known[s.top_seat] == mine:
        tags.append("partner_top")
    if mine is not None and any(k is not None and k != mine and len(s.hands[i]) <= 3
                                for i, k in enumerate(known)):
        tags.append("foe_low")
    return tuple(tags)


def _play(s: DdzState, e: Event) -> Decision | None:
    if s.owed or s.phase != PLAY or e.seat != s.turn:
        return None
    opts, can = play_options(s, e.seat)
    if len(opts) < 2:
        return None
    chosen = action_category(s, e)
    if chosen is None or chosen not in opts:
        return None
    return Decision(e.seat, opts, chosen, _tags(s, e.seat),
                    e.cards if e.kind == "PLAY" else (), len(s.hands[e.seat]), "play", can,
                    s.top_seat)


BY_KIND = {"BID": _choice, "DOUBLE": _choice, "SHOW_HAND": _choice, "SIDE_CHOICE": _choice,
           "PLAY": _play, "PASS": _play}
LAPSING: frozenset[str] = frozenset()


def decision(s: DdzState, e: Event) -> Decision | None:
    """The decision ``e`` makes in ``s`` (the state before it), or None (docs/decisions.md)."""
    h = BY_KIND.get(e.kind)
    return None if h is None else h(s, e)


def lapsed(s: DdzState, e: Event) -> tuple[Decision, ...]:
    """六人斗地主 has no standing out-of-turn option."""
    return ()


def action_category(s: DdzState, a: Event) -> str | None:
    """The category of a listed legal action, None for an automatic event."""
    k = a.kind
    if k == "PASS":
        return "pass"
    if k == "PLAY":
        c = classify(a.cards, s.variant, s.options)
        return None if c is None else "bomb" if c.level else "play"
    if k in PAIRS and not a.tag:
        yes, no = PAIRS[k]
        if k == "SIDE_CHOICE":
            return "fan" if a.value == 1 else "zheng"
        return yes if a.value > 0 else no
    return None
