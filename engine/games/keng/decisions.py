"""六人坑 decision points (docs/decisions.md): the option categories of a seat's choice, read
off the state before the event without listing the legal actions (KENG-11 to KENG-41).

A turn decision's options are the categories of the seat's legal turn actions: the card class
of each legal play (number, K, Q, J, A, BJ, RJ; K and RJ on a pending draw are stacks), accept,
draw, pass, and in a duel an A or a number card. 抢 and the last-card report are standing
options, each a decision of its own between taking it and letting it lapse. 数牌 (KENG-41) is
no decision category: every seat with its right may count at every moment.
"""

from __future__ import annotations

from typing import cast

from engine.decisions import Decision, OptionSets
from engine.events import Event
from engine.games.keng.cards import (
    BJ,
    CLASS,
    IS_JOKER,
    IS_NUMBER,
    NUMBER,
    RANK,
    RJ,
    SUIT,
    A,
    J,
    K,
    Q,
)
from engine.games.keng.plays import play_rule, valid_snatch
from engine.games.keng.state import N_SEATS, PLAYING, KengState

DECISIONS = (
    ("number", "a number card or pair on the top play (KENG-17 to KENG-19)"),
    ("king", "a K (坑) with no draw pending: the next seat faces a draw of 2 (KENG-24)"),
    ("queen", "a Q (停): the next seat loses its turn (KENG-23)"),
    ("jack", "a J (拐): the direction reverses (KENG-22)"),
    ("duel", "an A (挑): a duel with the opposite seat (对头) starts (KENG-29, KENG-30)"),
    ("small_joker", "a BJ: the player names a suit (KENG-20, KENG-25)"),
    ("big_joker", "an RJ with no draw pending: a suit named, the next seat faces 4 (KENG-26)"),
    ("stack_k", "a K stacked on a pending draw (叠加, KENG-27, KENG-28)"),
    ("stack_rj", "an RJ stacked on a pending draw (叠加, KENG-26, KENG-27)"),
    ("accept", "accept the pending draw (认罚, KENG-11 step 1, KENG-27)"),
    ("draw", "draw two (摸两张): no legal play, or keng_draw_when_able (KENG-12, KENG-13)"),
    ("pass", "pass after drawing two (过, KENG-12)"),
    ("duel_ace", "in a duel, an A: the suit to follow changes (变色, KENG-30)"),
    ("duel_number", "in a duel, a number card (KENG-30)"),
    ("snatch", "抢: a valid snatch of the top play, out of turn (KENG-34 to KENG-37)"),
    ("let", "a valid snatch let go: its window closed (KENG-36)"),
    ("report", "the last-card report (报最后一张, KENG-33)"),
    ("miss_report", "the report deadline passed: forgotten (忘记报告, KENG-33)"),
)
STANDING = {"snatch": "let", "report": "miss_report"}
TAGS = (
    ("named_most_held", "a joker play named a suit the hand left holds most of (KENG-20)"),
    ("named_other", "a joker play named another suit, the hand left holding a suited card"),
    ("pair", "the play is two or three cards (KENG-16)"),
    ("after_draw", "the seat has drawn two this turn: it may pass (KENG-12)"),
    ("after_accept", "the seat accepted a pending draw this turn (KENG-11)"),
    ("next_low", "the next seat in the direction of play holds two cards or fewer"),
    ("challenger", "a duel play by the challenger (KENG-30)"),
    ("defender", "a duel play by the defender, the challenger's opposite (KENG-30)"),
)
PHASES = ("cycle1", "cycle2", "cycle3")     # the stock's cycle, 3 for the third and later
_BY_CYCLE = ("cycle1", "cycle1", "cycle2", "cycle3")

_CLASS_CATEGORY = {NUMBER: "number", K: "king", Q: "queen", J: "jack", A: "duel",
                   BJ: "small_joker", RJ: "big_joker"}
PLAY_CATEGORY = tuple(_CLASS_CATEGORY[CLASS[c]] for c in range(54))
STACK_CATEGORY = tuple("stack_k" if CLASS[c] == K else "stack_rj" if CLASS[c] == RJ else None
                       for c in range(54))
DUEL_CATEGORY = tuple("duel_ace" if CLASS[c] == A else "duel_number" if IS_NUMBER[c] else None
                      for c in range(54))
STACK_FACES = tuple(c for c in range(54) if CLASS[c] in (K, RJ))
JOKER_CATEGORIES = frozenset(("small_joker", "big_joker", "stack_rj"))
SNATCH_OPTIONS = frozenset(("snatch", "let"))
REPORT_OPTIONS = frozenset(("report", "miss_report"))
CLOSES_WINDOW = frozenset(("PLAY", "SNATCH", "PASS", "DUEL_PLAY"))


def opposite_seat(seat: int, n_seats: int) -> int:
    """The opposite seat (对头, seat+3: an opponent, the duel's defender, KENG-5)."""
    return (seat + 3) % n_seats if n_seats == N_SEATS else -1


def _phase(s: KengState) -> str:
    return _BY_CYCLE[s.cycle] if s.cycle < 4 else "cycle3"


# ---------------------------------------------------------------- the options of a turn

_INDEX = {c: i for i, (c, _) in enumerate(DECISIONS)}
BIT = {c: 1 << i for c, i in _INDEX.items()}
_PLAY_BIT = tuple(BIT[PLAY_CATEGORY[f]] for f in range(54))
# _SINGLE[t][f]: the category bit of face f when it may go on the single non-joker top card
# t (suit or rank, or a joker: KENG-17); _SUITED[s][f]: when f has suit s or is a joker (a
# joker's named suit, a pair's suit: KENG-19, KENG-20). Jokers as a last card, and pairs of
# the top's rank, are judged apart.
_SINGLE = tuple(tuple(_PLAY_BIT[f] if f >= 52 or SUIT[f] == SUIT[t] or RANK[f] == RANK[t]
                      else 0 for f in range(54)) for t in range(52))
_SUITED = tuple(tuple(_PLAY_BIT[f] if f >= 52 or SUIT[f] == s else 0 for f in range(54))
                for s in range(4))
ACCEPT, DRAW, PASS = BIT["accept"], BIT["draw"], BIT["pass"]
_SETS = OptionSets(BIT)
_new = tuple.__new__


option_set = _SETS.__getitem__        # the categories of a mask of category bits, cached


def _play_mask(s: KengState, hand: tuple[int, ...]) -> int:
    """Category bits of the legal plays with no draw pending (KENG-17 to KENG-20, KENG-32):
    one table lookup per card."""
    if len(hand) == 1:
        return _PLAY_BIT[hand[0]] if play_rule(s, hand, 1) is None else 0
    top = s.top
    t = top[0]
    row = _SINGLE[t] if len(top) == 1 and t < 52 else _SUITED[s.top_suit]
    mask = 0
    for f in hand:
        mask |= row[f]
    if len(top) > 1 and t < 52:          # a pair of the top pair's rank in another suit
        r = RANK[t]
        for q in range(4):
            f = 13 * q + r
            if q != s.top_suit and hand.count(f) >= 2:
                mask |= _PLAY_BIT[f]
    return mask


def _stack_mask(s: KengState, hand: tuple[int, ...]) -> int:
    """Category bits of the legal stacks on a pending draw (KENG-26 to KENG-28, KENG-32)."""
    n = len(hand)
    mask = 0
    for f in STACK_FACES:
        c = hand.count(f)
        if c and (play_rule(s, (f,), n) is None or (c >= 2 and play_rule(s, (f, f), n) is None)
                  or (c >= 3 and play_rule(s, (f, f, f), n) is None)):
            mask |= BIT[cast(str, STACK_CATEGORY[f])]    # a stack face has its category
    return mask


def turn_mask(s: KengState, hand: tuple[int, ...]) -> tuple[int, bool]:
    """The category bits of the seat to act's turn actions (KENG-11 to KENG-13, KENG-27) and
    whether it had a play (a stack, on a pending draw)."""
    if s.pending > 0:
        mask = _stack_mask(s, hand)
        return mask | ACCEPT, mask != 0
    mask = _play_mask(s, hand)
    if s.drawn:
        return mask | PASS, mask != 0
    if not mask or s.options.keng_draw_when_able:
        return mask | DRAW, mask != 0
    return mask, True


def turn_options(s: KengState, seat: int) -> frozenset[str]:
    """The categories of the seat to act's turn actions."""
    return option_set(turn_mask(s, s.hands[seat])[0])


def _named_tag(hand: tuple[int, ...], played: tuple[int, ...], named: int) -> tuple[str, ...]:
    """``named_most_held`` when the suit named for a joker play is one the hand left holds
    most of, ``named_other`` when not; nothing when it holds no suited card."""
    counts = [0, 0, 0, 0]
    for c in hand:
        if c < 52:
            counts[SUIT[c]] += 1
    for c in played:
        if c < 52:
            counts[SUIT[c]] -= 1
    top = max(counts)
    if top <= 0 or not 0 <= named <= 3:
        return ()
    return ("named_most_held",) if counts[named] == top else ("named_other",)


def _turn(s: KengState, e: Event) -> Decision | None:
    seat = e.seat
    if seat != s.to_act or s.duel is not None or s.duel_due is not None or s.phase != PLAYING \
            or e.tag:                     # a draw continued after a reshuffle is the engine's
        return None
    hand = s.hands[seat]
    mask, can = turn_mask(s, hand)
    if not mask & (mask - 1):             # one category (or none): no choice between kinds
        return None
    if e.kind == "PLAY":
        cards = e.cards
        if not cards or not 0 <= cards[0] < 54:
            return None
        chosen = (STACK_CATEGORY if s.pending > 0 else PLAY_CATEGORY)[cards[0]]
    else:
        cards = ()
        chosen = _TURN_KINDS[e.kind]
    tags: tuple[str, ...] = _named_tag(hand, cards, e.value) if chosen in JOKER_CATEGORIES \
        else ()
    if len(cards) > 1:
        tags += ("pair",)
    if s.drawn:
        tags += ("after_draw",)
    if s.accepted:
        tags += ("after_accept",)
    if len(s.hands[(seat + s.direction) % N_SEATS]) <= 2:
        tags += ("next_low",)
    options = _SETS[mask]
    return _new(Decision, (seat, options, chosen, tags, cards, len(hand),
                           _BY_CYCLE[s.cycle] if s.cycle < 4 else "cycle3", can, s.top_seat))


_TURN_KINDS = {"ACCEPT": "accept", "DRAW": "draw", "PASS": "pass"}


def _duel(s: KengState, e: Event) -> Decision | None:
    d = s.duel
    if d is None or e.seat != d.to_act or len(e.cards) != 1 or not 0 <= e.cards[0] < 54:
        return None
    last = d.cards[-1]
    hand = s.hands[e.seat]
    found: set[str | None] = set()
    for f in hand:
        if CLASS[last] == A:
            ok = CLASS[f] == A or (IS_NUMBER[f] and SUIT[f] == SUIT[last])
        else:
            ok = IS_NUMBER[f] and (SUIT[f] == SUIT[last] or RANK[f] == RANK[last])
        if ok:
            found.add(DUEL_CATEGORY[f])
    chosen = DUEL_CATEGORY[e.cards[0]]
    if len(found) < 2 or chosen is None:
        return None
    role = ("challenger",) if e.seat == d.challenger else ("defender",)
    # a face that may go on the duel is an ace or a number: it has a duel category
    return Decision(e.seat, frozenset(cast(set[str], found)), chosen, role, e.cards, len(hand), _phase(s), True,
                    s.top_seat)


# ---------------------------------------------------------------- standing options

def _snatch(s: KengState, e: Event) -> Decision | None:
    if e.tag != "valid" or len(e.cards) != 1 or not 0 <= e.seat < N_SEATS \
            or not valid_snatch(s, e.seat, e.cards[0]):
        return None
    return Decision(e.seat, SNATCH_OPTIONS, "snatch", (), e.cards, len(s.hands[e.seat]),
                    _phase(s), True, s.top_seat)


def _report(s: KengState, e: Event) -> Decision | None:
    if e.seat != s.report_seat or e.seat < 0:
        return None
    return Decision(e.seat, REPORT_OPTIONS, "report", (), (), len(s.hands[e.seat]), _phase(s),
                    False, s.top_seat)


def _missed(s: KengState, e: Event) -> Decision | None:
    due = s.penalty_due
    if due is None or due[0] != "REPORT_PENALTY" or due[1] != e.seat:
        return None
    return Decision(e.seat, REPORT_OPTIONS, "miss_report", (), (), len(s.hands[e.seat]),
                    _phase(s), False, s.top_seat)


# the decision of an event by its kind (the collector's fast path: other kinds decide nothing)
BY_KIND = {"PLAY": _turn, "ACCEPT": _turn, "DRAW": _turn, "PASS": _turn, "DUEL_PLAY": _duel,
           "SNATCH": _snatch, "LAST_CARD": _report, "REPORT_PENALTY": _missed}
LAPSING = CLOSES_WINDOW          # the kinds of events that may let a standing option lapse


def decision(s: KengState, e: Event) -> Decision | None:
    """The decision ``e`` makes in ``s`` (the state before it), or None (docs/decisions.md)."""
    h = BY_KIND.get(e.kind)
    return None if h is None else h(s, e)


def lapsed(s: KengState, e: Event) -> tuple[Decision, ...]:
    """The valid snatches an event lets go: a play, a valid snatch or a pass closes the top
    play's window (KENG-36); one ``let`` row per other seat that could have snatched it."""
    if not s.window or e.kind not in LAPSING or (e.kind == "SNATCH" and e.tag != "valid"):
        return ()
    card = s.top[0]
    if s.top_duel or IS_JOKER[card]:
        return ()
    out = []
    for b in range(N_SEATS):
        if b != e.seat and card in s.hands[b] and valid_snatch(s, b, card):
            out.append(Decision(b, SNATCH_OPTIONS, "let", (), (), len(s.hands[b]), _phase(s),
                                True, s.top_seat))
    return tuple(out)


def action_category(s: KengState, a: Event) -> str | None:
    """The category of a listed legal action, None for one that is no decision category
    (COUNT, START_CARD, an automatic event)."""
    k = a.kind
    if k == "PLAY":
        return STACK_CATEGORY[a.cards[0]] if s.pending > 0 else PLAY_CATEGORY[a.cards[0]]
    if k == "DUEL_PLAY":
        return DUEL_CATEGORY[a.cards[0]]
    if k == "SNATCH":
        return "snatch" if a.tag == "valid" else None
    return {"ACCEPT": "accept", "DRAW": "draw", "PASS": "pass", "LAST_CARD": "report"}.get(k)
