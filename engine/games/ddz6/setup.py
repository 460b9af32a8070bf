"""六人斗地主 before the first play: the deal and its marks (section 4), the 3v3 case (DDZ-24),
bidding (section 5), landlords and kitty (6.2, 6.3), side choosing (DDZ-35), the auto-win
check (DDZ-78, DDZ-79), doubling and show hand (section 7).

Each ``*_rule`` returns None or the rule id an action breaks; each ``_step_*`` checks one event
completely, raising before any change, then applies it in place. ``expected`` builds the
automatic event the engine owes (the deal's marks are chance: checked, not rebuilt).
"""

from __future__ import annotations

import json
from typing import cast

from engine.events import NONE, Event
from engine.games.ddz6.autowin import bombs_after_one_play, holds_big_bomb, holds_bomb
from engine.games.ddz6.cards import BJ, HAND_SIZE, RJ, sort_hand
from engine.games.ddz6.scoring import CASE_A_BASE, CASE_C_BASE, show_increment
from engine.games.ddz6.state import (
    BID,
    CASE_A,
    CASE_B1,
    CASE_B2,
    CASE_C,
    DOUBLE,
    FAN,
    LANDLORD_SIDE,
    OTHER_SIDE,
    PLAY,
    SHOW,
    SIDE,
    VOID,
    ZHENG,
    DdzState,
)
from engine.games.frame import illegal, invalid

SEATS = 6
DEFAULT = 1                   # ``target`` of an action event the engine supplied (DDZ-75)
FORCED, PLACED, ALL_PASS = "forced", "placed", "all_pass"
SIDE_WORDS = (ZHENG, FAN)


def json_text(obj: object) -> str:
    """Canonical JSON (sorted keys, no spaces)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def action(s: DdzState, kind: str, seat: int = -1, cards: tuple[int, ...] = (),
           target: int = NONE, value: int = NONE, tag: str = "",
           payload: str | None = None) -> Event:
    """An event of this hand at its next seq."""
    return Event(kind, seat, cards, target, value, tag, payload, s.game_id, s.seq)


def dealt(s: DdzState) -> int:
    """How many cards are dealt: 162 (3v3) or 204 (DDZ-4, DDZ-5, DDZ-7)."""
    return SEATS * HAND_SIZE[s.variant]


def set_hand(s: DdzState, seat: int, hand: tuple[int, ...]) -> None:
    """Replace one seat's hand."""
    s.hands = s.hands[:seat] + (hand,) + s.hands[seat + 1:]


# ---------------------------------------------------------------- deal (section 4)

def mark_rule(s: DdzState, pos: int, dark: int | None) -> str | None:
    """DDZ-8: the 3v3 mark is one of the dealt non-joker cards; DDZ-10: the 4-deck marks are
    two different dealt cards (jokers allowed)."""
    n = dealt(s)
    if not s.four:
        return None if 0 <= pos < n and s.deck[pos] not in (BJ, RJ) else "DDZ-8"
    if dark is None or not (0 <= pos < n and 0 <= dark < n) or pos == dark:
        return "DDZ-10"
    return None


def deal_event(s: DdzState, pos: int, dark: int | None) -> Event:
    """The DEAL event: the dealt cards in deck order, the mark's deck position as value and, in
    4-deck, the dark mark's position in the payload (DDZ-7)."""
    payload = None if dark is None else json_text({"dark": dark})
    return action(s, "DEAL", cards=s.deck[:dealt(s)], value=pos, payload=payload)


def _dark_of(s: DdzState, e: Event) -> int | None:
    if not s.four:
        if e.payload is not None:
            raise invalid(s, e, "a 3v3 DEAL has one mark and no payload", "payload")
        return None
    try:
        dark = json.loads(e.payload or "")["dark"]
    except (ValueError, TypeError, KeyError):
        raise invalid(s, e, 'a 4-deck DEAL carries {"dark": position}', "payload") from None
    if not isinstance(dark, int) or isinstance(dark, bool):
        raise invalid(s, e, "the dark mark's position is an integer", "payload")
    return dark


def step_deal(s: DdzState, e: Event) -> None:
    """DDZ-7, DDZ-8, DDZ-10: the deal from the recorded deck, the marks as recorded chance."""
    if e.seat != -1 or e.target != NONE or e.tag:
        raise invalid(s, e, "DEAL is the engine's: seat and target -1, no tag", "seat")
    if e.cards != s.deck[:dealt(s)]:
        raise illegal(s, e, "DDZ-7", f"the deal is d[0] … d[{dealt(s) - 1}] of GAME_START")
    dark = _dark_of(s, e)
    rule = mark_rule(s, e.value, dark)
    if rule:
        raise illegal(s, e, rule, "the mark must be a dealt card that is not a joker"
                      if rule == "DDZ-8" else "the two marks are two different dealt cards")
    n = dealt(s)
    s.owed = ()
    s.hands = tuple(sort_hand(s.deck[i:n:SEATS]) for i in range(SEATS))
    s.kitty = s.deck[n:]
    s.mark_pos, s.mark_face, s.om = e.value, s.deck[e.value], e.value % SEATS
    if s.variant == "3v3":
        s.owed = ("CASE",)
    else:
        four_dark = cast(int, dark)                     # 4 decks: _dark_of read the mark
        s.dark_pos, s.dm = four_dark, four_dark % SEATS
        if s.variant == "2v4":
            s.phase = BID
            s.bid_order = tuple((s.om + k) % SEATS for k in range(SEATS))   # DDZ-19
        else:
            s.owed = ("LANDLORDS",)                      # DDZ-13, DDZ-23


# ---------------------------------------------------------------- 3v3 case (DDZ-24)

def case_facts(s: DdzState) -> tuple[str, int, tuple[int, ...], tuple[int, ...]]:
    """DDZ-24: the case, P (or -1), the hidden landlords and the bidding order (DDZ-15)."""
    m, f = s.om, s.mark_face
    c = [h.count(f) for h in s.hands]
    others = [x for x in ((m + k) % SEATS for k in range(1, SEATS)) if c[x]]
    if c[m] == 3:
        return CASE_C, -1, (), ()
    if c[m] == 2:
        order = tuple((m + k) % SEATS for k in range(1, SEATS))
        return CASE_B1, -1, tuple(others), order
    if len(others) == 2:
        return CASE_A, -1, tuple(others), ()
    p = others[0]
    order = tuple(x for x in ((p + k) % SEATS for k in range(1, SEATS)) if x != m)
    return CASE_B2, p, (), order


def case_event(s: DdzState) -> Event:
    """CASE: seat M, target P, the case as tag; the hidden landlords (record only) and the
    bidding order in the payload."""
    case, p, hidden, order = case_facts(s)
    return action(s, "CASE", s.om, target=p, tag=case,
                  payload=json_text({"hidden": list(hidden), "order": list(order)}))


def step_case(s: DdzState, e: Event) -> None:
    """DDZ-24, DDZ-25: the identities the marked face gives, and what comes next."""
    exact(s, e, case_event(s), "DDZ-24")
    case, p, hidden, order = case_facts(s)
    s.case, s.p_seat, s.hidden, s.bid_order = case, p, hidden, order
    s.owed = ()
    m = s.om
    if case == CASE_C:
        s.landlords, s.solo, s.fixed, s.base = (m,), True, True, CASE_C_BASE
        s.auto = ("case_c", m, LANDLORD_SIDE)
        s.owed = ("AUTO_END",)                               # DDZ-77
    elif case == CASE_A:
        s.landlords, s.fixed, s.base = (m, *hidden), True, CASE_A_BASE
        s.phase = DOUBLE                                     # DDZ-37
    else:
        s.landlords = (m, p) if case == CASE_B2 else (m, *hidden)
        s.phase = BID
        _bid_next(s)


def exact(s: DdzState, e: Event, exp: Event, rule: str) -> None:
    """An automatic event must be the one the engine owes, field by field."""
    if e[1:7] != exp[1:7]:
        raise illegal(s, e, rule, f"the engine owes {exp.describe()}")


# ---------------------------------------------------------------- bidding (section 5)

def bidder(s: DdzState) -> int:
    """The seat to speak now, -1 once every eligible seat has spoken."""
    k = len(s.bids)
    return s.bid_order[k] if k < len(s.bid_order) else -1


def _bid_next(s: DdzState) -> None:
    """After a bid: BID_END once a 3 is bid or all have spoken (DDZ-14); H's recorded pass is
    the engine's (DDZ-16)."""
    if (s.bids and s.bids[-1] == 3) or len(s.bids) == len(s.bid_order):
        s.owed = ("BID_END",)
    elif bidder(s) in s.hidden:
        s.owed = ("BID",)


def bid_turn_rule(s: DdzState, seat: int) -> str:
    """The rule a bid out of turn breaks: DDZ-16 for a seat holding an F card, DDZ-15 (3v3)
    or DDZ-19 (2v4) otherwise."""
    if s.variant == "3v3":
        holds_f = seat == s.om or seat == s.p_seat or seat in s.hidden
        return "DDZ-16" if holds_f else "DDZ-15"
    return "DDZ-19"


def bid_rule(s: DdzState, value: int) -> str | None:
    """DDZ-14: pass (0) or 1-3 points, higher than every bid before it."""
    if value == 0:
        return None
    if not 1 <= value <= 3 or value <= max(s.bids, default=0):
        return "DDZ-14"
    return None


def step_bid(s: DdzState, e: Event) -> None:
    """A bid of the seat to speak (DDZ-14 … DDZ-16, DDZ-19); H's pass is owed (DDZ-16)."""
    seat = bidder(s)
    if e.seat != seat:
        raise illegal(s, e, bid_turn_rule(s, e.seat), f"seat {seat} speaks now")
    if e.cards or e.payload is not None:
        raise invalid(s, e, "BID carries its value only", "cards")
    if seat in s.hidden:
        exact(s, e, action(s, "BID", seat, value=0, tag=FORCED), "DDZ-16")
    else:
        if e.tag:
            raise illegal(s, e, "DDZ-16", "only the hidden landlord's recorded pass is forced")
        check_default(s, e, e.value == 0, "a default bid is a pass")
        rule = bid_rule(s, e.value)
        if rule:
            raise illegal(s, e, rule, f"a bid is a pass (0) or 1-3 points above "
                          f"{max(s.bids, default=0)}")
    s.bids += (e.value,)
    s.owed = ()
    _bid_next(s)


def check_default(s: DdzState, e: Event, is_default: bool, what: str) -> None:
    """DDZ-75: ``target`` is -1, or 1 for the engine's default, which must be the default."""
    if e.target == NONE:
        return
    if e.target != DEFAULT:
        raise invalid(s, e, "target is -1, or 1 for the engine's default (DDZ-75)", "target")
    if not is_default:
        raise illegal(s, e, "DDZ-75", what)


def bid_end_event(s: DdzState) -> Event:
    """BID_END: the winner and his bid, or all_pass (DDZ-14, DDZ-17, DDZ-18, DDZ-20)."""
    best = max(s.bids, default=0)
    if not best:
        return action(s, "BID_END", value=0, tag=ALL_PASS)
    return action(s, "BID_END", s.bid_order[s.bids.index(best)], value=best)


def step_bid_end(s: DdzState, e: Event) -> None:
    """DDZ-17, DDZ-18 (3v3: void if nobody bids), DDZ-19, DDZ-20 (2v4: OM if nobody bids)."""
    exp = bid_end_event(s)       # nobody bid: 3v3 a void hand (DDZ-18), 2v4 OM (DDZ-20)
    exact(s, e, exp, "DDZ-14" if exp.seat >= 0 else "DDZ-18" if s.variant == "3v3"
          else "DDZ-20")
    s.bid_winner, s.bid_value = exp.seat, exp.value
    if s.variant == "3v3":
        if exp.seat < 0:
            s.auto = (VOID, -1, -1)
            s.owed = ("HAND_END",)                           # DDZ-18, DDZ-80
            return
        s.landlords += (exp.seat,)
        s.base, s.fixed, s.phase, s.owed = exp.value, True, DOUBLE, ()   # DDZ-17, DDZ-82
        return
    s.owed = ("LANDLORDS",)                                  # DDZ-28


# ---------------------------------------------------------------- landlords and kitty (6.2, 6.3)

def landlords_event(s: DdzState) -> Event:
    """LANDLORDS: the first landlord (2v4: the bid winner or OM; zhengfan: OM), DM as target,
    solo as value; the 2v4 tag says how (``bid`` or ``om``)."""
    first = s.bid_winner if s.variant == "2v4" and s.bid_winner >= 0 else s.om
    tag = ("bid" if s.bid_winner >= 0 else "om") if s.variant == "2v4" else ""
    return action(s, "LANDLORDS", first, target=s.dm, value=int(first == s.dm), tag=tag)


def step_landlords(s: DdzState, e: Event) -> None:
    """DDZ-28, DDZ-29, DDZ-31 (2v4); DDZ-32, DDZ-33 (zhengfan); the kitty is owed next."""
    exp = landlords_event(s)
    exact(s, e, exp, "DDZ-28" if s.variant == "2v4" else "DDZ-32")
    first = exp.seat
    s.solo = first == s.dm
    s.landlords = (first,) if s.solo else (first, s.dm)
    s.owed = ("KITTY",) if s.solo else ("KITTY", "KITTY")
    s.phase = "start"
    if s.variant == "2v4" or s.solo:
        s.fixed = True
    if s.variant == "zhengfan":
        sides = [OTHER_SIDE if s.solo else -1] * SEATS
        sides[first] = LANDLORD_SIDE
        if not s.solo:
            sides[s.dm] = OTHER_SIDE
            s.farmer_order = tuple(x for x in ((s.om + k) % SEATS for k in range(1, SEATS))
                                   if x != s.dm)                          # DDZ-35
        s.side_of = tuple(sides)


def kitty_event(s: DdzState) -> Event:
    """KITTY: the taker and his cards, value the count (DDZ-29/30, DDZ-33/34)."""
    if s.solo:
        return action(s, "KITTY", s.landlords[0], s.kitty, value=len(s.kitty))
    first = len(s.kitty) == 12
    seat = s.landlords[0] if first else s.landlords[1]
    return action(s, "KITTY", seat, s.kitty[:6], value=6)


def step_kitty(s: DdzState, e: Event) -> None:
    """The kitty to the landlords: all 12 to a solo landlord, else the first 6 to the big / 正
    landlord and the last 6 to the second / 反 (DDZ-29, DDZ-30, DDZ-33, DDZ-34)."""
    exp = kitty_event(s)
    rule = {"2v4": "DDZ-29" if s.solo else "DDZ-30"}.get(
        s.variant, "DDZ-33" if s.solo else "DDZ-34")
    exact(s, e, exp, rule)
    seat = exp.seat
    set_hand(s, seat, sort_hand(s.hands[seat] + exp.cards))
    s.shares = s.shares[:seat] + (s.shares[seat] + exp.cards,) + s.shares[seat + 1:]
    s.kitty = s.kitty[len(exp.cards):]
    s.owed = s.owed[1:]
    if s.kitty:
        return
    if s.variant == "zhengfan" and not s.solo:
        s.phase = SIDE
        _side_next(s)
    else:
        autowin_point(s)                                     # DDZ-79


# ---------------------------------------------------------------- side choosing (DDZ-35)

def side_facts(s: DdzState) -> tuple[int, int]:
    """The farmer to be given a side now and, if he is placed, his side (else -1); (-1, -1)
    once all four have one."""
    f = s.farmer_order
    got = [s.side_of[x] for x in f]
    k = sum(1 for x in got if x >= 0)
    if k == 4:
        return -1, -1
    if k < 2:
        return f[k], -1
    if k == 2:
        return f[2], (1 - got[0] if got[0] == got[1] else -1)
    zheng = sum(1 for x in got[:3] if x == LANDLORD_SIDE)
    return f[3], (LANDLORD_SIDE if zheng == 1 else OTHER_SIDE)


def _side_next(s: DdzState) -> None:
    seat, placed = side_facts(s)
    if seat < 0:
        s.owed = ("SIDES_END",)
    elif placed >= 0:
        s.owed = ("SIDE_CHOICE",)
    else:
        s.owed = ()


def chooser(s: DdzState) -> int:
    """The farmer who chooses a side now (DDZ-35), -1 if none does."""
    seat, placed = side_facts(s)
    return seat if placed < 0 else -1


def step_side_choice(s: DdzState, e: Event) -> None:
    """DDZ-35: F1, F2 (and F3 when they differ) choose zheng (0) or fan (1); the others are
    placed by the engine (tag ``placed``)."""
    seat, placed = side_facts(s)
    if e.cards or e.payload is not None:
        raise invalid(s, e, "SIDE_CHOICE carries the side as value only", "cards")
    if placed >= 0:
        exact(s, e, action(s, "SIDE_CHOICE", seat, value=placed, tag=PLACED), "DDZ-35")
    else:
        if e.seat != seat:
            raise illegal(s, e, "DDZ-35", f"seat {seat} chooses a side now")
        if e.tag:
            raise illegal(s, e, "DDZ-35", "a farmer asked to choose is not placed")
        if e.value not in (LANDLORD_SIDE, OTHER_SIDE):
            raise invalid(s, e, "the side is 0 (zheng) or 1 (fan)", "value")
        check_default(s, e, e.value == LANDLORD_SIDE, "the default side is zheng")
    s.side_of = s.side_of[:seat] + (e.value,) + s.side_of[seat + 1:]
    if placed >= 0:
        s.placed += (seat,)
    _side_next(s)


def sides_end_event(s: DdzState) -> Event:
    """SIDES_END: the 正 landlord (seat) and the 反 landlord (target), who see it whole, and
    the bit mask of the seats on the 反 side (value, DDZ-36)."""
    mask = sum(1 << i for i, x in enumerate(s.side_of) if x == OTHER_SIDE)
    return action(s, "SIDES_END", s.landlords[0], target=s.landlords[1], value=mask)


def step_sides_end(s: DdzState, e: Event) -> None:
    """DDZ-36: side choosing has ended; the auto-win check follows (DDZ-79)."""
    exact(s, e, sides_end_event(s), "DDZ-35")
    s.sides_done, s.fixed, s.owed = True, True, ()
    autowin_point(s)


# ---------------------------------------------------------------- auto-win (DDZ-78, DDZ-79)

def landlord_condition(s: DdzState, hand: tuple[int, ...]) -> str:
    """The first of DDZ-78 (a) (``landlord`` reading), (b), (c) a landlord's hand meets, or ''."""
    if s.options.no_bomb_autowin == "landlord" and not holds_bomb(hand):
        return "a"
    if bombs_after_one_play(hand, s.variant, s.options):
        return "b"
    if holds_big_bomb(hand):
        return "c"
    return ""


def autowin_found(s: DdzState) -> tuple[str, int, int] | None:
    """DDZ-78, DDZ-79: (condition, seat, winning side) of an auto-win, (void, -1, -1) when both
    zhengfan landlords meet one, None when play goes on."""
    met = [(cond, x) for x in s.landlords if (cond := landlord_condition(s, s.hands[x]))]
    if s.variant == "2v4":
        if met:
            return met[0][0], met[0][1], LANDLORD_SIDE
        if s.options.no_bomb_autowin == "farmers" and not any(
                holds_bomb(h) for i, h in enumerate(s.hands) if i not in s.landlords):
            return "a", -1, LANDLORD_SIDE
        return None
    if len(met) == 2:
        return VOID, -1, -1
    if met:
        cond, seat = met[0]
        return cond, seat, s.side_of[seat]
    return None


def autowin_point(s: DdzState) -> None:
    """The one auto-win check (DDZ-79): AUTO_END owed, or show hand begins (DDZ-38)."""
    found = autowin_found(s)
    if found is not None:
        s.auto = found
        s.owed = ("AUTO_END",)
    else:
        s.phase, s.owed = SHOW, ()


def auto_end_event(s: DdzState) -> Event:
    """AUTO_END: the condition as tag (case_c, a, b, c or void), its seat, the winning side."""
    reason, seat, side = s.auto
    return action(s, "AUTO_END", seat, value=side, tag=reason)


def step_auto_end(s: DdzState, e: Event) -> None:
    """DDZ-77 (3v3 case C), DDZ-78/79 (4-deck): the hand ends without play."""
    exact(s, e, auto_end_event(s), "DDZ-77" if s.variant == "3v3" else "DDZ-78")
    s.win_side = s.auto[2]
    s.end_reason = VOID if s.auto[0] == VOID else "auto"
    s.owed = ("HAND_END",)


# ---------------------------------------------------------------- doubling, show hand (section 7)

def chooser_order(s: DdzState) -> tuple[int, ...]:
    """Who decides in this phase, in order: 3v3 every seat from M (DDZ-37); 4-deck the
    landlords, the big (正) landlord first (DDZ-38)."""
    if s.phase == DOUBLE:
        return tuple((s.om + k) % SEATS for k in range(SEATS))
    return s.landlords


def decider(s: DdzState) -> int:
    """The seat to double or to decide on show hand now, -1 none."""
    done = len(s.doubles) if s.phase == DOUBLE else len(s.shows)
    order = chooser_order(s)
    return order[done] if done < len(order) else -1


def step_choice(s: DdzState, e: Event) -> None:
    """DOUBLE (DDZ-37) or SHOW_HAND (DDZ-38): yes (1) or no (0), once per seat, in order."""
    rule = "DDZ-37" if e.kind == "DOUBLE" else "DDZ-38"
    seat = decider(s)
    if e.seat != seat:
        who = "a landlord" if e.kind == "SHOW_HAND" else "every seat"
        raise illegal(s, e, rule, f"seat {seat} decides now ({who} decides once, in order)")
    if e.cards or e.tag or e.payload is not None:
        raise invalid(s, e, f"{e.kind} carries yes (1) or no (0) only", "cards")
    if e.value not in (0, 1):
        raise invalid(s, e, "the choice is 1 (yes) or 0 (no)", "value")
    check_default(s, e, e.value == 0, "the default is to decline")
    if e.kind == "DOUBLE":
        s.doubles += (e.value,)
        if len(s.doubles) == SEATS:
            s.mult += sum(s.doubles)             # DDZ-37: shown together, each + 1
            start_play(s)
        return
    s.shows += (e.value,)
    if len(s.shows) == len(s.landlords):
        s.owed = ("SHOW_END",)


def show_end_event(s: DdzState) -> Event:
    """SHOW_END: the decisions shown together (DDZ-38): the shown seats as a bit mask
    (target), their hands (cards, in landlord order) and N after (value, DDZ-39)."""
    seats = tuple(x for x, v in zip(s.landlords, s.shows, strict=True) if v)
    cards = tuple(c for x in seats for c in s.hands[x])
    n = s.mult + show_increment(len(seats), s.solo)
    return action(s, "SHOW_END", cards=cards, target=sum(1 << x for x in seats), value=n)


def step_show_end(s: DdzState, e: Event) -> None:
    """DDZ-38, DDZ-39: shown hands stay face up; N + 3, + 6 or + 9; play begins."""
    exp = show_end_event(s)
    exact(s, e, exp, "DDZ-39")
    s.shown = tuple(x for x in s.landlords if exp.target >> x & 1)
    s.mult = exp.value
    s.owed = ()
    start_play(s)


def first_leader(s: DdzState) -> int:
    """DDZ-71: 3v3 M; 2v4 the big landlord; zhengfan a farmer: the solo landlord's previous
    seat, else OM − 1, or OM − 2 when OM − 1 is DM."""
    if s.variant == "3v3":
        return s.om
    if s.variant == "2v4":
        return s.landlords[0]
    if s.solo:
        return (s.landlords[0] - 1) % SEATS
    seat = (s.om - 1) % SEATS
    return (s.om - 2) % SEATS if seat == s.dm else seat


def start_play(s: DdzState) -> None:
    """The first round begins (DDZ-71)."""
    s.phase = PLAY
    s.leader = s.turn = first_leader(s)
    s.round_no, s.turn_rule = 1, "DDZ-71"
