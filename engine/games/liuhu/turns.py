"""The turn (section 6): the deal (LH-12, LH-13), draws from the front and the tail (LH-11,
LH-14, LH-24), discards (LH-16), 暗杠 and 加杠 (LH-22, LH-23, LH-25), each checked before it
changes the state.

Event encoding: DEAL (system) cards every seat's cards, seat 0 first. DRAW (the player on
turn; owed by the engine) cards the card, tag ``front`` or ``tail``. DISCARD, AN_GANG and
JIA_GANG (the player on turn) cards the one card (for a 暗杠 the face shown, LH-23).
"""

from __future__ import annotations

from bisect import bisect_right

from engine.cards import format_face
from engine.events import NONE, Event
from engine.games.common import remove_cards
from engine.games.frame import illegal, invalid
from engine.games.liuhu.cards import RJ, SEATS
from engine.games.liuhu.setup import action, clear_window, deal_cards, deal_of
from engine.games.liuhu.state import (
    AN_GANG,
    CLAIMED,
    DISCARD_WINDOW,
    DRAW,
    MING_GANG,
    PENG,
    ROB_WINDOW,
    TAIL,
    TURN,
    WINDOW,
    LhState,
)

FRONT, TAIL_END = "front", "tail"


def set_hand(s: LhState, seat: int, hand: tuple[int, ...]) -> None:
    """Replace one seat's concealed cards."""
    s.hands = s.hands[:seat] + (hand,) + s.hands[seat + 1:]


def add_meld(s: LhState, seat: int, meld: tuple) -> None:
    """Lay a meld down for the seat."""
    s.melds = s.melds[:seat] + (s.melds[seat] + (meld,),) + s.melds[seat + 1:]


def gain(s: LhState, seat: int, card: int) -> None:
    """One card into a concealed hand (kept sorted)."""
    h = s.hands[seat]
    i = bisect_right(h, card)
    set_hand(s, seat, h[:i] + (card,) + h[i:])


def lose(s: LhState, seat: int, card: int) -> None:
    """One copy of a card (which the hand holds) out of a concealed hand."""
    h = s.hands[seat]
    i = h.index(card)
    set_hand(s, seat, h[:i] + h[i + 1:])


# ---------------------------------------------------------------- the deal

def deal_event(s: LhState) -> Event:
    """The DEAL the engine owes (LH-12)."""
    return action(s, "DEAL", cards=deal_cards(s), target=s.dealer)


def step_deal(s: LhState, e: Event) -> None:
    """DEAL: every seat's cards per LH-12; the dealer starts in the post-draw phase (LH-13)."""
    if e[1:7] != (NONE, deal_cards(s), s.dealer, NONE, "", None):
        raise illegal(s, e, "LH-12", "the deal is the wall's first 6H + 1 cards in rounds of "
                      "4 (and 1) from the dealer, then the dealer's extra card")
    got = deal_of(s.wall, s.dealer, s.options.groups)
    s.hands = tuple(tuple(sorted(x)) for x in got)
    s.front = 6 * s.hand_size() + 1
    s.turn, s.drawn, s.phase = s.dealer, -1, TURN


# ---------------------------------------------------------------- draws

def draw_event(s: LhState) -> Event:
    """The DRAW the engine owes: the front card in the draw phase (LH-14), the tail card after
    a kong (LH-24), W[f] or W[t] (LH-11)."""
    if s.phase == TAIL:
        return action(s, "DRAW", s.turn, (s.wall[s.tail],), tag=TAIL_END)
    return action(s, "DRAW", s.turn, (s.wall[s.front],), tag=FRONT)


def step_draw(s: LhState, e: Event) -> None:
    """DRAW of the owed card (``draw_event``); the drawer is then in the post-draw phase
    (LH-15)."""
    from_tail = s.phase == TAIL
    card, tag = (s.wall[s.tail], TAIL_END) if from_tail else (s.wall[s.front], FRONT)
    if e.seat != s.turn:         # the kong's declarer draws its replacement (LH-24)
        raise illegal(s, e, "LH-24" if from_tail else "LH-17", f"seat {s.turn} draws now")
    if e.tag != tag:
        rule = "LH-24" if from_tail else "LH-14"
        raise illegal(s, e, rule, f"the draw now is from the {tag} of the wall")
    if e.cards != (card,) or e[3:7] != (NONE, NONE, tag, None):
        raise illegal(s, e, "LH-11", f"the {tag} card of the wall is {format_face(card)}")
    if from_tail:
        s.tail -= 1
        s.rob_closed = -1           # the stood 加杠's window is over for every seat (LH-70)
    else:
        s.front += 1
    gain(s, s.turn, card)
    s.drawn, s.phase = card, TURN


# ---------------------------------------------------------------- the post-draw phase

def dealer_first_turn(s: LhState) -> bool:
    """True while the dealer is in its first post-draw phase, before any draw or play (LH-13)."""
    return s.phase == TURN and s.drawn < 0 and not s.pool and not any(s.melds)


def _own_turn(s: LhState, e: Event, post_draw_only: bool) -> int:
    """The seat on turn acts, in the phase the action needs, with one card of its hand."""
    if e.seat != s.turn:        # the hand opens with the dealer's turn (LH-13), else LH-17
        raise illegal(s, e, "LH-13" if dealer_first_turn(s) else "LH-17",
                      f"it is seat {s.turn}'s turn")
    if post_draw_only and s.phase == CLAIMED:
        raise illegal(s, e, "LH-18", "after 吃 or 碰 the claimer only discards")
    if len(e.cards) != 1 or e[3:7] != (NONE, NONE, "", None):
        raise invalid(s, e, f"{e.kind} carries exactly one card", "cards")
    c = e.cards[0]
    if not isinstance(c, int) or not 0 <= c < 54:
        raise invalid(s, e, f"card code {c!r} is not a face code 0-53", "cards")
    return c


def step_discard(s: LhState, e: Event) -> None:
    """DISCARD one card of the concealed hand (LH-16); a claim window opens (LH-34)."""
    c = _own_turn(s, e, False)
    seat = s.turn
    if c not in s.hands[seat]:
        raise illegal(s, e, "LH-16", f"seat {seat} holds no {format_face(c)}")
    lose(s, seat, c)
    s.pool += ((seat, c),)
    s.drawn = -1
    s.w_kind, s.w_card, s.w_from = DISCARD_WINDOW, c, seat
    s.phase = WINDOW


def _kong_checks(s: LhState, e: Event) -> int:
    c = _own_turn(s, e, True)
    if c == RJ:
        raise illegal(s, e, "LH-32", "an RJ is never part of a kong")
    if s.wall_size() < 1:
        raise illegal(s, e, "LH-25", "a kong needs at least one card left in the wall")
    return c


def step_an_gang(s: LhState, e: Event) -> None:
    """暗杠 of four concealed cards of one face (LH-23); a replacement draw follows (LH-24)."""
    c = _kong_checks(s, e)
    seat = s.turn
    if s.hands[seat].count(c) < 4:
        raise illegal(s, e, "LH-23", f"a 暗杠 needs four {format_face(c)} in the concealed "
                      "hand")
    set_hand(s, seat, remove_cards(s.hands[seat], (c,) * 4))
    add_meld(s, seat, (AN_GANG, (c,) * 4, -1, -1))
    s.drawn, s.phase = -1, TAIL


def peng_index(s: LhState, seat: int, face: int) -> int:
    """The index of the seat's 碰 meld of this face, -1 none."""
    for i, (kind, cards, _, _) in enumerate(s.melds[seat]):
        if kind == PENG and cards[0] == face:
            return i
    return -1


def step_jia_gang(s: LhState, e: Event) -> None:
    """加杠: a concealed card added to the seat's 碰 of its face (LH-22); the robbing window
    opens first (LH-29), the card held in it."""
    c = _kong_checks(s, e)
    seat = s.turn
    if peng_index(s, seat, c) < 0 or c not in s.hands[seat]:
        raise illegal(s, e, "LH-22", f"a 加杠 needs an exposed 碰 of {format_face(c)} and a "
                      "fourth card of it in the concealed hand")
    lose(s, seat, c)
    s.drawn = -1
    s.w_kind, s.w_card, s.w_from = ROB_WINDOW, c, seat
    s.phase = WINDOW


def kong_stands(s: LhState) -> None:
    """An unrobbed 加杠 is made: the 碰 becomes a 明杠 (LH-22, LH-29); a tail draw follows.
    The card is kept in ``rob_closed`` until that draw: the seats see the robbing window open
    till then whether or not anyone could rob (LH-70, ``info.view``)."""
    seat, c = s.w_from, s.w_card
    i = peng_index(s, seat, c)
    _, cards, frm, claimed = s.melds[seat][i]
    row = s.melds[seat][:i] + ((MING_GANG, cards + (c,), frm, claimed),) + \
        s.melds[seat][i + 1:]
    s.melds = s.melds[:seat] + (row,) + s.melds[seat + 1:]
    s.turn, s.phase, s.rob_closed = seat, TAIL, c


def no_claim(s: LhState) -> None:
    """A window closed with no claim executed: the next player draws (LH-17), or a 加杠
    stands (LH-29)."""
    if s.w_kind == ROB_WINDOW:
        kong_stands(s)
    else:
        s.turn, s.phase = (s.w_from + 1) % SEATS, DRAW
    clear_window(s)
