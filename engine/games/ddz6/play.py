"""六人斗地主 play (section 9), the events a play causes (REVEAL, LOCK), rounds, the end of the
hand (section 10) and its settlement (section 11, the GAME_END event).

Layered checks: is it this seat's turn (DDZ-71, DDZ-72, DDZ-74, DDZ-70), are the cards in the
hand (DDZ-40), not the locked joker (DDZ-70), a combination of the variant (section 8, via
``combos``), declared as it is (DDZ-93), beating the top play (DDZ-41, DDZ-42, …), with the N
it leaves (DDZ-83, DDZ-86, DDZ-87). Each ``*_rule`` returns None or the rule id broken.
"""

from __future__ import annotations

import json

from engine.cards import format_face
from engine.errors import IllegalMove
from engine.events import NONE, Event, payload_json
from engine.games.common import faces, holds
from engine.games.ddz6.cards import SORT_KEY, VALUE_NAMES
from engine.games.ddz6.combos import (
    AIRPLANE,
    BOMB,
    JOKER_BOMB,
    PAIR_SEQ,
    STRAIGHT,
    TRIO_SEQ,
    Combo,
    ComboRules,
    beats,
    beats_rule,
    combo_rules,
    lock_face,
    locked_joker,
    read,
)
from engine.games.ddz6.moves import Play, legal_plays
from engine.games.ddz6.scoring import bomb_increment, rule_of_n, settle
from engine.games.ddz6.setup import SEATS, action, check_default, exact, json_text, set_hand
from engine.games.ddz6.state import END, OUT, OVER, PLAY, VOID, DdzState
from engine.games.frame import illegal, invalid, result_diff

SEQUENCES = (STRAIGHT, PAIR_SEQ, TRIO_SEQ, AIRPLANE)
LOCK_TAG = "lock"


def declare(c: Combo) -> str:
    """The declared combination of DDZ-93 as a PLAY's tag: ``single:A``, ``straight:5:T``
    (m and top), ``airplane:2:15`` (m and key), ``bomb:6:9`` (size and rank),
    ``joker_bomb:J5`` (ladder place)."""
    tag = _DECLARED.get(c)
    if tag is None:
        tag = _DECLARED[c] = _declare(c)
    return tag


_DECLARED: dict[Combo, str] = {}     # every combination's tag, worked out once


def _declare(c: Combo) -> str:
    if c.kind == JOKER_BOMB:
        return f"{JOKER_BOMB}:{c.place}"
    if c.kind == BOMB:
        return f"{BOMB}:{c.size}:{VALUE_NAMES[c.key]}"
    if c.kind == AIRPLANE:
        return f"{AIRPLANE}:{c.m}:{c.key}"
    if c.kind in SEQUENCES:
        return f"{c.kind}:{c.m}:{c.key}"
    return f"{c.kind}:{VALUE_NAMES[c.key]}"


def n_after(s: DdzState, c: Combo) -> int:
    """N after a play of this combination (DDZ-81: a bomb counts whether it leads or follows)."""
    return s.mult + bomb_increment(c, s.four, s.solo)


def play_event(s: DdzState, seat: int, cards: tuple[int, ...], c: Combo) -> Event:
    """The PLAY event of these cards: the declared combination as tag, N after as value."""
    return action(s, "PLAY", seat, cards, value=n_after(s, c), tag=declare(c))


def default_play(s: DdzState, seat: int) -> tuple[int, ...] | None:
    """DDZ-75: a leader's default is his single card of lowest value (suits s h c d), never a
    locked joker; a follower's default is a pass (None)."""
    if s.top is not None:
        return None
    hand = [c for c in s.hands[seat] if c != s.locked]
    return (min(hand, key=SORT_KEY.__getitem__),) if hand else None


# ---------------------------------------------------------------- the rules of one play

def held_rule(hand: tuple[int, ...], cards: tuple[int, ...]) -> str | None:
    """DDZ-40: a play is a non-empty set of cards from the player's hand."""
    return None if cards and holds(hand, cards) else "DDZ-40"


def lock_rule(s: DdzState, cards: tuple[int, ...]) -> str | None:
    """DDZ-70: the eighth joker locked by a 七星聚 is never played."""
    return "DDZ-70" if s.locked >= 0 and s.locked in cards else None


def combo_rule(s: DdzState, cards: tuple[int, ...]) -> Combo | str:
    """Section 8: the combination the cards form, or the rule id that makes them none."""
    return read(cards, combo_rules(s.variant, s.options))


def declared_rule(e: Event, c: Combo) -> str | None:
    """DDZ-93 (DDZ-40): the declared combination equals the classification."""
    return None if e.tag == declare(c) else "DDZ-93"


def beat_rule(s: DdzState, c: Combo) -> str | None:
    """DDZ-72 with DDZ-41, DDZ-42, DDZ-54 / DDZ-69, DDZ-66: beats the top play, if any."""
    return None if s.top is None else beats(c, s.top, s.variant, s.options)


def turn_check(s: DdzState, e: Event) -> None:
    """The seat acting is the seat to act (the rule that made it so is cited)."""
    if s.phase != PLAY or s.owed:
        raise illegal(s, e, "DDZ-92", "no play or pass is legal now" + (
            f": the engine owes {s.owed[0]}" if s.owed else f" (phase {s.phase})"))
    if e.seat != s.turn:
        raise illegal(s, e, s.turn_rule, f"seat {s.turn} is to act")


def step_play(s: DdzState, e: Event) -> None:
    """A play by the seat to act (DDZ-40 … DDZ-42, DDZ-70, DDZ-72, DDZ-93, N: DDZ-81 …)."""
    turn_check(s, e)
    seat, cards = e.seat, e.cards
    if not all(isinstance(c, int) and 0 <= c < 54 for c in cards):
        raise invalid(s, e, "cards are face codes 0-53", "cards")
    if e.payload is not None:
        raise invalid(s, e, "PLAY carries cards, its declaration and N only", "payload")
    left = _without(s.hands[seat], cards)
    if left is None:
        raise illegal(s, e, "DDZ-40", f"seat {seat} does not hold these cards" if cards
                      else "a play has at least one card")
    if s.locked >= 0 and s.locked in cards:
        raise illegal(s, e, "DDZ-70", f"{format_face(s.locked)} is locked by the 七星聚")
    t = combo_rules(s.variant, s.options)
    c = read(cards, t)
    if isinstance(c, str):
        raise illegal(s, e, c, "these cards are no combination of the variant")
    if e.tag != declare(c):
        raise illegal(s, e, "DDZ-93", f"the cards are {declare(c)}, declared {e.tag!r}")
    rule = None if s.top is None else beats_rule(c, s.top, t)
    if rule:
        raise illegal(s, e, rule, f"{declare(c)} does not beat the top play "
                      f"{declare(s.top)}")
    inc = bomb_increment(c, s.four, s.solo)
    if e.value != s.mult + inc:
        raise illegal(s, e, rule_of_n(s.four, s.solo), f"N after this play is "
                      f"{s.mult + inc}, the event says {e.value}")
    if e.target != NONE:
        check_default(s, e, default_play(s, seat) == tuple(cards),
                      "a leader's default is his lowest single card")
    _apply_play(s, seat, tuple(cards), left, c, t, inc)


def _without(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...] | None:
    """The hand without these cards, order kept; None if it does not hold them all or there
    are none (DDZ-40)."""
    if not cards:
        return None
    h = list(hand)
    try:
        for c in cards:
            h.remove(c)
    except ValueError:
        return None
    return tuple(h)


def _apply_play(s: DdzState, seat: int, cards: tuple[int, ...], left: tuple[int, ...],
                c: Combo, t: ComboRules, inc: int) -> None:
    set_hand(s, seat, left)
    s.played += cards
    s.mult += inc
    if c.level:
        s.bomb_incs += (inc,)
    s.top, s.top_seat, s.top_cards, s.passes = c, seat, cards, 0
    s.acts = s.acts[:seat] + (cards,) + s.acts[seat + 1:]
    s.turn, s.turn_rule = (seat + 1) % SEATS, "DDZ-72"
    owed: tuple[str, ...] = ()
    if s.hidden and seat in s.hidden and seat not in s.revealed and s.mark_face in cards:
        owed += ("REVEAL",)                                  # DDZ-26
    if s.locked < 0 and c.level and _holder(s, lock_face(c, cards, t)) >= 0:
        owed += ("LOCK",)                                    # DDZ-70
    if not left:
        s.out_seat, s.end_reason = seat, OUT                 # DDZ-76
        s.win_side = side_code(s, seat)
        owed += ("HAND_END",)
    s.owed = owed


def lock_holder(s: DdzState, cards: tuple[int, ...]) -> int:
    """The seat holding the eighth joker a 七星聚 play locks (DDZ-70), -1 none."""
    return _holder(s, locked_joker(cards, s.variant, s.options))


def _holder(s: DdzState, face: int | None) -> int:
    """The seat holding this face (the first), -1 none or no face."""
    if face is None:
        return -1
    return next((i for i, h in enumerate(s.hands) if face in h), -1)


def step_pass(s: DdzState, e: Event) -> None:
    """DDZ-72, DDZ-73: a seat that is not leading may pass; five passes end the round."""
    turn_check(s, e)
    if e.cards or e.value != NONE or e.tag or e.payload is not None:
        raise invalid(s, e, "PASS carries nothing", "cards")
    if s.top is None:
        raise illegal(s, e, "DDZ-72", "the leader of a round plays; he may not pass")
    if e.target != NONE:
        check_default(s, e, True, "")
    s.passes += 1
    s.acts = s.acts[:e.seat] + ((),) + s.acts[e.seat + 1:]
    s.turn, s.turn_rule = (e.seat + 1) % SEATS, "DDZ-72"
    if s.passes == SEATS - 1:
        s.owed = ("ROUND_END",)                              # DDZ-74


# ---------------------------------------------------------------- engine events of play

def step_reveal(s: DdzState, e: Event) -> None:
    """DDZ-26: the hidden landlord who played an F card is revealed to all."""
    if s.top_seat not in s.hidden or s.top_seat in s.revealed:
        raise illegal(s, e, "DDZ-26", "only a hidden landlord's play reveals him")
    exact(s, e, action(s, "REVEAL", s.top_seat), "DDZ-26")
    s.revealed += (e.seat,)
    s.owed = s.owed[1:]


def lock_event(s: DdzState) -> Event:
    """LOCK: the seat holding the eighth joker and the joker (DDZ-70)."""
    face = locked_joker(s.top_cards, s.variant, s.options)
    return action(s, "LOCK", lock_holder(s, s.top_cards), (face,) if face is not None else ())


def step_lock(s: DdzState, e: Event) -> None:
    """DDZ-70: from now on the eighth joker cannot be played."""
    exp = lock_event(s)
    if exp.seat < 0 or not exp.cards:
        raise illegal(s, e, "DDZ-70", "the top play locks no joker held by a seat")
    exact(s, e, exp, "DDZ-70")
    s.locked = exp.cards[0]
    s.owed = s.owed[1:]


def next_leader(s: DdzState) -> tuple[int, str]:
    """DDZ-74: the seat that made the last play leads, unless it holds nothing but the locked
    joker: then the next seat in turn order does (DDZ-70)."""
    seat = s.top_seat
    for k in range(SEATS):
        x = (seat + k) % SEATS
        if any(c != s.locked for c in s.hands[x]):
            return x, LOCK_TAG if k else ""
    raise IllegalMove("DDZ-70", "no seat can lead", game_id=s.game_id, seq=s.seq)


def round_end_event(s: DdzState) -> Event:
    """ROUND_END: the next leader (seat), the seat that won the round (target); tag ``lock``
    when the lead passes on (DDZ-70)."""
    seat, tag = next_leader(s)
    return action(s, "ROUND_END", seat, target=s.top_seat, value=s.round_no, tag=tag)


def step_round_end(s: DdzState, e: Event) -> None:
    """DDZ-74: the round ends after five passes in succession."""
    exp = round_end_event(s)
    exact(s, e, exp, "DDZ-74")
    s.leader = s.turn = exp.seat
    s.turn_rule = "DDZ-70" if exp.tag else "DDZ-74"
    s.top, s.top_seat, s.top_cards, s.passes, s.owed = None, -1, (), 0, ()
    s.acts = (None,) * SEATS
    s.round_no += 1


# ---------------------------------------------------------------- end and settlement

def side_code(s: DdzState, seat: int) -> int:
    """A seat's true side code once formed: 0 landlords (正), 1 farmers (反); -1 not yet."""
    if s.variant == "zhengfan":
        return s.side_of[seat] if s.side_of else -1
    if seat in s.landlords:
        return 0
    return 1 if s.fixed else -1


def side_names(s: DdzState) -> tuple[str, str]:
    """The names of side codes 0 and 1: zheng / fan (zhengfan, not solo), else landlord /
    farmer."""
    if s.variant == "zhengfan" and not s.solo:
        return ("zheng", "fan")
    return ("landlord", "farmer")


def true_sides(s: DdzState) -> list[str | None]:
    """Each seat's side as far as it is formed (the auditor's knowledge)."""
    names = side_names(s)
    return [None if (k := side_code(s, i)) < 0 else names[k] for i in range(SEATS)]


def hand_end_event(s: DdzState) -> Event:
    """HAND_END: the seat that went out (-1: auto-win or void), the winning side as value, the
    reason as tag, every remaining hand (cards, seat by seat; sizes and sides in payload)."""
    cards = tuple(c for h in s.hands for c in h)
    payload = json_text({"hand_sizes": [len(h) for h in s.hands], "sides": true_sides(s)})
    reason = s.end_reason or VOID
    return action(s, "HAND_END", s.out_seat, cards, value=s.win_side, tag=reason,
                  payload=payload)


def step_hand_end(s: DdzState, e: Event) -> None:
    """DDZ-76 … DDZ-80: the hand is over; every identity and hand becomes public."""
    if not s.end_reason:
        s.end_reason = VOID
    exact(s, e, hand_end_event(s), "DDZ-76")
    s.phase, s.owed = END, ("GAME_END",)


def result_payload(s: DdzState) -> str:
    """The canonical JSON settlement (DDZ-81 … DDZ-90) a GAME_END carries."""
    sides = [side_code(s, i) for i in range(SEATS)]
    auto = s.end_reason != OUT
    st = settle(s.variant, s.base, s.mult, sides, s.win_side, s.landlords, s.solo, auto)
    names = side_names(s)
    parts: dict[str, list[int] | int] = {"bombs": list(s.bomb_incs)}
    if s.variant == "3v3":
        parts["doubles"] = sum(s.doubles)
    else:
        parts["show_hand"] = s.mult - 1 - sum(s.bomb_incs)
    return json_text({
        "reason": s.auto[0] if auto and s.auto else s.end_reason, "out_seat": s.out_seat,
        "winning_side": names[s.win_side] if s.win_side >= 0 else None,
        "S": s.base, "N": s.mult, "N_parts": parts, "W": st.w, "scores": list(st.scores),
        "sides": true_sides(s), "landlords": list(s.landlords), "solo": s.solo,
        "final_hands": [faces(h) for h in s.hands],
    })


def step_game_end(s: DdzState, e: Event) -> None:
    """DDZ-81 … DDZ-90: the settlement, the last event."""
    payload = result_payload(s)
    exp = action(s, "GAME_END", payload=payload)
    if e.payload != payload:
        got = payload_json(e)    # a payload that is no JSON object: InvalidEvent, naming it
        if e[1:6] == exp[1:6] and got != json.loads(payload):
            raise illegal(s, e, "DDZ-81", "the settlement differs from the engine's: "
                          + result_diff(json.loads(payload), got))
    exact(s, e, exp, "DDZ-81")
    s.phase, s.owed, s.result = OVER, (), payload


# ---------------------------------------------------------------- legal plays

def play_actions(s: DdzState) -> list[Event]:
    """Every legal action of the seat to act in play: PASS (unless leading) and each distinct
    play (canonical cards) that beats the top play."""
    return play_choices(s)[0]


def play_choices(s: DdzState) -> tuple[list[Event], list[Combo]]:
    """``play_actions`` and, in the same order, the combination of each PLAY among them."""
    seat = s.turn
    out = [] if s.top is None else [action(s, "PASS", seat)]
    combos = []
    mult, four, solo, gid, seq = s.mult, s.four, s.solo, s.game_id, s.seq
    for cards, c in turn_plays(s):
        out.append(Event("PLAY", seat, cards, NONE, mult + bomb_increment(c, four, solo),
                         declare(c), None, gid, seq))      # play_event, built inline
        combos.append(c)
    return out, combos


def turn_plays(s: DdzState) -> list[Play]:
    """Every legal play of the seat to act in play (cards and combination), in the order of
    ``play_actions``."""
    locked = s.locked if s.locked >= 0 else None
    return legal_plays(s.hands[s.turn], s.top, s.variant, s.options, locked)
