"""摸到爽 legality as small checks (shape, then context) and the legal actions of a seat.

Each ``*_rule`` returns the id of the rule an action breaks, or None; ``rules.step`` calls them
in layers (is it one held card, then may this seat play it here). The action lists are built
from the same checks, for bots, perft and audits; ``step`` never enumerates them.
"""

from __future__ import annotations

from engine.events import NONE, Event
from engine.games.modaoshuang.cards import IS_JOKER, MIN_HOLD, SUIT, has_suit
from engine.games.modaoshuang.options import ModaoshuangOptions
from engine.games.modaoshuang.state import MdsState

TURN, PENALTY = "turn", "penalty"                         # DRAW reasons
NO_SUIT, NO_LEAD, FINAL = "no_suit", "no_lead", "final"   # NO_PLAY reasons


def violates(card: int, hand_len: int) -> bool:
    """MDS-19: an RJ from fewer than three cards or a BJ as the last card."""
    return hand_len < MIN_HOLD[card]


def may_play(card: int, hand_len: int, opts: ModaoshuangOptions) -> bool:
    """'A card it may play' (MDS-20): any suited card; a joker within MDS-19, or any joker
    under ``penalty``."""
    return hand_len >= MIN_HOLD[card] or opts.mds_joker_violation == "penalty"


def can_lead(hand: tuple[int, ...], opts: ModaoshuangOptions) -> bool:
    """True if the hand holds a card it may lead (MDS-18)."""
    n = len(hand)
    for c in hand:
        if n >= MIN_HOLD[c] or opts.mds_joker_violation == "penalty":
            return True
    return False


# ---------------------------------------------------------------- rules of one play

def joker_rule(card: int, hand_len: int, opts: ModaoshuangOptions) -> str | None:
    """MDS-19 under ``illegal``: a joker beyond its limit is rejected (MDS-20)."""
    if not may_play(card, hand_len, opts):
        return "MDS-19"
    return None


def final_rule(card: int, suit: int) -> str | None:
    """MDS-34: in the final round only a card of the round suit, never a joker."""
    if IS_JOKER[card] or SUIT[card] != suit:
        return "MDS-34"
    return None


def follow_rule(s: MdsState, hand: tuple[int, ...], card: int) -> str | None:
    """MDS-16 / MDS-29: a follower plays the round suit or a joker it may play; an off-suit
    card breaks the follow rule (MDS-16; MDS-29 in the 收到爽 phase), also when the seat lacks
    the suit (MDS-17 says what it does instead: draw)."""
    if IS_JOKER[card]:
        return joker_rule(card, len(hand), s.options)
    if SUIT[card] == s.suit:
        return None
    return "MDS-16" if s.stock else "MDS-29"


def draw_rule(s: MdsState, hand: tuple[int, ...]) -> str | None:
    """May the seat to act draw a turn card now? (MDS-17, MDS-18, MDS-21, MDS-28, MDS-34)"""
    if s.winner >= 0:
        return "MDS-34"
    if not s.stock:
        return "MDS-28"
    if s.suit < 0:
        return "MDS-18" if can_lead(hand, s.options) else None
    if not s.options.mds_zhamo and has_suit(hand, s.suit):
        return "MDS-21"
    return None


def held_flag(s: MdsState, hand: tuple[int, ...]) -> int:
    """A turn DRAW's value: 1 if the seat held the round suit, 0 if not, -1 for a leader's
    draw (no round suit yet)."""
    if s.suit < 0:
        return NONE
    return 1 if has_suit(hand, s.suit) else 0


def no_play_rule(s: MdsState, hand: tuple[int, ...]) -> tuple[str | None, str]:
    """May the seat to act not play? The rule it breaks (or None) and the reason tag it must
    give (MDS-12, MDS-17, MDS-18, MDS-29, MDS-32, MDS-34)."""
    if s.winner >= 0:
        return None, FINAL
    if s.suit < 0:
        if can_lead(hand, s.options):       # it leads (MDS-12); MDS-32 is the phase's rule
            return ("MDS-12" if s.stock else "MDS-32"), NO_LEAD
        return ("MDS-18" if s.stock else None), NO_LEAD
    if s.stock:
        return "MDS-17", NO_SUIT
    if has_suit(hand, s.suit):
        return "MDS-29", NO_SUIT
    return None, NO_SUIT


# ---------------------------------------------------------------- action lists

_new = tuple.__new__


def action(s: MdsState, kind: str, seat: int, cards: tuple[int, ...] = (), target: int = NONE,
           value: int = NONE, tag: str = "") -> Event:
    """An action (or owed event) for the state's next seq, built without keyword parsing."""
    return _new(Event, (kind, seat, cards, target, value, tag, None, s.game_id, s.seq, 0, b""))


def _play_events(s: MdsState, seat: int, cards: list[int], lead: bool) -> list[Event]:
    out: list[Event] = []
    for c in cards:
        if lead and IS_JOKER[c]:
            out.extend(action(s, "PLAY", seat, (c,), value=v) for v in range(4))
        else:
            out.append(action(s, "PLAY", seat, (c,)))
    return out


def turn_actions(s: MdsState) -> list[Event]:
    """The legal actions of the seat whose turn it is (plays, draw, no play); empty when an
    automatic event or a gift is awaited, or the game is over."""
    if s.phase != "play" or s.pen_gifts:
        return []
    seat = s.turn_seat()
    hand = s.hands[seat]
    opts = s.options
    suit = s.suit
    if s.winner >= 0:
        out = _play_events(s, seat, [c for c in hand if SUIT[c] == suit], False)
        return out + [action(s, "NO_PLAY", seat, tag=FINAL)]
    n = len(hand)
    if suit < 0:
        cards = [c for c in hand if may_play(c, n, opts)]
    else:
        cards = [c for c in hand if SUIT[c] == suit or (IS_JOKER[c] and may_play(c, n, opts))]
    out = _play_events(s, seat, cards, suit < 0)
    if draw_rule(s, hand) is None:
        out.append(action(s, "DRAW", seat, s.stock[:1], value=held_flag(s, hand), tag=TURN))
    rule, tag = no_play_rule(s, hand)
    if rule is None:
        out.append(action(s, "NO_PLAY", seat, tag=tag))
    return out


def gift_actions(s: MdsState) -> list[Event]:
    """The choices of the seat to give next (MDS-25): each distinct card of its hand, or none."""
    if not s.pen_gifts:
        return []
    seat, to = s.pen_gifts[0], s.pen_seat
    return [action(s, "GIFT", seat, (c,), to) for c in s.hands[seat]] + \
        [action(s, "GIFT", seat, (), to)]


def report_actions(s: MdsState) -> list[Event]:
    """The open report (MDS-22, MDS-26), if any: an out-of-turn action of its seat."""
    if s.report_seat < 0 or s.phase != "play":
        return []
    return [action(s, "REPORT", s.report_seat, value=s.report_count)]
