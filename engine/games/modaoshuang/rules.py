"""摸到爽 rules: checking and applying one event, and the automatic events the engine owes.

``step(state, event)`` validates the event completely before it changes anything, then evolves
the state in place; ``apply`` and ``check`` in game.py run it on a copy. The automatic events
(DEAL, SUIT_DRAW, PHASE_SHOUDAOSHUANG, MISSED_REPORT, penalty DRAWs, ROUND_END, GAME_END) are
owed (``next_auto``) and checked field by field, the SUIT_DRAW for consistency (its outcome is
chance).
"""

from __future__ import annotations

import json
from bisect import bisect_left
from typing import cast

from engine.cards import format_face, format_faces
from engine.events import NONE, Event, payload_json
from engine.games.frame import check_frame, check_seat, illegal, invalid, result_diff
from engine.games.modaoshuang.cards import (
    FACE_TEXT,
    IS_JOKER,
    STRENGTH,
    SUIT,
    SUITS,
    hand_value,
    has_suit,
)
from engine.games.modaoshuang.plays import (
    FINAL,
    PENALTY,
    TURN,
    action,
    draw_rule,
    final_rule,
    follow_rule,
    held_flag,
    joker_rule,
    no_play_rule,
    violates,
)
from engine.games.modaoshuang.scoring import dianpao_seat, settle
from engine.games.modaoshuang.state import (
    DEAL,
    END,
    JOKER,
    OVER,
    PLAY,
    REPORT,
    SUIT_DRAW,
    MdsState,
)

PHASE_KIND = "PHASE_SHOUDAOSHUANG"
AUTO_RULE = {
    "DEAL": "MDS-9", "SUIT_DRAW": "MDS-10", PHASE_KIND: "MDS-28", "DRAW": "MDS-24",
    "MISSED_REPORT": "MDS-23", "ROUND_END": "MDS-11", "GAME_END": "MDS-34",
}
AUTO_KINDS = frozenset(AUTO_RULE) - {"DRAW"}
ROUND_FINAL = "final"
_new = tuple.__new__


# ---------------------------------------------------------------- hands

def _set_hand(s: MdsState, seat: int, hand: tuple[int, ...]) -> None:
    hands = s.hands
    s.hands = hands[:seat] + (hand,) + hands[seat + 1:]


def _gain(s: MdsState, seat: int, cards: tuple[int, ...]) -> None:
    """Cards into a hand other than by its own play; an open report of that seat lapses (its
    count is no longer the one to announce, docs/modaoshuang.md)."""
    hand = s.hands[seat]
    if len(cards) == 1:
        i = bisect_left(hand, cards[0])
        new = hand[:i] + cards + hand[i:]
    else:
        new = tuple(sorted(hand + cards))
    hands = s.hands
    s.hands = hands[:seat] + (new,) + hands[seat + 1:]
    if seat == s.report_seat:
        s.report_seat, s.report_count = -1, 0


def _go_out(s: MdsState, seat: int) -> None:
    """MDS-33: the seat has gone out; the final round begins (MDS-34), no report is due any
    more (MDS-27)."""
    s.winner = seat
    s.dianpao = dianpao_seat(s.table_seats, seat, s.round_no, s.options.mds_dianpao)
    s.report_seat, s.report_count = -1, 0
    s.missed = ()


# ---------------------------------------------------------------- the automatic events

def next_auto(s: MdsState) -> str | None:
    """Kind of the automatic event the engine owes now (section 13's order), or None."""
    ph = s.phase
    if ph == PLAY:
        if not s.stock and not s.shou:
            return PHASE_KIND
        if s.pen_draws:
            return "DRAW"
        if s.pen_gifts:
            return None
        if s.missed:
            return "MISSED_REPORT"
        if s.turns == s.n:
            return "ROUND_END"
        return None
    if ph == END:
        return "GAME_END"
    if ph == DEAL:
        return "DEAL"
    if ph == SUIT_DRAW:
        return "SUIT_DRAW"
    return None


def owed_rule(s: MdsState, kind: str) -> str:
    """The rule that makes the engine owe this automatic event."""
    if kind == "MISSED_REPORT" and s.missed and s.missed[0][1] == JOKER:
        return "MDS-20"
    if kind == "ROUND_END" and s.winner >= 0:
        return "MDS-34"             # the final round is over: the game is settled
    return AUTO_RULE[kind]


def deal_seat(s: MdsState) -> int:
    """The seat the next DEAL is for (MDS-9: from the first leader, in turn order)."""
    return (s.first_leader + sum(1 for h in s.hands if h)) % s.n


def round_winner(s: MdsState) -> int:
    """MDS-13, MDS-31: the player of the highest card played in this round (-1: none)."""
    table = s.table
    if not table:
        return -1
    return s.table_seats[table.index(max(table, key=STRENGTH.__getitem__))]


def _ints(xs: tuple[int, ...]) -> str:
    return "[" + ",".join(map(str, xs)) + "]"


def result_payload(s: MdsState) -> str:
    """The canonical JSON result a GAME_END must carry (MDS-33 to MDS-39): the text
    ``json.dumps(result, sort_keys=True, separators=(",", ":"))`` gives, built directly (it
    is computed for every game replayed)."""
    sums = tuple(hand_value(h) for h in s.hands)
    mode = s.options.mds_settlement
    st = settle(sums, s.winner, s.dianpao, mode)
    hands = ",".join("[" + ",".join(f'"{FACE_TEXT[c]}"' for c in h) + "]" for h in s.hands)
    dp = str(s.dianpao) if s.dianpao >= 0 else "null"
    return (f'{{"base_losses":{_ints(st.base_losses)},"dianpao":{dp},'
            f'"face_sums":{_ints(sums)},"final_hands":[{hands}],'
            f'"payments":{_ints(st.payments)},"reason":"out","scores":{_ints(st.scores)},'
            f'"settlement":"{mode}","winner":{s.winner}}}')


def auto_event(s: MdsState, kind: str) -> Event:
    """The automatic event owed now, as the engine builds it; the SUIT_DRAW given here is the
    deterministic representative (the first suited card of the stock, the order kept)."""
    if kind == "DEAL":
        seat = deal_seat(s)
        n, h = s.n, s.options.mds_hand_size
        j = (seat - s.first_leader) % n
        return action(s, kind, seat, s.deck[j:n * h:n], value=len(s.deck) - n * h)
    if kind == "SUIT_DRAW":
        card = next(c for c in s.stock if not IS_JOKER[c])
        return suit_draw_event(s, (card,), s.stock)
    if kind == "DRAW":
        return action(s, kind, s.pen_seat, s.stock[:1], tag=PENALTY)
    if kind == "MISSED_REPORT":
        seat, cause = s.missed[0]
        return action(s, kind, seat, tag=cause)
    if kind == "ROUND_END":
        seat, coll, cards, tag = _round_end_facts(s)
        return action(s, kind, seat, cards, coll, s.round_no, tag)
    if kind == "GAME_END":
        return _new(Event, (kind, -1, (), s.winner, s.dianpao, "out", result_payload(s),
                            s.game_id, s.seq, 0, b""))
    return action(s, kind, -1)            # PHASE_SHOUDAOSHUANG


def suit_draw_event(s: MdsState, drawn: tuple[int, ...], order: tuple[int, ...]) -> Event:
    """A SUIT_DRAW: the drawer (the first leader's 上家), the drawn cards followed by the stock
    order after the reshuffle, the announced suit as value (MDS-10)."""
    return action(s, "SUIT_DRAW", (s.first_leader - 1) % s.n, drawn + order,
                  value=SUIT[drawn[-1]])


def _round_end_facts(s: MdsState) -> tuple[int, int, tuple[int, ...], str]:
    """ROUND_END's seat (round winner), target (collector), cards (collected) and tag."""
    if s.winner >= 0:
        return round_winner(s), -1, (), ROUND_FINAL
    coll = s.collector
    cards = tuple(c for c in s.table if c < 52) if coll >= 0 else ()
    return round_winner(s), coll, cards, ""


def _exact(s: MdsState, e: Event, exp: Event, rule: str) -> None:
    if e[1:7] != exp[1:7]:        # seat, cards, target, value, tag, payload
        raise illegal(s, e, rule, f"the engine owes {exp.describe()}")


def _step_deal(s: MdsState, e: Event) -> None:
    n, h = s.n, s.options.mds_hand_size
    k = sum(1 for x in s.hands if x)                  # seats dealt so far
    seat, cards = (s.first_leader + k) % n, s.deck[k:n * h:n]
    if e[1:7] != (seat, cards, NONE, len(s.deck) - n * h, "", None):
        _exact(s, e, auto_event(s, "DEAL"), "MDS-9")
    _set_hand(s, seat, tuple(sorted(cards)))
    if k + 1 == n:
        s.stock = s.deck[n * h:]
        s.phase = SUIT_DRAW


def _check_suit_draw(s: MdsState, e: Event) -> tuple[tuple[int, ...], tuple[int, ...]]:
    drawer = (s.first_leader - 1) % s.n
    if e.seat != drawer:
        raise illegal(s, e, "MDS-10", f"the suit is drawn by seat {drawer}, the first "
                      f"leader's 上家")
    if e.target != NONE or e.tag or e.payload is not None:
        raise invalid(s, e, "SUIT_DRAW carries cards and the suit only", "target")
    k = len(e.cards) - len(s.stock)
    if k < 1 or not all(isinstance(c, int) and 0 <= c < 54 for c in e.cards):
        raise invalid(s, e, f"cards must be the drawn cards then the {len(s.stock)}-card stock "
                      "order", "cards")
    drawn, order = e.cards[:k], e.cards[k:]
    stock = set(s.stock)
    if not all(c in stock for c in drawn) or IS_JOKER[drawn[-1]] or \
            not all(IS_JOKER[c] for c in drawn[:-1]):
        raise illegal(s, e, "MDS-10", "the draw takes stock cards, jokers redrawn, until a "
                      f"suited card: got {format_faces(drawn)}")
    if e.value != SUIT[drawn[-1]]:
        raise illegal(s, e, "MDS-10", f"the drawn {format_face(drawn[-1])} announces suit "
                      f"{SUITS[SUIT[drawn[-1]]]}, event says {e.value}")
    if sorted(order) != sorted(s.stock):
        raise illegal(s, e, "MDS-10", "the reshuffled stock must be a permutation of the stock")
    return drawn, order


def _step_suit_draw(s: MdsState, e: Event) -> None:
    drawn, order = _check_suit_draw(s, e)
    s.stock = order
    s.suit_cards = drawn
    s.first_suit = s.suit = e.value
    s.phase = PLAY
    s.round_no = 1
    s.leader = s.first_leader
    s.turns = 0


def _step_phase(s: MdsState, e: Event) -> None:
    _exact(s, e, auto_event(s, PHASE_KIND), "MDS-28")
    s.shou = True


def _step_penalty_draw(s: MdsState, e: Event) -> None:
    card = s.stock[:1]
    if e[1:7] != (s.pen_seat, card, NONE, NONE, PENALTY, None):
        _exact(s, e, auto_event(s, "DRAW"), "MDS-24")
    s.stock = s.stock[1:]
    _gain(s, s.pen_seat, card)
    s.pen_draws = s.pen_draws - 1 if s.stock else 0    # MDS-24: what there is
    if not s.pen_draws:
        _penalty_done(s)


def _step_missed(s: MdsState, e: Event) -> None:
    seat, cause = s.missed[0]
    _exact(s, e, auto_event(s, "MISSED_REPORT"), owed_rule(s, "MISSED_REPORT"))
    s.missed = s.missed[1:]
    s.pen_seat, s.pen_cause = seat, cause
    if s.stock:
        s.pen_draws = 2                                       # MDS-24
        return
    n = s.n
    s.pen_gifts = tuple(g for g in ((seat + k) % n for k in range(1, n))
                        if len(s.hands[g]) >= 4)              # MDS-25
    if not s.pen_gifts:
        _penalty_done(s)


def _penalty_done(s: MdsState) -> None:
    """A penalty is complete: a violation that emptied the hand goes out now if the penalty
    left it without a card (MDS-20)."""
    seat = s.pen_seat
    s.pen_seat, s.pen_cause, s.pen_draws, s.pen_gifts = -1, "", 0, ()
    if seat == s.out_pending and not s.missed:
        s.out_pending = -1
        if not s.hands[seat]:
            _go_out(s, seat)


def _step_round_end(s: MdsState, e: Event) -> None:
    table = s.table
    if s.winner < 0 and table:                      # _round_end_facts, inline
        seat = s.table_seats[table.index(max(table, key=STRENGTH.__getitem__))]
        coll, tag = s.collector, ""
        cards = tuple(c for c in table if c < 52) if coll >= 0 else ()
    else:
        seat, coll, cards, tag = _round_end_facts(s)
    if e.seat != seat:
        raise illegal(s, e, "MDS-13", f"the highest card of the round was played by seat "
                      f"{seat}")
    if e[2:7] != (cards, coll, s.round_no, tag, None):
        _exact(s, e, auto_event(s, "ROUND_END"), "MDS-34" if s.winner >= 0 else "MDS-30")
    if coll >= 0:
        _gain(s, coll, cards)
        s.dead = s.dead + tuple(c for c in s.table if c >= 52)
    else:
        s.dead = s.dead + s.table
    s.table = s.table_seats = ()
    s.collector = s.suit = -1
    s.turns = 0
    if s.winner >= 0:
        s.phase = END
        return
    s.leader = seat
    s.round_no += 1


def _step_game_end(s: MdsState, e: Event) -> None:
    payload = result_payload(s)
    if e[1:7] == (-1, (), s.winner, s.dianpao, "out", payload):
        s.phase = OVER
        s.result = payload
        return
    exp = auto_event(s, "GAME_END")
    want = json.loads(cast(str, exp.payload))         # the engine's GAME_END has its result
    got = None
    if e.payload is not None:
        got = payload_json(e)
    if (e.seat, e.cards, e.target, e.value, e.tag) != (-1, (), exp.target, exp.value, exp.tag) \
            or got != want:
        fields = "; ".join(f"{name} is {a}, event says {b}" for name, a, b in (
            ("winner", exp.target, e.target), ("点炮", exp.value, e.value),
            ("tag", exp.tag, e.tag)) if a != b)
        diff = result_diff(want, got) if got != want else ""
        raise illegal(s, e, "MDS-37", "the game's end differs from the engine's: "
                      + "; ".join(x for x in (fields, diff) if x))
    s.phase = OVER
    s.result = exp.payload


AUTO_STEP = {
    "DEAL": _step_deal, "SUIT_DRAW": _step_suit_draw, PHASE_KIND: _step_phase,
    "DRAW": _step_penalty_draw, "MISSED_REPORT": _step_missed, "ROUND_END": _step_round_end,
    "GAME_END": _step_game_end,
}


# ---------------------------------------------------------------- seat events

def _turn(s: MdsState, e: Event) -> tuple[int, tuple[int, ...]]:
    if s.pen_gifts:
        raise illegal(s, e, "MDS-25", f"seat {s.pen_gifts[0]} chooses a gift for seat "
                      f"{s.pen_seat} first")
    seat = (s.leader + s.turns) % s.n
    if e.seat != seat:
        raise illegal(s, e, "MDS-34" if s.winner >= 0 else "MDS-11", f"it is seat {seat}'s "
                      f"turn")
    return seat, s.hands[seat]


def _bad_card(s: MdsState, e: Event, hand: tuple[int, ...]) -> None:
    if len(e.cards) != 1:
        raise illegal(s, e, "MDS-11", "a play is exactly one card")
    c = e.cards[0]
    if not isinstance(c, int) or not 0 <= c < 54:
        raise invalid(s, e, f"card code {c!r} is not a face code 0-53", "cards")
    raise illegal(s, e, "MDS-11", f"seat {e.seat} does not hold {format_face(c)}")


PLAY_REASON = {
    "MDS-16": "a follower plays a card of the round suit or a joker",
    "MDS-19": "an RJ needs at least three cards in hand, a BJ two "
              "(mds_joker_violation=illegal)",
    "MDS-29": "in the 收到爽 phase a follower plays the round suit or a joker, or (lacking the "
              "suit) does not play",
    "MDS-34": "in the final round only a card of the round suit, never a joker",
}


def _step_play(s: MdsState, e: Event) -> None:
    seat = (s.leader + s.turns) % s.n
    if s.pen_gifts or e.seat != seat:
        _turn(s, e)                                  # raises: not this seat's turn now
    hand = s.hands[seat]
    cards = e.cards
    if len(cards) != 1 or cards[0] not in hand:
        _bad_card(s, e, hand)
    c = cards[0]
    if e.target != NONE or e.tag:
        raise invalid(s, e, "PLAY carries one card and, for a led joker, the named suit",
                      "target")
    suit = s.suit
    if c < 52 and c // 13 == suit:          # the round suit: legal for any follower
        if e.value != NONE:
            raise invalid(s, e, "only a led joker names a suit (value must be -1)", "value")
    else:
        suit = _unusual_play(s, e, hand, c)
    # apply: the card to the table, the deadline of an open report (MDS-22, MDS-23), a
    # violation's penalty (MDS-20), going out (MDS-33), a new report obligation
    i = hand.index(c)
    left = hand[:i] + hand[i + 1:]
    hands = s.hands
    s.hands = hands[:seat] + (left,) + hands[seat + 1:]
    s.table += (c,)
    s.table_seats += (seat,)
    s.suit = suit
    s.turns += 1
    if s.winner < 0 and (s.report_seat >= 0 or c >= 52 or len(left) <= 2):
        _play_duties(s, seat, c, len(hand), left)   # (none in the final round, MDS-27)


def _unusual_play(s: MdsState, e: Event, hand: tuple[int, ...], c: int) -> int:
    """A lead, a joker or an off-suit card: the rule it breaks, or the round suit it leaves."""
    lead = s.suit < 0
    if s.winner >= 0:
        rule = final_rule(c, s.suit)
    elif lead:
        rule = joker_rule(c, len(hand), s.options) if IS_JOKER[c] else None
    else:
        rule = follow_rule(s, hand, c)
    if rule:
        instead = "; lacking the suit, it draws (MDS-17)" \
            if rule == "MDS-16" and not has_suit(hand, s.suit) else ""
        raise illegal(s, e, rule, PLAY_REASON[rule] + f" (suit {_suit_text(s.suit)}){instead}")
    if lead and IS_JOKER[c]:
        if not 0 <= e.value <= 3:
            raise illegal(s, e, "MDS-12", "a led joker names the round suit (value 0-3 = s h c d)")
        return e.value
    if e.value != NONE:
        if IS_JOKER[c]:
            raise illegal(s, e, "MDS-3", "a follower's joker stands for the round suit: it "
                          "names none (value -1)")
        raise invalid(s, e, "only a led joker names a suit (value must be -1)", "value")
    return SUIT[c] if lead else s.suit


def _play_duties(s: MdsState, seat: int, c: int, held: int, left: tuple[int, ...]) -> None:
    """After a play (``held`` cards before it): the deadline of an open report (MDS-22,
    MDS-23), a violation's penalty (MDS-20), going out (MDS-33), a new report obligation."""
    violation = c >= 52 and violates(c, held)
    out = not left and not violation
    if s.report_seat >= 0:
        if not out:                             # MDS-27: no penalty once a seat is out
            s.missed += ((s.report_seat, REPORT),)
        s.report_seat, s.report_count = -1, 0
    if violation:
        s.missed += ((seat, JOKER),)
        if not left:
            s.out_pending = seat
    elif out:
        _go_out(s, seat)
        return
    k = len(left)
    if k == 2 or (k == 1 and s.options.mds_one_card_report):
        s.report_seat, s.report_count = seat, k


def _suit_text(suit: int) -> str:
    return SUITS[suit] if suit >= 0 else "not set"


DRAW_REASON = {
    "MDS-34": "nobody draws in the final round",
    "MDS-28": "the stock is empty: no further drawing",
    "MDS-18": "a leader with a card it may lead does not draw",
    "MDS-21": "诈摸 is off (mds_zhamo): a seat holding the round suit plays it",
}


def _step_draw(s: MdsState, e: Event) -> None:
    seat = (s.leader + s.turns) % s.n
    if s.pen_gifts or e.seat != seat:
        _turn(s, e)                                  # raises: not this seat's turn now
    hand = s.hands[seat]
    if e.tag != TURN:
        if e.tag == PENALTY:
            raise illegal(s, e, "MDS-24", "no penalty draw is owed now")
        raise invalid(s, e, f"a DRAW's reason is {TURN!r} or {PENALTY!r}", "tag")
    stock, suit = s.stock, s.suit
    if suit >= 0 and stock and s.winner < 0:       # a follower: draw_rule and held_flag inline
        lo, held = 13 * suit, 0
        for c in hand:
            if lo <= c < lo + 13:
                held = 1
                break
        rule = "MDS-21" if held and not s.options.mds_zhamo else None
    else:
        rule, held = draw_rule(s, hand), held_flag(s, hand)
    if rule is not None:
        raise illegal(s, e, rule, DRAW_REASON[rule])
    if e.value != held:
        raise invalid(s, e, f"value must be {held} (1: held the round suit, 0: did not, -1: a "
                      "leader's draw)", "value")
    cards = e.cards
    if cards != stock[:1] or e.target != NONE:
        raise illegal(s, e, "MDS-15", "a draw takes the top card of the stock")
    s.stock = stock[1:]
    i = bisect_left(hand, cards[0])
    hands = s.hands
    s.hands = hands[:seat] + (hand[:i] + cards + hand[i:],) + hands[seat + 1:]
    if seat == s.report_seat:                        # the count changed: the report lapses
        s.report_seat, s.report_count = -1, 0


def _step_no_play(s: MdsState, e: Event) -> None:
    seat = (s.leader + s.turns) % s.n
    if s.pen_gifts or e.seat != seat:
        _turn(s, e)                                  # raises: not this seat's turn now
    hand = s.hands[seat]
    if e.cards or e.value != NONE or e.target != NONE:
        raise invalid(s, e, "NO_PLAY carries its reason only", "cards")
    rule, tag = no_play_rule(s, hand)
    if rule:
        raise illegal(s, e, rule, {
            "MDS-32": "a leader holding a card it may lead must lead",
            "MDS-12": "the leader leads a card; not playing is for the 收到爽 phase and the "
                      "final round",
            "MDS-18": "a leader with no card it may lead draws while the stock is not empty",
            "MDS-17": "while the stock is not empty a follower plays or draws",
            "MDS-29": f"holding the round suit {_suit_text(s.suit)} it must play",
        }[rule])
    if e.tag != tag:
        raise invalid(s, e, f"the reason of this NO_PLAY is {tag!r}", "tag")
    if tag != FINAL and s.collector < 0:
        s.collector = seat                      # MDS-30, MDS-32
    s.turns += 1


def _step_report(s: MdsState, e: Event) -> None:
    if e.cards or e.target != NONE or e.tag:
        raise invalid(s, e, "REPORT carries the count announced only", "cards")
    if s.winner >= 0:
        raise illegal(s, e, "MDS-27", f"seat {s.winner} has gone out: no report is due")
    if e.value == 1 and not s.options.mds_one_card_report:
        raise illegal(s, e, "MDS-26", "the one-card report is off (mds_one_card_report)")
    if e.seat != s.report_seat or e.value != s.report_count:
        raise illegal(s, e, "MDS-22", f"seat {e.seat} has no report of {e.value} cards due")
    s.report_seat, s.report_count = -1, 0


def _step_gift(s: MdsState, e: Event) -> None:
    if not s.pen_gifts:
        raise illegal(s, e, "MDS-25", "no gift is due")
    giver = s.pen_gifts[0]
    if e.seat != giver:
        raise illegal(s, e, "MDS-25", f"gifts go in turn order: seat {giver} chooses now")
    if e.target != s.pen_seat:
        raise illegal(s, e, "MDS-25", f"a gift goes to the offender, seat {s.pen_seat}")
    if e.value != NONE or e.tag:
        raise invalid(s, e, "GIFT carries one card or none, and the offender", "value")
    if len(e.cards) > 1 or (e.cards and e.cards[0] not in s.hands[giver]):
        raise illegal(s, e, "MDS-25", "a gift is one card of the giver's hand, or none")
    if e.cards:
        c = e.cards[0]
        _set_hand(s, giver, tuple(x for x in s.hands[giver] if x != c))
        _gain(s, s.pen_seat, e.cards)
    s.pen_gifts = s.pen_gifts[1:]
    if not s.pen_gifts:
        _penalty_done(s)


HANDLERS = {
    "PLAY": _step_play, "DRAW": _step_draw, "NO_PLAY": _step_no_play, "REPORT": _step_report,
    "GIFT": _step_gift,
}


def step(s: MdsState, e: Event) -> None:
    """Check one event against the state (raises, changing nothing), then apply it in place."""
    if e.seq != s.seq or e.game_id != s.game_id or s.phase == OVER:
        check_frame(s, e, s.phase == OVER, "MDS-33")     # raises: the frame's checks first
    if s.phase == PLAY and (s.stock or s.shou) and not s.pen_draws and not s.missed \
            and s.turns != s.n:
        due = None                                   # next_auto's common case, inline
    else:
        due = next_auto(s)
    if due is not None:
        if e.kind != due:
            raise illegal(s, e, owed_rule(s, due), f"the engine owes {due} before any other "
                          "event")
        AUTO_STEP[due](s, e)
    else:
        handler = HANDLERS.get(e.kind)
        if handler is None:
            if e.kind in AUTO_KINDS:
                raise illegal(s, e, AUTO_RULE[e.kind], f"{e.kind} is not due now")
            raise invalid(s, e, f"unknown event kind {e.kind!r} for modaoshuang", "kind")
        if not 0 <= e.seat < s.n:
            check_seat(s, e)
        if e.payload is not None:
            raise invalid(s, e, "only GAME_START and GAME_END carry a payload", "payload")
        handler(s, e)
    s.seq += 1
