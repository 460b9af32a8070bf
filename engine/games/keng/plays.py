"""六人坑 legality of plays: play forms, matching the top play, stacking, duel cards, 抢 claims
(KENG-16 to KENG-20, KENG-27 to KENG-32, KENG-30, KENG-37, KENG-38).

Each ``*_rule`` function returns None for a legal play or the id of the rule it breaks; testing
one play never enumerates others. ``plays`` lists every legal form for the seat to act.
"""

from __future__ import annotations

from typing import cast

from engine.games.keng.cards import CLASS, IS_JOKER, IS_NUMBER, RANK, RJ, SUIT, A, K
from engine.games.keng.state import Duel, KengState


def form_rule(cards: tuple[int, ...]) -> str | None:
    """None if the cards are a play form (KENG-16), else the rule id broken."""
    n = len(cards)
    if n == 1:
        return None
    if n == 2 and cards[0] == cards[1]:
        return None
    if n == 3 and cards[0] == cards[1] == cards[2] == 53:
        return None
    return "KENG-16"


def match_rule(s: KengState, cards: tuple[int, ...], hand_len: int) -> str | None:
    """None if the play may go on the top play with P = 0 (KENG-17 to KENG-20), else a rule id."""
    f = cards[0]
    if IS_JOKER[f]:
        return None
    top = s.top
    t = top[0]
    if len(top) == 1:
        if IS_JOKER[t]:
            return None if SUIT[f] == s.top_suit else "KENG-20"
        if SUIT[f] == SUIT[t] or RANK[f] == RANK[t]:
            return None
        return "KENG-17" if len(cards) == 1 else "KENG-18"
    if SUIT[f] == s.top_suit:
        return None
    if not IS_JOKER[t] and RANK[f] == RANK[t] and (len(cards) == 2 or hand_len == 1):
        return None
    return "KENG-20" if IS_JOKER[t] else "KENG-19"


def last_joker_rule(s: KengState, cards: tuple[int, ...], hand_len: int) -> str | None:
    """KENG-32: a joker play that empties the hand needs a top play of the same joker."""
    f = cards[0]
    if IS_JOKER[f] and len(cards) == hand_len and s.top[0] != f:
        return "KENG-32"
    return None


def stack_rule(s: KengState, cards: tuple[int, ...], hand_len: int) -> str | None:
    """None if the play may be stacked on a pending draw (KENG-27, KENG-28), else a rule id."""
    cls = CLASS[cards[0]]
    if cls == A:
        return "KENG-29"
    if cls == RJ:
        return None
    if cls != K:
        return "KENG-27"
    tcls = CLASS[s.top[0]]
    if tcls == K:
        return match_rule(s, cards, hand_len)
    if tcls == RJ and s.options.keng_k_on_rj:
        return None if SUIT[cards[0]] == s.top_suit else "KENG-28"
    return "KENG-28" if tcls == RJ else "KENG-27"


def play_rule(s: KengState, cards: tuple[int, ...], hand_len: int) -> str | None:
    """None if the play is legal in context for the seat to act, else the rule id broken."""
    if s.pending > 0:
        rule = stack_rule(s, cards, hand_len)
    else:
        rule = match_rule(s, cards, hand_len)
    return rule or last_joker_rule(s, cards, hand_len)


def pass_rule(s: KengState, seat: int) -> str | None:
    """None if the seat to act may pass now (it drew two this turn, KENG-12), else the most
    specific rule it breaks: facing a draw it stacks or accepts (KENG-27); holding a legal
    play it plays (KENG-11), also after accepting; else it draws two first (KENG-12)."""
    if s.drawn:
        return None
    if s.pending > 0:
        return "KENG-27"
    return "KENG-11" if has_play(s, seat) else "KENG-12"


def duel_ok(s: KengState, f: int) -> bool:
    """KENG-30 step 2: may the duellist to act play this face?"""
    last = cast(Duel, s.duel).cards[-1]             # only asked during a duel
    if CLASS[last] == A:
        return CLASS[f] == A or (IS_NUMBER[f] and SUIT[f] == SUIT[last])
    return IS_NUMBER[f] and (SUIT[f] == SUIT[last] or RANK[f] == RANK[last])


def duel_faces(s: KengState) -> list[int]:
    """Distinct faces the duellist to act may play."""
    to_act = cast(Duel, s.duel).to_act              # only asked during a duel
    return [f for f in sorted(set(s.hands[to_act])) if duel_ok(s, f)]


def plays(s: KengState, seat: int) -> list[tuple[int, ...]]:
    """Every legal play form (before naming a suit) for the seat to act: per face in hand
    order its single, pair and (RJ) triple that ``play_rule`` allows."""
    hand = s.hands[seat]
    n = len(hand)
    rule = stack_rule if s.pending > 0 else match_rule      # play_rule's two branches

    def legal(cards: tuple[int, ...]) -> bool:
        return rule(s, cards, n) is None and (not IS_JOKER[cards[0]]
                                              or last_joker_rule(s, cards, n) is None)

    out: list[tuple[int, ...]] = []
    prev = -1
    for i, f in enumerate(hand):
        if f == prev:
            continue
        prev = f
        for cards in _forms(hand, i, f, n):
            if legal(cards):
                out.append(cards)
    return out


def _forms(hand: tuple[int, ...], i: int, f: int, n: int) -> tuple[tuple[int, ...], ...]:
    """The play forms of the face at hand[i] (sorted hand, its first copy): a single, a pair
    with a second copy, three RJ with a third (KENG-16)."""
    if i + 1 < n and hand[i + 1] == f:
        if f == 53 and i + 2 < n and hand[i + 2] == f:
            return ((f,), (f, f), (f, f, f))
        return ((f,), (f, f))
    return ((f,),)


def has_play(s: KengState, seat: int) -> bool:
    """True if the seat to act has any legal play."""
    return bool(plays(s, seat))



def due_seat(s: KengState) -> int:
    """The seat due to act: the duellist to act in a duel, else the seat to act."""
    if s.duel is not None:
        return s.duel.to_act
    return s.to_act


def valid_snatch(s: KengState, seat: int, card: int) -> bool:
    """KENG-37: may this seat snatch the top play with this card now?"""
    return (s.window and seat != s.top_seat and seat != due_seat(s) and card == s.top[0]
            and not s.top_duel and not IS_JOKER[card] and not s.banned[seat]
            and not (s.cycle < 3 and len(s.hands[seat]) == 1))


def snatch_rule(s: KengState, seat: int, card: int | None) -> tuple[str, str] | None:
    """None if the claim is a valid snatch, else the rule that forbids this seat's snatch now
    and why: cycle 1 (KENG-34), a ban (KENG-39), a closed window or a covered play (KENG-36),
    else the conditions and forbidden cases of KENG-37."""
    if s.cycle == 1:
        return "KENG-34", "snatching starts in cycle 2; this is cycle 1"
    if s.banned[seat]:
        return "KENG-39", f"seat {seat} is banned from snatching"
    top = s.top[0]
    if card is not None and card != top and s.covered and card == s.covered[0]:
        return "KENG-36", "only the top play can be snatched; the play it covered no longer"
    if not s.window:
        return "KENG-36", "the top play's snatch window has closed"
    if seat == s.top_seat:
        return "KENG-37", "a seat cannot snatch its own play"
    if card != top:
        return "KENG-37", "a snatch plays one card identical to the top play's card"
    if s.top_duel:
        return "KENG-37", "the top play is a duel card (forbidden case 1)"
    if IS_JOKER[top]:
        return "KENG-37", "the top play is a joker play (forbidden case 2)"
    if s.cycle < 3 and len(s.hands[seat]) == 1:
        return "KENG-37", "before cycle 3 a seat holding one card may not snatch (forbidden " \
                          "case 3)"
    return None


def judge_claim(s: KengState, seat: int, card: int | None) -> str:
    """The outcome of a 抢 claim (KENG-38): valid, void, refused or false."""
    if s.cycle == 1:
        return "void"
    if s.banned[seat]:
        return "refused"
    if card is not None and valid_snatch(s, seat, card):
        return "valid"
    if card is not None and ((card == s.top[0] and not s.window)
                             or (s.covered and card == s.covered[0])):
        return "void"
    return "false"
